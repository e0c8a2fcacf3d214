//===- LowerTensorMapDerive.h - tile.tensormap_derive to NVVM ------*- C++ -*-===//
#ifndef TILE_CONVERSION_LOWERTENSORMAPDERIVE_H
#define TILE_CONVERSION_LOWERTENSORMAPDERIVE_H

#include "DebugChecks.h"

#include "Tile/IR/TileOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tile {

/// The words a debug build records for a derivation's fault (values 0..4):
/// which field, its axis (outer-to-inner), the value's low and high 32 bits,
/// and the multiple or bound the rule asks for.
enum class DeriveFaultField : int32_t {
  Destination = 0,
  Staging = 1,
  Address = 2,
  Dims = 3,
  Strides = 4,
};

/// Rewrites `op` into the copy of its template (at the generic pointer
/// `templateMap`) into the staging buffer or the destination, one
/// tensormap.replace per replaced field, the copy to the destination, the
/// tensormap-proxy release and acquire fences, and replaces its result with
/// the destination (a global pointer). A debug build (`checks`) checks the
/// runtime values first and writes nothing when one fails.
void lowerTensorMapDerive(RewriterBase &rewriter, TensorMapDeriveOp op,
                          Value templateMap, debug::ModuleChecks *checks);

} // namespace mlir::tile

#endif // TILE_CONVERSION_LOWERTENSORMAPDERIVE_H
