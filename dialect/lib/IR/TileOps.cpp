//===- TileOps.cpp - tile.tma_copy: syntax, effects, byte counts ----------===//

#include "Tile/IR/TileOps.h"
#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"
#include "Tile/Contract/Opcode.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// custom<Opcode>: keywords `load tile 2d [cluster] [multicast] [cta_group(K)]
// [cache_hint]`, `reduce add tile 2d ...`, or the PTX spelling as a string.
//===----------------------------------------------------------------------===//

static void storeOpcode(MLIRContext *ctx, const OpcodeFields &f,
                        DirectionAttr &direction, ModeAttr &mode,
                        IntegerAttr &rank, ReductionAttr &reduction,
                        UnitAttr &dstCluster, UnitAttr &multicast,
                        UnitAttr &cacheHint, IntegerAttr &ctaGroup) {
  Builder b(ctx);
  direction = DirectionAttr::get(ctx, f.direction);
  mode = ModeAttr::get(ctx, f.mode);
  rank = b.getI32IntegerAttr(f.rank);
  if (f.reduction)
    reduction = ReductionAttr::get(ctx, *f.reduction);
  if (f.dstCluster)
    dstCluster = b.getUnitAttr();
  if (f.multicast)
    multicast = b.getUnitAttr();
  if (f.cacheHint)
    cacheHint = b.getUnitAttr();
  if (f.ctaGroup)
    ctaGroup = b.getI32IntegerAttr(*f.ctaGroup);
}

static constexpr llvm::StringLiteral kModeKeywords =
    "tile, gather4, scatter4, im2col, im2col_w, im2col_w_128, im2col_no_offs";

/// `[opcode-syntax] ` for parser diagnostics.
static std::string syntaxRule() {
  return "[" + ruleName(Rule::OpcodeSyntax).str() + "] ";
}

