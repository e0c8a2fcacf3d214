// RUN: tile-opt %s -split-input-file -verify-diagnostics

// Malformed tile.tma_copy IR: truncated attributes, wrong enum keywords, huge
// integers in box/rank/swizzle/cta_group, negative extents, missing operands,
// wrong types, unterminated opcode strings and duplicated qualifiers. Each
// case gives a diagnostic and never a crash. Where the dialect's own code
// decides (the opcode directive, the verifier) the diagnostic names its rule;
// where MLIR's parser or the op's declared signature rejects the text first,
// it is MLIR's message. test/fuzz/run_fuzz.py generates many more such forms.

// Truncated attributes.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @truncated_dense_array(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{expected '>' to close an array attribute}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @truncated_attr_dict(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{expected '}' in attribute dictionary}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16> : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @truncated_enum_attr(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format float32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @truncated_op(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{expected ')'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(
    gpu.return
  }
}

// -----

// Wrong enum keywords.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_enum_format(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+2 {{expected ::mlir::tile::Format to be one of: uint8, uint16, uint32, int32, uint64, int64, float16, float32, float64, bfloat16, float32_ftz, tfloat32, tfloat32_ftz, float4_e2m1fn}}
    // expected-error @+1 {{failed to parse Tile_FormatAttr parameter 'value' which is to be a `::mlir::tile::Format`}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format float33>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_enum_direction_generic(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+2 {{expected ::mlir::tile::Direction to be one of: load, store, reduce}}
    // expected-error @+1 {{failed to parse Tile_DirectionAttr parameter 'value' which is to be a `::mlir::tile::Direction`}}
    "tile.tma_copy"(%s, %A, %c0, %c0, %bar) <{box = array<i64: 8, 16>, direction = #tile<direction sideways>, mode = #tile<mode tile>, rank = 2 : i32, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 1, 0, 0>}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32, !llvm.ptr<3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_enum_mode_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected a mode (tile, gather4, scatter4, im2col, im2col_w, im2col_w_128, im2col_no_offs), got 'tiles'}}
    tile.tma_copy load tiles 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_enum_reduction_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] unknown reduction operator 'mul'}}
    tile.tma_copy reduce mul tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_enum_direction_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected load, store, reduce, prefetch or a PTX opcode string, got 'Load'}}
    tile.tma_copy Load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_enum_kind(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op attribute 'format' failed to satisfy constraint: tensor-map element format}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<mode tile>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Huge integers in box, rank, swizzle and cta_group.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_box_literal(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{integer constant out of range}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 99999999999999999999>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_box_extent(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [box-extent] box[1] = 9223372036854775807 is outside 1..256}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 9223372036854775807>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_rank_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[rank-range] rank 99999999999999999999 is outside 1..5}}
    tile.tma_copy load tile 99999999999999999999d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_rank_ptx(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.99999999999999999999d.shared::cta.global.tile.mbarrier::complete_tx::bytes': part '99999999999999999999d' (position 4): expected the rank '1d'..'5d'}}
    tile.tma_copy "cp.async.bulk.tensor.99999999999999999999d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_rank_generic(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [rank-range] rank 2147483647 is outside 1..5}}
    "tile.tma_copy"(%s, %A, %c0, %c0, %bar) <{box = array<i64: 8, 16>, direction = #tile<direction load>, mode = #tile<mode tile>, rank = 2147483647 : i32, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 1, 0, 0>}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32, !llvm.ptr<3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_swizzle_literal(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{integer constant out of range for attribute}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 99999999999 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_swizzle(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [swizzle-range] swizzle -1 is outside 0..6 (none, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 4294967295 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_swizzle_wide(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op attribute 'swizzle' failed to satisfy constraint: 32-bit signless integer attribute}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 99999999999999999999 : i128} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_cta_group_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-group] cta_group 99999999999999999999 is invalid: expected 1 or 2}}
    tile.tma_copy load tile 2d cta_group(99999999999999999999) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_cta_group_generic(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [cta-group] cta_group -2147483648 is invalid: expected 1 or 2}}
    "tile.tma_copy"(%s, %A, %c0, %c0, %bar) <{box = array<i64: 8, 16>, direction = #tile<direction load>, mode = #tile<mode tile>, rank = 2 : i32, cta_group = -2147483648 : i32, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 1, 0, 0>}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32, !llvm.ptr<3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_element_stride(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [element-strides-range] element_strides[0] = -9223372036854775808 is outside 1..8}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: -9223372036854775808, 1>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<1x8x16xf32, 3> {alignment = 1024}
  gpu.func @huge_global_dims(%G: memref<4294967296x4294967296x4294967296xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<1x8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [global-dim-range] the global dims of 'memref<4294967296x4294967296x4294967296xf32>' multiply to more than 2^63 elements}}
    tile.tma_copy load tile 3d %s, %G[%c0, %c0, %c0] mbar(%bar) {box = array<i64: 1, 8, 16>} : memref<1x8x16xf32, 3>, memref<4294967296x4294967296x4294967296xf32>
    gpu.return
  }
}

// -----

