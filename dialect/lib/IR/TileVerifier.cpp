//===- TileVerifier.cpp - every rule of the TMA contract ------------------===//
//
// Each diagnostic starts with the rule's name in brackets, then states the
// field, the value found and what the rule expects. Rules.def lists them.
//
//===----------------------------------------------------------------------===//

#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"
#include "Tile/Contract/DerivedMap.h"
#include "Tile/Contract/DescriptorRules.h"
#include "Tile/Contract/Opcode.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <limits>
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Emits `'tile.tma_copy' op [rule] ...`.
InFlightDiagnostic fail(TmaCopyOp op, Rule rule) {
  return op.emitOpError() << "[" << ruleName(rule) << "] ";
}

/// Emits a broken rule of the descriptor fields (DescriptorRules).
LogicalResult fail(TmaCopyOp op, const RuleViolation &broken) {
  return fail(op, broken.rule) << broken.message;
}

template <typename T>
std::string list(llvm::ArrayRef<T> values) {
  std::string s = "(";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << ")";
  return s;
}

bool isWorkgroupSpace(Attribute space) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto intSpace = dyn_cast_or_null<IntegerAttr>(space))
    return intSpace.getInt() == 3;
  return false;
}

bool isGlobalSpace(Attribute space) {
  if (!space)
    return true;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Global;
  if (auto intSpace = dyn_cast<IntegerAttr>(space))
    return intSpace.getInt() == 0 || intSpace.getInt() == 1;
  return false;
}

/// Identity layout, or strided with the row-major contiguous strides at any
/// offset (a subview of whole trailing rows: one stage of a ring).
bool isCompactLayout(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  llvm::SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int i = type.getRank() - 1; i >= 0; --i) {
    int64_t dim = type.getDimSize(i);
    if (dim != 1 && strides[i] != expected)
      return false;
    if (llvm::MulOverflow(expected, dim, expected))
      return false;
  }
  return true;
}

struct Verifier {
  TmaCopyOp op;
  OpcodeFields opc;
  CopyFields f;
  /// The descriptor fields the shared rules check (f's, with l2_promotion
  /// and oob_fill; the format once resolved).
  DescriptorFields desc;
  MemRefType sharedType;
  MemRefType globalType; // null for an opaque tensor map
  Type elemType;         // storage element type of the global tensor
  Format format = Format::uint8;
  int64_t repeats = 0;

  DescriptorRules rules() const { return DescriptorRules(desc); }
  LogicalResult verifyOpcode();
  LogicalResult verifyRuntimeOperands();
  LogicalResult verifyBoxAndKnobs();
  LogicalResult verifyFormat();
  LogicalResult verifyModes();
  LogicalResult verifyIm2col();
  LogicalResult verifyPacked();
  LogicalResult verifyInnerCoordAlignment();
  LogicalResult verifyStoreCoords();
  LogicalResult verifyCoordRange();
  LogicalResult verifyInnerBytes(const BoxImage &image);
  LogicalResult verifyShared(const BoxImage &image);
  LogicalResult verifySharedAlignment();
  LogicalResult verifyCluster();
  LogicalResult verifyGlobal();
  LogicalResult verifyReduction();
  LogicalResult verifyTargets();
  LogicalResult run();
};
} // namespace

LogicalResult Verifier::verifyOpcode() {
  if (RuleCheck broken = rules().rank())
    return fail(op, *broken);
  bool isReduce = opc.direction == Direction::reduce;
  if (isReduce != opc.reduction.has_value())
    return fail(op, Rule::ReductionOperator)
           << (isReduce ? "a reduce needs a reduction operator"
                        : "a reduction operator is only valid on reduce");
  bool readsShared = opc.direction == Direction::store || isReduce;
  bool loadMode = opc.mode == Mode::gather4 || opc.mode == Mode::im2col ||
                  isIm2colWideMode(opc.mode);
  if (loadMode && readsShared)
    return fail(op, Rule::ModeDirection)
           << stringifyMode(opc.mode) << " is a load/prefetch mode, got "
           << "direction " << stringifyDirection(opc.direction);
  if (opc.mode == Mode::scatter4 && opc.direction != Direction::store)
    return fail(op, Rule::ModeDirection)
           << "scatter4 is a store mode, got direction "
           << stringifyDirection(opc.direction);
  if (opc.mode == Mode::im2col_no_offs && !readsShared)
    return fail(op, Rule::ModeDirection)
           << "im2col_no_offs is a store/reduce mode (loads use im2col), got "
           << "direction " << stringifyDirection(opc.direction);
  if (opc.direction == Direction::prefetch &&
      (opc.dstCluster || opc.multicast || opc.ctaGroup))
    return fail(op, Rule::PrefetchForm)
           << "a prefetch fills L2 only: it takes no "
           << (opc.dstCluster ? "shared::cluster destination"
               : opc.multicast ? "multicast"
                               : "cta_group");
  if (opc.dstCluster && opc.direction != Direction::load)
    return fail(op, Rule::DstSpace)
           << "only loads have a shared::cluster destination";
  if (opc.multicast && (opc.direction != Direction::load || !opc.dstCluster))
    return fail(op, Rule::MulticastLoad)
           << "multicast is a load into shared::cluster (add `cluster`)";
  if (opc.ctaGroup && opc.direction != Direction::load)
    return fail(op, Rule::CtaGroup)
           << "cta_group is a load qualifier, got direction "
           << stringifyDirection(opc.direction);
  if (opc.ctaGroup && *opc.ctaGroup != 1 && *opc.ctaGroup != 2)
    return fail(op, Rule::CtaGroup)
           << "cta_group " << *opc.ctaGroup << " is invalid: expected 1 or 2";
  return success();
}

