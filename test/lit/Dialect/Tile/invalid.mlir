// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Every statically checked rule of Rules.def (TILE_RULE) fails here at least
// once; each case is named after its rule. valid.mlir holds, for each case, the
// nearest input that passes. Parse errors of the opcode are [opcode-syntax].
// [barrier-tx-mismatch] is decided by tile-check-barriers (also run first by
// tile-lower-tma) on inputs that verify; barrier-accounting.mlir has the rest.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_unknown_part(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.foo': part 'foo' (position 9): unknown or misplaced qualifier}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.foo" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_completion(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.global.shared::cta.tile.mbarrier::complete_tx::bytes': part 'mbarrier::complete_tx::bytes' (position 8): expected 'bulk_group' (the completion mechanism of a store)}}
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_ends_early(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.shared::cta.global.tile': the opcode ends early: expected 'mbarrier::complete_tx::bytes' (the completion mechanism of a load)}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_gather4_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.global.shared::cta.tile::gather4.bulk_group': part 'tile::gather4' (position 7): .tile::gather4 is a load/prefetch mode}}
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile::gather4.bulk_group" %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_multicast_cta(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.multicast::cluster': part 'multicast::cluster' (position 9): multicast needs the .shared::cluster destination}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_im2col(%A: memref<4x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x8x16xf32, 3>
    // expected-error @+1 {{[im2col-offsets] expected 1 offsets in im2col mode (one per spatial axis), got 0}}
    tile.tma_copy "cp.async.bulk.tensor.3d.shared::cta.global.im2col.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 8, 16>} : memref<1x8x16xf32, 3>, memref<4x64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x1x8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_rank(%A: memref<2x2x2x8x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x1x8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.6d.shared::cta.global.tile.mbarrier::complete_tx::bytes': part '6d' (position 4): expected the rank '1d'..'5d'}}
    tile.tma_copy "cp.async.bulk.tensor.6d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 1, 8, 16>} : memref<1x1x1x8x16xf32, 3>, memref<2x2x2x8x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_reduction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.reduce.async.bulk.tensor.2d.global.shared::cta.mul.bulk_group': part 'mul' (position 8): unknown reduction operator (add, min, max, inc, dec, and, or, xor)}}
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.mul.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_reduce_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.reduce.async.bulk.tensor.2d.shared::cta.global.add.bulk_group': part 'shared::cta' (position 6): a reduction goes from shared::cta to global ('.global.shared::cta'), got '.shared::cta.global'}}
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.shared::cta.global.add.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.global.global.tile.bulk_group': part 'global' (position 5): '.global.global' is no direction (load: .shared::cta.global or .shared::cluster.global; store: .global.shared::cta)}}
    tile.tma_copy "cp.async.bulk.tensor.2d.global.global.tile.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_cta_group_value(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::3': part 'cta_group::3' (position 9): expected cta_group::1 or ::2}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::3" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_cta_group_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.cta_group::1': part 'cta_group::1' (position 9): cta_group is a load qualifier}}
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.cta_group::1" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_misplaced(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint.multicast::cluster': part 'multicast::cluster' (position 10): unknown or misplaced qualifier}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint.multicast::cluster" %s, %A[%c0, %c0] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_keyword_reduction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] unknown reduction operator 'mul'}}
    tile.tma_copy reduce mul tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_keyword_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected load, store, reduce, prefetch or a PTX opcode string, got 'copy'}}
    tile.tma_copy copy tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_keyword_mode(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected a mode (tile, gather4, scatter4, im2col, im2col_w, im2col_w_128, im2col_no_offs), got 'im2cols'}}
    tile.tma_copy load im2cols 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x1x8x16xf32, 3> {alignment = 1024}
  gpu.func @rank_range(%A: memref<2x2x2x8x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x1x8x16xf32, 3>
    // expected-error @+1 {{[rank-range] rank 6 is outside 1..5}}
    tile.tma_copy load tile 6d %s, %A[%c0, %c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 1, 8, 16>} : memref<1x1x1x8x16xf32, 3>, memref<2x2x2x8x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<16xf32, 3> {alignment = 1024}
  gpu.func @rank_range_zero(%A: memref<256xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<16xf32, 3>
    // expected-error @+1 {{[rank-range] rank 0 is outside 1..5}}
    tile.tma_copy load tile 0d %s, %A[%c0] mbar(%bar) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @reduction_operator(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[reduction-operator] a reduce needs a reduction operator}}
    "tile.tma_copy"(%s, %A, %c0, %c0) <{box = array<i64: 8, 16>, direction = #tile<direction reduce>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 0, 0, 0>, rank = 2 : i32}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32) -> ()
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @reduction_operator_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[reduction-operator] a reduction operator is only valid on reduce}}
    "tile.tma_copy"(%s, %A, %c0, %c0) <{box = array<i64: 8, 16>, direction = #tile<direction store>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 0, 0, 0>, rank = 2 : i32, reduction = #tile<reduction add>}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32) -> ()
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @mode_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[mode-direction] gather4 is a load/prefetch mode, got direction store}}
    tile.tma_copy store gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_reduce(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[mode-direction] scatter4 is a store mode, got direction reduce}}
    tile.tma_copy reduce add scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_load(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[mode-direction] scatter4 is a store mode, got direction load}}
    tile.tma_copy load scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @dst_space(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[dst-space] only loads have a shared::cluster destination}}
    tile.tma_copy store tile 2d cluster %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_load(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[multicast-load] multicast is a load into shared::cluster (add `cluster`)}}
    tile.tma_copy load tile 2d multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_load_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[multicast-load] multicast is a load into shared::cluster (add `cluster`)}}
    tile.tma_copy store tile 2d multicast %s, %A[%c0, %c0] cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-group] cta_group 3 is invalid: expected 1 or 2}}
    tile.tma_copy load tile 2d cta_group(3) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_group_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-group] cta_group is a load qualifier, got direction store}}
    tile.tma_copy store tile 2d cta_group(1) %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

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
  gpu.func @cta_mask(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask] multicast needs a cta_mask operand}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask_without_multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask] cta_mask is only valid with multicast}}
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[multicast-cluster] multicast needs a kernel launched in a cluster, but the enclosing function declares none (tile.cluster_size, known_cluster_size or nvvm.cluster_dim)}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_cluster_malformed(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 0, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] tile.cluster_size has an extent 0 below 1}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_cluster_too_big(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {known_cluster_size = array<i32: 4, 8, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] known_cluster_size declares 32 CTAs per cluster; a cluster has at most 16 (the 16-bit cta_mask)}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// A malformed cluster fails the launch whether or not the copy multicasts.
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cluster_shape_negative(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {known_cluster_size = array<i32: -1, 0, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] known_cluster_size has an extent -1 below 1}}
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cluster_shape_store_malformed(%A: memref<64x64xf32>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] tile.cluster_size must be array<i32: x[, y[, z]]>, got array<i32: 2, 1, 1, 1>}}
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cluster_shape_disagree(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>, nvvm.cluster_dim = array<i32: 4>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] known_cluster_size and nvvm.cluster_dim declare different clusters (2x1x1 and 4x1x1)}}
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %mask = arith.constant 5 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask-cluster] cta_mask 0x5 selects CTA rank 2, but the cluster has 2 CTAs (tile.cluster_size; ranks 0..1)}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask_cluster_none(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %mask = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask-cluster] cta_mask 0x0 selects no CTA of the cluster}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
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
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @oob_fill_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[oob-fill-range] oob_fill 2 is outside 0..1 (zero, NaN)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, oob_fill = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 1024}
  gpu.func @oob_fill_float(%A: memref<64x64xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    // expected-error @+1 {{[oob-fill-float] oob_fill 1 (NaN) needs a floating-point format, got uint32}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, oob_fill = 1 : i32} : memref<8x16xui32, 3>, memref<64x64xui32>
    gpu.return
  }
}

