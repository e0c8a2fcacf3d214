"""The kernel library, written with the builder (tile_mlir.builder).

Subpackages, one job each:

  layout/        the layout ops on device arrays: permute, pad, unfold (public
                 ops and their autograd at the top; plan/ chooses a kernel
                 for a call, geometry/ holds the MLIR-free tile geometry the
                 builders and the CPU models share, builders/ traces the
                 kernels; model.py is the CPU model of every kernel)
  copy/          the copy and transpose kernels the benchmarks, the tests and
                 the README use, and TileClaims (tiles claimed at run time)
  grouped/       one launch copying a group of ragged 2-D tensors: the host
                 call (host.py) and its kernel (kernel.py)
  common/        what every kernel family issues: the TMA opcodes and the
                 L2 cache policy

Each `build_*` returns a `tile_mlir.builder.KernelDef` for
`tile_mlir.compiler.compile`. Copies of a (rows, cols) tensor (B = A):

  build_copy           persistent, multi-stage, one thread drives the pipeline
  build_copy_ws        the same warp-specialized (producer and consumer warps)
  build_copy_dynamic   build_copy's pipeline, tiles claimed at run time
  build_copy_one_tile  one box per CTA, grid = the number of boxes
  build_copy_tma_simt  TMA loads, consumer warps storing with st.global.v4
  build_simt_copy      no TMA: ld.global.v4 / st.global.v4 per thread
  build_load_only      TMA loads only (into a ring, every load waited on)
  build_store_only     TMA stores only (one shared box stored everywhere)

Transposes (B = A^T, 16-bit elements; geometry in `Plan` / `make_plan`):

  build_transpose            staged input and output buffers, persistent
  build_transpose_one_tile   one tile per CTA, transposed in place
  build_transpose_dynamic    persistent, in place, tiles claimed at run time

`TileClaims` is the run-time tile claiming both dynamic kernels share;
`build_empty` and `build_two_box_load` are the launch-overhead kernels.

Layout ops on CUDA torch tensors and DLPack arrays (docs/layout-kernels.md):
`permute(x, dims)`, `pad(x, pad, value=0)` and `unfold(x, kernel_size,
padding, stride, dilation, layout)`; `grouped_copy(srcs, dsts)` copies a
group of 2-D tensors in one launch (docs/device-tensor-maps.md).
"""

import importlib

# The ops on torch and DLPack arrays: importable without MLIR (their kernels
# come from the compile cache), so imported here. Their modules are
# tile_mlir.kernels.layout.permute, .pad and .unfold.
from .grouped import GroupedCopy, grouped_copy
from .layout.pad import pad
from .layout.permute import permute
from .layout.unfold import unfold

# The builders need MLIR's Python bindings (an optional dependency of the
# ops above): each is imported on first use, so a machine without MLIR can
# import this package for the ops.
_LAZY = {
    "TileClaims": "copy.claims", "build_copy": "copy.persistent",
    "build_copy_one_tile": "copy.persistent", "build_load_only": "copy.persistent",
    "build_store_only": "copy.persistent", "build_copy_dynamic": "copy.dynamic",
    "build_simt_copy": "copy.simt", "build_copy_tma_simt": "copy.warp_specialized",
    "build_copy_ws": "copy.warp_specialized", "ring_and_producer": "copy.warp_specialized",
    "build_empty": "copy.launch_cost", "build_two_box_load": "copy.launch_cost",
    "EVICT_FIRST": "common.opcodes", "box_origin": "copy.tiling",
    "elem_bytes": "copy.tiling", "tile_order": "copy.tiling", "tiling": "copy.tiling",
    "build_transpose": "copy.transpose", "swizzled": "copy.transpose",
    "InPlaceTile": "copy.transpose_inplace",
    "build_transpose_dynamic": "copy.transpose_inplace",
    "build_transpose_one_tile": "copy.transpose_inplace", "METHODS": "copy.transpose_plan",
    "Plan": "copy.transpose_plan", "make_plan": "copy.transpose_plan",
    "build_grouped_copy": "grouped.kernel",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__


__all__ = [
    "GroupedCopy", "grouped_copy", "pad", "permute", "unfold", "build_grouped_copy",
    "EVICT_FIRST", "InPlaceTile", "METHODS", "Plan", "TileClaims", "box_origin",
    "build_copy", "build_copy_dynamic", "build_copy_one_tile", "build_copy_tma_simt",
    "build_copy_ws", "build_empty", "build_load_only", "build_simt_copy",
    "build_store_only", "build_transpose", "build_transpose_dynamic",
    "build_transpose_one_tile", "build_two_box_load", "elem_bytes", "make_plan",
    "ring_and_producer", "swizzled", "tile_order", "tiling",
]
