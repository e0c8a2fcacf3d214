"""The shared image of one issue: shape and byte counts, and where each byte
lies in shared memory. Mirrors computeBoxImage in dialect/lib/Contract.cpp.

Image dims: ceil(box[i] / element_strides[i]) per axis; gather4/scatter4:
(4, width); interleave appends Ci = interleave bytes / element bytes. The
row is the innermost image dim. A row's payload is row elems * element
bytes; its storage is the payload (packed fp4: one byte per element slot,
sixteen nibbles in the low 8 bytes of each 16-byte block) raised to the
swizzle span when shorter. Rows lie consecutively at the storage pitch.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np

from .formats import Format, get_format
from .swizzle import swizzle_address, swizzle_span

MODES = ("tile", "gather4", "scatter4")


def interleave_bytes(interleave: int) -> int:
    if interleave not in (0, 1, 2):
        raise ValueError(f"interleave-range: interleave {interleave!r} is "
                         "outside 0..2 (none, 16B, 32B)")
    return 0 if interleave == 0 else 8 << interleave


@dataclass(frozen=True)
class Image:
    dims: tuple          # logical image dims (elements; Ci last with interleave)
    shape: tuple         # the contract's shared suffix: dims, row padded to storage
    fmt: Format
    swizzle: int
    row_payload_bytes: int
    row_storage_bytes: int

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
        bytes), swizzle applied. Packed fp4 payload byte p of a row (elements
        2p, 2p+1) lies in block p // 8 at byte p % 8."""
        p = np.arange(self.row_payload_bytes, dtype=np.int64)
        if self.fmt.packed:
            p = (p // 8) * 16 + p % 8
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
                  interleave=0, mode="tile") -> Image:
    """The box image of one issue (arity and ranges checked, nothing else)."""
    fmt = format if isinstance(format, Format) else get_format(format)
    box = _ints("box", box)
    if not 1 <= len(box) <= 5:
        raise ValueError(f"rank-range: box has {len(box)} extents, expected 1..5")
    for i, extent in enumerate(box):
        if not 1 <= extent <= 256:
            raise ValueError(f"box-extent: box[{i}] = {extent} is outside 1..256")
    strides = (1,) * len(box) if element_strides is None else _ints(
        "element_strides", element_strides)
    if len(strides) != len(box):
        raise ValueError(f"element-strides-arity: element_strides has "
                         f"{len(strides)} entries, expected {len(box)}")
    for i, s in enumerate(strides):
        if not 1 <= s <= 8:
            raise ValueError(f"element-strides-range: element_strides[{i}] = "
                             f"{s} is outside 1..8")
    span = swizzle_span(swizzle)
    ibytes = interleave_bytes(interleave)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")

    if mode != "tile":
        dims = [4, box[1] if len(box) == 2 else 1]
    else:
        dims = [(b + s - 1) // s for b, s in zip(box, strides)]
    if ibytes:
        dims.append(ibytes * 8 // fmt.bits)
    row_elems = dims[-1]
    row_payload = row_elems * fmt.bits // 8
    row_storage = row_elems * fmt.elem_bytes if fmt.packed else row_payload
    if span and row_storage < span:
        row_storage = span
    shape = tuple(dims[:-1]) + (row_storage // fmt.elem_bytes,)
    return Image(tuple(dims), shape, fmt, int(swizzle), row_payload, row_storage)


def box_image(box, element_strides=None, format="uint32", swizzle=0,
              interleave=0, mode="tile") -> dict:
    """Shape and byte counts of one issue's shared image (Contract.cpp's
    computeBoxImage): dict(shape, payload_bytes, storage_bytes,
    row_payload_bytes, row_storage_bytes), plus image_dims (the logical,
    unpadded dims), rows and element_bytes."""
    return compute_image(box, element_strides, format, swizzle, interleave,
                         mode).as_dict()
