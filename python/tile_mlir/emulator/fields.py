"""Checks one transfer's arguments against the contract and resolves them.

Each ValueError starts with the name of the rule it breaks (as the verifier
names them), then the value and what was expected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import contract
from .convert import TF32_ROUNDINGS
from .formats import Format, resolve_format, storage_view
from .image import IM2COL_MODES, Image, _ints, compute_image
from .swizzle import LOAD_ONLY_SWIZZLES, SWIZZLE_NAMES, swizzle_span

DIRECTIONS = ("load", "store", "reduce")


@dataclass(frozen=True)
class Transfer:
    fmt: Format
    image: Image
    box: tuple
    element_strides: tuple
    coords: tuple
    rows: tuple | None
    interleave: int
    mode: str
    global_view: np.ndarray   # the global array as the format's storage dtype
    logical_shape: tuple      # global dims in elements (fp4: nibbles inner)

    @property
    def rank(self) -> int:
        return len(self.box)


def check_shared(shared, offset: int, image: Image, writable: bool) -> int:
    if not isinstance(shared, np.ndarray) or shared.dtype != np.uint8 or shared.ndim != 1:
        raise ValueError("shared must be a 1-D np.uint8 byte buffer, got "
                         f"{type(shared).__name__}"
                         + (f" {shared.dtype} of rank {shared.ndim}"
                            if isinstance(shared, np.ndarray) else ""))
    if writable and not shared.flags.writeable:
        raise ValueError("shared is read-only: a load writes into it")
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)):
        raise ValueError(f"offset must be an integer byte offset, got {offset!r}")
    offset = int(offset)
    if offset < 0 or offset % contract.SHARED_ALIGN:
        raise ValueError(f"shared-atom-alignment: offset {offset} is not a "
                         f"non-negative multiple of {contract.SHARED_ALIGN} bytes "
                         f"(each image starts {contract.SHARED_ALIGN}-byte aligned)")
    end = offset + image.storage_bytes
    if end > shared.size:
        raise ValueError(f"shared buffer of {shared.size} bytes is too small: "
                         f"the image occupies bytes {offset}..{end - 1}")
    return offset


def resolve(global_array, *, direction, box, coords, element_strides=None,
            format=None, swizzle=0, interleave=0, oob_fill=0, mode="tile",
            rows=None, tf32_rounding="nearest_even") -> Transfer:
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}")
    garr = np.asarray(global_array)
    if garr.ndim == 0 or garr.size == 0:
        # The descriptor's rank, one more with interleave (Ci).
        raise ValueError(f"global-rank: the global array must be a non-empty "
                         f"array of rank {contract.RANK_RANGE.min}.."
                         f"{contract.RANK_RANGE.max + 1}, got shape {garr.shape}")
    if mode in IM2COL_MODES:
        raise ValueError(f"mode-direction: {mode} transfers go through "
                         "tile_mlir.emulator.im2col (load/store dispatch there)")
    fmt = resolve_format(garr.dtype, format)
    image = compute_image(box, element_strides, fmt, swizzle, interleave, mode,
                          direction=direction)
    box = _ints("box", box)
    rank = len(box)
    strides = (1,) * rank if element_strides is None else _ints(
        "element_strides", element_strides)
    coords = _ints("coords", coords)
    if len(coords) != rank:
        raise ValueError(f"coords-count: expected {rank} coords, got {len(coords)}")

    check_fill_rounding_swizzle(fmt, oob_fill, tf32_rounding, swizzle, direction)
    if interleave == 0 and strides[-1] != 1:
        raise ValueError(f"element-strides-inner: element_strides[{rank - 1}] = "
                         f"{strides[-1]}: the innermost stride must be 1 "
                         "without interleave")

    # Modes.
    if mode == "gather4" and direction != "load":
        raise ValueError(f"mode-direction: gather4 is a load mode, got a {direction}")
    if mode == "scatter4" and direction != "store":
        raise ValueError(f"mode-direction: scatter4 is a store mode, got a {direction}")
    if mode != "tile":
        if interleave:
            raise ValueError(f"interleave-mode: {mode} does not use interleave, "
                             f"got interleave {interleave}")
        if rank != 2:
            raise ValueError(f"gather4-rank: {mode} needs a 2-D descriptor, got "
                             f"rank {rank}")
        if box[0] != 1 or any(s != 1 for s in strides):
            raise ValueError(f"gather4-box: {mode} box must be (1, width) with "
                             f"unit element strides, got box {box} and "
                             f"element_strides {strides}")
        if rows is None or len(_ints("rows", rows)) != 4:
            raise ValueError(f"gather4-rows: {mode} needs exactly four row "
                             f"coordinates, got {rows!r}")
        rows = _ints("rows", rows)
    elif rows is not None:
        raise ValueError("gather4-rows: rows= is only valid in gather4/scatter4 mode")

    logical = tuple(garr.shape)
    if fmt.packed:
        logical = _check_packed(fmt, garr, direction, box, strides, coords,
                                swizzle, interleave, oob_fill)

    # Interleave.
    if interleave:
        if rank not in contract.INTERLEAVE_RANK_RANGE:
            raise ValueError(f"interleave-rank: interleave needs rank "
                             f"{contract.INTERLEAVE_RANK_RANGE}, got {rank}")
        if interleave == 2 and swizzle != 1:
            raise ValueError("interleave-32b-swizzle: interleave 2 (32B) needs "
                             f"swizzle 1 (32B), got swizzle {swizzle}")
        if box[1] != 1:
            raise ValueError(f"interleave-one-slice: box[1] (C slices) = {box[1]}: "
                             "one issue selects one C slice; iterate channels "
                             "with a repeat axis and a C step")
        if garr.ndim != rank + 1:
            raise ValueError(f"global-rank: the global array has rank {garr.ndim}, "
                             f"expected {rank + 1} (N, C_slices, *spatial, Ci)")
        ci = image.dims[-1]
        if garr.shape[-1] != ci:
            raise ValueError(f"interleave-slice: the innermost global axis Ci is "
                             f"{garr.shape[-1]}, expected one {8 << interleave}-byte "
                             f"slice of {ci} {fmt.name} elements")
    else:
        if garr.ndim != rank:
            raise ValueError(f"global-rank: the global array has rank {garr.ndim}, "
                             f"expected the box rank {rank}")
        # Inner box bytes and swizzle.
        if not fmt.packed and image.row_payload_bytes % contract.CHUNK_BYTES:
            raise ValueError(f"box-inner-bytes: the inner box row is "
                             f"{image.row_payload_bytes} bytes, expected a "
                             f"multiple of {contract.CHUNK_BYTES}")
        span = swizzle_span(swizzle)
        stored = (fmt.packed_row_storage(image.row_elems, direction)
                  if fmt.packed else image.row_payload_bytes)
        if span and stored > span:
            raise ValueError(f"swizzle-inner-bytes: the inner box row is {stored} "
                             f"bytes, more than the {span}-byte span of swizzle "
                             f"{swizzle}")

    return Transfer(fmt, image, box, strides, coords, rows, int(interleave), mode,
                    storage_view(garr, fmt), logical)


def check_fill_rounding_swizzle(fmt: Format, oob_fill, tf32_rounding, swizzle,
                                direction: str) -> None:
    """The knobs every transfer checks the same way, tile or im2col."""
    if oob_fill not in contract.OOB_FILL_RANGE:
        raise ValueError(f"oob-fill-range: oob_fill {oob_fill!r} is outside "
                         f"{contract.OOB_FILL_RANGE} (zero, NaN)")
    if oob_fill == 1 and not fmt.is_float:
        raise ValueError(f"oob-fill-float: oob_fill 1 (NaN) needs a "
                         f"floating-point format, got {fmt.name}")
    if tf32_rounding not in TF32_ROUNDINGS:
        raise ValueError(f"tf32_rounding must be one of {TF32_ROUNDINGS}, "
                         f"got {tf32_rounding!r}")
    check_swizzle_direction(swizzle, direction)


def check_swizzle_direction(swizzle, direction: str) -> None:
    if swizzle in LOAD_ONLY_SWIZZLES and direction != "load":
        raise ValueError(f"swizzle-load-only: swizzle {swizzle} "
                         f"({SWIZZLE_NAMES[swizzle]}) is valid only for loads, "
                         f"got a {direction}")


def _check_packed(fmt: Format, garr, direction, box, strides, coords, swizzle,
                  interleave, oob_fill) -> tuple:
    """The packed-format rules; returns the logical global shape (values).

    The format's facts (load-only, swizzles, inner multiple, alignment,
    packing, groups) are the contract's; the geometry below is the
    emulator's own.
    """
    info = fmt.info
    if oob_fill == 1 and not info.nan_fill:
        raise ValueError(f"oob-fill-float: the NaN-request fill is not available "
                         f"for the packed format {fmt.name} (the CUDA driver rejects "
                         "it for 16U4/16U6 types)")
    if info.load_only and direction != "load":
        raise ValueError(f"fp4-load-only: packed {fmt.name} is load-only, "
                         f"got a {direction}")
    if direction == "reduce":
        raise ValueError(f"packed-reduce: reductions do not take the packed format "
                         f"{fmt.name}")
    if interleave or any(s != 1 for s in strides):
        raise ValueError(f"packed-layout: packed {fmt.name} takes no interleave and "
                         f"unit element strides, got interleave {interleave} and "
                         f"element_strides {strides}")
    if info.padded_packed:
        # One issue moves one inner unit: a whole 16-byte slot per 16 values.
        if box[-1] != info.inner_multiple:
            raise ValueError(f"packed-inner-box: {fmt.name} needs inner box "
                             f"{info.inner_multiple}, got {box[-1]}")
    elif box[-1] * fmt.bits % (contract.CHUNK_BYTES * 8):
        # Unpadded: shared rows are the global bytes, whole chunks.
        raise ValueError(f"packed-inner-box: {fmt.name} rows are {box[-1]} values = "
                         f"{box[-1] * fmt.bits / 8:g} bytes, expected a multiple "
                         f"of {contract.CHUNK_BYTES} bytes")
    allowed = info.store_swizzles if direction == "store" else info.load_swizzles
    if swizzle not in allowed:
        raise ValueError(f"packed-swizzle: {fmt.name} {direction}s use swizzle "
                         f"{allowed}, got {swizzle}")
    values, nbytes = info.packing
    if garr.shape[-1] * values % (nbytes * info.inner_multiple):
        raise ValueError(f"packed-inner-dim: the inner global dimension is "
                         f"{garr.shape[-1]} bytes, expected a multiple of "
                         f"{nbytes * info.inner_multiple // values} "
                         f"({info.inner_multiple} values)")
    # The inner start: whole groups on the format's alignment (padded), whole
    # bytes (unpadded).
    step_bytes = (math.lcm(info.group[0], info.alignment) if info.padded_packed
                  else nbytes)
    step = step_bytes * values // nbytes
    if coords[-1] % step:
        raise ValueError(f"packed-alignment: inner coordinate {coords[-1]} of "
                         f"{fmt.name} is not a multiple of {step} values "
                         f"({step_bytes} bytes)")
    return tuple(garr.shape[:-1]) + (garr.shape[-1] * values // nbytes,)
