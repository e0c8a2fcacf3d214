// RUN: tile-opt %s -split-input-file -verify-diagnostics

// tile.tensormap_derive rejected by the rules it shares with host encoding
// and tile.tma_copy (derive-specific rules: invalid-derive.mlir).

gpu.module @k {
  gpu.func @template_not_kernel_argument(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) {
    // expected-error @+1 {{[global-source] a memref template must be an argument of the enclosing gpu.func kernel (the host encodes its tensor map from it)}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @pointer_template_shared(%P: !llvm.ptr<3>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[descriptor-space] the template pointer is in address space 3, expected generic (0), global (1) or constant (4) memory}}
    %m = tile.tensormap_derive %P into %dest {box = array<i64: 64, 128>} : !llvm.ptr<3>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @memref_template_without_box(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[box-arity] a memref template needs its box (the host encodes the map with it)}}
    %m = tile.tensormap_derive %T into %dest {swizzle = 0 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @template_box_extent(%T: memref<?x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[box-extent] the template's box[0] = 300 is outside 1..256}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 300, 128>} : memref<?x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @template_box_within_dim(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[box-within-dim] the template's box[0] = 128 is larger than its dim[0] = 64}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 128, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @template_format_match(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[format-match] format uint32 does not describe the template's element type 'bf16'}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, format = #tile<format uint32>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_box_extent(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[box-extent] the derived map's box[1] = 0 is outside 1..256}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_box = array<i64: 64, 0>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_box_inner_bytes(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[box-inner-bytes] the derived map's inner box row is 8 bytes (4 bfloat16 elements), expected a multiple of 16 bytes}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_box = array<i64: 64, 4>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_swizzle_inner_bytes(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[swizzle-inner-bytes] the derived map's inner box row is 256 bytes, more than the 32-byte span of swizzle 1}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_swizzle = 1 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_swizzle_range(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[swizzle-range] the derived map's swizzle 9 is outside 0..6}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_swizzle = 9 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  gpu.func @new_swizzle_sm100(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[target-sm100] swizzle 4 needs sm_100a (or sm_101a/103a/110a), target is sm_90a}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 64>, new_swizzle = 4 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_element_strides_range(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[element-strides-range] the derived map's element_strides[0] = 9 is outside 1..8}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_element_strides = array<i64: 9, 1>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_element_strides_inner(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[element-strides-inner] the derived map's element_strides[1] = 2: the innermost stride must be 1 without interleave}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_element_strides = array<i64: 1, 2>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_interleave_range(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[interleave-range] the derived map's interleave 3 is outside 0..2 (none, 16B, 32B)}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_interleave = 3 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_interleave_rank(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[interleave-rank] the derived map's interleave needs rank 3..5, got 2}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_interleave = 1 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_oob_fill_range(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[oob-fill-range] the derived map's oob_fill 2 is outside 0..1 (zero, NaN)}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_oob_fill = 2 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_oob_fill_float(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[oob-fill-float] the derived map's oob_fill 1 (NaN) needs a floating-point format, got uint16}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_format = #tile<format uint16>, new_oob_fill = 1 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_rank_range(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %r: i32, %s: i64) kernel {
    // expected-error @+1 {{[rank-range] the derived map's rank 6 is outside 1..5}}
    %m = tile.tensormap_derive %T into %dest new_dims(%r, %r, %r, %r, %r, %r) new_strides(%s, %s, %s, %s, %s) {box = array<i64: 64, 128>, new_rank = 6 : i32, new_box = array<i64: 1, 1, 1, 1, 1, 8>, new_element_strides = array<i64: 1, 1, 1, 1, 1, 1>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_rank_without_box(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %r: i32, %s: i64) kernel {
    // expected-error @+1 {{[derive-field-arity] new_rank 3 replaces every per-dimension field, but new_box is not given}}
    %m = tile.tensormap_derive %T into %dest new_dims(%r, %r, %r) new_strides(%s, %s) {box = array<i64: 64, 128>, new_rank = 3 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @new_strides_arity(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %s: i64) kernel {
    // expected-error @+1 {{[derive-field-arity] new_strides has 2 entries, expected rank - 1 = 1 (the outer dimensions' byte strides)}}
    %m = tile.tensormap_derive %T into %dest new_strides(%s, %s) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @pointer_template_rank_unknown(%P: !llvm.ptr, %dest: !llvm.ptr<1>, %p: i64) kernel {
    // expected-error @+1 {{[derive-field-arity] the derived map's rank is unknown: a pointer template declares its box (or element_strides), or new_rank is given}}
    %m = tile.tensormap_derive %P into %dest new_address(%p : i64) {swizzle = 0 : i32} : !llvm.ptr, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @constant_dim_zero(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    %z = arith.constant 0 : i32
    %c = arith.constant 64 : i32
    // expected-error @+1 {{[global-dim-range] new_dims[0] = 0 is outside 1..2^32}}
    %m = tile.tensormap_derive %T into %dest new_dims(%z, %c) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @constant_stride_alignment(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    %s = arith.constant 100 : i64
    // expected-error @+1 {{[global-stride-alignment] new_strides[0] = 100 bytes, expected a multiple of 16}}
    %m = tile.tensormap_derive %T into %dest new_strides(%s) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @constant_stride_range(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    %s = arith.constant 2199023255552 : i64
    // expected-error @+1 {{[global-stride-range] new_strides[0] = 2199023255552 bytes, expected a non-negative stride less than 2^40}}
    %m = tile.tensormap_derive %T into %dest new_strides(%s) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @constant_address_alignment(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    %p = arith.constant 4104 : i64
    // expected-error @+1 {{[global-base-alignment] new_address 0x1008 is not 16-byte aligned}}
    %m = tile.tensormap_derive %T into %dest new_address(%p : i64) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  gpu.func @packed_format_ptx(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[target-tensormap-replace] replacing the element type with float4_e2m1fn_align8b needs PTX ISA 8.7, target sm_100a uses PTX 8.6 (add +ptx87 to the target features)}}
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_format = #tile<format float4_e2m1fn_align8b>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  gpu.func @swizzle_atomicity_ptx(%P: !llvm.ptr, %dest: !llvm.ptr<1>) kernel {
    // expected-error @+1 {{[target-tensormap-replace] replacing swizzle (not declared) with 3 on sm_100a writes swizzle_atomicity, which needs PTX ISA 8.7, target uses PTX 8.6}}
    %m = tile.tensormap_derive %P into %dest {box = array<i64: 64, 64>, new_swizzle = 3 : i32} : !llvm.ptr, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @mismatch_swizzle(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x64xbf16, 3>
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 64>, new_swizzle = 3 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    // expected-error @+1 {{[derived-map-mismatch] the copy's swizzle 0 is not the derived map's 3}}
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 64, 64>} : memref<64x64xbf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x128xbf16, 3> {alignment = 1024}
  gpu.func @mismatch_format(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x128xbf16, 3>
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_format = #tile<format float16>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    // expected-error @+1 {{[derived-map-mismatch] the copy's format bfloat16 is not the derived map's float16}}
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 64, 128>} : memref<64x128xbf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x128xbf16, 3> {alignment = 1024}
  gpu.func @mismatch_oob_fill(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x128xbf16, 3>
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_oob_fill = 1 : i32} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    // expected-error @+1 {{[derived-map-mismatch] the copy's oob_fill 0 is not the derived map's 1}}
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 64, 128>} : memref<64x128xbf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}
