"""im2col-family transfers: loads (im2col, im2col_w, im2col_w_128) and
stores/reductions (im2col_no_offs), as the copy engine performs them.

Conventions (as elsewhere in the emulator, outer-to-inner):
  global array  (N, W, C), (N, H, W, C) or (N, D, H, W, C): rank 3..5
  coords        (n, [d, h,] w, c): the full-rank instruction coordinates
  box           (pixels_per_column, channels_per_pixel): the shared image
                is that many rows of channels, laid out and swizzled like a
                2-D tile box with inner row = channels
  pixel_box_lower / pixel_box_upper
                the tensor map's corners per spatial axis ([d, h,] w); the
                W modes take one entry each (the W corners)
  offsets       im2col: one unsigned offset per spatial axis ([d, h,] w);
                im2col_w / im2col_w_128: (w_halo, w_offset);
                im2col_no_offs: none
  element_strides  full rank; the spatial entries are the traversal
                strides, n and c must be 1

Semantics (PTX ISA "im2col mode" and "im2col::w and im2col::w::128 modes";
CUDA driver cuTensorMapEncodeIm2col/Im2colWide; the traversal order and the
wrap to the next image were checked against hardware-run examples):
  * the bounding box of base positions along spatial axis i is
    [lower[i], dim[i] - 1 + upper[i]] (both ends inclusive);
  * pixel k = 0, 1, ... of the column starts at the spatial coords (which
    must lie in the box) and advances like an odometer: W steps by its
    traversal stride; past the box's upper W bound it returns to lower W
    and H steps; likewise H into D, and D into the next image (n + 1);
  * pixel k reads global position (n, base + offsets, c .. c + channels-1);
    any coordinate outside the tensor (including n >= N and padding
    positions inside the box) reads the fill: zero, or the NaN pattern with
    oob_fill=1;
  * stores (im2col_no_offs) write shared row k to pixel k of the same
    traversal with zero offsets; out-of-tensor elements are dropped. The
    store direction requires coords >= 0, lower corners >= 0 and upper
    corners <= 0 (the box stays inside the tensor).

Assumptions where the documentation is silent (flagged, not measured):
  * with traversal strides > 1 the odometer returns exactly to the lower
    corner (not to a stride-aligned position);
  * stores with element strides > 1 traverse as loads do;
  * im2col_w / im2col_w_128 (sm_100 only, never executed here): D and H are
    fixed by the coords (box size 1), W runs from the W coordinate (which
    may lie left of the box) with its stride, and past the box's upper W
    bound wraps to the next image like im2col; w_offset shifts the box and
    the start (an im2col W offset); the halo pixels are the positions that
    follow in the same traversal: im2col_w has pixels_per_column + w_halo
    rows (halo last), im2col_w_128 four groups of 32 pixels each followed by
    its w_halo halo pixels, 4 * (32 + w_halo) rows, pixels_per_column
    ignored. The transaction bytes of the W modes depend on the runtime
    w_halo.
Not modelled: interleaved layouts and packed formats with im2col (the
verifier rejects both: im2col-layout).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import contract
from .convert import to_format
from .fields import check_fill_rounding_swizzle, check_shared
from .formats import Format, fill_value, resolve_format, storage_view
from .image import Image, _ints, checked_element_strides, compute_image, im2col_rows
from .reduce import apply_reduction, check_reduction
from .swizzle import SWIZZLE_NAMES, swizzle_span

LOAD_MODES = ("im2col", "im2col_w", "im2col_w_128")
STORE_MODES = ("im2col_no_offs",)
W_MODES = tuple(m for m, e in contract.MODE_ENCODE.items() if e == "im2col_wide")
# The swizzles cuTensorMapEncodeIm2colWide takes (64B, 128B, 128B_ATOM_32B).
W_MODE_SWIZZLES = contract.IM2COL_WIDE_SWIZZLES


def _either(values) -> str:
    """"2, 3 or 4"."""
    *head, last = (str(v) for v in values)
    return f"{', '.join(head)} or {last}" if head else last


def corner_range(rank: int, mode: str) -> tuple:
    """Inclusive range of one pixel-box corner entry (signed, by rank)."""
    r = contract.IM2COL_CORNER_RANGES[mode, rank]
    return r.min, r.max


def offset_range(rank: int) -> tuple:
    """Inclusive range of one im2col offset (mode im2col; unsigned)."""
    r = contract.IM2COL_OFFSET_RANGES[rank]
    return r.min, r.max


@dataclass(frozen=True)
class Im2colTransfer:
    fmt: Format
    image: Image
    mode: str
    coords: tuple          # (n, *spatial, c)
    lower: tuple           # per spatial axis (W modes: D/H pinned to coords)
    upper: tuple           # inclusive upper bound of base positions
    access_offsets: tuple  # added to base positions per spatial axis
    strides: tuple         # traversal stride per spatial axis
    order: tuple           # traversal index of each shared row
    global_view: np.ndarray
    shape: tuple           # (N, *spatial, C)

    @property
    def spatial_rank(self) -> int:
        return len(self.shape) - 2


def _seq(name, values) -> tuple:
    if values is None:
        return None
    return _ints(name, values)


def resolve(global_array, *, direction, box, coords, element_strides=None,
            format=None, swizzle=0, interleave=0, oob_fill=0, mode,
            pixel_box_lower=None, pixel_box_upper=None, offsets=None,
            tf32_rounding="nearest_even") -> Im2colTransfer:
    """Checks one im2col-family transfer and resolves its traversal."""
    garr = _checked_global(global_array, direction, mode)
    rank = garr.ndim
    fmt = resolve_format(garr.dtype, format)
    if fmt.packed or interleave:
        raise ValueError(f"im2col-layout: {mode} is modelled without interleave and "
                         f"for unpacked formats, got {fmt.name} with interleave "
                         f"{interleave}")
    w_halo, w_offset = _w_offsets(mode, offsets)
    image = compute_image(box, None, fmt, swizzle, 0, mode, w_halo, direction)
    ppc, cpp = _ints("box", box)
    coords = _ints("coords", coords)
    if len(coords) != rank:
        raise ValueError(f"coords-count: expected {rank} coords (n, [d, h,] w, c), "
                         f"got {len(coords)}")
    strides = _checked_strides(element_strides, rank)
    check_fill_rounding_swizzle(fmt, oob_fill, tf32_rounding, swizzle, direction)
    if mode in W_MODES and swizzle not in W_MODE_SWIZZLES:
        raise ValueError(f"im2col-w-swizzle: {mode} needs swizzle "
                         f"{_either(W_MODE_SWIZZLES)} "
                         f"({', '.join(SWIZZLE_NAMES[s] for s in W_MODE_SWIZZLES)}), "
                         f"got {swizzle}")
    if image.row_payload_bytes % contract.CHUNK_BYTES:
        raise ValueError(f"box-inner-bytes: channels_per_pixel {cpp} x "
                         f"{fmt.bits // 8} bytes = {image.row_payload_bytes} bytes, "
                         f"expected a multiple of {contract.CHUNK_BYTES}")
    span = swizzle_span(swizzle)
    if span and image.row_payload_bytes > span:
        raise ValueError(f"swizzle-inner-bytes: a pixel row is "
                         f"{image.row_payload_bytes} bytes, more than the "
                         f"{span}-byte span of swizzle {swizzle}")

    lower, upper, upper_bound = _corners(mode, coords, tuple(garr.shape[1:-1]),
                                         pixel_box_lower, pixel_box_upper)
    access = _access_offsets(mode, rank, offsets, w_offset)
    _check_start(mode, direction, coords, lower, upper, upper_bound)
    return Im2colTransfer(fmt, image, mode, coords, tuple(lower), upper_bound,
                          tuple(access), tuple(strides[1:-1]),
                          _row_order(mode, ppc, cpp, w_halo),
                          storage_view(garr, fmt), tuple(garr.shape))


def _checked_global(global_array, direction: str, mode: str) -> np.ndarray:
    """The global array, checked for the mode and direction."""
    if direction == "load" and mode not in LOAD_MODES:
        raise ValueError(f"mode-direction: loads take modes {LOAD_MODES}, got {mode!r}")
    if direction in ("store", "reduce") and mode not in STORE_MODES:
        raise ValueError(f"mode-direction: stores and reductions take mode "
                         f"'im2col_no_offs', got {mode!r}")
    garr = np.asarray(global_array)
    if garr.ndim not in contract.IM2COL_RANK_RANGE or garr.size == 0:
        raise ValueError(f"im2col-rank: {mode} needs a non-empty (N, [D, H,] W, C) "
                         f"global array of rank {contract.IM2COL_RANK_RANGE}, "
                         f"got shape {garr.shape}")
    return garr


def _w_offsets(mode: str, offsets) -> tuple[int, int]:
    """(w_halo, w_offset): a W mode's two offsets, else (0, 0)."""
    if mode not in W_MODES:
        return 0, 0
    offs = _seq("offsets", offsets)
    if offs is None or len(offs) != 2:
        raise ValueError(f"im2col-offsets: {mode} takes offsets=(w_halo, "
                         f"w_offset), got {offsets!r}")
    return offs


