// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of the shared buffer: space, layout, type, shape, size and
// alignment.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32> {alignment = 1024}
  gpu.func @shared_address_space(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32>
    // expected-error @+1 {{[shared-address-space] the shared operand 'memref<8x16xf32>' is not in workgroup memory (address space 3)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_layout(%s: memref<8x16xf32, strided<[32, 1]>, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-layout] the shared operand 'memref<8x16xf32, strided<[32, 1]>, 3>' must have a static shape and the identity layout (or row-major contiguous strides at an offset)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, strided<[32, 1]>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_layout_dynamic(%s: memref<?x16xf32, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-layout] the shared operand 'memref<?x16xf32, 3>' must have a static shape and the identity layout (or row-major contiguous strides at an offset)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<?x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf16, 3> {alignment = 1024}
  gpu.func @shared_dtype(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf16, 3>
    // expected-error @+1 {{[shared-dtype] shared element type 'f16', expected 'f32'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a">] {
  memref.global "private" @smem : memref<8x128xf4E2M1FN, 3> {alignment = 1024}
  gpu.func @shared_dtype_fp4(%A: memref<8x128xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x128xf4E2M1FN, 3>
    // expected-error @+1 {{[shared-dtype] shared element type 'f4E2M1FN', expected 'i8'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>} : memref<8x128xf4E2M1FN, 3>, memref<8x128xf4E2M1FN>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x8xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x8xf32, 3>
    // expected-error @+1 {{[shared-suffix] the shared suffix (8, 8) is not the box image (8, 16)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x8xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 1024}
  gpu.func @shared_suffix_strides(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    // expected-error @+1 {{[shared-suffix] the shared suffix (8, 16) is not the box image (4, 16)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], element_strides = array<i64: 2, 1>} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<16xf32, 3> {alignment = 1024}
  gpu.func @shared_repeat_prefix(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<16xf32, 3>
    // expected-error @+1 {{[shared-repeat-prefix] shared shape (16) has rank 1, less than the box image (8, 16)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<2x1x4xf32, 3> {alignment = 1024}
  gpu.func @shared_atom_alignment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x1x4xf32, 3>
    // expected-error @+1 {{[shared-atom-alignment] each slot's image is 16 bytes, so slot origins are not 128-byte aligned}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 1, 4>, coord_steps = [array<i64: 1, 0>]} : memref<2x1x4xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 64}
  gpu.func @shared_base_alignment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is 64 bytes, expected a multiple of 128}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3>
  gpu.func @shared_base_alignment_unspecified(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is unspecified, expected a multiple of 128}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x32xf32, 3> {alignment = 512}
  gpu.func @shared_base_alignment_swizzle(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x32xf32, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is 512 bytes, expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// What the Python builder's dynamic_shared makes: a view of the dynamic shared
// memory (1024-byte aligned) at a byte offset.
gpu.module @k {
  gpu.func @shared_base_alignment_view_128(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 128 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 128 bytes into gpu.dynamic_shared_memory (1024-byte aligned), so it is only 128-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_view_512(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 512 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 512 bytes into gpu.dynamic_shared_memory (1024-byte aligned), so it is only 512-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_view_16(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 16 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x16xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 16 bytes into gpu.dynamic_shared_memory (1024-byte aligned), so it is only 16-byte aligned; expected a multiple of 128}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// One stage of a ring: a subview whose offset (stage 1 of 1 KB stages, at
// byte 1024) keeps the period; a reinterpret_cast at element 32 (128 bytes)
// does not.
gpu.module @k {
  memref.global "private" @ring : memref<4x8x32xf32, 3> {alignment = 1024}
  gpu.func @shared_base_alignment_reinterpret_cast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x8x32xf32, 3>
    %stage = memref.subview %g[1, 0, 0][1, 8, 32][1, 1, 1] : memref<4x8x32xf32, 3> to memref<8x32xf32, strided<[32, 1], offset: 256>, 3>
    %s = memref.reinterpret_cast %stage to offset: [32], sizes: [8, 32], strides: [32, 1] : memref<8x32xf32, strided<[32, 1], offset: 256>, 3> to memref<8x32xf32, strided<[32, 1], offset: 32>, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 128 bytes into memref.global @ring (1024-byte aligned), so it is only 128-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, strided<[32, 1], offset: 32>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @ring : memref<4x4x32xf32, 3> {alignment = 1024}
  gpu.func @shared_base_alignment_subview(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x4x32xf32, 3>
    %s = memref.subview %g[1, 0, 0][1, 4, 32][1, 1, 1] : memref<4x4x32xf32, 3> to memref<4x32xf32, strided<[32, 1], offset: 128>, 3>
    // expected-error @+1 {{[shared-base-alignment] the shared buffer starts 512 bytes into memref.global @ring (1024-byte aligned), so it is only 512-byte aligned; expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 4, 32>, swizzle = 3 : i32} : memref<4x32xf32, strided<[32, 1], offset: 128>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_declared(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %off: index) kernel {
    %c0 = arith.constant 0 : i32
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    %s = memref.assume_alignment %v, 128 : memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-base-alignment] memref.assume_alignment declares the shared buffer 128-byte aligned, expected a multiple of 1024 (the whole swizzle period)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_base_alignment_attribution(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) workgroup(%w : memref<8x16xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-base-alignment] the shared buffer's base alignment is unspecified, expected a multiple of 128}}
    tile.tma_copy load tile 2d %w, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Where the IR does not fix the alignment, it must be declared.
gpu.module @k {
  gpu.func @shared_alignment_unproven(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %off: index) kernel {
    %c0 = arith.constant 0 : i32
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: memref.view at a runtime byte offset; declare it with memref.assume_alignment (a multiple of 1024, the whole swizzle period) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_alignment_unproven_argument(%s: memref<8x16xf32, 3>, %A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: it is argument #0 of the function; declare it with memref.assume_alignment (a multiple of 128) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @ring : memref<4x8x32xf32, 3> {alignment = 1024}
  gpu.func @shared_alignment_unproven_subview(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %i: index) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x8x32xf32, 3>
    %s = memref.subview %g[%i, 0, 0][1, 8, 32][1, 1, 1] : memref<4x8x32xf32, 3> to memref<8x32xf32, strided<[32, 1], offset: ?>, 3>
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: its offset is a runtime value; declare it with memref.assume_alignment (a multiple of 1024, the whole swizzle period) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, strided<[32, 1], offset: ?>, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @shared_alignment_unproven_op(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %p: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = builtin.unrealized_conversion_cast %p : !llvm.ptr<3> to memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-alignment-unproven] the shared buffer's alignment cannot be proven: it is made by 'builtin.unrealized_conversion_cast', whose alignment the verifier does not know; declare it with memref.assume_alignment (a multiple of 128) or use constant offsets}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<30x64x64xf32, 3> {alignment = 1024}
  gpu.func @shared_size(%A: memref<4096x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<30x64x64xf32, 3>
    // expected-error @+1 {{[shared-size] the shared buffer 'memref<30x64x64xf32, 3>' needs more than 232448 bytes, the most one block can have}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 64>, coord_steps = [array<i64: 64, 0>]} : memref<30x64x64xf32, 3>, memref<4096x64xf32>
    gpu.return
  }
}