static ParseResult parseOpcode(OpAsmParser &parser, DirectionAttr &direction,
                               ModeAttr &mode, IntegerAttr &rank,
                               ReductionAttr &reduction, UnitAttr &dstCluster,
                               UnitAttr &multicast, UnitAttr &cacheHint,
                               IntegerAttr &ctaGroup) {
  MLIRContext *ctx = parser.getContext();
  llvm::SMLoc loc = parser.getCurrentLocation();
  OpcodeFields f;
  std::string spelling;
  if (succeeded(parser.parseOptionalString(&spelling))) {
    std::string error;
    std::optional<OpcodeFields> parsed = parsePtxOpcode(spelling, error);
    if (!parsed) {
      if (std::optional<int64_t> badRank = outOfRangeOpcodeRank(spelling))
        return parser.emitError(loc)
               << "[" << ruleName(Rule::RankRange) << "] '" << spelling
               << "': rank " << *badRank << " is outside " << kRankRange.str();
      return parser.emitError(loc) << syntaxRule() << "'" << spelling
                                   << "': " << error;
    }
    f = *parsed;
  } else {
    // Every malformed keyword form is an [opcode-syntax] (or, for a rank or
    // cta_group integer of any size out of range, a [rank-range] /
    // [cta-group]) diagnostic, never a bare parser message.
    llvm::StringRef word;
    if (parser.parseOptionalKeyword(&word))
      return parser.emitError(loc)
             << syntaxRule()
             << "expected load, store, reduce, prefetch or a PTX opcode string";
    std::optional<Direction> dir = symbolizeDirection(word);
    if (!dir)
      return parser.emitError(loc)
             << syntaxRule() << "expected load, store, reduce, prefetch or a "
                "PTX opcode string, got '"
             << word << "'";
    f.direction = *dir;
    if (f.direction == Direction::reduce) {
      llvm::SMLoc redLoc = parser.getCurrentLocation();
      if (parser.parseOptionalKeyword(&word))
        return parser.emitError(redLoc)
               << syntaxRule() << "expected a reduction operator after reduce";
      f.reduction = symbolizeReduction(word);
      if (!f.reduction)
        return parser.emitError(redLoc)
               << syntaxRule() << "unknown reduction operator '" << word
               << "'";
    }
    llvm::SMLoc modeLoc = parser.getCurrentLocation();
    if (parser.parseOptionalKeyword(&word))
      return parser.emitError(modeLoc)
             << syntaxRule() << "expected a mode (" << kModeKeywords << ")";
    std::optional<Mode> m = symbolizeMode(word);
    if (!m)
      return parser.emitError(modeLoc)
             << syntaxRule() << "expected a mode (" << kModeKeywords
             << "), got '" << word << "'";
    f.mode = *m;
    // An integer of any width: a huge one is out of range, not unparsable.
    // (A lone '-' fails inside parseOptionalInteger with its own message.)
    auto parseWideInteger = [&](llvm::APInt &value) -> OptionalParseResult {
      return parser.parseOptionalInteger(value);
    };
    auto inRange = [](const llvm::APInt &value, int64_t lo, int64_t hi) {
      return value.getSignificantBits() <= 64 && value.getSExtValue() >= lo &&
             value.getSExtValue() <= hi;
    };
    llvm::APInt r;
    llvm::SMLoc rankLoc = parser.getCurrentLocation();
    OptionalParseResult rankParsed = parseWideInteger(r);
    if (!rankParsed.has_value())
      return parser.emitError(rankLoc)
             << syntaxRule() << "expected the rank, e.g. '2d'";
    if (failed(*rankParsed))
      return failure();
    if (parser.parseOptionalKeyword("d"))
      return parser.emitError(parser.getCurrentLocation())
             << syntaxRule() << "expected 'd' after the rank "
             << llvm::toString(r, 10, /*Signed=*/true);
    if (!inRange(r, kRankRange.min, kRankRange.max))
      return parser.emitError(rankLoc)
             << "[" << ruleName(Rule::RankRange) << "] rank "
             << llvm::toString(r, 10, /*Signed=*/true) << " is outside "
             << kRankRange.str();
    f.rank = static_cast<int>(r.getSExtValue());
    auto duplicate = [&](llvm::StringRef qualifier) {
      return parser.emitError(parser.getCurrentLocation())
             << syntaxRule() << "duplicated qualifier '" << qualifier << "'";
    };
    while (true) {
      if (succeeded(parser.parseOptionalKeyword("cluster"))) {
        if (f.dstCluster)
          return duplicate("cluster");
        f.dstCluster = true;
      } else if (succeeded(parser.parseOptionalKeyword("multicast"))) {
        if (f.multicast)
          return duplicate("multicast");
        f.multicast = true;
      } else if (succeeded(parser.parseOptionalKeyword("cache_hint"))) {
        if (f.cacheHint)
          return duplicate("cache_hint");
        f.cacheHint = true;
      } else if (succeeded(parser.parseOptionalKeyword("cta_group"))) {
        if (f.ctaGroup)
          return duplicate("cta_group");
        llvm::APInt group;
        llvm::SMLoc groupLoc = parser.getCurrentLocation();
        if (parser.parseOptionalLParen())
          return parser.emitError(groupLoc)
                 << syntaxRule() << "expected cta_group(1) or cta_group(2)";
        OptionalParseResult groupParsed = parseWideInteger(group);
        if (groupParsed.has_value() && failed(*groupParsed))
          return failure();
        if (!groupParsed.has_value() || parser.parseOptionalRParen())
          return parser.emitError(groupLoc)
                 << syntaxRule() << "expected cta_group(1) or cta_group(2)";
        if (!inRange(group, 1, 2))
          return parser.emitError(groupLoc)
                 << "[" << ruleName(Rule::CtaGroup) << "] cta_group "
                 << llvm::toString(group, 10, /*Signed=*/true)
                 << " is invalid: expected 1 or 2";
        f.ctaGroup = static_cast<int>(group.getSExtValue());
      } else {
        break;
      }
    }
  }
  storeOpcode(ctx, f, direction, mode, rank, reduction, dstCluster, multicast,
              cacheHint, ctaGroup);
  return success();
}

static void printOpcode(OpAsmPrinter &p, TmaCopyOp op, DirectionAttr direction,
                        ModeAttr mode, IntegerAttr rank,
                        ReductionAttr reduction, UnitAttr dstCluster,
                        UnitAttr multicast, UnitAttr cacheHint,
                        IntegerAttr ctaGroup) {
  p << stringifyDirection(direction.getValue());
  if (reduction)
    p << " " << stringifyReduction(reduction.getValue());
  p << " " << stringifyMode(mode.getValue()) << " " << rank.getInt() << "d";
  if (dstCluster)
    p << " cluster";
  if (multicast)
    p << " multicast";
  if (ctaGroup)
    p << " cta_group(" << ctaGroup.getInt() << ")";
  if (cacheHint)
    p << " cache_hint";
}

//===----------------------------------------------------------------------===//
// custom<Buffers> / custom<BufferTypes>: `%shared, %global` or, for a
// prefetch (no shared side), `%global` alone; the types follow suit.
//===----------------------------------------------------------------------===//

static bool isPrefetch(DirectionAttr direction) {
  return direction && direction.getValue() == Direction::prefetch;
}

