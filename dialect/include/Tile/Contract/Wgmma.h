//===- Wgmma.h - the wgmma consumer of a shared image --------------*- C++ -*-===//
//
// Facts of the sm_90a wgmma matrix descriptor that tile.wgmma_descriptor
// builds: the one mapping from a shared image's swizzle (tile.tma_copy's
// CUtensorMapSwizzle values) to the descriptor's 2-bit code, the row the
// descriptor reads, and the instruction's K.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_CONTRACT_WGMMA_H
#define TILE_CONTRACT_WGMMA_H

#include "Tile/IR/TileOps.h"

#include <optional>

namespace mlir::tile {

/// The descriptor's swizzle code of a shared image of `swizzle`: 0 none,
/// 1 128B, 2 64B, 3 32B; nullopt for the sm_100 swizzles of 128-byte rows
/// with 32- or 64-byte atoms, which the descriptor cannot name.
std::optional<int64_t> wgmmaSwizzleCode(Swizzle swizzle);

/// Bytes of the row a descriptor of `swizzle` reads contiguously: the
/// swizzle span, 16 (one core-matrix row) without swizzle.
int64_t wgmmaRowBytes(Swizzle swizzle);

/// Bytes of one instruction K: every wgmma reads 32 bytes of K.
constexpr int64_t kWgmmaKBytes = 32;
/// Rows of the A operand (every wgmma shape is m64).
constexpr int64_t kWgmmaM = 64;

/// Bytes of one element of a wgmma input type (f16, bf16, f32 read as tf32,
/// f8E4M3FN, f8E5M2, 8-bit integers); nullopt for any other type.
std::optional<int64_t> wgmmaInputBytes(Type type);

/// Whether `n` is a wgmma N for inputs of `type`: a multiple of 8 in
/// kWgmmaNRange; for 8-bit integers 8, 16, 24 or a multiple of 16.
bool isWgmmaN(int64_t n, Type type);

/// Where a tile.tma_copy load of the function fills the buffer of `op` (the
/// same SSA memref, or overlapping bytes of the same allocation), checks
/// that `op` reads the image the copy wrote ([wgmma-copy-mismatch]): the
/// same swizzle, an element type the copy's format describes, and the copy's
/// inner box row as long as the row the descriptor reads.
LogicalResult verifyWgmmaCopyLink(WgmmaDescriptorOp op);

} // namespace mlir::tile

#endif // TILE_CONTRACT_WGMMA_H
