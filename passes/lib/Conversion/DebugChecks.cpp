//===- DebugChecks.cpp - device checks of a debug build -------------------===//
//
// docs/debug-mode.md describes what a debug build does; Tile/DebugBuffer.h
// holds the layout of the error buffer and of the barrier table.
//
//===----------------------------------------------------------------------===//

#include "DebugChecks.h"

#include "Tile/Contract/Contract.h"
#include "Tile/Contract/Opcode.h"
#include "Tile/DebugBuffer.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::debug;

namespace {

Value i32c(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(
                                               static_cast<int32_t>(value)));
}
Value i64c(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}
bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred, Value lhs,
          Value rhs) {
  return arith::CmpIOp::create(b, loc, pred, lhs, rhs);
}
Value notOf(OpBuilder &b, Location loc, Value flag) {
  Value one = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return arith::XOrIOp::create(b, loc, flag, one);
}
Value trunc32(OpBuilder &b, Location loc, Value v) {
  return arith::TruncIOp::create(b, loc, b.getI32Type(), v);
}
Value sext64(OpBuilder &b, Location loc, Value v) {
  return arith::ExtSIOp::create(b, loc, b.getI64Type(), v);
}
Value zext64(OpBuilder &b, Location loc, Value v) {
  return arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
}
/// (v >> lsb) & (2^bits - 1) of an i64.
Value field(OpBuilder &b, Location loc, Value v, int lsb, int bits) {
  Value shifted =
      lsb ? arith::ShRUIOp::create(b, loc, v, i64c(b, loc, lsb)).getResult()
          : v;
  return arith::AndIOp::create(b, loc, shifted,
                               i64c(b, loc, (int64_t(1) << bits) - 1));
}

/// The 32-bit shared::cta address of an mbarrier pointer (generic or shared),
/// or null for a shared::cluster one.
Value sharedAddress(OpBuilder &b, Location loc, Value ptr) {
  auto type = cast<LLVM::LLVMPointerType>(ptr.getType());
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
  if (type.getAddressSpace() == 0)
    ptr = LLVM::AddrSpaceCastOp::create(b, loc, shared, ptr);
  else if (type.getAddressSpace() != 3)
    return {};
  return LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
}

NVVM::MemScopeKindAttr ctaScope(OpBuilder &b) {
  return NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::CTA);
}

std::string describeLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc);
      file && file.getFilename() != "-" && !file.getFilename().empty())
    return (" at " + file.getFilename().getValue() + ":" +
            llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return describeLocation(name.getChildLoc());
  return "";
}

/// The rules a debug build records, with their Rule enum values.
constexpr Rule kRecordedRules[] = {
    Rule::MbarrierTimeout,     Rule::BarrierTxMismatch,
    Rule::OpaqueMapAlignment,  Rule::InnerCoordAlignment,
    Rule::PackedAlignment,     Rule::StoreCoordsNonNegative,
    Rule::CoordRange,
};
/// And those of a module whose wgmma descriptors are checked.
constexpr Rule kReadRules[] = {Rule::WgmmaUnwaitedCopy};
/// And those of a module that derives tensor maps (tile.tensormap_derive).
constexpr Rule kDeriveRules[] = {
    Rule::TensormapAlignment,    Rule::GlobalBaseAlignment,
    Rule::GlobalDimRange,        Rule::GlobalStrideAlignment,
    Rule::GlobalStrideRange,
};

} // namespace

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

ModuleChecks::ModuleChecks(gpu::GPUModuleOp module) : module(module) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  Location loc = module.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto words = LLVM::LLVMArrayType::get(i32, kWords);
  auto zeros = DenseElementsAttr::get(RankedTensorType::get({kWords}, i32),
                                      b.getI32IntegerAttr(0));
  LLVM::GlobalOp::create(b, loc, words, /*isConstant=*/false,
                         LLVM::Linkage::External, kBufferName, zeros,
                         /*alignment=*/16, /*addrSpace=*/1);
  LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(i64, kTableBytes / 8),
                         false, LLVM::Linkage::Private, kTableName, Attribute(),
                         /*alignment=*/1024, /*addrSpace=*/3);

  // The table is static shared memory: the dynamic window must lie after it,
  // which tile-align-dynamic-shared (in the named pipelines) makes sure of by
  // declaring the dynamic shared memory `.extern`.
  module.walk([&](gpu::GPUFuncOp func) {
    if (func.isKernel())
      kernels.push_back(func);
  });
  // Bytes this CTA's table cannot see: a copy whose barrier may be another
  // CTA's (a shared::cluster destination, multicast), and whatever else can
  // complete transactions on a barrier.
  bool hasDescriptor = false, clusterDestination = false;
  module.walk([&](Operation *op) {
    if (isa<TensorMapDeriveOp>(op))
      derivesMaps = true;
    if (isa<WgmmaDescriptorOp>(op))
      hasDescriptor = true;
    if (auto copy = dyn_cast<TmaCopyOp>(op)) {
      if (copy.getDstCluster())
        countsIssued = false, clusterDestination = true;
      if (copy.getDirection() == Direction::load && copy.getShared())
        if (auto allocation = getSharedAllocation(copy.getShared()))
          loadedAllocations.insert(
              {copy->getParentOfType<FunctionOpInterface>(), *allocation});
      return;
    }
    StringRef name = op->getName().getStringRef();
    if (name == "nvvm.mbarrier.complete_tx" ||
        name.starts_with("nvvm.cp.async.bulk.shared.cluster") ||
        name.starts_with("nvvm.cp.async.bulk.tensor.shared.cluster") ||
        name.starts_with("nvvm.cp.async.mbarrier.arrive") ||
        name == "nvvm.inline_ptx" || name == "llvm.inline_asm")
      countsIssued = false;
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      auto callee = dyn_cast_or_null<FunctionOpInterface>(
          call.resolveCallable());
      if (!callee || callee.isExternal())
        countsIssued = false;
    }
  });
  // A multicast image lands in CTAs whose fill tables never see its load.
  checksReads = hasDescriptor && !clusterDestination;
}