def _checked_strides(element_strides, rank: int) -> tuple:
    """The element strides; N and C are traversed with stride 1."""
    strides = checked_element_strides(element_strides, rank)
    if strides[-1] != 1:
        raise ValueError(f"element-strides-inner: element_strides[{rank - 1}] "
                         f"(C) = {strides[-1]}: the innermost stride must be 1")
    if strides[0] != 1:
        raise ValueError(f"im2col-n-stride: element_strides[0] (N) = {strides[0]}: "
                         "a stride along N is not modelled (undocumented)")
    return strides


def _corners(mode: str, coords: tuple, dims: tuple, pixel_box_lower, pixel_box_upper):
    """(lower, upper, upper_bound): the corners as given, checked, and the
    bounding box of base positions per spatial axis (W modes: D and H
    pinned at their coordinates, the corners applying to W)."""
    rank = len(coords)
    want = 1 if mode in W_MODES else rank - 2
    lower = _seq("pixel_box_lower", pixel_box_lower)
    upper = _seq("pixel_box_upper", pixel_box_upper)
    lo_ok, hi_ok = corner_range(rank, mode)
    for name, corner in (("pixel_box_lower", lower), ("pixel_box_upper", upper)):
        if corner is None or len(corner) != want:
            raise ValueError(f"im2col-corners: {mode} on a rank-{rank} tensor takes "
                             f"{name} with {want} entr{'y' if want == 1 else 'ies'} "
                             f"({'w' if want == 1 else 'outer-to-inner spatial'}), "
                             f"got {corner!r}")
        for v in corner:
            if not lo_ok <= v <= hi_ok:
                raise ValueError(f"im2col-corners: {name} entry {v} is outside "
                                 f"{lo_ok}..{hi_ok} for {mode} at rank {rank}")
    if mode in W_MODES:
        lower = tuple(coords[1:-2]) + lower
        upper_bound = tuple(coords[1:-2]) + (dims[-1] - 1 + upper[0],)
    else:
        upper_bound = tuple(d - 1 + u for d, u in zip(dims, upper))
    for i, (lo, hi) in enumerate(zip(lower, upper_bound)):
        if hi < lo:
            raise ValueError(f"im2col-corners: the bounding box is empty along "
                             f"spatial axis {i}: {lo}..{hi}")
    return lower, upper, upper_bound


