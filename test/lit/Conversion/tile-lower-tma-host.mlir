// RUN: tile-opt %s -split-input-file --tile-lower-tma-host --verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-lower-tma-host --verify-diagnostics | FileCheck %s --check-prefix=GONE
// RUN: tile-opt %s -split-input-file --tile-lower-tma-host --verify-diagnostics \
// RUN:   | tile-opt -split-input-file --tile-host-to-llvm \
// RUN:   | FileCheck %s --check-prefix=HOST

// tile-lower-tma-host: every tile.tensor_map becomes, where it stands, the
// runtime-rule checks of its source (printf + fflush + abort naming the
// rule), the globalDim/globalStrides/boxDim/elementStrides arrays
// (innermost-first), one cuTensorMapEncodeTiled into a 128-byte, 128-aligned
// stack slot, and a launch operand holding the map's 128 bytes by value.
// Values the types fix are folded: a satisfied rule emits no check, a broken
// one is a compile-time error.

// GONE-NOT: tile.tensor_map

// The modules hold a gpu.binary, as after gpu-module-to-binary, so that
// gpu.launch_func does not check its operands against a kernel.

// A static 2-D memref: only the base address is unknown. globalDim = (32, 64),
// globalStrides = (128) bytes, box (16, 8), element strides (1, 1); the encode
// takes data_type 7 (FLOAT32), rank 2, then interleave, swizzle, l2_promotion
// and oob_fill in that order (0, 0, 2, 1).

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @fflush(!llvm.ptr) -> i32
// CHECK-DAG: llvm.func @abort()
// CHECK-DAG: llvm.func @cuTensorMapEncodeTiled(!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @[[BASE_MSG:[a-z_0-9]+]]("tile-mlir: [global-base-alignment] argument 0 of @kernels::@k: base address 0x%llx is not 16-byte aligned\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[ENC_MSG:[a-z_0-9]+]]("tile-mlir: [tensor-map-encode] argument 0 of @kernels::@k: cuTensorMapEncodeTiled returned %d\0A\00")
// CHECK-LABEL: func.func @static_2d(
// CHECK-SAME: %[[A:[^:]+]]: memref<64x32xf32>)
// CHECK: %[[ONE:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[MAP:.+]] = llvm.alloca %[[ONE]] x !llvm.array<128 x i8> {alignment = 128 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[N2:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[DIMS:.+]] = llvm.alloca %[[N2]] x i64
// CHECK-NEXT: %[[N1:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[STRIDES:.+]] = llvm.alloca %[[N1]] x i64
// CHECK-NEXT: %[[N2B:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[BOX:.+]] = llvm.alloca %[[N2B]] x i32
// CHECK-NEXT: %[[N2E:.+]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT: %[[ES:.+]] = llvm.alloca %[[N2E]] x i32
// CHECK: %[[IDX:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: %[[ADDR:.+]] = arith.index_cast %[[IDX]] : index to i64
// CHECK-NOT: memref.extract_strided_metadata
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : i64
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : i64
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : i64
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : i64
// CHECK: %[[REM:.+]] = arith.remui %[[ADDR]], %[[C16]] : i64
// CHECK-NEXT: %[[BAD:.+]] = arith.cmpi ne, %[[REM]], %[[C0]] : i64
// CHECK-NEXT: scf.if %[[BAD]] {
// CHECK-NEXT: %[[FMT:.+]] = llvm.mlir.addressof @[[BASE_MSG]] : !llvm.ptr
// CHECK-NEXT: llvm.call @printf(%[[FMT]], %[[ADDR]]) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64) -> i32
// CHECK-NEXT: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: llvm.call @fflush(%[[NULL]])
// CHECK-NEXT: llvm.call @abort() : () -> ()
// CHECK-NEXT: }
// CHECK-NOT: scf.if
// CHECK: %[[D0:.+]] = llvm.getelementptr %[[DIMS]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT: llvm.store %[[C32]], %[[D0]] : i64, !llvm.ptr
// CHECK-NEXT: %[[D1:.+]] = llvm.getelementptr %[[DIMS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT: llvm.store %[[C64]], %[[D1]] : i64, !llvm.ptr
// CHECK-NEXT: %[[S0:.+]] = llvm.getelementptr %[[STRIDES]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT: llvm.store %[[C128]], %[[S0]] : i64, !llvm.ptr
// CHECK-NEXT: %[[B16:.+]] = arith.constant 16 : i32
// CHECK-NEXT: %[[B8:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[BX0:.+]] = llvm.getelementptr %[[BOX]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT: llvm.store %[[B16]], %[[BX0]] : i32, !llvm.ptr
// CHECK-NEXT: %[[BX1:.+]] = llvm.getelementptr %[[BOX]][1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT: llvm.store %[[B8]], %[[BX1]] : i32, !llvm.ptr
// CHECK-NEXT: %[[E1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[ES0:.+]] = llvm.getelementptr %[[ES]][0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT: llvm.store %[[E1]], %[[ES0]] : i32, !llvm.ptr
// CHECK-NEXT: %[[ES1:.+]] = llvm.getelementptr %[[ES]][1] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT: llvm.store %[[E1]], %[[ES1]] : i32, !llvm.ptr
// CHECK-NEXT: %[[DT:.+]] = arith.constant 7 : i32
// CHECK-NEXT: %[[RANK:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[PTR:.+]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ST:.+]] = llvm.call @cuTensorMapEncodeTiled(%[[MAP]], %[[DT]], %[[RANK]], %[[PTR]], %[[DIMS]], %[[STRIDES]], %[[BOX]], %[[ES]], %[[Z]], %[[Z]], %[[RANK]], %[[E1]])
// CHECK-NEXT: %[[FAIL:.+]] = arith.cmpi ne, %[[ST]], %[[Z]] : i32
// CHECK-NEXT: scf.if %[[FAIL]] {
// CHECK-NEXT: %[[EFMT:.+]] = llvm.mlir.addressof @[[ENC_MSG]] : !llvm.ptr
// CHECK-NEXT: llvm.call @printf(%[[EFMT]], %[[ST]]) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
// CHECK: llvm.call @abort()
// CHECK-NEXT: }
// CHECK-NEXT: %[[BYTES:.+]] = llvm.load %[[MAP]] {alignment = 128 : i64} : !llvm.ptr -> !llvm.array<128 x i8>
// CHECK-NEXT: gpu.launch_func @kernels::@k blocks in ({{.*}}) threads in ({{.*}}) args(%[[A]] : memref<64x32xf32>, %[[BYTES]] : !llvm.array<128 x i8>)
// CHECK-NEXT: return

