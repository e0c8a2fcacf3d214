//===- WgmmaCopyLink.cpp - a wgmma descriptor reads what its copy wrote ---===//
//
// The copy engine writes a shared image in one swizzle and format; a wgmma
// descriptor names the swizzle and element type it reads it with. Where the
// IR shows which tile.tma_copy load fills a descriptor's buffer (the same
// SSA memref, or overlapping bytes of the same allocation at constant
// offsets), the two must agree, else the MMA reads a wrong matrix without
// any error. Where the IR does not show it (a pointer buffer, a runtime
// offset) nothing is said.
//
//===----------------------------------------------------------------------===//

#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"
#include "Tile/Contract/Wgmma.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// [first, last) bytes of a buffer in its allocation, when the IR fixes them.
std::optional<std::pair<int64_t, int64_t>> byteRange(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  SharedAlignment align = getSharedAlignment(memref);
  if (align.status == SharedAlignment::Status::Unproven || align.declared)
    return std::nullopt;
  int64_t bytes =
      type.getNumElements() * type.getElementTypeBitWidth() / 8;
  return std::make_pair(align.offsetBytes, align.offsetBytes + bytes);
}

/// Whether the load `copy` writes bytes of `buffer`.
bool fills(TmaCopyOp copy, Value buffer) {
  Value shared = copy.getShared();
  if (!shared || copy.getDirection() != Direction::load)
    return false;
  if (shared == buffer)
    return true;
  std::optional<SharedAllocation> root = getSharedAllocation(shared);
  if (!root || root != getSharedAllocation(buffer))
    return false;
  auto a = byteRange(shared), b = byteRange(buffer);
  return a && b && a->first < b->second && b->first < a->second;
}

/// The copy's format: explicit, or its shared element type's.
std::optional<Format> copyFormat(TmaCopyOp copy) {
  if (std::optional<Format> format = copy.getFormat())
    return format;
  return defaultFormat(cast<MemRefType>(copy.getShared().getType()).getElementType());
}

/// The descriptor's strides against the image the copy wrote: boxes of
/// `row`-byte rows, one box per slot. A box of R rows is R x row bytes, so
/// the operand's 8-row (8-K-row) groups lie 8 x row bytes apart inside a
/// box, and its next run of K chunks (K-major without swizzle) or of MN
/// (MN-major) one box further. Only strides the tile uses are compared:
/// LBO of a tile of one chunk or one MN run, and LBO of a swizzled K-major
/// tile, are not read.
template <typename Fail>
LogicalResult compareStrides(WgmmaDescriptorOp op, TmaCopyOp copy, ArrayRef<int64_t> box,
                             int64_t row, Fail fail) {
  if (box.size() < 2)
    return success();
  int64_t boxBytes = box[box.size() - 2] * row;
  int64_t elemBytes = *wgmmaInputBytes(op.getTileElementType());
  bool kMajor = op.getMajor() == Major::k;
  bool swizzled = op.getSwizzle() != Swizzle::none;
  // (8-row group stride, next-run stride) each layout keeps in which field.
  int64_t group = 8 * row;
  bool groupInSbo = kMajor || swizzled;
  int64_t groupField = groupInSbo ? int64_t(op.getSbo()) : int64_t(op.getLbo());
  if (groupField != group)
    return fail() << (groupInSbo ? "sbo " : "lbo ") << groupField
                  << " is not the " << group << "-byte stride between 8-"
                  << (kMajor ? "row" : "K-row") << " groups of the image a "
                  << "tile.tma_copy load writes in " << row << "-byte box rows";
  if (kMajor && swizzled)
    return success();
  int64_t extent = kMajor ? int64_t(op.getK()) * elemBytes
                          : int64_t(op.getRows()) * elemBytes;
  if (extent <= row)
    return success(); // one chunk of K or one run of MN: no next run read
  int64_t runField = groupInSbo ? int64_t(op.getLbo()) : int64_t(op.getSbo());
  if (runField != boxBytes)
    return fail() << (groupInSbo ? "lbo " : "sbo ") << runField << " is not the "
                  << boxBytes << "-byte stride between the boxes of "
                  << box[box.size() - 2] << " x " << row
                  << " bytes a tile.tma_copy load writes, where the tile's next "
                  << (kMajor ? "16 bytes of K" : "run of MN") << " lie";
  return success();
}

