// RUN: tile-opt %s -split-input-file --tile-lower-tma | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-lower-tma | FileCheck %s --check-prefix=NOSYNC

// tile-lower-tma: one NVVM bulk tensor instruction per repeat slot, the
// coordinates innermost-first, the shared address of slot k at
// base + k * (slot image bytes, padding included), one 128-byte by-value
// tensor-map parameter per distinct descriptor, and the kernel's
// `tile.tensor_maps` spec (innermost-first box/element_strides).
//
// The lowering inserts no thread election, wait, fence, commit or prefetch,
// and no tile.tma_copy survives:
// NOSYNC-NOT: tile.tma_copy
// NOSYNC-NOT: nvvm.mbarrier
// NOSYNC-NOT: {{mbarrier\.(init|arrive|expect_tx|try_wait|test_wait)}}
// NOSYNC-NOT: fence
// NOSYNC-NOT: elect
// NOSYNC-NOT: {{gpu\.barrier|nvvm\.barrier|bar\.sync|barrier\.sync}}
// NOSYNC-NOT: scf.if
// NOSYNC-NOT: commit_group
// NOSYNC-NOT: wait_group
// NOSYNC-NOT: prefetch

// The contract's example: two explicit 8x16 uint32 boxes from a
// memref<2x8x16xui32, 3>. Two shared::cta loads at global (0,0) and (8,0),
// i.e. innermost-first (0,0) and (0,8); shared offsets 0 and 512 (8*16*4).
// The spec: box [16, 8] innermost-first, UINT32 (data_type 2), the global is
// kernel argument 0 and the map is the new parameter 2.

// CHECK-LABEL: gpu.func @seed(
// CHECK-SAME: %[[A:[^:]+]]: memref<16x16xui32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.kernel_signature = (memref<16x16xui32>, !llvm.ptr<3>, !llvm.ptr) -> ()
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 2, source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>]}
// CHECK: %[[C0:[^ ]+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[S:[^ ]+]] = memref.get_global @smem : memref<2x8x16xui32, 3>
// CHECK-NEXT: %[[I:[^ ]+]] = memref.extract_aligned_pointer_as_index %[[S]] : memref<2x8x16xui32, 3> -> index
// CHECK-NEXT: %[[BASE:[^ ]+]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[BASE]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %[[MAP]], %[[BAR]], box[%[[C0]], %[[C0]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O1:[^ ]+]] = arith.constant 512 : i64
// CHECK-NEXT: %[[A1:[^ ]+]] = arith.addi %[[BASE]], %[[O1]] : i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[A1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[C8:[^ ]+]] = arith.constant 8 : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %[[MAP]], %[[BAR]], box[%[[C0]], %[[C8]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x8x16xui32, 3> {alignment = 128}
  gpu.func @seed(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x16xui32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]} : memref<2x8x16xui32, 3>, memref<16x16xui32>
    gpu.return
  }
}

// -----

// A tile store: global.shared::cta, tile mode (no mode attribute), no cache
// hint, runtime coordinates (row, col) issued as (col, row).

// CHECK-LABEL: gpu.func @store_tile(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 3, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>]}
// CHECK: %[[BASE:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[BASE]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[P0]], box[%[[COL]], %[[ROW]]] : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @store_tile(%A: memref<64x64xf32>, %row: i32, %col: i32) kernel {
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group" %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Reductions: every operator maps to its redKind, tile mode, no cache hint.

// CHECK-LABEL: gpu.func @reduce_all(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xui32>, %[[ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<{{([^>]* )?}}param = 3,{{([^>]* )?}}data_type = 2,{{([^>]* )?}}box = [16, 8],{{[^>]*}}>]}
// CHECK: %[[B_P0:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B_P0]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P0]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
// CHECK: %[[B_P1:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[B_P1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P1]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<min>} : !llvm.ptr, <3>
// CHECK: %[[B_P2:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P2:[^ ]+]] = llvm.inttoptr %[[B_P2]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P2]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<max>} : !llvm.ptr, <3>
// CHECK: %[[B_P3:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P3:[^ ]+]] = llvm.inttoptr %[[B_P3]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P3]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<inc>} : !llvm.ptr, <3>
// CHECK: %[[B_P4:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P4:[^ ]+]] = llvm.inttoptr %[[B_P4]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P4]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<dec>} : !llvm.ptr, <3>
// CHECK: %[[B_P5:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P5:[^ ]+]] = llvm.inttoptr %[[B_P5]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P5]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<and>} : !llvm.ptr, <3>
// CHECK: %[[B_P6:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P6:[^ ]+]] = llvm.inttoptr %[[B_P6]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P6]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<or>} : !llvm.ptr, <3>
// CHECK: %[[B_P7:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P7:[^ ]+]] = llvm.inttoptr %[[B_P7]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P7]], box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<xor>} : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 128}
  gpu.func @reduce_all(%A: memref<64x64xui32>, %row: i32, %col: i32) kernel {
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    tile.tma_copy reduce add tile 2d %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce min tile 2d %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce max tile 2d %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce inc tile 2d %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce dec tile 2d %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce and tile 2d %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy reduce or tile 2d %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group" %s, %A[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x64xui32>
    gpu.return
  }
}

// -----

// Reductions on other formats keep the operator; the format is the map's.

