// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of coordinates and repeat steps: their count, range and
// alignment.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @coords_count(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[coords-count] expected 2 coords, got 1}}
    tile.tma_copy load tile 2d %s, %A[%c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_steps_arity(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    // expected-error @+1 {{[coord-steps-arity] coord_steps[0] must be an array<i64> of 2 entries, got array<i64: 8>}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_steps_count(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    // expected-error @+1 {{[coord-steps-count] the shared shape (2, 8, 16) has 1 repeat axes before the box image (8, 16) but coord_steps has 0 vectors}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_steps_count_extra(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[coord-steps-count] the shared shape (8, 16) has 0 repeat axes before the box image (8, 16) but coord_steps has 1 vectors}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @inner_coord_alignment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c5 = arith.constant 5 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[inner-coord-alignment] innermost coordinate 5 is 20 bytes from the row start, expected a multiple of 16}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c5] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @inner_coord_alignment_step(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %x: i32) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    // expected-error @+1 {{[inner-coord-alignment] coord_steps[0][1] moves the innermost coordinate by 8 bytes, expected a multiple of 16}}
    tile.tma_copy load tile 2d %s, %A[%c0, %x] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 0, 2>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Measured on the H200: a store or reduction starting at a negative
// coordinate traps (loads may start outside the tensor).
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @store_coords_nonnegative(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %cm2 = arith.constant -2 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[store-coords-nonnegative] coordinate 0 reaches -2 in some slot: a store must start at a non-negative coordinate}}
    tile.tma_copy store tile 2d %s, %A[%cm2, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<3x8x16xf32, 3> {alignment = 1024}
  gpu.func @store_coords_nonnegative_step(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %s = memref.get_global @smem : memref<3x8x16xf32, 3>
    // expected-error @+1 {{[store-coords-nonnegative] coordinate 0 reaches -4 in some slot: a reduce must start at a non-negative coordinate}}
    tile.tma_copy reduce add tile 2d %s, %A[%c4, %c0] {box = array<i64: 8, 16>, coord_steps = [array<i64: -4, 0>]} : memref<3x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_range_step(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    // expected-error @+1 {{[coord-range] coord_steps[0][0] = 4294967296 does not fit a 32-bit coordinate}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 4294967296, 0>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<3x8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_range_span(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %cbig = arith.constant 2147483000 : i32
    %s = memref.get_global @smem : memref<3x8x16xf32, 3>
    // expected-error @+1 {{[coord-range] coordinate 0 spans 2147483000..2147484000 over the slots, outside the 32-bit range}}
    tile.tma_copy load tile 2d %s, %A[%cbig, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 500, 0>]} : memref<3x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
