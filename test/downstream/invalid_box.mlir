// A box extent over the contract's 256: the tile verifier, linked into
// tile-downstream-lower from the installed TileMLIR::TileDialect, rejects it
// naming the rule (test_downstream_cmake.py).
gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x256xf32, 3> {alignment = 1024}
  gpu.func @too_wide(%A: memref<64x512xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x256xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 300>} : memref<8x256xf32, 3>, memref<64x512xf32>
    gpu.return
  }
}