LogicalResult Verifier::verifyRuntimeOperands() {
  bool isLoad = opc.direction == Direction::load;
  bool isPrefetch = opc.direction == Direction::prefetch;
  if (isPrefetch == static_cast<bool>(op.getShared()))
    return fail(op, Rule::SharedOperand)
           << (isPrefetch ? "a prefetch fills L2 and names no shared buffer"
                          : "a " + stringifyDirection(opc.direction).str() +
                                " names its shared buffer before the global "
                                "operand");
  if (isLoad && !op.getMbar())
    return fail(op, Rule::MbarRequired)
           << "a load completes on an mbarrier: add mbar(%bar)";
  if (!isLoad && op.getMbar())
    return fail(op, Rule::MbarForbidden)
           << "a " << stringifyDirection(opc.direction)
           << (isPrefetch ? " signals no completion"
                          : " completes through bulk_group")
           << " and takes no mbarrier";
  if (opc.multicast != static_cast<bool>(op.getCtaMask()))
    return fail(op, Rule::CtaMask)
           << (opc.multicast ? "multicast needs a cta_mask operand"
                             : "cta_mask is only valid with multicast");
  if (opc.cacheHint != static_cast<bool>(op.getCachePolicy()))
    return fail(op, Rule::CachePolicy)
           << (opc.cacheHint ? "cache_hint needs a cache_policy operand"
                             : "cache_policy is only valid with cache_hint");
  size_t rows = op.getRows().size();
  bool fourRows = opc.mode == Mode::gather4 || opc.mode == Mode::scatter4;
  if (fourRows ? rows != 4 : rows != 0)
    return fail(op, Rule::Gather4Rows)
           << "expected " << (fourRows ? 4 : 0) << " row operands in "
           << stringifyMode(opc.mode) << " mode, got " << rows;
  size_t offsets = op.getOffsets().size();
  size_t expectedOffsets = opc.mode == Mode::im2col ? std::max(opc.rank - 2, 0)
                           : isIm2colWideMode(opc.mode) ? 2
                                                        : 0;
  if (offsets != expectedOffsets)
    return fail(op, Rule::Im2colOffsets)
           << "expected " << expectedOffsets << " offsets in "
           << stringifyMode(opc.mode) << " mode"
           << (opc.mode == Mode::im2col ? " (one per spatial axis)"
               : isIm2colWideMode(opc.mode) ? " (wHalo, wOffset)"
                                            : "")
           << ", got " << offsets;
  return success();
}

LogicalResult Verifier::verifyBoxAndKnobs() {
  bool im2col = isIm2colMode(opc.mode);
  if (im2col) {
    if (f.box.size() != 2)
      return fail(op, Rule::BoxArity)
             << "an im2col box is [pixels_per_column, channels_per_pixel], "
             << "got " << f.box.size() << " extents";
    if (!kPixelsPerColumnRange.contains(f.box[0]))
      return fail(op, Rule::Im2colBox)
             << "pixels_per_column (box[0]) = " << f.box[0] << " is outside "
             << kPixelsPerColumnRange.str();
    if (!kChannelsPerPixelRange.contains(f.box[1]))
      return fail(op, Rule::Im2colBox)
             << "channels_per_pixel (box[1]) = " << f.box[1] << " is outside "
             << kChannelsPerPixelRange.str();
  } else {
    if (RuleCheck broken = rules().box())
      return fail(op, *broken);
  }
  if (static_cast<int>(op.getCoords().size()) != opc.rank)
    return fail(op, Rule::CoordsCount)
           << "expected " << opc.rank << " coords, got "
           << op.getCoords().size();
  if (RuleCheck broken = rules().elementStrides())
    return fail(op, *broken);
  if (RuleCheck broken = rules().enumRanges())
    return fail(op, *broken);
  if (RuleCheck broken = rules().innerElementStride())
    return fail(op, *broken);

  repeats = op.getCoordSteps() ? op.getCoordSteps()->size() : 0;
  if (opc.direction == Direction::prefetch && repeats)
    return fail(op, Rule::PrefetchForm)
           << "a prefetch has no shared slots to repeat over: drop "
              "coord_steps and issue one prefetch per box";
  if (op.getCoordSteps()) {
    for (auto [i, step] : llvm::enumerate(*op.getCoordSteps())) {
      auto vec = dyn_cast<DenseI64ArrayAttr>(step);
      if (!vec || static_cast<int>(vec.size()) != opc.rank)
        return fail(op, Rule::CoordStepsArity)
               << "coord_steps[" << i << "] must be an array<i64> of "
               << opc.rank << " entries, got " << step;
      for (auto [axis, value] : llvm::enumerate(vec.asArrayRef()))
        if (!kCoordRange.contains(value))
          return fail(op, Rule::CoordRange)
                 << "coord_steps[" << i << "][" << axis << "] = " << value
                 << " does not fit a 32-bit coordinate";
    }
  }
  return success();
}

LogicalResult Verifier::verifyFormat() {
  std::optional<Format> natural = defaultFormat(elemType);
  if (!natural)
    return fail(op, Rule::DtypeSupported)
           << "element type " << elemType << " has no tensor-map format";
  format = *natural;
  if (std::optional<Format> explicitFormat = op.getFormat()) {
    if (!formatMatches(elemType, *explicitFormat))
      return fail(op, Rule::FormatMatch)
             << "format " << stringifyFormat(*explicitFormat)
             << " does not describe element type " << elemType
             << " (expected " << stringifyFormat(*natural)
             << " or a matching format; formats never reinterpret)";
    format = *explicitFormat;
  }
  f.format = format;
  desc.format = format;
  if (RuleCheck broken = rules().oobFillFormat())
    return fail(op, *broken);
  return success();
}

