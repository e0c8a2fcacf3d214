// tile.tensormap_derive: the template copy, one tensormap.replace per
// replaced field, the copy to the destination and the tensormap-proxy
// fences, in this order, before the copy that reads the map.
// RUN: tile-opt %s -split-input-file --tile-lower-tma | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-to-ptx | FileCheck %s --check-prefix=PTX

// Every field, a memref template (a tensor-map parameter the host encodes
// from the template fields), shared staging.
// CHECK-LABEL: gpu.func @every_field
// CHECK-SAME: %[[MAP:[a-z0-9]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 6, source = 0, mode = tile, encode = tiled, format = bfloat16, data_type = 9, elem_bits = 16, rank = 2, global_rank = 2, box = [128, 64],
// The template, 16 bytes at a time, into the staging buffer.
// CHECK: %[[V0:.*]] = llvm.load %[[MAP]] {alignment = 16 : i64} : !llvm.ptr -> vector<4xi32>
// CHECK-NEXT: llvm.store %[[V0]], %[[STAGE:[a-z0-9]+]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.address.p3"(%[[STAGE]], %{{.*}}) : (!llvm.ptr<3>, i64) -> ()
// CHECK: %[[R:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.rank.p3"(%[[STAGE]], %[[R]])
// Box (32, 64) innermost-first: ordinal 1 is 32, ordinal 0 is 64.
// CHECK: %[[O1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[B32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.box.dim.p3"(%[[STAGE]], %[[O1]], %[[B32]])
// CHECK: %[[O0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[B64:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.box.dim.p3"(%[[STAGE]], %[[O0]], %[[B64]])
// Dims (rows, cols): rows is ordinal 1, cols ordinal 0.
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.dim.p3"(%[[STAGE]], %{{.*}}, %[[ROWS:arg[0-9]+]])
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.dim.p3"(%[[STAGE]], %{{.*}}, %[[COLS:arg[0-9]+]])
// The row pitch is globalStrides[0], in bytes.
// CHECK: %[[S0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.global.stride.p3"(%[[STAGE]], %[[S0]], %{{.*}}) : (!llvm.ptr<3>, i32, i64) -> ()
// CHECK-COUNT-2: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.element.stride.p3"
// float16 is .elemtype 6 (CUtensorMapDataType 6 too; bfloat16 would be 10, not 9).
// CHECK: %[[F16:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.elemtype.p3"(%[[STAGE]], %[[F16]])
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.interleave.layout.p3"
// CHECK: %[[SW:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.swizzle.mode.p3"(%[[STAGE]], %[[SW]])
// sm_90a has no swizzle_atomicity.
// CHECK-NOT: swizzle.atomicity
// CHECK: %[[NAN:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.fill.mode.p3"(%[[STAGE]], %[[NAN]])
// Staging to the destination, then the fences, then the copy.
// CHECK: llvm.load %[[STAGE]] {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NEXT: llvm.store %{{.*}}, %[[DEST:[a-z0-9]+]] {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK-NEXT: nvvm.fence.proxy.release <gpu>
// CHECK-NEXT: %[[N:.*]] = llvm.mlir.constant(128 : i32) : i32
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[DEST]] : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT: nvvm.fence.proxy.acquire <gpu> %[[G]], %[[N]]
// CHECK: %[[D:.*]] = llvm.addrspacecast %[[DEST]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[D]], %{{.*}}, box[%{{.*}}, %{{.*}}] {isCTAOnly = true}

