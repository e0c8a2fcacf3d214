// RUN: tile-opt %s -split-input-file --tile-lower-tma=debug=true | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-lower-tma | FileCheck %s --check-prefix=RELEASE

// A debug build of a module with wgmma descriptors (docs/debug-mode.md,
// "Checked reads"): each load into shared::cta records its image, its
// barrier and the phase it completes in the fill table; before a wgmma
// reads a tile, every recorded image overlapping the tile has completed
// that phase, and a load covers the tile's first byte; otherwise
// [wgmma-unwaited-copy] is recorded. A release build has none of it.
//
// RELEASE-NOT: __tile_debug
// RELEASE-NOT: nvvm.mbarrier.test.wait

// CHECK-LABEL: gpu.module @k
// CHECK-SAME: rules = {{{.*}}"wgmma-unwaited-copy" = [[UNWAITED:[0-9]+]] : i64}
// CHECK-SAME: shared_bytes = 1024 : i64
// CHECK-SAME: "mma: tile.wgmma_descriptor (read 0) at {{[^:"]*}}tile-lower-wgmma-debug.mlir:{{[0-9]+}}:{{[0-9]+}}"
// CHECK-SAME: "mma: tile.wgmma_descriptor (read 1) at
// The whole table is cleared at entry: 128 words.
// CHECK: gpu.func @mma(
// CHECK: %[[WORDS:[^ ]+]] = arith.constant 128 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[WORDS]]
// CHECK: llvm.store %{{.*}} : i64, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// The expect_tx bumps the barrier's generation when its phase is new.
// CHECK: nvvm.mbarrier.test.wait
// CHECK: scf.while
// CHECK: llvm.atomicrmw add %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK: nvvm.mbarrier.arrive.expect_tx
// The load records its image (8192 bytes) in its own or the first free record.
// CHECK: arith.constant 68 : i32
// CHECK: llvm.cmpxchg
// CHECK: %[[IMAGE:[^ ]+]] = arith.constant 8192 : i32
// CHECK: llvm.store volatile %[[IMAGE]], %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.try_wait
// A's check before its descriptor: a scan of the 47 fill records, then the
// fault; the descriptor's start is the same address.
// CHECK: %[[A:[^ ]+]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[FIRST:[^ ]+]] = arith.trunci %[[A]] : i64 to i32
// CHECK: %[[C8192:[^ ]+]] = arith.constant 8192 : i32
// CHECK: arith.addi %[[FIRST]], %[[C8192]] : i32
// CHECK: %[[C47:[^ ]+]] = arith.constant 47 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C47]]
// CHECK: nvvm.mbarrier.test.wait
// A load of the function fills A's buffer, so no record covering its first
// byte is a fault too, unless the fill table overflowed (word 64).
// CHECK: %[[FULL:[^ ]+]] = arith.constant 64 : i32
// CHECK: llvm.getelementptr %{{.*}}[%[[FULL]]]
// CHECK-NEXT: llvm.load volatile
// CHECK: arith.constant [[UNWAITED]] : i32
// CHECK: llvm.atomicrmw add
// CHECK: arith.addi %[[A]], %{{.*}} : i64
// B's check: an 8-row tile of 128-byte rows reads 1024 bytes. No load
// fills B's buffer: only overlapping records are checked.
// CHECK: arith.constant 1024 : i32
// CHECK: scf.for
// CHECK-NOT: arith.constant 64 : i32
// CHECK: nvvm.wgmma.mma_async
gpu.module @k {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  memref.global "private" @b : memref<8x64xbf16, 3> {alignment = 1024}
  gpu.func @mma(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %tx = arith.constant 8192 : i32
    %spin = arith.constant 10000000 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    %t = memref.get_global @b : memref<8x64xbf16, 3>
    %acc = llvm.mlir.undef : !llvm.struct<(f32, f32, f32, f32)>
    nvvm.mbarrier.init %bar, %i0 : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%i0, %i0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    nvvm.mbarrier.try_wait.parity %bar, %i0, %spin : !llvm.ptr<3>, i32, i32
    %da = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    %db = tile.wgmma_descriptor %t[%c0] {matrix = #tile<matrix b>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 8, k = 64, lbo = 16, sbo = 1024} : memref<8x64xbf16, 3>, index
    nvvm.wgmma.fence.aligned
    %r = nvvm.wgmma.mma_async %da, %db, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
    gpu.return
  }
}

// -----

// A module with a multicast load checks no reads: the image lands in CTAs
// whose tables never see the load. Its debug build keeps the barrier table's
// first 24 words.
// CHECK-LABEL: gpu.module @multicast
// CHECK-NOT: wgmma-unwaited-copy
// CHECK: gpu.func @mma_multicast(
// CHECK-COUNT-24: llvm.store %{{.*}} : i64, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NOT: scf.for
gpu.module @multicast {
  memref.global "private" @a : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @mma_multicast(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %mask = arith.constant 3 : i16
    %tx = arith.constant 8192 : i32
    %s = memref.get_global @a : memref<64x64xbf16, 3>
    nvvm.mbarrier.init %bar, %i0 : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d cluster multicast %s, %A[%i0, %i0] mbar(%bar) cta_mask(%mask) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, memref<64x64xbf16>
    %da = tile.wgmma_descriptor %s[%c0] {matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64, k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    gpu.return
  }
}