LogicalResult Verifier::verifyModes() {
  if (isIm2colMode(opc.mode)) {
    if (failed(verifyIm2col()))
      return failure();
  } else if (op.getPixelBoxLowerAttr() || op.getPixelBoxUpperAttr()) {
    return fail(op, Rule::Im2colCorners)
           << "pixel_box_lower/pixel_box_upper describe an im2col map, but "
           << "the mode is " << stringifyMode(opc.mode);
  }
  if (f.interleave > 0) {
    // gather4/scatter4 never take interleave: say so before asking for a
    // rank they cannot have.
    if (opc.mode == Mode::gather4 || opc.mode == Mode::scatter4)
      return fail(op, Rule::InterleaveMode)
             << stringifyMode(opc.mode) << " does not use interleave, got "
             << "interleave " << f.interleave;
    if (RuleCheck broken = rules().interleave())
      return fail(op, *broken);
    if (f.box[1] != 1)
      return fail(op, Rule::InterleaveOneSlice)
             << "box[1] (C slices) = " << f.box[1]
             << ": one issue selects one C slice; iterate channels with a "
                "repeat axis and a C step";
  }
  if (opc.mode == Mode::gather4 || opc.mode == Mode::scatter4) {
    if (opc.rank != 2)
      return fail(op, Rule::Gather4Rank)
             << stringifyMode(opc.mode) << " needs a 2-D descriptor, got rank "
             << opc.rank;
    if (f.box[0] != 1 || llvm::any_of(f.elementStrides,
                                      [](int64_t s) { return s != 1; }))
      return fail(op, Rule::Gather4Box)
             << stringifyMode(opc.mode) << " box must be (1, width) with unit "
             << "element strides, got box " << list<int64_t>(f.box)
             << " and element_strides " << list<int64_t>(f.elementStrides);
  }
  if (isPackedFormat(format) && failed(verifyPacked()))
    return failure();
  if (swizzleFacts(f.swizzle)->loadOnly &&
      (opc.direction == Direction::store ||
       opc.direction == Direction::reduce))
    return fail(op, Rule::SwizzleLoadOnly)
           << "swizzle " << f.swizzle << " (" << swizzleShortName(f.swizzle)
           << ") is for loads only, got direction "
           << stringifyDirection(opc.direction);
  return success();
}

/// The swizzles of `mask` (bit s: swizzle s): "0, 3 or 4".
static std::string swizzleList(unsigned mask, llvm::StringRef last) {
  SmallVector<std::string> items;
  for (unsigned s = 0; s < 32; ++s)
    if (mask >> s & 1)
      items.push_back(std::to_string(s));
  std::string text;
  for (size_t i = 0; i < items.size(); ++i)
    text += (i == 0 ? "" : i + 1 == items.size() ? last.str() : ", ") + items[i];
  return text;
}

LogicalResult Verifier::verifyPacked() {
  std::string name = stringifyFormat(format).str();
  bool isStore = opc.direction == Direction::store;
  if (opc.direction == Direction::reduce)
    return fail(op, Rule::PackedReduce)
           << "packed " << name << " takes no reductions";
  if (formatFacts(format).loadOnly && isStore)
    return fail(op, Rule::Fp4LoadOnly)
           << "packed float4_e2m1fn (16U4_ALIGN16B) is load-only, got store "
           << "(float4_e2m1fn_align8b stores the same data)";
  if (f.interleave != 0 ||
      llvm::any_of(f.elementStrides, [](int64_t s) { return s != 1; }))
    return fail(op, Rule::PackedLayout)
           << "packed " << name << " takes no interleave and unit element "
           << "strides, got interleave " << f.interleave
           << " and element_strides " << list<int64_t>(f.elementStrides);
  // The padded forms move one unit of the inner dimension per row; the
  // unpadded one whole bytes.
  bool padded = isPaddedPackedFormat(format);
  int64_t unit = formatInnerMultiple(format);
  if (padded ? f.box.back() != unit : f.box.back() % unit != 0)
    return fail(op, Rule::PackedInnerBox)
           << "packed " << name << " needs "
           << (padded ? "inner box " + std::to_string(unit)
                      : std::string("an even inner box"))
           << ", got " << f.box.back();
  if (!formatAllowsSwizzle(format, f.swizzle, isStore)) {
    const FormatFacts &facts = formatFacts(format);
    return fail(op, Rule::PackedSwizzle)
           << "packed " << name << " uses swizzle "
           << swizzleList(facts.loadSwizzles, " or ")
           << (facts.storeSwizzles & ~facts.loadSwizzles
                   ? " (" +
                         swizzleList(facts.storeSwizzles & ~facts.loadSwizzles,
                                     " and ") +
                         " for stores)"
                   : std::string())
           << ", got " << f.swizzle;
  }
  if (padded) {
    // PTX: the inner origin of the padded forms is a multiple of their unit
    // (128 elements), for every repeated box too.
    bool fourRows = opc.mode == Mode::gather4 || opc.mode == Mode::scatter4;
    int axis = fourRows ? 1 : opc.rank - 1;
    APInt origin;
    if (matchPattern(op.getCoords()[axis], m_ConstantInt(&origin)) &&
        origin.getSExtValue() % unit != 0)
      return fail(op, Rule::PackedAlignment)
             << "inner coordinate " << origin.getSExtValue()
             << " is not a multiple of " << unit << " elements (packed "
             << name << ")";
    if (op.getCoordSteps())
      for (auto [a, step] : llvm::enumerate(*op.getCoordSteps())) {
        int64_t elems = cast<DenseI64ArrayAttr>(step)[axis];
        if (elems % unit != 0)
          return fail(op, Rule::PackedAlignment)
                 << "coord_steps[" << a << "][" << axis << "] moves the inner "
                 << "coordinate by " << elems << " elements, expected a "
                 << "multiple of " << unit << " (packed " << name << ")";
      }
  }
  return success();
}

