//===- Passes.td - tile passes -----------------------------*- tablegen -*-===//
#ifndef TILE_PASSES_TD
#define TILE_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileLowerTma : Pass<"tile-lower-tma", "ModuleOp"> {
  let summary = "Lower tile.tma_copy to NVVM bulk tensor copies";
  let description = [{
    Rewrites every `tile.tma_copy` inside a `gpu.module` into one NVVM
    instruction per repeat slot:

    * loads: `nvvm.cp.async.bulk.tensor.shared.cluster.global` (tile or
      gather4; shared::cta destination via `isCTAOnly`; multicast mask; L2
      cache hint; cta_group);
    * stores: `nvvm.cp.async.bulk.tensor.global.shared.cta` (tile or scatter4);
    * reductions: `nvvm.cp.async.bulk.tensor.reduce`.

    Slot coordinates are `coords` plus the slot's `coord_steps` combination,
    reordered innermost-first (gather4: column, then the four rows). A slot's
    shared address is the buffer base plus its index times the slot's image
    bytes (row-aligned, so the hardware applies the swizzle phase once).

    Each distinct descriptor (global memref argument + descriptor fields)
    becomes one new kernel parameter, a 128-byte `__grid_constant__` tensor
    map passed by value (`llvm.byval`, `llvm.align = 128`,
    `nvvm.grid_constant`). The kernel records `tile.tensor_maps`, one
    `#tile.tensor_map_spec` per parameter (docs/tensor-map-spec.md), from
    which the host encodes the maps. An opaque `!llvm.ptr` descriptor is used
    as given.

    Every `tile.wgmma_descriptor` becomes the integer arithmetic of its
    64-bit value: the buffer's shared address plus the K step's bytes,
    masked and shifted into bits 0-13, ORed with one constant of its other
    fields.

    No thread election, wait, fence or descriptor prefetch is inserted.

    With `debug=true` (a debug build, docs/debug-mode.md) each gpu.module
    also gets an error buffer (`__tile_debug_error`, zero-initialized global
    memory) and a per-CTA barrier table in shared memory; every copy first
    checks the runtime values the verifier could not decide
    (inner-coord-alignment, packed-alignment, store-coords-nonnegative,
    coord-range, opaque-map-alignment) and records a violation instead of
    issuing; every `nvvm.mbarrier.try_wait.parity` becomes a bounded loop
    that records an `mbarrier-timeout` (barrier, phase, expected and issued
    bytes, thread) and exits the thread; expect_tx and issued bytes are
    counted per phase (`barrier-tx-mismatch`). The module's
    `tile.debug` attribute records the buffer's layout, the sites and the
    kernels for the manifest. Without it the output is unchanged.
  }];
  let options = [
    Option<"debug", "debug", "bool", "false",
           "add the debug build's device checks and bounded waits">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def TileCheckBarriers : Pass<"tile-check-barriers", "ModuleOp"> {
  let summary = "Static mbarrier checks of every kernel: initialised, armed, bytes accounted";
  let description = [{
    For each `gpu.func` kernel, checks that every mbarrier of an allocation
    the IR names (a shared global, a workgroup attribution, the dynamic
    shared memory, at a constant or run-time offset) that the kernel waits
    on, arrives on, arms or completes a copy on is initialised in it
    (`[mbarrier-uninitialized]`, on the first use), and that every one a
    `tile.tma_copy` load completes on is armed with expect_tx in it
    (`[mbarrier-unarmed]`, on the load). Then, for each mbarrier whose
    expect_tx bytes and completing loads are statically known in a phase,
    checks that the two are equal, and fails with `[barrier-tx-mismatch]` on
    the expect_tx otherwise (naming the barrier, the expected and the
    delivered bytes). Where the IR does not fix them it says nothing:
    docs/decisions.md ("Shared memory: static barrier accounting") gives the
    scope.
    `tile-lower-tma` runs the same check first; this pass runs it alone.
  }];
}

def TileAlignDynamicShared : Pass<"tile-align-dynamic-shared", "ModuleOp"> {
  let summary = "Declare the dynamic shared memory as the launch's dynamic window, aligned as its copies need";
  let description = [{
    Runs after `convert-gpu-to-nvvm`, which declares the dynamic shared
    memory as an internal, zero-length `llvm.mlir.global` in address space 3,
    16-byte aligned. ptxas lays such a variable out among the static shared
    buffers (at the window's first byte, a static mbarrier right after it),
    not where the launch's dynamic shared memory starts. This pass makes it
    external, the PTX dynamic window placed after every static buffer
    (`.extern .shared .align N .b8 __dynamic_shmem__0[]`), and raises its
    alignment to what `tile-lower-tma` recorded on the `gpu.module` for the
    copies into it (`tile.dynamic_shared_alignment`: 128, or 1024 for a
    swizzled copy), so the base the verifier assumes (1024 bytes) holds.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TileFinalizeTensorMaps : Pass<"tile-finalize-tensor-maps", "ModuleOp"> {
  let summary = "Mark tensor-map kernel parameters grid_constant after GPU-to-NVVM";
  let description = [{
    Runs after `convert-gpu-to-nvvm`. For every `llvm.func` kernel carrying
    `tile.tensor_maps`, finds each tensor-map parameter in the flattened
    signature (memref parameters expand to 3 + 2*rank values), marks it
    `llvm.byval = !llvm.array<128 x i8>`, `llvm.align = 128` and
    `nvvm.grid_constant`, and records its position as `llvm_param` in the
    spec. (`nvvm.grid_constant` is only valid on LLVM kernels, and the
    conversion drops parameter attributes, hence this second step.)
  }];
  let options = [
    Option<"useBarePtrCallConv", "use-bare-ptr-call-conv", "bool", "false",
           "memref parameters were lowered to bare pointers">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

def TileLowerTmaHost : Pass<"tile-lower-tma-host", "ModuleOp"> {
  let summary = "Encode each tile.tensor_map on the host with cuTensorMapEncode*";
  let description = [{
    Runs on host code after the gpu.modules have been serialized
    (`gpu-module-to-binary`) and before `gpu-to-llvm` / `func-to-llvm`.
    Every `tile.tensor_map` is replaced, where it stands (once per launch,
    never per box), by host IR that needs only libcuda and libc:

    * the source's aligned pointer, offset, sizes and strides
      (`memref.extract_aligned_pointer_as_index`,
      `memref.extract_strided_metadata`; static sizes and strides are taken
      from the type); `globalDim` = sizes reversed (interleave: the first
      `rank` sizes, Ci implicit), `globalStrides` = outer byte strides
      reversed (interleave: `strides[:rank-1]`), address = aligned pointer +
      offset * element bytes;
    * the runtime rules of docs/rules.md (global-inner-stride,
      global-base-alignment, global-dim-range, global-stride-alignment,
      global-stride-range, box-within-dim, packed-inner-dim): a check on a
      run-time value prints `tile-mlir: [rule] ...` with the offending value
      (printf), flushes and aborts; a violation the types already decide is a
      compile-time error naming the rule, a satisfied one emits nothing;
    * a 128-byte, 128-aligned `llvm.alloca` for the map, arrays for
      globalDim (i64), globalStrides (i64; rank 1: one element, non-null),
      boxDim and elementStrides (i32), all allocated in the entry block of the
      enclosing function, then the spec's `cuTensorMapEncode*`; a non-zero result
      prints `tile-mlir: [tensor-map-encode] ...` and aborts.

    A `gpu.launch_func` operand becomes the map's bytes,
    `llvm.load %map : !llvm.ptr -> !llvm.array<128 x i8>`, loaded right
    before the launch (the kernel's `.param .b8[128]` receives them by value);
    any other use gets the map's address.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // TILE_PASSES_TD
