// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of the runtime operands: mbarrier, cache policy, the shared
// buffer.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @mbar_required(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[mbar-required] a load completes on an mbarrier: add mbar(%bar)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @mbar_forbidden(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[mbar-forbidden] a store completes through bulk_group and takes no mbarrier}}
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @mbar_forbidden_reduce(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[mbar-forbidden] a reduce completes through bulk_group and takes no mbarrier}}
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cache_policy(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cache-policy] cache_hint needs a cache_policy operand}}
    tile.tma_copy load tile 2d cache_hint %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cache_policy_without_hint(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cache-policy] cache_policy is only valid with cache_hint}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// A prefetch warms L2 and names no shared buffer (the generic form can give
// it one; the custom syntax has no place for it).
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @shared_operand(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-operand] a prefetch fills L2 and names no shared buffer}}
    "tile.tma_copy"(%s, %A, %c0, %c0) <{box = array<i64: 8, 16>, direction = #tile<direction prefetch>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 0, 0, 0>, rank = 2 : i32}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32) -> ()
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_operand_load(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-operand] a load names its shared buffer before the global operand}}
    "tile.tma_copy"(%A, %c0, %c0, %bar) <{box = array<i64: 8, 16>, direction = #tile<direction load>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 0, 1, 2, 0, 0, 1, 0, 0>, rank = 2 : i32}> : (memref<64x64xf32>, i32, i32, !llvm.ptr<3>) -> ()
    gpu.return
  }
}
