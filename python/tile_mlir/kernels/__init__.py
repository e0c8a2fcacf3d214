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
"""

from .claims import TileClaims
from .copy import build_copy, build_copy_one_tile, build_load_only, build_store_only
from .copy_dynamic import build_copy_dynamic
from .copy_simt import build_simt_copy
from .copy_ws import build_copy_tma_simt, build_copy_ws, ring_and_producer
from .launch import build_empty, build_two_box_load
from .opcodes import EVICT_FIRST
from .tiling import box_origin, elem_bytes, tile_order, tiling
from .transpose import build_transpose, swizzled
from .transpose_inplace import InPlaceTile, build_transpose_dynamic, build_transpose_one_tile
from .transpose_plan import METHODS, Plan, make_plan

__all__ = [
    "EVICT_FIRST", "InPlaceTile", "METHODS", "Plan", "TileClaims", "box_origin",
    "build_copy", "build_copy_dynamic", "build_copy_one_tile", "build_copy_tma_simt",
    "build_copy_ws", "build_empty", "build_load_only", "build_simt_copy",
    "build_store_only", "build_transpose", "build_transpose_dynamic",
    "build_transpose_one_tile", "build_two_box_load", "elem_bytes", "make_plan", "ring_and_producer", "swizzled", "tile_order", "tiling",
]