def _access_offsets(mode: str, rank: int, offsets, w_offset: int) -> tuple:
    """The offsets added to base positions per spatial axis, checked."""
    n_spatial = rank - 2
    if mode == "im2col":
        offs = _seq("offsets", offsets)
        if offs is None or len(offs) != n_spatial:
            raise ValueError(f"im2col-offsets: im2col on a rank-{rank} tensor takes "
                             f"{n_spatial} offsets (outer-to-inner spatial), got "
                             f"{offsets!r}")
        o_lo, o_hi = offset_range(rank)
        for v in offs:
            if not o_lo <= v <= o_hi:
                raise ValueError(f"im2col-offsets: offset {v} is outside "
                                 f"{o_lo}..{o_hi} at rank {rank}")
        return offs
    if mode in W_MODES:
        if w_offset not in contract.IM2COL_W_OFFSET_RANGE:
            raise ValueError(f"im2col-offsets: w_offset = {w_offset} is outside "
                             f"{contract.IM2COL_W_OFFSET_RANGE}")
        return (0,) * (n_spatial - 1) + (w_offset,)
    if offsets not in (None, (), []):
        raise ValueError(f"im2col-offsets: im2col_no_offs takes no offsets, got "
                         f"{offsets!r}")
    return (0,) * n_spatial


