"""The im2col family and prefetches, as explain describes them.

An im2col image is one shared row per pixel: row k holds the channels
c .. c + channels_per_pixel - 1 of pixel k of the traversal (the emulator's
tile_mlir.emulator.im2col: base positions run over the bounding box
[lower, dim - 1 + upper] of each spatial axis, W fastest, then H, D and the
image n; the pixel read is the base position plus the offsets). Everything
here comes from the emulator's resolved transfer; nothing re-derives the
traversal or the swizzle.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..contract import CHUNK_BYTES
from ..emulator import im2col as _im2col
from .slots import scatter_slot


def spatial_names(rank: int) -> tuple:
    """Names of the spatial axes of a rank-3..5 (N, [D, H,] W, C) tensor."""
    return ("d", "h", "w")[5 - rank:]


def axis_names(rank: int) -> tuple:
    return ("n",) + spatial_names(rank) + ("c",)


@dataclass(frozen=True)
class Pixel:
    """One shared row of an im2col image (or one pixel a prefetch warms).

    n, base       the traversal's image and base position (spatial axes,
                  outer-to-inner), inside the bounding box
    position      the spatial position read or written: base + offsets
    channels      (first, last) channel of the row, inclusive
    inside        the pixel lies in the tensor (else the whole row is the
                  fill on loads, dropped on stores)
    channels_inside  how many of the row's channels are < C
    reason        why the pixel (or part of the row) is outside, else None
    address       shared byte where the row's storage starts (None: no
                  shared image, a prefetch)
    chunks        shared 16-byte chunk (address // 16, from the buffer base)
                  of each of the row's image chunks, swizzle applied
    """
    row: int
    n: int
    base: tuple
    position: tuple
    channels: tuple
    inside: bool
    channels_inside: int
    reason: str | None
    address: int | None
    chunks: tuple


def _reason(rank: int, shape: tuple, n: int, position: tuple, channels: tuple,
            channels_inside: int) -> str | None:
    names = spatial_names(rank)
    if n < 0:
        return f"n={n} is before the first image"
    if n >= shape[0]:
        return f"n={n} is past the last image (N={shape[0]})"
    for name, p, dim in zip(names, position, shape[1:-1]):
        if not 0 <= p < dim:
            return f"{name}={p} is outside 0..{dim - 1} (padding)"
    width = channels[1] - channels[0] + 1
    if channels_inside < width:
        return (f"channels {channels[0]}..{channels[1]} pass C={shape[-1]}: "
                f"{width - channels_inside} outside")
    return None


def pixels(t: _im2col.Im2colTransfer, offset: int | None) -> list:
    """One Pixel per shared row of `t` (`offset`: the image's shared byte
    offset, None for a prefetch)."""
    n, sp, row_ok, c, chan_ok = _im2col.pixel_coordinates(t)
    seq = _im2col.traversal(t, max(t.order) + 1)
    bases = [seq[k][1] for k in t.order]
    rank = len(t.shape)
    channels = (int(c[0]), int(c[-1]))
    inside_c = int(np.count_nonzero(chan_ok))
    addrs = None
    if offset is not None:
        addrs = np.asarray(t.image.byte_addresses(offset), dtype=np.int64)
    out = []
    for k in range(len(t.order)):
        position = tuple(int(v) for v in sp[k])
        inside = bool(row_ok[k])
        reason = _reason(rank, t.shape, int(n[k]), position, channels, inside_c)
        if addrs is None:
            address, chunks = None, ()
        else:
            address = offset + k * t.image.row_storage_bytes
            chunks = tuple(int(a) // CHUNK_BYTES
                           for a in addrs[k, ::CHUNK_BYTES])
        out.append(Pixel(k, int(n[k]), tuple(int(v) for v in bases[k]), position,
                         channels, inside, inside_c if inside else 0, reason,
                         address, chunks))
    return out


def slot_map(t: _im2col.Im2colTransfer, offset: int, size: int) -> tuple:
    """(element, byte, kind) of each of the slot's `size` shared bytes:
    element = (n, *position, c) of the byte's element."""
    img = t.image
    eb = img.fmt.elem_bytes
    rel = np.asarray(img.byte_addresses(offset), dtype=np.int64) - offset
    rows, payload = rel.shape
    n, sp, row_ok, c, chan_ok = _im2col.pixel_coordinates(t)
    p = np.arange(payload)
    inner, within = p // eb, p % eb
    coords = np.zeros((rows, payload, len(t.shape)), dtype=np.int64)
    coords[..., 0] = n[:, None]
    for i in range(sp.shape[1]):
        coords[..., 1 + i] = sp[:, i][:, None]
    coords[..., -1] = c[inner][None, :]
    valid = row_ok[:, None] & chan_ok[inner][None, :]
    return scatter_slot(rel, coords, within, valid, size)


__all__ = ["Pixel", "axis_names", "pixels", "slot_map", "spatial_names"]