int32_t ModuleChecks::addSite(Operation *op, StringRef what) {
  std::string text;
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    text = (func.getName() + ": ").str();
  text += what.str() + describeLocation(op->getLoc());
  sites.push_back(text);
  return static_cast<int32_t>(sites.size() - 1);
}

int32_t ModuleChecks::kernelId(Operation *op) {
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  for (auto [i, kernel] : llvm::enumerate(kernels))
    if (kernel == func)
      return static_cast<int32_t>(i);
  return static_cast<int32_t>(kUnknown);
}

//===----------------------------------------------------------------------===//
// The error record
//===----------------------------------------------------------------------===//

Value ModuleChecks::buffer(OpBuilder &b, Location loc) {
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1),
      FlatSymbolRefAttr::get(b.getContext(), kBufferName));
}

Value ModuleChecks::word(OpBuilder &b, Location loc, int64_t index) {
  Value base = buffer(b, loc);
  if (index == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI32Type(), base,
                             ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
}

void ModuleChecks::record(OpBuilder &b, Location loc, Value rule,
                          int32_t kernel, int32_t site,
                          ArrayRef<Value> values) {
  Value previous = LLVM::AtomicRMWOp::create(
      b, loc, LLVM::AtomicBinOp::add, word(b, loc, kCount), i32c(b, loc, 1),
      LLVM::AtomicOrdering::monotonic);
  auto first = scf::IfOp::create(
      b, loc, cmp(b, loc, arith::CmpIPredicate::eq, previous, i32c(b, loc, 0)),
      /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(first.thenBlock());
  auto store = [&](int64_t index, Value value) {
    LLVM::StoreOp::create(b, loc, value, word(b, loc, index));
  };
  Type i32 = b.getI32Type();
  store(kRule, rule);
  store(kKernel, i32c(b, loc, kernel));
  store(kSite, i32c(b, loc, site));
  store(kBlock + 0, NVVM::BlockIdXOp::create(b, loc, i32));
  store(kBlock + 1, NVVM::BlockIdYOp::create(b, loc, i32));
  store(kBlock + 2, NVVM::BlockIdZOp::create(b, loc, i32));
  store(kThread + 0, NVVM::ThreadIdXOp::create(b, loc, i32));
  store(kThread + 1, NVVM::ThreadIdYOp::create(b, loc, i32));
  store(kThread + 2, NVVM::ThreadIdZOp::create(b, loc, i32));
  for (int i = 0; i < kNumValues; ++i)
    store(kValues + i, i < static_cast<int>(values.size()) ? values[i]
                                                           : i32c(b, loc, 0));
}

void ModuleChecks::exitThread(OpBuilder &b, Location loc) {
  // The thread's bulk stores finish reading shared memory, and copies still
  // landing in it (a phase that completed early, another stage's load) get
  // kDrainNs, before the thread leaves.
  NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, b.getUnitAttr());
  Type i64 = b.getI64Type();
  Value start = NVVM::GlobalTimerOp::create(b, loc, i64);
  scf::WhileOp::create(
      b, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &b, Location loc, ValueRange) {
        Value waited = arith::SubIOp::create(
            b, loc, NVVM::GlobalTimerOp::create(b, loc, i64), start);
        scf::ConditionOp::create(
            b, loc,
            cmp(b, loc, arith::CmpIPredicate::ult, waited,
                i64c(b, loc, kDrainNs)),
            ValueRange{});
      },
      [&](OpBuilder &b, Location loc, ValueRange) {
        scf::YieldOp::create(b, loc, ValueRange{});
      });
  NVVM::Exit::create(b, loc);
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

SmallVector<Check> ModuleChecks::copyChecks(OpBuilder &b, Location loc,
                                            TmaCopyOp op, Value descriptor) {
  SmallVector<Check> checks;
  // A derived map is published only if its checks passed, and a copy may
  // reach it through memory: in a module that derives maps, once any fault
  // is recorded, no copy through an opaque map is issued.
  if (derivesMaps && isa<LLVM::LLVMPointerType>(op.getGlobal().getType()))
    checks.push_back({faultRecorded(b, loc), Rule::TensormapAlignment, {},
                      /*silent=*/true});
  if (isa<LLVM::LLVMPointerType>(op.getGlobal().getType())) {
    // An opaque map: cuTensorMapEncode* requires 64-byte alignment.
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), descriptor);
    Value low = arith::AndIOp::create(b, loc, addr, i64c(b, loc, 63));
    Value high =
        trunc32(b, loc, arith::ShRUIOp::create(b, loc, addr, i64c(b, loc, 32)));
    checks.push_back({cmp(b, loc, arith::CmpIPredicate::ne, low, i64c(b, loc, 0)),
                      Rule::OpaqueMapAlignment,
                      {trunc32(b, loc, addr), high, i32c(b, loc, 64)}});
  }
  CopyFields fields = getCopyFields(op);
  if (fields.interleave != 0)
    return checks; // the innermost coordinate counts whole slices
  bool fourRows = fields.mode == Mode::gather4 || fields.mode == Mode::scatter4;
  int axis = fourRows ? 1 : fields.rank - 1;
  Value coord = op.getCoords()[axis];
  if (isConstant(coord))
    return checks; // decided by the verifier
  unsigned bits = formatBits(fields.format);
  bool padded = isPaddedPackedFormat(fields.format);
  // Elements per 16-byte chunk (or the unit of the padded packed formats,
  // 128 elements).
  int64_t unit = formatInnerMultiple(fields.format);
  int64_t multiple = padded ? unit : kChunkBytes * 8 / bits;
  if (multiple <= 1)
    return checks;
  Value rem = arith::AndIOp::create(b, loc, coord, i32c(b, loc, multiple - 1));
  Value bytes = trunc32(
      b, loc,
      arith::ShRSIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, sext64(b, loc, coord), i64c(b, loc, bits)),
          i64c(b, loc, 3)));
  checks.push_back({cmp(b, loc, arith::CmpIPredicate::ne, rem, i32c(b, loc, 0)),
                    padded ? Rule::PackedAlignment : Rule::InnerCoordAlignment,
                    {i32c(b, loc, axis), coord, bytes,
                     i32c(b, loc, padded ? unit : kChunkBytes),
                     i32c(b, loc, bits)}});
  return checks;
}

