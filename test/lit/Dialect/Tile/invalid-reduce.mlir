// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of reductions.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xsi32, 3> {alignment = 1024}
  gpu.func @reduction_dtype(%A: memref<64x64xsi32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xsi32, 3>
    // expected-error @+1 {{[reduction-dtype] reduction inc is not defined on int32 (valid: uint32)}}
    tile.tma_copy reduce inc tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf64, 3> {alignment = 1024}
  gpu.func @reduction_dtype_add_f64(%A: memref<64x64xf64>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf64, 3>
    // expected-error @+1 {{[reduction-dtype] reduction add is not defined on float64 (valid: uint32, int32, uint64, float32, float16, bfloat16)}}
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf64, 3>, memref<64x64xf64>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @reduction_dtype_max_f32(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[reduction-dtype] reduction max is not defined on float32 (valid: uint32, int32, uint64, int64, float16, bfloat16)}}
    tile.tma_copy reduce max tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @reduction_dtype_xor_f16(%A: memref<64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    // expected-error @+1 {{[reduction-dtype] reduction xor is not defined on float16 (valid: uint32, int32, uint64)}}
    tile.tma_copy reduce xor tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xi32, 3> {alignment = 1024}
  gpu.func @reduction_signedness(%A: memref<64x64xi32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xi32, 3>
    // expected-error @+1 {{[reduction-signedness] reduction min on signless 'i32' is ambiguous: use a signed/unsigned element type or an explicit format}}
    tile.tma_copy reduce min tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xi32, 3>, memref<64x64xi32>
    gpu.return
  }
}

// -----

// Measured on the H200: a bitwise reduction on an INT64 tensor map traps.
gpu.module @k {
  memref.global "private" @smem : memref<8x8xsi64, 3> {alignment = 128}
  gpu.func @reduction_dtype_and_si64(%A: memref<64x64xsi64>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x8xsi64, 3>
    // expected-error @+1 {{[reduction-dtype] reduction and is not defined on int64 (valid: uint32, int32, uint64)}}
    tile.tma_copy reduce and tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
    gpu.return
  }
}
