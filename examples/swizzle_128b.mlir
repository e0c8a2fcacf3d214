// A 64x64 bfloat16 box into 128B-swizzled shared memory (the layout wgmma
// reads). `tile-mlir explain examples/swizzle_128b.mlir` shows where each
// global element lands.
//
// A kernel a host launches as it is (`tile-mlir compile`, then
// tile_mlir.runtime.load): its one thread initialises the mbarrier in shared
// memory, arms it with the copy's 16384 bytes (two 64x64 bf16 slots), issues
// the copy and waits for the phase to complete.
gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x64x64xbf16, 3> {alignment = 1024}
  memref.global "private" @bars : memref<1xi64, 3> {alignment = 8}
  gpu.func @load_tiles(%A: memref<1024x1024xbf16>, %row: i32) kernel
      attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bytes = arith.constant 16384 : i32
    %ticks = arith.constant 10000000 : i32
    %s = memref.get_global @smem : memref<2x64x64xbf16, 3>
    %b = memref.get_global @bars : memref<1xi64, 3>
    %bi = memref.extract_aligned_pointer_as_index %b : memref<1xi64, 3> -> index
    %bi64 = arith.index_cast %bi : index to i64
    %bar = llvm.inttoptr %bi64 : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
    // The copy engine completes transactions on the barrier: make the
    // initialisation visible to it first.
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%row, %c0] mbar(%bar) {box = array<i64: 64, 64>, coord_steps = [array<i64: 0, 64>], swizzle = 3 : i32} : memref<2x64x64xbf16, 3>, memref<1024x1024xbf16>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}
