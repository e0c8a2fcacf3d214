// RUN: tile-opt %s -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-check-barriers | FileCheck %s

// Part 1: the valid neighbour of every case in invalid-*.mlir (same name,
// the smallest change that passes). Part 2: every accepted form at least
// once, and the PTX spelling of each form, printed in the canonical keyword
// form.

// CHECK-LABEL: gpu.func @opcode_syntax_unknown_part
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_unknown_part(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_completion
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_completion(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_ends_early
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_ends_early(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_gather4_store
// CHECK: tile.tma_copy store scatter4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_gather4_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group" %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_multicast_cta
// CHECK: tile.tma_copy load tile 2d cluster multicast %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_multicast_cta(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_im2col
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 8, 16>} : memref<1x8x16xf32, 3>, memref<4x64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1x8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_im2col(%A: memref<4x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 8, 16>} : memref<1x8x16xf32, 3>, memref<4x64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_rank
// CHECK: tile.tma_copy load tile 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 1, 8, 16>} : memref<1x1x1x8x16xf32, 3>, memref<2x2x2x8x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x1x8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_rank(%A: memref<2x2x2x8x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x1x8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.5d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 1, 8, 16>} : memref<1x1x1x8x16xf32, 3>, memref<2x2x2x8x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_reduction
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_reduction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_reduce_direction
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_reduce_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_direction
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_cta_group_value
// CHECK: tile.tma_copy load tile 2d cta_group(2) %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_cta_group_value(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::2" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_cta_group_store
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_cta_group_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_misplaced
// CHECK: tile.tma_copy load tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_misplaced(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint" %s, %A[%c0, %c0] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_keyword_reduction
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_keyword_reduction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_keyword_direction
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_keyword_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @opcode_syntax_keyword_mode
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_syntax_keyword_mode(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @rank_range
// CHECK: tile.tma_copy load tile 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 1, 8, 16>} : memref<1x1x1x8x16xf32, 3>, memref<2x2x2x8x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x1x8x16xf32, 3> {alignment = 1024}
  gpu.func @rank_range(%A: memref<2x2x2x8x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x1x8x16xf32, 3>
    tile.tma_copy load tile 5d %s, %A[%c0, %c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 1, 8, 16>} : memref<1x1x1x8x16xf32, 3>, memref<2x2x2x8x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @rank_range_zero
// CHECK: tile.tma_copy load tile 1d %{{.*}}, %{{.*}}[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
gpu.module @k {
  memref.global "private" @smem : memref<16xf32, 3> {alignment = 1024}
  gpu.func @rank_range_zero(%A: memref<256xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<16xf32, 3>
    tile.tma_copy load tile 1d %s, %A[%c0] mbar(%bar) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduction_operator
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @reduction_operator(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    "tile.tma_copy"(%s, %A, %c0, %c0) <{box = array<i64: 8, 16>, direction = #tile<direction reduce>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 0, 0, 0>, rank = 2 : i32, reduction = #tile<reduction add>}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduction_operator_store
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @reduction_operator_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    "tile.tma_copy"(%s, %A, %c0, %c0) <{box = array<i64: 8, 16>, direction = #tile<direction store>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 0, 0, 0>, rank = 2 : i32}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mode_direction
// CHECK: tile.tma_copy store scatter4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @mode_direction(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mode_direction_reduce
// CHECK: tile.tma_copy store scatter4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_reduce(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mode_direction_load
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_load(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @dst_space
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @dst_space(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @multicast_load
// CHECK: tile.tma_copy load tile 2d cluster multicast %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_load(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @multicast_load_store
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_load_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @cta_group
// CHECK: tile.tma_copy load tile 2d cta_group(2) %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cta_group(2) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @cta_group_store
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_group_store(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mbar_required
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @mbar_required(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mbar_forbidden
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @mbar_forbidden(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mbar_forbidden_reduce
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @mbar_forbidden_reduce(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @cta_mask
// CHECK: tile.tma_copy load tile 2d cluster multicast %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @cta_mask_without_multicast
// CHECK: tile.tma_copy load tile 2d cluster %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask_without_multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}


// -----

// A cluster declared three ways, constant masks within it.
// CHECK-LABEL: gpu.func @multicast_cluster
// CHECK-LABEL: gpu.func @multicast_cluster_known
// CHECK-LABEL: gpu.func @cluster_shape
// CHECK-LABEL: gpu.func @cta_mask_cluster
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
  gpu.func @multicast_cluster_known(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {known_cluster_size = array<i32: 4, 4, 1>} {
    %c0 = arith.constant 0 : i32
    %all = arith.constant -1 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%all) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
  // A plain copy in a cluster; two declarations of the same shape agree.
  gpu.func @cluster_shape(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>, nvvm.cluster_dim = array<i32: 2>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
  gpu.func @cta_mask_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %mask = arith.constant 10 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
// -----

// CHECK-LABEL: gpu.func @cache_policy
// CHECK: tile.tma_copy load tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cache_policy(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cache_hint %s, %A[%c0, %c0] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @cache_policy_without_hint
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cache_policy_without_hint(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @gather4_rows
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_rows(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @gather4_rows_three
// CHECK: tile.tma_copy store scatter4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_rows_three(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @gather4_rows_tile
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @gather4_rows_tile(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @box_arity
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @box_arity(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @box_extent
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 256>} : memref<8x256xf32, 3>, memref<64x512xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x256xf32, 3> {alignment = 1024}
  gpu.func @box_extent(%A: memref<64x512xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x256xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 256>} : memref<8x256xf32, 3>, memref<64x512xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @box_extent_zero
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 16>} : memref<1x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1x16xf32, 3> {alignment = 1024}
  gpu.func @box_extent_zero(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 1, 16>} : memref<1x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @coords_count
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @coords_count(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @coord_steps_arity
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_steps_arity(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @coord_steps_count
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_steps_count(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @coord_steps_count_extra
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @coord_steps_count_extra(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @element_strides_arity
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, element_strides = array<i64: 1, 1>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @element_strides_arity(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 1, 1>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @element_strides_range
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, element_strides = array<i64: 8, 1>} : memref<1x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1x16xf32, 3> {alignment = 1024}
  gpu.func @element_strides_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 8, 1>} : memref<1x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @element_strides_inner
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, element_strides = array<i64: 2, 1>} : memref<4x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<4x16xf32, 3> {alignment = 1024}
  gpu.func @element_strides_inner(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<4x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 2, 1>} : memref<4x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @swizzle_range
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @interleave_range
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_range(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @l2_promotion_range
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, l2_promotion = 3 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @l2_promotion_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, l2_promotion = 3 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @oob_fill_range
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @oob_fill_range(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @oob_fill_float
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 1024}
  gpu.func @oob_fill_float(%A: memref<64x64xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, oob_fill = 0 : i32} : memref<8x16xui32, 3>, memref<64x64xui32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @dtype_supported
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xi8, 3>, memref<64x64xi8>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xi8, 3> {alignment = 1024}
  gpu.func @dtype_supported(%A: memref<64x64xi8>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xi8, 3>, memref<64x64xi8>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @format_match
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, format = #tile<format float16>} : memref<8x16xf16, 3>, memref<64x64xf16>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @format_match(%A: memref<64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format float16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @format_match_sign
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, format = #tile<format int32>} : memref<8x16xi32, 3>, memref<64x64xi32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xi32, 3> {alignment = 1024}
  gpu.func @format_match_sign(%A: memref<64x64xi32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xi32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format int32>} : memref<8x16xi32, 3>, memref<64x64xi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fp4_load_only
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_load_only(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fp4_inner_box
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_inner_box(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fp4_swizzle
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, swizzle = 3 : i32} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_swizzle(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, swizzle = 3 : i32} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fp4_inner_dim
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_inner_dim(%A: memref<8x256xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fp4_alignment
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_alignment(%A: memref<8x256xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 128 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c64] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fp4_alignment_stride
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN, strided<[192, 1]>>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_alignment_stride(%A: memref<8x128xf4E2M1FN, strided<[192, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN, strided<[192, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @fp4_layout
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, element_strides = array<i64: 1, 1>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp4_layout(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, element_strides = array<i64: 1, 1>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @box_inner_bytes
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 4>} : memref<8x4xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x4xf32, 3> {alignment = 1024}
  gpu.func @box_inner_bytes(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x4xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>} : memref<8x4xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @swizzle_inner_bytes
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, swizzle = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @swizzle_inner_bytes(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @swizzle_row_padding
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 4>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_row_padding(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @interleave_rank
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 1 : i32} : memref<1x1x8x8xui16, 3>, memref<2x4x8x8xui16>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x8xui16, 3> {alignment = 1024}
  gpu.func @interleave_rank(%A: memref<2x4x8x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x8xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 1 : i32} : memref<1x1x8x8xui16, 3>, memref<2x4x8x8xui16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @interleave_mode
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @interleave_mode(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @interleave_32b_swizzle
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_32b_swizzle(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @interleave_one_slice
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_one_slice(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @interleave_slice
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_slice(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @interleave_contiguous
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16, strided<[1024, 256, 16, 1]>>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @interleave_contiguous(%A: memref<2x4x8x16xui16, strided<[1024, 256, 16, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16, strided<[1024, 256, 16, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @gather4_rank
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_rank(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @gather4_box
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_box(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @gather4_box_strides
// CHECK: tile.tma_copy store scatter4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_box_strides(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_address_space
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, #gpu.address_space<workgroup>> {alignment = 1024}
  gpu.func @shared_address_space(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, #gpu.address_space<workgroup>>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_layout
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  gpu.func @shared_layout(%arg: memref<8x16xf32, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.assume_alignment %arg, 128 : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_layout_dynamic
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  gpu.func @shared_layout_dynamic(%arg: memref<8x16xf32, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.assume_alignment %arg, 128 : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_dtype
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @shared_dtype(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_dtype_fp4
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @shared_dtype_fp4(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_suffix
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_suffix_strides
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], element_strides = array<i64: 2, 1>} : memref<2x4x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<2x4x16xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix_strides(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x4x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], element_strides = array<i64: 2, 1>} : memref<2x4x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_repeat_prefix
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @shared_repeat_prefix(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_atom_alignment
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 4>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x4xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<2x8x4xf32, 3> {alignment = 1024}
  gpu.func @shared_atom_alignment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x4xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x4xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_base_alignment
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @shared_base_alignment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_base_alignment_unspecified
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @shared_base_alignment_unspecified(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_base_alignment_swizzle
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @shared_base_alignment_swizzle(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Views of the dynamic shared memory (1024-byte aligned) at offsets that keep
// each copy's alignment: 1024 for a 128B swizzle, 128 without.
// CHECK-LABEL: gpu.func @shared_base_alignment_view
// CHECK-COUNT-2: tile.tma_copy load tile 2d
gpu.module @k {
  gpu.func @shared_base_alignment_view(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off1024 = arith.constant 1024 : index
    %off128 = arith.constant 128 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    %t = memref.view %dyn[%off128][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x16xf32, #gpu.address_space<workgroup>>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    tile.tma_copy load tile 2d %t, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// One stage of a ring (a contiguous subview at 1024 bytes), a reinterpret_cast
// back to the ring's base, and a collapse of a view.
// CHECK-LABEL: gpu.func @shared_base_alignment_subview
// CHECK-COUNT-3: tile.tma_copy load tile 2d
gpu.module @k {
  memref.global "private" @ring : memref<4x8x32xf32, 3> {alignment = 1024}
  gpu.func @shared_base_alignment_subview(%A: memref<64x64xf32>, %B: memref<64x256xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x8x32xf32, 3>
    %stage = memref.subview %g[1, 0, 0][1, 8, 32][1, 1, 1] : memref<4x8x32xf32, 3> to memref<8x32xf32, strided<[32, 1], offset: 256>, 3>
    %base = memref.reinterpret_cast %stage to offset: [0], sizes: [8, 32], strides: [32, 1] : memref<8x32xf32, strided<[32, 1], offset: 256>, 3> to memref<8x32xf32, 3>
    %flat = memref.collapse_shape %g [[0, 1], [2]] : memref<4x8x32xf32, 3> into memref<32x32xf32, 3>
    tile.tma_copy load tile 2d %stage, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, strided<[32, 1], offset: 256>, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %base, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %flat, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// A declared alignment: a view at a runtime offset, a stage picked at run
// time, a workgroup attribution's llvm.align.
// CHECK-LABEL: gpu.func @shared_alignment_declared
// CHECK-COUNT-3: tile.tma_copy load tile 2d
gpu.module @k {
  memref.global "private" @ring : memref<4x8x32xf32, 3> {alignment = 1024}
  gpu.func @shared_alignment_declared(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %off: index, %i: index) workgroup(%w : memref<8x32xf32, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}) kernel {
    %c0 = arith.constant 0 : i32
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    %s = memref.assume_alignment %v, 1024 : memref<8x32xf32, #gpu.address_space<workgroup>>
    %g = memref.get_global @ring : memref<4x8x32xf32, 3>
    %stage = memref.subview %g[%i, 0, 0][1, 8, 32][1, 1, 1] : memref<4x8x32xf32, 3> to memref<8x32xf32, strided<[32, 1], offset: ?>, 3>
    %t = memref.assume_alignment %stage, 1024 : memref<8x32xf32, strided<[32, 1], offset: ?>, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    tile.tma_copy load tile 2d %t, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, strided<[32, 1], offset: ?>, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %w, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_address_space
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, 1>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_address_space(%A: memref<64x64xf32, 1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, 1>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_rank
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_rank(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_rank_interleave
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @global_rank_interleave(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_dtype
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @global_dtype(%A: memref<64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_inner_stride
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, strided<[64, 1]>>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_inner_stride(%A: memref<64x64xf32, strided<[64, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, strided<[64, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_stride_alignment
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 4>} : memref<8x4xf32, 3>, memref<64x8xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x4xf32, 3> {alignment = 1024}
  gpu.func @global_stride_alignment(%A: memref<64x8xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x4xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>} : memref<8x4xf32, 3>, memref<64x8xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_stride_alignment_32b
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16, strided<[528, 128, 16, 1]>>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @global_stride_alignment_32b(%A: memref<2x4x8x16xui16, strided<[528, 128, 16, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16, strided<[528, 128, 16, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_stride_range
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[274877906940, 1]>>
gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range(%A: memref<2x64xf32, strided<[274877906940, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[274877906940, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_stride_range_negative
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[64, 1], offset: 64>>
gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range_negative(%A: memref<2x64xf32, strided<[64, 1], offset: 64>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[64, 1], offset: 64>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_stride_range_wrap
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[64, 1]>>
gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range_wrap(%A: memref<2x64xf32, strided<[64, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[64, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_dim_range
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<4294967296x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_dim_range(%A: memref<4294967296x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<4294967296x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @global_dim_range_zero
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<8x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_dim_range_zero(%A: memref<8x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<8x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @box_within_dim
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<8x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @box_within_dim(%A: memref<8x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<8x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduction_dtype
// CHECK: tile.tma_copy reduce inc tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 1024}
  gpu.func @reduction_dtype(%A: memref<64x64xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    tile.tma_copy reduce inc tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduction_dtype_add_f64
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @reduction_dtype_add_f64(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduction_dtype_max_f32
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @reduction_dtype_max_f32(%A: memref<64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    tile.tma_copy reduce max tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduction_dtype_xor_f16
// CHECK: tile.tma_copy reduce xor tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 1024}
  gpu.func @reduction_dtype_xor_f16(%A: memref<64x64xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    tile.tma_copy reduce xor tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduction_signedness
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xsi32, 3> {alignment = 1024}
  gpu.func @reduction_signedness(%A: memref<64x64xsi32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xsi32, 3>
    tile.tma_copy reduce min tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm90
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_sm90(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm100
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @target_sm100(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm100_cta_group
// CHECK: tile.tma_copy load tile 2d cta_group(1) %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_sm100_cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cta_group(1) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm100_fp4
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @target_sm100_fp4(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm100_second_target
// CHECK: tile.tma_copy store scatter4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">, #nvvm.target<chip = "sm_103a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @target_sm100_second_target(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_multicast
// CHECK: tile.tma_copy load tile 2d cluster multicast %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_ptx86
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_ptx86(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_ptx86_explicit
// CHECK: tile.tma_copy load tile 2d cluster %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx85">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @target_ptx86_explicit(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_b200_interleave_swizzle
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 1 : i32} : memref<1x1x8x8xui16, 3>, memref<2x4x8x8xui16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<1x1x8x8xui16, 3> {alignment = 1024}
  gpu.func @target_b200_interleave_swizzle(%A: memref<2x4x8x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x8xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 1 : i32} : memref<1x1x8x8xui16, 3>, memref<2x4x8x8xui16>
    gpu.return
  }
}

// -----

// A load into shared::cta (PTX ISA 8.6), keyword and PTX spelling.
// CHECK-LABEL: gpu.func @load_shared_cta
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @load_shared_cta(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// A load into shared::cluster needs no PTX 8.6.
// CHECK-LABEL: gpu.func @load_shared_cluster
// CHECK: tile.tma_copy load tile 2d cluster %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d cluster %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_90">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @load_shared_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Multicast with its CTA mask.
// CHECK-LABEL: gpu.func @load_multicast
// CHECK: tile.tma_copy load tile 2d cluster multicast %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d cluster multicast %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @load_multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster multicast %smem, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" %smem, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// The L2 cache hint with its cache policy.
// CHECK-LABEL: gpu.func @load_cache_hint
// CHECK: tile.tma_copy load tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @load_cache_hint(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cache_hint %smem, %A[%c0, %c0] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint" %smem, %A[%c0, %c0] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// cta_group 1 and 2 on sm_100a, alone and with every other qualifier.
// CHECK-LABEL: gpu.func @load_cta_group
// CHECK: tile.tma_copy load tile 2d cta_group(1) %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d cta_group(2) %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d cluster multicast cta_group(2) cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d cluster multicast cta_group(1) cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @load_cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %policy: i64) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cta_group(1) %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::2" %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d cluster multicast cta_group(2) cache_hint %smem, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::1.L2::cache_hint" %smem, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// gather4 loads and scatter4 stores four rows of a (1, width) box.
// CHECK-LABEL: gpu.func @gather4_scatter4
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store scatter4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store scatter4 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 1024}
  gpu.func @gather4_scatter4(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %smem = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy load gather4 2d %smem, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy store scatter4 2d %smem, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] cache_policy(%policy) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// A store completes through bulk_group.
// CHECK-LABEL: gpu.func @store_tile
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @store_tile(%A: memref<64x64xf32>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy store tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d cache_hint %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Reductions on ui32: add, min, max, inc, dec, and, or, xor.
// CHECK-LABEL: gpu.func @reduce_ui32
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce inc tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce dec tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce and tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce or tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce xor tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce xor tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
// CHECK: tile.tma_copy reduce add tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 128}
  gpu.func @reduce_ui32(%A: memref<64x64xui32>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xui32, 3>
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce min tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce max tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce inc tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce dec tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce and tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce or tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce xor tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduce_si32
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
// CHECK: tile.tma_copy reduce and tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
// CHECK: tile.tma_copy reduce or tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
// CHECK: tile.tma_copy reduce xor tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
// CHECK: tile.tma_copy reduce xor tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
// CHECK: tile.tma_copy reduce add tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xsi32, 3> {alignment = 128}
  gpu.func @reduce_si32(%A: memref<64x64xsi32>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xsi32, 3>
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    tile.tma_copy reduce min tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    tile.tma_copy reduce max tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    tile.tma_copy reduce and tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    tile.tma_copy reduce or tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    tile.tma_copy reduce xor tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xsi32, 3>, memref<64x64xsi32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduce_ui64
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
// CHECK: tile.tma_copy reduce and tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
// CHECK: tile.tma_copy reduce or tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
// CHECK: tile.tma_copy reduce xor tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
// CHECK: tile.tma_copy reduce xor tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
// CHECK: tile.tma_copy reduce add tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
gpu.module @k {
  memref.global "private" @smem : memref<8x8xui64, 3> {alignment = 128}
  gpu.func @reduce_ui64(%A: memref<64x64xui64>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x8xui64, 3>
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    tile.tma_copy reduce min tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    tile.tma_copy reduce max tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    tile.tma_copy reduce and tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    tile.tma_copy reduce or tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    tile.tma_copy reduce xor tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduce_si64
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
// CHECK: tile.tma_copy reduce min tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
gpu.module @k {
  memref.global "private" @smem : memref<8x8xsi64, 3> {alignment = 128}
  gpu.func @reduce_si64(%A: memref<64x64xsi64>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x8xsi64, 3>
    tile.tma_copy reduce min tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
    tile.tma_copy reduce max tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduce_f32
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy reduce add tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @reduce_f32(%A: memref<64x64xf32>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduce_f16
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
// CHECK: tile.tma_copy reduce add tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 128}
  gpu.func @reduce_f16(%A: memref<64x64xf16>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf16, 3>
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    tile.tma_copy reduce min tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    tile.tma_copy reduce max tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @reduce_bf16
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
// CHECK: tile.tma_copy reduce add tile 2d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xbf16, 3> {alignment = 128}
  gpu.func @reduce_bf16(%A: memref<64x64xbf16>, %policy: i64) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xbf16, 3>
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
    tile.tma_copy reduce min tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
    tile.tma_copy reduce max tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group.L2::cache_hint" %smem, %A[%c0, %c0] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xbf16, 3>, memref<64x64xbf16>
    gpu.return
  }
}

// -----

// min/max on a signless integer with an explicit format; add needs none.
// CHECK-LABEL: gpu.func @reduce_signless
// CHECK: tile.tma_copy reduce min tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>, format = #tile<format int32>} : memref<8x16xi32, 3>, memref<64x64xi32>
// CHECK: tile.tma_copy reduce max tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>, format = #tile<format uint32>} : memref<8x16xi32, 3>, memref<64x64xi32>
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xi32, 3>, memref<64x64xi32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xi32, 3> {alignment = 128}
  gpu.func @reduce_signless(%A: memref<64x64xi32>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xi32, 3>
    tile.tma_copy reduce min tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>, format = #tile<format int32>} : memref<8x16xi32, 3>, memref<64x64xi32>
    tile.tma_copy reduce max tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>, format = #tile<format uint32>} : memref<8x16xi32, 3>, memref<64x64xi32>
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xi32, 3>, memref<64x64xi32>
    gpu.return
  }
}

// -----

// Ranks 1..5, keyword and PTX spelling.
// CHECK-LABEL: gpu.func @rank_1
// CHECK: tile.tma_copy load tile 1d %{{.*}}, %{{.*}}[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
// CHECK: tile.tma_copy load tile 1d %{{.*}}, %{{.*}}[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
// CHECK: tile.tma_copy store tile 1d %{{.*}}, %{{.*}}[%{{.*}}] {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
// CHECK: tile.tma_copy reduce add tile 1d %{{.*}}, %{{.*}}[%{{.*}}] {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
gpu.module @k {
  memref.global "private" @smem : memref<16xf32, 3> {alignment = 128}
  gpu.func @rank_1(%A: memref<256xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<16xf32, 3>
    tile.tma_copy load tile 1d %smem, %A[%c0] mbar(%bar) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    tile.tma_copy "cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %smem, %A[%c0] mbar(%bar) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    tile.tma_copy store tile 1d %smem, %A[%c0] {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group" %smem, %A[%c0] {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @rank_2
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @rank_2(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group" %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @rank_3
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
// CHECK: tile.tma_copy store tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
// CHECK: tile.tma_copy reduce add tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 128}
  gpu.func @rank_3(%A: memref<4x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<2x8x16xf32, 3>
    tile.tma_copy load tile 3d %smem, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.3d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
    tile.tma_copy store tile 3d %smem, %A[%c0, %c0, %c0] {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group" %smem, %A[%c0, %c0, %c0] {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @rank_4
// CHECK: tile.tma_copy load tile 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
// CHECK: tile.tma_copy load tile 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
// CHECK: tile.tma_copy store tile 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
// CHECK: tile.tma_copy reduce add tile 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1x2x8x16xf32, 3> {alignment = 128}
  gpu.func @rank_4(%A: memref<2x4x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<1x2x8x16xf32, 3>
    tile.tma_copy load tile 4d %smem, %A[%c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.4d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
    tile.tma_copy store tile 4d %smem, %A[%c0, %c0, %c0, %c0] {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.tile.bulk_group" %smem, %A[%c0, %c0, %c0, %c0] {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @rank_5
// CHECK: tile.tma_copy load tile 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
// CHECK: tile.tma_copy load tile 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
// CHECK: tile.tma_copy store tile 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
// CHECK: tile.tma_copy reduce add tile 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1x1x2x8x16xf32, 3> {alignment = 128}
  gpu.func @rank_5(%A: memref<2x2x4x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<1x1x2x8x16xf32, 3>
    tile.tma_copy load tile 5d %smem, %A[%c0, %c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.5d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %smem, %A[%c0, %c0, %c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
    tile.tma_copy store tile 5d %smem, %A[%c0, %c0, %c0, %c0, %c0] {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.5d.global.shared::cta.add.tile.bulk_group" %smem, %A[%c0, %c0, %c0, %c0, %c0] {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
    gpu.return
  }
}

// -----

// Swizzle 1/2/3 with a row that fills the span; the base is aligned to exactly
// the swizzle period (256, 512, 1024 bytes).
// CHECK-LABEL: gpu.func @swizzle_spans
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 8>, swizzle = 1 : i32} : memref<8x8xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, swizzle = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @s1 : memref<8x8xf32, 3> {alignment = 256}
  memref.global "private" @s2 : memref<8x16xf32, 3> {alignment = 512}
  memref.global "private" @s3 : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_spans(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s1 = memref.get_global @s1 : memref<8x8xf32, 3>
    %s2 = memref.get_global @s2 : memref<8x16xf32, 3>
    %s3 = memref.get_global @s3 : memref<8x32xf32, 3>
    tile.tma_copy load tile 2d %s1, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 8>, swizzle = 1 : i32} : memref<8x8xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s2, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s3, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// A row shorter than the swizzle span occupies the whole span: 16-byte rows
// take 32/64/128 bytes, so the shared inner extent is 8/16/32 f32.
// CHECK-LABEL: gpu.func @swizzle_padded_rows
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 4>, swizzle = 1 : i32} : memref<8x8xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 4>, swizzle = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 4>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 4>, coord_steps = [array<i64: 8, 0>], swizzle = 3 : i32} : memref<2x8x32xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @s1 : memref<8x8xf32, 3> {alignment = 256}
  memref.global "private" @s2 : memref<8x16xf32, 3> {alignment = 512}
  memref.global "private" @s3 : memref<8x32xf32, 3> {alignment = 1024}
  memref.global "private" @s4 : memref<2x8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_padded_rows(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s1 = memref.get_global @s1 : memref<8x8xf32, 3>
    %s2 = memref.get_global @s2 : memref<8x16xf32, 3>
    %s3 = memref.get_global @s3 : memref<8x32xf32, 3>
    %s4 = memref.get_global @s4 : memref<2x8x32xf32, 3>
    tile.tma_copy load tile 2d %s1, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>, swizzle = 1 : i32} : memref<8x8xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s2, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>, swizzle = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s3, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %s4, %A[%c0, %c0] {box = array<i64: 8, 4>, coord_steps = [array<i64: 8, 0>], swizzle = 3 : i32} : memref<2x8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Outer element strides: the image is ceil(box / stride).
// CHECK-LABEL: gpu.func @element_strides
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, element_strides = array<i64: 2, 1>} : memref<4x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 7, 16>, element_strides = array<i64: 2, 1>} : memref<4x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 8, 16>, element_strides = array<i64: 1, 4, 1>} : memref<1x2x16xf32, 3>, memref<4x64x64xf32>
gpu.module @k {
  memref.global "private" @s1 : memref<4x16xf32, 3> {alignment = 128}
  memref.global "private" @s2 : memref<1x2x16xf32, 3> {alignment = 128}
  gpu.func @element_strides(%A: memref<64x64xf32>, %B: memref<4x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s1 = memref.get_global @s1 : memref<4x16xf32, 3>
    %s2 = memref.get_global @s2 : memref<1x2x16xf32, 3>
    tile.tma_copy load tile 2d %s1, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 2, 1>} : memref<4x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s1, %A[%c0, %c0] mbar(%bar) {box = array<i64: 7, 16>, element_strides = array<i64: 2, 1>} : memref<4x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 3d %s2, %B[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 8, 16>, element_strides = array<i64: 1, 4, 1>} : memref<1x2x16xf32, 3>, memref<4x64x64xf32>
    gpu.return
  }
}

// -----

// Interleave 16B and 32B: global (N, C_slices, *spatial, Ci), Ci one slice; a
// repeat axis with a C step issues successive channel slices.
// CHECK-LABEL: gpu.func @interleave
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 1 : i32} : memref<1x1x8x8xui16, 3>, memref<2x4x8x8xui16>
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, coord_steps = [array<i64: 0, 1, 0>], interleave = 2 : i32, swizzle = 1 : i32} : memref<3x1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
// CHECK: tile.tma_copy load tile 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 1, 8>, element_strides = array<i64: 1, 1, 2>, interleave = 1 : i32} : memref<1x1x4x8xui16, 3>, memref<2x4x8x8xui16>
// CHECK: tile.tma_copy store tile 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 1, 2, 4, 8>, interleave = 1 : i32} : memref<1x1x2x4x8x8xui16, 3>, memref<2x4x2x4x8x8xui16>
gpu.module @k {
  memref.global "private" @i1 : memref<1x1x8x8xui16, 3> {alignment = 128}
  memref.global "private" @i2 : memref<1x1x8x16xui16, 3> {alignment = 256}
  memref.global "private" @i3 : memref<3x1x1x8x16xui16, 3> {alignment = 256}
  memref.global "private" @i4 : memref<1x1x4x8xui16, 3> {alignment = 128}
  memref.global "private" @i5 : memref<1x1x2x4x8x8xui16, 3> {alignment = 128}
  gpu.func @interleave(%A: memref<2x4x8x8xui16>, %B: memref<2x4x8x16xui16>, %C: memref<2x4x2x4x8x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %i1 = memref.get_global @i1 : memref<1x1x8x8xui16, 3>
    %i2 = memref.get_global @i2 : memref<1x1x8x16xui16, 3>
    %i3 = memref.get_global @i3 : memref<3x1x1x8x16xui16, 3>
    %i4 = memref.get_global @i4 : memref<1x1x4x8xui16, 3>
    %i5 = memref.get_global @i5 : memref<1x1x2x4x8x8xui16, 3>
    tile.tma_copy load tile 3d %i1, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 1 : i32} : memref<1x1x8x8xui16, 3>, memref<2x4x8x8xui16>
    tile.tma_copy load tile 3d %i2, %B[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    tile.tma_copy load tile 3d %i3, %B[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, coord_steps = [array<i64: 0, 1, 0>], interleave = 2 : i32, swizzle = 1 : i32} : memref<3x1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    tile.tma_copy load tile 3d %i4, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, element_strides = array<i64: 1, 1, 2>, interleave = 1 : i32} : memref<1x1x4x8xui16, 3>, memref<2x4x8x8xui16>
    tile.tma_copy store tile 5d %i5, %C[%c0, %c0, %c0, %c0, %c0] {box = array<i64: 1, 1, 2, 4, 8>, interleave = 1 : i32} : memref<1x1x2x4x8x8xui16, 3>, memref<2x4x2x4x8x8xui16>
    gpu.return
  }
}

// -----

// Explicit formats over f32 (tf32 rounds, ftz flushes), 8-bit floats move as
// bytes, f64 and the NaN-request OOB fill on float formats.
// CHECK-LABEL: gpu.func @formats
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, format = #tile<format tfloat32>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, format = #tile<format float32_ftz>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, format = #tile<format tfloat32_ftz>, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, format = #tile<format float32>, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf8E4M3FN, 3>, memref<64x64xf8E4M3FN>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, oob_fill = 1 : i32} : memref<8x16xbf16, 3>, memref<64x64xbf16>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 8>, oob_fill = 1 : i32} : memref<8x8xf64, 3>, memref<64x64xf64>
gpu.module @k {
  memref.global "private" @f : memref<8x16xf32, 3> {alignment = 128}
  memref.global "private" @e : memref<8x16xf8E4M3FN, 3> {alignment = 128}
  memref.global "private" @b : memref<8x16xbf16, 3> {alignment = 128}
  memref.global "private" @d : memref<8x8xf64, 3> {alignment = 128}
  gpu.func @formats(%A: memref<64x64xf32>, %E: memref<64x64xf8E4M3FN>, %B: memref<64x64xbf16>, %D: memref<64x64xf64>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %f = memref.get_global @f : memref<8x16xf32, 3>
    %e = memref.get_global @e : memref<8x16xf8E4M3FN, 3>
    %b = memref.get_global @b : memref<8x16xbf16, 3>
    %d = memref.get_global @d : memref<8x8xf64, 3>
    tile.tma_copy load tile 2d %f, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format tfloat32>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %f, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format float32_ftz>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %f, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format tfloat32_ftz>, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %f, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format float32>, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %e, %E[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf8E4M3FN, 3>, memref<64x64xf8E4M3FN>
    tile.tma_copy load tile 2d %b, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, oob_fill = 1 : i32} : memref<8x16xbf16, 3>, memref<64x64xbf16>
    tile.tma_copy load tile 2d %d, %D[%c0, %c0] mbar(%bar) {box = array<i64: 8, 8>, oob_fill = 1 : i32} : memref<8x8xf64, 3>, memref<64x64xf64>
    gpu.return
  }
}

// -----

// L2 promotion 0..3 and OOB fill 0/1; zero values are the defaults and are not
// printed.
// CHECK-LABEL: gpu.func @policies
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, l2_promotion = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, l2_promotion = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, l2_promotion = 3 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, l2_promotion = 2 : i32, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @policies(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, l2_promotion = 0 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, l2_promotion = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, l2_promotion = 2 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, l2_promotion = 3 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, l2_promotion = 2 : i32, oob_fill = 1 : i32, swizzle = 0 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, oob_fill = 0 : i32, interleave = 0 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Dynamic global dims and strides are runtime rules, not verifier errors.
// CHECK-LABEL: gpu.func @dynamic_global
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<?x?xf32, strided<[?, 1]>>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<?x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @dynamic_global(%A: memref<?x?xf32, strided<[?, 1]>>, %B: memref<?x?xf32, strided<[?, ?], offset: ?>>, %C: memref<?x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<?x?xf32, strided<[?, 1]>>
    tile.tma_copy store tile 2d %smem, %B[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<?x?xf32, strided<[?, ?], offset: ?>>
    tile.tma_copy load tile 2d %smem, %C[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<?x64xf32>
    gpu.return
  }
}

// -----

// The global operand in the default, numbered (1) or named global space.
// CHECK-LABEL: gpu.func @global_spaces
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, 1>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, #gpu.address_space<global>>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_spaces(%A: memref<64x64xf32, 1>, %B: memref<64x64xf32, #gpu.address_space<global>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, 1>
    tile.tma_copy store tile 2d %smem, %B[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, #gpu.address_space<global>>
    gpu.return
  }
}

// -----

// An opaque !llvm.ptr to a caller-encoded tensor map: its fields are not
// inspected.
// CHECK-LABEL: gpu.func @opaque_tensor_map
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opaque_tensor_map(%A: !llvm.ptr, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
    tile.tma_copy store tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
    tile.tma_copy reduce add tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
    gpu.return
  }
}

// -----

// An opaque packed-fp4 tensor map: the shared image is i8 bytes.
// CHECK-LABEL: gpu.func @opaque_tensor_map_fp4
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, format = #tile<format float4_e2m1fn>} : memref<8x128xi8, 3>, !llvm.ptr
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 128}
  gpu.func @opaque_tensor_map_fp4(%A: !llvm.ptr, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, format = #tile<format float4_e2m1fn>} : memref<8x128xi8, 3>, !llvm.ptr
    gpu.return
  }
}

// -----

// Packed fp4 (16U4_ALIGN16B) on sm_100a: i8 shared image, inner box 128,
// swizzle 0 or 3, gather4 too; 32-byte aligned strides and inner origins.
// CHECK-LABEL: gpu.func @packed_fp4
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, format = #tile<format float4_e2m1fn>, swizzle = 3 : i32} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
// CHECK: tile.tma_copy load gather4 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 1, 128>} : memref<4x128xi8, 3>, memref<8x256xf4E2M1FN>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x128xi8, 3>, memref<16x128xf4E2M1FN, strided<[192, 1]>>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, coord_steps = [array<i64: 0, 128>]} : memref<2x8x128xi8, 3>, memref<8x256xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @p : memref<8x128xi8, 3> {alignment = 1024}
  memref.global "private" @q : memref<4x128xi8, 3> {alignment = 128}
  memref.global "private" @r : memref<2x8x128xi8, 3> {alignment = 128}
  gpu.func @packed_fp4(%A: memref<8x256xf4E2M1FN>, %B: memref<16x128xf4E2M1FN, strided<[192, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %r0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %r2 = arith.constant 7 : i32
    %r3 = arith.constant 11 : i32
    %c64 = arith.constant 128 : i32
    %p = memref.get_global @p : memref<8x128xi8, 3>
    %q = memref.get_global @q : memref<4x128xi8, 3>
    %r = memref.get_global @r : memref<2x8x128xi8, 3>
    tile.tma_copy load tile 2d %p, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
    tile.tma_copy load tile 2d %p, %A[%c0, %c64] mbar(%bar) {box = array<i64: 8, 128>, format = #tile<format float4_e2m1fn>, swizzle = 3 : i32} : memref<8x128xi8, 3>, memref<8x256xf4E2M1FN>
    tile.tma_copy load gather4 2d %q, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 128>} : memref<4x128xi8, 3>, memref<8x256xf4E2M1FN>
    tile.tma_copy load tile 2d %r, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x128xi8, 3>, memref<16x128xf4E2M1FN, strided<[192, 1]>>
    tile.tma_copy load tile 2d %r, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, coord_steps = [array<i64: 0, 128>]} : memref<2x8x128xi8, 3>, memref<8x256xf4E2M1FN>
    gpu.return
  }
}

// -----

// The shared buffer in the named workgroup space, as a workgroup attribution
// (aligned by its llvm.align) or an argument (declared aligned with
// memref.assume_alignment), and with two repeat axes.
// CHECK-LABEL: gpu.func @shared_forms
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, coord_steps = [array<i64: 16, 0>, array<i64: 0, 16>]} : memref<2x3x8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @rep : memref<2x3x8x16xf32, 3> {alignment = 128}
  gpu.func @shared_forms(%A: memref<64x64xf32>, %in: memref<8x16xf32, 3>, %bar: !llvm.ptr<3>) workgroup(%w : memref<8x16xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}) kernel {
    %c0 = arith.constant 0 : i32
    %rep = memref.get_global @rep : memref<2x3x8x16xf32, 3>
    %arg = memref.assume_alignment %in, 1024 : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %w, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    tile.tma_copy load tile 2d %arg, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %rep, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 16, 0>, array<i64: 0, 16>]} : memref<2x3x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Every target of the module is checked; sm_90 (not arch-specific) takes plain
// copies, and shared::cluster loads need no PTX 8.6.
// CHECK-LABEL: gpu.func @targets
// CHECK: tile.tma_copy load tile 2d cluster %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_90a">, #nvvm.target<chip = "sm_100a">, #nvvm.target<chip = "sm_120a">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @targets(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %smem = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cluster %smem, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %smem, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// inner-coord-alignment: 4 float32 elements are 16 bytes; a runtime
// innermost coordinate is the caller's obligation.
gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  // CHECK-LABEL: gpu.func @inner_coord_alignment_ok
  gpu.func @inner_coord_alignment_ok(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %x: i32) kernel {
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    // CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, coord_steps = [array<i64: 0, 4>]}
    tile.tma_copy load tile 2d %s, %A[%c0, %c4] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 0, 4>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    // CHECK: tile.tma_copy load tile 2d
    tile.tma_copy load tile 2d %s, %A[%c0, %x] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 0, 4>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// global-source / descriptor-space: a kernel argument memref, and opaque maps
// in generic, global and (not a parameter) constant memory.
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  llvm.mlir.global external constant @cmap() {addr_space = 4 : i32, alignment = 128 : i64} : !llvm.array<128 x i8>
  // CHECK-LABEL: gpu.func @global_source_ok
  gpu.func @global_source_ok(%A: memref<64x64xf32>, %g: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    %cm = llvm.mlir.addressof @cmap : !llvm.ptr<4>
    // CHECK: tile.tma_copy load tile 2d {{.*}} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    // CHECK: tile.tma_copy load tile 2d {{.*}} : memref<8x16xf32, 3>, !llvm.ptr<1>
    tile.tma_copy load tile 2d %s, %g[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr<1>
    // CHECK: tile.tma_copy load tile 2d {{.*}} : memref<8x16xf32, 3>, !llvm.ptr<4>
    tile.tma_copy load tile 2d %s, %cm[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr<4>
    gpu.return
  }
}

// -----

// tx-bytes-tag: the seed's two 512-byte boxes plus a 64-byte swizzle-padded
// box (4 rows of 16 bytes, stored in 128-byte spans) under one tag.
gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xui32, 3> {alignment = 1024}
  memref.global "private" @pad : memref<4x64xf16, 3> {alignment = 1024}
  // CHECK-LABEL: gpu.func @tx_bytes_tag_ok
  gpu.func @tx_bytes_tag_ok(%A: memref<16x16xui32>, %H: memref<32x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xui32, 3>
    %p = memref.get_global @pad : memref<4x64xf16, 3>
    // CHECK: tile.tx_bytes "phase" : i32
    %n = tile.tx_bytes "phase" : i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], tag = "phase"} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    tile.tma_copy load tile 2d %p, %H[%c0, %c0] mbar(%bar) {box = array<i64: 4, 8>, swizzle = 3 : i32, tag = "phase"} : memref<4x64xf16, 3>, memref<32x64xf16>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    gpu.return
  }
}

// -----

// barrier-tx-mismatch: the phase expects what its copy delivers.
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf32, 3> {alignment = 1024}
  // CHECK-LABEL: gpu.func @barrier_tx_mismatch
  gpu.func @barrier_tx_mismatch(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 8192 : i32
    %s = memref.get_global @smem : memref<64x32xf32, 3>
    // CHECK: nvvm.mbarrier.arrive.expect_tx
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// mbarrier-uninitialized: both barriers of @bars are initialised.
gpu.module @k {
  memref.global "private" @bars : memref<2xi64, 3> {alignment = 8}
  // CHECK-LABEL: gpu.func @mbarrier_uninitialized
  gpu.func @mbarrier_uninitialized() kernel {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bars = memref.get_global @bars : memref<2xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %c8 = arith.constant 8 : i64
    %at = arith.addi %addr, %c8 : i64
    %full = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %empty = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %full, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.init %empty, %one : !llvm.ptr<3>, i32
    // CHECK: nvvm.mbarrier.arrive
    nvvm.mbarrier.arrive %empty : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %empty, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// mbarrier-unarmed: the arrival arms the barrier with the copy's bytes.
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf32, 3> {alignment = 1024}
  memref.global "private" @bar : memref<1xi64, 3> {alignment = 8}
  // CHECK-LABEL: gpu.func @mbarrier_unarmed
  gpu.func @mbarrier_unarmed(%A: memref<128x128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %n = arith.constant 8192 : i32
    %s = memref.get_global @smem : memref<64x32xf32, 3>
    %g = memref.get_global @bar : memref<1xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %g : memref<1xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    // CHECK: tile.tma_copy load
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// store-coords-nonnegative: past the end is fine (dropped), and loads may
// start at negative coordinates (filled).
gpu.module @k {
  memref.global "private" @smem : memref<3x8x16xf32, 3> {alignment = 1024}
  // CHECK-LABEL: gpu.func @store_coords_nonnegative_ok
  gpu.func @store_coords_nonnegative_ok(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c8 = arith.constant 8 : i32
    %c60 = arith.constant 60 : i32
    %cm4 = arith.constant -4 : i32
    %s = memref.get_global @smem : memref<3x8x16xf32, 3>
    // CHECK: tile.tma_copy reduce add tile 2d
    tile.tma_copy reduce add tile 2d %s, %A[%c8, %c60] {box = array<i64: 8, 16>, coord_steps = [array<i64: -4, 0>]} : memref<3x8x16xf32, 3>, memref<64x64xf32>
    // CHECK: tile.tma_copy load tile 2d
    tile.tma_copy load tile 2d %s, %A[%cm4, %cm4] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: -4, 0>]} : memref<3x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// shared-size / coord-range: the largest single-block buffer, and steps that
// stay inside the 32-bit range.
gpu.module @k {
  memref.global "private" @smem : memref<14x64x64xf32, 3> {alignment = 1024}
  // CHECK-LABEL: gpu.func @shared_size_ok
  gpu.func @shared_size_ok(%A: memref<4096x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %cbig = arith.constant 2147483000 : i32
    %s = memref.get_global @smem : memref<14x64x64xf32, 3>
    // CHECK: tile.tma_copy load tile 2d
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 64>, coord_steps = [array<i64: 64, 0>]} : memref<14x64x64xf32, 3>, memref<4096x64xf32>
    // CHECK: tile.tma_copy load tile 2d
    tile.tma_copy load tile 2d %s, %A[%cbig, %c0] mbar(%bar) {box = array<i64: 64, 64>, coord_steps = [array<i64: 40, 0>]} : memref<14x64x64xf32, 3>, memref<4096x64xf32>
    gpu.return
  }
}

// -----

// The valid neighbours of the prefetch, im2col, Blackwell swizzle and packed
// format cases of invalid-*.mlir (same names).
// CHECK-LABEL: gpu.func @shared_operand
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k {
  gpu.func @shared_operand(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    "tile.tma_copy"(%A, %c0, %c0) <{box = array<i64: 8, 16>, direction = #tile<direction prefetch>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 0, 1, 2, 0, 0, 0, 0, 0>, rank = 2 : i32}> : (memref<64x64xf32>, i32, i32) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @shared_operand_load
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @shared_operand_load(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    "tile.tma_copy"(%s, %A, %c0, %c0, %bar) <{box = array<i64: 8, 16>, direction = #tile<direction load>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 1, 0, 0>, rank = 2 : i32}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32, !llvm.ptr<3>) -> ()
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_form
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k {
  gpu.func @prefetch_form(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    tile.tma_copy prefetch tile 2d %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_form_multicast
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k {
  gpu.func @prefetch_form_multicast(%A: memref<64x64xf32>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    tile.tma_copy prefetch tile 2d %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_form_cta_group
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @prefetch_form_cta_group(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    tile.tma_copy prefetch tile 2d %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_form_coord_steps
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k {
  gpu.func @prefetch_form_coord_steps(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    tile.tma_copy prefetch tile 2d %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    tile.tma_copy prefetch tile 2d %A[%c8, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_mbar
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k {
  gpu.func @prefetch_mbar(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    tile.tma_copy prefetch tile 2d %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_opcode_syntax
// CHECK: tile.tma_copy prefetch tile 2d cache_hint %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k {
  gpu.func @prefetch_opcode_syntax(%A: memref<64x64xf32>, %pol: i64) kernel {
    %c0 = arith.constant 0 : i32
    tile.tma_copy "cp.async.bulk.prefetch.tensor.2d.L2.global.tile.L2::cache_hint" %A[%c0, %c0] cache_policy(%pol) {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_opcode_syntax_no_offs
// CHECK: tile.tma_copy prefetch im2col 3d %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<4x64x16xf32>
gpu.module @k {
  gpu.func @prefetch_opcode_syntax_no_offs(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    tile.tma_copy "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col" %A[%c0, %c0, %c0] offsets[%o] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_opcode_syntax_direction
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
gpu.module @k {
  gpu.func @prefetch_opcode_syntax_direction(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    tile.tma_copy "cp.async.bulk.prefetch.tensor.2d.L2.global.tile" %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mode_direction_im2col_store
// CHECK: tile.tma_copy store im2col_no_offs 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_im2col_store(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy store im2col_no_offs 3d %s, %A[%c0, %c0, %c0] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @mode_direction_im2col_no_offs_load
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @mode_direction_im2col_no_offs_load(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_offsets
// CHECK: tile.tma_copy load im2col 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_offsets(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o, %o] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_offsets_w
// CHECK: tile.tma_copy load im2col_w 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_offsets_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_offsets_tile
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_offsets_tile(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_offsets_store
// CHECK: tile.tma_copy store im2col_no_offs 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_offsets_store(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy store im2col_no_offs 3d %s, %A[%c0, %c0, %c0] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_rank
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<8x16xf32, 3>, memref<1x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_rank(%A: memref<1x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 8, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<8x16xf32, 3>, memref<1x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @box_arity_im2col
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @box_arity_im2col(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// pixels_per_column reaches 1024, four times the largest tile box extent.
// CHECK-LABEL: gpu.func @im2col_box
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 1024, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<1024x16xf32, 3>, memref<4x4096x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<1024x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_box(%A: memref<4x4096x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<1024x16xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 1024, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<1024x16xf32, 3>, memref<4x4096x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_box_channels
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 256>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x256xf32, 3>, memref<4x64x512xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x256xf32, 3> {alignment = 1024}
  gpu.func @im2col_box_channels(%A: memref<4x64x512xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x256xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 256>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x256xf32, 3>, memref<4x64x512xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_corners
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_corners(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_corners_arity
// CHECK: tile.tma_copy load im2col 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_arity(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o, %o] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

// The 8-bit corner range of a 4-D im2col map, both ends.
// CHECK-LABEL: gpu.func @im2col_corners_range_4d
// CHECK: tile.tma_copy load im2col 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -128, -1>, pixel_box_upper = array<i64: 127, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_range_4d(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o, %o] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -128, -1>, pixel_box_upper = array<i64: 127, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

// The 5-bit corner range of a 5-D im2col map, both ends.
// CHECK-LABEL: gpu.func @im2col_corners_range_5d
// CHECK: tile.tma_copy load im2col 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -16, -1, -1>, pixel_box_upper = array<i64: 15, 1, 1>} : memref<32x16xbf16, 3>, memref<2x8x8x8x16xbf16>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xbf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_range_5d(%A: memref<2x8x8x8x16xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %s = memref.get_global @smem : memref<32x16xbf16, 3>
    tile.tma_copy load im2col 5d %s, %A[%c0, %c0, %c0, %c0, %c0] offsets[%o, %o, %o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -16, -1, -1>, pixel_box_upper = array<i64: 15, 1, 1>} : memref<32x16xbf16, 3>, memref<2x8x8x8x16xbf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_corners_w
// CHECK: tile.tma_copy load im2col_w 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_corners_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_corners_tile
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_corners_tile(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_layout
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 4>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x4xf32, 3>, memref<4x64x4xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x4xf32, 3> {alignment = 1024}
  gpu.func @im2col_layout(%A: memref<4x64x4xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x4xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 4>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x4xf32, 3>, memref<4x64x4xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_layout_packed
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x64xi8, 3>, memref<4x64x128xi8>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<32x64xi8, 3> {alignment = 1024}
  gpu.func @im2col_layout_packed(%A: memref<4x64x128xi8>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x64xi8, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x64xi8, 3>, memref<4x64x128xi8>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_offset_range
// CHECK: tile.tma_copy load im2col 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_offset_range(%A: memref<2x16x16x32xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %big = arith.constant 255 : i16
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    tile.tma_copy load im2col 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%o, %big] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_offset_range_5d
// CHECK: tile.tma_copy load im2col 5d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1, -1, -1>, pixel_box_upper = array<i64: 1, 1, 1>} : memref<32x16xbf16, 3>, memref<2x8x8x8x16xbf16>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xbf16, 3> {alignment = 1024}
  gpu.func @im2col_offset_range_5d(%A: memref<2x8x8x8x16xbf16>, %bar: !llvm.ptr<3>, %x: i16) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 1 : i16
    %top = arith.constant 31 : i16
    %s = memref.get_global @smem : memref<32x16xbf16, 3>
    tile.tma_copy load im2col 5d %s, %A[%c0, %c0, %c0, %c0, %c0] offsets[%top, %o, %x] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1, -1, -1>, pixel_box_upper = array<i64: 1, 1, 1>} : memref<32x16xbf16, 3>, memref<2x8x8x8x16xbf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_offset_range_w
// CHECK: tile.tma_copy load im2col_w 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_offset_range_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 31 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

// wHalo sizes the image (box[0] + wHalo pixels); wOffset may be a runtime value.
// CHECK-LABEL: gpu.func @im2col_w_halo
// CHECK: tile.tma_copy load im2col_w 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_halo(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>, %w: i16) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_w_halo_range
// CHECK: tile.tma_copy load im2col_w 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<543x64xf16, 3>, memref<2x16x64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<543x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_halo_range(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 511 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<543x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<543x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_w_halo_128
// CHECK: tile.tma_copy load im2col_w_128 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<128x64xf16, 3>, memref<2x16x256x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<128x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_halo_128(%A: memref<2x16x256x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 0 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<128x64xf16, 3>
    tile.tma_copy load im2col_w_128 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<128x64xf16, 3>, memref<2x16x256x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_w_swizzle
// CHECK: tile.tma_copy load im2col_w 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 4 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_swizzle(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 4 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_store_box
// CHECK: tile.tma_copy store im2col_no_offs 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_store_box(%A: memref<4x64x16xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy store im2col_no_offs 3d %s, %A[%c0, %c0, %c0] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @im2col_store_box_upper
// CHECK: tile.tma_copy reduce add im2col_no_offs 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, -2>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf16, 3> {alignment = 1024}
  gpu.func @im2col_store_box_upper(%A: memref<2x16x16x32xf16>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x32xf16, 3>
    tile.tma_copy reduce add im2col_no_offs 4d %s, %A[%c0, %c0, %c0, %c0] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, -2>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @box_within_dim_im2col
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @box_within_dim_im2col(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// im2col element strides step the traversal: the image stays
// [pixels_per_column, channels_per_pixel].
// CHECK-LABEL: gpu.func @shared_suffix_im2col
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 16>, element_strides = array<i64: 1, 2, 1>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
gpu.module @k {
  memref.global "private" @smem : memref<32x16xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix_im2col(%A: memref<4x64x16xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<32x16xf32, 3>
    tile.tma_copy load im2col 3d %s, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 32, 16>, element_strides = array<i64: 1, 2, 1>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<32x16xf32, 3>, memref<4x64x16xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm100_im2col_w
// CHECK: tile.tma_copy load im2col_w 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<34x64xf16, 3> {alignment = 1024}
  gpu.func @target_sm100_im2col_w(%A: memref<2x16x64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 2 : i16
    %w = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<34x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets[%h, %w] mbar(%bar) {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<34x64xf16, 3>, memref<2x16x64x64xf16>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm100_swizzle
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 32>, swizzle = 4 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @target_sm100_swizzle(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 4 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_sm100_fp6
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @target_sm100_fp6(%A: memref<8x128xf6E2M3FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @swizzle_load_only
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 32>, swizzle = 4 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_load_only(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 32>, swizzle = 4 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @swizzle_load_only_reduce
// CHECK: tile.tma_copy reduce add tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 32>, swizzle = 6 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_load_only_reduce(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    tile.tma_copy reduce add tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 32>, swizzle = 6 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @swizzle_inner_bytes_atom
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 32>, swizzle = 6 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_inner_bytes_atom(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 6 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @packed_reduce
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x32xi8, 3>, memref<8x64xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xi8, 3> {alignment = 1024}
  gpu.func @packed_reduce(%A: memref<8x64xf4E2M1FN>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xi8, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x32xi8, 3>, memref<8x64xf4E2M1FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @packed_inner_box_fp6
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf6E3M2FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_box_fp6(%A: memref<8x128xf6E3M2FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x128xf6E3M2FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @packed_inner_box_align8b
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x32xi8, 3>, memref<8x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x32xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_box_align8b(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x32xi8, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// float6_align16b stores may use swizzle 6 (loads may not).
// CHECK-LABEL: gpu.func @packed_swizzle_fp6_load
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, swizzle = 4 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 128>, swizzle = 6 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @packed_swizzle_fp6_load(%A: memref<8x128xf6E2M3FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, swizzle = 4 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 128>, swizzle = 6 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @packed_inner_dim_fp6
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf6E2M3FN, strided<[256, 1]>>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_dim_fp6(%A: memref<8x256xf6E2M3FN, strided<[256, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<8x256xf6E2M3FN, strided<[256, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @packed_inner_dim_align8b
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 32>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x16xi8, 3>, memref<8x62xf4E2M1FN, strided<[64, 1]>>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x16xi8, 3> {alignment = 1024}
  gpu.func @packed_inner_dim_align8b(%A: memref<8x62xf4E2M1FN, strided<[64, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, format = #tile<format float4_e2m1fn_align8b>} : memref<8x16xi8, 3>, memref<8x62xf4E2M1FN, strided<[64, 1]>>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @format_match_fp6
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, format = #tile<format float6_align16b>} : memref<8x128xi8, 3>, memref<64x128xf6E2M3FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @format_match_fp6(%A: memref<64x128xf6E2M3FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, format = #tile<format float6_align16b>} : memref<8x128xi8, 3>, memref<64x128xf6E2M3FN>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @prefetch_tensormap_tag
// CHECK: tile.prefetch_tensormap "loads"
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, tag = "loads"} : memref<8x16xf32, 3>, memref<64x64xf32>
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @prefetch_tensormap_tag(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.prefetch_tensormap "loads"
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, tag = "loads"} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Prefetch of a box into L2 (no shared side, no completion): tile and im2col,
// in the keyword, PTX and generic spellings, with the L2 cache hint.
// CHECK-LABEL: gpu.func @prefetch_forms
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
// CHECK: tile.tma_copy prefetch tile 2d cache_hint %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>, l2_promotion = 2 : i32} : memref<64x64xf32>
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : memref<64x64xf32>
// CHECK: tile.tma_copy prefetch tile 2d cache_hint %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<64x64xf32>
// CHECK: tile.tma_copy prefetch tile 2d cache_hint %{{.*}}[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 8, 16>} : memref<64x64xf32>
// CHECK: tile.tma_copy prefetch im2col 3d %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>} : memref<4x64x16xf32>
// CHECK: tile.tma_copy prefetch im2col 3d cache_hint %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>} : memref<4x64x16xf32>
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>} : !llvm.ptr
// CHECK: tile.tma_copy prefetch tile 2d %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>, format = #tile<format float32>} : !llvm.ptr
gpu.module @k {
  gpu.func @prefetch_forms(%A: memref<64x64xf32>, %I: memref<4x64x16xf32>, %map: !llvm.ptr, %pol: i64, %x: i32) kernel {
    %c0 = arith.constant 0 : i32
    %o = arith.constant 3 : i16
    tile.tma_copy prefetch tile 2d %A[%c0, %x] {box = array<i64: 8, 16>} : memref<64x64xf32>
    tile.tma_copy prefetch tile 2d cache_hint %A[%c0, %c0] cache_policy(%pol) {box = array<i64: 8, 16>, l2_promotion = 2 : i32} : memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.prefetch.tensor.2d.L2.global.tile" %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.prefetch.tensor.2d.L2.global.L2::cache_hint" %A[%c0, %c0] cache_policy(%pol) {box = array<i64: 8, 16>} : memref<64x64xf32>
    "tile.tma_copy"(%A, %c0, %c0, %pol) <{box = array<i64: 8, 16>, cache_hint, direction = #tile<direction prefetch>, mode = #tile<mode tile>, operandSegmentSizes = array<i32: 0, 1, 2, 0, 0, 0, 0, 1>, rank = 2 : i32}> : (memref<64x64xf32>, i32, i32, i64) -> ()
    tile.tma_copy prefetch im2col 3d %I[%c0, %c0, %c0] offsets[%o] {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>} : memref<4x64x16xf32>
    tile.tma_copy "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col.L2::cache_hint" %I[%c0, %c0, %c0] offsets[%o] cache_policy(%pol) {box = array<i64: 32, 16>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>} : memref<4x64x16xf32>
    tile.tma_copy prefetch tile 2d %map[%c0, %c0] {box = array<i64: 8, 16>} : !llvm.ptr
    tile.tma_copy prefetch tile 2d %map[%c0, %x] {box = array<i64: 8, 16>, format = #tile<format float32>} : !llvm.ptr
    gpu.return
  }
}

// -----

// Prefetch in the sm_100 W-only im2col forms and with the gather4 rows.
// CHECK-LABEL: gpu.func @prefetch_forms_sm100
// CHECK: tile.tma_copy prefetch im2col_w 4d %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -2>, pixel_box_upper = array<i64: 2>, swizzle = 3 : i32} : memref<2x16x64x64xf16>
// CHECK: tile.tma_copy prefetch im2col_w_128 4d cache_hint %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 4 : i32} : memref<2x16x64x64xf16>
// CHECK: tile.tma_copy prefetch gather4 2d %{{.*}}[%{{.*}}, %{{.*}}] rows[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 1, 32>} : memref<64x64xf32>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  gpu.func @prefetch_forms_sm100(%A: memref<2x16x64x64xf16>, %G: memref<64x64xf32>, %pol: i64) kernel {
    %c0 = arith.constant 0 : i32
    %r1 = arith.constant 3 : i32
    %h = arith.constant 4 : i16
    %w = arith.constant 1 : i16
    tile.tma_copy prefetch im2col_w 4d %A[%c0, %c0, %c0, %c0] offsets[%h, %w] {box = array<i64: 32, 64>, pixel_box_lower = array<i64: -2>, pixel_box_upper = array<i64: 2>, swizzle = 3 : i32} : memref<2x16x64x64xf16>
    tile.tma_copy "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w::128.L2::cache_hint" %A[%c0, %c0, %c0, %c0] offsets[%h, %w] cache_policy(%pol) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 4 : i32} : memref<2x16x64x64xf16>
    tile.tma_copy "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4" %G[%c0, %c0] rows[%c0, %r1, %r1, %c0] {box = array<i64: 1, 32>} : memref<64x64xf32>
    gpu.return
  }
}

// -----

// im2col loads of every rank: 3-D (N, W, C) with a 16-bit offset, 4-D
// (N, H, W, C) and 5-D (N, D, H, W, C) with their offsets; with swizzles,
// element strides, multicast, the cache hint and the PTX spelling.
// CHECK-LABEL: gpu.func @im2col_loads
// CHECK: tile.tma_copy load im2col 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -32768>, pixel_box_upper = array<i64: 32767>, swizzle = 2 : i32} : memref<64x32xf16, 3>, memref<8x1024x32xf16>
// CHECK: tile.tma_copy load im2col 3d cluster multicast cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}] mbar(%{{.*}}) cta_mask(%{{.*}}) cache_policy(%{{.*}}) {box = array<i64: 64, 32>, element_strides = array<i64: 1, 2, 1>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: -4>} : memref<64x32xf16, 3>, memref<8x1024x32xf16>
// CHECK: tile.tma_copy load im2col 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 64>, coord_steps = [array<i64: 0, 0, 0, 64>], element_strides = array<i64: 1, 2, 2, 1>, oob_fill = 1 : i32, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>, swizzle = 3 : i32} : memref<2x32x64xbf16, 3>, memref<2x16x16x64xbf16>
// CHECK: tile.tma_copy load im2col 5d cluster %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 16, 8>, pixel_box_lower = array<i64: -16, 0, -1>, pixel_box_upper = array<i64: 15, 0, 1>, swizzle = 1 : i32} : memref<16x8xf32, 3>, memref<2x8x8x8x8xf32>
gpu.module @k {
  memref.global "private" @s3 : memref<64x32xf16, 3> {alignment = 1024}
  memref.global "private" @s4 : memref<2x32x64xbf16, 3> {alignment = 1024}
  memref.global "private" @s5 : memref<16x8xf32, 3> {alignment = 1024}
  gpu.func @im2col_loads(%A: memref<8x1024x32xf16>, %B: memref<2x16x16x64xbf16>, %C: memref<2x8x8x8x8xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %x: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    %o = arith.constant 1000 : i16
    %o1 = arith.constant 1 : i16
    %o7 = arith.constant 7 : i16
    %s3 = memref.get_global @s3 : memref<64x32xf16, 3>
    %s4 = memref.get_global @s4 : memref<2x32x64xbf16, 3>
    %s5 = memref.get_global @s5 : memref<16x8xf32, 3>
    tile.tma_copy load im2col 3d %s3, %A[%c0, %c0, %c0] offsets[%o] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -32768>, pixel_box_upper = array<i64: 32767>, swizzle = 2 : i32} : memref<64x32xf16, 3>, memref<8x1024x32xf16>
    tile.tma_copy "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint" %s3, %A[%c0, %c0, %c0] offsets[%x] mbar(%bar) cta_mask(%mask) cache_policy(%pol) {box = array<i64: 64, 32>, element_strides = array<i64: 1, 2, 1>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: -4>} : memref<64x32xf16, 3>, memref<8x1024x32xf16>
    tile.tma_copy load im2col 4d %s4, %B[%c0, %c0, %c0, %c0] offsets[%o1, %o7] mbar(%bar) {box = array<i64: 32, 64>, coord_steps = [array<i64: 0, 0, 0, 64>], element_strides = array<i64: 1, 2, 2, 1>, oob_fill = 1 : i32, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>, swizzle = 3 : i32} : memref<2x32x64xbf16, 3>, memref<2x16x16x64xbf16>
    tile.tma_copy load im2col 5d cluster %s5, %C[%c0, %c0, %c0, %c0, %c8] offsets[%o1, %o1, %o7] mbar(%bar) {box = array<i64: 16, 8>, pixel_box_lower = array<i64: -16, 0, -1>, pixel_box_upper = array<i64: 15, 0, 1>, swizzle = 1 : i32} : memref<16x8xf32, 3>, memref<2x8x8x8x8xf32>
    gpu.return
  }
}

// -----

// The sm_100 W-only im2col loads: im2col_w moves box[0] + wHalo pixels,
// im2col_w_128 four groups of 32 + wHalo; swizzles 2, 3 and 4.
// CHECK-LABEL: gpu.func @im2col_w_loads
// CHECK: tile.tma_copy load im2col_w 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 32>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 2 : i32} : memref<40x32xf16, 3>, memref<4x256x32xf16>
// CHECK: tile.tma_copy load im2col_w 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 32>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 2 : i32} : memref<40x32xf16, 3>, memref<4x256x32xf16>
// CHECK: tile.tma_copy load im2col_w_128 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<136x64xf16, 3>, memref<2x16x256x64xf16>
// CHECK: tile.tma_copy load im2col_w_128 4d cluster cta_group(2) %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 4 : i32} : memref<136x64xf16, 3>, memref<2x16x256x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @w : memref<40x32xf16, 3> {alignment = 1024}
  memref.global "private" @w128 : memref<136x64xf16, 3> {alignment = 1024}
  gpu.func @im2col_w_loads(%A: memref<2x16x256x64xf16>, %B: memref<4x256x32xf16>, %bar: !llvm.ptr<3>, %wo: i16) kernel {
    %c0 = arith.constant 0 : i32
    %h8 = arith.constant 8 : i16
    %h2 = arith.constant 2 : i16
    %w0 = arith.constant 0 : i16
    %w = memref.get_global @w : memref<40x32xf16, 3>
    %w128 = memref.get_global @w128 : memref<136x64xf16, 3>
    tile.tma_copy load im2col_w 3d %w, %B[%c0, %c0, %c0] offsets[%h8, %wo] mbar(%bar) {box = array<i64: 32, 32>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 2 : i32} : memref<40x32xf16, 3>, memref<4x256x32xf16>
    tile.tma_copy "cp.async.bulk.tensor.3d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes" %w, %B[%c0, %c0, %c0] offsets[%h8, %w0] mbar(%bar) {box = array<i64: 32, 32>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 2 : i32} : memref<40x32xf16, 3>, memref<4x256x32xf16>
    tile.tma_copy load im2col_w_128 4d %w128, %A[%c0, %c0, %c0, %c0] offsets[%h2, %wo] mbar(%bar) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: 1>, swizzle = 3 : i32} : memref<136x64xf16, 3>, memref<2x16x256x64xf16>
    tile.tma_copy "cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w::128.mbarrier::complete_tx::bytes.cta_group::2" %w128, %A[%c0, %c0, %c0, %c0] offsets[%h2, %w0] mbar(%bar) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 4 : i32} : memref<136x64xf16, 3>, memref<2x16x256x64xf16>
    gpu.return
  }
}

// -----

// Stores and reductions through an im2col map (im2col_no_offs): the bounding
// box stays inside the tensor.
// CHECK-LABEL: gpu.func @im2col_no_offs_forms
// CHECK: tile.tma_copy store im2col_no_offs 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 1>, pixel_box_upper = array<i64: -1, 0>, swizzle = 2 : i32} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
// CHECK: tile.tma_copy store im2col_no_offs 4d cache_hint %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, 0>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
// CHECK: tile.tma_copy reduce add im2col_no_offs 3d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 32, 16>, coord_steps = [array<i64: 0, 32, 0>], pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<2x32x16xf32, 3>, memref<4x64x16xf32>
// CHECK: tile.tma_copy reduce max im2col_no_offs 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, 0>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
gpu.module @k {
  memref.global "private" @s : memref<64x32xf16, 3> {alignment = 1024}
  memref.global "private" @r : memref<2x32x16xf32, 3> {alignment = 1024}
  gpu.func @im2col_no_offs_forms(%A: memref<2x16x16x32xf16>, %B: memref<4x64x16xf32>, %pol: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @s : memref<64x32xf16, 3>
    %r = memref.get_global @r : memref<2x32x16xf32, 3>
    tile.tma_copy store im2col_no_offs 4d %s, %A[%c0, %c0, %c0, %c0] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 1>, pixel_box_upper = array<i64: -1, 0>, swizzle = 2 : i32} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    tile.tma_copy "cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group.L2::cache_hint" %s, %A[%c0, %c0, %c0, %c0] cache_policy(%pol) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, 0>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    tile.tma_copy reduce add im2col_no_offs 3d %r, %B[%c0, %c0, %c0] {box = array<i64: 32, 16>, coord_steps = [array<i64: 0, 32, 0>], pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>} : memref<2x32x16xf32, 3>, memref<4x64x16xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.4d.global.shared::cta.max.im2col_no_offs.bulk_group" %s, %A[%c0, %c0, %c0, %c0] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, 0>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    gpu.return
  }
}

// -----

// The sm_100 swizzles with 128-byte spans: 4 (32B atoms), 5 (32B atoms
// flipped per 8B, loads only) and 6 (64B atoms); a shorter row is padded to
// the span.
// CHECK-LABEL: gpu.func @swizzle_atoms
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 64>, swizzle = 4 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 64>, swizzle = 5 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
// CHECK: tile.tma_copy load tile 2d cluster %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 64>, swizzle = 6 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, swizzle = 5 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 64>, swizzle = 6 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @full : memref<8x64xf16, 3> {alignment = 1024}
  memref.global "private" @pad : memref<8x32xf32, 3> {alignment = 1024}
  gpu.func @swizzle_atoms(%A: memref<64x64xf16>, %B: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %full = memref.get_global @full : memref<8x64xf16, 3>
    %pad = memref.get_global @pad : memref<8x32xf32, 3>
    tile.tma_copy load tile 2d %full, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 64>, swizzle = 4 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
    tile.tma_copy load tile 2d %full, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 64>, swizzle = 5 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
    tile.tma_copy load tile 2d cluster %full, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 64>, swizzle = 6 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
    tile.tma_copy load tile 2d %pad, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 5 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %full, %A[%c0, %c0] {box = array<i64: 8, 64>, swizzle = 6 : i32} : memref<8x64xf16, 3>, memref<64x64xf16>
    gpu.return
  }
}

// -----

// Packed fp4 with 8-byte groups (16U4_ALIGN8B): an even inner box, its image
// the packed bytes; it loads and stores.
// CHECK-LABEL: gpu.func @fp4_align8b
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 16, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<16x32xi8, 3>, memref<64x128xf4E2M1FN>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 16, 64>, format = #tile<format float4_e2m1fn_align8b>, swizzle = 1 : i32} : memref<16x32xi8, 3>, memref<64x128xf4E2M1FN>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 16, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<16x32xi8, 3>, memref<64x128xf4E2M1FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @s : memref<16x32xi8, 3> {alignment = 1024}
  gpu.func @fp4_align8b(%A: memref<64x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %s = memref.get_global @s : memref<16x32xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c32] mbar(%bar) {box = array<i64: 16, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<16x32xi8, 3>, memref<64x128xf4E2M1FN>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 16, 64>, format = #tile<format float4_e2m1fn_align8b>, swizzle = 1 : i32} : memref<16x32xi8, 3>, memref<64x128xf4E2M1FN>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %s, %A[%c0, %c32] {box = array<i64: 16, 64>, format = #tile<format float4_e2m1fn_align8b>} : memref<16x32xi8, 3>, memref<64x128xf4E2M1FN>
    gpu.return
  }
}

// -----

// Packed fp6 (16U6_ALIGN16B) for both fp6 types: inner box 128, each group of
// 16 elements padded to 16 bytes in shared memory; loads and stores.
// CHECK-LABEL: gpu.func @fp6_align16b
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<64x256xf6E2M3FN>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 128>, format = #tile<format float6_align16b>, swizzle = 3 : i32} : memref<8x128xi8, 3>, memref<64x128xf6E3M2FN>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<64x256xf6E2M3FN>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 128>, swizzle = 6 : i32} : memref<8x128xi8, 3>, memref<64x128xf6E3M2FN>
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @s : memref<8x128xi8, 3> {alignment = 1024}
  gpu.func @fp6_align16b(%A: memref<64x256xf6E2M3FN>, %B: memref<64x128xf6E3M2FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %s = memref.get_global @s : memref<8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c128] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<64x256xf6E2M3FN>
    tile.tma_copy load tile 2d %s, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, format = #tile<format float6_align16b>, swizzle = 3 : i32} : memref<8x128xi8, 3>, memref<64x128xf6E3M2FN>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 128>} : memref<8x128xi8, 3>, memref<64x256xf6E2M3FN>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %s, %B[%c0, %c0] {box = array<i64: 8, 128>, swizzle = 6 : i32} : memref<8x128xi8, 3>, memref<64x128xf6E3M2FN>
    gpu.return
  }
}

// -----

// Prefetch the tensor maps of the tagged copies (before or after them).
// CHECK-LABEL: gpu.func @prefetch_tensormap
// CHECK: tile.prefetch_tensormap "loads"
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, tag = "loads"} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, tag = "loads"} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 16>, tag = "out"} : memref<8x16xf32, 3>, memref<64x64xf32>
// CHECK: tile.prefetch_tensormap "out"
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @prefetch_tensormap(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.prefetch_tensormap "loads"
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, tag = "loads"} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, tag = "loads"} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %s, %B[%c0, %c0] {box = array<i64: 8, 16>, tag = "out"} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.prefetch_tensormap "out"
    gpu.return
  }
}

// -----

// Tensor maps derived on the device (tile.tensormap_derive).

// CHECK-LABEL: gpu.func @derive_field_arity
// CHECK: tile.tensormap_derive %{{.*}} into %{{.*}} new_dims(%{{.*}}, %{{.*}}) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
gpu.module @k {
  gpu.func @derive_field_arity(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %rows: i32, %cols: i32) kernel {
    %m = tile.tensormap_derive %T into %dest new_dims(%rows, %cols) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @derive_destination
// CHECK: tile.tensormap_derive %{{.*}} into %{{.*}} new_dims(%{{.*}}, %{{.*}}) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr -> !llvm.ptr<1>
gpu.module @k {
  gpu.func @derive_destination(%T: memref<64x128xbf16>, %dest: !llvm.ptr, %rows: i32, %cols: i32) kernel {
    %m = tile.tensormap_derive %T into %dest new_dims(%rows, %cols) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @derived_map_mismatch
// CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 32, 128>} : memref<32x128xbf16, 3>, !llvm.ptr<1>
gpu.module @k {
  memref.global "private" @smem : memref<32x128xbf16, 3> {alignment = 1024}
  gpu.func @derived_map_mismatch(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<32x128xbf16, 3>
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_box = array<i64: 32, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 32, 128>} : memref<32x128xbf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @target_tensormap_replace
// CHECK: tile.tensormap_derive %{{.*}} into %{{.*}} new_address(%{{.*}} : i64) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  gpu.func @target_tensormap_replace(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %p: i64) kernel {
    %m = tile.tensormap_derive %T into %dest new_address(%p : i64) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}
