"""Host-side planning of the layout kernels (permute, pad, unfold): the
canonical form of an operation (size-1 axes dropped, axes that stay
adjacent merged), which kernel moves it, and that kernel's static
parameters. Plain Python on shapes and strides (in elements); no MLIR, no
GPU, so the choices are testable on the CPU.

The kernels read every extent at run time; what is static is the element
size, the canonical rank and permutation, and the box or tile extents. A
box may not exceed the dimension it covers (the runtime's
[box-within-dim]), so a dimension smaller than the preferred box picks a
smaller box (the next smaller power of two, or a width fitted to the row:
fitted_boxes): a handful of variants per operation, never one per shape.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from math import gcd, prod

from .... import contract
from ....errors import TileUsageError
from ..geometry.taps import TapsGeometry
from ..limits import (
    BOX_MAX,
    COORD_REACH,
    COORD_SLACK,
    ELEM_DTYPES,
    MAX_RANK,
    MAX_TILES,
    SHARED_ALIGN,
    STRIDE_ALIGN,
    SWIZZLE_SPANS,
    VECTOR_BYTES,
    VECTOR_INDEX_LIMIT,
    VECTOR_TILE_LIMIT,
    WARP_LANES,
)


def coords_reach(*shapes) -> bool:
    """Whether the copy engine's coordinates reach every element of tensor
    maps of these shapes (every extent at most COORD_REACH)."""
    return all(int(d) <= COORD_REACH for shape in shapes for d in shape)


# The inner part of a long axis seen as two (split_long_axes, split_long_pad).
SPLIT_MAX = 2 ** 20


def _split_factor(*extents) -> int:
    """The largest power of two of at most SPLIT_MAX dividing every extent."""
    g = 0
    for e in extents:
        g = gcd(g, abs(int(e)))
    return min(g & -g, SPLIT_MAX)


def box_tiles(shape, box) -> int:
    """How many boxes `box` tile `shape`."""
    return prod(-(-int(d) // int(b)) for d, b in zip(shape, box))


def pow2_ceil(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def pow2_floor(n: int) -> int:
    return 1 << (int(n).bit_length() - 1) if n >= 1 else 0


def check_elem(itemsize: int, what: str = "the tensor") -> None:
    if itemsize not in ELEM_DTYPES:
        raise TileUsageError("layout-dtype", f"{what} has {itemsize}-byte elements; "
                             "the copy engine moves 1-, 2-, 4- and 8-byte elements")


def aligned(strides_bytes) -> bool:
    return all(s % STRIDE_ALIGN == 0 for s in strides_bytes)


# -- permute --------------------------------------------------------------

def is_sequence(x) -> bool:
    """Whether x can be read as a sequence: iterable, not a string and not
    a 0-d array or tensor (which iterate by raising)."""
    return not isinstance(x, (str, bytes)) and hasattr(x, "__iter__") and \
        getattr(x, "shape", None) != () and getattr(x, "ndim", None) != 0


def normalize_dims(dims, rank: int) -> tuple:
    """`dims` as a tuple of non-negative axes; [layout-permutation] unless it
    is a permutation of range(rank) (negative axes count from the end)."""
    if is_sequence(dims):
        dims = tuple(dims)   # a generator is read once
    if not isinstance(dims, tuple) or \
            not all(hasattr(d, "__index__") and not isinstance(d, bool) for d in dims):
        raise TileUsageError("layout-permutation", f"dims must be a sequence of ints, "
                             f"got {dims!r}")
    items = [d.__index__() for d in dims]
    in_range = all(-rank <= d < rank for d in items)
    if not in_range or sorted(d % rank for d in items) != list(range(rank)):
        raise TileUsageError("layout-permutation", f"dims {tuple(items)} is not a "
                             f"permutation of the {rank} axes of the tensor")
    return tuple(d % rank for d in items)


@dataclass(frozen=True)
class Canonical:
    """A permutation in canonical form: input view `shape`/`strides` (axes in
    memory order: strides decreasing) and `perm` (output axis j is input
    axis perm[j]). Size-1 axes are gone; axes adjacent in the input that
    stay adjacent and in order in the output are merged."""
    shape: tuple
    strides: tuple
    perm: tuple

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def out_shape(self) -> tuple:
        return tuple(self.shape[p] for p in self.perm)


def canonical_permutation(shape, strides, dims) -> Canonical:
    """The canonical form of `x.permute(dims)` for an x of `shape` and
    `strides` (elements). An input that is itself a permuted view is read
    in its memory order and the permutations composed."""
    rank = len(shape)
    dims = normalize_dims(dims, rank)
    keep = [i for i in range(rank) if shape[i] != 1]
    order = sorted(keep, key=lambda i: (-strides[i], i))     # memory order
    position = {axis: j for j, axis in enumerate(order)}
    perm = [position[d] for d in dims if shape[d] != 1]
    base_shape = [shape[a] for a in order]
    base_strides = [strides[a] for a in order]
    # Merge runs of the output order that are consecutive, contiguous input axes.
    groups: list[list[int]] = []
    for p in perm:
        if groups and p == groups[-1][-1] + 1 and \
                base_strides[p - 1] == base_strides[p] * base_shape[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    by_input = sorted(groups, key=lambda g: g[0])
    index = {id(g): i for i, g in enumerate(by_input)}
    return Canonical(tuple(prod(base_shape[a] for a in g) for g in by_input),
                     tuple(base_strides[g[-1]] for g in by_input),
                     tuple(index[id(g)] for g in groups))


@dataclass(frozen=True)
class PermutePlan:
    """Which kernel moves a canonical permutation and its static parameters.

    kind "copy": the identity (a copy of a dense input, moved as boxes of a
    2-D view); "boxes": the innermost axis stays innermost, boxes move with
    a permuted coordinate mapping; "transpose": the innermost axis moves,
    tiles are transposed through swizzled shared memory; "narrow": a
    transpose against an axis too short or unaligned for that (plan_narrow);
    "simt": a shape the copy engine cannot describe (a stride that is not a
    multiple of 16 bytes), moved by threads (params["tile"] T and
    params["tile_l"] U: a transpose in tiles of T elements along the
    output's rows by U along the input's, through shared memory, one side
    in 16-byte vectors where params["vec"] names it; T = 0: one element a
    thread). `params`
    are the builder's parameters;
    `in_view`/`out_view` the (shape, strides) the kernel's arguments take."""
    kind: str
    canonical: Canonical
    params: dict = field(default_factory=dict)
    in_view: tuple = ()
    out_view: tuple = ()