LogicalResult Verifier::verifyIm2col() {
  if (opc.rank < kIm2colRankRange.min)
    return fail(op, Rule::Im2colRank)
           << stringifyMode(opc.mode) << " needs a " << kIm2colRankRange.min
           << "-D to " << kIm2colRankRange.max << "-D descriptor "
           << "(N, [D, H,] W, C), got rank " << opc.rank;
  if (f.interleave != 0 || isPackedFormat(format))
    return fail(op, Rule::Im2colLayout)
           << stringifyMode(opc.mode) << " takes "
           << (f.interleave ? "no interleave, got interleave " +
                                  std::to_string(f.interleave)
                            : "unpacked formats, got " +
                                  stringifyFormat(format).str());
  // Signed corner ranges of cuTensorMapEncodeIm2col by rank (the W-only
  // forms have one W corner whatever the rank).
  bool wide = isIm2colWideMode(opc.mode);
  int64_t spatial = wide ? 1 : opc.rank - 2;
  int bits = im2colCornerBits(opc.mode, opc.rank);
  IntRange corners = im2colCornerRange(opc.mode, opc.rank);
  int64_t lo = corners.min, hi = corners.max;
  for (auto [name, corner] :
       {std::pair<const char *, DenseI64ArrayAttr>{"pixel_box_lower",
                                                   op.getPixelBoxLowerAttr()},
        {"pixel_box_upper", op.getPixelBoxUpperAttr()}}) {
    if (!corner)
      return fail(op, Rule::Im2colCorners)
             << stringifyMode(opc.mode) << " needs " << name << " ("
             << spatial << (wide ? " W entry" : " spatial entries") << ")";
    if (static_cast<int64_t>(corner.size()) != spatial)
      return fail(op, Rule::Im2colCorners)
             << name << " has " << corner.size() << " entries, expected "
             << spatial << (wide ? " (the W corner)" : " (one per spatial axis)");
    for (auto [i, v] : llvm::enumerate(corner.asArrayRef()))
      if (v < lo || v > hi)
        return fail(op, Rule::Im2colCorners)
               << name << "[" << i << "] = " << v << " is outside " << lo
               << ".." << hi << " (" << bits << "-bit signed for rank "
               << opc.rank << (wide ? " W-only forms" : "") << ")";
  }
  if (opc.mode == Mode::im2col_no_offs) {
    for (auto [i, v] : llvm::enumerate(op.getPixelBoxLowerAttr().asArrayRef()))
      if (v < 0)
        return fail(op, Rule::Im2colStoreBox)
               << "pixel_box_lower[" << i << "] = " << v << ": a "
               << stringifyDirection(opc.direction)
               << " keeps the bounding box inside the tensor (lower >= 0)";
    for (auto [i, v] : llvm::enumerate(op.getPixelBoxUpperAttr().asArrayRef()))
      if (v > 0)
        return fail(op, Rule::Im2colStoreBox)
               << "pixel_box_upper[" << i << "] = " << v << ": a "
               << stringifyDirection(opc.direction)
               << " keeps the bounding box inside the tensor (upper <= 0)";
  }
  // Constant offsets: unsigned, as wide as the rank allows.
  auto constant = [](Value v) -> std::optional<int64_t> {
    APInt value;
    if (!matchPattern(v, m_ConstantInt(&value)))
      return std::nullopt;
    return value.getZExtValue();
  };
  if (opc.mode == Mode::im2col) {
    int offsetBits = im2colBits(opc.rank);
    IntRange offsetRange = im2colOffsetRange(opc.rank);
    for (auto [i, v] : llvm::enumerate(op.getOffsets()))
      if (std::optional<int64_t> c = constant(v); c && *c > offsetRange.max)
        return fail(op, Rule::Im2colOffsetRange)
               << "offsets[" << i << "] = " << *c << " is outside "
               << offsetRange.str() << " (" << offsetBits
               << "-bit unsigned for rank " << opc.rank << ")";
  }
  if (wide) {
    if (!swizzleFacts(f.swizzle)->im2colWide)
      return fail(op, Rule::Im2colWSwizzle)
             << stringifyMode(opc.mode) << " uses swizzle "
             << swizzleList(swizzleMask([](const SwizzleFacts &s) {
                              return s.im2colWide;
                            }),
                            " or ")
             << ", got " << f.swizzle;
    std::optional<int64_t> halo = constant(op.getOffsets()[0]);
    IntRange haloRange = opc.mode == Mode::im2col_w ? kIm2colWHaloRange
                                                    : kIm2colW128HaloRange;
    if (!halo || *halo > haloRange.max)
      return fail(op, Rule::Im2colWHalo)
             << "wHalo (offsets[0]) "
             << (halo ? "= " + std::to_string(*halo) + " is outside " +
                            haloRange.str()
                      : std::string("must be a constant (it sizes the image)"));
    if (opc.mode == Mode::im2col_w_128 && f.box[0] != 128)
      return fail(op, Rule::Im2colWHalo)
             << "im2col_w_128 moves 128 pixels: pixels_per_column (box[0]) "
             << "must be 128, got " << f.box[0];
    f.wHalo = *halo;
    if (std::optional<int64_t> w = constant(op.getOffsets()[1]);
        w && *w > kIm2colWOffsetRange.max)
      return fail(op, Rule::Im2colOffsetRange)
             << "wOffset (offsets[1]) = " << *w << " is outside "
             << kIm2colWOffsetRange.str();
  }
  return success();
}

