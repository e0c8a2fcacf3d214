//===- DerivedMap.h - the map tile.tensormap_derive publishes -----*- C++ -*-===//
//
// The fields of a tensor map derived on the device (tile.tensormap_derive):
// the template's, with the constant replacements applied. The verifier
// checks them with the contract's rules and against the copies that use the
// map; the lowering reads the tensormap.replace encodings of
// TensorMapReplace.def through this header.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_CONTRACT_DERIVEDMAP_H
#define TILE_CONTRACT_DERIVEDMAP_H

#include "Tile/Contract/Contract.h"
#include "Tile/Contract/DescriptorRules.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::tile {

/// Descriptor fields that are known statically; a field stays unset where
/// neither the template nor a constant replacement fixes it (a pointer
/// template that does not declare it). Checked by DescriptorRules.
using MapFields = DescriptorFields;

/// The template's fields: for a memref template the map the host encodes
/// (format and element strides default as on tile.tma_copy); for a pointer
/// template what the attributes declare.
MapFields getTemplateFields(TensorMapDeriveOp op);
/// The template's fields with the new_* attributes applied.
MapFields getDerivedFields(TensorMapDeriveOp op);

/// Verifies a tile.tma_copy whose global operand `op.getGlobal()` is the
/// result of a tile.tensormap_derive: the copy's own fields (`f`, with its
/// format resolved) equal the derived map's where it fixes them
/// ([derived-map-mismatch]).
LogicalResult verifyDerivedMapUse(TmaCopyOp op, TensorMapDeriveOp derive,
                                  const CopyFields &f);

/// One row of TensorMapReplace.def's TILE_REPLACE_FIELD.
enum class ReplaceField {
#define TILE_REPLACE_FIELD(ID, FIELD, INTRINSIC, BITS, INDEXED, IMMEDIATE,   \
                           MIN_PTX)                                            \
  ID,
#include "Tile/Contract/TensorMapReplace.def"
};
struct ReplaceFieldFacts {
  ReplaceField id;
  llvm::StringLiteral field;     // PTX spelling: "global_address"
  llvm::StringLiteral intrinsic; // LLVM intrinsic stem: "global.address"
  unsigned bits;                 // width of new_val
  bool indexed;                  // takes an ordinal (innermost-first)
  bool immediate;                // new_val is an immediate
  int minPtx;                    // PTX ISA version LLVM's NVPTX needs
};
const ReplaceFieldFacts &replaceFieldFacts(ReplaceField field);
/// The full intrinsic name for a map in address space `space` (1 or 3):
/// "llvm.nvvm.tensormap.replace.global.address.p3".
std::string replaceIntrinsic(ReplaceField field, unsigned space);
/// tensormap.replace's .elemtype value of `format`, and the PTX ISA it needs.
int replaceElemType(Format format);
int replaceElemTypeMinPtx(Format format);
/// (.swizzle_mode, .swizzle_atomicity) of a swizzle of DriverEnums.def.
std::pair<int, int> replaceSwizzle(int swizzle);

} // namespace mlir::tile

#endif // TILE_CONTRACT_DERIVEDMAP_H