void ModuleChecks::slotChecks(OpBuilder &b, Location loc, TmaCopyOp op,
                              int64_t slot, ArrayRef<int64_t> deltas,
                              ArrayRef<Value> slotCoords,
                              ArrayRef<Value> instruction,
                              SmallVectorImpl<Check> &checks) {
  auto outOfRange = [&](Value sum) {
    Value low = cmp(b, loc, arith::CmpIPredicate::slt, sum,
                    i64c(b, loc, kCoordRange.min));
    Value high = cmp(b, loc, arith::CmpIPredicate::sgt, sum,
                     i64c(b, loc, kCoordRange.max));
    return arith::OrIOp::create(b, loc, low, high).getResult();
  };
  auto rangeCheck = [&](int64_t axis, Value base, Value addend, Value sum) {
    Value hi =
        trunc32(b, loc, arith::ShRSIOp::create(b, loc, sum, i64c(b, loc, 32)));
    checks.push_back({outOfRange(sum), Rule::CoordRange,
                      {i32c(b, loc, slot), i32c(b, loc, axis), base, addend,
                       trunc32(b, loc, sum), hi}});
  };
  // A stepped coordinate wraps in the lowering's 32-bit add.
  for (auto [axis, base] : llvm::enumerate(op.getCoords())) {
    if (deltas[axis] == 0 || isConstant(base))
      continue;
    Value sum = arith::AddIOp::create(b, loc, sext64(b, loc, base),
                                      i64c(b, loc, deltas[axis]));
    rangeCheck(axis, base, i32c(b, loc, deltas[axis]), sum);
  }
  bool fourRows = op.getMode() == Mode::gather4 || op.getMode() == Mode::scatter4;
  int64_t rank = op.getCoords().size();
  if (fourRows) {
    // Row k is issued as rows[k] + coords[0]: axis kRowAxis + k.
    for (auto [k, row] : llvm::enumerate(op.getRows())) {
      if (instruction[1 + k] == row)
        continue; // a zero row base: the row as given
      Value sum = arith::AddIOp::create(b, loc, sext64(b, loc, row),
                                        sext64(b, loc, slotCoords[0]));
      rangeCheck(kRowAxis + k, row, slotCoords[0], sum);
    }
  }
  if (op.getDirection() != Direction::store &&
      op.getDirection() != Direction::reduce)
    return;
  for (auto [i, value] : llvm::enumerate(instruction)) {
    if (isConstant(value))
      continue; // decided by the verifier
    int64_t axis = fourRows ? (i == 0 ? 1 : kRowAxis + (i - 1)) : rank - 1 - i;
    checks.push_back(
        {cmp(b, loc, arith::CmpIPredicate::slt, value, i32c(b, loc, 0)),
         Rule::StoreCoordsNonNegative,
         {i32c(b, loc, slot), i32c(b, loc, axis), value}});
  }
}

void ModuleChecks::guardCopy(OpBuilder &b, Location loc, TmaCopyOp op,
                             int32_t site, ArrayRef<Check> checks,
                             int64_t slots, int64_t bytesPerSlot,
                             Value destination, int64_t imageBytes,
                             llvm::function_ref<void(OpBuilder &)> issue) {
  auto issueCounted = [&](OpBuilder &b) {
    bool load = op.getDirection() == Direction::load && op.getMbar();
    if (load && countsIssued)
      account(b, loc, op.getMbar(), Value(), i32c(b, loc, slots * bytesPerSlot),
              /*posts=*/0, /*copies=*/slots);
    if (load && checksReads && destination && !op.getDstCluster())
      recordFill(b, loc, op.getMbar(), destination, imageBytes);
    issue(b);
  };
  // A silent check skips the copy without a record of its own (a derived
  // map that a recorded fault left unpublished).
  SmallVector<Check> recorded;
  Value skip;
  for (const Check &check : checks) {
    if (!check.silent) {
      recorded.push_back(check);
      continue;
    }
    skip = skip ? arith::OrIOp::create(b, loc, skip, check.bad).getResult()
                : check.bad;
  }
  if (!skip) {
    guarded(b, loc, op, site, recorded, issueCounted);
    return;
  }
  auto ifLive = scf::IfOp::create(b, loc, notOf(b, loc, skip),
                                  /*withElseRegion=*/false);
  OpBuilder::InsertionGuard restore(b);
  b.setInsertionPointToStart(ifLive.thenBlock());
  guarded(b, loc, op, site, recorded, issueCounted);
}

