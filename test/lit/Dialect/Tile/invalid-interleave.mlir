// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of interleave.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_range(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[interleave-range] interleave 3 is outside 0..2 (none, 16B, 32B)}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 3 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x8x8xui16, 3> {alignment = 1024}
  gpu.func @interleave_rank(%A: memref<4x8x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x8x8xui16, 3>
    // expected-error @+1 {{[interleave-rank] interleave needs rank 3..5, got 2}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 1, 8>, interleave = 1 : i32} : memref<1x8x8xui16, 3>, memref<4x8x8xui16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @interleave_mode(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[interleave-mode] gather4 does not use interleave, got interleave 1}}
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>, interleave = 1 : i32} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_32b_swizzle(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[interleave-32b-swizzle] interleave 2 (32B) needs swizzle 1 (32B), got swizzle 0}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_one_slice(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[interleave-one-slice] box[1] (C slices) = 2: one issue selects one C slice; iterate channels with a repeat axis and a C step}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 2, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_slice(%A: memref<2x4x8x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[interleave-slice] the innermost global axis Ci is 8, expected one 32-byte slice of 16 elements}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x8xui16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_contiguous(%A: memref<2x4x8x16xui16, strided<[1024, 256, 32, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[interleave-contiguous] the innermost spatial stride is 32, expected one slice (16)}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16, strided<[1024, 256, 32, 1]>>
    gpu.return
  }
}