// Negative extents and values.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @negative_rank_keyword(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[rank-range] rank -2 is outside 1..5}}
    tile.tma_copy load tile -2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @negative_cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-group] cta_group -1 is invalid: expected 1 or 2}}
    tile.tma_copy load tile 2d cta_group(-1) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @negative_box_extent(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [box-extent] box[0] = -8 is outside 1..256}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: -8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @negative_element_stride(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [element-strides-range] element_strides[0] = -1 is outside 1..8}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: -1, 1>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @negative_memref_extent(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{expected non-function type}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<-8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @negative_interleave(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [interleave-range] interleave -1 is outside 0..2 (none, 16B, 32B)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, interleave = -1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Missing operands.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_coords(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [coords-count] expected 2 coords, got 0}}
    tile.tma_copy load tile 2d %s, %A[] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_global(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-operand] a load names the shared buffer, then the global operand: expected ','}}
    tile.tma_copy load tile 2d %s[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_mbar_value(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [mbar-required] a load completes on an mbarrier: add mbar(%bar)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar() {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_mbar(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [mbar-required] a load completes on an mbarrier: add mbar(%bar)}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_box(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op requires attribute 'box'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_opcode(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected load, store, reduce, prefetch or a PTX opcode string}}
    tile.tma_copy %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_rank(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected the rank, e.g. '2d'}}
    tile.tma_copy load tile %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_rank_suffix(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected 'd' after the rank 2}}
    tile.tma_copy load tile 2 %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_cta_group_parens(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] expected cta_group(1) or cta_group(2)}}
    tile.tma_copy load tile 2d cta_group 2 %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @missing_segment(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op operand count (5) does not match with the total size (4) specified in attribute 'operandSegmentSizes'}}
    "tile.tma_copy"(%s, %A, %c0, %c0, %bar) <{box = array<i64: 8, 16>, direction = #tile<direction load>, mode = #tile<mode tile>, rank = 2 : i32, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 0, 0, 0>}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32, !llvm.ptr<3>) -> ()
    gpu.return
  }
}

// -----

// Wrong types.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  // expected-note @+1 {{prior use here}}
  gpu.func @wrong_type_coord(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{use of value '%i' expects different type than prior uses: 'i32' vs 'i64'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %i] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_mbar(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    // expected-note @+1 {{prior use here}}
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{use of value '%c0' expects different type than prior uses: '!llvm.ptr<3>' vs 'i32'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%c0) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_shared(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[shared-operand] the shared buffer is a memref, got 'tensor<8x16xf32>'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : tensor<8x16xf32>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_global(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op operand #1 must be memref of any type values or LLVM pointer type, but got 'i64'}}
    tile.tma_copy load tile 2d %s, %i[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, i64
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  // expected-note @+1 {{prior use here}}
  gpu.func @wrong_type_cta_mask(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{use of value '%pol' expects different type than prior uses: 'i16' vs 'i64'}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%pol) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_box(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op attribute 'box' failed to satisfy constraint: i64 dense array attribute}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = [8, 16]} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_swizzle(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op attribute 'swizzle' failed to satisfy constraint: 32-bit signless integer attribute}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, swizzle = 1 : i64} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_coord_steps(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op attribute 'coord_steps' failed to satisfy constraint: array attribute}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = "x"} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_coord_steps_entry(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op [coord-steps-arity] coord_steps[0] must be an array<i64> of 2 entries, got 1 : i64}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [1, 2]} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @wrong_type_rank_generic(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{'tile.tma_copy' op attribute 'rank' failed to satisfy constraint: 32-bit signless integer attribute}}
    "tile.tma_copy"(%s, %A, %c0, %c0, %bar) <{box = array<i64: 8, 16>, direction = #tile<direction load>, mode = #tile<mode tile>, rank = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0, 1, 0, 0>}> : (memref<8x16xf32, 3>, memref<64x64xf32>, i32, i32, !llvm.ptr<3>) -> ()
    gpu.return
  }
}

// -----

// Unterminated opcode strings.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @unterminated_opcode(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{expected '"' in string literal}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @empty_opcode(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] '': the opcode ends early: expected 'cp' (instruction)}}
    tile.tma_copy "" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @opcode_trailing_dot(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.': the opcode ends early: unknown or misplaced qualifier}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes." %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Duplicated qualifiers.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @duplicated_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] duplicated qualifier 'cluster'}}
    tile.tma_copy load tile 2d cluster cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @duplicated_cache_hint(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] duplicated qualifier 'cache_hint'}}
    tile.tma_copy load tile 2d cache_hint cache_hint %s, %A[%c0, %c0] mbar(%bar) cache_policy(%pol) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @duplicated_cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] duplicated qualifier 'cta_group'}}
    tile.tma_copy load tile 2d cta_group(1) cta_group(2) %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @duplicated_multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] duplicated qualifier 'multicast'}}
    tile.tma_copy load tile 2d cluster multicast multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @duplicated_ptx_qualifier(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint.L2::cache_hint': part 'L2::cache_hint' (position 10): unknown or misplaced qualifier}}
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint.L2::cache_hint" %s, %A[%c0, %c0] mbar(%bar) cache_policy(%pol) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @duplicated_ptx_rank(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[opcode-syntax] 'cp.async.bulk.tensor.2d.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes': part '2d' (position 5): '.2d.shared::cta' is no direction (load: .shared::cta.global or .shared::cluster.global; store: .global.shared::cta)}}
    tile.tma_copy "cp.async.bulk.tensor.2d.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @duplicated_attribute(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{duplicate key 'box' in dictionary attribute}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// tx_bytes verified before a malformed copy it sums.

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @tx_bytes_before_malformed_copy(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    %tx = tile.tx_bytes "t" : i32
    // expected-error @+1 {{'tile.tma_copy' op requires attribute 'box'}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {tag = "t"} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @tx_bytes_before_zero_stride(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %pol: i64, %i: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    %tx = tile.tx_bytes "t" : i32
    // expected-error @+1 {{'tile.tma_copy' op [element-strides-range] element_strides[0] = 0 is outside 1..8}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, element_strides = array<i64: 0, 1>, tag = "t"} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