void ModuleChecks::guarded(OpBuilder &b, Location loc, Operation *op,
                           int32_t site, ArrayRef<Check> checks,
                           llvm::function_ref<void(OpBuilder &)> body) {
  if (checks.empty()) {
    body(b);
    return;
  }
  // The first failing check is the one recorded.
  Value bad = checks.back().bad;
  Value rule = i32c(b, loc, static_cast<int64_t>(checks.back().rule));
  SmallVector<Value, 6> values;
  for (int i = 0; i < kNumValues; ++i)
    values.push_back(i < static_cast<int>(checks.back().values.size())
                         ? checks.back().values[i]
                         : i32c(b, loc, 0));
  for (const Check &check : llvm::reverse(checks.drop_back())) {
    bad = arith::OrIOp::create(b, loc, check.bad, bad);
    rule = arith::SelectOp::create(
        b, loc, check.bad, i32c(b, loc, static_cast<int64_t>(check.rule)), rule);
    for (int i = 0; i < kNumValues; ++i)
      values[i] = arith::SelectOp::create(
          b, loc, check.bad,
          i < static_cast<int>(check.values.size()) ? check.values[i]
                                                    : i32c(b, loc, 0),
          values[i]);
  }
  auto guard = scf::IfOp::create(b, loc, bad, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard restore(b);
  b.setInsertionPointToStart(guard.thenBlock());
  record(b, loc, rule, kernelId(op), site, values);
  b.setInsertionPointToStart(guard.elseBlock());
  body(b);
}

//===----------------------------------------------------------------------===//
// Derived tensor maps
//===----------------------------------------------------------------------===//

void ModuleChecks::guardDerive(OpBuilder &b, Location loc, Operation *op,
                               ArrayRef<Check> checks,
                               llvm::function_ref<void(OpBuilder &)> publish) {
  int32_t site = addSite(op, "tile.tensormap_derive (derive " +
                                 std::to_string(derivesSeen++) + ")");
  guarded(b, loc, op, site, checks, publish);
}

Value ModuleChecks::faultRecorded(OpBuilder &b, Location loc) {
  Value faults = LLVM::LoadOp::create(b, loc, b.getI32Type(),
                                      word(b, loc, kCount), 4,
                                      /*isVolatile=*/true);
  return cmp(b, loc, arith::CmpIPredicate::ne, faults, i32c(b, loc, 0));
}

//===----------------------------------------------------------------------===//
// The barrier table
//===----------------------------------------------------------------------===//

ModuleChecks::Slot ModuleChecks::slot(OpBuilder &b, Location loc, Value address,
                                      bool claim) {
  usesTable = true;
  MLIRContext *ctx = b.getContext();
  auto shared = LLVM::LLVMPointerType::get(ctx, 3);
  Value index = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, address, i32c(b, loc, 3)),
      i32c(b, loc, kTableSlots - 1));
  Value table = LLVM::AddressOfOp::create(
      b, loc, shared, FlatSymbolRefAttr::get(ctx, kTableName));
  Value keyPtr = LLVM::GEPOp::create(
      b, loc, shared, b.getI32Type(), table,
      ValueRange{arith::AddIOp::create(b, loc, index, i32c(b, loc, kKeyWord))});
  Value statePtr = LLVM::GEPOp::create(b, loc, shared, b.getI64Type(), table,
                                       ValueRange{index});
  Value key = arith::AddIOp::create(b, loc, address, i32c(b, loc, 1));
  Value mine;
  if (claim) {
    Value pair = LLVM::AtomicCmpXchgOp::create(
        b, loc, keyPtr, i32c(b, loc, 0), key, LLVM::AtomicOrdering::monotonic,
        LLVM::AtomicOrdering::monotonic);
    Value old = LLVM::ExtractValueOp::create(b, loc, pair, 0);
    mine = arith::OrIOp::create(
        b, loc, cmp(b, loc, arith::CmpIPredicate::eq, old, i32c(b, loc, 0)),
        cmp(b, loc, arith::CmpIPredicate::eq, old, key));
  } else {
    Value old = LLVM::LoadOp::create(b, loc, b.getI32Type(), keyPtr);
    mine = cmp(b, loc, arith::CmpIPredicate::eq, old, key);
  }
  return {index, statePtr, mine};
}

Value ModuleChecks::generationWord(OpBuilder &b, Location loc, const Slot &s) {
  return tableWord(b, loc,
                   arith::AddIOp::create(b, loc, s.index, i32c(b, loc, kGenWord)));
}

void ModuleChecks::account(OpBuilder &b, Location loc, Value mbar,
                           Value expected, Value issued, int64_t posts,
                           int64_t copies) {
  Value address = sharedAddress(b, loc, mbar);
  if (!address)
    return; // another CTA's barrier: its own table counts nothing of this
  // The phase in progress: test_wait.parity(0) holds once phase 0 completed,
  // i.e. while an odd phase runs.
  Value odd = NVVM::MBarrierTestWaitOp::create(b, loc, b.getI1Type(), mbar,
                                               i32c(b, loc, 0), ctaScope(b));
  Slot s = slot(b, loc, address, /*claim=*/true);
  auto ifMine = scf::IfOp::create(b, loc, s.mine, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifMine.thenBlock());
  Value delta = i64c(b, loc, (posts << kPostsLsb) | (copies << kCopiesLsb));
  auto addField = [&](Value v, int lsb) {
    if (!v)
      return;
    Value wide = zext64(b, loc, v);
    if (lsb)
      wide = arith::ShLIOp::create(b, loc, wide, i64c(b, loc, lsb));
    delta = arith::OrIOp::create(b, loc, delta, wide);
  };
  addField(expected, kExpectedLsb);
  addField(issued, kIssuedLsb);
  Value parity = zext64(b, loc, odd);
  Value parityBit = arith::ShLIOp::create(b, loc, parity, i64c(b, loc, kParityBit));
  Value fresh = arith::OrIOp::create(b, loc, parityBit, delta);
  Type i64 = b.getI64Type();
  Value init = LLVM::LoadOp::create(b, loc, i64, s.state);
  Type i1 = b.getI1Type();
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{i64, i1}, ValueRange{init},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value old = args[0];
        Value oldParity =
            arith::ShRUIOp::create(b, loc, old, i64c(b, loc, kParityBit));
        Value same = cmp(b, loc, arith::CmpIPredicate::eq, oldParity, parity);
        Value sum = arith::AddIOp::create(b, loc, old, delta);
        Value next = arith::SelectOp::create(b, loc, same, sum, fresh);
        Value pair = LLVM::AtomicCmpXchgOp::create(
            b, loc, s.state, old, next, LLVM::AtomicOrdering::monotonic,
            LLVM::AtomicOrdering::monotonic);
        Value current = LLVM::ExtractValueOp::create(b, loc, pair, 0);
        Value ok = LLVM::ExtractValueOp::create(b, loc, pair, 1);
        scf::ConditionOp::create(b, loc, notOf(b, loc, ok),
                                 ValueRange{current, same});
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        scf::YieldOp::create(b, loc, ValueRange{args[0]});
      });
  if (!checksReads)
    return;
  // The first count of a phase the table had not seen starts a generation.
  auto ifNew = scf::IfOp::create(b, loc, notOf(b, loc, loop.getResult(1)),
                                 /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifNew.thenBlock());
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add,
                            generationWord(b, loc, s), i32c(b, loc, 1),
                            LLVM::AtomicOrdering::monotonic);
}