// CHECK-LABEL: gpu.func @reduce_formats(
// CHECK-SAME: %[[H:[^:]+]]: memref<64x64xf16>, %[[L:[^:]+]]: memref<64x64xsi64>, %[[U:[^:]+]]: memref<64x64xui64>, %[[ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32, %[[MH:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[ML:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[MU:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 5,{{([^>]* )?}}source = 0,{{([^>]* )?}}format = float16,{{([^>]* )?}}data_type = 6,{{([^>]* )?}}elem_bits = 16,{{([^>]* )?}}box = [16, 8],{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 6,{{([^>]* )?}}source = 1,{{([^>]* )?}}format = int64,{{([^>]* )?}}data_type = 5,{{([^>]* )?}}elem_bits = 64,{{([^>]* )?}}box = [8, 8],{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 7,{{([^>]* )?}}source = 2,{{([^>]* )?}}format = uint64,{{([^>]* )?}}data_type = 4,{{([^>]* )?}}elem_bits = 64,{{([^>]* )?}}box = [8, 8],{{[^>]*}}>]
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[MH]], %{{[^ ]+}}, box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<max>} : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[ML]], %{{[^ ]+}}, box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<min>} : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[MU]], %{{[^ ]+}}, box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<xor>} : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @h : memref<8x16xf16, 3> {alignment = 128}
  memref.global "private" @l : memref<8x8xsi64, 3> {alignment = 128}
  memref.global "private" @u : memref<8x8xui64, 3> {alignment = 128}
  gpu.func @reduce_formats(%H: memref<64x64xf16>, %L: memref<64x64xsi64>, %U: memref<64x64xui64>, %row: i32, %col: i32) kernel {
    %h = memref.get_global @h : memref<8x16xf16, 3>
    %l = memref.get_global @l : memref<8x8xsi64, 3>
    %u = memref.get_global @u : memref<8x8xui64, 3>
    tile.tma_copy reduce max tile 2d %h, %H[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xf16, 3>, memref<64x64xf16>
    tile.tma_copy reduce min tile 2d %l, %L[%row, %col] {box = array<i64: 8, 8>} : memref<8x8xsi64, 3>, memref<64x64xsi64>
    tile.tma_copy reduce xor tile 2d %u, %U[%row, %col] {box = array<i64: 8, 8>} : memref<8x8xui64, 3>, memref<64x64xui64>
    gpu.return
  }
}

// -----

// gather4 (sm_100a): the column first, then the four rows. With a constant
// zero row coordinate the rows are used as given; otherwise each row is
// offset by the row coordinate. The map is a gather4 map with box [32, 1].

// CHECK-LABEL: gpu.func @gather4(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[BASE_ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32, %[[R0:[^:]+]]: i32, %[[R1:[^:]+]]: i32, %[[R2:[^:]+]]: i32, %[[R3:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 8, source = 0, mode = gather4, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [32, 1], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>]}
// CHECK: %[[B_P0:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B_P0]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[R0]], %[[R1]], %[[R2]], %[[R3]]] {isCTAOnly = true, mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<3>, !llvm.ptr
// CHECK: %[[B_P1:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[B_P1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[S0:[^ ]+]] = arith.addi %[[R0]], %[[BASE_ROW]] : i32
// CHECK-NEXT: %[[S1:[^ ]+]] = arith.addi %[[R1]], %[[BASE_ROW]] : i32
// CHECK-NEXT: %[[S2:[^ ]+]] = arith.addi %[[R2]], %[[BASE_ROW]] : i32
// CHECK-NEXT: %[[S3:[^ ]+]] = arith.addi %[[R3]], %[[BASE_ROW]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[S0]], %[[S1]], %[[S2]], %[[S3]]] {isCTAOnly = true, mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 128}
  gpu.func @gather4(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %base: i32, %col: i32, %r0: i32, %r1: i32, %r2: i32, %r3: i32) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes" %s, %A[%c0, %col] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy load gather4 2d %s, %A[%base, %col] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// scatter4 (sm_100a) with an L2 cache hint: global.shared::cta store in
// tile_scatter4 mode, column first then the four rows.

// CHECK-LABEL: gpu.func @scatter4(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[POLICY:[^:]+]]: i64, %[[COL:[^:]+]]: i32, %[[R0:[^:]+]]: i32, %[[R1:[^:]+]]: i32, %[[R2:[^:]+]]: i32, %[[R3:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<{{([^>]* )?}}param = 7,{{([^>]* )?}}mode = scatter4,{{([^>]* )?}}box = [32, 1],{{[^>]*}}>]}
// CHECK: %[[B_P0:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B_P0]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[P0]], box[%[[COL]], %[[R0]], %[[R1]], %[[R2]], %[[R3]]] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, <3>
// CHECK: %[[B_P1:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[B_P1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[P1]], box[%[[COL]], %[[R0]], %[[R1]], %[[R2]], %[[R3]]] l2_cache_hint = %[[POLICY]] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  memref.global "private" @smem : memref<4x32xf32, 3> {alignment = 128}
  gpu.func @scatter4(%A: memref<64x64xf32>, %policy: i64, %col: i32, %r0: i32, %r1: i32, %r2: i32, %r3: i32) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<4x32xf32, 3>
    tile.tma_copy store scatter4 2d %s, %A[%c0, %col] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group.L2::cache_hint" %s, %A[%c0, %col] rows[%r0, %r1, %r2, %r3] cache_policy(%policy) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// gather4/scatter4 with a repeat axis stepping (row +16, column +32): slot 1
// adds 16 to every row and uses the column 32, at shared offset 512 (4*32*4).