LogicalResult Verifier::verifyCoordRange() {
  // Slot coordinates are 32-bit in the instruction ([coord-range]); the
  // lowering adds steps.
  llvm::ArrayRef<int64_t> repeatShape =
      sharedType ? sharedType.getShape().take_front(repeats)
                 : llvm::ArrayRef<int64_t>();
  for (auto [i, coord] : llvm::enumerate(op.getCoords())) {
    APInt origin;
    bool constant = matchPattern(coord, m_ConstantInt(&origin));
    int64_t low = constant ? origin.getSExtValue() : 0;
    int64_t high = low;
    if (op.getCoordSteps()) {
      for (auto [a, step] : llvm::enumerate(*op.getCoordSteps())) {
        int64_t s = cast<DenseI64ArrayAttr>(step)[i];
        // |s| < 2^31 (checked with the arity) and the extent is bounded by
        // the shared size rule: no overflow.
        int64_t span = s * (repeatShape[a] - 1);
        (span < 0 ? low : high) += span;
      }
    }
    if (constant && (low < kCoordRange.min || high > kCoordRange.max))
      return fail(op, Rule::CoordRange)
             << "coordinate " << i << " spans " << low << ".." << high
             << " over the slots, outside the 32-bit range";
  }
  return success();
}

LogicalResult Verifier::verifyStoreCoords() {
  if (opc.direction == Direction::load || opc.direction == Direction::prefetch)
    return success();
  llvm::ArrayRef<int64_t> repeatShape =
      sharedType.getShape().take_front(repeats);
  for (auto [i, coord] : llvm::enumerate(op.getCoords())) {
    APInt origin;
    if (!matchPattern(coord, m_ConstantInt(&origin)))
      continue;
    // The smallest coordinate any slot uses on this axis.
    int64_t lowest = origin.getSExtValue();
    if (op.getCoordSteps())
      for (auto [a, step] : llvm::enumerate(*op.getCoordSteps()))
        lowest += std::min<int64_t>(
            0, (repeatShape[a] - 1) * cast<DenseI64ArrayAttr>(step)[i]);
    if (lowest < 0)
      return fail(op, Rule::StoreCoordsNonNegative)
             << "coordinate " << i << " reaches " << lowest << " in some slot: a "
             << stringifyDirection(opc.direction)
             << " must start at a non-negative coordinate";
  }
  return success();
}

LogicalResult Verifier::verifyInnerCoordAlignment() {
  // With interleave the innermost coordinate counts whole slices; packed fp4
  // has its own, stricter rule.
  if (f.interleave != 0 || isPaddedPackedFormat(format))
    return success();
  bool fourRows = opc.mode == Mode::gather4 || opc.mode == Mode::scatter4;
  int axis = fourRows ? 1 : opc.rank - 1;
  unsigned bits = formatBits(format);
  if (op.getCoordSteps()) {
    for (auto [a, step] : llvm::enumerate(*op.getCoordSteps())) {
      int64_t bytes = cast<DenseI64ArrayAttr>(step)[axis] * bits / 8;
      if (bytes % kChunkBytes != 0)
        return fail(op, Rule::InnerCoordAlignment)
               << "coord_steps[" << a << "][" << axis << "] moves the innermost "
               << "coordinate by " << bytes
               << " bytes, expected a multiple of " << kChunkBytes;
    }
  }
  APInt origin;
  if (matchPattern(op.getCoords()[axis], m_ConstantInt(&origin))) {
    int64_t bytes = origin.getSExtValue() * bits / 8;
    if (bytes % kChunkBytes != 0)
      return fail(op, Rule::InnerCoordAlignment)
             << "innermost coordinate " << origin.getSExtValue() << " is "
             << bytes << " bytes from the row start, expected a multiple of "
             << kChunkBytes;
  }
  return success();
}

LogicalResult Verifier::verifyInnerBytes(const BoxImage &image) {
  if (RuleCheck broken = rules().innerRow(image.rowElements))
    return fail(op, *broken);
  return success();
}

LogicalResult Verifier::verifyShared(const BoxImage &image) {
  if (!isWorkgroupSpace(sharedType.getMemorySpace()))
    return fail(op, Rule::SharedAddressSpace)
           << "the shared operand " << sharedType
           << " is not in workgroup memory (address space 3)";
  if (!sharedType.hasStaticShape() || !isCompactLayout(sharedType))
    return fail(op, Rule::SharedLayout)
           << "the shared operand " << sharedType
           << " must have a static shape and the identity layout (or "
              "row-major contiguous strides at an offset)";
  Type sharedElem = sharedType.getElementType();
  Type expectedElem = isPackedFormat(format)
                          ? IntegerType::get(op.getContext(), 8)
                          : elemType;
  // Data moves unchanged from source to destination: a load's shared
  // destination must hold the global elements (shared-dtype); a store's or
  // reduction's global destination must hold the shared ones (global-dtype).
  if (globalType && sharedElem != expectedElem) {
    if (opc.direction != Direction::load)
      return fail(op, Rule::GlobalDtype)
             << "global element type " << elemType
             << " does not match the shared element type " << sharedElem;
    return fail(op, Rule::SharedDtype)
           << "shared element type " << sharedElem << ", expected "
           << expectedElem;
  }

  llvm::ArrayRef<int64_t> shape = sharedType.getShape();
  size_t suffixRank = image.shape.size();
  if (shape.size() < suffixRank)
    return fail(op, Rule::SharedRepeatPrefix)
           << "shared shape " << list(shape) << " has rank " << shape.size()
           << ", less than the box image " << list<int64_t>(image.shape);
  int64_t prefix = shape.size() - suffixRank;
  if (prefix != repeats)
    return fail(op, Rule::CoordStepsCount)
           << "the shared shape " << list(shape) << " has " << prefix
           << " repeat axes before the box image " << list<int64_t>(image.shape)
           << " but coord_steps has " << repeats << " vectors";
  llvm::ArrayRef<int64_t> suffix = shape.drop_front(prefix);
  if (suffix != llvm::ArrayRef<int64_t>(image.shape)) {
    bool padded = image.rowStorageBytes != image.rowPayloadBytes &&
                  !isPaddedPackedFormat(format);
    if (padded && suffix.drop_back() ==
                      llvm::ArrayRef<int64_t>(image.shape).drop_back())
      return fail(op, Rule::SwizzleRowPadding)
             << "swizzle " << f.swizzle << " stores each "
             << image.rowPayloadBytes << "-byte row in a whole "
             << image.rowStorageBytes
             << "-byte span: the shared suffix must be "
             << list<int64_t>(image.shape) << ", got " << list(suffix);
    return fail(op, Rule::SharedSuffix)
           << "the shared suffix " << list(suffix)
           << " is not the box image " << list<int64_t>(image.shape);
  }
  int64_t totalBytes = image.storageBytes;
  for (int64_t extent : shape.take_front(prefix)) {
    totalBytes *= extent;
    if (totalBytes > kMaxSharedBytesPerBlock)
      break;
  }
  if (totalBytes > kMaxSharedBytesPerBlock)
    return fail(op, Rule::SharedSize)
           << "the shared buffer " << sharedType << " needs more than "
           << kMaxSharedBytesPerBlock << " bytes, the most one block can have";
  if (image.storageBytes % kSharedAlign != 0 && repeats > 0)
    return fail(op, Rule::SharedAtomAlignment)
           << "each slot's image is " << image.storageBytes
           << " bytes, so slot origins are not " << kSharedAlign
           << "-byte aligned";
  return verifySharedAlignment();
}