static ParseResult
parseBuffers(OpAsmParser &parser, DirectionAttr direction,
             std::optional<OpAsmParser::UnresolvedOperand> &shared,
             OpAsmParser::UnresolvedOperand &global) {
  if (isPrefetch(direction)) {
    if (parser.parseOperand(global))
      return failure();
    if (succeeded(parser.parseOptionalComma()))
      return parser.emitError(parser.getCurrentLocation())
             << "[" << ruleName(Rule::SharedOperand)
             << "] a prefetch fills L2 and names no shared buffer: give the "
                "global operand alone";
    return success();
  }
  OpAsmParser::UnresolvedOperand first;
  if (parser.parseOperand(first))
    return failure();
  if (parser.parseOptionalComma())
    return parser.emitError(parser.getCurrentLocation())
           << "[" << ruleName(Rule::SharedOperand) << "] a "
           << stringifyDirection(direction.getValue())
           << " names the shared buffer, then the global operand: expected ','";
  shared = first;
  return parser.parseOperand(global);
}

static void printBuffers(OpAsmPrinter &p, TmaCopyOp, DirectionAttr,
                         Value shared, Value global) {
  if (shared)
    p << shared << ", ";
  p << global;
}

static ParseResult parseBufferTypes(OpAsmParser &parser,
                                    DirectionAttr direction, Type &sharedType,
                                    Type &globalType) {
  if (!isPrefetch(direction)) {
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseType(sharedType))
      return failure();
    if (!isa<MemRefType>(sharedType))
      return parser.emitError(loc)
             << "[" << ruleName(Rule::SharedOperand)
             << "] the shared buffer is a memref, got " << sharedType;
    if (parser.parseComma())
      return failure();
  }
  return parser.parseType(globalType);
}

static void printBufferTypes(OpAsmPrinter &p, TmaCopyOp, DirectionAttr,
                             Type sharedType, Type globalType) {
  if (sharedType)
    p << sharedType << ", ";
  p << globalType;
}

#define GET_OP_CLASSES
#include "Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// TmaCopyOp
//===----------------------------------------------------------------------===//

void TmaCopyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto *read = MemoryEffects::Read::get();
  auto *write = MemoryEffects::Write::get();
  OpOperand &global = getGlobalMutable();
  bool globalIsMemRef = isa<MemRefType>(global.get().getType());
  // Through an opaque tensor map the touched tensor has no SSA value.
  auto onGlobal = [&](MemoryEffects::Effect *effect) {
    if (globalIsMemRef)
      effects.emplace_back(effect, &global);
    else
      effects.emplace_back(effect);
  };
  auto onShared = [&](MemoryEffects::Effect *effect) {
    for (OpOperand &shared : getSharedMutable())
      effects.emplace_back(effect, &shared);
  };
  switch (getDirection()) {
  case Direction::load:
    onShared(write);
    onGlobal(read);
    break;
  case Direction::store:
    onShared(read);
    onGlobal(write);
    break;
  case Direction::reduce:
    onShared(read);
    onGlobal(read);
    onGlobal(write);
    break;
  case Direction::prefetch:
    // Warms L2 only: no value anyone reads changes, but it must not be
    // hoisted or dropped as dead, so it reads the tensor.
    onGlobal(read);
    break;
  }
  // Completion updates the mbarrier's transaction count.
  for (OpOperand &mbar : getMbarMutable()) {
    effects.emplace_back(read, &mbar);
    effects.emplace_back(write, &mbar);
  }
}

int64_t TmaCopyOp::getSlotCount() {
  if (!getShared())
    return 1;
  auto shape = cast<MemRefType>(getShared().getType()).getShape();
  size_t repeats = getCoordSteps() ? getCoordSteps()->size() : 0;
  int64_t slots = 1;
  for (size_t i = 0; i < repeats && i < shape.size(); ++i)
    slots *= shape[i];
  return slots;
}

int64_t TmaCopyOp::getTransactionBytes() {
  if (getDirection() == Direction::prefetch)
    return 0;
  return getSlotCount() * computeBoxImage(getCopyFields(*this)).payloadBytes;
}

//===----------------------------------------------------------------------===//
// TensorMapOp
//===----------------------------------------------------------------------===//

void TensorMapOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Encoding reads the memref's address and layout (not its data), and the
  // map is a fresh allocation.
  effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable());
  effects.emplace_back(MemoryEffects::Allocate::get(),
                       getOperation()->getOpResult(0));
  effects.emplace_back(MemoryEffects::Write::get(),
                       getOperation()->getOpResult(0));
}

