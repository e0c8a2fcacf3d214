"""Library kernels written with the builder: TMA copies and transposes.

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
padding, stride, dilation, layout)`; their kernels are in permute_kernels
(and the permute_* modules beside it), pad_kernels and pad_vectors, and
unfold_kernels (and unfold_taps).
"""

import importlib

# The ops on torch and DLPack arrays: importable without MLIR (their kernels
# come from the compile cache), so imported here. Their modules share their
# names: `importlib.import_module("tile_mlir.kernels.permute")` is the module.
from .pad import pad
from .permute import permute
from .unfold import unfold

# The builders need MLIR's Python bindings: each is imported on first use, so
# a machine without MLIR can import this package for the ops above.
_LAZY = {
    "TileClaims": "claims", "build_copy": "copy", "build_copy_one_tile": "copy",
    "build_load_only": "copy", "build_store_only": "copy",
    "build_copy_dynamic": "copy_dynamic", "build_simt_copy": "copy_simt",
    "build_copy_tma_simt": "copy_ws", "build_copy_ws": "copy_ws",
    "ring_and_producer": "copy_ws", "build_empty": "launch",
    "build_two_box_load": "launch", "EVICT_FIRST": "opcodes", "box_origin": "tiling",
    "elem_bytes": "tiling", "tile_order": "tiling", "tiling": "tiling",
    "build_transpose": "transpose", "swizzled": "transpose",
    "InPlaceTile": "transpose_inplace", "build_transpose_dynamic": "transpose_inplace",
    "build_transpose_one_tile": "transpose_inplace", "METHODS": "transpose_plan",
    "Plan": "transpose_plan", "make_plan": "transpose_plan",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    # Importing a submodule binds it on the package: where it shares an
    # export's name (tiling), the export is what the package names.
    for other, where in _LAZY.items():
        if isinstance(globals().get(other), type(importlib)) and other == where:
            globals()[other] = getattr(globals()[other], other)
    return value


def __dir__():
    return __all__


__all__ = [
    "pad", "permute", "unfold",
    "EVICT_FIRST", "InPlaceTile", "METHODS", "Plan", "TileClaims", "box_origin",
    "build_copy", "build_copy_dynamic", "build_copy_one_tile", "build_copy_tma_simt",
    "build_copy_ws", "build_empty", "build_load_only", "build_simt_copy",
    "build_store_only", "build_transpose", "build_transpose_dynamic",
    "build_transpose_one_tile", "build_two_box_load", "elem_bytes", "make_plan", "ring_and_producer", "swizzled", "tile_order", "tiling",
]
