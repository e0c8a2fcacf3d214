//===- LowerWgmmaDescriptor.h - tile.wgmma_descriptor to arith ----*- C++ -*-===//
#ifndef TILE_CONVERSION_LOWERWGMMADESCRIPTOR_H
#define TILE_CONVERSION_LOWERWGMMADESCRIPTOR_H

#include "Tile/IR/TileOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tile {
namespace debug {
class ModuleChecks;
} // namespace debug

/// Replaces `op` by the arithmetic of its 64-bit value: ((the buffer's
/// address + k_step x the step's bytes) & 0x3FFFF) >> 4, ORed with the
/// constant bits of lbo, sbo, base_offset and the swizzle code. A debug
/// build whose module checks reads (`checks`) first checks that the loads
/// of the tile's bytes completed (docs/debug-mode.md).
void lowerWgmmaDescriptor(RewriterBase &rewriter, WgmmaDescriptorOp op,
                          debug::ModuleChecks *checks);

} // namespace mlir::tile

#endif // TILE_CONVERSION_LOWERWGMMADESCRIPTOR_H
