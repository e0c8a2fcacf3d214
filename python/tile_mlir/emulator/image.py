"""The shared image of one issue: shape and byte counts, and where each byte
lies in shared memory. Mirrors computeBoxImage in dialect/lib/Contract/Contract.cpp.

Image dims: ceil(box[i] / element_strides[i]) per axis; gather4/scatter4:
(4, width); interleave appends Ci = interleave bytes / element bytes.
im2col modes: box = (pixels_per_column, channels_per_pixel) and the image
is (pixels, channels), element strides not counting: im2col and
im2col_no_offs move pixels_per_column pixels, im2col_w pixels_per_column +
w_halo, im2col_w_128 4 * (32 + w_halo) (pixels_per_column ignored; see
im2col.py for the uncertain parts). The row is the innermost image dim. A
row's payload is row elems * element bits / 8; its storage is the payload
(packed formats: each 16 values take the format's shared block, see
formats.py) raised to the swizzle span when shorter. Rows lie consecutively
at the storage pitch.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

from .. import contract
from .formats import Format, get_format
from .swizzle import swizzle_address, swizzle_span

MODES = contract.MODES
# The modes whose tensor map is an im2col one.
IM2COL_MODES = tuple(m for m in MODES if contract.MODE_ENCODE[m] != "tiled")



def checked_element_strides(element_strides, rank: int) -> tuple:
    """`element_strides` (all ones when None), one per dimension, each in
    contract.ELEMENT_STRIDE_RANGE."""
    strides = (1,) * rank if element_strides is None else _ints(
        "element_strides", element_strides)
    if len(strides) != rank:
        raise ValueError(f"element-strides-arity: element_strides has "
                         f"{len(strides)} entries, expected {rank}")
    for i, s in enumerate(strides):
        if s not in contract.ELEMENT_STRIDE_RANGE:
            raise ValueError(f"element-strides-range: element_strides[{i}] = "
                             f"{s} is outside {contract.ELEMENT_STRIDE_RANGE}")
    return strides

def interleave_bytes(interleave: int) -> int:
    if interleave not in contract.INTERLEAVE_RANGE:
        raise ValueError(f"interleave-range: interleave {interleave!r} is "
                         f"outside {contract.INTERLEAVE_RANGE} (none, 16B, 32B)")
    return 0 if interleave == 0 else 8 << interleave


@dataclass(frozen=True)
class Image:
    dims: tuple          # logical image dims (elements; Ci last with interleave)
    shape: tuple         # the contract's shared suffix: dims, row padded to storage
    fmt: Format
    swizzle: int
    row_payload_bytes: int
    row_storage_bytes: int
    direction: str = "load"

    @property
    def row_elems(self) -> int:
        return self.dims[-1]

    @property
    def rows(self) -> int:
        return prod(self.dims[:-1])

    @property
    def payload_bytes(self) -> int:
        return self.rows * self.row_payload_bytes

    @property
    def storage_bytes(self) -> int:
        return self.rows * self.row_storage_bytes

    def as_dict(self) -> dict:
        return dict(shape=self.shape, payload_bytes=self.payload_bytes,
                    storage_bytes=self.storage_bytes,
                    row_payload_bytes=self.row_payload_bytes,
                    row_storage_bytes=self.row_storage_bytes,
                    image_dims=self.dims, rows=self.rows,
                    element_bytes=self.fmt.elem_bytes)

    def byte_addresses(self, offset: int = 0) -> np.ndarray:
        """Shared byte address of each payload byte, shape (rows, row payload
        bytes), swizzle applied. Packed payload byte p of a row lies in
        16-value block p // group_data_bytes at byte p % group_data_bytes
        (float4_e2m1fn: elements 2p, 2p+1 in block p // 8 at byte p % 8)."""
        p = np.arange(self.row_payload_bytes, dtype=np.int64)
        one_per_byte = self.direction != "load" and self.fmt.info.store_unpacked
        if self.fmt.packed and not one_per_byte:
            gd, gs = self.fmt.group_data_bytes, self.fmt.group_slot_bytes
            p = (p // gd) * gs + p % gd
        r = np.arange(self.rows, dtype=np.int64)[:, None] * self.row_storage_bytes
        return swizzle_address(offset + r + p[None, :], self.swizzle)


def _ints(name: str, values) -> tuple:
    try:
        out = tuple(int(v) for v in values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of integers, got {values!r}") from None
    if any(o != v for o, v in zip(out, values)):
        raise ValueError(f"{name} must hold integers, got {values!r}")
    return out


def compute_image(box, element_strides=None, format="uint32", swizzle=0,
                  interleave=0, mode="tile", w_halo=0, direction="load") -> Image:
    """The box image of one issue (arity and ranges checked, nothing else).
    `w_halo` counts only in im2col_w/im2col_w_128; `direction` only for
    float6_align16b, whose stores read one value per shared byte."""
    fmt = format if isinstance(format, Format) else get_format(format)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if mode in IM2COL_MODES:
        return _im2col_image(box, fmt, swizzle, interleave, mode, w_halo,
                             direction)
    box = _ints("box", box)
    if len(box) not in contract.RANK_RANGE:
        raise ValueError(f"rank-range: box has {len(box)} extents, expected "
                         f"{contract.RANK_RANGE}")
    for i, extent in enumerate(box):
        if extent not in contract.BOX_EXTENT_RANGE:
            raise ValueError(f"box-extent: box[{i}] = {extent} is outside "
                             f"{contract.BOX_EXTENT_RANGE}")
    strides = checked_element_strides(element_strides, len(box))
    ibytes = interleave_bytes(interleave)
    if mode != "tile":
        dims = [4, box[1] if len(box) == 2 else 1]
    else:
        dims = [(b + s - 1) // s for b, s in zip(box, strides)]
    if ibytes:
        dims.append(ibytes * 8 // fmt.bits)
    return _finish(dims, fmt, swizzle, direction)


def _finish(dims, fmt: Format, swizzle: int, direction: str) -> Image:
    span = swizzle_span(swizzle)
    row_elems = dims[-1]
    if fmt.packed:
        row_storage = fmt.packed_row_storage(-(-row_elems // 16) * 16, direction)
        unpacked_store = direction != "load" and fmt.info.store_unpacked
        row_payload = row_elems if unpacked_store else row_elems * fmt.bits // 8
    else:
        row_payload = row_storage = row_elems * fmt.bits // 8
    if span and row_storage < span:
        row_storage = span
    shape = tuple(dims[:-1]) + (row_storage // fmt.elem_bytes,)
    return Image(tuple(dims), shape, fmt, int(swizzle), row_payload, row_storage,
                 direction)


def im2col_rows(box, mode: str, w_halo: int = 0) -> int:
    """Pixels (shared rows) one im2col-family issue moves."""
    if mode == "im2col_w_128":
        return 4 * (32 + int(w_halo))
    if mode == "im2col_w":
        return int(box[0]) + int(w_halo)
    return int(box[0])


def _im2col_image(box, fmt, swizzle, interleave, mode, w_halo, direction):
    box = _ints("box", box)
    if len(box) != 2:
        raise ValueError(f"im2col-box: an {mode} box is (pixels_per_column, "
                         f"channels_per_pixel), got {len(box)} extents {box}")
    ppc, cpp = box
    if ppc not in contract.PIXELS_PER_COLUMN_RANGE:
        raise ValueError(f"im2col-box: pixels_per_column = {ppc} is outside "
                         f"{contract.PIXELS_PER_COLUMN_RANGE}")
    if cpp not in contract.CHANNELS_PER_PIXEL_RANGE:
        raise ValueError(f"im2col-box: channels_per_pixel = {cpp} is outside "
                         f"{contract.CHANNELS_PER_PIXEL_RANGE}")
    if interleave_bytes(interleave):
        raise ValueError(f"im2col-layout: {mode} is not modelled with interleave "
                         f"(got interleave {interleave})")
    w_halo = int(w_halo)
    if mode in ("im2col_w", "im2col_w_128"):
        halo = (contract.IM2COL_W_128_HALO_RANGE if mode == "im2col_w_128"
                else contract.IM2COL_W_HALO_RANGE)
        if w_halo not in halo:
            raise ValueError(f"im2col-offsets: w_halo = {w_halo} is outside "
                             f"{halo} for {mode}")
    return _finish([im2col_rows(box, mode, w_halo), cpp], fmt, swizzle, direction)


def box_image(box, element_strides=None, format="uint32", swizzle=0,
              interleave=0, mode="tile", w_halo=0, direction="load") -> dict:
    """Shape and byte counts of one issue's shared image (Contract.cpp's
    computeBoxImage): dict(shape, payload_bytes, storage_bytes,
    row_payload_bytes, row_storage_bytes), plus image_dims (the logical,
    unpadded dims), rows and element_bytes. For im2col modes box is
    (pixels_per_column, channels_per_pixel); the W modes' row count depends
    on the runtime w_halo (pass it)."""
    return compute_image(box, element_strides, format, swizzle, interleave,
                         mode, w_halo, direction).as_dict()
