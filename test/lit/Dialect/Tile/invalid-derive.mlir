// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of tensor maps derived on the device
// (tile.tensormap_derive); tensormap-derive-invalid.mlir has the rest.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

// Tensor maps derived on the device (tile.tensormap_derive).

gpu.module @k {
  gpu.func @derive_field_arity(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %rows: i32) kernel {
    // expected-error @+1 {{[derive-field-arity] new_dims has 1 entries, expected rank 2}}
    %m = tile.tensormap_derive %T into %dest new_dims(%rows) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @derive_destination(%T: memref<64x128xbf16>, %dest: !llvm.ptr<3>, %rows: i32, %cols: i32) kernel {
    // expected-error @+1 {{[derive-destination] the destination is in address space 3: a derived map is published to global memory (a generic (0) or global (1) pointer; the copy engine reads no map from shared memory)}}
    %m = tile.tensormap_derive %T into %dest new_dims(%rows, %cols) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<3> -> !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<64x128xbf16, 3> {alignment = 1024}
  gpu.func @derived_map_mismatch(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<64x128xbf16, 3>
    %m = tile.tensormap_derive %T into %dest {box = array<i64: 64, 128>, new_box = array<i64: 32, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    // expected-error @+1 {{[derived-map-mismatch] the copy's box (64, 128) is not the derived map's (32, 128)}}
    tile.tma_copy load tile 2d %s, %m[%c0, %c0] mbar(%bar) {box = array<i64: 64, 128>} : memref<64x128xbf16, 3>, !llvm.ptr<1>
    gpu.return
  }
}

// -----

gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx86">] {
  gpu.func @target_tensormap_replace(%T: memref<64x128xbf16>, %dest: !llvm.ptr<1>, %p: i64) kernel {
    // expected-error @+1 {{[target-tensormap-replace] tensormap.replace needs an arch-specific target (sm_90a, sm_100a, ...), target is sm_90}}
    %m = tile.tensormap_derive %T into %dest new_address(%p : i64) {box = array<i64: 64, 128>} : memref<64x128xbf16>, !llvm.ptr<1> -> !llvm.ptr<1>
    gpu.return
  }
}
