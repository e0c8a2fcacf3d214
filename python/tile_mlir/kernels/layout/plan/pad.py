"""Planning of pad: F.pad's `pad` per axis, a pad's canonical form
(CanonicalPad) and the kernel that moves it (PadPlan: boxes, rows, simt,
copy or empty) with that kernel's static parameters, and the boxes and
rows kernels' tiles."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from ....errors import TileUsageError
from ..geometry.pad import equal_tile_height
from ..limits import (
    BOX_MAX,
    COORD_REACH,
    MAX_RANK,
    MAX_TILES,
    STRIDE_ALIGN,
    VECTOR_INDEX_LIMIT,
)
from .common import (
    aligned,
    box_extent,
    box_tiles,
    check_elem,
    contiguous_strides,
    coords_reach,
    fitted_boxes,
    is_sequence,
    pow2_floor,
    split_factor,
    vectors_fit,
)

# The copy engine's NaN fill: 0x7FF7 repeated over the element (measured on
# the H200, the emulator's _NAN_FILL_16); the pad kernels that write the
# fill themselves write the same bits, so one call's NaNs are all alike.
ENGINE_NAN = {2: 0x7FF7, 4: 0x7FF77FF7, 8: 0x7FF77FF77FF77FF7}


def normalize_pad(pad, rank: int) -> tuple[list, list]:
    """torch.nn.functional.pad's `pad` (last axis first: left, right, then the
    axis before, ...) as per-axis (lefts, rights) in axis order;
    [pad-spec] unless it is an even number (at most 2 * rank) of ints."""
    if not is_sequence(pad):
        raise TileUsageError("pad-spec", f"pad is a sequence of ints, got {pad!r}")
    pad = tuple(pad)   # an iterator is read once
    if not all(hasattr(p, "__index__") and not isinstance(p, bool) for p in pad):
        raise TileUsageError("pad-spec", f"pad is a sequence of ints, got {pad!r}")
    items = [p.__index__() for p in pad]
    if len(items) % 2 or len(items) > 2 * rank:
        raise TileUsageError("pad-spec", f"pad {tuple(items)}: an even number of "
                             f"values, at most 2 per axis of the rank-{rank} tensor")
    lefts, rights = [0] * rank, [0] * rank
    for i in range(len(items) // 2):
        lefts[rank - 1 - i], rights[rank - 1 - i] = items[2 * i], items[2 * i + 1]
    return lefts, rights


def pad_spec(lefts, rights) -> list:
    """Per-axis (lefts, rights) in axis order as F.pad's `pad` (last axis
    first): normalize_pad's inverse."""
    return [x for l, r in zip(reversed(lefts), reversed(rights)) for x in (l, r)]


def channels_last_order(rank: int) -> tuple:
    """The axes of a channels_last (rank 4) or channels_last_3d (rank 5)
    tensor in memory order: N, the spatial axes, C."""
    return (0, *range(2, rank), 1)


def channels_last_like(shape, strides) -> bool:
    """Whether torch treats a rank-4 (rank-5) tensor's strides as
    channels_last (channels_last_3d), so that F.pad's result keeps that
    format: walking C, then the spatial axes innermost first, then N, each
    stride is at least the span of the axes walked before it (and N's is
    not C's); dense or not. A C stride of 0 (an expanded channel) is not."""
    rank = len(shape)
    if rank not in (4, 5) or strides[1] == 0:
        return False
    least = 0
    for axis in (1, *range(rank - 1, 1, -1), 0):
        if shape[axis] == 0 or strides[axis] < least:
            return False
        if axis == 0 and least == strides[1]:
            return False
        least = strides[axis] * (shape[axis] if shape[axis] > 1 else 1)
    return True


def reorder_pad(pad, order) -> list:
    """F.pad's `pad` for the tensor's axes seen in `order` (x.permute(order))."""
    lefts, rights = normalize_pad(pad, len(order))
    return pad_spec([lefts[a] for a in order], [rights[a] for a in order])


