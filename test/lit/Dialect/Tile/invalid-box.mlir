// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of the box, element strides and l2 promotion of a tiled map.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @box_arity(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[box-arity] box has 3 extents, expected rank 2}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16, 1>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x256xf32, 3> {alignment = 1024}
  gpu.func @box_extent(%A: memref<64x512xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x256xf32, 3>
    // expected-error @+1 {{[box-extent] box[1] = 300 is outside 1..256}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 300>} : memref<8x256xf32, 3>, memref<64x512xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x16xf32, 3> {alignment = 1024}
  gpu.func @box_extent_zero(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x16xf32, 3>
    // expected-error @+1 {{[box-extent] box[0] = 0 is outside 1..256}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 0, 16>} : memref<1x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @element_strides_arity(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[element-strides-arity] element_strides has 1 entries, expected rank 2}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 1>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x16xf32, 3> {alignment = 1024}
  gpu.func @element_strides_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x16xf32, 3>
    // expected-error @+1 {{[element-strides-range] element_strides[0] = 9 is outside 1..8}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 9, 1>} : memref<1x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<4x16xf32, 3> {alignment = 1024}
  gpu.func @element_strides_inner(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<4x16xf32, 3>
    // expected-error @+1 {{[element-strides-inner] element_strides[1] = 2: the innermost stride must be 1 without interleave}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 1, 2>} : memref<4x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @l2_promotion_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[l2-promotion-range] l2_promotion 4 is outside 0..3}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, l2_promotion = 4 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x2xf32, 3> {alignment = 1024}
  gpu.func @box_inner_bytes(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x2xf32, 3>
    // expected-error @+1 {{[box-inner-bytes] the inner box row is 8 bytes (2 float32 elements), expected a multiple of 16 bytes}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 2>} : memref<8x2xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
