// The input test_downstream_cmake.py lowers with tile-downstream-lower (the
// default pass list, tile-to-nvvm): one 8x16 f32 box loaded into shared
// memory, then stored back one tile further along. Each copy becomes one
// NVVM bulk tensor copy through its own __grid_constant__ tensor map, and no
// tile op is left.
gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @copy_tile(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %bar: !llvm.ptr<3>, %row: i32) kernel {
    %c0 = arith.constant 0 : i32
    %c16 = arith.constant 16 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%row, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %s, %B[%row, %c16] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// CHECK-LABEL: llvm.func @copy_tile(
// CHECK-SAME: %[[BAR:arg[0-9]+]]: !llvm.ptr<3>, %[[ROW:arg[0-9]+]]: i32,
// CHECK-SAME: %[[MAPA:arg[0-9]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %[[MAPB:arg[0-9]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 4, {{[^>]*}} source = 0, {{[^>]*}} format = float32, {{[^>]*}} box = [16, 8],
// CHECK-SAME: #tile.tensor_map_spec<param = 5, {{[^>]*}} source = 1, {{[^>]*}} format = float32, {{[^>]*}} box = [16, 8],
// CHECK-DAG: %[[C0:[0-9]+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[C16:[0-9]+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[0-9]+}}, %[[MAPA]], %[[BAR]], box[%[[C0]], %[[ROW]]]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAPB]], %{{[0-9]+}}, box[%[[C16]], %[[ROW]]]
// CHECK: llvm.return