// CHECK-LABEL: gpu.func @gather4_repeat(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[R0:[^:]+]]: i32, %[[R1:[^:]+]]: i32, %[[R2:[^:]+]]: i32, %[[R3:[^:]+]]: i32, %[[GMAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[SMAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<{{([^>]* )?}}param = 6,{{([^>]* )?}}mode = gather4,{{([^>]* )?}}box = [32, 1],{{[^>]*}}>, #tile.tensor_map_spec<{{([^>]* )?}}param = 7,{{([^>]* )?}}mode = scatter4,{{([^>]* )?}}box = [32, 1],{{[^>]*}}>]}
// CHECK: %[[C0:[^ ]+]] = arith.constant 0 : i32
// CHECK: %[[BASE:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[BASE]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %[[GMAP]], %[[BAR]], box[%[[C0]], %[[R0]], %[[R1]], %[[R2]], %[[R3]]] {isCTAOnly = true, mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O1:[^ ]+]] = arith.constant 512 : i64
// CHECK-NEXT: %[[A1:[^ ]+]] = arith.addi %[[BASE]], %[[O1]] : i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[A1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[C16:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[C32:[^ ]+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[S0:[^ ]+]] = arith.addi %[[R0]], %[[C16]] : i32
// CHECK-NEXT: %[[S1:[^ ]+]] = arith.addi %[[R1]], %[[C16]] : i32
// CHECK-NEXT: %[[S2:[^ ]+]] = arith.addi %[[R2]], %[[C16]] : i32
// CHECK-NEXT: %[[S3:[^ ]+]] = arith.addi %[[R3]], %[[C16]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %[[GMAP]], %[[BAR]], box[%[[C32]], %[[S0]], %[[S1]], %[[S2]], %[[S3]]] {isCTAOnly = true, mode = #nvvm.tma_load_mode<tile_gather4>} : !llvm.ptr<3>, !llvm.ptr
// CHECK: %[[SBASE:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[Q0:[^ ]+]] = llvm.inttoptr %[[SBASE]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[SMAP]], %[[Q0]], box[%[[C0]], %[[R0]], %[[R1]], %[[R2]], %[[R3]]] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, <3>
// CHECK-NEXT: %[[O2:[^ ]+]] = arith.constant 512 : i64
// CHECK-NEXT: %[[A2:[^ ]+]] = arith.addi %[[SBASE]], %[[O2]] : i64
// CHECK-NEXT: %[[Q1:[^ ]+]] = llvm.inttoptr %[[A2]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[D16:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[D32:[^ ]+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[T0:[^ ]+]] = arith.addi %[[R0]], %[[D16]] : i32
// CHECK-NEXT: %[[T1:[^ ]+]] = arith.addi %[[R1]], %[[D16]] : i32
// CHECK-NEXT: %[[T2:[^ ]+]] = arith.addi %[[R2]], %[[D16]] : i32
// CHECK-NEXT: %[[T3:[^ ]+]] = arith.addi %[[R3]], %[[D16]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[SMAP]], %[[Q1]], box[%[[D32]], %[[T0]], %[[T1]], %[[T2]], %[[T3]]] {mode = #nvvm.tma_store_mode<tile_scatter4>} : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x4x32xf32, 3> {alignment = 128}
  gpu.func @gather4_repeat(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %r0: i32, %r1: i32, %r2: i32, %r3: i32) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x4x32xf32, 3>
    tile.tma_copy load gather4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>, coord_steps = [array<i64: 16, 32>]} : memref<2x4x32xf32, 3>, memref<64x64xf32>
    tile.tma_copy store scatter4 2d %s, %A[%c0, %c0] rows[%r0, %r1, %r2, %r3] {box = array<i64: 1, 32>, coord_steps = [array<i64: 16, 32>]} : memref<2x4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// shared::cluster loads: the destination is cast to the shared_cluster
// address space (7) and isCTAOnly is false (not printed); multicast passes
// the CTA mask.

// CHECK-LABEL: gpu.func @multicast(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[MASK:[^:]+]]: i16, %[[ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK: %[[B_P0:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B_P0]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[D0:[^ ]+]] = llvm.addrspacecast %[[P0]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D0]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[ROW]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[B_P1:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[B_P1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[D1:[^ ]+]] = llvm.addrspacecast %[[P1]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D1]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[ROW]]] multicast_mask = %[[MASK]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %row: i32, %col: i32) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" %s, %A[%row, %col] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" %s, %A[%row, %col] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// The L2 cache hint on every direction; with multicast both operands.

// CHECK-LABEL: gpu.func @cache_hint(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[MASK:[^:]+]]: i16, %[[POLICY:[^:]+]]: i64, %[[ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK: %[[B_P0:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B_P0]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[ROW]]] l2_cache_hint = %[[POLICY]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: %[[B_P1:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[B_P1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[D1:[^ ]+]] = llvm.addrspacecast %[[P1]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D1]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[ROW]]] multicast_mask = %[[MASK]] l2_cache_hint = %[[POLICY]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[B_P2:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P2:[^ ]+]] = llvm.inttoptr %[[B_P2]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[P2]], box[%[[COL]], %[[ROW]]] l2_cache_hint = %[[POLICY]] : !llvm.ptr, <3>
// CHECK: %[[B_P3:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P3:[^ ]+]] = llvm.inttoptr %[[B_P3]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[MAP]], %[[P3]], box[%[[COL]], %[[ROW]]] l2_cache_hint = %[[POLICY]] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @cache_hint(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %policy: i64, %row: i32, %col: i32) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d cache_hint %s, %A[%row, %col] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d cluster multicast cache_hint %s, %A[%row, %col] mbar(%bar) cta_mask(%mask) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d cache_hint %s, %A[%row, %col] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy reduce add tile 2d cache_hint %s, %A[%row, %col] cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// cta_group on sm_100a. Into shared::cluster it is the NVVM op's `group`
// (with multicast and cache hint as well). Into shared::cta the NVVM op has no
// such form, so the exact PTX instruction is issued inline (tile and gather4,
// with and without the cache hint); never the shared::cluster variant.