// The PTX (the gpu.binary's assembly, one escaped line): the same sequence.
// PTX-LABEL: gpu.binary @k
// PTX-SAME: .entry every_field(
// PTX-SAME: ld.param.v4.b32
// PTX-SAME: st.shared.v4.b32 \09[stage]
// PTX-SAME: tensormap.replace.tile.global_address.shared::cta.b1024.b64 \09[stage], %rd
// PTX-SAME: tensormap.replace.tile.rank.shared::cta.b1024.b32 \09[stage], %r
// PTX-SAME: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 \09[stage], 1, %r
// PTX-SAME: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 \09[stage], 0, %r
// PTX-SAME: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 \09[stage], 1, %r
// PTX-SAME: tensormap.replace.tile.global_dim.shared::cta.b1024.b32 \09[stage], 0, %r
// PTX-SAME: tensormap.replace.tile.global_stride.shared::cta.b1024.b64 \09[stage], 0, %rd
// PTX-SAME: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 \09[stage], 1, %r
// PTX-SAME: tensormap.replace.tile.element_stride.shared::cta.b1024.b32 \09[stage], 0, %r
// PTX-SAME: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 \09[stage], 6;
// PTX-SAME: tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 \09[stage], 0;
// PTX-SAME: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 \09[stage], 3;
// PTX-SAME: tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 \09[stage], 1;
// PTX-SAME: ld.shared.v4.b32
// PTX-SAME: st.global.v4.b32
// PTX-SAME: fence.proxy.tensormap::generic.release.gpu;
// PTX-SAME: fence.proxy.tensormap::generic.acquire.gpu [%[[M:rd[0-9]+]]], 128;
// PTX-SAME: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [smem], [%[[M]], {

gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<32x64xf16, 3> {alignment = 1024 : i64}
  memref.global "private" @stage : memref<128xi8, 3> {alignment = 128 : i64}
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  gpu.func @every_field(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %p: i64, %rows: i32, %cols: i32, %pitch: i64) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<32x64xf16, 3>
    %st = memref.get_global @stage : memref<128xi8, 3>
    %sidx = memref.extract_aligned_pointer_as_index %st : memref<128xi8, 3> -> index
    %si = arith.index_cast %sidx : index to i64
    %sp = llvm.inttoptr %si : i64 to !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %m = tile.tensormap_derive %T into %dest staging(%sp) new_address(%p : i64) new_dims(%rows, %cols) new_strides(%pitch)
        {box = array<i64: 64, 128>, new_rank = 2 : i32, new_box = array<i64: 32, 64>, new_element_strides = array<i64: 1, 1>,
         new_format = #tile<format float16>, new_swizzle = 3 : i32, new_interleave = 0 : i32, new_oob_fill = 1 : i32}
        : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    %tx = tile.tx_bytes "t" : i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 32, 64>, swizzle = 3 : i32, oob_fill = 1 : i32, tag = "t"} : memref<32x64xf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}

// -----

// Without staging the fields are replaced in the destination itself
// (tensormap.replace on global memory); a pointer template is read where it
// is. On sm_100a (+ptx87) a swizzle replacement writes both halves.
// CHECK-LABEL: gpu.func @in_place
// CHECK-NOT: tile.tensor_maps
// CHECK: %[[V:.*]] = llvm.load %arg0 {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi32>
// CHECK-NEXT: llvm.store %[[V]], %arg1 {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<1>
// CHECK: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.swizzle.mode.p1"(%arg1, %{{.*}})
// CHECK: %[[A:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call_intrinsic "llvm.nvvm.tensormap.replace.swizzle.atomicity.p1"(%arg1, %[[A]])
// CHECK-NEXT: nvvm.fence.proxy.release <gpu>
// CHECK: nvvm.fence.proxy.acquire <gpu>
// PTX-LABEL: gpu.binary @k
// PTX-SAME: .entry in_place(
// PTX-SAME: tensormap.replace.tile.swizzle_mode.global.b1024.b32 \09[%rd{{[0-9]+}}], 3;
// PTX-SAME: tensormap.replace.tile.swizzle_atomicity.global.b1024.b32 \09[%rd{{[0-9]+}}], 1;
// PTX-SAME: fence.proxy.tensormap::generic.release.gpu;
// PTX-SAME: fence.proxy.tensormap::generic.acquire.gpu
gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx87">] {
  gpu.func @in_place(%tmpl: !llvm.ptr<1>, %dest: !llvm.ptr<1>) kernel {
    %m = tile.tensormap_derive %tmpl into %dest {box = array<i64: 64, 64>, swizzle = 3 : i32, new_swizzle = 4 : i32} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}