Value ModuleChecks::tableWord(OpBuilder &b, Location loc, Value index) {
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value table = LLVM::AddressOfOp::create(
      b, loc, shared, FlatSymbolRefAttr::get(b.getContext(), kTableName));
  return LLVM::GEPOp::create(b, loc, shared, b.getI32Type(), table,
                             ValueRange{index});
}

//===----------------------------------------------------------------------===//
// Checked reads: the fill table and the wgmma tile check
//===----------------------------------------------------------------------===//

void ModuleChecks::recordFill(OpBuilder &b, Location loc, Value mbar,
                              Value destination, int64_t imageBytes) {
  Value address = sharedAddress(b, loc, mbar);
  if (!address)
    return;
  Type i32 = b.getI32Type(), i1 = b.getI1Type();
  // The barrier's generation and parity now: the phase this load completes.
  Slot s = slot(b, loc, address, /*claim=*/false);
  Value gen = LLVM::LoadOp::create(b, loc, i32, generationWord(b, loc, s));
  Value odd = NVVM::MBarrierTestWaitOp::create(b, loc, i1, mbar,
                                               i32c(b, loc, 0), ctaScope(b));
  Value phase = arith::OrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, gen, i32c(b, loc, 0x7fffffff)),
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i32, odd),
                            i32c(b, loc, 31)));
  // A barrier whose table slot another barrier holds is not followed.
  auto ifMine = scf::IfOp::create(b, loc, s.mine, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifMine.thenBlock());
  Value key = arith::AddIOp::create(b, loc, trunc32(b, loc, destination),
                                    i32c(b, loc, 1));
  // The record of this destination, or the first free one.
  auto find = scf::WhileOp::create(
      b, loc, TypeRange{i32, i1}, ValueRange{i32c(b, loc, 0)},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value i = args[0];
        Value keyPtr = tableWord(
            b, loc,
            arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, i, i32c(b, loc, kFillWords)),
                i32c(b, loc, kFillWord)));
        Value pair = LLVM::AtomicCmpXchgOp::create(
            b, loc, keyPtr, i32c(b, loc, 0), key,
            LLVM::AtomicOrdering::monotonic, LLVM::AtomicOrdering::monotonic);
        Value old = LLVM::ExtractValueOp::create(b, loc, pair, 0);
        Value found = arith::OrIOp::create(
            b, loc, cmp(b, loc, arith::CmpIPredicate::eq, old, i32c(b, loc, 0)),
            cmp(b, loc, arith::CmpIPredicate::eq, old, key));
        Value more = arith::AndIOp::create(
            b, loc, notOf(b, loc, found),
            cmp(b, loc, arith::CmpIPredicate::slt, i,
                i32c(b, loc, kFillSlots - 1)));
        scf::ConditionOp::create(b, loc, more, ValueRange{i, found});
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        scf::YieldOp::create(
            b, loc, ValueRange{arith::AddIOp::create(b, loc, args[0],
                                                     i32c(b, loc, 1))});
      });
  auto ifFound = scf::IfOp::create(b, loc, find.getResult(1),
                                   /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifFound.thenBlock());
  Value base = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, find.getResult(0), i32c(b, loc, kFillWords)),
      i32c(b, loc, kFillWord));
  auto store = [&](int64_t field, Value v) {
    LLVM::StoreOp::create(
        b, loc, v,
        tableWord(b, loc,
                  arith::AddIOp::create(b, loc, base, i32c(b, loc, field))),
        4, /*isVolatile=*/true);
  };
  store(1, i32c(b, loc, imageBytes));
  store(2, address);
  store(3, phase);
  // A full table: a tile no record covers may be one it could not hold.
  b.setInsertionPointToStart(ifFound.elseBlock());
  LLVM::StoreOp::create(b, loc, i32c(b, loc, 1),
                        tableWord(b, loc, i32c(b, loc, kFillFull)), 4,
                        /*isVolatile=*/true);
}

