// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of the global operand and the descriptor pointer.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_address_space(%A: memref<64x64xf32, 3>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-address-space] the global operand 'memref<64x64xf32, 3>' is not in global memory}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, 3>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_rank(%A: memref<2x64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-rank] the global operand has rank 3, expected 2}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<2x64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @global_rank_interleave(%A: memref<2x4x8xui16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[global-rank] the global operand has rank 3, expected 4 (N, C_slices, *spatial, Ci)}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8xui16>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @global_dtype(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    // expected-error @+1 {{[global-dtype] global element type 'f32' does not match the shared element type 'f16'}}
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_inner_stride(%A: memref<64x64xf32, strided<[1, 64]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-inner-stride] the innermost global stride is 64, expected 1}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32, strided<[1, 64]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x4xf32, 3> {alignment = 1024}
  gpu.func @global_stride_alignment(%A: memref<64x6xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x4xf32, 3>
    // expected-error @+1 {{[global-stride-alignment] global stride[0] is 24 bytes, expected a multiple of 16}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>} : memref<8x4xf32, 3>, memref<64x6xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x1x8x16xui16, 3> {alignment = 1024}
  gpu.func @global_stride_alignment_32b(%A: memref<2x4x8x16xui16, strided<[520, 128, 16, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x1x8x16xui16, 3>
    // expected-error @+1 {{[global-stride-alignment] global stride[0] is 1040 bytes, expected a multiple of 32}}
    tile.tma_copy load tile 3d %s, %A[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 1, 8>, interleave = 2 : i32, swizzle = 1 : i32} : memref<1x1x8x16xui16, 3>, memref<2x4x8x16xui16, strided<[520, 128, 16, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range(%A: memref<2x64xf32, strided<[274877906944, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    // expected-error @+1 {{[global-stride-range] global stride[0] is 1099511627776 bytes, expected less than 2^40}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[274877906944, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range_negative(%A: memref<2x64xf32, strided<[-64, 1], offset: 64>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    // expected-error @+1 {{[global-stride-range] global stride[0] is -256 bytes, expected a non-negative stride less than 2^40}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[-64, 1], offset: 64>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x16xf32, 3> {alignment = 1024}
  gpu.func @global_stride_range_wrap(%A: memref<2x64xf32, strided<[4611686018427387904, 1]>>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x16xf32, 3>
    // expected-error @+1 {{[global-stride-range] global stride[0] is 4611686018427387904 elements, expected less than 2^40 bytes}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 2, 16>} : memref<2x16xf32, 3>, memref<2x64xf32, strided<[4611686018427387904, 1]>>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_dim_range(%A: memref<4294967297x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-dim-range] global dim[0] = 4294967297 is outside 1..2^32}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<4294967297x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_dim_range_zero(%A: memref<0x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-dim-range] global dim[0] = 0 is outside 1..2^32}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<0x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @box_within_dim(%A: memref<4x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[box-within-dim] box[0] = 8 is larger than global dim[0] = 4}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<4x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_source(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    %B = memref.cast %A : memref<64x64xf32> to memref<64x64xf32>
    // expected-error @+1 {{[global-source] the global memref must be an argument of the enclosing gpu.func kernel}}
    tile.tma_copy load tile 2d %s, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @global_source_device_func(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[global-source] the global memref must be an argument of the enclosing gpu.func kernel}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @descriptor_space(%map: !llvm.ptr<3>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[descriptor-space] the tensor map pointer is in address space 3, expected generic (0), global (1) or constant (4) memory}}
    tile.tma_copy load tile 2d %s, %map[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr<3>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @descriptor_space_const_param(%map: !llvm.ptr<4>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[descriptor-space] the tensor map pointer is in address space 4 and a kernel parameter (ptxas cannot cvta.const it)}}
    tile.tma_copy load tile 2d %s, %map[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr<4>
    gpu.return
  }
}
