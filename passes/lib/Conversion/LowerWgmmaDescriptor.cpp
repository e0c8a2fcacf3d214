//===- LowerWgmmaDescriptor.cpp - tile.wgmma_descriptor to arith ----------===//
//
// The descriptor's constant fields are one i64 constant; only the start
// address (the buffer's address plus the K step's bytes) is computed.
//
//===----------------------------------------------------------------------===//

#include "LowerWgmmaDescriptor.h"

#include "DebugChecks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
Value constI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
}

/// The shared address of the buffer's first element, as i64.
Value bufferAddress(OpBuilder &b, Location loc, Value buffer) {
  Type i64 = b.getI64Type();
  if (isa<LLVM::LLVMPointerType>(buffer.getType())) {
    // A pointer made from an integer: that integer (so constants fold).
    if (auto cast = buffer.getDefiningOp<LLVM::IntToPtrOp>())
      if (cast.getArg().getType() == i64)
        return cast.getArg();
    return LLVM::PtrToIntOp::create(b, loc, i64, buffer);
  }
  auto type = cast<MemRefType>(buffer.getType());
  Value base = arith::IndexCastOp::create(
      b, loc, i64,
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer));
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  if (type.getLayout().isIdentity() ||
      failed(type.getStridesAndOffset(strides, offset)) || offset == 0)
    return base;
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  Value bytes;
  if (ShapedType::isDynamic(offset)) {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
    bytes = arith::MulIOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, i64, metadata.getOffset()),
        constI64(b, loc, elemBytes));
  } else {
    bytes = constI64(b, loc, offset * elemBytes);
  }
  return arith::AddIOp::create(b, loc, base, bytes);
}

/// The K step as i64 (an index, or an unsigned integer of any width).
Value stepValue(OpBuilder &b, Location loc, Value step) {
  Type i64 = b.getI64Type();
  if (step.getType().isIndex())
    return arith::IndexCastUIOp::create(b, loc, i64, step);
  unsigned width = step.getType().getIntOrFloatBitWidth();
  if (width < 64)
    return arith::ExtUIOp::create(b, loc, i64, step);
  if (width > 64)
    return arith::TruncIOp::create(b, loc, i64, step);
  return step;
}
} // namespace

void mlir::tile::lowerWgmmaDescriptor(RewriterBase &rewriter,
                                      WgmmaDescriptorOp op,
                                      debug::ModuleChecks *checks) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value addr = bufferAddress(rewriter, loc, op.getBuffer());
  if (checks && checks->checksReads)
    checks->checkTileReads(rewriter, loc, op, addr, op.getTileReadBytes());
  Value offset = arith::MulIOp::create(
      rewriter, loc, stepValue(rewriter, loc, op.getKStep()),
      constI64(rewriter, loc, op.getStepBytes()));
  addr = arith::AddIOp::create(rewriter, loc, addr, offset);
  // Bits 0-13: the 18-bit shared address >> 4.
  Value start = arith::ShRUIOp::create(
      rewriter, loc,
      arith::AndIOp::create(rewriter, loc, addr, constI64(rewriter, loc, 0x3FFFF)),
      constI64(rewriter, loc, 4));
  Value fields =
      constI64(rewriter, loc, static_cast<int64_t>(op.getFieldBits()));
  rewriter.replaceOp(op, arith::OrIOp::create(rewriter, loc, start, fields));
}
