"""Planning of permute: a permutation's canonical form (Canonical) and the
kernel that moves it (PermutePlan: copy, boxes, transpose, narrow or simt)
with that kernel's static parameters and views."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

from ....errors import TileUsageError
from ..limits import (
    BOX_MAX,
    COORD_REACH,
    MAX_RANK,
    MAX_TILES,
    STRIDE_ALIGN,
    SWIZZLE_SPANS,
    VECTOR_BYTES,
    WARP_LANES,
)
from .common import (
    aligned,
    box_extent,
    box_tiles,
    check_elem,
    contiguous_strides,
    coords_reach,
    normalize_dims,
    pow2_ceil,
    pow2_floor,
    split_factor,
)


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
    return simt_permute(c, elem)


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
        g = split_factor(d)
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
# short) by `rows` along the output's next axis, SIMT_ROW_THREADS threads.
# Shapes whose tile would be smaller (rows and the next axis both short)
# copy one element per thread.
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


def simt_permute(c: Canonical, elem: int) -> PermutePlan:
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
        return plan_narrow(c, elem, grid) or simt_permute(c, elem)
    r = c.rank
    if c.perm[-1] == r - 1:
        k = c.perm[-2]
        bi = box_extent(c.shape[-1], BOX_MAX)
        bk = box_extent(c.shape[k], max(1, min(BOX_MAX, (16384 // elem) // bi)))
        box = [1] * r
        box[-1], box[k] = bi, bk
        return PermutePlan("boxes", c, {"elem": elem, "perm": c.perm, "box": tuple(box),
                                        "stages": 4, "grid": grid},
                           (c.shape, c.strides), (c.out_shape, out_strides))
    found = gather_tile(c, elem, deeper)
    if found is None:
        return plan_narrow(c, elem, grid) or simt_permute(c, elem)
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
        return simt_permute(c, elem)
    for cols in (256, 128, 64, 32, 16, 8, 4, 2, 1):
        if n % cols == 0 and (cols * elem) % STRIDE_ALIGN == 0:
            rows = n // cols
            bk = box_extent(rows, max(1, min(BOX_MAX, (16384 // elem) // cols)))
            view = ((rows, cols), (cols, 1))
            return PermutePlan("copy", Canonical((rows, cols), (cols, 1), (0, 1)),
                               {"elem": elem, "perm": (0, 1), "box": (bk, cols),
                                "stages": 4, "grid": grid}, view, view)
    return simt_permute(Canonical((n,), (1,), (0,)), elem)
