// RUN: tile-opt %s -split-input-file --tile-lower-tma=debug=true | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-lower-tma | FileCheck %s --check-prefix=RELEASE

// tile-lower-tma{debug=true} (docs/debug-mode.md): the gpu.module gets the
// error buffer (a zero-initialized global in address space 1) and the
// barrier table (1024 bytes of static shared memory, cleared by one thread
// at each kernel's entry before a CTA barrier); every expect_tx and
// mbarrier.init updates the barrier's counts; every copy checks the runtime
// values the verifier could not decide and records a violation instead of
// issuing; every blocking wait is a bounded loop that records a timeout and
// exits the thread. Without the option none of it is there.
//
// RELEASE-NOT: tile.debug
// RELEASE-NOT: __tile_debug
// RELEASE-NOT: globaltimer
// RELEASE-NOT: nvvm.exit
// RELEASE-NOT: nvvm.mbarrier.try_wait {{.*}}-> i1
// RELEASE-NOT: nvvm.mbarrier.test.wait

// A load at runtime coordinates, two slots, expect_tx of a runtime count and
// the builder's wait.
// CHECK-LABEL: gpu.module @k
// CHECK-SAME: tile.debug = {buffer = "__tile_debug_error", counts_issued = true
// CHECK-SAME: fields = {block = 4 : i64, count = 0 : i64, kernel = 2 : i64, rule = 1 : i64, site = 3 : i64, thread = 7 : i64, timeout_us = 16 : i64, values = 10 : i64}
// CHECK-SAME: kernels = ["load_wait"]
// CHECK-SAME: rules = {"barrier-tx-mismatch" = [[MISMATCH:[0-9]+]] : i64, "coord-range" = [[RANGE:[0-9]+]] : i64, "inner-coord-alignment" = [[INNER:[0-9]+]] : i64, "mbarrier-timeout" = [[TIMEOUT:[0-9]+]] : i64,
// CHECK-SAME: shared_bytes = 1024 : i64
// CHECK-SAME: sites = ["load_wait: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes (copy 0) at {{.*}}tile-lower-tma-debug.mlir:{{[0-9]+}}:{{[0-9]+}}", "load_wait: mbarrier.try_wait.parity (wait 0) at
// CHECK-SAME: words = 32 : i64
// CHECK: llvm.mlir.global external @__tile_debug_error(dense<0> : tensor<32xi32>) {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<32 x i32>
// CHECK: llvm.mlir.global private @__tile_debug_barriers() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<128 x i64>
// CHECK: gpu.func @load_wait(
// The table is cleared before any thread can name a barrier.
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: scf.if
// CHECK-COUNT-24: llvm.store %{{.*}} : i64, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// mbarrier.init resets the barrier's state.
// CHECK: nvvm.mbarrier.init %[[BAR:[^,]+]],
// CHECK: llvm.cmpxchg
// CHECK: llvm.store %{{.*}} : i64, !llvm.ptr<3>
// expect_tx: the phase in progress (test_wait.parity 0), then the counts,
// then the arrive itself.
// CHECK: nvvm.mbarrier.test.wait %[[BAR]], %{{.*}} : !llvm.ptr<3>, i32 -> i1
// CHECK: scf.while
// CHECK: llvm.cmpxchg %{{.*}} monotonic monotonic : !llvm.ptr<3>, i64
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[TX:[^ ]+]] :
// The copy: the innermost coordinate's alignment (4 float32 per 16 bytes)
// and the stepped slot's 32-bit range, the first failing one recorded.
// CHECK: %[[REM:[^ ]+]] = arith.andi %[[COL:arg2]], %{{.*}} : i32
// CHECK: %[[MISALIGNED:[^ ]+]] = arith.cmpi ne, %[[REM]]
// CHECK: %[[ROW64:[^ ]+]] = arith.extsi %arg1 : i32 to i64
// CHECK: %[[SUM:[^ ]+]] = arith.addi %[[ROW64]], %{{.*}} : i64
// CHECK: arith.cmpi slt, %[[SUM]]
// CHECK: arith.cmpi sgt, %[[SUM]]
// CHECK: %[[BAD:[^ ]+]] = arith.ori %[[MISALIGNED]], %{{.*}} : i1
// CHECK: %[[C_INNER:[^ ]+]] = arith.constant [[INNER]] : i32
// CHECK: %[[RULE:[^ ]+]] = arith.select %[[MISALIGNED]], %[[C_INNER]], %{{.*}} : i32
// CHECK: scf.if %[[BAD]] {
// CHECK: llvm.atomicrmw add %{{.*}} monotonic : !llvm.ptr<1>, i32
// CHECK: llvm.store %[[RULE]], %{{.*}} : i32, !llvm.ptr<1>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: } else {
// Issued: the load's 2 x 512 bytes are counted on its barrier first.
// CHECK: nvvm.mbarrier.test.wait %[[BAR]]
// CHECK: llvm.cmpxchg
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR]], box[%[[COL]], %arg1]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR]], box[%[[COL]], %{{.*}}]
// CHECK: }
// The bounded wait: one try, then a loop that ends on completion, on another
// thread's fault, or after the timeout (the host's, else 1 s) with a record.
// CHECK: %[[C_TIMEOUT:[^ ]+]] = arith.constant [[TIMEOUT]] : i32
// CHECK: %[[C_MISMATCH:[^ ]+]] = arith.constant [[MISMATCH]] : i32
// CHECK: %[[DONE:[^ ]+]] = nvvm.mbarrier.try_wait %[[BAR]], %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32, i32 -> i1
// CHECK: scf.if
// CHECK: %[[START:[^ ]+]] = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: scf.while
// CHECK: nvvm.mbarrier.try_wait %[[BAR]]
// CHECK: llvm.load volatile
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.exit
// CHECK: nvvm.read.ptx.sreg.globaltimer
// CHECK: arith.cmpi ugt
// CHECK: arith.select %{{.*}}, %[[C_MISMATCH]], %[[C_TIMEOUT]] : i32
// CHECK: llvm.atomicrmw add
// CHECK: nvvm.exit
// CHECK: scf.condition
// After the wait: more bytes issued than expected is a phase that completed
// early.
// CHECK: arith.cmpi ugt
// CHECK: scf.if
// CHECK: llvm.atomicrmw add
// CHECK: nvvm.exit
// CHECK-NOT: nvvm.mbarrier.try_wait.parity
// CHECK: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 128}
  memref.global "private" @bars : memref<1xi64, 3> {alignment = 8}
  gpu.func @load_wait(%A: memref<64x64xf32>, %row: i32, %col: i32, %tx: i32) kernel {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ticks = arith.constant 10000000 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    %b = memref.get_global @bars : memref<1xi64, 3>
    %bi = memref.extract_aligned_pointer_as_index %b : memref<1xi64, 3> -> index
    %bi64 = arith.index_cast %bi : index to i64
    %bar = llvm.inttoptr %bi64 : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%row, %col] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}