def contiguous_strides(shape) -> tuple:
    out, step = [], 1
    for extent in reversed(shape):
        out.append(step)
        step *= extent
    return tuple(reversed(out))


def plan_or_dense(plan_at, shape, strides, needs_dense) -> tuple:
    """(plan, whether the input is made contiguous first): plan_at(strides),
    or plan_at of the contiguous strides where the given ones keep more than
    MAX_RANK axes apart that merge once dense ([layout-rank]) or where
    `needs_dense(plan)` (an innermost stride no tensor map reads). Where
    even the contiguous strides keep more than MAX_RANK axes apart, the
    threads' kernel (plan_at(strides, True)), of the given view or, where
    `needs_dense` says so, of its contiguous copy."""
    dense = contiguous_strides(shape)
    try:
        plan = plan_at(strides)
    except TileUsageError as err:
        if err.rule != "layout-rank":
            raise
        if tuple(strides) != dense:
            try:
                return plan_at(dense), True
            except TileUsageError as again:
                if again.rule != "layout-rank":
                    raise
        plan = plan_at(strides, True)
        if needs_dense(plan):
            return plan_at(dense, True), True
        return plan, False
    if needs_dense(plan):
        return plan_at(dense), True
    return plan, False




def _box_extent(dim: int, cap: int) -> int:
    return max(1, min(cap, pow2_floor(dim)))


def transpose_tile(elem: int, dim_k: int, dim_l: int) -> tuple | None:
    """(span, T_k, T_l) of the transposing kernel: the swizzle span (the
    widest of 128/64/32 bytes whose row of W = span / elem elements fits
    both dimensions), and tile extents that are multiples of W, at most
    128 elements (256 for 1-byte elements) and no larger than the dims."""
    for span in SWIZZLE_SPANS:
        w = span // elem
        if w <= min(dim_k, dim_l) and w >= 8:
            cap = 256 if elem == 1 else 128
            cap = max(cap, w)
            t_k = max(w, min(cap, pow2_floor(dim_k)))
            t_l = max(w, min(cap, pow2_floor(dim_l)))
            if elem == 1:       # 128 x 128 bytes: a 16 KB tile
                t_k, t_l = min(t_k, 128), min(t_l, 128)
            if elem == 8:       # 64 x 64: 32 KB
                t_k, t_l = min(t_k, 64), min(t_l, 64)
            return span, t_k, t_l
    return None


def plan_permute(shape, strides, dims, elem: int, grid: int = 132,
                 deeper: bool = True, beyond: bool = False) -> PermutePlan:
    """The kernel for `x.permute(dims).contiguous()` of an x with `shape`
    and `strides` (elements) and `elem`-byte elements (`deeper`: see
    gather_tile). More than MAX_RANK axes once merged: [layout-rank], or
    with `beyond` the one-element threads' kernel (any rank)."""
    check_elem(elem)
    c = canonical_permutation(shape, strides, dims)
    if c.rank > MAX_RANK and beyond:
        return _simt_plan(c, {"elem": elem, "perm": c.perm, "tile": 0})
    if c.rank > MAX_RANK:
        raise TileUsageError("layout-rank", f"the permutation has {c.rank} axes "
                             f"after merging the ones that stay adjacent "
                             f"(shape {tuple(shape)}, dims {tuple(dims)}); the copy "
                             f"engine addresses at most {MAX_RANK}")
    plan = _engine_permute(c, elem, grid, deeper)
    if plan.kind == "simt" or _engine_reaches(plan):
        return plan
    split = split_long_axes(c)
    if split is not None:
        plan = _engine_permute(split, elem, grid, deeper)
        if plan.kind != "simt" and _engine_reaches(plan):
            return plan
    return _simt_permute(c, elem)


