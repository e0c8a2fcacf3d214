// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of prefetches.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  gpu.func @prefetch_form(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[prefetch-form] a prefetch fills L2 only: it takes no shared::cluster destination}}
    tile.tma_copy prefetch tile 2d cluster %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @prefetch_form_multicast(%A: memref<64x64xf32>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[prefetch-form] a prefetch fills L2 only: it takes no multicast}}
    tile.tma_copy prefetch tile 2d multicast %A[%c0, %c0] cta_mask(%mask) {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @prefetch_form_cta_group(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[prefetch-form] a prefetch fills L2 only: it takes no cta_group}}
    tile.tma_copy prefetch tile 2d cta_group(1) %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @prefetch_form_coord_steps(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[prefetch-form] a prefetch has no shared slots to repeat over: drop coord_steps and issue one prefetch per box}}
    tile.tma_copy prefetch tile 2d %A[%c0, %c0] {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @prefetch_mbar(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[mbar-forbidden] a prefetch signals no completion and takes no mbarrier}}
    tile.tma_copy prefetch tile 2d %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @prefetch_opcode_syntax(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.prefetch.tensor.2d.L2.global.tile.mbarrier::complete_tx::bytes': part 'mbarrier::complete_tx::bytes' (position 9): unknown or misplaced qualifier (a prefetch takes only a load mode and .L2::cache_hint)}}
    tile.tma_copy "cp.async.bulk.prefetch.tensor.2d.L2.global.tile.mbarrier::complete_tx::bytes" %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @prefetch_opcode_syntax_no_offs(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.prefetch.tensor.3d.L2.global.im2col_no_offs': part 'im2col_no_offs' (position 8): im2col_no_offs is a store/reduce mode}}
    tile.tma_copy "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col_no_offs" %A[%c0, %c0, %c0] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @prefetch_opcode_syntax_direction(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.prefetch.tensor.2d.shared::cta.global.tile': part 'shared::cta' (position 6): a prefetch goes from global to L2 ('.L2.global'), got '.shared::cta.global'}}
    tile.tma_copy "cp.async.bulk.prefetch.tensor.2d.shared::cta.global.tile" %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @prefetch_tensormap_tag(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[prefetch-tensormap-tag] no tile.tma_copy in the enclosing function has tag "loads"}}
    tile.prefetch_tensormap "loads"
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, tag = "stage0"} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// An opaque prefetch's elements are those of its format: 2 float32 are 8 bytes.
gpu.module @k {
  gpu.func @prefetch_opaque_format(%map: !llvm.ptr) kernel {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    // expected-error @+1 {{[inner-coord-alignment] innermost coordinate 2 is 8 bytes from the row start, expected a multiple of 16}}
    tile.tma_copy prefetch tile 2d %map[%c0, %c2] {box = array<i64: 8, 16>, format = #tile<format float32>} : !llvm.ptr
    gpu.return
  }
}
