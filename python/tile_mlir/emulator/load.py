"""Loads: global -> shared image bytes, as the copy engine writes them.

Only the payload bytes are written; padding (the tail of a swizzled row
shorter than the span, the padding of each packed block) and everything
outside the image keep what the caller put there. The im2col modes are
dispatched to im2col.py.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from .. import contract
from .convert import to_format
from .fields import Transfer, check_shared, resolve
from .formats import fill_value, resolve_format
from .im2col import load as im2col_load
from .image import IM2COL_MODES, compute_image
from .indexing import axis_coordinates, clipped, in_bounds_mask
from .packed import pack, unpack


def image_values(t: Transfer, oob_fill: int = 0,
                 tf32_rounding: str = "nearest_even") -> np.ndarray:
    """The image as the hardware delivers it, in the storage dtype, shape =
    image dims (packed formats: (..., row payload bytes), the values packed
    as in global memory)."""
    axes = axis_coordinates(t)
    mask = in_bounds_mask(axes)
    if t.fmt.packed:
        return _packed_image(t, axes, mask)
    idx = clipped(axes, t.logical_shape)
    values = t.global_view[np.ix_(*idx)]      # Ci (interleave) rides along
    values = np.array(to_format(values, t.fmt.name, tf32_rounding),
                      dtype=t.fmt.dtype, copy=True)
    values[~mask] = fill_value(t.fmt, oob_fill)
    return values


def _packed_image(t: Transfer, axes, mask) -> np.ndarray:
    idx = clipped(axes, t.logical_shape)
    values = unpack(t.global_view, t.fmt)[np.ix_(*idx)]
    values = np.where(mask, values, 0).astype(np.uint8)   # OOB: zero values
    return pack(values, t.fmt)


def write_image(shared: np.ndarray, offset: int, t: Transfer,
                values: np.ndarray) -> None:
    data = np.ascontiguousarray(values).view(np.uint8).reshape(
        t.image.rows, t.image.row_payload_bytes)
    shared[t.image.byte_addresses(offset)] = data


def load(shared: np.ndarray, offset: int, global_array, *, box, coords,
         element_strides=None, format=None, swizzle=0, interleave=0,
         oob_fill=0, mode="tile", rows=None,
         tf32_rounding="nearest_even", **im2col) -> None:
    """One load (tile or gather4) into `shared` at byte `offset`.

    `shared` is a 1-D np.uint8 buffer standing for one whose base is aligned
    to 1024 bytes; coords/box/element_strides are outer-to-inner. In gather4
    mode `rows` are the four row operands (each offset by coords[0]) and
    coords[1] is the first column. Modes im2col/im2col_w/im2col_w_128 take
    the keywords of im2col.load (pixel_box_lower, pixel_box_upper, offsets)
    and are handled there."""
    if mode in IM2COL_MODES:
        if rows is not None:
            raise ValueError("gather4-rows: rows= is only valid in gather4/scatter4 mode")
        return im2col_load(shared, offset, global_array, box=box, coords=coords,
                           element_strides=element_strides, format=format,
                           swizzle=swizzle, interleave=interleave,
                           oob_fill=oob_fill, mode=mode,
                           tf32_rounding=tf32_rounding, **im2col)
    if im2col:
        raise ValueError(f"im2col-corners: {sorted(im2col)} are only valid in "
                         "the im2col modes")
    t = resolve(global_array, direction="load", box=box, coords=coords,
                element_strides=element_strides, format=format, swizzle=swizzle,
                interleave=interleave, oob_fill=oob_fill, mode=mode, rows=rows,
                tf32_rounding=tf32_rounding)
    offset = check_shared(shared, offset, t.image, writable=True)
    write_image(shared, offset, t, image_values(t, oob_fill, tf32_rounding))


def slot_coords(coords, coord_steps, repeat_shape):
    """(slot index, coords) for each repeat slot, row-major over the repeat
    axes: coords + sum(j_a * coord_steps[a])."""
    repeat_shape = tuple(int(r) for r in repeat_shape)
    coord_steps = [tuple(int(v) for v in step) for step in coord_steps]
    if len(coord_steps) != len(repeat_shape):
        raise ValueError(f"coord-steps-count: {len(repeat_shape)} repeat axes "
                         f"{repeat_shape} but {len(coord_steps)} coord_steps vectors")
    if any(r < 1 for r in repeat_shape):
        raise ValueError(f"repeat_shape entries must be positive, got {repeat_shape}")
    for a, step in enumerate(coord_steps):
        if len(step) != len(coords):
            raise ValueError(f"coord-steps-arity: coord_steps[{a}] has {len(step)} "
                             f"entries, expected rank {len(coords)}")
    for k, multi in enumerate(product(*(range(r) for r in repeat_shape))):
        yield k, tuple(int(c) + sum(j * step[i] for j, step in zip(multi, coord_steps))
                       for i, c in enumerate(coords))


def load_slots(shared: np.ndarray, global_array, *, box, coords, coord_steps,
               repeat_shape, offset=0, **kwargs) -> None:
    """One load per repeat slot: slot k (row-major over `repeat_shape`) at
    offset + k * storage_bytes, from coords + sum(j_a * coord_steps[a]).
    Other keywords are load()'s."""
    slots = list(slot_coords(coords, coord_steps, repeat_shape))
    storage = _storage_bytes(box, kwargs, global_array)
    if len(slots) > 1 and storage % contract.SHARED_ALIGN:
        raise ValueError(f"shared-atom-alignment: each slot's image is {storage} "
                         f"bytes, so slot origins are not {contract.SHARED_ALIGN}-byte "
                         "aligned")
    for k, slot in slots:
        load(shared, offset + k * storage, global_array, box=box, coords=slot,
             **kwargs)


