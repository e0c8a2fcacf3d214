// The named pipelines, run from tile-opt: the device stages (tile-to-nvvm,
// tile-to-ptx) and the host one (tile-host-to-llvm) after serialization.
// RUN: tile-opt %s --tile-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: tile-opt %s --tile-to-ptx | FileCheck %s --check-prefix=PTX
// RUN: tile-opt %s --tile-to-ptx | tile-opt --tile-host-to-llvm | FileCheck %s --check-prefix=HOST

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
    memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 128}
    gpu.func @seed(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) kernel {
      %c0 = arith.constant 0 : i32
      %s = memref.get_global @smem : memref<8x16xui32, 3>
      tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<16x16xui32>
      gpu.return
    }
  }
  func.func @host(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@seed blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16x16xui32>, %bar : !llvm.ptr<3>)
    return
  }
}

// tile-to-nvvm: NVVM kernels whose maps are finalized (grid_constant
// parameter, llvm_param), not yet serialized.
// NVVM: gpu.module @kernels
// NVVM: llvm.func @seed(
// NVVM-SAME: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// NVVM-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 2, llvm_param = 8, source = 0, mode = tile,
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global
// NVVM: func.func @host
// NVVM: tile.tensor_map %{{.*}} {spec = #tile.tensor_map_spec<param = 2, source = 0,

// tile-to-ptx: the same, serialized to PTX.
// PTX-NOT: gpu.module
// PTX: gpu.binary @kernels
// PTX-SAME: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// PTX: tile.tensor_map

// tile-host-to-llvm: the map encoded on the host, passed by value.
// HOST-NOT: tile.tensor_map
// HOST: llvm.func @cuTensorMapEncodeTiled(!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
// HOST: llvm.func @host(
// HOST: llvm.call @cuTensorMapEncodeTiled(
// HOST: llvm.load %{{.*}} {alignment = 128 : i64} : !llvm.ptr -> !llvm.array<128 x i8>
// HOST: gpu.launch_func @kernels::@seed