def _engine_reaches(plan: PermutePlan) -> bool:
    """Whether a copy-engine plan's tensor maps are within the coordinates'
    reach and its launch within MAX_TILES tiles."""
    box = plan.params.get("box")
    return coords_reach(plan.in_view[0], plan.out_view[0]) and \
        (box is None or box_tiles(plan.in_view[0], box) <= MAX_TILES)


def split_long_axes(c: Canonical) -> Canonical | None:
    """c with each axis longer than COORD_REACH seen as two, (d / g, g) for
    the largest power of two g of at most SPLIT_MAX dividing d. The pair
    stays adjacent and in order on both sides, so it is the same
    permutation. None where an axis has no such split or the rank would
    pass MAX_RANK."""
    shape, strides, perm = list(c.shape), list(c.strides), list(c.perm)
    for a in reversed(range(len(shape))):
        d = shape[a]
        if d <= COORD_REACH:
            continue
        g = _split_factor(d)
        if d // g > COORD_REACH or len(shape) == MAX_RANK:
            return None
        shape[a:a + 1] = [d // g, g]
        strides[a:a + 1] = [strides[a] * g, strides[a]]
        perm = [q for p in perm for q in ((a, a + 1) if p == a else (p + (p > a),))]
    return Canonical(tuple(shape), tuple(strides), tuple(perm))


# The SIMT transpose's tile (permute_simt_tiled), where both tiled axes
# hold at least SIMT_TILE_MIN (a tile at least a quarter used): SIMT_TILE_L
# elements along the input's rows by the longest of SIMT_TILES the output's
# rows fill (at least the shortest) and SIMT_TILE_BYTES allow; other SIMT
# plans copy one element per thread. On the H200 256 x 64 ran the fastest
# of twelve tile shapes and thread counts on bench/unaligned_permute.py
# (docs/decisions.md, "Layout: unaligned transposes").
SIMT_TILES = (256, 128, 64)
SIMT_TILE_L = 64
SIMT_TILE_MIN = 32
SIMT_TILE_BYTES = 65536


def simt_tile(out_row: int, elem: int) -> int:
    """The SIMT transpose's tile along output rows of `out_row` elements."""
    fits = [t for t in SIMT_TILES if t * SIMT_TILE_L * elem <= SIMT_TILE_BYTES]
    return next((t for t in fits if t <= out_row), fits[-1])


def simt_threads(elem: int, vec: str) -> int:
    """The SIMT transpose's threads: 512 for 2-byte elements both ways
    (2.94 and 3.10 TB/s against 2.73 and 2.83 for 256 on the two such rows
    of bench/unaligned_permute.py on the H200), else 256 (the vector forms
    and the other element sizes ran faster on 256)."""
    return 512 if elem == 2 and not vec else 256


def simt_vector_side(c: Canonical, elem: int) -> str:
    """Which side of a SIMT transpose moves 16-byte vectors: "out" where the
    output's rows are whole vectors, else "in" where the input's rows and
    strides are (the input's base is 16-byte aligned: permute copies an
    input that is not), else "" (elements both ways)."""
    width = VECTOR_BYTES // elem
    if c.shape[c.perm[-1]] % width == 0:
        return "out"
    if c.shape[-1] % width == 0 and all(s % width == 0 for s in c.strides[:-1]):
        return "in"
    return ""


# The SIMT row copy (permute_simt_rows) of the permutations that keep the
# innermost axis (the identity included): tiles of SIMT_ROW_TILE_BYTES (at
# most SIMT_ROW_TILE_ELEMS elements), `cols` along the rows (a power of two
# from SIMT_ROW_COLS, at least the row where it is shorter; the one the
# fewest padded columns, the widest of equals; wider where the next axis is
# short) by `rows` along the output's next axis, SIMT_ROW_THREADS threads. Shapes whose tile would be smaller
# (rows and the next axis both short) copy one element per thread.
SIMT_ROW_COLS = (2, 4, 8, 16, 32, 64, 128, 256)
SIMT_ROW_TILE_BYTES = 16384
SIMT_ROW_TILE_ELEMS = 8192
SIMT_ROW_THREADS = 256


def simt_row_tile(row: int, next_axis: int | None, elem: int) -> tuple:
    """(rows, cols, threads) of the row copy's tile over rows of `row`
    elements whose output's next axis holds `next_axis` (None: rank 1).
    Where the next axis is too short to fill the tile, the columns widen up
    to the row's power of two."""
    elems = min(SIMT_ROW_TILE_ELEMS, SIMT_ROW_TILE_BYTES // elem)
    least = min(WARP_LANES, pow2_ceil(row))
    cols = min((c for c in SIMT_ROW_COLS if c >= least),
               key=lambda c: (-(-row // c) * c, -c))
    rows = 1 if next_axis is None else min(elems // cols, pow2_ceil(next_axis))
    cols = min(elems // rows, max(cols, pow2_ceil(row)))
    return rows, cols, min(SIMT_ROW_THREADS, rows * cols)


def simt_row_box(perm, rows: int, cols: int) -> tuple:
    """The row copy's tile as a box over the input's axes: `cols` along
    the innermost, `rows` along the output's next (perm[-2]), 1 elsewhere."""
    r = len(perm)
    return tuple(cols if a == r - 1 else rows if r > 1 and a == perm[-2] else 1
                 for a in range(r))


def _simt_permute(c: Canonical, elem: int) -> PermutePlan:
    k, inner = (c.perm[-1], c.rank - 1) if c.rank else (0, 0)
    if c.rank and k == inner:
        rows, cols, threads = simt_row_tile(c.shape[inner], c.shape[c.perm[-2]]
                                            if c.rank > 1 else None, elem)
        tiles = box_tiles(c.shape, simt_row_box(c.perm, rows, cols))
        # At least a CTA's worth a tile, and a tile a CTA within the grid's reach.
        if threads == SIMT_ROW_THREADS and tiles < MAX_TILES:
            return _simt_plan(c, {"elem": elem, "perm": c.perm, "tile": 0,
                                  "rows": rows, "cols": cols, "threads": threads})
    tiled = k != inner and min(c.shape[k], c.shape[inner]) >= SIMT_TILE_MIN
    vec = simt_vector_side(c, elem) if tiled else ""
    tile = {"tile": simt_tile(c.shape[k], elem), "tile_l": SIMT_TILE_L, "vec": vec,
            "threads": simt_threads(elem, vec)} if tiled else {"tile": 0}
    return _simt_plan(c, {"elem": elem, "perm": c.perm, **tile})


def _simt_plan(c: Canonical, params: dict) -> PermutePlan:
    """A threads' permute of c: its view in, B contiguous out."""
    return PermutePlan("simt", c, params, (c.shape, c.strides),
                       (c.out_shape, contiguous_strides(c.out_shape)))


def _engine_permute(c: Canonical, elem: int, grid: int, deeper: bool) -> PermutePlan:
    """plan_permute's choice before the coordinate and tile-count bounds."""
    out_strides = contiguous_strides(c.out_shape)
    if c.rank == 0 or c.perm == tuple(range(c.rank)):
        return _plan_copy(c, elem, grid)
    inner_ok = c.strides[-1] == 1
    dense_ok = inner_ok and aligned(s * elem for s in c.strides[:-1]) and \
        aligned(s * elem for s in out_strides[:-1])
    if not dense_ok:
        return plan_narrow(c, elem, grid) or _simt_permute(c, elem)
    r = c.rank
    if c.perm[-1] == r - 1:
        k = c.perm[-2]
        bi = _box_extent(c.shape[-1], BOX_MAX)
        bk = _box_extent(c.shape[k], max(1, min(BOX_MAX, (16384 // elem) // bi)))
        box = [1] * r
        box[-1], box[k] = bi, bk
        return PermutePlan("boxes", c, {"elem": elem, "perm": c.perm, "box": tuple(box),
                                        "stages": 4, "grid": grid},
                           (c.shape, c.strides), (c.out_shape, out_strides))
    found = gather_tile(c, elem, deeper)
    if found is None:
        return plan_narrow(c, elem, grid) or _simt_permute(c, elem)
    m, gather, span, t_k, t_l = found
    ldmatrix = elem == 2 and m == 1
    threads = 32 * max(1, min(8, t_k * t_l // 256)) if ldmatrix else min(256, t_k * t_l)
    out_view = merged_out_view(c, m)
    merged = out_view[0]
    w = span // elem
    # One 3-D box per tile side where the innermost extent splits by W (and
    # the split view still has at most 5 axes): whole tile rows contiguous.
    wide_in = t_l > w and c.shape[-1] % w == 0 and r + 1 <= MAX_RANK
    wide_out = t_k > w and merged[-1] % w == 0 and len(merged) + 1 <= MAX_RANK
    in_view = (c.shape, c.strides)
    return PermutePlan("transpose", c, {"elem": elem, "perm": c.perm,
                                        "tile": (t_k // prod(gather), t_l), "span": span,
                                        "gather": tuple(gather), "threads": threads,
                                        "wide_in": wide_in, "wide_out": wide_out,
                                        "stages": 3 if t_k * t_l * elem > 16384 else 4,
                                        "grid": grid},
                       split_view(in_view, w) if wide_in else in_view,
                       split_view(out_view, w) if wide_out else out_view)


# A narrow transpose's tile is about NARROW_TILE_BYTES (R rows of the
# interleaved view, R a power of two of at most BOX_MAX); shapes whose
# tiles would be smaller than NARROW_MIN_BYTES (short rows: many tiny
# tiles) stay on the threads' kernel.
NARROW_TILE_BYTES = 16384
NARROW_MIN_BYTES = 4096
NARROW_SPLIT_BYTES = 128
# A thread holds its group's n vectors of both sides: past 32 channels
# ptxas spills them (8-byte elements, 48 channels: 100 bytes a thread).
NARROW_MAX_N = 32


def plan_narrow(c: Canonical, elem: int, grid: int) -> PermutePlan | None:
    """The narrow transpose: the output's two innermost axes are the
    input's innermost L and one axis of n elements (the interleave: planar
    (B, n, L) in, (B, L, n) out), or the reverse (the deinterleave), where n
    rows are too short or unaligned for the transposing kernel (an RGB
    image's NCHW <-> NHWC). Seen in V = 16 / elem pixel groups, the
    interleaved side is the aligned view (B, L / V, V n), so both sides are
    tensor maps and the threads only regroup 16-byte vectors in shared
    memory. None where the shape does not fit that form."""
    r, perm, shape, strides = c.rank, c.perm, c.shape, c.strides
    v = STRIDE_ALIGN // elem
    if r not in (2, 3) or strides[-1] != 1 or perm[-2] != r - 1:
        return None
    j = perm[-1]
    batch = [a for a in range(r) if a not in (j, r - 1)]
    if batch and perm[0] != batch[0]:
        return None
    b, sb = (shape[batch[0]], strides[batch[0]]) if batch else (1, shape[j] * shape[-1])
    if shape[j] * v <= BOX_MAX and shape[-1] % v == 0:
        direction, n, length = "interleave", shape[j], shape[-1]
        in_view = ((b, n, length), (sb, strides[j], 1))
        out_view = ((b, length // v, v * n), (length * n, v * n, 1))
    elif shape[-1] * v <= BOX_MAX and shape[j] % v == 0 and strides[j] == shape[-1]:
        direction, n, length = "deinterleave", shape[-1], shape[j]
        in_view = ((b, length // v, v * n), (sb, v * n, 1))
        out_view = ((b, n, length), (n * length, length, 1))
    else:
        return None
    if not 2 <= n <= NARROW_MAX_N or not aligned(s * elem for s in in_view[1][:-1]):
        return None
    # At most BOX_MAX groups a tile: 512 groups of two channels (16 KB
    # tiles) measured 0.97 of copy_ on the H200, 256 (8 KB) 0.98.
    rows = min(BOX_MAX, pow2_floor(max(1, NARROW_TILE_BYTES // (STRIDE_ALIGN * n))),
               pow2_floor(length // v))
    # The interleaved side in rows of up to 8 pixel groups (the copy engine
    # is slow on box rows of 32 or 48 bytes), where they divide the tile.
    group = 1
    while group < 8 and 2 * group * v * n <= BOX_MAX and length % (2 * group * v) == 0 \
            and rows % (2 * group) == 0:
        group *= 2
    width = min(BOX_MAX, rows * v)
    if STRIDE_ALIGN * rows * n < NARROW_MIN_BYTES or b * -(-length // (rows * v)) > MAX_TILES:
        return None
    # Where a power of two of at least 128 bytes divides L, the planar side
    # is seen as (B, n, L / W, W): one box a tile instead of rows V / 256.
    split = min(width, length & -length)
    if split * elem >= NARROW_SPLIT_BYTES:
        width = split
        planar = in_view if direction == "interleave" else out_view
        (pb, pn, pl), (psb, psn, _) = planar
        planar = ((pb, pn, pl // width, width), (psb, psn, width, 1))
        in_view, out_view = (planar, out_view) if direction == "interleave" else \
            (in_view, planar)
    if group > 1:
        (ib, il, ivn), (isb, _, _) = in_view if direction == "deinterleave" else out_view
        inter = ((ib, il // group, ivn * group), (isb, ivn * group, 1))
        in_view, out_view = (in_view, inter) if direction == "interleave" else \
            (inter, out_view)
    return PermutePlan("narrow", c, {"elem": elem, "perm": c.perm, "direction": direction,
                                     "n": n, "rows": rows, "width": width,
                                     "split": split * elem >= NARROW_SPLIT_BYTES,
                                     "group": group, "grid": grid}, in_view, out_view)


def merged_out_view(c: Canonical, m: int) -> tuple:
    """(shape, strides) of a transposing kernel's B: the contiguous output
    with its m innermost axes (the gathered ones) merged into one."""
    merged = c.out_shape[:c.rank - m] + (prod(c.out_shape[c.rank - m:]),)
    return merged, contiguous_strides(merged)


def split_view(view, w: int) -> tuple:
    """(shape, strides) with the innermost axis (stride 1) split by w."""
    shape, strides = view
    return (tuple(shape[:-1]) + (shape[-1] // w, w),
            tuple(strides[:-1]) + (w * strides[-1], strides[-1]))


def gather_tile(c: Canonical, elem: int, deeper: bool = True):
    """(m, gather, span, T_k, T_l) of the transposing kernel: the fewest m
    innermost output axes whose rows make T_k at least one swizzle row (the
    m - 1 inner ones whole: power-of-two extents, their product at most
    T_k), or None. With `deeper`, a tile that gathers whole axes takes one
    more (_deeper_gather) where it can."""
    found = _fewest_gather(c, elem)
    if deeper and found is not None and found[0] >= 2:
        m, _, span, t_k, t_l = found
        return _deeper_gather(c, elem, m, span, t_k, t_l) or found
    return found


def _whole_axes(c: Canonical, m: int):
    """(tiled axis, extents of the m - 1 whole ones) of a tile gathering the
    output's m innermost axes, or None where those include the input's
    innermost axis or a whole extent is not a power of two of at most 256."""
    r = c.rank
    axes = c.perm[r - m:]
    full = [c.shape[a] for a in axes[1:]]
    if r - 1 in axes or any(f & (f - 1) or f > BOX_MAX for f in full):
        return None
    return axes[0], full


def _deeper_gather(c: Canonical, elem: int, m: int, span: int, t_k: int, t_l: int):
    """The tile with the output's m + 1 innermost axes gathered (the m
    gathered ones now whole) and twice the rows, T_k, up to 32 KB: each
    tile writes twice as long output runs. The H200 measured (8, 8, 16,
    1024, 1024) by (4, 3, 2, 1, 0) at 3.93 TB/s with 128 rows (axes 2, 1,
    0), against 3.70 with 64 (axes 1, 0), in interleaved rounds. None where
    the axes do not allow it."""
    found = _whole_axes(c, m + 1) if m + 1 < c.rank else None
    if found is None:
        return None
    tiled, full = found
    whole, t_k = prod(full), 2 * t_k
    if t_k % whole or not 1 <= t_k // whole <= pow2_floor(c.shape[tiled]) or \
            t_k * t_l * elem > 32768:
        return None
    return m + 1, full, span, t_k, t_l


def _fewest_gather(c: Canonical, elem: int):
    for m in range(1, c.rank):
        found = _whole_axes(c, m)
        if found is None:
            return None
        tiled, full = found
        whole = prod(full)
        tile = transpose_tile(elem, pow2_floor(c.shape[tiled]) * whole, c.shape[-1])
        if tile is not None and tile[1] >= whole and tile[1] // whole <= BOX_MAX:
            return (m, full, *tile)
    return None


def _plan_copy(c: Canonical, elem: int, grid: int) -> PermutePlan:
    """The identity: a dense run of n elements (or nothing) moved as boxes
    of a (n / L, L) view, L a power of two of at least 16 bytes dividing n."""
    n = prod(c.shape)
    dense = c.rank == 0 or c.strides[-1] == 1 and all(
        c.strides[i] == c.strides[i + 1] * c.shape[i + 1] for i in range(c.rank - 1))
    if not dense or n == 0:
        return _simt_permute(c, elem)
    for cols in (256, 128, 64, 32, 16, 8, 4, 2, 1):
        if n % cols == 0 and (cols * elem) % STRIDE_ALIGN == 0:
            rows = n // cols
            bk = _box_extent(rows, max(1, min(BOX_MAX, (16384 // elem) // cols)))
            view = ((rows, cols), (cols, 1))
            return PermutePlan("copy", Canonical((rows, cols), (cols, 1), (0, 1)),
                               {"elem": elem, "perm": (0, 1), "box": (bk, cols),
                                "stages": 4, "grid": grid}, view, view)
    return _simt_permute(Canonical((n,), (1,), (0,)), elem)


# -- pad ------------------------------------------------------------------

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


def inverse_permutation(dims) -> tuple:
    """The permutation that undoes `dims` (non-negative axes)."""
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return tuple(inverse)


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


def fitted_boxes(elem: int, d_inner: int, need: int) -> tuple | None:
    """(box width, boxes) of the fewest boxes, at most 4, of equal width (a
    multiple of 16 bytes, at most 256 elements and the input row) that hold
    `need` columns with less than 16 bytes a box to spare; None if none do.
    A tile row of 258 output columns plus the shift is 2 x 136 columns where
    power-of-two boxes took 3 x 128 (1.5x the input written to shared
    memory, the third box mostly the engine's fill)."""
    v = STRIDE_ALIGN // elem
    for nb in range(max(1, -(-need // BOX_MAX)), 5):
        wbox = -(-(-(-need // nb)) // v) * v
        if wbox <= min(BOX_MAX, d_inner):
            return wbox, nb
    return None


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


def equal_tile_height(out_rows, box_rows, cdiv):
    """The pad rows kernel's tiles of one height: out_rows split into the
    fewest tiles a box of box_rows allows, evenly (258 rows, a box of 45:
    six tiles of 43). `cdiv` is ceiling division on ints or kernel values."""
    return cdiv(out_rows, cdiv(out_rows, box_rows))


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
    bi = _box_extent(min(shape[-1], out_shape[-1]), BOX_MAX)
    if even:
        bi = even_box_width(bi, out_shape[-1], v)
    box = [1] * len(shape)
    box[-1] = bi
    if len(shape) >= 2:
        box[-2] = _box_extent(min(shape[-2], out_shape[-2]),
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
        g = _split_factor(d, l, r)
        if (d + l + r) // g > COORD_REACH or d // g > COORD_REACH or \
                len(shape) == MAX_RANK:
            return None
        shape[a:a + 1] = [d // g, g]
        strides[a:a + 1] = [strides[a] * g, strides[a]]
        lefts[a:a + 1] = [l // g, 0]
        rights[a:a + 1] = [r // g, 0]
    return CanonicalPad(tuple(shape), tuple(strides), tuple(lefts), tuple(rights))


def vectors_fit(shape, out_shape, elem: int) -> bool:
    """Whether a vector kernel's i32 coordinates reach two tensors: every
    extent, and the output's 16-byte vector count, below
    VECTOR_INDEX_LIMIT."""
    return max(tuple(shape) + tuple(out_shape)) < VECTOR_INDEX_LIMIT and \
        prod(out_shape) * elem // STRIDE_ALIGN < VECTOR_INDEX_LIMIT


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


# -- unfold -----------------------------------------------------------------

LAYOUTS = ("NCHW", "NHWC")


def _pair(name: str, value, minimum: int) -> tuple:
    items = value
    if not isinstance(value, bool):   # a bool is rejected below, as torch does
        try:
            items = (operator.index(value),) * 2
        except TypeError:   # a pair (an array of two has __index__, which raises)
            pass
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        items = None
    else:
        items = tuple(items)
    if items is None or len(items) != 2 or not all(
            hasattr(v, "__index__") and not isinstance(v, bool) and v.__index__() >= minimum
            for v in items):
        raise TileUsageError("unfold-spec", f"{name} is an int or a pair of ints "
                             f">= {minimum}, got {value!r}")
    return tuple(v.__index__() for v in items)


@dataclass(frozen=True)
class UnfoldSpec:
    """One unfold: image (N, C, H, W) in either layout, kernel (kh, kw),
    padding, stride and dilation pairs, output extents (oh, ow)."""
    n: int
    c: int
    h: int
    w: int
    kernel: tuple
    padding: tuple
    stride: tuple
    dilation: tuple
    layout: str

    @property
    def out_hw(self) -> tuple:
        return tuple((size + 2 * p - d * (k - 1) - 1) // s + 1 for size, k, p, s, d in zip(
            (self.h, self.w), self.kernel, self.padding, self.stride, self.dilation))

    @property
    def taps(self) -> int:
        return self.kernel[0] * self.kernel[1]

    @property
    def blocks(self) -> int:
        return self.out_hw[0] * self.out_hw[1]

    def out_shape(self) -> tuple:
        """(N, C * kh * kw, L) for NCHW (F.unfold), (N, L, kh * kw * C) for NHWC
        (columns ordered (i, j, c): the GEMM operand of a channels-last
        convolution)."""
        if self.layout == "NCHW":
            return (self.n, self.c * self.taps, self.blocks)
        return (self.n, self.blocks, self.taps * self.c)

    def static(self) -> dict:
        return {"kernel": list(self.kernel), "padding": list(self.padding),
                "stride": list(self.stride), "dilation": list(self.dilation)}


def unfold_spec(shape, kernel_size, padding=0, stride=1, dilation=1,
                layout: str = "NCHW") -> UnfoldSpec:
    if layout not in LAYOUTS:
        raise TileUsageError("unfold-spec", f"layout {layout!r}: 'NCHW' or 'NHWC'")
    if len(shape) not in (3, 4):
        raise TileUsageError("unfold-spec", f"unfold takes a 4-D batch or a 3-D image "
                             f"({layout} or {layout[1:]}), got shape {tuple(shape)}")
    dims = tuple(shape) if len(shape) == 4 else (1,) + tuple(shape)
    if layout == "NCHW":
        n, c, h, w = dims
    else:
        n, h, w, c = dims
    if min(c, h, w) < 1:
        raise TileUsageError("unfold-spec", f"unfold needs non-zero channels, height and "
                             f"width (only a batch may be empty), got {layout} shape "
                             f"{tuple(shape)}")
    spec = UnfoldSpec(n, c, h, w, _pair("kernel_size", kernel_size, 1),
                      _pair("padding", padding, 0), _pair("stride", stride, 1),
                      _pair("dilation", dilation, 1), layout)
    if min(spec.out_hw) < 1:
        raise TileUsageError("unfold-spec", f"a {spec.kernel} kernel (dilation "
                             f"{spec.dilation}, padding {spec.padding}) does not fit the "
                             f"{h}x{w} image: no output positions")
    return spec


@dataclass(frozen=True)
class UnfoldPlan:
    """"im2col" (NHWC: im2col loads of pixel columns, tile stores), "taps"
    (NCHW, stride 1: shifted images of the input rows in shared memory, a
    tile store per tap), "rows" (NCHW: boxes of input rows, threads writing
    the shifted windows) or "simt"; `params` the builder's static
    parameters."""
    kind: str
    spec: UnfoldSpec
    params: dict = field(default_factory=dict)


def _im2col_ok(spec: UnfoldSpec, elem: int) -> bool:
    corner = contract.IM2COL_CORNER_RANGES["im2col", 4]
    lo, hi = corner.min, corner.max
    off = contract.IM2COL_OFFSET_RANGES[4]
    for k, p, s, d in zip(spec.kernel, spec.padding, spec.stride, spec.dilation):
        if not (lo <= -p and p - (k - 1) * d <= hi and -p <= hi and
                lo <= p - (k - 1) * d and (k - 1) * d <= off.max and
                s in contract.ELEMENT_STRIDE_RANGE):
            return False
    return (spec.c * elem) % STRIDE_ALIGN == 0


# build_unfold_nchw_taps: a stage of images of at most this many bytes (three
# stages, two CTAs an SM).
TAPS_STAGE_BYTES = 36 * 1024


def _taps_params(spec: UnfoldSpec, elem: int) -> dict | None:
    """The taps kernel's tile for an NCHW unfold with stride 1 whose input
    and output rows are whole 16-byte chunks, or None. Every box is within
    its tensor's extents (`box-within-dim`): the tile no wider than the
    input and output rows, its input rows within H, the halo in boxes no
    wider than the input row (fitted_boxes)."""
    oh, ow = spec.out_hw
    if spec.stride != (1, 1) or (spec.w * elem) % STRIDE_ALIGN or \
            (ow * elem) % STRIDE_ALIGN or oh < 1 or ow < 1:
        return None
    unit = SHARED_ALIGN // elem
    spare = (spec.kernel[0] - 1) * spec.dilation[0]  # input rows beyond the tile's
    # The widest tile whose halo fits, then the most rows (up to 32) whose
    # stage fits.
    for width in range(min(BOX_MAX, ow, spec.w) // unit * unit, 0, -unit):
        probe = TapsGeometry(spec.kernel, spec.padding, spec.dilation, elem, 1, width, 0, 0)
        halo = (0, 0)
        if probe.built:
            halo = fitted_boxes(elem, spec.w, probe.halo_width)
            if halo is None:
                continue
        rows = pow2_floor(max(1, min(oh, 32, spec.h - spare)))
        while rows >= 1 and rows + spare <= spec.h:
            geo = TapsGeometry(spec.kernel, spec.padding, spec.dilation, elem, rows, width,
                               *halo)
            if geo.stage_bytes <= TAPS_STAGE_BYTES:
                return {"rows": rows, "width": width, "hbox": halo[0], "hnb": halo[1],
                        "stages": 3}
            rows //= 2
    return None


def _unfold_reach(spec: UnfoldSpec) -> bool:
    """Whether the copy engine's coordinates reach the views of every
    unfold kernel's tensor maps (tile_mlir.kernels.layout.unfold.run): the image
    and the output as (N * C, H, W) and (N * C, taps, OH, OW) for NCHW,
    (N, H, W, C) and (N * L, taps, C) for NHWC."""
    oh, ow = spec.out_hw
    if spec.layout == "NCHW":
        return coords_reach((spec.n * spec.c, spec.h, spec.w), (spec.taps, oh, ow))
    return coords_reach((spec.n, spec.h, spec.w, spec.c), (spec.n * spec.blocks, spec.taps))


def plan_unfold(spec: UnfoldSpec, strides_ok: bool, elem: int, grid: int = 132,
                fit: bool = True, taps: bool = True) -> UnfoldPlan:
    """`strides_ok`: the input is dense with its innermost axis contiguous;
    `fit`: NCHW row boxes fitted to the window (fitted_boxes) where they
    can be, else powers of two; `taps`: the taps kernel where it applies."""
    check_elem(elem)
    base = {"elem": elem, **spec.static()}
    if not _unfold_reach(spec):
        return UnfoldPlan("simt", spec, base)
    if spec.layout == "NHWC":
        if strides_ok and _im2col_ok(spec, elem):
            cb = min(BOX_MAX, pow2_floor(spec.c))
            pixels = max(1, min(BOX_MAX, pow2_floor(spec.n * spec.blocks),
                                pow2_floor(16384 // (cb * elem))))
            return UnfoldPlan("im2col", spec, {**base, "pixels": pixels, "channels": cb,
                                               "stages": 4, "grid": grid})
        return UnfoldPlan("simt", spec, base)
    v = STRIDE_ALIGN // elem
    (kh, kw), (sh, sw), (dh, dw) = spec.kernel, spec.stride, spec.dilation
    oh, ow = spec.out_hw
    tile = _taps_params(spec, elem) if strides_ok and taps else None
    if tile:
        return UnfoldPlan("taps", spec, {**base, **tile})
    if strides_ok and (spec.w * elem) % STRIDE_ALIGN == 0 and spec.w >= v:
        need = (ow - 1) * sw + (kw - 1) * dw + 1 + v
        fitted = fitted_boxes(elem, spec.w, need) if fit else None
        if fitted:
            wbox, nb = fitted
        else:
            wbox = max(v, min(BOX_MAX, pow2_floor(spec.w)))
            nb = max(1, min(4, -(-need // wbox)))
        columns = (nb * wbox - v - (kw - 1) * dw - 1) // sw + 1
        rows = 0
        r = pow2_floor(min(oh, BOX_MAX))
        while r >= 1:
            rin = (r - 1) * sh + (kh - 1) * dh + 1
            if rin <= min(BOX_MAX, spec.h) and rin * nb * wbox * elem <= 32768:
                rows = r
                break
            r //= 2
        if rows and columns >= 1:
            # A tile no wider than the output row (rounded to 16 bytes): the
            # threads' vector slots are all used.
            width = min(columns, -(-ow // v) * v)
            return UnfoldPlan("rows", spec, {**base, "wbox": wbox, "nb": nb, "rows": rows,
                                             "width": width, "stages": 3, "grid": grid})
    return UnfoldPlan("simt", spec, base)
