//===- BarrierAccounting.cpp - static mbarrier byte accounting ------------===//
//
// A load completes on its mbarrier with its transaction bytes; the phase it
// completes in expects bytes through `expect_tx`. When the two differ the
// phase never completes (a hang) or completes early (a race). This analysis
// proves the mismatch where the IR fixes everything, and says nothing
// otherwise. Per kernel and per barrier:
//
// * A barrier is a shared address the IR names: a function argument, or an
//   allocation (memref.global, memref.alloca, gpu.dynamic_shared_memory, a
//   workgroup attribution) plus a constant byte offset, through
//   extract_aligned_pointer_as_index, index casts, constant adds, inttoptr
//   and addrspacecast (what the Python builder's `ptr_to` makes).
// * Every op that may touch it is known: the copies naming it, the
//   expect_tx forms, the blocking parity wait, and the ops that change no
//   transaction count (init, inval, plain arrivals, non-blocking tests). Any
//   other use of a pointer that may alias it, a pointer the IR does not name,
//   or any call in the kernel, and the barrier is not checked.
// * The copies and expect_tx of the barrier run under the same conditions
//   (equal scf.if conditions, compared as pure expressions), so the same
//   threads issue all of them; scf.for loops between them have constant trip
//   counts and conditions inside them do not depend on the loop.
// * Phases are delimited by blocking waits on the barrier that those threads
//   execute. Each phase with at least one expect_tx whose bytes are constants
//   or tile.tx_bytes is checked: expected == delivered. With multicast or
//   cta_group copies on the barrier other CTAs may deliver too, so only too
//   few expected bytes are an error: fewer than this CTA's own copies that
//   surely land on it (non-multicast, and multicast to the whole cluster).
//
// Before the bytes, each kernel's barriers of named allocations (not
// arguments: a parameter cannot point into its launch's shared memory) must
// be set up: every barrier waited on, arrived on, armed, completed on or
// named by a load is initialised somewhere in the kernel, and every one a
// load completes on is armed (expect_tx) somewhere in it. An init or
// expect_tx at a run-time offset covers its whole allocation, one through a
// pointer the IR does not name covers every barrier, and a call or inline
// PTX naming an mbarrier leaves the kernel unchecked.
//
//===----------------------------------------------------------------------===//

#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

constexpr int kMaxDepth = 32;
/// Bytes of one mbarrier object.
constexpr int64_t kBarrierBytes = 8;

//===----------------------------------------------------------------------===//
// Which barrier a pointer names.
//===----------------------------------------------------------------------===//

enum class RootKind { Symbol, Dynamic, Op, Attribution, Argument };

struct BarrierKey {
  /// The allocation (or argument) and the byte offset are known.
  bool known = false;
  /// Only the allocation is known: an offset computed at run time (a stage
  /// index). Such a key is not `known`, so the byte accounting treats it as
  /// any barrier; initialisation and arming use its allocation.
  bool rootOnly = false;
  RootKind kind = RootKind::Op;
  const void *root = nullptr;
  int64_t offset = 0;
  /// For messages.
  std::string name;

  bool sameRoot(const BarrierKey &o) const {
    return known && o.known && kind == o.kind && root == o.root;
  }
  bool same(const BarrierKey &o) const {
    return sameRoot(o) && offset == o.offset;
  }
  BarrierKey plus(int64_t delta) const {
    BarrierKey k = *this;
    if (k.known && llvm::AddOverflow(k.offset, delta, k.offset))
      k.known = false;
    return k;
  }
};

BarrierKey unknownKey() { return BarrierKey(); }

/// `key` with its offset forgotten (a run-time offset was added).
BarrierKey loosen(const BarrierKey &key) {
  if (!key.known && !key.rootOnly)
    return unknownKey();
  BarrierKey k = key;
  k.known = false;
  k.rootOnly = true;
  return k;
}