// After the standard host lowering the by-value operand is still there and
// gpu-to-llvm accepts it (the launch stores it into the parameter array).
// HOST-LABEL: llvm.func @static_2d(
// HOST: llvm.call @cuTensorMapEncodeTiled(
// HOST: %[[BYTES:.+]] = llvm.load %{{.+}} {alignment = 128 : i64} : !llvm.ptr -> !llvm.array<128 x i8>
// HOST: gpu.launch_func @kernels::@k {{.*}} args({{.*}}, %[[BYTES]] : !llvm.array<128 x i8>)
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @static_2d(%A: memref<64x32xf32>) {
    %c1 = arith.constant 1 : index
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, llvm_param = 7, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 2, oob_fill = 1, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<64x32xf32> -> !llvm.ptr
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<64x32xf32>, %map : !llvm.ptr)
    return
  }
}

// -----

// A dynamic memref with strided<[?, 1], offset: ?>: sizes, row stride and
// offset come from extract_strided_metadata; address = aligned + offset * 2;
// globalDim = (sizes[1], sizes[0]), globalStrides = (strides[0] * 2). Checks:
// base alignment, both dims in 1..2^32, the row stride's 16-byte alignment
// and range (unsigned), box (64, 32) within (sizes[1], sizes[0]). The static
// inner stride 1 needs no check.

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-DAG: @[[DIM0_MSG:[a-z_0-9]+]]("tile-mlir: [global-dim-range] argument 0 of @kernels::@k: dimension %lld (innermost-first index 0) is outside 1..2^32\0A\00")
// CHECK-DAG: @[[DIM1_MSG:[a-z_0-9]+]]("tile-mlir: [global-dim-range] argument 0 of @kernels::@k: dimension %lld (innermost-first index 1) is outside 1..2^32\0A\00")
// CHECK-DAG: @[[ALIGN_MSG:[a-z_0-9]+]]("tile-mlir: [global-stride-alignment] argument 0 of @kernels::@k: byte stride %lld (innermost-first index 1) is not a multiple of 16\0A\00")
// CHECK-DAG: @[[RANGE_MSG:[a-z_0-9]+]]("tile-mlir: [global-stride-range] argument 0 of @kernels::@k: byte stride %lld (innermost-first index 1) is not below 2^40\0A\00")
// CHECK-DAG: @[[BOX0_MSG:[a-z_0-9]+]]("tile-mlir: [box-within-dim] argument 0 of @kernels::@k: box extent 64 is larger than dimension %lld (innermost-first index 0)\0A\00")
// CHECK-DAG: @[[BOX1_MSG:[a-z_0-9]+]]("tile-mlir: [box-within-dim] argument 0 of @kernels::@k: box extent 32 is larger than dimension %lld (innermost-first index 1)\0A\00")
// CHECK-NOT: global-inner-stride
// CHECK-LABEL: func.func @dynamic_strided(
// CHECK-SAME: %[[A:[^:]+]]: memref<?x?xf16, strided<[?, 1], offset: ?>>)
// CHECK: %[[MAP:.+]] = llvm.alloca %{{.+}} x !llvm.array<128 x i8> {alignment = 128 : i64}
// CHECK-NEXT: llvm.mlir.constant(2 : i64)
// CHECK-NEXT: %[[DIMS:.+]] = llvm.alloca %{{.+}} x i64
// CHECK-NEXT: llvm.mlir.constant(1 : i64)
// CHECK-NEXT: %[[STRIDES:.+]] = llvm.alloca %{{.+}} x i64
// CHECK: %[[IDX:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: %[[ALIGNED:.+]] = arith.index_cast %[[IDX]] : index to i64
// CHECK-NEXT: %{{.+}}, %[[OFF:.+]], %[[SIZES:.+]]:2, %[[STR:.+]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK-NEXT: %[[OFF64:.+]] = arith.index_cast %[[OFF]] : index to i64
// CHECK-NEXT: %[[ROWS:.+]] = arith.index_cast %[[SIZES]]#0 : index to i64
// CHECK-NEXT: %[[ROWSTRIDE:.+]] = arith.index_cast %[[STR]]#0 : index to i64
// CHECK-NEXT: %[[COLS:.+]] = arith.index_cast %[[SIZES]]#1 : index to i64
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK: %[[ROWBYTES:.+]] = arith.muli %[[ROWSTRIDE]], %[[C2]] : i64
// CHECK-NEXT: %[[OFFBYTES:.+]] = arith.muli %[[OFF64]], %[[C2]] : i64
// CHECK-NEXT: %[[ADDR:.+]] = arith.addi %[[ALIGNED]], %[[OFFBYTES]] : i64
// CHECK: arith.remui %[[ADDR]], %{{.+}} : i64
// CHECK: llvm.call @printf(%{{.+}}, %[[ADDR]])
// CHECK: arith.cmpi slt, %[[COLS]], %[[C1]] : i64
// CHECK: arith.cmpi sgt, %[[COLS]], %[[MAXDIM:.+]] : i64
// CHECK: llvm.mlir.addressof @[[DIM0_MSG]]
// CHECK-NEXT: llvm.call @printf(%{{.+}}, %[[COLS]])
// CHECK: arith.cmpi slt, %[[ROWS]], %[[C1]] : i64
// CHECK: arith.cmpi sgt, %[[ROWS]], %[[MAXDIM]] : i64
// CHECK: llvm.mlir.addressof @[[DIM1_MSG]]
// CHECK-NEXT: llvm.call @printf(%{{.+}}, %[[ROWS]])
// CHECK: %[[SREM:.+]] = arith.remui %[[ROWBYTES]], %{{.+}} : i64
// CHECK-NEXT: %[[SBAD:.+]] = arith.cmpi ne, %[[SREM]], %{{.+}} : i64
// CHECK-NEXT: scf.if %[[SBAD]] {
// CHECK-NEXT: llvm.mlir.addressof @[[ALIGN_MSG]]
// CHECK-NEXT: llvm.call @printf(%{{.+}}, %[[ROWBYTES]])
// CHECK: %[[MAXSTRIDE:.+]] = arith.constant 1099511627776 : i64
// CHECK-NEXT: %[[RBAD:.+]] = arith.cmpi uge, %[[ROWBYTES]], %[[MAXSTRIDE]] : i64
// CHECK-NEXT: scf.if %[[RBAD]] {
// CHECK-NEXT: llvm.mlir.addressof @[[RANGE_MSG]]
// CHECK: %[[C64:.+]] = arith.constant 64 : i64
// CHECK-NEXT: arith.cmpi slt, %[[COLS]], %[[C64]] : i64
// CHECK-NEXT: scf.if
// CHECK-NEXT: llvm.mlir.addressof @[[BOX0_MSG]]
// CHECK: %[[C32:.+]] = arith.constant 32 : i64
// CHECK-NEXT: arith.cmpi slt, %[[ROWS]], %[[C32]] : i64
// CHECK-NEXT: scf.if
// CHECK-NEXT: llvm.mlir.addressof @[[BOX1_MSG]]
// CHECK: %[[D0:.+]] = llvm.getelementptr %[[DIMS]][0]
// CHECK-NEXT: llvm.store %[[COLS]], %[[D0]] : i64, !llvm.ptr
// CHECK-NEXT: %[[D1:.+]] = llvm.getelementptr %[[DIMS]][1]
// CHECK-NEXT: llvm.store %[[ROWS]], %[[D1]] : i64, !llvm.ptr
// CHECK-NEXT: %[[S0:.+]] = llvm.getelementptr %[[STRIDES]][0]
// CHECK-NEXT: llvm.store %[[ROWBYTES]], %[[S0]] : i64, !llvm.ptr
// CHECK: %[[PTR:.+]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
// CHECK: llvm.call @cuTensorMapEncodeTiled(%[[MAP]], %{{.+}}, %{{.+}}, %[[PTR]], %[[DIMS]], %[[STRIDES]],
// CHECK: %[[BYTES:.+]] = llvm.load %[[MAP]] {alignment = 128 : i64} : !llvm.ptr -> !llvm.array<128 x i8>
// CHECK-NEXT: gpu.launch_func @kernels::@k {{.*}} args(%[[A]] : memref<?x?xf16, strided<[?, 1], offset: ?>>, %[[BYTES]] : !llvm.array<128 x i8>)