LogicalResult Verifier::verifySharedAlignment() {
  int64_t need = requiredSharedAlignment(f.swizzle);
  const char *why = f.swizzle ? " (the whole swizzle period)" : "";
  SharedAlignment a = getSharedAlignment(op.getShared());
  using Status = SharedAlignment::Status;
  if (a.status == Status::Unproven)
    return fail(op, Rule::SharedAlignmentUnproven)
           << "the shared buffer's alignment cannot be proven: " << a.reason
           << "; declare it with memref.assume_alignment (a multiple of "
           << need << (f.swizzle ? ", the whole swizzle period" : "")
           << ") or use constant offsets";
  bool direct = a.offsetBytes == 0 && !a.declared && !a.dynamicShared;
  if (a.status == Status::RootUnspecified) {
    if (direct)
      return fail(op, Rule::SharedBaseAlignment)
             << "the shared buffer's base alignment is unspecified, expected "
             << "a multiple of " << need << why;
    return fail(op, Rule::SharedBaseAlignment)
           << "the shared buffer starts " << a.offsetBytes << " bytes into "
           << a.root << ", whose alignment is unspecified; expected a "
           << "multiple of " << need << why;
  }
  if (a.alignment >= need)
    return success();
  if (direct)
    return fail(op, Rule::SharedBaseAlignment)
           << "the shared buffer's base alignment is " << a.alignment
           << " bytes, expected a multiple of " << need << why;
  if (a.declared && a.offsetBytes == 0)
    return fail(op, Rule::SharedBaseAlignment)
           << "memref.assume_alignment declares the shared buffer "
           << a.alignment << "-byte aligned, expected a multiple of " << need
           << why;
  return fail(op, Rule::SharedBaseAlignment)
         << "the shared buffer starts " << a.offsetBytes << " bytes into "
         << a.root << " (" << a.rootAlignment << "-byte aligned"
         << (a.declared ? " as declared" : "") << "), so it is only "
         << a.alignment << "-byte aligned; expected a multiple of " << need
         << why;
}

/// The descriptor operand when it is an opaque tensor-map pointer.
static LogicalResult verifyOpaqueDescriptor(TmaCopyOp op) {
  auto ptr = cast<LLVM::LLVMPointerType>(op.getGlobal().getType());
  unsigned space = ptr.getAddressSpace();
  auto arg = dyn_cast<BlockArgument>(op.getGlobal());
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  bool kernelParam = arg && func && func.isKernel() &&
                     arg.getOwner() == &func.getBody().front();
  if (space == 0 || space == 1 || (space == 4 && !kernelParam))
    return success();
  return fail(op, Rule::DescriptorSpace)
         << "the tensor map pointer is in address space " << space
         << (space == 4 ? " and a kernel parameter (ptxas cannot cvta.const it)"
                        : "")
         << ", expected generic (0), global (1) or constant (4) memory";
}