void ModuleChecks::checkTileReads(OpBuilder &b, Location loc,
                                  WgmmaDescriptorOp op, Value start,
                                  int64_t readBytes) {
  int32_t site = addSite(op, "tile.wgmma_descriptor (read " +
                                 std::to_string(readsSeen++) + ")");
  usesTable = true;
  Type i32 = b.getI32Type(), i1 = b.getI1Type();
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Value first = trunc32(b, loc, start);
  Value end = arith::AddIOp::create(b, loc, first, i32c(b, loc, readBytes));
  Value unknown = i32c(b, loc, kUnknown), zero = i32c(b, loc, 0);
  Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  // Over the records: whether one covers the first byte, and the first
  // overlapping one whose phase has not completed (its destination, barrier,
  // phase word and the barrier's generation now; destination ~0: none).
  auto lower = arith::ConstantIndexOp::create(b, loc, 0);
  auto upper = arith::ConstantIndexOp::create(b, loc, kFillSlots);
  auto stepOne = arith::ConstantIndexOp::create(b, loc, 1);
  auto scan = scf::ForOp::create(
      b, loc, lower, upper, stepOne,
      ValueRange{no, unknown, zero, zero, zero},
      [&](OpBuilder &b, Location loc, Value iv, ValueRange acc) {
        Value i = arith::IndexCastOp::create(b, loc, i32, iv);
        Value base = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, i, i32c(b, loc, kFillWords)),
            i32c(b, loc, kFillWord));
        auto load = [&](int64_t field) {
          return LLVM::LoadOp::create(
                     b, loc, i32,
                     tableWord(b, loc, arith::AddIOp::create(
                                           b, loc, base, i32c(b, loc, field))),
                     4, /*isVolatile=*/true)
              .getResult();
        };
        Value key = load(0);
        Value used = cmp(b, loc, arith::CmpIPredicate::ne, key, zero);
        Value dst = arith::SubIOp::create(b, loc, key, i32c(b, loc, 1));
        Value dstEnd = arith::AddIOp::create(b, loc, dst, load(1));
        Value overlaps = arith::AndIOp::create(
            b, loc, used,
            arith::AndIOp::create(
                b, loc, cmp(b, loc, arith::CmpIPredicate::ult, dst, end),
                cmp(b, loc, arith::CmpIPredicate::ult, first, dstEnd)));
        Value covers = arith::AndIOp::create(
            b, loc, used,
            arith::AndIOp::create(
                b, loc, cmp(b, loc, arith::CmpIPredicate::ule, dst, first),
                cmp(b, loc, arith::CmpIPredicate::ult, first, dstEnd)));
        // Whether its phase completed: the parity test, or a later
        // generation of its barrier (the same parity two phases on).
        auto ifOverlaps = scf::IfOp::create(b, loc, TypeRange{i1, i32, i32, i32},
                                            overlaps, /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(ifOverlaps.thenBlock());
          Value barrier = load(2), phase = load(3);
          Value mbar = LLVM::IntToPtrOp::create(b, loc, shared, barrier);
          Value parity = arith::ShRUIOp::create(b, loc, phase, i32c(b, loc, 31));
          Value done = NVVM::MBarrierTestWaitOp::create(b, loc, i1, mbar, parity,
                                                        ctaScope(b));
          Slot s = slot(b, loc, barrier, /*claim=*/false);
          Value genNow = arith::AndIOp::create(
              b, loc,
              LLVM::LoadOp::create(b, loc, i32, generationWord(b, loc, s), 4,
                                   /*isVolatile=*/true),
              i32c(b, loc, 0x7fffffff));
          Value later = cmp(b, loc, arith::CmpIPredicate::ne, genNow,
                            arith::AndIOp::create(b, loc, phase,
                                                  i32c(b, loc, 0x7fffffff)));
          // A slot another barrier holds: its generation is unknown.
          Value complete = arith::OrIOp::create(
              b, loc, done,
              arith::OrIOp::create(b, loc, later, notOf(b, loc, s.mine)));
          scf::YieldOp::create(b, loc,
                               ValueRange{notOf(b, loc, complete), barrier,
                                          phase, genNow});
          b.setInsertionPointToStart(ifOverlaps.elseBlock());
          scf::YieldOp::create(b, loc, ValueRange{no, zero, zero, zero});
        }
        Value pending = ifOverlaps.getResult(0);
        Value firstBad = arith::AndIOp::create(
            b, loc, pending,
            cmp(b, loc, arith::CmpIPredicate::eq, acc[1], unknown));
        auto pick = [&](Value now, Value before) {
          return arith::SelectOp::create(b, loc, firstBad, now, before)
              .getResult();
        };
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::OrIOp::create(b, loc, acc[0], covers),
                       pick(dst, acc[1]), pick(ifOverlaps.getResult(1), acc[2]),
                       pick(ifOverlaps.getResult(2), acc[3]),
                       pick(ifOverlaps.getResult(3), acc[4])});
      });
  Value pendingDst = scan.getResult(1);
  Value bad = cmp(b, loc, arith::CmpIPredicate::ne, pendingDst, unknown);
  std::optional<SharedAllocation> allocation =
      getSharedAllocation(op.getBuffer());
  Operation *func = op->getParentOfType<FunctionOpInterface>();
  if (allocation && func && loadedAllocations.contains({func, *allocation})) {
    // No record covers it: the producer has not issued its load yet (unless
    // the table overflowed).
    Value full = cmp(b, loc, arith::CmpIPredicate::ne,
                     LLVM::LoadOp::create(b, loc, i32,
                                          tableWord(b, loc, i32c(b, loc, kFillFull)),
                                          4, /*isVolatile=*/true),
                     zero);
    Value uncovered = arith::AndIOp::create(
        b, loc, notOf(b, loc, scan.getResult(0)), notOf(b, loc, full));
    bad = arith::OrIOp::create(b, loc, bad, uncovered);
  }
  auto ifBad = scf::IfOp::create(b, loc, bad, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifBad.thenBlock());
  record(b, loc, i32c(b, loc, static_cast<int64_t>(Rule::WgmmaUnwaitedCopy)),
         kernelId(op), site,
         {first, i32c(b, loc, readBytes), pendingDst, scan.getResult(2),
          scan.getResult(3), scan.getResult(4)});
}

SmallVector<Value, 6> ModuleChecks::barrierValues(OpBuilder &b, Location loc,
                                                 Value mbar, Value parity) {
  Value address = sharedAddress(b, loc, mbar);
  Value phase = zext64(b, loc, arith::AndIOp::create(b, loc, parity,
                                                     i32c(b, loc, 1)));
  Slot s = slot(b, loc, address, /*claim=*/false);
  Value state = LLVM::LoadOp::create(b, loc, b.getI64Type(), s.state);
  Value stateParity = field(b, loc, state, kParityBit, 1);
  Value matches = arith::AndIOp::create(
      b, loc, s.mine,
      cmp(b, loc, arith::CmpIPredicate::eq, stateParity, phase));
  Value zero = i32c(b, loc, 0);
  auto ofPhase = [&](int lsb, int bits) {
    return arith::SelectOp::create(b, loc, matches,
                                   trunc32(b, loc, field(b, loc, state, lsb, bits)),
                                   zero)
        .getResult();
  };
  Value expected = ofPhase(kExpectedLsb, kExpectedBits);
  Value issued = countsIssued ? ofPhase(kIssuedLsb, kIssuedBits)
                              : i32c(b, loc, kUnknown);
  Value counts = arith::OrIOp::create(
      b, loc, ofPhase(kPostsLsb, kPostsBits),
      arith::ShLIOp::create(b, loc, ofPhase(kCopiesLsb, kCopiesBits),
                            i32c(b, loc, 16)));
  counts = arith::SelectOp::create(b, loc, s.mine, counts, i32c(b, loc, kUnknown));
  return {address, trunc32(b, loc, phase), expected, issued, counts};
}

