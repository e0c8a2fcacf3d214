"""Stores and reductions: shared image -> a copy of the global array.

Every image element goes to its global coordinate (element strides and
scatter4 rows as for loads); out-of-bounds elements are dropped. A
reduction combines each in-bounds element with the global value (see
reduce.py). The caller's array is never modified. Packed formats are
unpacked, stored value by value and packed again. The im2col_no_offs mode
is dispatched to im2col.py.
"""

from __future__ import annotations

import numpy as np

from .convert import to_format
from .fields import check_shared, resolve
from .im2col import store as im2col_store
from .image import IM2COL_MODES
from .indexing import axis_coordinates
from .load import _storage_bytes, slot_coords
from .packed import pack, unpack
from .reduce import apply_reduction, check_reduction


def store(global_array, shared: np.ndarray, offset: int, *, box, coords,
          element_strides=None, format=None, swizzle=0, mode="tile", rows=None,
          reduction=None, interleave=0,
          tf32_rounding="nearest_even", **im2col) -> np.ndarray:
    """One store (tile or scatter4), or with `reduction` one reduce (tile),
    of the image at `offset`; returns the new global array.

    Formats tfloat32/float32_ftz/tfloat32_ftz convert the stored values as
    loads do (an assumption: not measured for stores). Mode im2col_no_offs
    takes im2col.store's keywords (pixel_box_lower, pixel_box_upper)."""
    if mode in IM2COL_MODES:
        if rows is not None:
            raise ValueError("gather4-rows: rows= is only valid in gather4/scatter4 mode")
        return im2col_store(global_array, shared, offset, box=box, coords=coords,
                            element_strides=element_strides, format=format,
                            swizzle=swizzle, mode=mode, reduction=reduction,
                            interleave=interleave, tf32_rounding=tf32_rounding,
                            **im2col)
    if im2col:
        raise ValueError(f"im2col-corners: {sorted(im2col)} are only valid in "
                         "the im2col modes")
    direction = "store" if reduction is None else "reduce"
    t = resolve(global_array, direction=direction, box=box, coords=coords,
                element_strides=element_strides, format=format, swizzle=swizzle,
                interleave=interleave, mode=mode, rows=rows,
                tf32_rounding=tf32_rounding)
    if reduction is not None:
        check_reduction(reduction, t.fmt.name)
    offset = check_shared(shared, offset, t.image, writable=False)
    data = np.ascontiguousarray(shared[t.image.byte_addresses(offset)])
    if t.fmt.packed:
        return _store_packed(global_array, t, data)
    image = data.view(t.fmt.dtype).reshape(t.image.dims)
    image = np.asarray(to_format(image, t.fmt.name, tf32_rounding), dtype=t.fmt.dtype)

    out = np.array(global_array, copy=True)
    view = out.view(t.fmt.dtype) if out.dtype != t.fmt.dtype else out
    axes = axis_coordinates(t)

    def put(src, idx):
        if reduction is None:
            view[idx] = src
        else:
            view[idx] = apply_reduction(reduction, view[idx], src, t.fmt.name)

    if t.mode == "tile":
        keep = [np.nonzero(valid)[0] for _, valid in axes]
        if all(k.size for k in keep):
            src = image[np.ix_(*keep)]
            put(src, np.ix_(*[idx[k] for (idx, _), k in zip(axes, keep)]))
    else:
        # scatter4: the four rows one after another (a repeated row sees
        # each of its writes, a reduction accumulates them).
        (row_idx, row_ok), (col_idx, col_ok) = axes
        cols = np.nonzero(col_ok)[0]
        for r in range(4):
            if row_ok[r] and cols.size:
                put(image[r, cols], (row_idx[r], col_idx[cols]))
    return out


def _store_packed(global_array, t, data: np.ndarray) -> np.ndarray:
    """Stores of float4_e2m1fn_align8b / float6_align16b: the shared bytes as
    values (fp6: one value per byte, bits 6..7 dropped), stored into the
    unpacked global values (out-of-bounds dropped), packed again."""
    rows = data.reshape(t.image.rows, t.image.row_payload_bytes)
    if t.fmt.name == "float6_align16b":
        values = rows & 0x3F
    else:
        values = unpack(rows, t.fmt)
    values = values.reshape(t.image.dims)
    out = np.array(global_array, copy=True)
    flat = unpack(out.view(np.uint8), t.fmt)
    axes = axis_coordinates(t)
    keep = [np.nonzero(valid)[0] for _, valid in axes]
    if all(k.size for k in keep):
        flat[np.ix_(*[idx[k] for (idx, _), k in zip(axes, keep)])] = \
            values[np.ix_(*keep)]
    return pack(flat, t.fmt).view(out.dtype).reshape(out.shape)


def store_slots(global_array, shared: np.ndarray, *, box, coords, coord_steps,
                repeat_shape, offset=0, **kwargs) -> np.ndarray:
    """One store/reduce per repeat slot, in slot order (slot k's image at
    offset + k * storage_bytes); returns the new global array."""
    direction = "store" if kwargs.get("reduction") is None else "reduce"
    storage = _storage_bytes(box, kwargs, global_array, direction)
    out = np.array(global_array, copy=True)
    for k, slot in slot_coords(coords, coord_steps, repeat_shape):
        out = store(out, shared, offset + k * storage, box=box, coords=slot, **kwargs)
    return out
