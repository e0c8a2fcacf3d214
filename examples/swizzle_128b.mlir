// A 64x64 bfloat16 box into 128B-swizzled shared memory (the layout wgmma
// reads). `tile-mlir explain examples/swizzle_128b.mlir` shows where each
// global element lands.
gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x64x64xbf16, 3> {alignment = 1024}
  gpu.func @load_tiles(%A: memref<1024x1024xbf16>, %bar: !llvm.ptr<3>, %row: i32) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x64x64xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%row, %c0] mbar(%bar) {box = array<i64: 64, 64>, coord_steps = [array<i64: 0, 64>], swizzle = 3 : i32} : memref<2x64x64xbf16, 3>, memref<1024x1024xbf16>
    gpu.return
  }
}