def _check_start(mode: str, direction: str, coords: tuple, lower, upper,
                 upper_bound) -> None:
    """The start must lie in the box (W modes: only its right side binds);
    stores and reductions stay inside the tensor."""
    spatial = coords[1:-1]
    for i, (c, lo, hi) in enumerate(zip(spatial, lower, upper_bound)):
        left_ok = mode in W_MODES and i == len(spatial) - 1
        if c > hi or (c < lo and not left_ok):
            raise ValueError(f"im2col-start: spatial coordinate {i} = {c} is "
                             f"outside the bounding box {lo}..{hi}")
    if direction != "load":
        if any(c < 0 for c in coords):
            raise ValueError(f"store-coords-nonnegative: {direction} coordinates "
                             f"{coords} must be non-negative")
        if any(v < 0 for v in lower) or any(v > 0 for v in upper):
            raise ValueError(f"im2col-store-box: {direction}s need lower corners "
                             f">= 0 and upper corners <= 0 (the box inside the "
                             f"tensor), got {lower} and {upper}")


def _row_order(mode: str, ppc: int, cpp: int, w_halo: int) -> tuple:
    """Shared row -> traversal index."""
    if mode == "im2col_w_128":
        return tuple(32 * g + j for g in range(4) for j in range(32 + w_halo))
    return tuple(range(im2col_rows((ppc, cpp), mode, w_halo)))


def traversal(t: Im2colTransfer, count: int) -> list:
    """The first `count` base positions (n, (spatial...)) of the odometer."""
    pos = list(t.coords[1:-1])
    n = t.coords[0]
    out = []
    for _ in range(count):
        out.append((n, tuple(pos)))
        axis = len(pos) - 1
        while True:
            if axis < 0:
                n += 1
                break
            pos[axis] += t.strides[axis]
            if pos[axis] <= t.upper[axis]:
                break
            pos[axis] = t.lower[axis]
            axis -= 1
    return out


def pixel_coordinates(t: Im2colTransfer):
    """Per shared row: n, accessed spatial coordinates (rows, S) and whether
    the pixel is inside the tensor; per channel: c and whether c < C."""
    seq = traversal(t, max(t.order) + 1)
    rows = [seq[k] for k in t.order]
    n = np.array([r[0] for r in rows], dtype=np.int64)
    sp = np.array([r[1] for r in rows], dtype=np.int64).reshape(len(rows), -1)
    sp = sp + np.array(t.access_offsets, dtype=np.int64)
    dims = np.array(t.shape[1:-1], dtype=np.int64)
    row_ok = (n >= 0) & (n < t.shape[0]) & ((sp >= 0) & (sp < dims)).all(axis=1)
    c = t.coords[-1] + np.arange(t.image.row_elems, dtype=np.int64)
    chan_ok = (c >= 0) & (c < t.shape[-1])
    return n, sp, row_ok, c, chan_ok


