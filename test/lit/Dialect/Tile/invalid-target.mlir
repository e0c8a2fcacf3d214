// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of the targets a copy needs.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

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