// CHECK-LABEL: gpu.func @cta_group(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[MASK:[^:]+]]: i16, %[[POLICY:[^:]+]]: i64, %[[ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32, %[[R0:[^:]+]]: i32, %[[R1:[^:]+]]: i32, %[[R2:[^:]+]]: i32, %[[R3:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[GMAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK: %[[B_P0:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B_P0]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[D0:[^ ]+]] = llvm.addrspacecast %[[P0]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D0]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[ROW]]] {group = #nvvm.cta_group<cta_1>} : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[B_P1:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[B_P1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[D1:[^ ]+]] = llvm.addrspacecast %[[P1]] : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[D1]], %[[MAP]], %[[BAR]], box[%[[COL]], %[[ROW]]] multicast_mask = %[[MASK]] l2_cache_hint = %[[POLICY]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[B_P2:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P2:[^ ]+]] = llvm.inttoptr %[[B_P2]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.inline_ptx "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [$0], [$1, {$2, $3}], [$4];" ro(%[[P2]], %[[MAP]], %[[COL]], %[[ROW]], %[[BAR]] : !llvm.ptr<3>, !llvm.ptr, i32, i32, !llvm.ptr<3>)
// CHECK: %[[B_P3:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P3:[^ ]+]] = llvm.inttoptr %[[B_P3]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.inline_ptx "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::1.L2::cache_hint [$0], [$1, {$2, $3}], [$4], $5;" ro(%[[P3]], %[[MAP]], %[[COL]], %[[ROW]], %[[BAR]], %[[POLICY]] : !llvm.ptr<3>, !llvm.ptr, i32, i32, !llvm.ptr<3>, i64)
// CHECK: %[[B_P4:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P4:[^ ]+]] = llvm.inttoptr %[[B_P4]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[S0:[^ ]+]] = arith.addi %[[R0]], %[[ROW]] : i32
// CHECK-NEXT: %[[S1:[^ ]+]] = arith.addi %[[R1]], %[[ROW]] : i32
// CHECK-NEXT: %[[S2:[^ ]+]] = arith.addi %[[R2]], %[[ROW]] : i32
// CHECK-NEXT: %[[S3:[^ ]+]] = arith.addi %[[R3]], %[[ROW]] : i32
// CHECK-NEXT: nvvm.inline_ptx "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes.cta_group::2 [$0], [$1, {$2, $3, $4, $5, $6}], [$7];" ro(%[[P4]], %[[GMAP]], %[[COL]], %[[S0]], %[[S1]], %[[S2]], %[[S3]], %[[BAR]] : !llvm.ptr<3>, !llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr<3>)
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  memref.global "private" @g4 : memref<4x32xf32, 3> {alignment = 128}
  gpu.func @cta_group(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16, %policy: i64, %row: i32, %col: i32, %r0: i32, %r1: i32, %r2: i32, %r3: i32) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    %g = memref.get_global @g4 : memref<4x32xf32, 3>
    tile.tma_copy load tile 2d cluster cta_group(1) %s, %A[%row, %col] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2.L2::cache_hint" %s, %A[%row, %col] mbar(%bar) cta_mask(%mask) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.cta_group::2" %s, %A[%row, %col] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d cta_group(1) cache_hint %s, %A[%row, %col] mbar(%bar) cache_policy(%policy) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load gather4 2d cta_group(2) %g, %A[%row, %col] rows[%r0, %r1, %r2, %r3] mbar(%bar) {box = array<i64: 1, 32>} : memref<4x32xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Ranks 1..5: coordinates (a, b, c, d, e) are issued innermost-first; each
// global gets its own map with the box reversed.

