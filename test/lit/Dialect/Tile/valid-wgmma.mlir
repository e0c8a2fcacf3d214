// RUN: tile-opt %s -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s

// The valid neighbour of every case of invalid-wgmma.mlir (same name, the
// smallest change that passes), printed and parsed back.

// -----

// CHECK-LABEL: gpu.func @wgmma_descriptor_field_lbo(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_lbo() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_descriptor_field_sbo(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_sbo() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 64, lbo = 16, sbo = 262128} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_descriptor_field_base_offset(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  gpu.func @wgmma_descriptor_field_base_offset(%s: memref<64x64xbf16, 3>) kernel {
    %c0 = arith.constant 0 : index
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, base_offset = 7} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_descriptor_field_swizzle(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_swizzle() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_dtype_major(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x128xf8E4M3FN, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_major() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x128xf8E4M3FN, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 128, lbo = 16, sbo = 1024} : memref<64x128xf8E4M3FN, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_dtype_type(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x8xf32, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_type() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x8xf32, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 8, lbo = 16, sbo = 1024} : memref<64x8xf32, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_shape_m(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<128x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_m() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<128x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<128x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_shape_n(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_n() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 16, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_shape_n_int8(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x128xi8, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_n_int8() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x128xi8, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 48, k = 128, lbo = 16, sbo = 1024} : memref<64x128xi8, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_shape_k(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_k() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 32, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_shape_fit(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<32x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_shape_fit() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<32x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 32, k = 64, lbo = 16, sbo = 1024} : memref<32x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_swizzle_span_k(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_swizzle_span_k() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b64>, rows = 64, k = 32, lbo = 16, sbo = 512} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_swizzle_span_sbo(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_swizzle_span_sbo() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_swizzle_span_mn(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_swizzle_span_mn() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major mn>, swizzle = #tile<swizzle b64>, rows = 32, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_k_step(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_k_step() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %step = arith.constant 3 : i32
    %d = tile.wgmma_descriptor %s[%step] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, i32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_shared_address_space(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_shared_address_space(%A: memref<64x64xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_dtype_pointer(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_pointer(%p: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %d = tile.wgmma_descriptor %p[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, element_type = bf16} : !llvm.ptr<3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_tile_dtype_element_type(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_tile_dtype_element_type() kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, element_type = bf16} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_descriptor_field_start(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @raw : memref<16384xi8, 3> {alignment = 1024}
  gpu.func @wgmma_descriptor_field_start() kernel {
    %c0 = arith.constant 0 : index
    %r = memref.get_global @raw : memref<16384xi8, 3>
    %off = arith.constant 16 : index
    %v = memref.view %r[%off][] : memref<16384xi8, 3> to memref<64x16xbf16, 3>
    %d = tile.wgmma_descriptor %v[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 16, lbo = 1024, sbo = 128} : memref<64x16xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_copy_mismatch_swizzle(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_mismatch_swizzle(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_copy_mismatch_box(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_mismatch_box(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_copy_mismatch_format(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @raw : memref<8192xi8, 3> {alignment = 1024}
  gpu.func @wgmma_copy_mismatch_format(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %r = memref.get_global @raw : memref<8192xi8, 3>
    %s = memref.view %r[%c0][] : memref<8192xi8, 3> to memref<64x64xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %t = memref.view %r[%c0][] : memref<8192xi8, 3> to memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %t[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// Accepted forms beyond the neighbours: a ring of 16-byte core-matrix rows
// stepped at run time, an MN-major B tile.

// -----

// CHECK-LABEL: gpu.func @wgmma_core_matrix_ring(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @ring : memref<2x64x8xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_core_matrix_ring(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>, %step: index) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %r = memref.get_global @ring : memref<2x64x8xbf16, 3>
    tile.tma_copy load tile 2d %r, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 8>, coord_steps = [array<i64: 0, 8>]} : memref<2x64x8xbf16, 3>, memref<64x64xbf16>
    %d = tile.wgmma_descriptor %r[%step] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 16, lbo = 1024, sbo = 128} : memref<2x64x8xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_mn_major_b(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @b : memref<16x64xf16, 3> {alignment = 1024}
  gpu.func @wgmma_mn_major_b(%B: memref<64x64xf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @b : memref<16x64xf16, 3>
    tile.tma_copy load tile 2d %s, %B[%i0, %i0] mbar(%bar) {box = array<i64: 16, 64>, swizzle = 3 : i32} : memref<16x64xf16, 3>, memref<64x64xf16>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major mn>, swizzle = #tile<swizzle b128>, rows = 64, k = 16, lbo = 16, sbo = 1024} : memref<16x64xf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_base_offset_on_period(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @raw : memref<16384xi8, 3> {alignment = 1024}
  gpu.func @wgmma_base_offset_on_period() kernel {
    %c0 = arith.constant 0 : index
    %at = arith.constant 1024 : index
    %r = memref.get_global @raw : memref<16384xi8, 3>
    %s = memref.view %r[%at][] : memref<16384xi8, 3> to memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, base_offset = 0} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_base_offset_line(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @raw : memref<16384xi8, 3> {alignment = 1024}
  gpu.func @wgmma_base_offset_line() kernel {
    %c0 = arith.constant 0 : index
    %at = arith.constant 384 : index
    %r = memref.get_global @raw : memref<16384xi8, 3>
    %s = memref.view %r[%at][] : memref<16384xi8, 3> to memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, base_offset = 0} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_unwaited_copy(
// CHECK: tile.wgmma_descriptor
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
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %da = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %db = tile.wgmma_descriptor %t[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 8, k = 64, lbo = 16, sbo = 1024} : memref<8x64xbf16, 3>, index
    nvvm.mbarrier.try_wait.parity %bar, %i0, %spin : !llvm.ptr<3>, i32, i32
    nvvm.wgmma.fence.aligned
    %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_unwaited_copy_loop(
// CHECK: tile.wgmma_descriptor
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
    %da = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %db = tile.wgmma_descriptor %t[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 8, k = 64, lbo = 16, sbo = 1024} : memref<8x64xbf16, 3>, index
    scf.for %i = %c0 to %c4 step %c1 {
      nvvm.mbarrier.try_wait.parity %bar, %i0, %spin : !llvm.ptr<3>, i32, i32
      nvvm.wgmma.fence.aligned
      %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
      tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_multicast_offset(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @raw : memref<32768xi8, 3> {alignment = 1024}
  gpu.func @wgmma_multicast_offset(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %period = arith.constant 8192 : index
    %r = memref.get_global @raw : memref<32768xi8, 3>
    %s = memref.view %r[%c0][] : memref<32768xi8, 3> to memref<64x64xbf16, 3>
    tile.tma_copy load tile 2d cluster multicast %s, %A[%i0, %i0] mbar(%bar) cta_mask(%mask) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank1 = arith.index_cast %rank32 : i32 to index
    %rank = arith.muli %rank1, %period : index
    %v = memref.view %r[%c0][] : memref<32768xi8, 3> to memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %v[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_copy_strides_lbo(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<4x64x8xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_strides_lbo(%A: memref<64x32xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<4x64x8xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 8>, coord_steps = [array<i64: 0, 8>]} : memref<4x64x8xbf16, 3>, memref<64x32xbf16>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 32, lbo = 1024, sbo = 128} : memref<4x64x8xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_copy_strides_group(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<4x64x8xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_strides_group(%A: memref<64x32xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<4x64x8xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 8>, coord_steps = [array<i64: 0, 8>]} : memref<4x64x8xbf16, 3>, memref<64x32xbf16>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 32, lbo = 1024, sbo = 128} : memref<4x64x8xbf16, 3>, index
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @wgmma_copy_strides_mn_runs(
// CHECK: tile.wgmma_descriptor
gpu.module @k {
  memref.global "private" @a : memref<2x32x64xbf16, 3> {alignment = 1024}
  gpu.func @wgmma_copy_strides_mn_runs(%A: memref<32x128xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %s = memref.get_global @a : memref<2x32x64xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 32, 64>, coord_steps = [array<i64: 0, 64>], swizzle = 3 : i32} : memref<2x32x64xbf16, 3>, memref<32x128xbf16>
    %d = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix b>, major = #tile<major mn>, swizzle = #tile<swizzle b128>, rows = 128, k = 32, lbo = 4096, sbo = 1024} : memref<2x32x64xbf16, 3>, index
    gpu.return
  }
}
