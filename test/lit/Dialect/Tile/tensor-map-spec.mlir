// RUN: tile-opt %s | tile-opt | FileCheck %s

// #tile.tensor_map_spec round-trips; fields parse in any order, and the
// optional ones (param, llvm_param, the im2col fields) print only when set.

// CHECK-LABEL: func.func @tiled
// CHECK: tile.spec = #tile.tensor_map_spec<param = 2, llvm_param = 14, source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>
func.func @tiled() attributes {tile.spec = #tile.tensor_map_spec<packing = [1, 1], inner_multiple = 1, stride_alignment = 16, base_alignment = 16, bytes = 128, oob_fill = 0, l2_promotion = 0, swizzle = 0, interleave = 0, element_strides = [1, 1], box = [16, 8], global_rank = 2, rank = 2, elem_bits = 32, data_type = 2, format = uint32, encode = tiled, mode = tile, source = 0, llvm_param = 14, param = 2>} {
  return
}

// No parameter yet (as buildTensorMapSpec makes it), interleave 32B: the
// Ci axis and 32-byte alignments.
// CHECK-LABEL: func.func @interleave
// CHECK: tile.spec = #tile.tensor_map_spec<source = 1, mode = tile, encode = tiled, format = uint16, data_type = 1, elem_bits = 16, rank = 3, global_rank = 4, box = [8, 1, 1], element_strides = [1, 1, 1], interleave = 2, swizzle = 1, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 1, packing = [1, 1]>
func.func @interleave() attributes {tile.spec = #tile.tensor_map_spec<source = 1, mode = tile, encode = tiled, format = uint16, data_type = 1, elem_bits = 16, rank = 3, global_rank = 4, box = [8, 1, 1], element_strides = [1, 1, 1], interleave = 2, swizzle = 1, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// Packed formats: the host decisions come from the format.
// CHECK-LABEL: func.func @packed
// CHECK: tile.fp4 = #tile.tensor_map_spec<{{.*}}format = float4_e2m1fn, data_type = 14, elem_bits = 4, {{.*}}base_alignment = 32, stride_alignment = 32, inner_multiple = 128, packing = [2, 1]>
// CHECK-SAME: tile.fp4a8 = #tile.tensor_map_spec<{{.*}}format = float4_e2m1fn_align8b, data_type = 13, elem_bits = 4, {{.*}}base_alignment = 16, stride_alignment = 16, inner_multiple = 2, packing = [2, 1]>
// CHECK-SAME: tile.fp6 = #tile.tensor_map_spec<{{.*}}format = float6_align16b, data_type = 15, elem_bits = 6, {{.*}}base_alignment = 32, stride_alignment = 32, inner_multiple = 128, packing = [4, 3]>
func.func @packed() attributes {
    tile.fp4 = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float4_e2m1fn, data_type = 14, elem_bits = 4, rank = 2, global_rank = 2, box = [128, 8], element_strides = [1, 1], interleave = 0, swizzle = 3, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 128, packing = [2, 1]>,
    tile.fp4a8 = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float4_e2m1fn_align8b, data_type = 13, elem_bits = 4, rank = 2, global_rank = 2, box = [64, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 2, packing = [2, 1]>,
    tile.fp6 = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float6_align16b, data_type = 15, elem_bits = 6, rank = 2, global_rank = 2, box = [128, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 128, packing = [4, 3]>} {
  return
}

// im2col and im2col_wide maps: corners, channels, pixels (and wide_mode).
// CHECK-LABEL: func.func @im2col
// CHECK: tile.im2col = #tile.tensor_map_spec<param = 3, source = 0, mode = im2col, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 2, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-2, -1], pixel_box_upper = [-1, 0], channels_per_pixel = 32, pixels_per_column = 16, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>
// CHECK-SAME: tile.wide = #tile.tensor_map_spec<param = 3, source = 0, mode = im2col_w_128, encode = im2col_wide, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [64, 128], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 4, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1], pixel_box_upper = [-1], channels_per_pixel = 64, pixels_per_column = 128, wide_mode = 1, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>
func.func @im2col() attributes {
    tile.im2col = #tile.tensor_map_spec<param = 3, source = 0, mode = im2col, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 2, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-2, -1], pixel_box_upper = [-1, 0], channels_per_pixel = 32, pixels_per_column = 16, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>,
    tile.wide = #tile.tensor_map_spec<param = 3, source = 0, mode = im2col_w_128, encode = im2col_wide, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [64, 128], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 4, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1], pixel_box_upper = [-1], channels_per_pixel = 64, pixels_per_column = 128, wide_mode = 1, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}
