// RUN: tile-opt %s -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s

// Accepted forms of tile.tensormap_derive, printed canonically.

// CHECK-LABEL: gpu.func @every_field
// CHECK: tile.tensormap_derive %{{.*}} into %{{.*}} staging(%{{.*}}) new_address(%{{.*}} : !llvm.ptr<1>) new_dims(%{{.*}}, %{{.*}}, %{{.*}}) new_strides(%{{.*}}, %{{.*}}) {box = array<i64: 1, 64, 128>, new_box = array<i64: 2, 32, 64>, new_element_strides = array<i64: 2, 1, 1>, new_format = #tile<format float16>, new_interleave = 0 : i32, new_oob_fill = 1 : i32, new_rank = 3 : i32, new_swizzle = 3 : i32} : memref<8x64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  gpu.func @every_field(%T: memref<8x64x128xbf16>, %dest: !llvm.ptr<1>, %s: !llvm.ptr<3>, %p: !llvm.ptr<1>, %d: i32, %st: i64) kernel {
    %m = tile.tensormap_derive %T into %dest staging(%s) new_address(%p : !llvm.ptr<1>) new_dims(%d, %d, %d) new_strides(%st, %st)
        {box = array<i64: 1, 64, 128>, new_rank = 3 : i32, new_box = array<i64: 2, 32, 64>, new_element_strides = array<i64: 2, 1, 1>, new_format = #tile<format float16>, new_swizzle = 3 : i32, new_interleave = 0 : i32, new_oob_fill = 1 : i32}
        : memref<8x64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

// A caller's map through a generic, a global and a constant pointer; its
// fields are what the attributes declare.
// CHECK-LABEL: gpu.func @pointer_templates
// CHECK: tile.tensormap_derive %{{.*}} into %{{.*}} new_address(%{{.*}} : i64) {box = array<i64: 64, 64>} : !llvm.ptr, !llvm.ptr -> !llvm.ptr<1>
// CHECK: tile.tensormap_derive %{{.*}} into %{{.*}} new_dims(%{{.*}}, %{{.*}}) {element_strides = array<i64: 1, 1>} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.ptr<1>
// CHECK: tile.tensormap_derive %{{.*}} into %{{.*}} {new_box = array<i64: 8, 16>} : !llvm.ptr<4>, !llvm.ptr<1> -> !llvm.ptr<1>
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  llvm.mlir.global external @cmap() {addr_space = 4 : i32, alignment = 128 : i64} : !llvm.array<128 x i8>
  gpu.func @pointer_templates(%g: !llvm.ptr, %G: !llvm.ptr<1>, %dest: !llvm.ptr, %dest1: !llvm.ptr<1>, %p: i64, %d: i32) kernel {
    %a = tile.tensormap_derive %g into %dest new_address(%p : i64) {box = array<i64: 64, 64>} : !llvm.ptr, !llvm.ptr -> !llvm.ptr<1>
    %b = tile.tensormap_derive %G into %dest1 new_dims(%d, %d) {element_strides = array<i64: 1, 1>} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.ptr<1>
    %c = llvm.mlir.addressof @cmap : !llvm.ptr<4>
    %e = tile.tensormap_derive %c into %dest1 {new_box = array<i64: 8, 16>} : !llvm.ptr<4>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

// A copy of every direction through a derived map (the copy declares the
// fields the derivation fixes); a store with a swizzle replaced on sm_100a
// between 0..3 forms (no swizzle_atomicity).
// CHECK-LABEL: gpu.func @copies
// CHECK: tile.tma_copy load tile 2d
// CHECK: tile.tma_copy store tile 2d
// CHECK: tile.tma_copy prefetch tile 2d
gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  memref.global "private" @smem : memref<64x64xbf16, 3> {alignment = 1024}
  gpu.func @copies(%T: memref<64x64xbf16>, %dest: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x64xbf16, 3>
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 64>, swizzle = 0 : i32, new_swizzle = 3 : i32} : memref<64x64xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, !llvm.ptr<1>
    tile.tma_copy store tile 2d %s, %m[%c0, %c0] {box = array<i64: 64, 64>, swizzle = 3 : i32} : memref<64x64xbf16, 3>, !llvm.ptr<1>
    tile.tma_copy prefetch tile 2d %m[%c0, %c0] {box = array<i64: 64, 64>, swizzle = 3 : i32, format = #tile<format bfloat16>} : !llvm.ptr<1>
    gpu.return
  }
}