LogicalResult Verifier::verifyGlobal() {
  if (!globalType) {
    // A map derived on the device keeps the copy's static contract.
    if (auto derive = op.getGlobal().getDefiningOp<TensorMapDeriveOp>())
      if (failed(verifyDerivedMapUse(op, derive, f)))
        return failure();
    return verifyOpaqueDescriptor(op);
  }
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  auto arg = dyn_cast<BlockArgument>(op.getGlobal());
  if (!func || !func.isKernel() || !arg ||
      arg.getOwner() != &func.getBody().front())
    return fail(op, Rule::GlobalSource)
           << "the global memref must be an argument of the enclosing "
              "gpu.func kernel (the host encodes its tensor map from it)";
  if (!isGlobalSpace(globalType.getMemorySpace()))
    return fail(op, Rule::GlobalAddressSpace)
           << "the global operand " << globalType
           << " is not in global memory";
  int expectedRank = opc.rank + (f.interleave ? 1 : 0);
  if (globalType.getRank() != expectedRank)
    return fail(op, Rule::GlobalRank)
           << "the global operand has rank " << globalType.getRank()
           << ", expected " << expectedRank
           << (f.interleave ? " (N, C_slices, *spatial, Ci)" : "");
  // MLIR's canonical strides of an identity layout multiply all static dims
  // and assert when that product overflows int64: refuse such a type first.
  if (globalType.getLayout().isIdentity()) {
    int64_t elements = 1;
    for (int64_t dim : globalType.getShape())
      if (dim > 0 && llvm::MulOverflow(elements, dim, elements))
        return fail(op, Rule::GlobalDimRange)
               << "the global dims of " << globalType
               << " multiply to more than 2^63 elements";
  }
  llvm::SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(globalType.getStridesAndOffset(strides, offset)))
    return fail(op, Rule::GlobalInnerStride)
           << "the global operand " << globalType << " has no strided layout";
  unsigned bits = formatBits(format);
  if (!ShapedType::isDynamic(strides.back()) && strides.back() != 1)
    return fail(op, Rule::GlobalInnerStride)
           << "the innermost global stride is " << strides.back()
           << ", expected 1";
  llvm::ArrayRef<int64_t> dims = globalType.getShape();
  // Interleave first: a wrong Ci also misaligns the spatial stride, and the
  // Ci rule names the cause.
  if (f.interleave) {
    int64_t slice = interleaveBytes(f.interleave) * 8 / bits;
    if (dims.back() != slice)
      return fail(op, Rule::InterleaveSlice)
             << "the innermost global axis Ci is "
             << (ShapedType::isDynamic(dims.back())
                     ? std::string("dynamic")
                     : std::to_string(dims.back()))
             << ", expected one " << interleaveBytes(f.interleave)
             << "-byte slice of " << slice << " elements";
    int64_t spatial = strides[strides.size() - 2];
    if (!ShapedType::isDynamic(spatial) && spatial != slice)
      return fail(op, Rule::InterleaveContiguous)
             << "the innermost spatial stride is " << spatial
             << ", expected one slice (" << slice << ")";
  }
  int64_t strideAlign = globalStrideAlignment(format, f.interleave);
  for (size_t i = 0; i + 1 < strides.size(); ++i) {
    if (ShapedType::isDynamic(strides[i]))
      continue;
    // Range first, without overflow: a stride whose byte count wraps or is
    // negative (tensor-map strides are unsigned) must not pass as aligned.
    int64_t bits64 = 0;
    if (llvm::MulOverflow(strides[i], int64_t(bits), bits64))
      return fail(op, Rule::GlobalStrideRange)
             << "global stride[" << i << "] is " << strides[i]
             << " elements, expected less than 2^40 bytes";
    int64_t bytes = bits64 / 8;
    if (strides[i] < 0)
      return fail(op, Rule::GlobalStrideRange)
             << "global stride[" << i << "] is " << bytes
             << " bytes, expected a non-negative stride less than 2^40";
    if (bytes >= kGlobalStrideBytesBound)
      return fail(op, Rule::GlobalStrideRange)
             << "global stride[" << i << "] is " << bytes
             << " bytes, expected less than 2^40";
    if (bits64 % 8 != 0 || bytes % strideAlign != 0)
      return fail(op, isPaddedPackedFormat(format)
                          ? Rule::PackedAlignment
                          : Rule::GlobalStrideAlignment)
             << "global stride[" << i << "] is " << bytes
             << " bytes, expected a multiple of " << strideAlign;
  }
  for (auto [i, dim] : llvm::enumerate(dims))
    if (!ShapedType::isDynamic(dim) && (dim < 1 || dim > kMaxGlobalDim))
      return fail(op, Rule::GlobalDimRange)
             << "global dim[" << i << "] = " << dim << " is outside 1..2^32";
  if (isIm2colMode(opc.mode)) {
    int64_t channels = dims[opc.rank - 1];
    if (!ShapedType::isDynamic(channels) && f.box[1] > channels)
      return fail(op, Rule::BoxWithinDim)
             << "channels_per_pixel (box[1]) = " << f.box[1]
             << " is larger than the channel dim " << channels;
  }
  for (int i = 0; i < opc.rank && !isIm2colMode(opc.mode); ++i) {
    if (ShapedType::isDynamic(dims[i]))
      continue;
    if (f.box[i] > dims[i])
      return fail(op, Rule::BoxWithinDim)
             << "box[" << i << "] = " << f.box[i]
             << " is larger than global dim[" << i << "] = " << dims[i];
  }
  int64_t innerMultiple = formatInnerMultiple(format);
  if (!ShapedType::isDynamic(dims.back()) && dims.back() % innerMultiple != 0)
    return fail(op, Rule::PackedInnerDim)
           << "the inner global dim is " << dims.back()
           << ", expected a multiple of " << innerMultiple << " for packed "
           << stringifyFormat(format);
  return success();
}

LogicalResult Verifier::verifyReduction() {
  if (!opc.reduction)
    return success();
  Reduction red = *opc.reduction;
  SmallVector<Format> formats = reductionFormats(red);
  bool ok = llvm::is_contained(formats, format);
  std::string valid = llvm::join(
      llvm::map_range(formats, [](Format f) { return stringifyFormat(f); }),
      ", ");
  if (!ok)
    return fail(op, Rule::ReductionDtype)
           << "reduction " << stringifyReduction(red) << " is not defined on "
           << stringifyFormat(format) << " (valid: " << valid << ")";
  if (isSignedReduction(red) && !op.getFormat() && elemType.isSignlessInteger())
    return fail(op, Rule::ReductionSignedness)
           << "reduction " << stringifyReduction(red) << " on signless "
           << elemType << " is ambiguous: use a signed/unsigned element "
           << "type or an explicit format";
  return success();
}

