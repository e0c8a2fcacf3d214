// RUN: tile-opt %s -split-input-file --tile-lower-tma | FileCheck %s

// im2col, prefetch and tensor-map prefetch lowering: coordinates and im2col
// offsets innermost-first (offsets given (h, w) become (w, h)), the
// wHalo/wOffset pair as written, a prefetch sharing the load's map (same
// descriptor fields, same mode), the store's im2col_no_offs as NVVM's im2col
// store mode, and prefetch.tensormap on the map parameter of the tagged copy.

// CHECK-LABEL: gpu.func @conv(
// CHECK-SAME: %[[A:[^:]+]]: memref<2x6x6x32xf16>
// CHECK-SAME: %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}
// CHECK-SAME: %[[MAP2:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 3, source = 0, mode = im2col, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 2, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-2, -1], pixel_box_upper = [-1, 0], channels_per_pixel = 32, pixels_per_column = 16, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>,
// CHECK-SAME: #tile.tensor_map_spec<param = 4, source = 0, mode = im2col_no_offs, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [0, 0], pixel_box_upper = [-1, 0], channels_per_pixel = 32, pixels_per_column = 16, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>]
// CHECK: nvvm.prefetch tensormap, %[[MAP]] : !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[MAP]], %{{.*}}, box[%[[C:.*]], %[[W:.*]], %[[H:.*]], %[[N:.*]]] im2col[%[[OW:.*]], %[[OH:.*]]] {isCTAOnly = true, mode = #nvvm.tma_load_mode<im2col>}
// CHECK: nvvm.cp.async.bulk.tensor.prefetch %[[MAP]], box[%[[C]], %[[W]], %[[H]], %[[N]]] im2col[%[[OW]], %[[OH]]] {mode = #nvvm.tma_load_mode<im2col>}
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP2]], %{{.*}}, box[{{.*}}] {mode = #nvvm.tma_store_mode<im2col>}
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<16x32xf16, 3> {alignment = 1024}
  gpu.func @conv(%A: memref<2x6x6x32xf16>, %bar: !llvm.ptr<3>, %n: i32) kernel {
    %c0 = arith.constant 0 : i32
    %h = arith.constant 1 : i16
    %w = arith.constant 2 : i16
    %s = memref.get_global @smem : memref<16x32xf16, 3>
    tile.prefetch_tensormap "conv"
    tile.tma_copy load im2col 4d %s, %A[%n, %c0, %c0, %c0] offsets [%h, %w] mbar(%bar) {box = array<i64: 16, 32>, pixel_box_lower = array<i64: -1, -2>, pixel_box_upper = array<i64: 0, -1>, element_strides = array<i64: 1, 1, 2, 1>, tag = "conv"} : memref<16x32xf16, 3>, memref<2x6x6x32xf16>
    tile.tma_copy prefetch im2col 4d %A[%n, %c0, %c0, %c0] offsets [%h, %w] {box = array<i64: 16, 32>, pixel_box_lower = array<i64: -1, -2>, pixel_box_upper = array<i64: 0, -1>, element_strides = array<i64: 1, 1, 2, 1>} : memref<2x6x6x32xf16>
    tile.tma_copy store im2col_no_offs 4d %s, %A[%c0, %c0, %c0, %c0] {box = array<i64: 16, 32>, pixel_box_lower = array<i64: 0, 0>, pixel_box_upper = array<i64: 0, -1>} : memref<16x32xf16, 3>, memref<2x6x6x32xf16>
    gpu.return
  }
}

// -----

// The W-only forms (sm_100a): (wHalo, wOffset) as written, the Wide encode
// with wide_mode 0 / 1 and one W corner each; im2col_w with wHalo 2 images
// 64 + 2 pixel rows.

// CHECK-LABEL: gpu.func @wide(
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 2, source = 0, mode = im2col_w, encode = im2col_wide, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [64, 64], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 3, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1], pixel_box_upper = [-1], channels_per_pixel = 64, pixels_per_column = 64, wide_mode = 0, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>,
// CHECK-SAME: #tile.tensor_map_spec<param = 3, source = 0, mode = im2col_w_128, encode = im2col_wide, {{.*}}, pixels_per_column = 128, wide_mode = 1, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>]
// CHECK: %[[HALO:.*]] = arith.constant 2 : i16
// CHECK: %[[OFF:.*]] = arith.constant 1 : i16
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} im2col[%[[HALO]], %[[OFF]]] {isCTAOnly = true, mode = #nvvm.tma_load_mode<im2col_w>}
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} {isCTAOnly = true, mode = #nvvm.tma_load_mode<im2col_w_128>}
gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @w : memref<66x64xf16, 3> {alignment = 1024}
  memref.global "private" @w128 : memref<128x64xf16, 3> {alignment = 1024}
  gpu.func @wide(%A: memref<2x8x128x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %halo = arith.constant 2 : i16
    %off = arith.constant 1 : i16
    %zero = arith.constant 0 : i16
    %s = memref.get_global @w : memref<66x64xf16, 3>
    %t = memref.get_global @w128 : memref<128x64xf16, 3>
    tile.tma_copy load im2col_w 4d %s, %A[%c0, %c0, %c0, %c0] offsets [%halo, %off] mbar(%bar) {box = array<i64: 64, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: -1>, swizzle = 3 : i32} : memref<66x64xf16, 3>, memref<2x8x128x64xf16>
    tile.tma_copy load im2col_w_128 4d %t, %A[%c0, %c0, %c0, %c0] offsets [%zero, %off] mbar(%bar) {box = array<i64: 128, 64>, pixel_box_lower = array<i64: -1>, pixel_box_upper = array<i64: -1>, swizzle = 4 : i32} : memref<128x64xf16, 3>, memref<2x8x128x64xf16>
    gpu.return
  }
}
