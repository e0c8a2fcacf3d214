// An A operand tile for warpgroup MMAs: a 64x64 bfloat16 box loaded with the
// 128B swizzle, then the wgmma matrix descriptors of its four K steps as
// tile.wgmma_descriptor ops, which the verifier checks against the copy.
// `tile-mlir explain examples/wgmma_tile.mlir --wgmma op=2` shows what the
// third K step's descriptor reads from the copy's image.
gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<64x64xbf16, 3> {alignment = 1024}
  memref.global "private" @bars : memref<1xi64, 3> {alignment = 8}
  gpu.func @a_tile(%A: memref<1024x1024xbf16>, %row: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bytes = arith.constant 8192 : i32
    %ticks = arith.constant 10000000 : i32
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %s = memref.get_global @smem : memref<64x64xbf16, 3>
    %b = memref.get_global @bars : memref<1xi64, 3>
    %bi = memref.extract_aligned_pointer_as_index %b : memref<1xi64, 3> -> index
    %bi64 = arith.index_cast %bi : index to i64
    %bar = llvm.inttoptr %bi64 : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%row, %c0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<1024x1024xbf16>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    %d0 = tile.wgmma_descriptor %s[%k0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %d1 = tile.wgmma_descriptor %s[%k1] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %d2 = tile.wgmma_descriptor %s[%k2] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %d3 = tile.wgmma_descriptor %s[%k3] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}