// CHECK-LABEL: gpu.func @ranks(
// CHECK-SAME: %[[A1:[^:]+]]: memref<256xf32>, %[[A2:[^:]+]]: memref<64x64xf32>, %[[A3:[^:]+]]: memref<4x64x64xf32>, %[[A4:[^:]+]]: memref<2x4x64x64xf32>, %[[A5:[^:]+]]: memref<2x2x4x64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[CA:[^:]+]]: i32, %[[CB:[^:]+]]: i32, %[[CC:[^:]+]]: i32, %[[CD:[^:]+]]: i32, %[[CE:[^:]+]]: i32, %[[M1:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M2:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M3:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M4:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M5:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [
// CHECK-SAME: #tile.tensor_map_spec<param = 11, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 1, global_rank = 1, box = [16], element_strides = [1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 12,{{([^>]* )?}}source = 1,{{([^>]* )?}}rank = 2,{{([^>]* )?}}global_rank = 2,{{([^>]* )?}}box = [16, 8],{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 13,{{([^>]* )?}}source = 2,{{([^>]* )?}}rank = 3,{{([^>]* )?}}global_rank = 3,{{([^>]* )?}}box = [16, 8, 2],{{([^>]* )?}}element_strides = [1, 1, 1],{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 14,{{([^>]* )?}}source = 3,{{([^>]* )?}}rank = 4,{{([^>]* )?}}global_rank = 4,{{([^>]* )?}}box = [16, 8, 2, 1],{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 15,{{([^>]* )?}}source = 4,{{([^>]* )?}}rank = 5,{{([^>]* )?}}global_rank = 5,{{([^>]* )?}}box = [16, 8, 2, 1, 1],{{([^>]* )?}}element_strides = [1, 1, 1, 1, 1],{{[^>]*}}>]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M1]], %[[BAR]], box[%[[CA]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[M1]], %{{[^ ]+}}, box[%[[CA]]] : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M2]], %[[BAR]], box[%[[CB]], %[[CA]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M3]], %[[BAR]], box[%[[CC]], %[[CB]], %[[CA]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[M3]], %{{[^ ]+}}, box[%[[CC]], %[[CB]], %[[CA]]] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M4]], %[[BAR]], box[%[[CD]], %[[CC]], %[[CB]], %[[CA]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M5]], %[[BAR]], box[%[[CE]], %[[CD]], %[[CC]], %[[CB]], %[[CA]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[M5]], %{{[^ ]+}}, box[%[[CE]], %[[CD]], %[[CC]], %[[CB]], %[[CA]]] : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[M5]], %{{[^ ]+}}, box[%[[CE]], %[[CD]], %[[CC]], %[[CB]], %[[CA]]] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @s1 : memref<16xf32, 3> {alignment = 128}
  memref.global "private" @s2 : memref<8x16xf32, 3> {alignment = 128}
  memref.global "private" @s3 : memref<2x8x16xf32, 3> {alignment = 128}
  memref.global "private" @s4 : memref<1x2x8x16xf32, 3> {alignment = 128}
  memref.global "private" @s5 : memref<1x1x2x8x16xf32, 3> {alignment = 128}
  gpu.func @ranks(%A1: memref<256xf32>, %A2: memref<64x64xf32>, %A3: memref<4x64x64xf32>, %A4: memref<2x4x64x64xf32>, %A5: memref<2x2x4x64x64xf32>, %bar: !llvm.ptr<3>, %a: i32, %b: i32, %c: i32, %d: i32, %e: i32) kernel {
    %s1 = memref.get_global @s1 : memref<16xf32, 3>
    %s2 = memref.get_global @s2 : memref<8x16xf32, 3>
    %s3 = memref.get_global @s3 : memref<2x8x16xf32, 3>
    %s4 = memref.get_global @s4 : memref<1x2x8x16xf32, 3>
    %s5 = memref.get_global @s5 : memref<1x1x2x8x16xf32, 3>
    tile.tma_copy load tile 1d %s1, %A1[%a] mbar(%bar) {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    tile.tma_copy store tile 1d %s1, %A1[%a] {box = array<i64: 16>} : memref<16xf32, 3>, memref<256xf32>
    tile.tma_copy load tile 2d %s2, %A2[%a, %b] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 3d %s3, %A3[%a, %b, %c] mbar(%bar) {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
    tile.tma_copy reduce add tile 3d %s3, %A3[%a, %b, %c] {box = array<i64: 2, 8, 16>} : memref<2x8x16xf32, 3>, memref<4x64x64xf32>
    tile.tma_copy load tile 4d %s4, %A4[%a, %b, %c, %d] mbar(%bar) {box = array<i64: 1, 2, 8, 16>} : memref<1x2x8x16xf32, 3>, memref<2x4x64x64xf32>
    tile.tma_copy "cp.async.bulk.tensor.5d.shared::cta.global.tile.mbarrier::complete_tx::bytes" %s5, %A5[%a, %b, %c, %d, %e] mbar(%bar) {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
    tile.tma_copy store tile 5d %s5, %A5[%a, %b, %c, %d, %e] {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
    tile.tma_copy "cp.reduce.async.bulk.tensor.5d.global.shared::cta.add.tile.bulk_group" %s5, %A5[%a, %b, %c, %d, %e] {box = array<i64: 1, 1, 2, 8, 16>} : memref<1x1x2x8x16xf32, 3>, memref<2x2x4x64x64xf32>
    gpu.return
  }
}

// -----

// Two repeat axes (2 x 3) with steps (16, 0) and (0, 16) from runtime
// coordinates (x, y): six slots in row-major order, slot k at k*512 bytes,
// slot (i, j) at (y + 16j, x + 16i) innermost-first; a zero step adds nothing.

// CHECK-LABEL: gpu.func @repeat_2d(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<{{([^>]* )?}}param = 4,{{([^>]* )?}}box = [16, 8],{{[^>]*}}>]
// CHECK: %[[BASE:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[BASE]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %[[MAP]], %[[BAR]], box[%[[Y]], %[[X]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O1:[^ ]+]] = arith.constant 512 : i64
// CHECK-NEXT: %[[B1:[^ ]+]] = arith.addi %[[BASE]], %[[O1]] : i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[B1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[K1:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[Y1:[^ ]+]] = arith.addi %[[Y]], %[[K1]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %[[MAP]], %[[BAR]], box[%[[Y1]], %[[X]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O2:[^ ]+]] = arith.constant 1024 : i64
// CHECK-NEXT: %[[B2:[^ ]+]] = arith.addi %[[BASE]], %[[O2]] : i64
// CHECK-NEXT: %[[P2:[^ ]+]] = llvm.inttoptr %[[B2]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[K2:[^ ]+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[Y2:[^ ]+]] = arith.addi %[[Y]], %[[K2]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P2]], %[[MAP]], %[[BAR]], box[%[[Y2]], %[[X]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O3:[^ ]+]] = arith.constant 1536 : i64
// CHECK-NEXT: %[[B3:[^ ]+]] = arith.addi %[[BASE]], %[[O3]] : i64
// CHECK-NEXT: %[[P3:[^ ]+]] = llvm.inttoptr %[[B3]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[K3:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[X3:[^ ]+]] = arith.addi %[[X]], %[[K3]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P3]], %[[MAP]], %[[BAR]], box[%[[Y]], %[[X3]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O4:[^ ]+]] = arith.constant 2048 : i64
// CHECK-NEXT: %[[B4:[^ ]+]] = arith.addi %[[BASE]], %[[O4]] : i64
// CHECK-NEXT: %[[P4:[^ ]+]] = llvm.inttoptr %[[B4]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[K4X:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[X4:[^ ]+]] = arith.addi %[[X]], %[[K4X]] : i32
// CHECK-NEXT: %[[K4Y:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[Y4:[^ ]+]] = arith.addi %[[Y]], %[[K4Y]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P4]], %[[MAP]], %[[BAR]], box[%[[Y4]], %[[X4]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O5:[^ ]+]] = arith.constant 2560 : i64
// CHECK-NEXT: %[[B5:[^ ]+]] = arith.addi %[[BASE]], %[[O5]] : i64
// CHECK-NEXT: %[[P5:[^ ]+]] = llvm.inttoptr %[[B5]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[K5X:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[X5:[^ ]+]] = arith.addi %[[X]], %[[K5X]] : i32
// CHECK-NEXT: %[[K5Y:[^ ]+]] = arith.constant 32 : i32
// CHECK-NEXT: %[[Y5:[^ ]+]] = arith.addi %[[Y]], %[[K5Y]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P5]], %[[MAP]], %[[BAR]], box[%[[Y5]], %[[X5]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x3x8x16xf32, 3> {alignment = 128}
  gpu.func @repeat_2d(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %x: i32, %y: i32) kernel {
    %s = memref.get_global @smem : memref<2x3x8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%x, %y] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 16, 0>, array<i64: 0, 16>]} : memref<2x3x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Constant coordinates with steps fold: a store repeated 3 times with step
// (0, 16) from (4, 0) issues (0, 4), (16, 4), (32, 4) with no arith.addi.

// CHECK-LABEL: gpu.func @repeat_constant(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-NOT: arith.addi %{{[^ ]+}}, %{{[^ ]+}} : i32
// CHECK-DAG: %[[C0:[^ ]+]] = arith.constant 0 : i32
// CHECK-DAG: %[[C4:[^ ]+]] = arith.constant 4 : i32
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %{{[^ ]+}}, box[%[[C0]], %[[C4]]] : !llvm.ptr, <3>
// CHECK-NEXT: %[[O1:[^ ]+]] = arith.constant 512 : i64
// CHECK-NOT: arith.addi %{{[^ ]+}}, %{{[^ ]+}} : i32
// CHECK: %[[C16:[^ ]+]] = arith.constant 16 : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %{{[^ ]+}}, box[%[[C16]], %[[C4]]] : !llvm.ptr, <3>
// CHECK-NEXT: %[[O2:[^ ]+]] = arith.constant 1024 : i64
// CHECK-NOT: arith.addi %{{[^ ]+}}, %{{[^ ]+}} : i32
// CHECK: %[[C32:[^ ]+]] = arith.constant 32 : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %{{[^ ]+}}, box[%[[C32]], %[[C4]]] : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<3x8x16xf32, 3> {alignment = 128}
  gpu.func @repeat_constant(%A: memref<64x64xf32>) kernel {
    %c4 = arith.constant 4 : i32
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<3x8x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c4, %c0] {box = array<i64: 8, 16>, coord_steps = [array<i64: 0, 16>]} : memref<3x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Swizzled images: the slot stride is the padded image. f16 box (4, 8) has
// 16-byte rows; swizzle 3 stores each in a 128-byte span, so a slot is
// 4*128 = 512 bytes (payload 64). Swizzle 1 with f32 box (8, 4): 32-byte spans,
// 256-byte slots. Swizzle 2 with a row that fills the 64-byte span: 512.

// CHECK-LABEL: gpu.func @swizzle(
// CHECK-SAME: %[[H:[^:]+]]: memref<32x64xf16>, %[[F:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[M3:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M1:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M2:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [
// CHECK-SAME: #tile.tensor_map_spec<param = 3, source = 0, mode = tile, encode = tiled, format = float16, data_type = 6, elem_bits = 16, rank = 2, global_rank = 2, box = [8, 4], element_strides = [1, 1], interleave = 0, swizzle = 3, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 4,{{([^>]* )?}}source = 1,{{([^>]* )?}}format = float32,{{([^>]* )?}}box = [4, 8],{{([^>]* )?}}swizzle = 1,{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 5,{{([^>]* )?}}source = 1,{{([^>]* )?}}format = float32,{{([^>]* )?}}box = [16, 8],{{([^>]* )?}}swizzle = 2,{{[^>]*}}>]
// CHECK: %[[B3:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P30:[^ ]+]] = llvm.inttoptr %[[B3]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P30]], %[[M3]], %[[BAR]], box[%{{[^ ]+}}, %{{[^ ]+}}] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O31:[^ ]+]] = arith.constant 512 : i64
// CHECK-NEXT: %[[A31:[^ ]+]] = arith.addi %[[B3]], %[[O31]] : i64
// CHECK-NEXT: %[[P31:[^ ]+]] = llvm.inttoptr %[[A31]] : i64 to !llvm.ptr<3>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P31]], %[[M3]], %[[BAR]], box[%{{[^ ]+}}, %{{[^ ]+}}] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: %[[B1:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P10:[^ ]+]] = llvm.inttoptr %[[B1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P10]], %[[M1]], %[[BAR]], box[%{{[^ ]+}}, %{{[^ ]+}}] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O11:[^ ]+]] = arith.constant 256 : i64
// CHECK-NEXT: %[[A11:[^ ]+]] = arith.addi %[[B1]], %[[O11]] : i64
// CHECK-NEXT: %[[P11:[^ ]+]] = llvm.inttoptr %[[A11]] : i64 to !llvm.ptr<3>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P11]], %[[M1]], %[[BAR]], box[%{{[^ ]+}}, %{{[^ ]+}}] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: %[[B2:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P20:[^ ]+]] = llvm.inttoptr %[[B2]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %[[M2]], %[[P20]], box[%{{[^ ]+}}, %{{[^ ]+}}] : !llvm.ptr, <3>
// CHECK-NEXT: %[[O21:[^ ]+]] = arith.constant 512 : i64
// CHECK-NEXT: %[[A21:[^ ]+]] = arith.addi %[[B2]], %[[O21]] : i64
// CHECK-NEXT: %[[P21:[^ ]+]] = llvm.inttoptr %[[A21]] : i64 to !llvm.ptr<3>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[M2]], %[[P21]], box[%{{[^ ]+}}, %{{[^ ]+}}] : !llvm.ptr, <3>
// CHECK-NEXT: %[[O22:[^ ]+]] = arith.constant 1024 : i64
// CHECK-NEXT: %[[A22:[^ ]+]] = arith.addi %[[B2]], %[[O22]] : i64
// CHECK-NEXT: %[[P22:[^ ]+]] = llvm.inttoptr %[[A22]] : i64 to !llvm.ptr<3>
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[M2]], %[[P22]], box[%{{[^ ]+}}, %{{[^ ]+}}] : !llvm.ptr, <3>
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @s3 : memref<2x4x64xf16, 3> {alignment = 1024}
  memref.global "private" @s1 : memref<2x8x8xf32, 3> {alignment = 256}
  memref.global "private" @s2 : memref<3x8x16xf32, 3> {alignment = 512}
  gpu.func @swizzle(%H: memref<32x64xf16>, %F: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s3 = memref.get_global @s3 : memref<2x4x64xf16, 3>
    %s1 = memref.get_global @s1 : memref<2x8x8xf32, 3>
    %s2 = memref.get_global @s2 : memref<3x8x16xf32, 3>
    tile.tma_copy load tile 2d %s3, %H[%c0, %c0] mbar(%bar) {box = array<i64: 4, 8>, coord_steps = [array<i64: 4, 0>], swizzle = 3 : i32} : memref<2x4x64xf16, 3>, memref<32x64xf16>
    tile.tma_copy load tile 2d %s1, %F[%c0, %c0] mbar(%bar) {box = array<i64: 8, 4>, coord_steps = [array<i64: 0, 4>], swizzle = 1 : i32} : memref<2x8x8xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %s2, %F[%c0, %c0] {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], swizzle = 2 : i32} : memref<3x8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Outer element strides: box (8, 16) with strides (2, 1) is a 4x16 f32
