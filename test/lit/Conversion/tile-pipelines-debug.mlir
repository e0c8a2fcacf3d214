// The named device pipelines with debug=true (docs/debug-mode.md): the
// PTX holds the error buffer as a visible global the runtime finds with
// cuModuleGetGlobal, the bounded wait (one mbarrier.try_wait.parity per try,
// %globaltimer, exit) instead of the unbounded try_wait loop, and the table
// in shared memory; without the option the PTX is the release one.
// RUN: tile-opt %s --split-input-file --tile-to-ptx=debug=true | FileCheck %s --check-prefix=DEBUG
// RUN: tile-opt %s --split-input-file --tile-to-nvvm=debug=true | FileCheck %s --check-prefix=NVVM
// RUN: tile-opt %s --split-input-file --tile-to-ptx | FileCheck %s --check-prefix=RELEASE

gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  memref.global "private" @smem : memref<8x16xui32, 3> {alignment = 128}
  gpu.func @seed(%A: memref<16x16xui32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %ticks = arith.constant 10000000 : i32
    %s = memref.get_global @smem : memref<8x16xui32, 3>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xui32, 3>, memref<16x16xui32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// NVVM: gpu.module @kernels
// NVVM-SAME: tile.debug = {buffer = "__tile_debug_error"
// NVVM: llvm.mlir.global external @__tile_debug_error
// NVVM: llvm.func @seed(

// DEBUG: gpu.binary @kernels
// DEBUG-SAME: .visible .global .align 16 .b8 __tile_debug_error[128];
// DEBUG-SAME: .shared .align 1024 .b8 __tile_debug_barriers[1024];
// DEBUG-SAME: bar.sync
// DEBUG-SAME: cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes
// DEBUG-SAME: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}
// DEBUG-SAME: %globaltimer
// DEBUG-SAME: atom.global.add.u32
// DEBUG-SAME: exit;
// DEBUG-NOT: LAB_WAIT

// RELEASE: gpu.binary @kernels
// RELEASE-NOT: __tile_debug
// RELEASE-SAME: LAB_WAIT
// RELEASE-NOT: globaltimer
// RELEASE-NOT: exit;

// -----

gpu.module @kernels [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {
  gpu.func @dynamic(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %c0i = arith.constant 0 : index
    %ticks = arith.constant 10000000 : i32
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %s = memref.view %raw[%c0i][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x16xf32, #gpu.address_space<workgroup>>
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>} : memref<8x16xf32, #gpu.address_space<workgroup>>, memref<64x64xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}

// A kernel with dynamic shared memory: the PTX dynamic window
// (tile-align-dynamic-shared: `.extern`, laid out after every static buffer),
// so the stage buffers cannot run over the 1024-byte table.
// RUN: tile-opt %s --split-input-file --tile-to-ptx=debug=true | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC-LABEL: // -----
// DYNAMIC-DAG: .extern .shared .align {{[0-9]+}} .b8 __dynamic_shmem__0[];
// DYNAMIC-DAG: .shared .align 1024 .b8 __tile_debug_barriers[1024];