LogicalResult Verifier::verifyTargets() {
  const char *blackwellForm =
      opc.mode == Mode::gather4 || opc.mode == Mode::scatter4 ||
              isIm2colWideMode(opc.mode)
          ? "mode"
      : opc.ctaGroup                   ? "cta_group"
      : swizzleFacts(f.swizzle)->sm100 ? "swizzle"
      : isPackedFormat(format)         ? "format"
                                       : nullptr;
  for (const TargetInfo &t : getTargets(op)) {
    std::string chip = "sm_" + std::to_string(t.sm) + (t.archSpecific ? "a" : "");
    if (t.sm < 90)
      return fail(op, Rule::TargetSm90)
             << "target " << chip << " has no bulk tensor copies (sm_90+)";
    // The data-center Blackwell family (sm_100/101/103/110, arch-specific)
    // has these; consumer parts (sm_120) do not.
    bool datacenterBlackwell = t.archSpecific && (t.sm == 100 || t.sm == 101 ||
                                                  t.sm == 103 || t.sm == 110);
    if (blackwellForm && !datacenterBlackwell) {
      std::string what = blackwellForm;
      if (what == "mode")
        what = "mode " + stringifyMode(opc.mode).str();
      else if (what == "swizzle")
        what = "swizzle " + std::to_string(f.swizzle);
      else if (what == "format")
        what = "format " + stringifyFormat(format).str();
      return fail(op, Rule::TargetSm100)
             << what << " needs sm_100a (or sm_101a/103a/110a), target is "
             << chip;
    }
    if (opc.multicast && !t.archSpecific)
      return fail(op, Rule::TargetMulticast)
             << "multicast needs an arch-specific target, got " << chip
             << " (use " << chip << "a)";
    if (opc.direction == Direction::load && !opc.dstCluster && t.ptx < 86)
      return fail(op, Rule::TargetPtx86)
             << "a shared::cta load destination needs PTX ISA 8.6, target "
             << chip << " uses PTX " << t.ptx / 10 << "." << t.ptx % 10
             << " (add +ptx86 to the target features, or use `cluster`)";
    if (t.sm >= 100 && f.interleave == 1 && f.swizzle != 0)
      return fail(op, Rule::TargetB200Interleave)
             << "on " << chip << " interleave 1 (16B) with swizzle "
             << f.swizzle << " can trap";
  }
  return success();
}

LogicalResult Verifier::verifyCluster() {
  // A malformed declaration fails the launch (or the NVPTX backend) whether
  // or not this copy multicasts, so every copy checks it.
  ClusterShape cluster = getClusterShape(op);
  if (!cluster.error.empty())
    return fail(op, Rule::ClusterShape) << cluster.error;
  if (!opc.multicast)
    return success();
  if (!cluster.ctas)
    return fail(op, Rule::MulticastCluster)
           << "multicast needs a kernel launched in a cluster, but the "
              "enclosing function declares none (tile.cluster_size, "
              "known_cluster_size or nvvm.cluster_dim)";
  APInt mask;
  if (!matchPattern(op.getCtaMask(), m_ConstantInt(&mask)))
    return success();
  // One bit per CTA a cluster can have.
  uint64_t bits = mask.getZExtValue() & ((uint64_t(1) << kMaxClusterCtas) - 1);
  int64_t ctas = *cluster.ctas;
  if (bits == 0)
    return fail(op, Rule::CtaMaskCluster)
           << "cta_mask 0x0 selects no CTA of the cluster";
  if (bits >> ctas)
    return fail(op, Rule::CtaMaskCluster)
           << "cta_mask 0x" << llvm::utohexstr(bits) << " selects CTA rank "
           << llvm::Log2_64(bits)
           << ", but the cluster has " << ctas << " CTA" << (ctas > 1 ? "s" : "")
           << " (" << cluster.source << "; ranks 0.." << ctas - 1 << ")";
  return success();
}

LogicalResult Verifier::run() {
  opc = getOpcodeFields(op);
  f.mode = opc.mode;
  f.rank = opc.rank;
  f.box.assign(op.getBox().begin(), op.getBox().end());
  if (auto es = op.getElementStrides())
    f.elementStrides.assign(es->begin(), es->end());
  else
    f.elementStrides.assign(
        isIm2colMode(f.mode) && kRankRange.contains(opc.rank) ? opc.rank
                                                              : f.box.size(),
        1);
  f.swizzle = op.getSwizzle();
  f.interleave = op.getInterleave();
  desc.rank = opc.rank;
  desc.box = f.box;
  desc.elementStrides = f.elementStrides;
  desc.swizzle = f.swizzle;
  desc.interleave = f.interleave;
  desc.l2Promotion = op.getL2Promotion();
  desc.oobFill = op.getOobFill();
  sharedType = op.getShared() ? cast<MemRefType>(op.getShared().getType())
                              : MemRefType();
  globalType = dyn_cast<MemRefType>(op.getGlobal().getType());
  elemType = globalType   ? globalType.getElementType()
             : sharedType ? sharedType.getElementType()
                          : IntegerType::get(op.getContext(), 8);
  // An opaque prefetch has no memref at all: an explicit format names the
  // elements (a byte tensor otherwise).
  if (!globalType && !sharedType && op.getFormat() &&
      !isPackedFormat(*op.getFormat()))
    elemType = formatStorageType(*op.getFormat(), op.getContext());
  // Opaque descriptor of packed fp4: the shared image is bytes.
  if (!globalType && op.getFormat() && isPackedFormat(*op.getFormat()) &&
      elemType.isInteger(8))
    elemType = formatStorageType(*op.getFormat(), op.getContext());

  if (failed(verifyOpcode()) || failed(verifyRuntimeOperands()) ||
      failed(verifyBoxAndKnobs()) || failed(verifyFormat()) ||
      failed(verifyModes()) || failed(verifyInnerCoordAlignment()))
    return failure();
  BoxImage image = computeBoxImage(f);
  if (failed(verifyInnerBytes(image)) ||
      (sharedType && failed(verifyShared(image))) ||
      failed(verifyCoordRange()) || failed(verifyStoreCoords()) ||
      failed(verifyGlobal()) ||
      failed(verifyReduction()) ||
      failed(verifyTargets()) || failed(verifyCluster()))
    return failure();
  return success();
}

LogicalResult TmaCopyOp::verify() {
  Verifier v{*this};
  return v.run();
}