// image (256 bytes), so slot 1 is at 256; the map records the strides
// innermost-first.

// CHECK-LABEL: gpu.func @element_strides(
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<{{([^>]* )?}}box = [16, 8],{{([^>]* )?}}element_strides = [1, 2],{{[^>]*}}>]
// CHECK: %[[B:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %{{[^ ]+}}, %{{[^ ]+}}, box[%[[C0:[^ ]+]], %[[C0]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O1:[^ ]+]] = arith.constant 256 : i64
// CHECK-NEXT: %[[A1:[^ ]+]] = arith.addi %[[B]], %[[O1]] : i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[A1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[C8:[^ ]+]] = arith.constant 8 : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %{{[^ ]+}}, %{{[^ ]+}}, box[%[[C0]], %[[C8]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x4x16xf32, 3> {alignment = 128}
  gpu.func @element_strides(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x4x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>], element_strides = array<i64: 2, 1>} : memref<2x4x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// Interleave 32B (uint16): a rank-3 opcode over a rank-4 global
// (N, C_slices, W, Ci); the shared atom is (1, 1, 8, 16) = 256 bytes. Three
// channel slices via a repeat axis with C step 1: (n, c, w) -> (w, c+k, n).

// CHECK-LABEL: gpu.func @interleave(
// CHECK-SAME: %[[A:[^:]+]]: memref<2x4x8x16xui16>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[N:[^:]+]]: i32, %[[C:[^:]+]]: i32, %[[W:[^:]+]]: i32, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 5, source = 0, mode = tile, encode = tiled, format = uint16, data_type = 1, elem_bits = 16, rank = 3, global_rank = 4, box = [8, 1, 1], element_strides = [1, 1, 1], interleave = 2, swizzle = 1, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 1, packing = [1, 1]>]
// CHECK: %[[B:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %[[MAP]], %[[BAR]], box[%[[W]], %[[C]], %[[N]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O1:[^ ]+]] = arith.constant 256 : i64
// CHECK-NEXT: %[[A1:[^ ]+]] = arith.addi %[[B]], %[[O1]] : i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[A1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[K1:[^ ]+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[C1:[^ ]+]] = arith.addi %[[C]], %[[K1]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %[[MAP]], %[[BAR]], box[%[[W]], %[[C1]], %[[N]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O2:[^ ]+]] = arith.constant 512 : i64
// CHECK-NEXT: %[[A2:[^ ]+]] = arith.addi %[[B]], %[[O2]] : i64
// CHECK-NEXT: %[[P2:[^ ]+]] = llvm.inttoptr %[[A2]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[K2:[^ ]+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[C2:[^ ]+]] = arith.addi %[[C]], %[[K2]] : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P2]], %[[MAP]], %[[BAR]], box[%[[W]], %[[C2]], %[[N]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<3x1x1x8x16xui16, 3> {alignment = 256}
  gpu.func @interleave(%A: memref<2x4x8x16xui16>, %bar: !llvm.ptr<3>, %n: i32, %c: i32, %w: i32) kernel {
    %s = memref.get_global @smem : memref<3x1x1x8x16xui16, 3>
    tile.tma_copy load tile 3d %s, %A[%n, %c, %w] mbar(%bar) {box = array<i64: 1, 1, 8>, coord_steps = [array<i64: 0, 1, 0>], interleave = 2 : i32, swizzle = 1 : i32} : memref<3x1x1x8x16xui16, 3>, memref<2x4x8x16xui16>
    gpu.return
  }
}

