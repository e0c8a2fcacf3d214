// Upstream mlir-opt with the plugin loaded parses, verifies and prints the op.
// RUN: mlir-opt %s --load-dialect-plugin=%tile_lib | FileCheck %s

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  // CHECK-LABEL: gpu.func @store
  gpu.func @store(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // CHECK: tile.tma_copy store tile 2d
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
