// RUN: tile-opt %s | tile-opt | FileCheck %s

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x8x16xui32, 3> {alignment = 128}
  // CHECK-LABEL: gpu.func @seed
  gpu.func @seed(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xui32, 3>
    // CHECK: tile.tma_copy load tile 2d %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] mbar(%{{.*}}) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    gpu.return
  }
}
