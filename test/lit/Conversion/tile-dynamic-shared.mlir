// The dynamic shared memory as the PTX dynamic window, aligned as the copies
// into it need; shared operands that are contiguous subviews.
// RUN: tile-opt %s --tile-lower-tma | FileCheck %s --check-prefix=LOWER
// RUN: tile-opt %s --pass-pipeline='builtin.module(tile-lower-tma,gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,canonicalize,cse,reconcile-unrealized-casts),tile-align-dynamic-shared)' | FileCheck %s --check-prefix=LLVM
// RUN: tile-opt %s --tile-to-ptx | FileCheck %s --check-prefix=PTX

// A 128B-swizzled copy into dynamic shared memory beside a static mbarrier:
// the dynamic window is declared 1024-byte aligned and external, so ptxas
// places it after the static buffers (an internal zero-length global sat
// among them).
// LOWER: gpu.module @swizzled [{{.*}}] attributes {tile.dynamic_shared_alignment = 1024 : i64}
// LLVM-LABEL: gpu.module @swizzled
// LLVM-DAG: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// LLVM-DAG: llvm.mlir.global private @bar() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<1 x i64>
// LLVM-NOT: tile.dynamic_shared_alignment
// PTX-LABEL: gpu.binary @swizzled
// PTX-SAME: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// PTX-SAME: .shared .align 8 .b8 bar[8];
gpu.module @swizzled [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @bar : memref<1xi64, 3> {alignment = 8}
  gpu.func @load(%A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %i0 = arith.constant 0 : index
    %n = arith.constant 1024 : i32
    %g = memref.get_global @bar : memref<1xi64, 3>
    %p = memref.extract_aligned_pointer_as_index %g : memref<1xi64, 3> -> index
    %pi = arith.index_cast %p : index to i64
    %b = llvm.inttoptr %pi : i64 to !llvm.ptr<3>
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%i0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x32xf32, #gpu.address_space<workgroup>>
    %one = arith.constant 1 : i32
    nvvm.mbarrier.init %b, %one : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %b, %n : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%b) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    nvvm.mbarrier.try_wait.parity %b, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// Unswizzled copies need 128 bytes.
// LOWER: gpu.module @plain [{{.*}}] attributes {tile.dynamic_shared_alignment = 128 : i64}
// PTX-LABEL: gpu.binary @plain
// PTX-SAME: .extern .shared .align 128 .b8 __dynamic_shmem__0[];
gpu.module @plain [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  gpu.func @load(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %off = arith.constant 512 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %dyn[%off][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x16xf32, #gpu.address_space<workgroup>>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    gpu.return
  }
}

// Dynamic shared memory no copy uses keeps the conversion's 16 bytes, but
// is the dynamic window too.
// LOWER-LABEL: gpu.module @no_copies [{{.*}}] {
// PTX-LABEL: gpu.binary @no_copies
// PTX-SAME: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
gpu.module @no_copies [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  gpu.func @touch(%out: memref<1xf32>) kernel {
    %i0 = arith.constant 0 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%i0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    %x = memref.load %v[%i0] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%i0] : memref<1xf32>
    gpu.return
  }
}

// One stage of a ring as the shared operand: the copy starts at the subview's
// offset (stage 2 of 1 KB: 2048 bytes past the ring's aligned pointer).
// LOWER-LABEL: gpu.module @ring
// LOWER: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<8x32xf32, strided<[32, 1], offset: 512>, 3> -> index
// LOWER: %[[B64:.*]] = arith.index_cast %[[BASE]] : index to i64
// LOWER: %[[AT:.*]] = arith.addi %[[B64]], %{{.*}} : i64
// LOWER: %[[PTR:.*]] = llvm.inttoptr %[[AT]] : i64 to !llvm.ptr<3>
// LOWER: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[PTR]]
// PTX-LABEL: gpu.binary @ring
// PTX-SAME: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [ring+2048]
gpu.module @ring [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @ring : memref<4x8x32xf32, 3> {alignment = 1024}
  gpu.func @stage(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %g = memref.get_global @ring : memref<4x8x32xf32, 3>
    %s = memref.subview %g[2, 0, 0][1, 8, 32][1, 1, 1] : memref<4x8x32xf32, 3> to memref<8x32xf32, strided<[32, 1], offset: 512>, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 32>, swizzle = 3 : i32} : memref<8x32xf32, strided<[32, 1], offset: 512>, 3>, memref<64x64xf32>
    gpu.return
  }
}