//===----------------------------------------------------------------------===//
// Waits
//===----------------------------------------------------------------------===//

void ModuleChecks::boundWait(NVVM::MBarrierTryWaitParityOp op, int32_t site) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  int32_t kernel = kernelId(op);
  Value mbar = op.getAddr(), parity = op.getPhase(), ticks = op.getTicks();
  Type i1 = b.getI1Type(), i64 = b.getI64Type();
  auto tryOnce = [&](OpBuilder &b) {
    return NVVM::MBarrierTryWaitOp::create(b, loc, i1, mbar, parity, ticks,
                                           ctaScope(b))
        .getResult();
  };
  Value timeoutRule = i32c(b, loc, static_cast<int64_t>(Rule::MbarrierTimeout));
  Value mismatchRule =
      i32c(b, loc, static_cast<int64_t>(Rule::BarrierTxMismatch));
  // Whether the phase's counts show expect_tx bytes that the issued copies
  // do not match (`late`: more issued than expected, a phase that completed
  // early; otherwise any difference, a phase that cannot complete).
  auto mismatch = [&](OpBuilder &b, ArrayRef<Value> values, bool late) {
    Value posts = arith::AndIOp::create(b, loc, values[4], i32c(b, loc, 0xffff));
    Value posted = arith::AndIOp::create(
        b, loc,
        cmp(b, loc, arith::CmpIPredicate::ne, values[4], i32c(b, loc, kUnknown)),
        cmp(b, loc, arith::CmpIPredicate::ne, posts, i32c(b, loc, 0)));
    return arith::AndIOp::create(
               b, loc, posted,
               cmp(b, loc,
                   late ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ne,
                   values[3], values[2]))
        .getResult();
  };
  auto slow = scf::IfOp::create(b, loc, notOf(b, loc, tryOnce(b)),
                                /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(slow.thenBlock());
    Value start = NVVM::GlobalTimerOp::create(b, loc, i64);
    Value setUs = zext64(
        b, loc, LLVM::LoadOp::create(b, loc, b.getI32Type(), word(b, loc, kTimeoutUs)));
    Value limitUs = arith::SelectOp::create(
        b, loc, cmp(b, loc, arith::CmpIPredicate::eq, setUs, i64c(b, loc, 0)),
        i64c(b, loc, kDefaultTimeoutUs), setUs);
    Value limitNs = arith::MulIOp::create(b, loc, limitUs, i64c(b, loc, 1000));
    scf::WhileOp::create(
        b, loc, TypeRange{}, ValueRange{},
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value waiting = notOf(b, loc, tryOnce(b));
          auto ifWaiting = scf::IfOp::create(b, loc, waiting, false);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(ifWaiting.thenBlock());
          // Another thread's fault ends this wait too.
          Value faults = LLVM::LoadOp::create(b, loc, b.getI32Type(),
                                              word(b, loc, kCount), 4,
                                              /*isVolatile=*/true);
          auto ifFault = scf::IfOp::create(
              b, loc,
              cmp(b, loc, arith::CmpIPredicate::ne, faults, i32c(b, loc, 0)),
              false);
          {
            OpBuilder::InsertionGuard inner(b);
            b.setInsertionPointToStart(ifFault.thenBlock());
            exitThread(b, loc);
          }
          Value waited = arith::SubIOp::create(
              b, loc, NVVM::GlobalTimerOp::create(b, loc, i64), start);
          auto ifLate = scf::IfOp::create(
              b, loc, cmp(b, loc, arith::CmpIPredicate::ugt, waited, limitNs),
              false);
          b.setInsertionPointToStart(ifLate.thenBlock());
          SmallVector<Value, 6> values = barrierValues(b, loc, mbar, parity);
          // A phase short of bytes that the counts explain is a mismatch.
          Value rule = countsIssued
                           ? arith::SelectOp::create(
                                 b, loc, mismatch(b, values, /*late=*/false),
                                 mismatchRule, timeoutRule)
                                 .getResult()
                           : timeoutRule;
          values.push_back(trunc32(
              b, loc, arith::DivUIOp::create(b, loc, waited, i64c(b, loc, 1000))));
          record(b, loc, rule, kernel, site, values);
          exitThread(b, loc);
          b.setInsertionPointAfter(ifWaiting);
          scf::ConditionOp::create(b, loc, waiting, ValueRange{});
        },
        [&](OpBuilder &b, Location loc, ValueRange) {
          scf::YieldOp::create(b, loc, ValueRange{});
        });
  }
  if (countsIssued) {
    // The phase completed: more bytes issued on it than expected means it
    // completed while the rest was still landing.
    SmallVector<Value, 6> values = barrierValues(b, loc, mbar, parity);
    auto ifBad = scf::IfOp::create(b, loc, mismatch(b, values, /*late=*/true),
                                   false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifBad.thenBlock());
    values.push_back(i32c(b, loc, 0));
    record(b, loc, mismatchRule, kernel, site, values);
    exitThread(b, loc);
  }
  op.erase();
}

//===----------------------------------------------------------------------===//
// The module's barrier ops, the table's reset and the record of the layout
//===----------------------------------------------------------------------===//

