// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of the opcode and the op's form: spelling, rank, reduction
// operator, mode and direction, destination space, multicast, cta_group;
// parse errors of the opcode are [opcode-syntax].
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

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
  memref.global "private" @smem : memref<1x1x1x8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_rank(%A: memref<2x2x2x8x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x1x8x16xf32, 3>
    // expected-error @+1 {{[rank-range] 'cp.async.bulk.tensor.6d.shared::cta.global.tile.mbarrier::complete_tx::bytes': rank 6 is outside 1..5}}
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
