// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of gather4 and scatter4.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_rows(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[gather4-rows] expected 4 row operands in gather4 mode, got 0}}
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_rows_three(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[gather4-rows] expected 4 row operands in scatter4 mode, got 3}}
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @gather4_rows_tile(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[gather4-rows] expected 0 row operands in tile mode, got 4}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_rank(%A: memref<4x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[gather4-rank] gather4 needs a 2-D descriptor, got rank 3}}
    tile.tma_copy load gather4 3d %s, %A[%c0, %c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 1, 32>} : memref<4x32xf32, 3>, memref<4x64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_box(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[gather4-box] gather4 box must be (1, width) with unit element strides, got box (2, 32) and element_strides (1, 1)}}
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 2, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_box_strides(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[gather4-box] scatter4 box must be (1, width) with unit element strides, got box (1, 32) and element_strides (2, 1)}}
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>, element_strides = array<i64: 2, 1>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