// HOST-LABEL: llvm.func @dynamic_strided(
// HOST: llvm.call @cuTensorMapEncodeTiled(
// HOST: gpu.launch_func @kernels::@k {{.*}} : !llvm.array<128 x i8>)
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @dynamic_strided(%A: memref<?x?xf16, strided<[?, 1], offset: ?>>) {
    %c1 = arith.constant 1 : index
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, llvm_param = 7, source = 0, mode = tile, encode = tiled, format = float16, data_type = 6, elem_bits = 16, rank = 2, global_rank = 2, box = [64, 32], element_strides = [1, 1], interleave = 0, swizzle = 3, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !llvm.ptr
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<?x?xf16, strided<[?, 1], offset: ?>>, %map : !llvm.ptr)
    return
  }
}

// -----

// A dynamic innermost stride is checked to be 1 at run time.

// CHECK-LABEL: func.func @dynamic_inner_stride(
// CHECK: %{{.+}}, %{{.+}}, %{{.+}}:2, %[[STR:.+]]:2 = memref.extract_strided_metadata
// CHECK: %[[INNER:.+]] = arith.index_cast %[[STR]]#1 : index to i64
// CHECK: arith.cmpi ne, %[[INNER]], %{{.+}} : i64
// CHECK-NEXT: scf.if
// CHECK-NEXT: llvm.mlir.addressof @[[INNER_MSG:[a-z_0-9]+]]
// CHECK-NEXT: llvm.call @printf(%{{.+}}, %[[INNER]])
// CHECK: llvm.call @cuTensorMapEncodeTiled(
func.func @dynamic_inner_stride(%A: memref<16x16xui32, strided<[?, ?]>>) {
  %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 2, source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<16x16xui32, strided<[?, ?]>> -> !llvm.ptr
  return
}

