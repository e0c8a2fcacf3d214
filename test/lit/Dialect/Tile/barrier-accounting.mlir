// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics
// RUN: tile-opt %s -split-input-file --tile-lower-tma -verify-diagnostics -o /dev/null

// Static mbarrier accounting ([barrier-tx-mismatch]): where a phase's
// expect_tx bytes and the copies completing on the barrier are statically
// known they must be equal; where the IR does not fix them, nothing is said
// (the second half of this file). A 64x32 f32 box is 8192 bytes, 32x32 4096.

// -----

gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @match(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 8192 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @mismatch(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (1 copy)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// Several copies on one barrier: the phase receives their sum; a copy may
// also be issued before the expect_tx.
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  memref.global "private" @b : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @several(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %n = arith.constant 8192 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    %b = memref.get_global @b : memref<32x32xf32, 3>
    tile.tma_copy load tile 2d %a, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %b, %A[%c32, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  memref.global "private" @b : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @several_mismatch(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %n = arith.constant 4096 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    %b = memref.get_global @b : memref<32x32xf32, 3>
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (2 copies)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %a, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    tile.tma_copy load tile 2d %b, %A[%c32, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// Repeat slots: one op, one completion per slot (2 x 4096).
gpu.module @k {
  memref.global "private" @r : memref<2x32x32xf32, 3> {alignment = 1024}
  gpu.func @repeat_slots(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 8192 : i32
    %r = memref.get_global @r : memref<2x32x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %r, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>, coord_steps = [array<i64: 32, 0>]} : memref<2x32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @r : memref<2x32x32xf32, 3> {alignment = 1024}
  gpu.func @repeat_slots_mismatch(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %r = memref.get_global @r : memref<2x32x32xf32, 3>
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (1 copy)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %r, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>, coord_steps = [array<i64: 32, 0>]} : memref<2x32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// A constant-trip loop of copies in one phase: 4 x 4096.
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @loop_of_copies(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i4 = arith.constant 4 : index
    %n = arith.constant 16384 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    scf.for %i = %i0 to %i4 step %i1 {
      %row = arith.index_cast %i : index to i32
      tile.tma_copy load tile 2d %a, %A[%row, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    }
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @loop_of_copies_mismatch(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i4 = arith.constant 4 : index
    %n = arith.constant 4096 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 16384 bytes (4 copies)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    scf.for %i = %i0 to %i4 step %i1 {
      %row = arith.index_cast %i : index to i32
      tile.tma_copy load tile 2d %a, %A[%row, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    }
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// A loop whose every iteration is a phase (expect, copy, wait): the trip
// count does not matter, nor does a runtime one.
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @phase_per_iteration(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>, %steps: index) kernel {
    %c0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %n = arith.constant 2048 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    scf.for %i = %i0 to %steps step %i1 {
      %row = arith.index_cast %i : index to i32
      %parity = arith.andi %row, %c0 : i32
      // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 2048 bytes in this phase, but the copies that complete on it deliver 4096 bytes (1 copy)}}
      nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
      tile.tma_copy load tile 2d %a, %A[%row, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
      nvvm.mbarrier.try_wait.parity %bar, %parity, %c0 : !llvm.ptr<3>, i32, i32
    }
    gpu.return
  }
}

// -----

// Two phases in a row: the second expects too little.
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @second_phase(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %n = arith.constant 4096 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %a, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (2 copies)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %a, %A[%c32, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    tile.tma_copy load tile 2d %a, %A[%c32, %c32] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c1, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// tile.tx_bytes sums the tagged copies: right when every copy on the barrier
// carries the tag ...
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @tx_bytes_tag(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    %n = tile.tx_bytes "stage" : i32
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %a, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>, tag = "stage"} : memref<32x32xf32, 3>, memref<128x128xf32>
    tile.tma_copy load tile 2d %a, %A[%c32, %c0] mbar(%bar) {box = array<i64: 32, 32>, tag = "stage"} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// ... and short by the copy that lacks it.
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @tx_bytes_untagged(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    %n = tile.tx_bytes "stage" : i32
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (2 copies)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %a, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>, tag = "stage"} : memref<32x32xf32, 3>, memref<128x128xf32>
    tile.tma_copy load tile 2d %a, %A[%c32, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// Multicast: each receiving CTA's barrier gets the whole box once per copy
// (4096 here, not 4096 x 2). Other CTAs of the cluster may add their own
// multicast copies, so only expecting less than this CTA's copies surely
// deliver is an error; 8192 (two CTAs multicasting to both) is accepted.
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @multicast(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>, %bar2: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %both = arith.constant 3 : i16
    %n = arith.constant 4096 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d cluster multicast %a, %A[%c0, %c0] mbar(%bar) cta_mask(%both) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @multicast_from_every_cta(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %both = arith.constant 3 : i16
    %n = arith.constant 8192 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d cluster multicast %a, %A[%c0, %c0] mbar(%bar) cta_mask(%both) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @multicast_too_few(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %both = arith.constant 3 : i16
    %n = arith.constant 2048 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier argument #1 expects 2048 bytes in this phase, but this CTA's own copies alone deliver 4096 bytes to it (a multicast copy delivers its whole box to each receiving CTA; other CTAs' copies can only add)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d cluster multicast %a, %A[%c0, %c0] mbar(%bar) cta_mask(%both) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// The builder's form: the barrier is `ptr_to` of a shared global (so a new
// pointer each time), the expect_tx and the copy sit in two `if tid == 0`
// blocks with conditions of their own, all threads wait.
gpu.module @k {
  memref.global "private" @smem : memref<64x32xf32, 3> {alignment = 1024}
  memref.global "private" @bars : memref<2xi64, 3> {alignment = 8}
  gpu.func @builder_form(%A: memref<128x128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %s = memref.get_global @smem : memref<64x32xf32, 3>
    %bars = memref.get_global @bars : memref<2xi64, 3>
    %i0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tid, %i0 : index
    scf.if %first {
      %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
      %addr = arith.index_cast %base : index to i64
      %c8 = arith.constant 8 : i64
      %at = arith.addi %addr, %c8 : i64
      %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
      %one = arith.constant 1 : i32
      nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
      %n = arith.constant 4096 : i32
      // expected-error @below {{[barrier-tx-mismatch] the mbarrier at byte 8 in @bars expects 4096 bytes in this phase, but the copies that complete on it deliver 8192 bytes (1 copy)}}
      nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    }
    gpu.barrier
    %i0b = arith.constant 0 : index
    %again = arith.cmpi eq, %tid, %i0b : index
    scf.if %again {
      %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
      %addr = arith.index_cast %base : index to i64
      %c8 = arith.constant 8 : i64
      %at = arith.addi %addr, %c8 : i64
      %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
      tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    }
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %c8 = arith.constant 8 : i64
    %at = arith.addi %addr, %c8 : i64
    %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// Two barriers of one global, each balanced: the barrier at byte 0 is not
// the one at byte 8.
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  memref.global "private" @bars : memref<2xi64, 3> {alignment = 8}
  gpu.func @two_barriers(%A: memref<128x128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    %bars = memref.get_global @bars : memref<2xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %c8 = arith.constant 8 : i64
    %at = arith.addi %addr, %c8 : i64
    %b0 = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %b1 = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    %n = arith.constant 4096 : i32
    %none = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    nvvm.mbarrier.init %b0, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.init %b1, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %b0, %n : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %b1, %none : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %a, %A[%c0, %c0] mbar(%b0) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %b0, %c0, %c0 : !llvm.ptr<3>, i32, i32
    nvvm.mbarrier.try_wait.parity %b1, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// A barrier in dynamic shared memory behind the buffers (the benchmark
// kernels' layout), the expect_tx too small.
gpu.module @k {
  gpu.func @dynamic_barrier(%A: memref<128x128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 0 : index
    %boff = arith.constant 8192 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x32xf32, #gpu.address_space<workgroup>>
    %bars = memref.view %dyn[%boff][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<1xi64, #gpu.address_space<workgroup>>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<1xi64, #gpu.address_space<workgroup>> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %one = arith.constant 1 : i32
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    %n = arith.constant 8000 : i32
    // expected-error @below {{[barrier-tx-mismatch] the mbarrier at byte 8192 in the dynamic shared memory expects 8000 bytes in this phase, but the copies that complete on it deliver 8192 bytes (1 copy)}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Not provable: no diagnostic, even though the constants disagree.
//===----------------------------------------------------------------------===//

// The expected bytes are a runtime value.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @runtime_bytes(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>, %n: i32) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    gpu.return
  }
}

// -----

// The copy runs under a condition the expect_tx does not have (one CTA of a
// cluster, say): different threads, unknown counts.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @other_condition(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>, %issuer: i1) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    scf.if %issuer {
      tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    }
    gpu.return
  }
}

// -----

// A barrier picked at run time (a ring of stages) may be any of them.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  memref.global "private" @bars : memref<4xi64, 3> {alignment = 8}
  gpu.func @runtime_stage(%A: memref<128x128xf32>, %stage: i64) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    %bars = memref.get_global @bars : memref<4xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<4xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %c8 = arith.constant 8 : i64
    %delta = arith.muli %stage, %c8 : i64
    %at = arith.addi %addr, %delta : i64
    %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    %one = arith.constant 1 : i32
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    gpu.return
  }
}

// -----

// Two pointer arguments may be one barrier.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @aliasing_arguments(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>, %other: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.arrive.expect_tx %other, %n : !llvm.ptr<3>, i32
    gpu.return
  }
}

// -----

// The barrier's address escapes to an op the analysis does not know.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @escapes(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    llvm.inline_asm has_side_effects "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [$0], 4096;", "r" %bar : (!llvm.ptr<3>) -> ()
    gpu.return
  }
}

// -----

// A call may account the barrier elsewhere.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  func.func @helper() {
    return
  }
  gpu.func @calls(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    func.call @helper() : () -> ()
    gpu.return
  }
}

// -----

// Copies in a loop of runtime trip count, in one phase.
gpu.module @k {
  memref.global "private" @a : memref<32x32xf32, 3> {alignment = 1024}
  gpu.func @runtime_trips(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>, %n_tiles: index) kernel {
    %c0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %n = arith.constant 4096 : i32
    %a = memref.get_global @a : memref<32x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    scf.for %i = %i0 to %n_tiles step %i1 {
      tile.tma_copy load tile 2d %a, %A[%c0, %c0] mbar(%bar) {box = array<i64: 32, 32>} : memref<32x32xf32, 3>, memref<128x128xf32>
    }
    gpu.return
  }
}

// -----

// A wait only some threads run between the expect_tx and the copy does not
// end the issuing thread's phase.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @consumer_wait(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>, %consumer: i1) kernel {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 8192 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    scf.if %consumer {
      nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    }
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    gpu.return
  }
}

// -----

// No expect_tx in the kernel at all; a device function (its callers may
// account); multicast to part of the cluster (this CTA's share unknown).
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @no_expect(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    gpu.return
  }
  gpu.func @device(%s: memref<64x32xf32, 3>, %A: !llvm.ptr, %bar: !llvm.ptr<3>) {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 4096 : i32
    %sa = memref.assume_alignment %s, 128 : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %sa, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, !llvm.ptr
    gpu.return
  }
  gpu.func @multicast_part(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %pair = arith.constant 3 : i16
    %n = arith.constant 16 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%pair) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    gpu.return
  }
}

// -----

//===----------------------------------------------------------------------===//
// Initialisation ([mbarrier-uninitialized]) and arming ([mbarrier-unarmed])
// of the barriers of a named allocation. An init or expect_tx through a
// run-time offset covers every barrier of its allocation; one through a
// pointer the IR does not name covers every barrier.
//===----------------------------------------------------------------------===//

// A ring of stages picked at run time, and no init anywhere in @bars.
gpu.module @k {
  memref.global "private" @bars : memref<4xi64, 3> {alignment = 8}
  gpu.func @runtime_stage_uninitialized(%stage: i64) kernel {
    %c0 = arith.constant 0 : i32
    %bars = memref.get_global @bars : memref<4xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<4xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %c8 = arith.constant 8 : i64
    %delta = arith.muli %stage, %c8 : i64
    %at = arith.addi %addr, %delta : i64
    %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    // expected-error @below {{[mbarrier-uninitialized] the mbarrier at a run-time offset in @bars is waited on but never initialised (mbarrier.init) in kernel @runtime_stage_uninitialized}}
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    // Named once per barrier.
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// A workgroup attribution, and a barrier in the dynamic shared memory.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  gpu.func @attribution_uninitialized() workgroup(%bars : memref<2xi64, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : i32
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, #gpu.address_space<workgroup>> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    // expected-error @below {{[mbarrier-uninitialized] the mbarrier at byte 0 in workgroup attribution #0 is waited on but never initialised (mbarrier.init) in kernel @attribution_uninitialized}}
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
  gpu.func @dynamic_uninitialized(%A: memref<128x128xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %n = arith.constant 8192 : i32
    %off = arith.constant 0 : index
    %boff = arith.constant 8192 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x32xf32, #gpu.address_space<workgroup>>
    %bars = memref.view %dyn[%boff][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2xi64, #gpu.address_space<workgroup>>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, #gpu.address_space<workgroup>> -> index
    %addr = arith.index_cast %base : index to i64
    %c8 = arith.constant 8 : i64
    %at = arith.addi %addr, %c8 : i64
    %first = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    // The barrier before it is initialised, not this one.
    nvvm.mbarrier.init %first, %one : !llvm.ptr<3>, i32
    // expected-error @below {{[mbarrier-uninitialized] the mbarrier at byte 8200 in the dynamic shared memory is armed (expect_tx) but never initialised (mbarrier.init) in kernel @dynamic_uninitialized}}
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// Multicast: each receiving CTA's copy of the barrier is the same
// allocation, armed (or not) by the same kernel.
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  memref.global "private" @bar : memref<1xi64, 3> {alignment = 8}
  gpu.func @multicast_unarmed(%A: memref<128x128xf32>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %both = arith.constant 3 : i16
    %s = memref.get_global @s : memref<64x32xf32, 3>
    %g = memref.get_global @bar : memref<1xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %g : memref<1xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    // expected-error @below {{[mbarrier-unarmed] a load completes on the mbarrier at byte 0 in @bar, but nothing in kernel @multicast_unarmed arms it with transaction bytes (mbarrier.arrive.expect_tx or mbarrier.expect_tx): its phase never completes}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%both) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
  gpu.func @multicast_armed(%A: memref<128x128xf32>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %both = arith.constant 3 : i16
    %n = arith.constant 16384 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    %g = memref.get_global @bar : memref<1xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %g : memref<1xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%both) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// The library's ring: thread 0 initialises every stage in a loop (a
// run-time index), the producer arms and loads the stage it picks at run
// time, everyone waits on a constant stage.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  memref.global "private" @bars : memref<4xi64, 3> {alignment = 8}
  gpu.func @ring(%A: memref<128x128xf32>, %stage: i64) kernel {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %n = arith.constant 8192 : i32
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    %i4 = arith.constant 4 : index
    %c8 = arith.constant 8 : i64
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %i0 : index
    %s = memref.get_global @s : memref<64x32xf32, 3>
    %bars = memref.get_global @bars : memref<4xi64, 3>
    scf.if %first {
      scf.for %i = %i0 to %i4 step %i1 {
        %base = memref.extract_aligned_pointer_as_index %bars : memref<4xi64, 3> -> index
        %addr = arith.index_cast %base : index to i64
        %ii = arith.index_cast %i : index to i64
        %delta = arith.muli %ii, %c8 : i64
        %at = arith.addi %addr, %delta : i64
        %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
        nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
      }
    }
    gpu.barrier
    %base = memref.extract_aligned_pointer_as_index %bars : memref<4xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %delta = arith.muli %stage, %c8 : i64
    %at = arith.addi %delta, %addr : i64
    %bar = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    scf.if %first {
      nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32
      tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    }
    %c16 = arith.constant 16 : i64
    %at2 = arith.addi %addr, %c16 : i64
    %bar2 = llvm.inttoptr %at2 : i64 to !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %bar2, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// Not provable, no diagnostic: a barrier the IR does not name (a kernel
// parameter); an init through a pointer it does not trace (a GEP), which may
// be any barrier; inline PTX that names an mbarrier; a call.
gpu.module @k {
  memref.global "private" @s : memref<64x32xf32, 3> {alignment = 1024}
  memref.global "private" @bars : memref<2xi64, 3> {alignment = 8}
  func.func @helper() {
    return
  }
  gpu.func @parameter(%A: memref<128x128xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @s : memref<64x32xf32, 3>
    nvvm.mbarrier.arrive %bar : !llvm.ptr<3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 64, 32>} : memref<64x32xf32, 3>, memref<128x128xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
  gpu.func @untraced_init() kernel {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bars = memref.get_global @bars : memref<2xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    %next = llvm.getelementptr %bar[1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
    nvvm.mbarrier.init %next, %one : !llvm.ptr<3>, i32
    %c8 = arith.constant 8 : i64
    %at = arith.addi %addr, %c8 : i64
    %bar1 = llvm.inttoptr %at : i64 to !llvm.ptr<3>
    nvvm.mbarrier.try_wait.parity %bar1, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
  gpu.func @inline_init() kernel {
    %c0 = arith.constant 0 : i32
    %bars = memref.get_global @bars : memref<2xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    llvm.inline_asm has_side_effects "mbarrier.init.shared::cta.b64 [$0], 1;", "r" %bar : (!llvm.ptr<3>) -> ()
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
  gpu.func @calls_helper() kernel {
    %c0 = arith.constant 0 : i32
    %bars = memref.get_global @bars : memref<2xi64, 3>
    %base = memref.extract_aligned_pointer_as_index %bars : memref<2xi64, 3> -> index
    %addr = arith.index_cast %base : index to i64
    %bar = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
    func.call @helper() : () -> ()
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}
