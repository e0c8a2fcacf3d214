"""Stores and reductions: shared image -> a copy of the global array.

Every image element goes to its global coordinate (element strides and
scatter4 rows as for loads); out-of-bounds elements are dropped. A
reduction combines each in-bounds element with the global value (see
reduce.py). The caller's array is never modified.
"""

from __future__ import annotations

import numpy as np

from .convert import to_format
from .fields import check_shared, resolve
from .formats import resolve_format
from .image import compute_image
from .indexing import axis_coordinates
from .load import slot_coords
from .reduce import apply_reduction, check_reduction


def store(global_array, shared: np.ndarray, offset: int, *, box, coords,
          element_strides=None, format=None, swizzle=0, mode="tile", rows=None,
          reduction=None, interleave=0,
          tf32_rounding="nearest_even") -> np.ndarray:
    """One store (tile or scatter4), or with `reduction` one reduce (tile),
    of the image at `offset`; returns the new global array.

    Formats tfloat32/float32_ftz/tfloat32_ftz convert the stored values as
    loads do (an assumption: not measured for stores)."""
    direction = "store" if reduction is None else "reduce"
    t = resolve(global_array, direction=direction, box=box, coords=coords,
                element_strides=element_strides, format=format, swizzle=swizzle,
                interleave=interleave, mode=mode, rows=rows,
                tf32_rounding=tf32_rounding)
    if reduction is not None:
        check_reduction(reduction, t.fmt.name)
    offset = check_shared(shared, offset, t.image, writable=False)
    data = np.ascontiguousarray(shared[t.image.byte_addresses(offset)])
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


def store_slots(global_array, shared: np.ndarray, *, box, coords, coord_steps,
                repeat_shape, offset=0, **kwargs) -> np.ndarray:
    """One store/reduce per repeat slot, in slot order (slot k's image at
    offset + k * storage_bytes); returns the new global array."""
    fmt = resolve_format(np.asarray(global_array).dtype, kwargs.get("format"))
    storage = compute_image(box, kwargs.get("element_strides"), fmt,
                            kwargs.get("swizzle", 0), kwargs.get("interleave", 0),
                            kwargs.get("mode", "tile")).storage_bytes
    out = np.array(global_array, copy=True)
    for k, slot in slot_coords(coords, coord_steps, repeat_shape):
        out = store(out, shared, offset + k * storage, box=box, coords=slot, **kwargs)
    return out
