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

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// The allocation a memref is a view of: a memref.global's symbol, or the
/// value no view op made (an alloca, the dynamic shared memory, ...).
const void *allocationKey(Value value) {
  for (int depth = 0; depth < 64; ++depth) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return value.getAsOpaquePointer();
    if (auto global = dyn_cast<memref::GetGlobalOp>(def))
      return global.getNameAttr().getAsOpaquePointer();
    Value source;
    if (auto op = dyn_cast<memref::SubViewOp>(def))
      source = op.getSource();
    else if (auto op = dyn_cast<memref::ViewOp>(def))
      source = op.getSource();
    else if (auto op = dyn_cast<memref::ReinterpretCastOp>(def))
      source = op.getSource();
    else if (auto op = dyn_cast<memref::CastOp>(def))
      source = op.getSource();
    else if (auto op = dyn_cast<memref::MemorySpaceCastOp>(def))
      source = op.getSource();
    else if (auto op = dyn_cast<memref::CollapseShapeOp>(def))
      source = op.getSrc();
    else if (auto op = dyn_cast<memref::ExpandShapeOp>(def))
      source = op.getSrc();
    else if (auto op = dyn_cast<memref::AssumeAlignmentOp>(def))
      source = op.getMemref();
    else
      return value.getAsOpaquePointer();
    value = source;
  }
  return value.getAsOpaquePointer();
}

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
  if (allocationKey(shared) != allocationKey(buffer))
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
  return success();
}
} // namespace

LogicalResult mlir::tile::verifyWgmmaCopyLink(WgmmaDescriptorOp op) {
  Value buffer = op.getBuffer();
  if (!isa<MemRefType>(buffer.getType()))
    return success();
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return success();
  LogicalResult result = success();
  func->walk([&](TmaCopyOp copy) {
    if (!fills(copy, buffer))
      return WalkResult::advance();
    result = compare(op, copy);
    return failed(result) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return result;
}
