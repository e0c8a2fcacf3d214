// A debug build checks a derivation's runtime values before it writes the
// map and, in a module that derives maps, issues a copy through an opaque
// map only while no fault is recorded (a map reached through memory may
// not have been published).
// RUN: tile-opt %s --tile-lower-tma=debug=true | FileCheck %s

// CHECK: gpu.module @k
// CHECK-SAME: "global-base-alignment" = [[BASE:[0-9]+]] : i64, "global-dim-range" = [[DIM:[0-9]+]] : i64, "global-stride-alignment" = [[ALIGN:[0-9]+]] : i64, "global-stride-range" = [[RANGE:[0-9]+]] : i64,
// CHECK-SAME: "tensormap-alignment" = [[TMA:[0-9]+]] : i64}
// CHECK-SAME: sites = ["derive_load: tile.tensormap_derive (derive 0) at {{.*}}", "derive_load: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes (copy 0) at
// CHECK-LABEL: gpu.func @derive_load
// The destination and the staging buffer are 128-byte aligned.
// CHECK: %[[D:.*]] = llvm.ptrtoint %arg1 : !llvm.ptr<1> to i64
// CHECK: %[[M:.*]] = llvm.mlir.constant(127 : i64) : i64
// CHECK-NEXT: llvm.and %[[D]], %[[M]] : i64
// CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
// The address is 16-byte aligned, the dims are not 0, the stride is below
// 2^40 and a multiple of 16.
// CHECK: llvm.mlir.constant(15 : i64) : i64
// CHECK: llvm.icmp "eq" %arg3, %{{.*}} : i32
// CHECK: llvm.icmp "eq" %arg4, %{{.*}} : i32
// CHECK: llvm.mlir.constant(1099511627776 : i64) : i64
// CHECK: llvm.icmp "uge" %arg5
// The first failing check is recorded; otherwise the map is written and fenced.
// CHECK: scf.if
// CHECK: llvm.atomicrmw add
// CHECK: } else {
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.address.p3"
// CHECK: nvvm.fence.proxy.release <gpu>
// CHECK: nvvm.fence.proxy.acquire <gpu>
// CHECK: }
// The copy: skipped once any fault is recorded (a volatile read of the count).
// CHECK: llvm.load volatile %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK: scf.if
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<64x128xbf16, 3> {alignment = 1024 : i64}
  memref.global "private" @stage : memref<128xi8, 3> {alignment = 128 : i64}
  memref.global "private" @bars : memref<1xi64, 3> {alignment = 8 : i64}
  gpu.func @derive_load(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %p: i64, %rows: i32, %cols: i32, %pitch: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x128xbf16, 3>
    %st = memref.get_global @stage : memref<128xi8, 3>
    %sidx = memref.extract_aligned_pointer_as_index %st : memref<128xi8, 3> -> index
    %si = arith.index_cast %sidx : index to i64
    %sp = llvm.inttoptr %si : i64 to !llvm.ptr<3>
    %b = memref.get_global @bars : memref<1xi64, 3>
    %bidx = memref.extract_aligned_pointer_as_index %b : memref<1xi64, 3> -> index
    %bi = arith.index_cast %bidx : index to i64
    %bar = llvm.inttoptr %bi : i64 to !llvm.ptr<3>
    %m = tile.tensormap_derive %T into %dest staging(%sp) new_address(%p : i64) new_dims(%rows, %cols) new_strides(%pitch)
        {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    %tx = tile.tx_bytes "t" : i32
    %one = arith.constant 1 : i32
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 64, 128>, tag = "t"} : memref<64x128xbf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}
