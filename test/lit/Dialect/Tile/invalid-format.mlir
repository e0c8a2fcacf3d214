// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of element types and formats, the packed formats, the
// out-of-bounds fill.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

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