// -----

// Interleave 32B: memref (N, C, W, Ci) = 2x4x8x16 ui16, Ci (32 bytes)
// implicit. globalDim = the first rank (3) sizes reversed = (8, 4, 2),
// globalStrides = strides[:2] reversed in bytes = (16*2*8, 16*2*8*4) = (256,
// 1024); the base must be 32-byte aligned; interleave 2 and swizzle 1 reach
// the encode.

// CHECK-LABEL: module
// CHECK: @[[BASE32:[a-z_0-9]+]]("tile-mlir: [global-base-alignment] argument 0 of @kernels::@conv: base address 0x%llx is not 32-byte aligned\0A\00")
// CHECK-LABEL: func.func @interleave(
// CHECK: %[[MAP:.+]] = llvm.alloca %{{.+}} x !llvm.array<128 x i8> {alignment = 128 : i64}
// CHECK-NEXT: llvm.mlir.constant(3 : i64)
// CHECK-NEXT: %[[DIMS:.+]] = llvm.alloca %{{.+}} x i64
// CHECK-NEXT: llvm.mlir.constant(2 : i64)
// CHECK-NEXT: %[[STRIDES:.+]] = llvm.alloca %{{.+}} x i64
// CHECK-NEXT: llvm.mlir.constant(3 : i64)
// CHECK-NEXT: %[[BOX:.+]] = llvm.alloca %{{.+}} x i32
// CHECK-NEXT: llvm.mlir.constant(3 : i64)
// CHECK-NEXT: %[[ES:.+]] = llvm.alloca %{{.+}} x i32
// CHECK-NOT: memref.extract_strided_metadata
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i64
// CHECK-DAG: %[[C256:.+]] = arith.constant 256 : i64
// CHECK-DAG: %[[C1024:.+]] = arith.constant 1024 : i64
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : i64
// CHECK: arith.remui %{{.+}}, %[[C32]] : i64
// CHECK: llvm.mlir.addressof @[[BASE32]]
// CHECK-NOT: scf.if
// CHECK: llvm.getelementptr %[[DIMS]][0]
// CHECK-NEXT: llvm.store %[[C8]]
// CHECK-NEXT: llvm.getelementptr %[[DIMS]][1]
// CHECK-NEXT: llvm.store %[[C4]]
// CHECK-NEXT: llvm.getelementptr %[[DIMS]][2]
// CHECK-NEXT: llvm.store %[[C2]]
// CHECK-NEXT: llvm.getelementptr %[[STRIDES]][0]
// CHECK-NEXT: llvm.store %[[C256]]
// CHECK-NEXT: llvm.getelementptr %[[STRIDES]][1]
// CHECK-NEXT: llvm.store %[[C1024]]
// CHECK-NEXT: %[[B8:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[B1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: llvm.getelementptr %[[BOX]][0]
// CHECK-NEXT: llvm.store %[[B8]]
// CHECK-NEXT: llvm.getelementptr %[[BOX]][1]
// CHECK-NEXT: llvm.store %[[B1]]
// CHECK-NEXT: llvm.getelementptr %[[BOX]][2]
// CHECK-NEXT: llvm.store %[[B1]]
// CHECK-NEXT: llvm.getelementptr %[[ES]][0]
// CHECK-NEXT: llvm.store %[[B1]]
// CHECK-NEXT: llvm.getelementptr %[[ES]][1]
// CHECK-NEXT: llvm.store %[[B1]]
// CHECK-NEXT: llvm.getelementptr %[[ES]][2]
// CHECK-NEXT: llvm.store %[[B1]]
// CHECK-NEXT: %[[RANK:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[PTR:.+]] = llvm.inttoptr
// CHECK-NEXT: %[[IL:.+]] = arith.constant 2 : i32
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-NEXT: llvm.call @cuTensorMapEncodeTiled(%[[MAP]], %[[B1]], %[[RANK]], %[[PTR]], %[[DIMS]], %[[STRIDES]], %[[BOX]], %[[ES]], %[[IL]], %[[B1]], %[[Z]], %[[Z]])
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @interleave(%A: memref<2x4x8x16xui16>) {
    %c1 = arith.constant 1 : index
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, llvm_param = 11, source = 0, mode = tile, encode = tiled, format = uint16, data_type = 1, elem_bits = 16, rank = 3, global_rank = 4, box = [8, 1, 1], element_strides = [1, 1, 1], interleave = 2, swizzle = 1, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 1, packing = [1, 1]>} : memref<2x4x8x16xui16> -> !llvm.ptr
    gpu.launch_func @kernels::@conv blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<2x4x8x16xui16>, %map : !llvm.ptr)
    return
  }
}