// -----

// Packed fp4 (sm_100a): the 16U4_ALIGN16B map (data_type 14, 4-bit
// elements); each 8x128 slot occupies 8*128 bytes of i8 image (payload 512),
// so slot 1 is at 1024.

// CHECK-LABEL: gpu.func @packed_fp4(
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<param = 2, source = 0, mode = tile, encode = tiled, format = float4_e2m1fn, data_type = 14, elem_bits = 4, rank = 2, global_rank = 2, box = [128, 8], element_strides = [1, 1], interleave = 0, swizzle = 3, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 128, packing = [2, 1]>]
// CHECK: %[[B:[^ ]+]] = arith.index_cast %{{[^ ]+}} : index to i64
// CHECK-NEXT: %[[P0:[^ ]+]] = llvm.inttoptr %[[B]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P0]], %{{[^ ]+}}, %{{[^ ]+}}, box[%[[C0:[^ ]+]], %[[C0]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: %[[O1:[^ ]+]] = arith.constant 1024 : i64
// CHECK-NEXT: %[[A1:[^ ]+]] = arith.addi %[[B]], %[[O1]] : i64
// CHECK-NEXT: %[[P1:[^ ]+]] = llvm.inttoptr %[[A1]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[C8:[^ ]+]] = arith.constant 8 : i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P1]], %{{[^ ]+}}, %{{[^ ]+}}, box[%[[C0]], %[[C8]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {
  memref.global "private" @smem : memref<2x8x128xi8, 3> {alignment = 1024}
  gpu.func @packed_fp4(%A: memref<16x256xf4E2M1FN>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<2x8x128xi8, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 128>, coord_steps = [array<i64: 8, 0>], swizzle = 3 : i32} : memref<2x8x128xi8, 3>, memref<16x256xf4E2M1FN>
    gpu.return
  }
}

// -----

// Descriptor sharing: a load and a store of A with the same fields share one
// map (one parameter); another box over A, and the same fields over B, each
// get their own. Policies (l2_promotion, oob_fill) and tf32 are map fields.

