// RUN: tile-opt %s | tile-opt | FileCheck %s

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x8x16xui32, 3> {alignment = 128}
  // CHECK-LABEL: gpu.func @seed
  gpu.func @seed(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xui32, 3>
    // CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    gpu.return
  }
}

gpu.module @k2 [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @img : memref<64x32xf16, 3> {alignment = 128}
  memref.global "private" @wimg : memref<136x64xf16, 3> {alignment = 1024}
  memref.global "private" @fp6 : memref<8x128xi8, 3> {alignment = 1024}
  // CHECK-LABEL: gpu.func @blackwell_forms
  gpu.func @blackwell_forms(%A: memref<2x16x16x32xf16>, %W: memref<2x16x256x64xf16>, %F: memref<8x128xf6E2M3FN>, %bar: !llvm.ptr<3>, %pol: i64) kernel {
    %c0 = arith.constant 0 : i32
    %o1 = arith.constant 1 : i16
    %h2 = arith.constant 2 : i16
    %s = memref.get_global @img : memref<64x32xf16, 3>
    %w = memref.get_global @wimg : memref<136x64xf16, 3>
    %f = memref.get_global @fp6 : memref<8x128xi8, 3>
    // CHECK: tile.prefetch_tensormap "in"
    tile.prefetch_tensormap "in"
    // CHECK: tile.tma_copy prefetch im2col 4d cache_hint %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] cache_policy(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<2x16x16x32xf16>
    tile.tma_copy "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col.L2::cache_hint" %A[%c0, %c0, %c0, %c0] offsets[%o1, %o1] cache_policy(%pol) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>} : memref<2x16x16x32xf16>
    // CHECK: tile.tma_copy load im2col 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>, tag = "in"} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    tile.tma_copy "cp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0, %c0, %c0] offsets[%o1, %o1] mbar(%bar) {box = array<i64: 64, 32>, pixel_box_lower = array<i64: -1, -1>, pixel_box_upper = array<i64: 1, 1>, tag = "in"} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    // CHECK: tile.tma_copy load im2col_w_128 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] offsets[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 4 : i32} : memref<136x64xf16, 3>, memref<2x16x256x64xf16>
    tile.tma_copy "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w::128.mbarrier::complete_tx::bytes" %w, %W[%c0, %c0, %c0, %c0] offsets[%h2, %o1] mbar(%bar) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: 0>, pixel_box_upper = array<i64: 0>, swizzle = 4 : i32} : memref<136x64xf16, 3>, memref<2x16x256x64xf16>
    // CHECK: tile.tma_copy reduce add im2col_no_offs 4d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, 0>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    tile.tma_copy "cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.im2col_no_offs.bulk_group" %s, %A[%c0, %c0, %c0, %c0] {box = array<i64: 64, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, 0>} : memref<64x32xf16, 3>, memref<2x16x16x32xf16>
    // CHECK: tile.tma_copy store tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {box = array<i64: 8, 128>, swizzle = 6 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
    tile.tma_copy store tile 2d %f, %F[%c0, %c0] {box = array<i64: 8, 128>, swizzle = 6 : i32} : memref<8x128xi8, 3>, memref<8x128xf6E2M3FN>
    gpu.return
  }
}
