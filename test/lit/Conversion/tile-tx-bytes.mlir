// tile.tx_bytes folds and lowers to the tagged copies' payload bytes.
// RUN: tile-opt %s --tile-lower-tma | FileCheck %s
// RUN: tile-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

gpu.module @k {
  memref.global "private" @smem : memref<2x8x16xui32, 3> {alignment = 1024}
  memref.global "private" @pad : memref<4x64xf16, 3> {alignment = 1024}
  // CHECK-LABEL: gpu.func @phase
  // FOLD-LABEL: gpu.func @phase
  gpu.func @phase(%A: memref<16x16xui32>, %H: memref<32x64xf16>, %bar: !llvm.ptr<3>, %other: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xui32, 3>
    %p = memref.get_global @pad : memref<4x64xf16, 3>
    // 2 x 512 (seed) + 4 x 16 (payload of the padded rows) = 1088; the
    // untagged copy (on another barrier) does not count.
    // CHECK: %[[N:.*]] = arith.constant 1088 : i32
    // CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[N]]
    // FOLD: %[[N:.*]] = arith.constant 1088 : i32
    // FOLD: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[N]]
    %n = tile.tx_bytes "phase" : i32
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], tag = "phase"} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    tile.tma_copy load tile 2d %p, %H[%c0, %c0] mbar(%bar) {box = array<i64: 4, 8>, swizzle = 3 : i32, tag = "phase"} : memref<4x64xf16, 3>, memref<32x64xf16>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%other) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    gpu.return
  }
}
