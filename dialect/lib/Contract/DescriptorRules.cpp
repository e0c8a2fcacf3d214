//===- DescriptorRules.cpp - the rules of a tensor map's fields -----------===//

#include "Tile/Contract/DescriptorRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Builds one violation: its rule, then the message streamed in.
class Violation {
public:
  explicit Violation(Rule rule) : rule(rule), os(text) {}
  template <typename T>
  Violation &operator<<(const T &value) {
    os << value;
    return *this;
  }
  operator RuleCheck() { return RuleViolation{rule, os.str()}; }

private:
  Rule rule;
  std::string text;
  llvm::raw_string_ostream os;
};
} // namespace

std::string DescriptorRules::owner() const {
  return what.empty() ? std::string() : what + "'s ";
}

std::string DescriptorRules::theOwner() const {
  return what.empty() ? std::string("the ") : what + "'s ";
}

RuleCheck DescriptorRules::rank() const {
  if (f.rank && !kRankRange.contains(*f.rank))
    return Violation(Rule::RankRange)
           << owner() << "rank " << *f.rank << " is outside "
           << kRankRange.str();
  return std::nullopt;
}

RuleCheck DescriptorRules::box() const {
  if (!f.box)
    return std::nullopt;
  if (f.rank && static_cast<int>(f.box->size()) != *f.rank)
    return Violation(Rule::BoxArity)
           << owner() << "box has " << f.box->size()
           << " extents, expected rank " << *f.rank;
  for (auto [i, extent] : llvm::enumerate(*f.box))
    if (!kBoxExtentRange.contains(extent))
      return Violation(Rule::BoxExtent)
             << owner() << "box[" << i << "] = " << extent << " is outside "
             << kBoxExtentRange.str();
  return std::nullopt;
}

RuleCheck DescriptorRules::elementStrides() const {
  if (!f.elementStrides)
    return std::nullopt;
  if (f.rank && static_cast<int>(f.elementStrides->size()) != *f.rank)
    return Violation(Rule::ElementStridesArity)
           << owner() << "element_strides has " << f.elementStrides->size()
           << " entries, expected rank " << *f.rank;
  for (auto [i, stride] : llvm::enumerate(*f.elementStrides))
    if (!kElementStrideRange.contains(stride))
      return Violation(Rule::ElementStridesRange)
             << owner() << "element_strides[" << i << "] = " << stride
             << " is outside " << kElementStrideRange.str();
  return std::nullopt;
}

RuleCheck DescriptorRules::enumRanges() const {
  if (f.swizzle && !swizzleFacts(*f.swizzle)) {
    llvm::SmallVector<std::string> names;
    for (const SwizzleFacts &s : swizzleTable())
      names.push_back(swizzleShortName(s.value));
    return Violation(Rule::SwizzleRange)
           << owner() << "swizzle " << *f.swizzle << " is outside "
           << driverEnumRange("swizzle").str() << " ("
           << llvm::join(names, ", ") << ")";
  }
  if (IntRange range = driverEnumRange("interleave");
      f.interleave && !range.contains(*f.interleave))
    return Violation(Rule::InterleaveRange)
           << owner() << "interleave " << *f.interleave << " is outside "
           << range.str() << " (none, 16B, 32B)";
  if (IntRange range = driverEnumRange("l2_promotion");
      f.l2Promotion && !range.contains(*f.l2Promotion))
    return Violation(Rule::L2PromotionRange)
           << owner() << "l2_promotion " << *f.l2Promotion << " is outside "
           << range.str();
  if (IntRange range = driverEnumRange("oob_fill");
      f.oobFill && !range.contains(*f.oobFill))
    return Violation(Rule::OobFillRange)
           << owner() << "oob_fill " << *f.oobFill << " is outside "
           << range.str() << " (zero, NaN)";
  return std::nullopt;
}

RuleCheck DescriptorRules::innerElementStride() const {
  if (f.elementStrides && !f.elementStrides->empty() && f.interleave == 0 &&
      f.elementStrides->back() != 1)
    return Violation(Rule::ElementStridesInner)
           << owner() << "element_strides[" << f.elementStrides->size() - 1
           << "] = " << f.elementStrides->back()
           << ": the innermost stride must be 1 without interleave";
  return std::nullopt;
}

RuleCheck DescriptorRules::oobFillFormat() const {
  if (f.oobFill != 1 || !f.format)
    return std::nullopt;
  const FormatFacts &facts = formatFacts(*f.format);
  if (!facts.isFloat)
    return Violation(Rule::OobFillFloat)
           << owner() << "oob_fill 1 (NaN) needs a floating-point format, got "
           << stringifyFormat(*f.format);
  // Formats.def's NaN-fill column: float formats the driver encodes no NaN
  // fill for (the packed ones).
  if (!facts.nanFill)
    return Violation(Rule::OobFillFloat)
           << owner() << "oob_fill 1 (NaN) is not available for "
           << stringifyFormat(*f.format) << ": the driver rejects a NaN fill of "
           << facts.cuName;
  return std::nullopt;
}

RuleCheck DescriptorRules::interleave() const {
  if (!f.interleave || *f.interleave <= 0)
    return std::nullopt;
  if (f.rank && *f.rank < kInterleaveRankRange.min)
    return Violation(Rule::InterleaveRank)
           << owner() << "interleave needs rank " << kInterleaveRankRange.str()
           << ", got " << *f.rank;
  if (*f.interleave == 2 && f.swizzle && *f.swizzle != 1)
    return Violation(Rule::Interleave32Swizzle)
           << owner() << "interleave 2 (32B) needs swizzle 1 (32B), got swizzle "
           << *f.swizzle;
  return std::nullopt;
}

RuleCheck DescriptorRules::innerRow(int64_t rowElements) const {
  if (!f.format || f.interleave != 0)
    return std::nullopt;
  bool padded = isPaddedPackedFormat(*f.format);
  int64_t bits = rowElements * formatBits(*f.format);
  int64_t bytes = bits / 8;
  // The padded packed formats move whole 16-element groups (their own
  // rules, [packed-inner-box]).
  if (!padded && bits % (kChunkBytes * 8) != 0)
    return Violation(Rule::BoxInnerBytes)
           << theOwner() << "inner box row is "
           << (bits % 8 ? std::to_string(bits) + " bits"
                        : std::to_string(bytes) + " bytes")
           << " (" << rowElements << " " << stringifyFormat(*f.format)
           << " elements), expected a multiple of " << kChunkBytes
           << " bytes";
  // A padded packed row takes one shared byte per element.
  int64_t stored = padded ? rowElements * sharedElementBytes(*f.format) : bytes;
  int64_t span = f.swizzle ? swizzleSpanBytes(*f.swizzle) : 0;
  if (span > 0 && stored > span)
    return Violation(Rule::SwizzleInnerBytes)
           << theOwner() << "inner box row is " << stored
           << " bytes, more than the " << span << "-byte span of swizzle "
           << *f.swizzle;
  return std::nullopt;
}

RuleCheck DescriptorRules::all() const {
  for (RuleCheck (DescriptorRules::*group)() const :
       {&DescriptorRules::rank, &DescriptorRules::box,
        &DescriptorRules::elementStrides, &DescriptorRules::enumRanges,
        &DescriptorRules::oobFillFormat, &DescriptorRules::innerElementStride,
        &DescriptorRules::interleave})
    if (RuleCheck broken = (this->*group)())
      return broken;
  if (f.box && !f.box->empty())
    return innerRow(f.box->back());
  return std::nullopt;
}