// -----

// Rank 1: no outer stride, yet the strides array is a valid one-element
// array (holding the row's bytes, size * 4), as the driver wants non-null.

// CHECK-LABEL: func.func @rank1(
// CHECK-SAME: %[[A:[^:]+]]: memref<?xui32>)
// CHECK: %[[MAP:.+]] = llvm.alloca %{{.+}} x !llvm.array<128 x i8> {alignment = 128 : i64}
// CHECK-NEXT: %[[N1:.+]] = llvm.mlir.constant(1 : i64)
// CHECK-NEXT: %[[DIMS:.+]] = llvm.alloca %[[N1]] x i64
// CHECK-NEXT: %[[N1S:.+]] = llvm.mlir.constant(1 : i64)
// CHECK-NEXT: %[[STRIDES:.+]] = llvm.alloca %[[N1S]] x i64
// CHECK: %{{.+}}, %{{.+}}, %[[SIZE:.+]], %{{.+}} = memref.extract_strided_metadata %[[A]]
// CHECK-NEXT: %[[N:.+]] = arith.index_cast %[[SIZE]] : index to i64
// CHECK: %[[C4:.+]] = arith.constant 4 : i64
// CHECK: %[[ROW:.+]] = arith.muli %[[N]], %[[C4]] : i64
// CHECK-NEXT: %[[D0:.+]] = llvm.getelementptr %[[DIMS]][0]
// CHECK-NEXT: llvm.store %[[N]], %[[D0]] : i64, !llvm.ptr
// CHECK-NEXT: %[[S0:.+]] = llvm.getelementptr %[[STRIDES]][0]
// CHECK-NEXT: llvm.store %[[ROW]], %[[S0]] : i64, !llvm.ptr
// CHECK: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK: llvm.call @cuTensorMapEncodeTiled(%[[MAP]], %{{.+}}, %[[ONE]], %{{.+}}, %[[DIMS]], %[[STRIDES]],
// CHECK: %[[BYTES:.+]] = llvm.load %[[MAP]]
// CHECK-NEXT: gpu.launch_func @kernels::@copy1d {{.*}} args(%[[A]] : memref<?xui32>, %[[BYTES]] : !llvm.array<128 x i8>)
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func @rank1(%A: memref<?xui32>) {
    %c1 = arith.constant 1 : index
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, llvm_param = 5, source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 1, global_rank = 1, box = [64], element_strides = [1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<?xui32> -> !llvm.ptr
    gpu.launch_func @kernels::@copy1d blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<?xui32>, %map : !llvm.ptr)
    return
  }
}