def _index(t, n, sp, c):
    """Index arrays (rows, channels) into the global view, clipped."""
    idx = [np.clip(n, 0, t.shape[0] - 1)[:, None]]
    for i in range(sp.shape[1]):
        idx.append(np.clip(sp[:, i], 0, t.shape[1 + i] - 1)[:, None])
    idx.append(np.clip(c, 0, t.shape[-1] - 1)[None, :])
    return tuple(idx)


def image_values(t: Im2colTransfer, oob_fill: int = 0,
                 tf32_rounding: str = "nearest_even") -> np.ndarray:
    """The (rows, channels) image as delivered, in the storage dtype."""
    n, sp, row_ok, c, chan_ok = pixel_coordinates(t)
    values = t.global_view[_index(t, n, sp, c)]
    values = np.array(to_format(values, t.fmt.name, tf32_rounding),
                      dtype=t.fmt.dtype, copy=True)
    values[~(row_ok[:, None] & chan_ok[None, :])] = fill_value(t.fmt, oob_fill)
    return values


def load(shared: np.ndarray, offset: int, global_array, *, box, coords,
         mode="im2col", pixel_box_lower=None, pixel_box_upper=None, offsets=None,
         element_strides=None, swizzle=0, format=None, oob_fill=0, interleave=0,
         tf32_rounding="nearest_even") -> None:
    """One im2col / im2col_w / im2col_w_128 load into `shared` at `offset`
    (see the module docstring for the conventions). Only the payload bytes
    are written."""
    t = resolve(global_array, direction="load", box=box, coords=coords,
                element_strides=element_strides, format=format, swizzle=swizzle,
                interleave=interleave, oob_fill=oob_fill, mode=mode,
                pixel_box_lower=pixel_box_lower, pixel_box_upper=pixel_box_upper,
                offsets=offsets, tf32_rounding=tf32_rounding)
    offset = check_shared(shared, offset, t.image, writable=True)
    values = image_values(t, oob_fill, tf32_rounding)
    data = np.ascontiguousarray(values).view(np.uint8).reshape(
        t.image.rows, t.image.row_payload_bytes)
    shared[t.image.byte_addresses(offset)] = data


def store(global_array, shared: np.ndarray, offset: int, *, box, coords,
          mode="im2col_no_offs", pixel_box_lower=None, pixel_box_upper=None,
          element_strides=None, swizzle=0, format=None, reduction=None,
          interleave=0, offsets=None,
          tf32_rounding="nearest_even") -> np.ndarray:
    """One im2col_no_offs store, or with `reduction` one reduce, of the
    (pixels, channels) image at `offset`; returns the new global array.
    Formats tfloat32/float32_ftz/tfloat32_ftz convert as loads do (an
    assumption, as for tile stores)."""
    direction = "store" if reduction is None else "reduce"
    t = resolve(global_array, direction=direction, box=box, coords=coords,
                element_strides=element_strides, format=format, swizzle=swizzle,
                interleave=interleave, mode=mode, pixel_box_lower=pixel_box_lower,
                pixel_box_upper=pixel_box_upper, offsets=offsets,
                tf32_rounding=tf32_rounding)
    if reduction is not None:
        check_reduction(reduction, t.fmt.name)
    offset = check_shared(shared, offset, t.image, writable=False)
    data = np.ascontiguousarray(shared[t.image.byte_addresses(offset)])
    image = data.view(t.fmt.dtype).reshape(t.image.dims)
    image = np.asarray(to_format(image, t.fmt.name, tf32_rounding), dtype=t.fmt.dtype)

    out = np.array(global_array, copy=True)
    view = out.view(t.fmt.dtype) if out.dtype != t.fmt.dtype else out
    n, sp, row_ok, c, chan_ok = pixel_coordinates(t)
    rows = np.nonzero(row_ok)[0]
    chans = np.nonzero(chan_ok)[0]
    if rows.size and chans.size:
        idx = _index(t, n[rows], sp[rows], c[chans])
        src = image[np.ix_(rows, chans)]
        # One traversal never visits a pixel twice: plain fancy indexing.
        view[idx] = src if reduction is None else apply_reduction(
            reduction, view[idx], src, t.fmt.name)
    return out
