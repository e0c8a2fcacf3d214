// RUN: tile-opt %s -split-input-file --tile-check-barriers -verify-diagnostics

// Verifier rules of multicast: cta_mask and the cluster it selects from.
// The invalid-*.mlir files together fail every statically checked rule of
// Rules.def (TILE_RULE) at least once; each case is named after its rule.
// valid.mlir holds, for each case, the nearest input that passes.

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask] multicast needs a cta_mask operand}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask_without_multicast(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask] cta_mask is only valid with multicast}}
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[multicast-cluster] multicast needs a kernel launched in a cluster, but the enclosing function declares none (tile.cluster_size, known_cluster_size or nvvm.cluster_dim)}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_cluster_malformed(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {tile.cluster_size = array<i32: 2, 0, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] tile.cluster_size has an extent 0 below 1}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @multicast_cluster_too_big(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>, %mask: i16) kernel attributes {known_cluster_size = array<i32: 4, 8, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] known_cluster_size declares 32 CTAs per cluster; a cluster has at most 16 (the 16-bit cta_mask)}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

// A malformed cluster fails the launch whether or not the copy multicasts.
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cluster_shape_negative(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {known_cluster_size = array<i32: -1, 0, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] known_cluster_size has an extent -1 below 1}}
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cluster_shape_store_malformed(%A: memref<64x64xf32>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] tile.cluster_size must be array<i32: x[, y[, z]]>, got array<i32: 2, 1, 1, 1>}}
    tile.tma_copy store tile 2d %s, %A[%c0, %c0] {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cluster_shape_disagree(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {known_cluster_size = array<i32: 2, 1, 1>, nvvm.cluster_dim = array<i32: 4>} {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cluster-shape] known_cluster_size and nvvm.cluster_dim declare different clusters (2x1x1 and 4x1x1)}}
    tile.tma_copy load tile 2d cluster %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask_cluster(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 2, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %mask = arith.constant 5 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask-cluster] cta_mask 0x5 selects CTA rank 2, but the cluster has 2 CTAs (tile.cluster_size; ranks 0..1)}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @cta_mask_cluster_none(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel attributes {tile.cluster_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %mask = arith.constant 0 : i16
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    // expected-error @+1 {{[cta-mask-cluster] cta_mask 0x0 selects no CTA of the cluster}}
    tile.tma_copy load tile 2d cluster multicast %s, %A[%c0, %c0] mbar(%bar) cta_mask(%mask) {box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>
    gpu.return
  }
}
