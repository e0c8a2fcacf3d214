// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of swizzle: its range, its span, row padding, load-only forms.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    // expected-error @+1 {{[swizzle-range] swizzle 7 is outside 0..6 (none, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 7 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @swizzle_inner_bytes(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[swizzle-inner-bytes] the inner box row is 64 bytes, more than the 32-byte span of swizzle 1}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x4xf32, 3> {alignment = 1024}
  gpu.func @swizzle_row_padding(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x4xf32, 3>
    // expected-error @+1 {{[swizzle-row-padding] swizzle 3 stores each 16-byte row in a whole 128-byte span: the shared suffix must be (8, 32), got (8, 4)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>, swizzle = 3 : i32} : memref<8x4xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_load_only(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    // expected-error @+1 {{[swizzle-load-only] swizzle 5 (128B_ATOM_32B_FLIP_8B) is for loads only, got direction store}}
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 32>, swizzle = 5 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_load_only_reduce(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    // expected-error @+1 {{[swizzle-load-only] swizzle 5 (128B_ATOM_32B_FLIP_8B) is for loads only, got direction reduce}}
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 32>, swizzle = 5 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x64xf32, 3> {alignment = 1024}
  gpu.func @swizzle_inner_bytes_atom(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x64xf32, 3>
    // expected-error @+1 {{[swizzle-inner-bytes] the inner box row is 256 bytes, more than the 128-byte span of swizzle 6}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 64>, swizzle = 6 : i32} : memref<8x64xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