def _storage_bytes(box, kwargs, global_array, direction="load") -> int:
    fmt = resolve_format(np.asarray(global_array).dtype, kwargs.get("format"))
    mode = kwargs.get("mode", "tile")
    w_halo = 0
    if mode in ("im2col_w", "im2col_w_128") and kwargs.get("offsets") is not None:
        w_halo = kwargs["offsets"][0]
    return compute_image(box, kwargs.get("element_strides"), fmt,
                         kwargs.get("swizzle", 0), kwargs.get("interleave", 0),
                         mode, w_halo, direction).storage_bytes


def load_multicast(shared_buffers, cta_mask: int, offset: int, global_array, *,
                   coord_steps=None, repeat_shape=None, **kwargs) -> None:
    """A multicast load: CTA i of the cluster (shared_buffers[i]) receives the
    same bytes at the same offset when bit i of `cta_mask` is set. With
    coord_steps/repeat_shape, one multicast issue per repeat slot."""
    buffers = list(shared_buffers)
    ctas = contract.MAX_CLUSTER_CTAS  # one mask bit per CTA of a cluster
    if isinstance(cta_mask, bool) or not isinstance(cta_mask, (int, np.integer)) \
            or not 0 < int(cta_mask) < 1 << ctas:
        raise ValueError(f"cta-mask: cta_mask must be a {ctas}-bit mask selecting at "
                         f"least one CTA, got {cta_mask!r}")
    cta_mask = int(cta_mask)
    targets = [i for i in range(ctas) if cta_mask >> i & 1]
    if targets[-1] >= len(buffers):
        raise ValueError(f"cta-mask: bit {targets[-1]} of cta_mask {cta_mask:#x} "
                         f"selects CTA {targets[-1]}, but only {len(buffers)} "
                         "shared buffers were given")
    for i in targets:
        if coord_steps is None and repeat_shape is None:
            load(buffers[i], offset, global_array, **kwargs)
        else:
            load_slots(buffers[i], global_array, coord_steps=coord_steps or (),
                       repeat_shape=repeat_shape or (), offset=offset, **kwargs)


def unswizzled_image(shared: np.ndarray, offset: int, *, box, format,
                     element_strides=None, swizzle=0, interleave=0,
                     mode="tile", w_halo=0, direction="load") -> np.ndarray:
    """Reads the logical image back from `shared` (undoing the swizzle and
    skipping padding): an array of the format's storage dtype with shape =
    image dims (packed formats: (..., row payload bytes), e.g. two fp4
    nibbles a byte; float6_align16b with direction="store": one value a
    byte)."""
    image = compute_image(box, element_strides, format, swizzle, interleave, mode,
                          w_halo, direction)
    offset = check_shared(shared, offset, image, writable=False)
    data = np.ascontiguousarray(shared[image.byte_addresses(offset)])
    if image.fmt.packed:
        return data.reshape(image.dims[:-1] + (image.row_payload_bytes,))
    return data.view(image.fmt.dtype).reshape(image.dims)


def make_shared(nbytes: int, sentinel: int = 0xA5) -> np.ndarray:
    """A shared-memory stand-in: `nbytes` bytes of `sentinel`."""
    return np.full(int(nbytes), sentinel, dtype=np.uint8)