bool hasRoot(const BarrierKey &key) { return key.known || key.rootOnly; }

BarrierKey rootKey(RootKind kind, const void *root, std::string name) {
  BarrierKey k;
  k.known = true;
  k.kind = kind;
  k.root = root;
  k.name = std::move(name);
  return k;
}

/// Whether the barriers (8 bytes each) at `a` and `b` may share a byte.
bool mayAlias(const BarrierKey &a, const BarrierKey &b) {
  if (!a.known || !b.known)
    return true;
  if (a.sameRoot(b))
    return std::abs(a.offset - b.offset) < kBarrierBytes;
  // A pointer argument may point anywhere in shared memory; distinct
  // allocations never overlap.
  return a.kind == RootKind::Argument || b.kind == RootKind::Argument;
}

/// The barrier key of a memref's aligned pointer.
BarrierKey memrefKey(Value value, int depth) {
  if (depth > kMaxDepth)
    return unknownKey();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast_or_null<gpu::GPUFuncOp>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getBody().front())
      return unknownKey();
    for (auto [i, attribution] :
         llvm::enumerate(func.getWorkgroupAttributions()))
      if (attribution == arg)
        return rootKey(RootKind::Attribution, arg.getAsOpaquePointer(),
                       "in workgroup attribution #" + std::to_string(i));
    return rootKey(RootKind::Argument, arg.getAsOpaquePointer(),
                   "in argument #" + std::to_string(arg.getArgNumber()));
  }
  Operation *def = value.getDefiningOp();
  if (auto global = dyn_cast<memref::GetGlobalOp>(def))
    return rootKey(RootKind::Symbol, global.getNameAttr().getAsOpaquePointer(),
                   "in @" + global.getName().str());
  if (isa<gpu::DynamicSharedMemoryOp>(def))
    return rootKey(RootKind::Dynamic, nullptr, "in the dynamic shared memory");
  if (isa<memref::AllocaOp, memref::AllocOp>(def))
    return rootKey(RootKind::Op, def, "in a " + def->getName().getStringRef().str());
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    APInt shift;
    if (!matchPattern(view.getByteShift(), m_ConstantInt(&shift)))
      return loosen(memrefKey(view.getSource(), depth + 1));
    return memrefKey(view.getSource(), depth + 1).plus(shift.getSExtValue());
  }
  // Ops that keep the aligned pointer.
  if (isa<memref::SubViewOp, memref::ReinterpretCastOp, memref::CastOp,
          memref::MemorySpaceCastOp, memref::CollapseShapeOp,
          memref::ExpandShapeOp, memref::AssumeAlignmentOp>(def))
    return memrefKey(def->getOperand(0), depth + 1);
  return unknownKey();
}

BarrierKey pointerKey(Value value, int depth);

/// The barrier key of an integer holding a shared address.
BarrierKey integerKey(Value value, int depth) {
  if (depth > kMaxDepth)
    return unknownKey();
  Operation *def = value.getDefiningOp();
  if (!def)
    return unknownKey();
  if (auto add = dyn_cast<arith::AddIOp>(def)) {
    APInt c;
    if (matchPattern(add.getRhs(), m_ConstantInt(&c)))
      return integerKey(add.getLhs(), depth + 1).plus(c.getSExtValue());
    if (matchPattern(add.getLhs(), m_ConstantInt(&c)))
      return integerKey(add.getRhs(), depth + 1).plus(c.getSExtValue());
    // An address plus a run-time offset (`ptr_to` at a stage index): the
    // allocation of the one side that is an address.
    BarrierKey l = integerKey(add.getLhs(), depth + 1);
    BarrierKey r = integerKey(add.getRhs(), depth + 1);
    if (hasRoot(l) == hasRoot(r))
      return unknownKey();
    return loosen(hasRoot(l) ? l : r);
  }
  if (auto sub = dyn_cast<arith::SubIOp>(def)) {
    APInt c;
    if (matchPattern(sub.getRhs(), m_ConstantInt(&c)))
      return integerKey(sub.getLhs(), depth + 1).plus(-c.getSExtValue());
    if (hasRoot(integerKey(sub.getRhs(), depth + 1)))
      return unknownKey();
    return loosen(integerKey(sub.getLhs(), depth + 1));
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
          arith::ExtSIOp>(def))
    return integerKey(def->getOperand(0), depth + 1);
  if (auto extract = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(def))
    return memrefKey(extract.getSource(), depth + 1);
  if (auto cast = dyn_cast<LLVM::PtrToIntOp>(def))
    return pointerKey(cast.getArg(), depth + 1);
  return unknownKey();
}