LogicalResult compare(WgmmaDescriptorOp op, TmaCopyOp copy) {
  auto fail = [&]() {
    InFlightDiagnostic diag = op.emitOpError();
    diag.attachNote(copy.getLoc()) << "the tile.tma_copy load that writes it";
    diag << "[" << ruleName(Rule::WgmmaCopyMismatch) << "] ";
    return diag;
  };
  int swizzle = static_cast<int>(op.getSwizzle());
  if (static_cast<int>(copy.getSwizzle()) != swizzle)
    return fail() << "swizzle " << stringifySwizzle(op.getSwizzle()) << " ("
                  << swizzleShortName(swizzle)
                  << ") reads a buffer that a tile.tma_copy load writes with "
                     "swizzle " << copy.getSwizzle() << " ("
                  << swizzleShortName(copy.getSwizzle()) << ")";
  Type elem = op.getTileElementType();
  std::optional<Format> format = copyFormat(copy);
  if (!format || !formatMatches(elem, *format))
    return fail() << "element type " << elem
                  << " reads a buffer that a tile.tma_copy load writes in "
                     "format "
                  << (format ? stringifyFormat(*format) : "(none)");
  ArrayRef<int64_t> box = copy.getBox();
  if (box.empty() || isPackedFormat(*format))
    return success(); // the copy's own verifier reports its box
  int64_t inner = box.back() * formatBits(*format) / 8;
  int64_t row = wgmmaRowBytes(op.getSwizzle());
  if (inner != row)
    return fail() << "a tile.tma_copy load writes the buffer in inner box "
                     "rows of " << inner
                  << " bytes; a descriptor of swizzle "
                  << stringifySwizzle(op.getSwizzle()) << " reads rows of "
                  << row << " bytes";
  return compareStrides(op, copy, box, row, fail);
}

/// The ops that consume a descriptor: its users that are not pure,
/// following pure ops (a hand-made K step: arith on the i64) through.
SmallVector<Operation *> consumers(WgmmaDescriptorOp op) {
  SmallVector<Operation *> out;
  SmallVector<Value> work{op.getResult()};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (!seen.insert(user).second)
        continue;
      if (isPure(user) && user->getNumRegions() == 0)
        llvm::append_range(work, user->getResults());
      else
        out.push_back(user);
    }
  }
  return out;
}

/// An op after which the copy engine's writes may be complete for this
/// thread: a blocking or polling mbarrier wait, or what may hide one (a
/// call, inline assembly).
bool mayWait(Operation *op) {
  return isa<NVVM::MBarrierTryWaitParityOp, NVVM::MBarrierTryWaitOp,
             NVVM::MBarrierTestWaitOp, LLVM::InlineAsmOp, CallOpInterface>(op);
}

/// Whether an op of `order` in (from, to) may wait.
bool waitBetween(ArrayRef<Operation *> order, size_t from, size_t to) {
  for (size_t i = from + 1; i < to; ++i)
    if (mayWait(order[i]))
      return true;
  return false;
}

