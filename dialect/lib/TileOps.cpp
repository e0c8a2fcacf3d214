//===- TileOps.cpp - tile.tma_copy: syntax, effects, byte counts ----------===//

#include "Tile/TileOps.h"
#include "Tile/Contract.h"
#include "Tile/Opcode.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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
    if (!parsed)
      return parser.emitError(loc) << syntaxRule() << "'" << spelling
                                   << "': " << error;
    f = *parsed;
  } else {
    llvm::StringRef word;
    if (parser.parseKeyword(&word))
      return failure();
    std::optional<Direction> dir = symbolizeDirection(word);
    if (!dir)
      return parser.emitError(loc)
             << syntaxRule() << "expected load, store, reduce or a PTX "
                "opcode string, got '"
             << word << "'";
    f.direction = *dir;
    if (f.direction == Direction::reduce) {
      llvm::SMLoc redLoc = parser.getCurrentLocation();
      if (parser.parseKeyword(&word))
        return failure();
      f.reduction = symbolizeReduction(word);
      if (!f.reduction)
        return parser.emitError(redLoc)
               << syntaxRule() << "unknown reduction operator '" << word
               << "'";
    }
    llvm::SMLoc modeLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&word))
      return failure();
    std::optional<Mode> m = symbolizeMode(word);
    if (!m)
      return parser.emitError(modeLoc)
             << syntaxRule() << "expected tile, gather4 or scatter4, got '"
             << word << "'";
    f.mode = *m;
    int64_t r = 0;
    llvm::SMLoc rankLoc = parser.getCurrentLocation();
    if (parser.parseInteger(r) || parser.parseKeyword("d"))
      return failure();
    if (r < 1 || r > 5)
      return parser.emitError(rankLoc)
             << "[" << ruleName(Rule::RankRange) << "] rank " << r
             << " is outside 1..5";
    f.rank = static_cast<int>(r);
    while (true) {
      if (succeeded(parser.parseOptionalKeyword("cluster"))) {
        f.dstCluster = true;
      } else if (succeeded(parser.parseOptionalKeyword("multicast"))) {
        f.multicast = true;
      } else if (succeeded(parser.parseOptionalKeyword("cache_hint"))) {
        f.cacheHint = true;
      } else if (succeeded(parser.parseOptionalKeyword("cta_group"))) {
        int64_t group = 0;
        llvm::SMLoc groupLoc = parser.getCurrentLocation();
        if (parser.parseLParen() || parser.parseInteger(group) ||
            parser.parseRParen())
          return failure();
        if (group != 1 && group != 2)
          return parser.emitError(groupLoc)
                 << "[" << ruleName(Rule::CtaGroup) << "] cta_group " << group
                 << " is invalid: expected 1 or 2";
        f.ctaGroup = static_cast<int>(group);
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

#define GET_OP_CLASSES
#include "Tile/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// TmaCopyOp
//===----------------------------------------------------------------------===//

void TmaCopyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto *read = MemoryEffects::Read::get();
  auto *write = MemoryEffects::Write::get();
  OpOperand &shared = getSharedMutable();
  OpOperand &global = getGlobalMutable();
  bool globalIsMemRef = isa<MemRefType>(global.get().getType());
  // Through an opaque tensor map the touched tensor has no SSA value.
  auto onGlobal = [&](MemoryEffects::Effect *effect) {
    if (globalIsMemRef)
      effects.emplace_back(effect, &global);
    else
      effects.emplace_back(effect);
  };
  switch (getDirection()) {
  case Direction::load:
    effects.emplace_back(write, &shared);
    onGlobal(read);
    break;
  case Direction::store:
    effects.emplace_back(read, &shared);
    onGlobal(write);
    break;
  case Direction::reduce:
    effects.emplace_back(read, &shared);
    onGlobal(read);
    onGlobal(write);
    break;
  }
  // Completion updates the mbarrier's transaction count.
  for (OpOperand &mbar : getMbarMutable()) {
    effects.emplace_back(read, &mbar);
    effects.emplace_back(write, &mbar);
  }
}

int64_t TmaCopyOp::getSlotCount() {
  auto shape = cast<MemRefType>(getShared().getType()).getShape();
  size_t repeats = getCoordSteps() ? getCoordSteps()->size() : 0;
  int64_t slots = 1;
  for (size_t i = 0; i < repeats && i < shape.size(); ++i)
    slots *= shape[i];
  return slots;
}

int64_t TmaCopyOp::getTransactionBytes() {
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

std::optional<int64_t> TxBytesOp::computeBytes() {
  Operation *scope = getOperation()->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!scope)
    return std::nullopt;
  int64_t total = 0;
  bool found = false;
  scope->walk([&](TmaCopyOp copy) {
    if (copy.getTag() == getTag()) {
      total += copy.getTransactionBytes();
      found = true;
    }
  });
  if (!found)
    return std::nullopt;
  return total;
}

LogicalResult TxBytesOp::verify() {
  std::optional<int64_t> bytes = computeBytes();
  if (!bytes)
    return emitOpError() << "[" << ruleName(Rule::TxBytesTag) << "] no "
                         << "tile.tma_copy in the enclosing function has tag \""
                         << getTag() << "\"";
  if (*bytes >= (int64_t(1) << 20))
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