@dataclass(frozen=True)
class CanonicalPad:
    """A pad in canonical form: input view `shape`/`strides`, per-axis
    `lefts`/`rights` (negative: cropped). Unpadded axes are merged into the
    axis before them (its pads scale by their extent), size-1 unpadded
    axes dropped; every axis but the first is padded."""
    shape: tuple
    strides: tuple
    lefts: tuple
    rights: tuple

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def out_shape(self) -> tuple:
        return tuple(d + l + r for d, l, r in zip(self.shape, self.lefts, self.rights))


def canonical_pad(shape, strides, pad) -> CanonicalPad:
    rank = len(shape)
    lefts, rights = normalize_pad(pad, rank)
    for a, (d, l, r) in enumerate(zip(shape, lefts, rights)):
        # torch crops the left first, then the right of what is left.
        if d + min(l, 0) < 0 or d + min(l, 0) + min(r, 0) < 0:
            raise TileUsageError("pad-spec", f"pad {tuple(pad)} on shape {tuple(shape)}: "
                                 f"axis {a} of extent {d} is cropped by {-min(l, 0)} on "
                                 f"the left and {-min(r, 0)} on the right; a crop may not "
                                 f"remove more than the axis holds")
    out = [d + l + r for d, l, r in zip(shape, lefts, rights)]
    if any(o < 0 for o in out):
        raise TileUsageError("pad-spec", f"pad {tuple(pad)} on shape {tuple(shape)} "
                             f"gives extents {tuple(out)}; none may be negative")
    axes: list[list] = []   # [extent, stride, left, right]
    for a in range(rank):
        d, s, l, r = shape[a], strides[a], lefts[a], rights[a]
        if l == 0 and r == 0 and d == 1:
            continue
        if l == 0 and r == 0 and axes and axes[-1][1] == s * d:
            prev = axes[-1]
            axes[-1] = [prev[0] * d, s, prev[2] * d, prev[3] * d]
            continue
        axes.append([d, s, l, r])
    return CanonicalPad(tuple(a[0] for a in axes), tuple(a[1] for a in axes),
                        tuple(a[2] for a in axes), tuple(a[3] for a in axes))


@dataclass(frozen=True)
class PadPlan:
    """Which kernel pads: "boxes" (every stride and the innermost shift
    16-byte aligned: boxes of the output loaded from the shifted input
    coordinates, the copy engine filling what lies outside; or, where
    params["vectors"] (whole_vectors), the threads' 16-byte vectors), "rows" (row blocks
    loaded the same way, threads writing the output rows at any alignment),
    "simt" (threads only), "copy" (nothing padded) or "empty"."""
    kind: str
    canonical: CanonicalPad
    params: dict = field(default_factory=dict)
    in_view: tuple = ()
    out_shape: tuple = ()


def fill_kind(bits: int, elem: int, is_float: bool, is_nan: bool) -> str:
    """"zero" (the engine's zero fill), "nan" (its NaN fill) or "value"."""
    if is_nan and is_float and elem in ENGINE_NAN:
        return "nan"
    return "zero" if bits == 0 else "value"


# The pad rows kernel's stage: about 24 KB of rows, two stages, three CTAs
# an SM, the tiles of one height chosen at run time. The H200 measured it
# against the earlier 32-row (17 KB) stages of three in interleaved rounds:
# 3.85 against 3.71 TB/s (docs/decisions.md, "Layout: pad tile heights").
PAD_ROWS_STAGE = 24576