/// [wgmma-unwaited-copy]: no wait lies on the path from `copy` to `mma`.
/// `order` is the function's ops in program (pre-)order, `index` each op's
/// place in it. Nothing is said where the MMA comes first outside a loop
/// holding both (another copy may fill the tile before it).
LogicalResult checkWaited(WgmmaDescriptorOp op, TmaCopyOp copy, Operation *mma,
                          ArrayRef<Operation *> order,
                          const DenseMap<Operation *, size_t> &index) {
  size_t c = index.lookup(copy), m = index.lookup(mma);
  if (c < m) {
    if (waitBetween(order, c, m))
      return success();
  } else {
    Operation *loop = copy->getParentOp();
    while (loop && !(isa<LoopLikeOpInterface>(loop) && loop->isAncestor(mma)))
      loop = loop->getParentOp();
    if (!loop || isa<FunctionOpInterface>(loop))
      return success();
    // The loop's ops run from index(loop)+1 to the last op nested in it.
    size_t first = index.lookup(loop), last = first;
    loop->walk([&](Operation *nested) { last = std::max(last, index.lookup(nested)); });
    if (waitBetween(order, c, last + 1) || waitBetween(order, first, m))
      return success();
  }
  InFlightDiagnostic diag = mma->emitOpError();
  diag.attachNote(copy.getLoc()) << "the tile.tma_copy load that writes the tile";
  diag.attachNote(op.getLoc()) << "the tile.wgmma_descriptor it reads the tile through";
  diag << "[" << ruleName(Rule::WgmmaUnwaitedCopy) << "] reads a tile that a "
       << "tile.tma_copy load fills with no mbarrier wait between the load and it"
       << (c < m ? "" : " (around the loop's back edge)")
       << ": the MMA may read the tile before the copy engine writes it";
  return diag;
}

/// Whether `value` is computed from this CTA's rank in its cluster.
bool fromClusterRank(Value value) {
  SmallVector<Value> work{value};
  DenseSet<Value> seen;
  while (!work.empty() && seen.size() < 4096) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    StringRef name = def->getName().getStringRef();
    if (name == "nvvm.read.ptx.sreg.cluster.ctarank" ||
        name.starts_with("nvvm.read.ptx.sreg.cluster.ctaid"))
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// [wgmma-multicast-offset]: a multicast load writes the same CTA-relative
/// address in every CTA; a descriptor of its allocation at a rank-dependent
/// address reads another place in each CTA.
LogicalResult checkMulticast(WgmmaDescriptorOp op, TmaCopyOp copy) {
  if (!copy.getMulticast() || !copy.getShared())
    return success();
  std::optional<SharedAllocation> root = getSharedAllocation(copy.getShared());
  if (copy.getShared() != op.getBuffer() &&
      (!root || root != getSharedAllocation(op.getBuffer())))
    return success();
  if (!fromClusterRank(op.getBuffer()))
    return success();
  InFlightDiagnostic diag = op.emitOpError();
  diag.attachNote(copy.getLoc()) << "the multicast tile.tma_copy load";
  diag << "[" << ruleName(Rule::WgmmaMulticastOffset) << "] the buffer's address is "
       << "computed from the CTA's rank in the cluster, but a multicast tile.tma_copy "
       << "load writes this allocation at the same address in every CTA of its mask";
  return diag;
}
} // namespace

LogicalResult mlir::tile::verifyWgmmaCopyLink(WgmmaDescriptorOp op) {
  Value buffer = op.getBuffer();
  if (!isa<MemRefType>(buffer.getType()))
    return success();
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return success();
  SmallVector<TmaCopyOp> copies;
  func->walk([&](TmaCopyOp copy) {
    if (copy.getDirection() == Direction::load)
      copies.push_back(copy);
  });
  SmallVector<Operation *> mmas = consumers(op);
  SmallVector<Operation *> order;
  DenseMap<Operation *, size_t> index;
  if (!mmas.empty() && !copies.empty())
    func->walk<WalkOrder::PreOrder>([&](Operation *nested) {
      index[nested] = order.size();
      order.push_back(nested);
    });
  for (TmaCopyOp copy : copies) {
    if (failed(checkMulticast(op, copy)))
      return failure();
    if (!fills(copy, buffer))
      continue;
    if (failed(compare(op, copy)))
      return failure();
    for (Operation *mma : mmas)
      if (failed(checkWaited(op, copy, mma, order, index)))
        return failure();
  }
  return success();
}
