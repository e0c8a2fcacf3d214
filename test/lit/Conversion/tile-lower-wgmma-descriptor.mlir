// tile.wgmma_descriptor lowers to the arithmetic of its 64-bit value: the
// start address (buffer + k_step x step bytes) & 0x3FFFF >> 4, ORed with one
// constant of lbo, sbo, base offset and swizzle code. The constants below are
// tile_mlir.wgmma.matrix_descriptor's values of the same fields.
// RUN: tile-opt %s --tile-lower-tma | FileCheck %s
// RUN: tile-opt %s --tile-lower-tma --canonicalize | FileCheck %s --check-prefix=FOLD

gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  memref.global "private" @ring : memref<2x64x64xbf16, 3> {alignment = 1024}

  // K-major 128B, k_step 2 of a tile at 0x400: start 0x440, lbo 16, sbo 1024.
  // FOLD-LABEL: gpu.func @constant_pointer
  // FOLD: %[[D:.*]] = arith.constant 4611686293305360452 : i64
  // FOLD: memref.store %[[D]]
  gpu.func @constant_pointer(%out: memref<2xi64>) kernel {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %addr = arith.constant 1024 : i64
    %p = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %d = tile.wgmma_descriptor %p[%c2] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024, element_type = bf16} : !llvm.ptr<3>, index
    memref.store %d, %out[%c0] : memref<2xi64>
    gpu.return
  }

  // MN-major 64B: a step is two 8-row groups of K, 2 x sbo bytes; k_step 2 of
  // a tile at 0x400 starts at 0x1400. Swizzle code 2 sets bit 63.
  // FOLD-LABEL: gpu.func @mn_major_pointer
  // FOLD: %[[D:.*]] = arith.constant -9223371761976803008 : i64
  // FOLD: memref.store %[[D]]
  gpu.func @mn_major_pointer(%out: memref<2xi64>) kernel {
    %c0 = arith.constant 0 : index
    %s2 = arith.constant 2 : i32
    %addr = arith.constant 1024 : i64
    %p = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %d = tile.wgmma_descriptor %p[%s2] {matrix = #tile<matrix b>, major = #tile<major mn>, swizzle = #tile<swizzle b64>, rows = 32, k = 48, lbo = 16, sbo = 1024, element_type = f16} : !llvm.ptr<3>, i32
    memref.store %d, %out[%c0] : memref<2xi64>
    gpu.return
  }

  // A memref and a runtime step: the aligned pointer, 32 bytes a step.
  // CHECK-LABEL: gpu.func @memref_runtime_step
  // CHECK-DAG: %[[B:.*]] = arith.constant 32 : i64
  // CHECK-DAG: %[[P:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<64x64xbf16, 3> -> index
  // CHECK-DAG: %[[A:.*]] = arith.index_cast %[[P]] : index to i64
  // CHECK-DAG: %[[S:.*]] = arith.index_castui %{{.*}} : index to i64
  // CHECK: %[[O:.*]] = arith.muli %[[S]], %[[B]] : i64
  // CHECK: %[[AD:.*]] = arith.addi %[[A]], %[[O]] : i64
  // CHECK-DAG: %[[M:.*]] = arith.constant 262143 : i64
  // CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : i64
  // CHECK: %[[AND:.*]] = arith.andi %[[AD]], %[[M]] : i64
  // CHECK: %[[ST:.*]] = arith.shrui %[[AND]], %[[FOUR]] : i64
  // CHECK: %[[F:.*]] = arith.constant 4611686293305360384 : i64
  // CHECK: %[[D:.*]] = arith.ori %[[ST]], %[[F]] : i64
  // CHECK: memref.store %[[D]]
  // CHECK-NOT: tile.wgmma_descriptor
  gpu.func @memref_runtime_step(%out: memref<2xi64>, %step: index) kernel {
    %c0 = arith.constant 0 : index
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %d = tile.wgmma_descriptor %s[%step] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    memref.store %d, %out[%c0] : memref<2xi64>
    gpu.return
  }

  // One stage of a ring: the subview's offset (64 x 64 bf16 = 8192 bytes) is
  // added to the aligned pointer. No swizzle: a step is two core-matrix
  // columns, 2 x lbo bytes.
  // CHECK-LABEL: gpu.func @ring_stage
  // CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index
  // CHECK: %[[A:.*]] = arith.index_cast %[[P]] : index to i64
  // CHECK: %[[OFF:.*]] = arith.constant 8192 : i64
  // CHECK: arith.addi %[[A]], %[[OFF]] : i64
  // CHECK: arith.constant 2048 : i64
  // CHECK: arith.extui %{{.*}} : i32 to i64
  // CHECK: arith.muli
  // CHECK: arith.constant 34363932672 : i64
  // CHECK: arith.ori
  gpu.func @ring_stage(%out: memref<2xi64>, %step: i32) kernel {
    %c0 = arith.constant 0 : index
    %r = memref.get_global @ring : memref<2x64x64xbf16, 3>
    %stage = memref.subview %r[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xbf16, 3> to memref<64x64xbf16, strided<[64, 1], offset: 4096>, 3>
    %d = tile.wgmma_descriptor %stage[%step] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle none>, rows = 64, k = 64, lbo = 1024, sbo = 128} : memref<64x64xbf16, strided<[64, 1], offset: 4096>, 3>, i32
    memref.store %d, %out[%c0] : memref<2xi64>
    gpu.return
  }
}