BarrierKey pointerKey(Value value, int depth) {
  if (depth > kMaxDepth)
    return unknownKey();
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return unknownKey();
    return rootKey(RootKind::Argument, arg.getAsOpaquePointer(),
                   "argument #" + std::to_string(arg.getArgNumber()));
  }
  Operation *def = value.getDefiningOp();
  if (auto cast = dyn_cast<LLVM::IntToPtrOp>(def))
    return integerKey(cast.getArg(), depth + 1);
  if (auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(def))
    return pointerKey(cast.getArg(), depth + 1);
  return unknownKey();
}

std::string describe(const BarrierKey &key) {
  if (key.kind == RootKind::Argument && key.offset == 0)
    return key.name;
  return "at byte " + std::to_string(key.offset) + " " + key.name;
}

//===----------------------------------------------------------------------===//
// What each op does to a barrier.
//===----------------------------------------------------------------------===//

enum class SiteKind {
  Copy,    // a load completing on the barrier
  Expect,  // expect_tx (with or without an arrival)
  Wait,    // a blocking wait for a phase
  Neutral, // changes no transaction count and ends no phase
  Opaque,  // anything else: the barrier is not checked
};

struct Site {
  Operation *op;
  SiteKind kind;
  BarrierKey key;
};

bool isPointer(Type type) {
  auto ptr = dyn_cast<LLVM::LLVMPointerType>(type);
  if (!ptr)
    return false;
  // Generic, shared::cta and shared::cluster pointers can name a barrier.
  unsigned space = ptr.getAddressSpace();
  return space == 0 || space == 3 || space == 7;
}

/// The barrier sites of `op` (none for ops that only compute addresses).
void collectSites(Operation *op, SmallVectorImpl<Site> &sites) {
  auto add = [&](Value ptr, SiteKind kind) {
    sites.push_back({op, kind, pointerKey(ptr, 0)});
  };
  if (auto copy = dyn_cast<TmaCopyOp>(op)) {
    // The global operand is a tensor map, never a barrier.
    if (Value mbar = copy.getMbar())
      add(mbar, SiteKind::Copy);
    return;
  }
  if (auto arrive = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op)) {
    add(arrive.getAddr(),
        arrive.getPredicate() ? SiteKind::Opaque : SiteKind::Expect);
    return;
  }
  if (auto arrive = dyn_cast<NVVM::MBarrierArriveDropExpectTxOp>(op))
    return add(arrive.getAddr(), SiteKind::Expect);
  if (auto expect = dyn_cast<NVVM::MBarrierExpectTxOp>(op))
    return add(expect.getAddr(), SiteKind::Expect);
  if (auto wait = dyn_cast<NVVM::MBarrierTryWaitParityOp>(op))
    return add(wait.getAddr(), SiteKind::Wait);
  if (isa<NVVM::MBarrierInitOp, NVVM::MBarrierInvalOp, NVVM::MBarrierArriveOp,
          NVVM::MBarrierArriveNocompleteOp, NVVM::MBarrierArriveDropOp,
          NVVM::MBarrierArriveDropNocompleteOp, NVVM::MBarrierTestWaitOp,
          NVVM::MBarrierTryWaitOp>(op)) {
    for (Value operand : op->getOperands())
      if (isPointer(operand.getType()))
        add(operand, SiteKind::Neutral);
    return;
  }
  // Address arithmetic: its results are judged where they are used.
  if (isa<LLVM::IntToPtrOp, LLVM::PtrToIntOp, LLVM::AddrSpaceCastOp,
          LLVM::GEPOp>(op))
    return;
  for (Value operand : op->getOperands())
    if (isPointer(operand.getType()))
      add(operand, SiteKind::Opaque);
}

