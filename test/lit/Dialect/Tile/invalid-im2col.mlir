// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of the im2col modes.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

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
