//===- DescriptorRules.h - the rules of a tensor map's fields ------*- C++ -*-===//
//
// The rules one descriptor's fields obey whoever holds them: a copy's own
// attributes (tile.tma_copy), a template and the map derived from it
// (tile.tensormap_derive). Both verifiers ask these checks; each returns the
// first rule the known fields break and the diagnostic's text after the
// bracketed rule name.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_CONTRACT_DESCRIPTORRULES_H
#define TILE_CONTRACT_DESCRIPTORRULES_H

#include "Tile/Contract/Contract.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::tile {

/// Descriptor fields, each unset where nothing fixes it statically (a
/// pointer template that does not declare it).
struct DescriptorFields {
  std::optional<int> rank;
  std::optional<llvm::SmallVector<int64_t>> box;            // outer-to-inner
  std::optional<llvm::SmallVector<int64_t>> elementStrides; // outer-to-inner
  std::optional<Format> format;
  std::optional<int> swizzle;
  std::optional<int> interleave;
  std::optional<int> l2Promotion;
  std::optional<int> oobFill;
};

/// A broken rule and what its diagnostic says after "[rule] ".
struct RuleViolation {
  Rule rule;
  std::string message;
};
using RuleCheck = std::optional<RuleViolation>;

/// The rules of `fields`, in groups a verifier asks in its own order. `what`
/// names the map in messages: "the derived map" gives "the derived map's
/// box[0] = 0 is outside 1..256"; empty (a copy's own fields) gives
/// "box[0] = 0 is outside 1..256". A group checks only known fields.
class DescriptorRules {
public:
  explicit DescriptorRules(const DescriptorFields &fields,
                           llvm::StringRef what = "")
      : f(fields), what(what.str()) {}

  /// [rank-range].
  RuleCheck rank() const;
  /// [box-arity] (a tiled box: one extent per dimension), [box-extent].
  RuleCheck box() const;
  /// [element-strides-arity], [element-strides-range].
  RuleCheck elementStrides() const;
  /// The driver enum fields' values: [swizzle-range], [interleave-range],
  /// [l2-promotion-range], [oob-fill-range].
  RuleCheck enumRanges() const;
  /// [element-strides-inner].
  RuleCheck innerElementStride() const;
  /// [oob-fill-float]: a NaN fill needs a format the driver fills NaN for.
  RuleCheck oobFillFormat() const;
  /// With interleave: [interleave-rank], [interleave-32b-swizzle].
  RuleCheck interleave() const;
  /// Without interleave, the inner image row of `rowElements` elements:
  /// [box-inner-bytes] (whole 16-byte chunks; the padded packed formats
  /// take their own unit), [swizzle-inner-bytes] (within the swizzle span).
  RuleCheck innerRow(int64_t rowElements) const;
  /// Every group, in this order, for a tiled map (its inner row is its
  /// innermost box extent).
  RuleCheck all() const;

private:
  /// "" or "the derived map's ".
  std::string owner() const;
  /// "the " or "the derived map's ".
  std::string theOwner() const;

  const DescriptorFields &f;
  std::string what;
};

} // namespace mlir::tile

#endif // TILE_CONTRACT_DESCRIPTORRULES_H