//===----------------------------------------------------------------------===//
// TxBytesOp
//===----------------------------------------------------------------------===//

/// The copies of `op`'s enclosing function (isolated region) tagged `tag`.
static SmallVector<TmaCopyOp> taggedCopies(Operation *op, StringRef tag) {
  SmallVector<TmaCopyOp> copies;
  if (Operation *scope =
          op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>())
    scope->walk([&](TmaCopyOp copy) {
      if (copy.getTag() == tag)
        copies.push_back(copy);
    });
  return copies;
}

std::optional<int64_t> TxBytesOp::computeBytes() {
  SmallVector<TmaCopyOp> copies = taggedCopies(*this, getTag());
  if (copies.empty())
    return std::nullopt;
  int64_t total = 0;
  for (TmaCopyOp copy : copies)
    total += copy.getTransactionBytes();
  return total;
}

/// Whether the byte count of `copy` can be computed. A tx_bytes may be
/// verified before the copies it sums (those after it in the block), so this
/// relies on nothing the copy's own verifier checks: required properties,
/// their kinds, the operand segments and the ranges computeBoxImage divides
/// and shifts by.
bool mlir::tile::isTransactionBytesComputable(TmaCopyOp copy) {
  const TmaCopyOp::Properties &p = copy.getProperties();
  auto isI32 = [](IntegerAttr attr) {
    return !attr || attr.getType().isSignlessInteger(32);
  };
  if (!p.box || !p.mode || !p.direction || !p.rank || !isI32(p.rank) ||
      !isI32(p.swizzle) || !isI32(p.interleave) ||
      !kRankRange.contains(copy.getRank()))
    return false;
  int64_t operands = 0;
  for (int32_t n : p.operandSegmentSizes) {
    if (n < 0)
      return false;
    operands += n;
  }
  if (operands != copy->getNumOperands() || p.operandSegmentSizes[0] > 1 ||
      p.operandSegmentSizes[1] != 1 ||
      (copy.getShared() && !isa<MemRefType>(copy.getShared().getType())))
    return false;
  auto within = [](llvm::ArrayRef<int64_t> values, IntRange range) {
    return llvm::all_of(values,
                        [&](int64_t v) { return range.contains(v); });
  };
  // Every extent either box form allows (tiled extents, im2col pixels).
  IntRange extents = {
      std::min(kBoxExtentRange.min, kPixelsPerColumnRange.min),
      std::max(kBoxExtentRange.max, kPixelsPerColumnRange.max)};
  llvm::ArrayRef<int64_t> box = p.box.asArrayRef();
  if (!within(box, extents) ||
      (isIm2colMode(p.mode.getValue()) && box.size() != 2))
    return false;
  if (p.element_strides &&
      !within(p.element_strides.asArrayRef(), kElementStrideRange))
    return false;
  return swizzleFacts(copy.getSwizzle()) &&
         driverEnumRange("interleave").contains(copy.getInterleave());
}

LogicalResult TxBytesOp::verify() {
  // A tagged copy that is malformed reports itself (now or when it is
  // verified after this op) and has no byte count: nothing to check here.
  if (llvm::any_of(taggedCopies(*this, getTag()),
                   [](TmaCopyOp copy) { return !isTransactionBytesComputable(copy); }))
    return success();
  std::optional<int64_t> bytes = computeBytes();
  if (!bytes)
    return emitOpError() << "[" << ruleName(Rule::TxBytesTag) << "] no "
                         << "tile.tma_copy in the enclosing function has tag \""
                         << getTag() << "\"";
  if (*bytes > kMaxTxBytes)
    return emitOpError() << "[" << ruleName(Rule::TxBytesTag) << "] tag \""
                         << getTag() << "\" sums to " << *bytes
                         << " bytes, more than an mbarrier phase counts (2^20 - 1)";
  return success();
}

OpFoldResult TxBytesOp::fold(FoldAdaptor) {
  // Folding reads the (unchanged) copies only after the op verified.
  if (std::optional<int64_t> bytes = computeBytes())
    return IntegerAttr::get(getType(), *bytes);
  return {};
}

//===----------------------------------------------------------------------===//
// PrefetchTensorMapOp
//===----------------------------------------------------------------------===//

LogicalResult PrefetchTensorMapOp::verify() {
  if (taggedCopies(*this, getTag()).empty())
    return emitOpError() << "[" << ruleName(Rule::PrefetchTensorMapTag)
                         << "] no tile.tma_copy in the enclosing function has "
                         << "tag \"" << getTag() << "\"";
  return success();
}