// RELEASE-LABEL: gpu.func @load_wait(
// RELEASE: nvvm.mbarrier.arrive.expect_tx
// RELEASE-NEXT: memref.extract_aligned_pointer_as_index
// RELEASE: nvvm.cp.async.bulk.tensor.shared.cluster.global
// RELEASE: nvvm.cp.async.bulk.tensor.shared.cluster.global
// RELEASE-NEXT: nvvm.mbarrier.try_wait.parity
// RELEASE-NEXT: gpu.return

// -----

// A store at runtime coordinates stepped by a negative coord_steps entry:
// every slot's coordinates must be non-negative (the constant ones the
// verifier decided are not checked again).
// CHECK-LABEL: gpu.module @k
// CHECK-SAME: "store-coords-nonnegative" = [[NONNEG:[0-9]+]] : i64
// CHECK: gpu.func @store_steps(
// CHECK-NOT: nvvm.barrier0
// CHECK: %[[NEG0:[^ ]+]] = arith.cmpi slt, %[[ROW:arg1]], %{{.*}} : i32
// CHECK: %[[ROW1:[^ ]+]] = arith.addi %[[ROW]], %{{.*}} : i32
// CHECK: %[[NEG1:[^ ]+]] = arith.cmpi slt, %[[ROW1]], %{{.*}} : i32
// CHECK: arith.constant [[NONNEG]] : i32
// CHECK: scf.if %{{.*}} {
// CHECK: llvm.atomicrmw add
// CHECK: } else {
// CHECK-NOT: llvm.cmpxchg
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%c{{.*}}, %[[ROW]]]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%c{{.*}}, %[[ROW1]]]
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x8x16xf32, 3> {alignment = 128}
  gpu.func @store_steps(%A: memref<64x64xf32>, %row: i32) kernel {
    %c16 = arith.constant 16 : i32
    %s = memref.get_global @smem : memref<2x8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%row, %c16] {box = array<i64: 8, 16>, coord_steps = [array<i64: -8, 0>]} : memref<2x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
// RELEASE-LABEL: gpu.func @store_steps(
// RELEASE-NOT: scf.if
// RELEASE: nvvm.cp.async.bulk.tensor.global.shared.cta
// RELEASE: nvvm.cp.async.bulk.tensor.global.shared.cta
// RELEASE-NEXT: gpu.return

// -----

// An opaque tensor map: its address must be 64-byte aligned.
// CHECK-LABEL: gpu.module @k
// CHECK-SAME: "opaque-map-alignment" = [[OPAQUE:[0-9]+]] : i64
// CHECK: gpu.func @opaque(%[[A:[^:]+]]: !llvm.ptr,
// CHECK: %[[ADDR:[^ ]+]] = llvm.ptrtoint %[[A]] : !llvm.ptr to i64
// CHECK: %[[LOW:[^ ]+]] = arith.andi %[[ADDR]], %{{.*}} : i64
// CHECK: %[[BAD:[^ ]+]] = arith.cmpi ne, %[[LOW]], %{{.*}} : i64
// CHECK: arith.constant [[OPAQUE]] : i32
// CHECK: scf.if %[[BAD]] {
// CHECK: llvm.atomicrmw add
// CHECK: } else {
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[A]],
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @opaque(%A: !llvm.ptr, %c0: i32) kernel {
    %z = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%z, %z] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
    gpu.return
  }
}

// -----

// A shared::cluster destination may complete on another CTA's barrier: the
// module does not count issued bytes (counts_issued = false), so neither the
// copy nor the wait compares them; the wait stays bounded.
// CHECK-LABEL: gpu.module @k
// CHECK-SAME: counts_issued = false
// CHECK: gpu.func @cluster_dst(
// CHECK-NOT: llvm.cmpxchg
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.try_wait
// CHECK: nvvm.read.ptx.sreg.globaltimer
// CHECK-NOT: arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @cluster_dst(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// -----

// A kernel without barriers or runtime coordinates gets only the error
// buffer: no table, no checks, the copy as in a release build.
// CHECK-LABEL: gpu.module @k
// CHECK-SAME: shared_bytes = 0 : i64
// CHECK-NOT: __tile_debug_barriers
// CHECK: gpu.func @constant_store(
// CHECK-NOT: scf.if
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @constant_store(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
