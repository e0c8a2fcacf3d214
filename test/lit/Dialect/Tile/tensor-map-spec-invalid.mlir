// RUN: tile-opt %s -split-input-file -verify-diagnostics

// The verifier of #tile.tensor_map_spec: one consistent map, whose host
// decisions are the contract's.

// expected-error @+1 {{inconsistent tensor-map spec: format uint32 has data_type 2 and elem_bits 32, not 7 and 32}}
func.func @data_type() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = tile, encode = tiled, format = uint32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: mode im2col is encoded by im2col, not tiled}}
func.func @encode() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = im2col, encode = tiled, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: rank 2 with 3 box and 2 element_strides entries}}
func.func @box() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8, 1], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: global_rank 3 with rank 3 and interleave 2}}
func.func @global_rank() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = tile, encode = tiled, format = uint16, data_type = 1, elem_bits = 16, rank = 3, global_rank = 3, box = [8, 1, 1], element_strides = [1, 1, 1], interleave = 2, swizzle = 1, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// A host decision that is not the contract's (fp4 needs 32-byte alignment,
// inner multiples of 128 and two values a byte).
// expected-error @+1 {{inconsistent tensor-map spec: format float4_e2m1fn with interleave 0 needs base_alignment 32, stride_alignment 32, inner_multiple 128 and packing [2, 1]}}
func.func @host_decision() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = tile, encode = tiled, format = float4_e2m1fn, data_type = 14, elem_bits = 4, rank = 2, global_rank = 2, box = [128, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: a tiled map has no im2col fields}}
func.func @tiled_corners() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [0], base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: rank 4 im2col map with 1/2 corner entries}}
func.func @corners() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = im2col, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1], pixel_box_upper = [-1, 0], channels_per_pixel = 32, pixels_per_column = 16, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: channels_per_pixel and pixels_per_column are the box (32, 16)}}
func.func @channels() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = im2col, encode = im2col, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [32, 16], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1, -1], pixel_box_upper = [-1, 0], channels_per_pixel = 16, pixels_per_column = 32, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: wide_mode is given exactly for im2col_wide maps: 0 for im2col_w, 1 for im2col_w_128}}
func.func @wide_mode() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = im2col_w, encode = im2col_wide, format = float16, data_type = 6, elem_bits = 16, rank = 4, global_rank = 4, box = [64, 64], element_strides = [1, 1, 1, 1], interleave = 0, swizzle = 3, l2_promotion = 0, oob_fill = 0, bytes = 128, pixel_box_lower = [-1], pixel_box_upper = [-1], channels_per_pixel = 64, pixels_per_column = 64, wide_mode = 1, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// expected-error @+1 {{inconsistent tensor-map spec: a tensor map has 128 bytes, not 64}}
func.func @bytes() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 64, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} {
  return
}

// -----

// A field that is missing does not parse.
// expected-error @+1 {{struct is missing required parameter: packing}}
func.func @missing() attributes {tile.spec = #tile.tensor_map_spec<source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1>} {
  return
}