// -----

// Packed fp4 (4-bit elements): byte strides through bits (stride * 4 / 8),
// 32-byte alignment checked on bits (% 256), an odd element offset fails
// the base check, and the inner dimension must be a multiple of 128.

// CHECK-DAG: "tile-mlir: [global-stride-alignment] argument 0: byte stride %lld (innermost-first index 1) is not a multiple of 32\0A\00"
// CHECK-DAG: "tile-mlir: [packed-inner-dim] argument 0: inner dimension %lld is not a multiple of 128\0A\00"
// CHECK-LABEL: func.func @fp4(
// CHECK: %{{.+}}, %[[OFF:.+]], %[[SIZES:.+]]:2, %[[STR:.+]]:2 = memref.extract_strided_metadata
// CHECK-DAG: %[[OFF64:.+]] = arith.index_cast %[[OFF]] : index to i64
// CHECK-DAG: %[[ROWSTRIDE:.+]] = arith.index_cast %[[STR]]#0 : index to i64
// CHECK-DAG: %[[COLS:.+]] = arith.index_cast %[[SIZES]]#1 : index to i64
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : i64
// CHECK: %[[SBITS:.+]] = arith.muli %[[ROWSTRIDE]], %[[C4]] : i64
// CHECK-NEXT: %[[SBYTES:.+]] = arith.divui %[[SBITS]], %[[C8]] : i64
// CHECK-NEXT: %[[OBITS:.+]] = arith.muli %[[OFF64]], %[[C4]] : i64
// CHECK-NEXT: %[[OBYTES:.+]] = arith.divui %[[OBITS]], %[[C8]] : i64
// CHECK-NEXT: %[[ADDR:.+]] = arith.addi %{{.+}}, %[[OBYTES]] : i64
// CHECK: arith.remui %[[ADDR]], %{{.+}} : i64
// CHECK: arith.remui %{{.+}}, %[[C8]] : i64
// CHECK: arith.ori
// CHECK-NEXT: scf.if
// CHECK-NEXT: llvm.mlir.addressof @{{.+}} : !llvm.ptr
// CHECK: %[[C256:.+]] = arith.constant 256 : i64
// CHECK: arith.remui %{{.+}}, %[[C256]] : i64
// CHECK: scf.if
// CHECK: %[[C128:.+]] = arith.constant 128 : i64
// CHECK-NEXT: arith.cmpi slt, %[[COLS]], %[[C128]] : i64
// CHECK: arith.remui %[[COLS]], %[[C128]] : i64
// CHECK: scf.if
// CHECK: llvm.call @printf(%{{.+}}, %[[COLS]])
// CHECK: llvm.call @cuTensorMapEncodeTiled(
func.func @fp4(%A: memref<?x?xf4E2M1FN, strided<[?, 1], offset: ?>>) {
  %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float4_e2m1fn, data_type = 14, elem_bits = 4, rank = 2, global_rank = 2, box = [128, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 32, stride_alignment = 32, inner_multiple = 128, packing = [2, 1]>} : memref<?x?xf4E2M1FN, strided<[?, 1], offset: ?>> -> !llvm.ptr
  return
}

