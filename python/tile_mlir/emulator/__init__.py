"""A pure-numpy model of TMA bulk tensor copies: the oracle for GPU tests.

It produces the bytes the copy engine writes (loads into a shared-memory
byte buffer) and the global arrays stores and reductions leave, following
the tile contract and what was measured on the H200 (docs/decisions.md,
"Contract: measured behaviour that became rules"). Needs only numpy: no
MLIR, nothing compiled.

Conventions: box/coords/element_strides are outer-to-inner; formats are the
dialect's names; `shared` is a 1-D np.uint8 buffer whose base stands for a
1024-byte aligned address, `offset` a byte offset into it.

    box_image(box, element_strides=None, format="uint32", swizzle=0,
              interleave=0, mode="tile", w_halo=0, direction="load") -> dict
    load(shared, offset, global_array, *, box, coords, ...)
    load(..., mode="im2col" | "im2col_w" | "im2col_w_128",
         pixel_box_lower=..., pixel_box_upper=..., offsets=...)   (im2col.py)
    load_slots(shared, global_array, *, box, coords, coord_steps, repeat_shape, ...)
    load_multicast(shared_buffers, cta_mask, offset, global_array, ...)
    unswizzled_image(shared, offset, *, box, format, ...) -> np.ndarray
    store(global_array, shared, offset, *, box, coords, ..., reduction=None)
    store(..., mode="im2col_no_offs", pixel_box_lower=..., pixel_box_upper=...)
    store_slots(global_array, shared, *, box, coords, coord_steps, repeat_shape, ...)

The consumer's side (tile_mlir.emulator.wgmma_view, imported on its own: it
reads tile_mlir.wgmma's descriptors): where a wgmma reads its operand from
a matrix descriptor, and which global element each (row, k) receives from
the loads a SharedMap records.

    wgmma_view.operand_addresses(descriptor, role="A", major="K", dtype="bf16")
    wgmma_view.check(view, wgmma_view.SharedMap(size).load(...), k0=0) -> [Mismatch]
"""

from .convert import (bf16_to_float32, float32_to_bf16, flush_denormals_f32,
                      round_tf32)
from .formats import FORMATS, Format, get_format, natural_format
from . import im2col
from .image import IM2COL_MODES, MODES, box_image, compute_image
from .load import (load, load_multicast, load_slots, make_shared,
                   unswizzled_image)
from .reduce import REDUCTIONS, apply_reduction
from .store import store, store_slots
from .packed import pack, unpack
from .swizzle import SWIZZLES, swizzle_address, swizzle_period, swizzle_span

__all__ = [
    "FORMATS", "Format", "IM2COL_MODES", "MODES", "REDUCTIONS", "SWIZZLES",
    "im2col", "pack", "unpack", "apply_reduction", "bf16_to_float32",
    "box_image", "compute_image", "float32_to_bf16", "flush_denormals_f32",
    "get_format", "load", "load_multicast", "load_slots", "make_shared",
    "natural_format", "round_tf32", "store", "store_slots", "swizzle_address",
    "swizzle_period", "swizzle_span", "unswizzled_image",
]