// CHECK-LABEL: gpu.func @descriptors(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[B:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[M0:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M1:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M2:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}, %[[M3:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.kernel_signature = (memref<64x64xf32>, memref<64x64xf32>, !llvm.ptr<3>, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-SAME: tile.tensor_maps = [
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 3,{{([^>]* )?}}source = 0,{{([^>]* )?}}data_type = 7,{{([^>]* )?}}box = [16, 8],{{([^>]* )?}}bytes = 128,{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 4,{{([^>]* )?}}source = 0,{{([^>]* )?}}data_type = 7,{{([^>]* )?}}box = [16, 4],{{([^>]* )?}}bytes = 128,{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<{{([^>]* )?}}param = 5,{{([^>]* )?}}source = 1,{{([^>]* )?}}data_type = 7,{{([^>]* )?}}box = [16, 8],{{([^>]* )?}}bytes = 128,{{[^>]*}}>,
// CHECK-SAME: #tile.tensor_map_spec<param = 6, source = 0, mode = tile, encode = tiled, format = tfloat32, data_type = 11, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 2, oob_fill = 1, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M0]], %[[BAR]]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[M0]], %{{[^ ]+}}
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M1]], %[[BAR]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M2]], %[[BAR]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M3]], %[[BAR]]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[M0]], %[[BAR]]
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @s8 : memref<8x16xf32, 3> {alignment = 128}
  memref.global "private" @s4 : memref<4x16xf32, 3> {alignment = 128}
  gpu.func @descriptors(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s8 = memref.get_global @s8 : memref<8x16xf32, 3>
    %s4 = memref.get_global @s4 : memref<4x16xf32, 3>
    tile.tma_copy load tile 2d %s8, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy store tile 2d %s8, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s4, %A[%c0, %c0] mbar(%bar) {box = array<i64: 4, 16>} : memref<4x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s8, %B[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s8, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, format = #tile<format tfloat32>, l2_promotion = 2 : i32, oob_fill = 1 : i32} : memref<8x16xf32, 3>, memref<64x64xf32>
    tile.tma_copy load tile 2d %s8, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// An opaque tensor map (!llvm.ptr) is used as given: no parameter is added
// and the kernel gets no spec. A global-space pointer (1) is cast to a
// generic one, as the NVVM ops take.

// CHECK-LABEL: gpu.func @opaque(
// CHECK-SAME: %[[T:[^:]+]]: !llvm.ptr, %[[G:[^:]+]]: !llvm.ptr<1>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[ROW:[^:]+]]: i32, %[[COL:[^:]+]]: i32) kernel {
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[T]], %[[BAR]], box[%[[COL]], %[[ROW]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[T]], %{{[^ ]+}}, box[%[[COL]], %[[ROW]]] : !llvm.ptr, <3>
// CHECK: nvvm.cp.async.bulk.tensor.reduce %[[T]], %{{[^ ]+}}, box[%[[COL]], %[[ROW]]] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
// CHECK: %[[GEN:[^ ]+]] = llvm.addrspacecast %[[G]] : !llvm.ptr<1> to !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[GEN]], %[[BAR]], box[%[[COL]], %[[ROW]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 128}
  gpu.func @opaque(%T: !llvm.ptr, %G: !llvm.ptr<1>, %bar: !llvm.ptr<3>, %row: i32, %col: i32) kernel {
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %T[%row, %col] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
    tile.tma_copy store tile 2d %s, %T[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
    tile.tma_copy reduce add tile 2d %s, %T[%row, %col] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr
    tile.tma_copy load tile 2d %s, %G[%row, %col] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, !llvm.ptr<1>
    gpu.return
  }
}

// -----

// A copy inside a loop is lowered in place, with the loop's coordinate;
// nothing is added around it.

// CHECK-LABEL: gpu.func @in_loop(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x16xui32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK: scf.for %[[IV:[^ ]+]] =
// CHECK-NEXT: %[[ROW:[^ ]+]] = arith.index_cast %[[IV]] : index to i32
// CHECK-NEXT: %[[I:[^ ]+]] = memref.extract_aligned_pointer_as_index
// CHECK-NEXT: %[[B:[^ ]+]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[P:[^ ]+]] = llvm.inttoptr %[[B]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[P]], %[[MAP]], %[[BAR]], box[%{{[^ ]+}}, %[[ROW]]] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 128}
  gpu.func @in_loop(%A: memref<64x16xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %lb = arith.constant 0 : index
    %ub = arith.constant 64 : index
    %step = arith.constant 8 : index
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    scf.for %i = %lb to %ub step %step {
      %row = arith.index_cast %i : index to i32
      tile.tma_copy load tile 2d %s, %A[%row, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<64x16xui32>
    }
    gpu.return
  }
}

// -----

// Maps are per kernel: two kernels over the same global each get their own
// parameter and spec; a kernel without copies is left as it is.

// CHECK-LABEL: gpu.func @first(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x64xf32>, %[[BAR:[^:]+]]: !llvm.ptr<3>, %[[MAP:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<{{([^>]* )?}}param = 2,{{([^>]* )?}}source = 0,{{([^>]* )?}}box = [16, 8],{{[^>]*}}>]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{[^ ]+}}, %[[MAP]], %[[BAR]], box[%{{[^ ]+}}, %{{[^ ]+}}] {isCTAOnly = true} : !llvm.ptr<3>, !llvm.ptr
// CHECK-LABEL: gpu.func @second(
// CHECK-SAME: %[[BAR2:[^:]+]]: !llvm.ptr<3>, %[[A2:[^:]+]]: memref<64x64xf32>, %[[MAP2:[^:]+]]: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, tile.tensor_map}) kernel
// CHECK-SAME: tile.tensor_maps = [#tile.tensor_map_spec<{{([^>]* )?}}param = 2,{{([^>]* )?}}source = 1,{{([^>]* )?}}box = [16, 4],{{[^>]*}}>]
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP2]], %{{[^ ]+}}, box[%{{[^ ]+}}, %{{[^ ]+}}] : !llvm.ptr, <3>
// CHECK-LABEL: gpu.func @untouched(
// CHECK-SAME: %{{[^:]+}}: memref<64x64xf32>) kernel {
gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @s8 : memref<8x16xf32, 3> {alignment = 128}
  memref.global "private" @s4 : memref<4x16xf32, 3> {alignment = 128}
  gpu.func @first(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @s8 : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
  gpu.func @second(%bar: !llvm.ptr<3>, %A: memref<64x64xf32>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @s4 : memref<4x16xf32, 3>
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 4, 16>} : memref<4x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
  gpu.func @untouched(%A: memref<64x64xf32>) kernel {
    gpu.return
  }
}
