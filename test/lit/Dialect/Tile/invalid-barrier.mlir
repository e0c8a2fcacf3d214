// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of transaction bytes and mbarrier accounting
// ([barrier-tx-mismatch], [mbarrier-uninitialized] and [mbarrier-unarmed]
// are decided by tile-check-barriers, also run first by tile-lower-tma, on
// inputs that verify; barrier-accounting.mlir has the rest).
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  gpu.func @tx_bytes_tag(%A: memref<64x64xf32>) kernel {
    // expected-error @+1 {{[tx-bytes-tag] no tile.tma_copy in the enclosing function has tag "stage0"}}
    %n = tile.tx_bytes "stage0" : i32
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<16x256x64xf32, 3> {alignment = 1024}
  gpu.func @tx_bytes_tag_too_many(%A: memref<4096x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<16x256x64xf32, 3>
    // expected-error @+1 {{[tx-bytes-tag] tag "big" sums to 1048576 bytes, more than an mbarrier phase counts (2^20 - 1)}}
    %n = tile.tx_bytes "big" : i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 256, 64>, coord_steps = [array<i64: 256, 0>], tag = "big"} : memref<16x256x64xf32, 3>, memref<4096x64xf32>
    gpu.return
  }
}

// -----

// Verifies, then fails in tile-check-barriers: the phase expects half of
// what its copy delivers.
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @barrier_tx_mismatch(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @smem : memref<64x32xf32, 3>
    // expected-error @+1 {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (1 copy)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// The second barrier of @bars is arrived on but never initialised: its
// arrival count is undefined, so no phase of it completes.
gpu.module @k {
  memref.global "private" @bars : memref<2xi64, 3> {alignment = 8}
  gpu.func @mbarrier_uninitialized() kernel {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bars = memref.get_global @bars : memref<2xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %c8 = arith.constant 8 : i64
    %at = arith.addi %addr, %c8 : i64
    %full = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %empty = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %full, %one : !llvm.ptr<3>, i32
    // expected-error @+1 {{[mbarrier-uninitialized] the mbarrier at byte 8 in @bars is arrived on but never initialised (mbarrier.init) in kernel @mbarrier_uninitialized}}
    nvvm.mbarrier.arrive %empty : !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %empty, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// A load completes on a barrier that nothing arms with its bytes: the
// arrival completes the phase at once, and the copy's bytes land in the
// next one, which then never completes.
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf32, 3> {alignment = 1024}
  memref.global "private" @bar : memref<1xi64, 3> {alignment = 8}
  gpu.func @mbarrier_unarmed(%A: memref<128x128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %s = memref.get_global @smem : memref<64x32xf32, 3>
    %g = memref.get_global @bar : memref<1xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %g : memref<1xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
    // expected-error @+1 {{[mbarrier-unarmed] a load completes on the mbarrier at byte 0 in @bar, but nothing in kernel @mbarrier_unarmed arms it with transaction bytes (mbarrier.arrive.expect_tx or mbarrier.expect_tx): its phase never completes}}
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}