//===----------------------------------------------------------------------===//
// Conditions, loops and constants.
//===----------------------------------------------------------------------===//

/// Whether `a` and `b` always hold the same value: the same SSA value, or
/// the same pure op over operands that are.
bool sameValue(Value a, Value b, int depth) {
  if (a == b)
    return true;
  if (depth > kMaxDepth)
    return false;
  Operation *x = a.getDefiningOp();
  Operation *y = b.getDefiningOp();
  if (!x || !y || x->getNumRegions() || y->getNumRegions() || !isPure(x) ||
      !isPure(y) || cast<OpResult>(a).getResultNumber() !=
                        cast<OpResult>(b).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      x, y,
      [&](Value l, Value r) { return success(sameValue(l, r, depth + 1)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// Whether `value` is the same in every iteration of `loop`.
bool invariantIn(Value value, Operation *loop, int depth) {
  Operation *owner = isa<BlockArgument>(value)
                         ? cast<BlockArgument>(value).getOwner()->getParentOp()
                         : value.getDefiningOp();
  if (owner != loop && !loop->isAncestor(owner))
    return true;
  if (isa<BlockArgument>(value) || depth > kMaxDepth)
    return false;
  Operation *def = value.getDefiningOp();
  if (def->getNumRegions() || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return invariantIn(operand, loop, depth + 1);
  });
}

std::optional<int64_t> constantInt(Value value) {
  APInt c;
  if (!matchPattern(value, m_ConstantInt(&c)))
    return std::nullopt;
  return c.getSExtValue();
}

/// The bytes an expect_tx operand holds, when the IR fixes them.
std::optional<int64_t> constantBytes(Value value, int depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  APInt c;
  if (matchPattern(value, m_ConstantInt(&c)))
    return c.getZExtValue();
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto tx = dyn_cast<TxBytesOp>(def)) {
    std::optional<int64_t> bytes = tx.computeBytes();
    return bytes;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return constantBytes(def->getOperand(0), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    std::optional<int64_t> l = constantBytes(def->getOperand(0), depth + 1);
    std::optional<int64_t> r = constantBytes(def->getOperand(1), depth + 1);
    if (!l || !r || *l > (1 << 30) || *r > (1 << 30))
      return std::nullopt;
    if (isa<arith::AddIOp>(def))
      return *l + *r;
    if (isa<arith::SubIOp>(def))
      return *l - *r;
    return *l * *r;
  }
  return std::nullopt;
}

/// The byte-count operand of an expect_tx form.
Value expectedCount(Operation *op) {
  if (auto arrive = dyn_cast<NVVM::MBarrierArriveExpectTxOp>(op))
    return arrive.getTxcount();
  if (auto arrive = dyn_cast<NVVM::MBarrierArriveDropExpectTxOp>(op))
    return arrive.getTxcount();
  return cast<NVVM::MBarrierExpectTxOp>(op).getTxcount();
}

/// Iterations of `loop` when its bounds are constants.
std::optional<int64_t> tripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = constantInt(loop.getLowerBound());
  std::optional<int64_t> ub = constantInt(loop.getUpperBound());
  std::optional<int64_t> step = constantInt(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  return (*ub - *lb + *step - 1) / *step;
}

/// One enclosing scf.if branch.
struct Guard {
  Operation *op; // an scf.if
  unsigned region;
  Value condition() const { return cast<scf::IfOp>(op).getCondition(); }
};

bool sameGuards(ArrayRef<Guard> a, ArrayRef<Guard> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (x.region != y.region ||
        !sameValue(x.condition(), y.condition(), 0))
      return false;
  return true;
}

/// Where a site sits below the phase block: its guards (outermost first)
/// and how often it runs per run of the block.
struct Placement {
  SmallVector<Guard> guards;
  int64_t times = 1;
  bool inLoop = false;
};

/// The placement of `op` below `block`, or nullopt when something other than
/// scf.if and constant-trip scf.for stands between (or a condition inside a
/// loop depends on the loop).
std::optional<Placement> placement(Operation *op, Block *block) {
  Placement p;
  SmallVector<Guard> inner; // innermost first
  for (Operation *parent = op->getParentOp(); op->getBlock() != block;
       op = parent, parent = parent->getParentOp()) {
    if (!parent)
      return std::nullopt;
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      inner.push_back({ifOp.getOperation(), op->getParentRegion()->getRegionNumber()});
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      std::optional<int64_t> trips = tripCount(loop);
      if (!trips)
        return std::nullopt;
      // A condition below the loop that varies with it would make the trip
      // count the wrong multiplier.
      for (const Guard &g : inner)
        if (!invariantIn(g.condition(), loop, 0))
          return std::nullopt;
      if (llvm::MulOverflow(p.times, *trips, p.times) || p.times > (1 << 20))
        return std::nullopt;
      p.inLoop = true;
      continue;
    }
    return std::nullopt;
  }
  p.guards.assign(inner.rbegin(), inner.rend());
  return p;
}

/// The innermost block holding all of `ops`.
Block *commonBlock(ArrayRef<Operation *> ops) {
  Block *block = ops.front()->getBlock();
  while (block) {
    bool all = llvm::all_of(ops, [&](Operation *op) {
      return block->findAncestorOpInBlock(*op) != nullptr;
    });
    if (all)
      return block;
    Operation *parent = block->getParentOp();
    block = parent ? parent->getBlock() : nullptr;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The check.
//===----------------------------------------------------------------------===//

struct Event {
  Site site;
  Placement where;
  unsigned position;
};

struct Checker {
  Operation *func;
  SmallVector<Site> sites;
  llvm::DenseMap<Operation *, unsigned> position;
  std::optional<int64_t> clusterCtas;

  /// Bytes a copy surely delivers to this CTA's barrier, and whether other
  /// CTAs (or the peer of a CTA pair) may deliver to it as well.
  int64_t ownBytes(TmaCopyOp copy) const {
    int64_t bytes = copy.getTransactionBytes();
    if (copy.getCtaGroup())
      return 0;
    if (!copy.getMulticast())
      return bytes;
    std::optional<int64_t> mask = constantInt(copy.getCtaMask());
    if (!mask || !clusterCtas)
      return 0;
    uint64_t all = (uint64_t(1) << *clusterCtas) - 1;
    return (uint64_t(*mask) & all) == all ? bytes : 0;
  }

  LogicalResult checkBarrier(const BarrierKey &barrier);
  LogicalResult run();
};

LogicalResult Checker::checkBarrier(const BarrierKey &barrier) {
  SmallVector<Site> mine;
  for (const Site &site : sites) {
    if (!mayAlias(site.key, barrier))
      continue;
    if (site.kind == SiteKind::Opaque)
      return success();
    if (site.kind == SiteKind::Neutral)
      continue;
    // A copy, expect or wait that may or may not be this barrier.
    if (!site.key.same(barrier))
      return success();
    mine.push_back(site);
  }
  SmallVector<Operation *> tx;
  bool otherCtas = false;
  bool anyExpect = false;
  for (const Site &site : mine) {
    if (site.kind == SiteKind::Wait)
      continue;
    tx.push_back(site.op);
    if (site.kind == SiteKind::Expect)
      anyExpect = true;
    if (auto copy = dyn_cast<TmaCopyOp>(site.op)) {
      if (!isTransactionBytesComputable(copy))
        return success();
      otherCtas |= copy.getMulticast() || copy.getCtaGroup().has_value();
    }
  }
  // Without any expect_tx the kernel does not account this barrier here.
  if (!anyExpect)
    return success();
  Block *block = commonBlock(tx);
  if (!block)
    return success();

  // Who issues the copies and expects: the same guards for all.
  SmallVector<Event> events;
  std::optional<SmallVector<Guard>> guards;
  for (const Site &site : mine) {
    if (site.kind == SiteKind::Wait) {
      if (!block->findAncestorOpInBlock(*site.op))
        continue; // ends phases outside the block: not between these events
      std::optional<Placement> where = placement(site.op, block);
      if (!where || where->inLoop)
        return success();
      events.push_back({site, *where, position.lookup(site.op)});
      continue;
    }
    std::optional<Placement> where = placement(site.op, block);
    if (!where)
      return success();
    if (!guards)
      guards = where->guards;
    else if (!sameGuards(*guards, where->guards))
      return success();
    events.push_back({site, *where, position.lookup(site.op)});
  }
  // A wait ends a phase for the issuing threads only if they run it too.
  for (const Event &e : events) {
    if (e.site.kind != SiteKind::Wait)
      continue;
    ArrayRef<Guard> prefix = *guards;
    if (e.where.guards.size() > prefix.size() ||
        !sameGuards(prefix.take_front(e.where.guards.size()), e.where.guards))
      return success();
  }
  llvm::sort(events, [](const Event &a, const Event &b) {
    return a.position < b.position;
  });

  // Phases: the runs of events between waits.
  SmallVector<SmallVector<const Event *>> phases(1);
  for (const Event &e : events) {
    if (e.site.kind == SiteKind::Wait)
      phases.emplace_back();
    else
      phases.back().push_back(&e);
  }
  // In a block that runs repeatedly, the events after the last wait share a
  // phase with those before the first one of the next run.
  bool repeats = false;
  for (Operation *p = block->getParentOp(); p && p != func; p = p->getParentOp())
    if (!isa<scf::IfOp>(p))
      repeats = true;
  if (repeats && phases.size() > 1 && !phases.front().empty() &&
      !phases.back().empty())
    return success();

  for (ArrayRef<const Event *> phase : phases) {
    Operation *expectOp = nullptr;
    int64_t expected = 0, delivered = 0, own = 0, copies = 0;
    bool known = true;
    for (const Event *e : phase) {
      int64_t times = e->where.times;
      if (e->site.kind == SiteKind::Expect) {
        expectOp = expectOp ? expectOp : e->site.op;
        Value count = expectedCount(e->site.op);
        std::optional<int64_t> bytes = constantBytes(count, 0);
        if (!bytes) {
          known = false;
          break;
        }
        expected += *bytes * times;
        continue;
      }
      auto copy = cast<TmaCopyOp>(e->site.op);
      delivered += copy.getTransactionBytes() * times;
      own += ownBytes(copy) * times;
      copies += times;
    }
    if (!known || !expectOp)
      continue;
    std::string where = describe(barrier);
    if (!otherCtas && expected != delivered)
      return expectOp->emitOpError()
             << "[" << ruleName(Rule::BarrierTxMismatch) << "] the mbarrier "
             << where << " expects " << expected
             << " bytes in this phase, but the copies that complete on it "
             << "deliver " << delivered << " bytes (" << copies << " cop"
             << (copies == 1 ? "y" : "ies") << ")";
    if (otherCtas && expected < own)
      return expectOp->emitOpError()
             << "[" << ruleName(Rule::BarrierTxMismatch) << "] the mbarrier "
             << where << " expects " << expected
             << " bytes in this phase, but this CTA's own copies alone deliver "
             << own << " bytes to it (a multicast copy delivers its whole box "
             << "to each receiving CTA; other CTAs' copies can only add)";
  }
  return success();
}

LogicalResult Checker::run() {
  bool calls = false;
  func->walk([&](Operation *op) {
    if (op != func && isa<CallOpInterface>(op))
      calls = true;
  });
  // A callee may touch the same barriers unseen.
  if (calls)
    return success();
  unsigned next = 0;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    position[op] = next++;
    collectSites(op, sites);
  });
  clusterCtas = getClusterShape(func).ctas;
  SmallVector<BarrierKey> barriers;
  for (const Site &site : sites) {
    if ((site.kind != SiteKind::Copy && site.kind != SiteKind::Expect) ||
        !site.key.known)
      continue;
    if (llvm::none_of(barriers,
                      [&](const BarrierKey &b) { return b.same(site.key); }))
      barriers.push_back(site.key);
  }
  for (const BarrierKey &barrier : barriers)
    if (failed(checkBarrier(barrier)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Initialisation and arming.
//===----------------------------------------------------------------------===//

/// What an op does to the barrier it names, for initialisation and arming.
enum class Role { Init, Use, Arm, Load };

struct RoleSite {
  Operation *op;
  Role role;
  BarrierKey key;
  /// Use: what the op does to the barrier, in words.
  const char *verb = "";
};

/// Whether `key` names a barrier of an allocation of this kernel (at a
/// constant or a run-time offset). A kernel parameter cannot point into the
/// shared memory of its own launch.
bool namesAllocation(const BarrierKey &key) {
  return hasRoot(key) && key.kind != RootKind::Argument;
}

/// Whether an init or expect_tx through `by` may reach the barrier `key`
/// (which names an allocation).
bool mayReach(const BarrierKey &by, const BarrierKey &key) {
  if (!hasRoot(by))
    return true; // a pointer the IR does not name may be any barrier
  if (by.kind != key.kind || by.root != key.root)
    return false;
  if (by.known && key.known)
    return std::abs(by.offset - key.offset) < kBarrierBytes;
  return true; // a run-time offset: any barrier of the allocation
}

/// Whether text handed to ptxas (inline asm) may touch an mbarrier.
bool namesMbarrier(Operation *op) {
  if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
    return asmOp.getAsmString().contains("mbarrier");
  if (auto ptx = dyn_cast<NVVM::InlinePtxOp>(op))
    return ptx.getPtxCode().contains("mbarrier");
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op))
    return intrinsic.getIntrin().contains("mbarrier");
  return false;
}

/// The init/use/arm sites of `op`.
void collectRoles(Operation *op, SmallVectorImpl<RoleSite> &sites) {
  auto add = [&](Value ptr, Role role, const char *verb = "") {
    sites.push_back({op, role, pointerKey(ptr, 0), verb});
  };
  if (auto copy = dyn_cast<TmaCopyOp>(op)) {
    if (Value mbar = copy.getMbar()) {
      add(mbar, Role::Use, "completed on by a load (tile.tma_copy mbar)");
      add(mbar, Role::Load);
    }
    return;
  }
  if (isa<NVVM::MBarrierInitOp>(op))
    return add(op->getOperand(0), Role::Init);
  if (isa<NVVM::MBarrierArriveExpectTxOp, NVVM::MBarrierArriveDropExpectTxOp,
          NVVM::MBarrierExpectTxOp>(op)) {
    add(op->getOperand(0), Role::Use, "armed (expect_tx)");
    return add(op->getOperand(0), Role::Arm);
  }
  if (isa<NVVM::MBarrierTryWaitParityOp, NVVM::MBarrierTryWaitOp,
          NVVM::MBarrierTestWaitOp>(op))
    return add(op->getOperand(0), Role::Use, "waited on");
  if (isa<NVVM::MBarrierArriveOp, NVVM::MBarrierArriveNocompleteOp,
          NVVM::MBarrierArriveDropOp, NVVM::MBarrierArriveDropNocompleteOp>(op))
    return add(op->getOperand(0), Role::Use, "arrived on");
  if (isa<NVVM::MBarrierCompleteTxOp>(op))
    return add(op->getOperand(0), Role::Use, "completed on (complete_tx)");
}

std::string describeNamed(const BarrierKey &key) {
  if (key.known)
    return describe(key);
  return "at a run-time offset " + key.name;
}

/// [mbarrier-uninitialized] and [mbarrier-unarmed] of one kernel: each
/// barrier of a named allocation that is used is initialised somewhere in
/// the kernel, and each one a load completes on is armed somewhere in it.
/// Once per barrier and rule, on its first such use.
LogicalResult checkInitAndArming(gpu::GPUFuncOp func) {
  SmallVector<RoleSite> sites;
  bool opaque = false;
  func->walk([&](Operation *op) {
    // A callee, or inline PTX, may initialise or arm a barrier unseen.
    if ((op != func && isa<CallOpInterface>(op)) || namesMbarrier(op))
      opaque = true;
    collectRoles(op, sites);
  });
  if (opaque)
    return success();
  auto reached = [&](const BarrierKey &key, Role role) {
    return llvm::any_of(sites, [&](const RoleSite &s) {
      return s.role == role && mayReach(s.key, key);
    });
  };
  // Barriers already reported (per rule), so each is named once.
  SmallVector<BarrierKey> uninitialised, unarmed;
  auto seen = [](SmallVectorImpl<BarrierKey> &list, const BarrierKey &key) {
    for (const BarrierKey &k : list)
      if (k.kind == key.kind && k.root == key.root && k.known == key.known &&
          (!k.known || k.offset == key.offset))
        return true;
    list.push_back(key);
    return false;
  };
  bool failedAny = false;
  std::string kernel = "@" + func.getName().str();
  for (const RoleSite &site : sites) {
    if (!namesAllocation(site.key))
      continue;
    if (site.role == Role::Use && !reached(site.key, Role::Init) &&
        !seen(uninitialised, site.key)) {
      site.op->emitOpError()
          << "[" << ruleName(Rule::MbarrierUninitialized) << "] the mbarrier "
          << describeNamed(site.key) << " is " << site.verb
          << " but never initialised (mbarrier.init) in kernel " << kernel;
      failedAny = true;
    }
    if (site.role == Role::Load && reached(site.key, Role::Init) &&
        !reached(site.key, Role::Arm) && !seen(unarmed, site.key)) {
      site.op->emitOpError()
          << "[" << ruleName(Rule::MbarrierUnarmed) << "] a load completes on "
          << "the mbarrier " << describeNamed(site.key)
          << ", but nothing in kernel " << kernel << " arms it with "
          << "transaction bytes (mbarrier.arrive.expect_tx or "
          << "mbarrier.expect_tx): its phase never completes";
      failedAny = true;
    }
  }
  return failure(failedAny);
}

} // namespace

std::optional<SharedAllocation> mlir::tile::getSharedAllocation(Value memref) {
  BarrierKey key = memrefKey(memref, 0);
  if (!hasRoot(key))
    return std::nullopt;
  return SharedAllocation(static_cast<int>(key.kind), key.root);
}

LogicalResult mlir::tile::checkBarrierAccounting(Operation *root) {
  bool failedAny = false;
  root->walk([&](gpu::GPUFuncOp func) {
    // A device function's barriers may be initialised and accounted by its
    // callers.
    if (!func.isKernel())
      return;
    // The byte accounting of a kernel whose barriers are not set up would
    // only repeat the error.
    if (failed(checkInitAndArming(func))) {
      failedAny = true;
      return;
    }
    Checker checker{func};
    if (failed(checker.run()))
      failedAny = true;
  });
  return failure(failedAny);
}