void ModuleChecks::finish() {
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<NVVM::MBarrierInitOp, NVVM::MBarrierArriveExpectTxOp,
            NVVM::MBarrierExpectTxOp, NVVM::MBarrierArriveDropExpectTxOp,
            NVVM::MBarrierTryWaitParityOp>(op))
      ops.push_back(op);
  });
  int waits = 0;
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    if (auto init = dyn_cast<NVVM::MBarrierInitOp>(op)) {
      // A (re)initialized barrier starts at phase 0 with nothing counted.
      OpBuilder b(op->getContext());
      b.setInsertionPointAfter(op);
      Value address = sharedAddress(b, loc, init.getAddr());
      if (!address)
        continue;
      Slot s = slot(b, loc, address, /*claim=*/true);
      auto ifMine = scf::IfOp::create(b, loc, s.mine, false);
      b.setInsertionPointToStart(ifMine.thenBlock());
      LLVM::StoreOp::create(b, loc, i64c(b, loc, 0), s.state);
      continue;
    }
    if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op)) {
      boundWait(wait, addSite(op, ("mbarrier.try_wait.parity (wait " +
                                   llvm::Twine(waits++) + ")")
                                      .str()));
      continue;
    }
    OpBuilder b(op);
    Value mbar = op->getOperand(0), tx = op->getOperand(1);
    if (auto arrive = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op))
      if (Value pred = arrive.getPredicate()) {
        auto ifPred = scf::IfOp::create(b, loc, pred, false);
        b.setInsertionPointToStart(ifPred.thenBlock());
      }
    account(b, loc, mbar, tx, Value(), /*posts=*/1, /*copies=*/0);
  }

  if (usesTable) {
    // Shared memory holds garbage at launch: one thread clears the table
    // before any thread can name a barrier.
    for (gpu::GPUFuncOp kernel : kernels) {
      OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
      Location loc = kernel.getLoc();
      Type i32 = b.getI32Type();
      Value tid = arith::OrIOp::create(
          b, loc,
          arith::OrIOp::create(b, loc, NVVM::ThreadIdXOp::create(b, loc, i32),
                               NVVM::ThreadIdYOp::create(b, loc, i32)),
          NVVM::ThreadIdZOp::create(b, loc, i32));
      auto first = scf::IfOp::create(
          b, loc, cmp(b, loc, arith::CmpIPredicate::eq, tid, i32c(b, loc, 0)),
          false);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(first.thenBlock());
        auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
        Value table = LLVM::AddressOfOp::create(
            b, loc, shared, FlatSymbolRefAttr::get(b.getContext(), kTableName));
        // The states (i64 0..slots-1) and the keys (i32 kKeyWord..+slots)
        // fill the first kKeyWord / 2 + kTableSlots / 2 i64 words; checked
        // reads use all of it (generations, the fill table).
        if (checksReads) {
          auto lower = arith::ConstantIndexOp::create(b, loc, 0);
          auto upper = arith::ConstantIndexOp::create(b, loc, kTableBytes / 8);
          auto one = arith::ConstantIndexOp::create(b, loc, 1);
          scf::ForOp::create(
              b, loc, lower, upper, one, ValueRange{},
              [&](OpBuilder &b, Location loc, Value iv, ValueRange) {
                Value i = arith::IndexCastOp::create(b, loc, i32, iv);
                LLVM::StoreOp::create(
                    b, loc, i64c(b, loc, 0),
                    LLVM::GEPOp::create(b, loc, shared, b.getI64Type(), table,
                                        ValueRange{i}));
                scf::YieldOp::create(b, loc);
              });
        } else {
          for (int64_t i = 0; i < kTableSlots + kTableSlots / 2; ++i)
            LLVM::StoreOp::create(
                b, loc, i64c(b, loc, 0),
                LLVM::GEPOp::create(
                    b, loc, shared, b.getI64Type(), table,
                    ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)}));
        }
      }
      NVVM::Barrier0Op::create(b, loc);
    }
  }

  // What the compiler writes into the manifest's `debug` entry.
  Builder b(module.getContext());
  auto named = [&](StringRef name, Attribute value) {
    return b.getNamedAttr(name, value);
  };
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  SmallVector<NamedAttribute> fields = {
      named("count", i64(kCount)),     named("rule", i64(kRule)),
      named("kernel", i64(kKernel)),   named("site", i64(kSite)),
      named("block", i64(kBlock)),     named("thread", i64(kThread)),
      named("values", i64(kValues)),   named("timeout_us", i64(kTimeoutUs))};
  SmallVector<NamedAttribute> rules;
  for (Rule rule : kRecordedRules)
    rules.push_back(named(ruleName(rule), i64(static_cast<int64_t>(rule))));
  if (readsSeen)
    for (Rule rule : kReadRules)
      rules.push_back(named(ruleName(rule), i64(static_cast<int64_t>(rule))));
  if (derivesSeen)
    for (Rule rule : kDeriveRules)
      rules.push_back(named(ruleName(rule), i64(static_cast<int64_t>(rule))));
  SmallVector<Attribute> siteAttrs, kernelAttrs;
  for (const std::string &site : sites)
    siteAttrs.push_back(b.getStringAttr(site));
  for (gpu::GPUFuncOp kernel : kernels)
    kernelAttrs.push_back(b.getStringAttr(kernel.getName()));
  int64_t tableBytes = usesTable ? kTableBytes : 0;
  if (!usesTable)
    if (Operation *table = SymbolTable::lookupSymbolIn(module, kTableName))
      table->erase();
  module->setAttr(
      "tile.debug",
      b.getDictionaryAttr({
          named("buffer", b.getStringAttr(kBufferName)),
          named("words", i64(kWords)),
          named("fields", b.getDictionaryAttr(fields)),
          named("value_words", i64(kNumValues)),
          named("default_timeout_us", i64(kDefaultTimeoutUs)),
          named("unknown", i64(kUnknown)),
          named("row_axis", i64(kRowAxis)),
          named("counts_issued", b.getBoolAttr(countsIssued)),
          named("shared_bytes", i64(tableBytes)),
          named("rules", b.getDictionaryAttr(rules)),
          named("kernels", b.getArrayAttr(kernelAttrs)),
          named("sites", b.getArrayAttr(siteAttrs)),
      }));
}
