// Each host launch of a kernel that needs tensor maps gets one tile.tensor_map
// per map, made right before the launch, as the launch's new operands.
// RUN: tile-opt %s --tile-lower-tma | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
    memref.global "private" @smem : memref<2x8x16xui32, 3> {alignment = 128}
    gpu.func @seed(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) kernel {
      %c0 = arith.constant 0 : i32
      %s = memref.get_global @smem : memref<2x8x16xui32, 3>
      tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xui32, 3>, memref<16x16xui32>
      gpu.return
    }
    gpu.func @untouched(%A: memref<16x16xui32>) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @host
  // CHECK-SAME: (%[[A:.*]]: memref<16x16xui32>, %[[BAR:.*]]: !llvm.ptr<3>)
  func.func @host(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) {
    %c1 = arith.constant 1 : index
    // CHECK: %[[M0:.*]] = tile.tensor_map %[[A]] {spec = #tile.tensor_map_spec<param = 2, source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<16x16xui32> -> !llvm.ptr
    // CHECK-NEXT: gpu.launch_func @kernels::@seed {{.*}} args(%[[A]] : memref<16x16xui32>, %[[BAR]] : !llvm.ptr<3>, %[[M0]] : !llvm.ptr)
    gpu.launch_func @kernels::@seed blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16x16xui32>, %bar : !llvm.ptr<3>)
    // A second launch encodes its own map (once per launch).
    // CHECK: %[[M1:.*]] = tile.tensor_map %[[A]]
    // CHECK-NEXT: gpu.launch_func @kernels::@seed {{.*}} %[[M1]] : !llvm.ptr)
    gpu.launch_func @kernels::@seed blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16x16xui32>, %bar : !llvm.ptr<3>)
    // CHECK-NOT: tile.tensor_map
    // CHECK: gpu.launch_func @kernels::@untouched {{.*}} args(%[[A]] : memref<16x16xui32>)
    gpu.launch_func @kernels::@untouched blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<16x16xui32>)
    return
  }
}
