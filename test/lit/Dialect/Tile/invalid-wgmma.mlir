// RUN: tile-opt %s -split-input-file -verify-diagnostics

// Verifier rules of tile.wgmma_descriptor: the descriptor's fields, the
// operand tile's type, shape and swizzle span, the K step, and the link to
// the tile.tma_copy that fills its buffer. valid-wgmma.mlir holds, for each
// case, the nearest input that passes (same name).

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_lbo() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-descriptor-field] lbo 8 is not a multiple of 16 bytes in 0..262128 (14 bits of the value >> 4)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 8, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_sbo() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-descriptor-field] sbo 262144 is not a multiple of 16 bytes in 0..262128 (14 bits of the value >> 4)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 64, lbo = 16, sbo = 262144} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @wgmma_descriptor_field_base_offset(%s: memref<64x64xbf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{[wgmma-descriptor-field] base_offset 8 is outside 0..7}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, base_offset = 8} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_swizzle() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-descriptor-field] swizzle b128_atom_32b (128B_ATOM_32B) has no descriptor code: none, b32, b64 or b128}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128_atom_32b>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x128xf8E4M3FN, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_major() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x128xf8E4M3FN, 3>
    // expected-error @+1 {{[wgmma-tile-dtype] major mn with element type 'f8E4M3FN': only f16 and bf16 tiles are MN-major (transposed)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major mn>, swizzle = #tile<swizzle b128>, rows = 64, k = 128, lbo = 16, sbo = 1024} : memref<64x128xf8E4M3FN, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x16xf64, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_type() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x16xf64, 3>
    // expected-error @+1 {{[wgmma-tile-dtype] element type 'f64' is not a wgmma input (f16, bf16, f32 as tf32, f8E4M3FN, f8E5M2, 8-bit integers)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 16, lbo = 16, sbo = 1024} : memref<64x16xf64, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<128x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_m() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<128x64xbf16, 3>
    // expected-error @+1 {{[wgmma-tile-shape] rows 128 of an A tile: M is 64}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 128, k = 64, lbo = 16, sbo = 1024} : memref<128x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_n() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-tile-shape] rows 12 of a B tile is not a wgmma N for 'bf16': a multiple of 8 in 8..256}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 12, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x128xi8, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_n_int8() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x128xi8, 3>
    // expected-error @+1 {{[wgmma-tile-shape] rows 40 of a B tile is not a wgmma N for 'i8': a multiple of 8 in 8..256 that is 8, 16, 24 or a multiple of 16}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 40, k = 128, lbo = 16, sbo = 1024} : memref<64x128xi8, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_k() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-tile-shape] k 24 is not a positive multiple of the instruction's K for 'bf16' (16: 32 bytes)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 24, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<32x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_fit() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<32x64xbf16, 3>
    // expected-error @+1 {{[wgmma-tile-shape] the 64 x 64 tile (8192 bytes) does not fit the 4096-byte buffer 'memref<32x64xbf16, 3>'}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<32x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_swizzle_span_k() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-swizzle-span] a K-major row of k 32 x 2 bytes is 64 bytes, not the 128-byte span of swizzle b128 (128B)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 32, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_swizzle_span_sbo() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-swizzle-span] sbo 512 is not the 1024-byte stride between 8-row groups of 128-byte swizzled rows}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 512} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_swizzle_span_mn() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-swizzle-span] an MN-major row of rows 40 x 2 bytes is 80 bytes, not whole 64-byte spans of swizzle b64 (64B)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major mn>, swizzle = #tile<swizzle b64>, rows = 40, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_k_step() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %step = arith.constant 4 : i32
    // expected-error @+1 {{[wgmma-k-step] k_step 4 is outside the tile's 4 instruction K steps (0..3): it would start 128 bytes into the 128-byte swizzle row}}
    %d = tile.wgmma_descriptor %s[%step] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, i32
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_shared_address_space(%A: memref<64x64xbf16>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{[shared-address-space] buffer 'memref<64x64xbf16>' is not in workgroup (shared) memory}}
    %d = tile.wgmma_descriptor %A[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_pointer(%p: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{[wgmma-tile-dtype] a pointer buffer names its element_type}}
    %d = tile.wgmma_descriptor %p[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : !llvm.ptr<3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_element_type() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-tile-dtype] element_type 'f16' is not the buffer's 'bf16'}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, element_type = f16} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @raw : memref<16384xi8, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_start() kernel {
    %c0 = arith.constant 0 : index
    %r = memref.get_global @raw : memref<16384xi8, 3>
    %off = arith.constant 8 : index
    %v = memref.view %r[%off][] : memref<16384xi8, 3> to memref<64x16xbf16, 3>
    // expected-error @+1 {{[wgmma-descriptor-field] the buffer starts 8 bytes into memref.global @raw, 8-byte aligned: the start address is a multiple of 16 bytes}}
    %d = tile.wgmma_descriptor %v[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 16, lbo = 1024, sbo = 128} : memref<64x16xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_mismatch_swizzle(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-note @+1 {{the tile.tma_copy load that writes it}}
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    // expected-error @+1 {{[wgmma-copy-mismatch] swizzle b64 (64B) reads a buffer that a tile.tma_copy load writes with swizzle 3 (128B)}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b64>, rows = 64, k = 32, lbo = 16, sbo = 512} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_mismatch_box(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    // expected-note @+1 {{the tile.tma_copy load that writes it}}
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 32>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    // expected-error @+1 {{[wgmma-copy-mismatch] a tile.tma_copy load writes the buffer in inner box rows of 64 bytes; a descriptor of swizzle b128 reads rows of 128 bytes}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @raw : memref<8192xi8, 3> {alignment = 1024}
  gpu.func @wgmma_copy_mismatch_format(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %r = memref.get_global @raw : memref<8192xi8, 3>
    %s = memref.view %r[%c0][] : memref<8192xi8, 3> to memref<64x64xbf16, 3>
    // expected-note @+1 {{the tile.tma_copy load that writes it}}
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %t = memref.view %r[%c0][] : memref<8192xi8, 3> to memref<64x128xf8E4M3FN, 3>
    // expected-error @+1 {{[wgmma-copy-mismatch] element type 'f8E4M3FN' reads a buffer that a tile.tma_copy load writes in format bfloat16}}
    %d = tile.wgmma_descriptor %t[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 128, lbo = 16, sbo = 1024} : memref<64x128xf8E4M3FN, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @raw : memref<16384xi8, 3> {alignment = 1024}
  gpu.func @wgmma_base_offset_on_period() kernel {
    %c0 = arith.constant 0 : index
    %at = arith.constant 1024 : index
    %r = memref.get_global @raw : memref<16384xi8, 3>
    %s = memref.view %r[%at][] : memref<16384xi8, 3> to memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-base-offset] base_offset 1 on a tile 1024 bytes into memref.global @raw (0 bytes into its 1024-byte swizzle period): the shared image is swizzled from the period's start, which base_offset 0 reads wherever the tile starts}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, base_offset = 1} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @raw : memref<16384xi8, 3> {alignment = 1024}
  gpu.func @wgmma_base_offset_line() kernel {
    %c0 = arith.constant 0 : index
    %at = arith.constant 384 : index
    %r = memref.get_global @raw : memref<16384xi8, 3>
    %s = memref.view %r[%at][] : memref<16384xi8, 3> to memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-base-offset] base_offset 3 on a tile 384 bytes into memref.global @raw (384 bytes into its 1024-byte swizzle period): the shared image is swizzled from the period's start, which base_offset 0 reads wherever the tile starts}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, base_offset = 3} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  memref.global "private" @b : memref<8x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_unwaited_copy(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %spin = arith.constant 10000000 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %t = memref.get_global @b : memref<8x64xbf16, 3>
    %acc = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
    // expected-note @+1 {{the tile.tma_copy load that writes the tile}}
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    // expected-note @+1 {{the tile.wgmma_descriptor it reads the tile through}}
    %da = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %db = tile.wgmma_descriptor %t[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 8, k = 64, lbo = 16, sbo = 1024} : memref<8x64xbf16, 3>, index
    nvvm.wgmma.fence.aligned
    // expected-error @+1 {{[wgmma-unwaited-copy] reads a tile that a tile.tma_copy load fills with no mbarrier wait between the load and it: the MMA may read the tile before the copy engine writes it}}
    %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  memref.global "private" @b : memref<8x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_unwaited_copy_loop(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %i0 = arith.constant 0 : i32
    %spin = arith.constant 10000000 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %t = memref.get_global @b : memref<8x64xbf16, 3>
    %acc = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
    // expected-note @+1 {{the tile.wgmma_descriptor it reads the tile through}}
    %da = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %db = tile.wgmma_descriptor %t[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 8, k = 64, lbo = 16, sbo = 1024} : memref<8x64xbf16, 3>, index
    scf.for %i = %c0 to %c4 step %c1 {
      nvvm.wgmma.fence.aligned
      // expected-error @+1 {{[wgmma-unwaited-copy] reads a tile that a tile.tma_copy load fills with no mbarrier wait between the load and it (around the loop's back edge): the MMA may read the tile before the copy engine writes it}}
      %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      // expected-note @+1 {{the tile.tma_copy load that writes the tile}}
      tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    }
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @raw : memref<32768xi8, 3> {alignment = 1024}
  gpu.func @wgmma_multicast_offset(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %period = arith.constant 8192 : index
    %r = memref.get_global @raw : memref<32768xi8, 3>
    %s = memref.view %r[%c0][] : memref<32768xi8, 3> to memref<64x64xbf16, 3>
    // expected-note @+1 {{the multicast tile.tma_copy load}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%i0, %i0] mbar(%bar) cta_mask(%mask) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank1 = arith.index_cast %rank32 : i32 to index
    %rank = arith.muli %rank1, %period : index
    %v = memref.view %r[%rank][] : memref<32768xi8, 3> to memref<64x64xbf16, 3>
    // expected-error @+1 {{[wgmma-multicast-offset] the buffer's address is computed from the CTA's rank in the cluster, but a multicast tile.tma_copy load writes this allocation at the same address in every CTA of its mask}}
    %d = tile.wgmma_descriptor %v[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<4x64x8xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_strides_lbo(%A: memref<64x32xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<4x64x8xbf16, 3>
    // expected-note @+1 {{the tile.tma_copy load that writes it}}
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 8>, coord_steps = [array<i64: 0, 8>]} : memref<4x64x8xbf16, 3>, memref<64x32xbf16>
    // expected-error @+1 {{[wgmma-copy-mismatch] lbo 512 is not the 1024-byte stride between the boxes of 64 x 16 bytes a tile.tma_copy load writes, where the tile's next 16 bytes of K lie}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 32, lbo = 512, sbo = 128} : memref<4x64x8xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<4x64x8xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_strides_group(%A: memref<64x32xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<4x64x8xbf16, 3>
    // expected-note @+1 {{the tile.tma_copy load that writes it}}
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 8>, coord_steps = [array<i64: 0, 8>]} : memref<4x64x8xbf16, 3>, memref<64x32xbf16>
    // expected-error @+1 {{[wgmma-copy-mismatch] sbo 256 is not the 128-byte stride between 8-row groups of the image a tile.tma_copy load writes in 16-byte box rows}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 32, lbo = 1024, sbo = 256} : memref<4x64x8xbf16, 3>, index
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<2x32x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_strides_mn_runs(%A: memref<32x128xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<2x32x64xbf16, 3>
    // expected-note @+1 {{the tile.tma_copy load that writes it}}
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 32, 64>, coord_steps = [array<i64: 0, 64>], swizzle = 3 : i32} : memref<2x32x64xbf16, 3>, memref<32x128xbf16>
    // expected-error @+1 {{[wgmma-copy-mismatch] lbo 2048 is not the 4096-byte stride between the boxes of 32 x 128 bytes a tile.tma_copy load writes, where the tile's next run of MN lie}}
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major mn>, swizzle = #tile<swizzle b128>, rows = 128, k = 32, lbo = 2048, sbo = 1024} : memref<2x32x64xbf16, 3>, index
    gpu.return
  }
}