def rows_tile(elem: int, d_inner: int, o_inner: int, fit: bool = True) -> tuple:
    """(box width, boxes per row, rows) of the pad "rows" kernel: boxes
    fitted to an output row plus a 16-byte shift (fitted_boxes), or (fit
    False, or no fit) boxes of a power of two up to 256 elements no wider
    than the input row, enough of them (up to 4) to span that; as many rows
    as fill PAD_ROWS_STAGE bytes (at most 256)."""
    v = STRIDE_ALIGN // elem
    fitted = fitted_boxes(elem, d_inner, o_inner + v) if fit else None
    if fitted:
        wbox, nb = fitted
        return wbox, nb, max(1, min(BOX_MAX, PAD_ROWS_STAGE // (elem * nb * wbox)))
    widest = max(v, min(BOX_MAX, pow2_floor(d_inner)))
    best = None
    w = widest
    while w >= v:   # the narrowest tile row that covers the output row
        nb = max(1, min(4, -(-(o_inner + v) // w)))
        key = (nb * w < o_inner + v, nb * w if nb * w >= o_inner + v else -nb * w)
        if best is None or key < best[0]:
            best = (key, w, nb)
        w //= 2
    _, wbox, nb = best
    return wbox, nb, max(1, min(BOX_MAX, PAD_ROWS_STAGE // (elem * nb * wbox)))



def even_box_width(width: int, out_inner: int, v: int) -> int:
    """The boxes pad's box row: the column tiles that `width` (a power of
    two, a multiple of v) gives an output row of out_inner, made equal (a
    multiple of v, so no wider): 264 columns as 2 tiles of 136, not 256
    and a sliver of 8, whose tile costs nearly a whole one (the H200 moved
    0.72 of copy_ against 0.88 on F.pad (0, 8) of 256-column rows,
    docs/decisions.md, "Layout: aligned pads and the vector pad")."""
    n = -(-out_inner // width)
    return -(-(-(-out_inner // n)) // v) * v


def pad_box(shape, out_shape, elem: int, even: bool = True) -> tuple:
    """The boxes pad's box: rows a power of two up to 256 elements no wider
    than the input's or the output's (with `even`, narrowed to equal column
    tiles: even_box_width), about 16 KB of them."""
    v = STRIDE_ALIGN // elem
    bi = box_extent(min(shape[-1], out_shape[-1]), BOX_MAX)
    if even:
        bi = even_box_width(bi, out_shape[-1], v)
    box = [1] * len(shape)
    box[-1] = bi
    if len(shape) >= 2:
        box[-2] = box_extent(min(shape[-2], out_shape[-2]),
                              max(1, min(BOX_MAX, (16384 // elem) // bi)))
    return tuple(box)


def plan_pad(shape, strides, pad, elem: int, fill: str, grid: int = 132,
             fit: bool = True, boxes: bool = True, beyond: bool = False) -> PadPlan:
    """The pad's kernel and view; `boxes` False plans aligned rows on the
    rows kernel too (a benchmark comparison). More than MAX_RANK padded
    axes once merged: [layout-rank], or with `beyond` the threads' kernel
    (any rank)."""
    check_elem(elem)
    c = canonical_pad(shape, strides, pad)
    out_shape = c.out_shape
    if prod(out_shape) == 0:
        return PadPlan("empty", c)
    if not any(c.lefts) and not any(c.rights):
        return PadPlan("copy", c)
    if c.rank > MAX_RANK and beyond:
        return PadPlan("simt", c, {"elem": elem, "rank": c.rank, "fill": fill},
                       (c.shape, c.strides), out_shape)
    if c.rank > MAX_RANK:
        raise TileUsageError("layout-rank", f"the pad's input has {c.rank} axes once "
                             f"unpadded axes merge into their neighbours (shape "
                             f"{c.shape}); the copy engine addresses at most {MAX_RANK}")
    plan = _engine_pad(c, elem, fill, grid, fit, boxes)
    if plan.kind != "simt" or coords_reach(c.shape, c.out_shape):
        return plan
    split = split_long_pad(c)
    if split is not None:
        again = _engine_pad(split, elem, fill, grid, fit, boxes)
        if again.kind != "simt":
            return again
    return plan


def split_long_pad(c: CanonicalPad) -> CanonicalPad | None:
    """c with each axis whose input or output is longer than COORD_REACH
    seen as two, (d / g, g) padded (l / g, r / g) and (0, 0), for the
    largest power of two g of at most SPLIT_MAX dividing d, l and r. None
    where an axis has no such split or the rank would pass MAX_RANK."""
    shape, strides = list(c.shape), list(c.strides)
    lefts, rights = list(c.lefts), list(c.rights)
    for a in reversed(range(len(shape))):
        d, l, r = shape[a], lefts[a], rights[a]
        if max(d, d + l + r) <= COORD_REACH:
            continue
        g = split_factor(d, l, r)
        if (d + l + r) // g > COORD_REACH or d // g > COORD_REACH or \
                len(shape) == MAX_RANK:
            return None
        shape[a:a + 1] = [d // g, g]
        strides[a:a + 1] = [strides[a] * g, strides[a]]
        lefts[a:a + 1] = [l // g, 0]
        rights[a:a + 1] = [r // g, 0]
    return CanonicalPad(tuple(shape), tuple(strides), tuple(lefts), tuple(rights))


def whole_vectors(c: CanonicalPad, elem: int) -> bool:
    """Whether the vector pad (pad_vectors) moves an aligned pad `c` (one the
    boxes move): A's rows, B's rows and the last axis's shift whole 16-byte
    vectors (B's rows are checked apart: a rank-1 pad has no outer stride
    that would say so), and every extent, pad and B's vector count below
    VECTOR_INDEX_LIMIT."""
    v = STRIDE_ALIGN // elem
    out = c.out_shape
    return (c.shape[-1] % v == 0 and c.lefts[-1] % v == 0 and out[-1] % v == 0 and
            max(map(abs, c.lefts + c.rights)) < VECTOR_INDEX_LIMIT and
            vectors_fit(c.shape, out, elem))


def _engine_pad(c: CanonicalPad, elem: int, fill: str, grid: int, fit: bool,
                boxes: bool) -> PadPlan:
    """plan_pad's kernel for a canonical pad of at most MAX_RANK axes: the
    simt kernel where the copy engine cannot move it."""
    out_shape = c.out_shape
    base = {"elem": elem, "rank": c.rank, "fill": fill}
    inner_ok = c.strides[-1] == 1 and prod(c.shape) > 0
    in_ok = inner_ok and aligned(s * elem for s in c.strides[:-1])
    out_ok = aligned(s * elem for s in contiguous_strides(out_shape)[:-1])
    shift_ok = (c.lefts[-1] * elem) % STRIDE_ALIGN == 0
    view = (c.shape, c.strides)
    # A box row is a multiple of 16 bytes and no longer than the rows it
    # reads (the input's) or writes (the output's, for the boxes): shorter
    # rows are the threads'.
    v = STRIDE_ALIGN // elem
    inner = min(c.shape[-1], out_shape[-1])
    # The copy engine's coordinates reach the whole of both tensors.
    reach = coords_reach(c.shape, out_shape)
    if boxes and in_ok and out_ok and shift_ok and inner >= v and reach:
        box = pad_box(c.shape, out_shape, elem)
        if box_tiles(out_shape, box) <= MAX_TILES:
            return PadPlan("boxes", c, {**base, "box": box, "stages": 4, "grid": grid,
                                        "vectors": whole_vectors(c, elem)}, view, out_shape)
    if in_ok and c.shape[-1] >= v and reach:
        wbox, nb, rows = rows_tile(elem, c.shape[-1], out_shape[-1], fit)
        # The box at most the input's rows (a power of two below the
        # preferred height: a handful of kernels, not one per height); the
        # tiles' one height at most the box's, chosen at run time (no
        # sliver of a tile at the end).
        rows = (rows if rows <= c.shape[-2] else pow2_floor(c.shape[-2])) if c.rank >= 2 else 1
        out_rows = (1,) + out_shape if c.rank == 1 else out_shape
        height = equal_tile_height(out_rows[-2], rows, lambda a, b: -(-a // b))
        if box_tiles(out_rows, (1,) * (len(out_rows) - 2) + (height, nb * wbox - v)) \
                <= MAX_TILES:
            return PadPlan("rows", c, {**base, "rank": max(2, c.rank), "wbox": wbox,
                                       "nb": nb, "rows": rows, "equal": True,
                                       "stages": 4 if rows * nb * wbox * elem <= 16384
                                       else 2, "grid": grid}, view, out_shape)
    return PadPlan("simt", c, base, view, out_shape)
