// RUN: tile-opt %s -split-input-file --tile-lower-tma-host --verify-diagnostics | FileCheck %s

// im2col maps: cuTensorMapEncodeIm2col gets the corners as two i32 arrays
// (innermost-first, as the spec holds them), then channelsPerPixel and
// pixelsPerColumn, then the element strides and the four enums; only the
// channels bound a dimension (box-within-dim on C). The W-only forms call
// cuTensorMapEncodeIm2colWide with the W corners by value and the mode
// (0 = W, 1 = W128) between interleave and swizzle.

// CHECK-DAG: llvm.func @cuTensorMapEncodeIm2col(!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, i32, i32, i32, i32) -> i32
// CHECK-LABEL: func.func @nhwc(
// CHECK: llvm.store %c-2_i32, %{{.*}} : i32, !llvm.ptr
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %c-1_i32, %{{.*}} : i32, !llvm.ptr
// CHECK: llvm.getelementptr
// CHECK-NEXT: llvm.store %c-1_i32, %{{.*}} : i32, !llvm.ptr
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: llvm.store %c0_i32, %{{.*}} : i32, !llvm.ptr
// CHECK: llvm.call @cuTensorMapEncodeIm2col(%{{.*}}, %c6_i32, %c4_i32, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c32_i32, %c16_i32, %{{.*}}, %c0_i32, %c0_i32, %c0_i32, %c0_i32)
// CHECK-NOT: cuTensorMapEncodeTiled(
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @nhwc(%A: memref<2x6x6x32xf16>) {
    %c1 = arith.constant 1 : index
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = im2col, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 2, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-2, -1], pixel_box_upper = [-1, 0], channels_per_pixel = 32, pixels_per_column = 16, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<2x6x6x32xf16> -> !llvm.ptr
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<2x6x6x32xf16>, %map : !llvm.ptr)
    return
  }
}

// -----

// CHECK-DAG: llvm.func @cuTensorMapEncodeIm2colWide(!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32, !llvm.ptr, i32, i32, i32, i32, i32) -> i32
// CHECK-LABEL: func.func @wide(
// CHECK: llvm.call @cuTensorMapEncodeIm2colWide(%{{.*}}, %c6_i32, %c4_i32, %{{.*}}, %{{.*}}, %{{.*}}, %c-1_i32, %c-1_i32, %c64_i32, %c128_i32, %{{.*}}, %c0_i32, %c1_i32, %c4_i32, %c0_i32, %c0_i32)
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @wide(%A: memref<2x8x128x64xf16>) {
    %c1 = arith.constant 1 : index
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = im2col_w_128, encode = im2col_wide, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [64, 128], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 4, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1], pixel_box_upper = [-1], channels_per_pixel = 64, pixels_per_column = 128, wide_mode = 1, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<2x8x128x64xf16> -> !llvm.ptr
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<2x8x128x64xf16>, %map : !llvm.ptr)
    return
  }
}

// -----

// Channels larger than C: a compile-time box-within-dim error.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @channels(%A: memref<2x6x6x16xf16>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{[box-within-dim] argument 0 of @kernels::@k: box extent 32 is larger than dimension 16 (innermost-first index 0)}}
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = im2col, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1, -1], pixel_box_upper = [-1, -1], channels_per_pixel = 32, pixels_per_column = 16, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<2x6x6x16xf16> -> !llvm.ptr
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<2x6x6x16xf16>, %map : !llvm.ptr)
    return
  }
}