// -----

// Encoding happens where the op is: inside the loop, once per launch; the
// stack slots are in the function's entry block (no growth per iteration).
// A use other than a launch operand gets the map's address.

// CHECK-LABEL: func.func @per_launch(
// CHECK: %[[MAP:.+]] = llvm.alloca %{{.+}} x !llvm.array<128 x i8> {alignment = 128 : i64}
// CHECK-COUNT-4: llvm.alloca
// CHECK-NOT: llvm.alloca
// CHECK: scf.for
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @cuTensorMapEncodeTiled(%[[MAP]],
// CHECK: call @use(%[[MAP]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: %[[BYTES:.+]] = llvm.load %[[MAP]]
// CHECK-NEXT: gpu.launch_func @kernels::@k {{.*}} %[[BYTES]] : !llvm.array<128 x i8>)
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "">]
  func.func private @use(!llvm.ptr)
  func.func @per_launch(%A: memref<64x32xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<64x32xf32> -> !llvm.ptr
      func.call @use(%map) : (!llvm.ptr) -> ()
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%A : memref<64x32xf32>, %map : !llvm.ptr)
    }
    return
  }
}

// -----

// Violations the types already decide are compile-time errors naming the rule.

func.func @static_row_stride(%A: memref<16x10xf32>) {
  // expected-error @below {{[global-stride-alignment] argument 0: byte stride 40 (innermost-first index 1) is not a multiple of 16}}
  %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [8, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<16x10xf32> -> !llvm.ptr
  return
}

// -----

func.func @static_box(%A: memref<4x32xf32>) {
  // expected-error @below {{[box-within-dim] argument 0: box extent 8 is larger than dimension 4 (innermost-first index 1)}}
  %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<4x32xf32> -> !llvm.ptr
  return
}

// -----

func.func @static_inner_stride(%A: memref<16x16xf32, strided<[32, 2]>>) {
  // expected-error @below {{[global-inner-stride] argument 0: the innermost stride is 2 elements, expected 1}}
  %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<16x16xf32, strided<[32, 2]>> -> !llvm.ptr
  return
}

// -----

func.func @wrong_rank(%A: memref<4x16x32xf32>) {
  // expected-error @below {{[global-rank] the source has rank 3, the spec's global_rank is 2}}
  %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 1, source = 0, mode = tile, encode = tiled, format = float32, data_type = 7, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<4x16x32xf32> -> !llvm.ptr
  return
}

// -----

gpu.module @device {
  gpu.func @k(%A: memref<16x16xui32>) kernel {
    // expected-error @below {{is device code: tile-lower-tma-host lowers host code, after gpu-module-to-binary}}
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<param = 2, source = 0, mode = tile, encode = tiled, format = uint32, data_type = 2, elem_bits = 32, rank = 2, global_rank = 2, box = [16, 8], element_strides = [1, 1], interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0, bytes = 128, base_alignment = 16, stride_alignment = 16, inner_multiple = 1, packing = [1, 1]>} : memref<16x16xui32> -> !llvm.ptr
    gpu.return
  }
}