// -----

// The packed formats are float, but the driver fills no NaN for them.
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @oob_fill_nan_fp4(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[oob-fill-float] oob_fill 1 (NaN) is not available for float4_e2m1fn: the driver rejects a NaN fill of CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, oob_fill = 1 : i32} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x64xi8, 3> {alignment = 1024}
  gpu.func @oob_fill_nan_fp4_align8b(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x64xi8, 3>
    // expected-error @+1 {{[oob-fill-float] oob_fill 1 (NaN) is not available for float4_e2m1fn_align8b: the driver rejects a NaN fill of CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, format = #tile<format float4_e2m1fn_align8b>, oob_fill = 1 : i32} : memref<8x64xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @oob_fill_nan_fp6(%A: memref<8x128xf6E2M3FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[oob-fill-float] oob_fill 1 (NaN) is not available for float6_align16b: the driver rejects a NaN fill of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, oob_fill = 1 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xi4, 3> {alignment = 1024}
  gpu.func @dtype_supported(%A: memref<64x64xi4>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xi4, 3>
    // expected-error @+1 {{[dtype-supported] element type 'i4' has no tensor-map format}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xi4, 3>, memref<64x64xi4>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @format_match(%A: memref<64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    // expected-error @+1 {{[format-match] format tfloat32 does not describe element type 'f16' (expected float16 or a matching format; formats never reinterpret)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format tfloat32>} : memref<8x16xf16, 3>, memref<64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 1024}
  gpu.func @format_match_sign(%A: memref<64x64xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    // expected-error @+1 {{[format-match] format int32 does not describe element type 'ui32' (expected uint32 or a matching format; formats never reinterpret)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format int32>} : memref<8x16xui32, 3>, memref<64x64xui32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_load_only(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[fp4-load-only] packed float4_e2m1fn (16U4_ALIGN16B) is load-only, got store (float4_e2m1fn_align8b stores the same data)}}
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_inner_box(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-inner-box] packed float4_e2m1fn needs inner box 128, got 64}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 64>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_swizzle(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-swizzle] packed float4_e2m1fn uses swizzle 0, 3 or 4, got 2}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, swizzle = 2 : i32} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_inner_dim(%A: memref<8x192xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-inner-dim] the inner global dim is 192, expected a multiple of 128 for packed float4_e2m1fn}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x192xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_alignment(%A: memref<8x256xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-alignment] inner coordinate 32 is not a multiple of 128 elements (packed float4_e2m1fn)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c32] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<2x8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_alignment_step(%A: memref<8x512xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x128xi8, 3>
    // expected-error @+1 {{[packed-alignment] coord_steps[0][1] moves the inner coordinate by 64 elements, expected a multiple of 128 (packed float4_e2m1fn)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, coord_steps = [array<i64: 0, 64>]} : memref<2x8x128xi8, 3>, memref<8x512xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_alignment_stride(%A: memref<8x128xf4E2M1FN, strided<[160, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-alignment] global stride[0] is 80 bytes, expected a multiple of 32}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN, strided<[160, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_layout(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-layout] packed float4_e2m1fn takes no interleave and unit element strides, got interleave 0 and element_strides (2, 1)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, element_strides = array<i64: 2, 1>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
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

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32> {alignment = 1024}
  gpu.func @shared_address_space(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32>
    // expected-error @+1 {{[shared-address-space] the shared operand 'memref<8x16xf32>' is not in workgroup memory (address space 3)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_layout(%s: memref<8x16xf32, strided<[32, 1]>, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-layout] the shared operand 'memref<8x16xf32, strided<[32, 1]>, 3>' must have a static shape and the identity layout (or row-major contiguous strides at an offset)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, strided<[32, 1]>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_layout_dynamic(%s: memref<?x16xf32, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-layout] the shared operand 'memref<?x16xf32, 3>' must have a static shape and the identity layout (or row-major contiguous strides at an offset)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<?x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @shared_dtype(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    // expected-error @+1 {{[shared-dtype] shared element type 'f16', expected 'f32'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xf4E2M1FN, 3> {alignment = 1024}
  gpu.func @shared_dtype_fp4(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xf4E2M1FN, 3>
    // expected-error @+1 {{[shared-dtype] shared element type 'f4E2M1FN', expected 'i8'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xf4E2M1FN, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x8xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x8xf32, 3>
    // expected-error @+1 {{[shared-suffix] the shared suffix (8, 8) is not the box image (8, 16)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x8xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix_strides(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    // expected-error @+1 {{[shared-suffix] the shared suffix (8, 16) is not the box image (4, 16)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], element_strides = array<i64: 2, 1>} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<16xf32, 3> {alignment = 1024}
  gpu.func @shared_repeat_prefix(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<16xf32, 3>
    // expected-error @+1 {{[shared-repeat-prefix] shared shape (16) has rank 1, less than the box image (8, 16)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x1x4xf32, 3> {alignment = 1024}
  gpu.func @shared_atom_alignment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x1x4xf32, 3>
    // expected-error @+1 {{[shared-atom-alignment] each slot's image is 16 bytes, so slot origins are not 128-byte aligned}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 1, 4>, coord_steps = [array<i64: 1, 0>]} : memref<2x1x4xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 64}
  gpu.func @shared_base_alignment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is 64 bytes, expected a multiple of 128}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3>
  gpu.func @shared_base_alignment_unspecified(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is unspecified, expected a multiple of 128}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 512}
  gpu.func @shared_base_alignment_swizzle(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is 512 bytes, expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// What the Python builder's dynamic_shared makes: a view of the dynamic shared
// memory (1024-byte aligned) at a byte offset.
gpu.module @k {
  gpu.func @shared_base_alignment_view_128(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 128 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 128 bytes into gpu.dynamic_shared_memory (1024-byte aligned), so it is only 128-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_view_512(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 512 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 512 bytes into gpu.dynamic_shared_memory (1024-byte aligned), so it is only 512-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_view_16(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 16 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x16xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 16 bytes into gpu.dynamic_shared_memory (1024-byte aligned), so it is only 16-byte aligned; expected a multiple of 128}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// One stage of a ring: a subview whose offset (stage 1 of 1 KB stages, at
// byte 1024) keeps the period; a reinterpret_cast at element 32 (128 bytes)
// does not.
gpu.module @k {
  memref.global "private" @ring : memref<4x8x32xf32, 3> {alignment = 1024}
  gpu.func @shared_base_alignment_reinterpret_cast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x8x32xf32, 3>
    %stage = memref.subview %g[1, 0, 0][1, 8, 32][1, 1, 1] : memref<4x8x32xf32, 3> to memref<8x32xf32, strided<[32, 1], offset: 256>, 3>
    %s = memref.reinterpret_cast %stage to offset: [32], sizes: [8, 32], strides: [32, 1] : memref<8x32xf32, strided<[32, 1], offset: 256>, 3> to memref<8x32xf32, strided<[32, 1], offset: 32>, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 128 bytes into memref.global @ring (1024-byte aligned), so it is only 128-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, strided<[32, 1], offset: 32>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @ring : memref<4x4x32xf32, 3> {alignment = 1024}
  gpu.func @shared_base_alignment_subview(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x4x32xf32, 3>
    %s = memref.subview %g[1, 0, 0][1, 4, 32][1, 1, 1] : memref<4x4x32xf32, 3> to memref<4x32xf32, strided<[32, 1], offset: 128>, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 512 bytes into memref.global @ring (1024-byte aligned), so it is only 512-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 4, 32>, swizzle = 3 : i32} : memref<4x32xf32, strided<[32, 1], offset: 128>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_declared(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %off: index) kernel {
    %c0 = arith.constant 0 : i32
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    %s = memref.assume_alignment %v, 128 : memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] memref.assume_alignment declares the shared buffer 128-byte aligned, expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_attribution(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) workgroup(%w : memref<8x16xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is unspecified, expected a multiple of 128}}
    tile.tma_copy load tile 2d %w, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Where the IR does not fix the alignment, it must be declared.
gpu.module @k {
  gpu.func @shared_alignment_unproven(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %off: index) kernel {
    %c0 = arith.constant 0 : i32
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: memref.view at a runtime byte offset; declare it with memref.assume_alignment (a multiple of 1024, the whole swizzle period) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_alignment_unproven_argument(%s: memref<8x16xf32, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: it is argument #0 of the function; declare it with memref.assume_alignment (a multiple of 128) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @ring : memref<4x8x32xf32, 3> {alignment = 1024}
  gpu.func @shared_alignment_unproven_subview(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %i: index) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x8x32xf32, 3>
    %s = memref.subview %g[%i, 0, 0][1, 8, 32][1, 1, 1] : memref<4x8x32xf32, 3> to memref<8x32xf32, strided<[32, 1], offset: ?>, 3>
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: its offset is a runtime value; declare it with memref.assume_alignment (a multiple of 1024, the whole swizzle period) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, strided<[32, 1], offset: ?>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_alignment_unproven_op(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %p: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = builtin.unrealized_conversion_cast %p : !llvm.ptr<3> to memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: it is made by 'builtin.unrealized_conversion_cast', whose alignment the verifier does not know; declare it with memref.assume_alignment (a multiple of 128) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_address_space(%A: memref<64x64xf32, 3>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-address-space] the global operand 'memref<64x64xf32, 3>' is not in global memory}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_rank(%A: memref<2x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-rank] the global operand has rank 3, expected 2}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<2x64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @global_rank_interleave(%A: memref<2x4x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[global-rank] the global operand has rank 3, expected 4 (N, C_slices, *spatial, Ci)}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8xui16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @global_dtype(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    // expected-error @+1 {{[global-dtype] global element type 'f32' does not match the shared element type 'f16'}}
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_inner_stride(%A: memref<64x64xf32, strided<[1, 64]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-inner-stride] the innermost global stride is 64, expected 1}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, strided<[1, 64]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x4xf32, 3> {alignment = 1024}
  gpu.func @global_stride_alignment(%A: memref<64x6xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x4xf32, 3>
    // expected-error @+1 {{[global-stride-alignment] global stride[0] is 24 bytes, expected a multiple of 16}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>} : memref<8x4xf32, 3>, memref<64x6xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @global_stride_alignment_32b(%A: memref<2x4x8x16xui16, strided<[520, 128, 16, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[global-stride-alignment] global stride[0] is 1040 bytes, expected a multiple of 32}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16, strided<[520, 128, 16, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range(%A: memref<2x64xf32, strided<[274877906944, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    // expected-error @+1 {{[global-stride-range] global stride[0] is 1099511627776 bytes, expected less than 2^40}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[274877906944, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range_negative(%A: memref<2x64xf32, strided<[-64, 1], offset: 64>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    // expected-error @+1 {{[global-stride-range] global stride[0] is -256 bytes, expected a non-negative stride less than 2^40}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[-64, 1], offset: 64>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range_wrap(%A: memref<2x64xf32, strided<[4611686018427387904, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    // expected-error @+1 {{[global-stride-range] global stride[0] is 4611686018427387904 elements, expected less than 2^40 bytes}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[4611686018427387904, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_dim_range(%A: memref<4294967297x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-dim-range] global dim[0] = 4294967297 is outside 1..2^32}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<4294967297x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_dim_range_zero(%A: memref<0x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-dim-range] global dim[0] = 0 is outside 1..2^32}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<0x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @box_within_dim(%A: memref<4x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[box-within-dim] box[0] = 8 is larger than global dim[0] = 4}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<4x64xf32>
    gpu.return
  }
}

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

gpu.module @k [#nvvm.target<chip = "sm_80", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_sm90(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[target-sm90] target sm_80 has no bulk tensor copies (sm_90+)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @target_sm100(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[target-sm100] mode gather4 needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_sm100_cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[target-sm100] cta_group needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    tile.tma_copy load tile 2d cta_group(1) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @target_sm100_fp4(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[target-sm100] format float4_e2m1fn needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">, #nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @target_sm100_second_target(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[target-sm100] mode scatter4 needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[target-multicast] multicast needs an arch-specific target, got sm_90 (use sm_90a)}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_ptx86(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[target-ptx86] a shared::cta load destination needs PTX ISA 8.6, target sm_90a uses PTX 8.0 (add +ptx86 to the target features, or use `cluster`)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx85">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_ptx86_explicit(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[target-ptx86] a shared::cta load destination needs PTX ISA 8.6, target sm_90 uses PTX 8.5}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @target_b200_interleave_swizzle(%A: memref<2x4x8x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[target-b200-interleave-swizzle] on sm_100a interleave 1 (16B) with swizzle 1 can trap}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 1 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x8xui16>
    gpu.return
  }
}

// -----

// Consumer Blackwell (sm_120a) has no gather4.
gpu.module @k [#nvvm.target<chip = "sm_120a", features = "+ptx87">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @target_sm100_sm120(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    // expected-error @+1 {{[target-sm100] mode gather4 needs sm_100a (or sm_101a/103a/110a), target is sm_120a}}
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @rank_range_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[rank-range] rank 4294967298 is outside 1..5}}
    tile.tma_copy load tile 4294967298d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_group_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-group] cta_group 4294967297 is invalid: expected 1 or 2}}
    tile.tma_copy load tile 2d cluster cta_group(4294967297) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
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

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_source(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    %B = memref.cast %A : memref<64x64xf32> to memref<64x64xf32>
    // expected-error @+1 {{[global-source] the global memref must be an argument of the enclosing gpu.func kernel}}
    tile.tma_copy load tile 2d %s, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_source_device_func(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-source] the global memref must be an argument of the enclosing gpu.func kernel}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @descriptor_space(%map: !llvm.ptr<3>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[descriptor-space] the tensor map pointer is in address space 3, expected generic (0), global (1) or constant (4) memory}}
    tile.tma_copy load tile 2d %s, %map[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr<3>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @descriptor_space_const_param(%map: !llvm.ptr<4>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[descriptor-space] the tensor map pointer is in address space 4 and a kernel parameter (ptxas cannot cvta.const it)}}
    tile.tma_copy load tile 2d %s, %map[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr<4>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @tx_bytes_tag(%A: memref<64x64xf32>) kernel {
    // expected-error @+1 {{[tx-bytes-tag] no tile.tma_copy in the enclosing function has tag "stage0"}}
    %n = tile.tx_bytes "stage0" : i32
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<16x256x64xf32, 3> {alignment = 1024}
  gpu.func @tx_bytes_tag_too_many(%A: memref<4096x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<16x256x64xf32, 3>
    // expected-error @+1 {{[tx-bytes-tag] tag "big" sums to 1048576 bytes, more than an mbarrier phase counts (2^20 - 1)}}
    %n = tile.tx_bytes "big" : i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 256, 64>, coord_steps = [array<i64: 256, 0>], tag = "big"} : memref<16x256x64xf32, 3>, memref<4096x64xf32>
    gpu.return
  }
}

// -----

// Verifies, then fails in tile-check-barriers: the phase expects half of
// what its copy delivers.
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @barrier_tx_mismatch(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @smem : memref<64x32xf32, 3>
    // expected-error @+1 {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (1 copy)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
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
  memref.global "private" @smem : memref<30x64x64xf32, 3> {alignment = 1024}
  gpu.func @shared_size(%A: memref<4096x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<30x64x64xf32, 3>
    // expected-error @+1 {{[shared-size] the shared buffer 'memref<30x64x64xf32, 3>' needs more than 232448 bytes, the most one block can have}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 64>, coord_steps = [array<i64: 64, 0>]} : memref<30x64x64xf32, 3>, memref<4096x64xf32>
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
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_im2col_store(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[mode-direction] im2col is a load/prefetch mode, got direction store}}
    tile.tma_copy store im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_im2col_no_offs_load(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[mode-direction] im2col_no_offs is a store/reduce mode (loads use im2col), got direction load}}
    tile.tma_copy load im2col_no_offs 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_offsets(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    // expected-error @+1 {{[im2col-offsets] expected 2 offsets in im2col mode (one per spatial axis), got 1}}
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_offsets_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    // expected-error @+1 {{[im2col-offsets] expected 2 offsets in im2col_w mode (wHalo, wOffset), got 1}}
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_offsets_tile(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[im2col-offsets] expected 0 offsets in tile mode, got 1}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_offsets_store(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[im2col-offsets] expected 0 offsets in im2col_no_offs mode, got 1}}
    tile.tma_copy store im2col_no_offs 3d %s, %A[%c0, %c0, %c0] offsets[%o] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_rank(%A: memref<64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[im2col-rank] im2col needs a 3-D to 5-D descriptor (N, [D, H,] W, C), got rank 2}}
    tile.tma_copy load im2col 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, pixel_box_lower = array<i64>, pixel_box_upper = array<i64>} : memref<8x16xf32, 3>, memref<64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @box_arity_im2col(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[box-arity] an im2col box is [pixels_per_column, channels_per_pixel], got 3 extents}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 1, 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_box(%A: memref<4x4096x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[im2col-box] pixels_per_column (box[0]) = 2048 is outside 1..1024}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 2048, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x4096x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_box_channels(%A: memref<4x64x512xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[im2col-box] channels_per_pixel (box[1]) = 300 is outside 1..256}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 300>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x512xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_corners(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[im2col-corners] im2col needs pixel_box_upper (1 spatial entries)}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_arity(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    // expected-error @+1 {{[im2col-corners] pixel_box_lower has 1 entries, expected 2 (one per spatial axis)}}
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o, %o] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_range_4d(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    // expected-error @+1 {{[im2col-corners] pixel_box_upper[0] = 128 is outside -128..127 (8-bit signed for rank 4)}}
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o, %o] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -128, -1>, pixel_box_upper = array<i64: 128, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xbf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_range_5d(%A: memref<2x8x8x8x16xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<32x16xbf16, 3>
    // expected-error @+1 {{[im2col-corners] pixel_box_lower[0] = -17 is outside -16..15 (5-bit signed for rank 5)}}
    tile.tma_copy load im2col 5d %s, %A[%c0, %c0, %c0, %c0, %c0] offsets[%o, %o, %o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -17, -1, -1>, pixel_box_upper = array<i64: 1, 1, 1>} : memref<32x16xbf16, 3>, memref<2x8x8x8x16xbf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    // expected-error @+1 {{[im2col-corners] pixel_box_lower has 2 entries, expected 1 (the W corner)}}
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_corners_tile(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[im2col-corners] pixel_box_lower/pixel_box_upper describe an im2col map, but the mode is tile}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, pixel_box_lower = array<i64: 0>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x1x4xf32, 3> {alignment = 1024}
  gpu.func @im2col_layout(%A: memref<4x1x64x4xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x1x4xf32, 3>
    // expected-error @+1 {{[im2col-layout] im2col takes no interleave, got interleave 1}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 1>, interleave = 1 : i32, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x1x4xf32, 3>, memref<4x1x64x4xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<32x64xi8, 3> {alignment = 1024}
  gpu.func @im2col_layout_packed(%A: memref<4x64x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x64xi8, 3>
    // expected-error @+1 {{[im2col-layout] im2col takes unpacked formats, got float4_e2m1fn_align8b}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 128>, format = #tile<format float4_e2m1fn_align8b>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x64xi8, 3>, memref<4x64x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_offset_range(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %big = arith.constant 256 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    // expected-error @+1 {{[im2col-offset-range] offsets[1] = 256 is outside 0..255 (8-bit unsigned for rank 4)}}
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o, %big] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xbf16, 3> {alignment = 1024}
  gpu.func @im2col_offset_range_5d(%A: memref<2x8x8x8x16xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %neg = arith.constant -1 : i16
    %s = memref.get_global @smem : memref<32x16xbf16, 3>
    // expected-error @+1 {{[im2col-offset-range] offsets[0] = 65535 is outside 0..31 (5-bit unsigned for rank 5)}}
    tile.tma_copy load im2col 5d %s, %A[%c0, %c0, %c0, %c0, %c0] offsets[%neg, %o, %o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1, -1, -1>, pixel_box_upper = array<i64: 1, 1, 1>} : memref<32x16xbf16, 3>, memref<2x8x8x8x16xbf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_offset_range_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 32 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    // expected-error @+1 {{[im2col-offset-range] wOffset (offsets[1]) = 32 is outside 0..31}}
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_halo(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>, %h: i16) kernel {
    %c0 = arith.constant 0 : i32
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    // expected-error @+1 {{[im2col-w-halo] wHalo (offsets[0]) must be a constant (it sizes the image)}}
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_halo_range(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 512 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    // expected-error @+1 {{[im2col-w-halo] wHalo (offsets[0]) = 512 is outside 0..511}}
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<128x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_halo_128(%A: memref<2x16x256x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 0 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<128x64xf16, 3>
    // expected-error @+1 {{[im2col-w-halo] im2col_w_128 moves 128 pixels: pixels_per_column (box[0]) must be 128, got 64}}
    tile.tma_copy load im2col_w_128 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 64, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<128x64xf16, 3>, memref<2x16x256x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_swizzle(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    // expected-error @+1 {{[im2col-w-swizzle] im2col_w uses swizzle 2, 3 or 4, got 0}}
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_store_box(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[im2col-store-box] pixel_box_lower[0] = -1: a store keeps the bounding box inside the tensor (lower >= 0)}}
    tile.tma_copy store im2col_no_offs 3d %s, %A[%c0, %c0, %c0] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_store_box_upper(%A: memref<2x16x16x32xf16>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    // expected-error @+1 {{[im2col-store-box] pixel_box_upper[1] = 2: a reduce keeps the bounding box inside the tensor (upper <= 0)}}
    tile.tma_copy reduce add im2col_no_offs 4d %s, %A[%c0, %c0, %c0, %c0] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, 2>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @box_within_dim_im2col(%A: memref<4x64x8xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    // expected-error @+1 {{[box-within-dim] channels_per_pixel (box[1]) = 16 is larger than the channel dim 8}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x8xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<16x16xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix_im2col(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<16x16xf32, 3>
    // expected-error @+1 {{[shared-suffix] the shared suffix (16, 16) is not the box image (32, 16)}}
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, element_strides = array<i64: 1, 2, 1>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<16x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @target_sm100_im2col_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    // expected-error @+1 {{[target-sm100] mode im2col_w needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @target_sm100_swizzle(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    // expected-error @+1 {{[target-sm100] swizzle 4 needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 4 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @target_sm100_fp6(%A: memref<8x128xf6E2M3FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[target-sm100] format float6_align16b needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
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

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xi8, 3> {alignment = 1024}
  gpu.func @packed_reduce(%A: memref<8x64xf4E2M1FN>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xi8, 3>
    // expected-error @+1 {{[packed-reduce] packed float4_e2m1fn_align8b takes no reductions}}
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x32xi8, 3>, memref<8x64xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x64xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_box_fp6(%A: memref<8x128xf6E3M2FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x64xi8, 3>
    // expected-error @+1 {{[packed-inner-box] packed float6_align16b needs inner box 128, got 64}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 64>} : memref<8x64xi8, 3>, memref<8x128xf6E3M2FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_box_align8b(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xi8, 3>
    // expected-error @+1 {{[packed-inner-box] packed float4_e2m1fn_align8b needs an even inner box, got 63}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 63>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x32xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @packed_swizzle_fp6_load(%A: memref<8x128xf6E2M3FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-swizzle] packed float6_align16b uses swizzle 0, 3 or 4 (6 for stores), got 6}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, swizzle = 6 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_dim_fp6(%A: memref<8x192xf6E2M3FN, strided<[256, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    // expected-error @+1 {{[packed-inner-dim] the inner global dim is 192, expected a multiple of 128 for packed float6_align16b}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x192xf6E2M3FN, strided<[256, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_dim_align8b(%A: memref<8x63xf4E2M1FN, strided<[64, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xi8, 3>
    // expected-error @+1 {{[packed-inner-dim] the inner global dim is 63, expected a multiple of 2 for packed float4_e2m1fn_align8b}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x16xi8, 3>, memref<8x63xf4E2M1FN, strided<[64, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @format_match_fp6(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[format-match] format float6_align16b does not describe element type 'f32' (expected float32 or a matching format; formats never reinterpret)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format float6_align16b>} : memref<8x16xf32, 3>, memref<64x64xf32>
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

// -----

// Tensor maps derived on the device (tile.tensormap_derive).

gpu.module @k {
  gpu.func @derive_field_arity(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %rows: i32) kernel {
    // expected-error @+1 {{[derive-field-arity] new_dims has 1 entries, expected rank 2}}
    %m = tile.tensormap_derive %T into %dest new_dims(%rows) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @derive_destination(%T: memref<64x128xbf16>, %dest: !llvm.ptr<3>, %rows: i32, %cols: i32) kernel {
    // expected-error @+1 {{[derive-destination] the destination is in address space 3: a derived map is published to global memory (a generic (0) or global (1) pointer; the copy engine reads no map from shared memory)}}
    %m = tile.tensormap_derive %T into %dest new_dims(%rows, %cols) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<3> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x128xbf16, 3> {alignment = 1024}
  gpu.func @derived_map_mismatch(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x128xbf16, 3>
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_box = array<i64: 32, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    // expected-error @+1 {{[derived-map-mismatch] the copy's box (64, 128) is not the derived map's (32, 128)}}
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 64, 128>} : memref<64x128xbf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx86">] {
  gpu.func @target_tensormap_replace(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %p: i64) kernel {
    // expected-error @+1 {{[target-tensormap-replace] tensormap.replace needs an arch-specific target (sm_90a, sm_100a, ...), target is sm_90}}
    %m = tile.tensormap_derive %T into %dest new_address(%p : i64) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}
