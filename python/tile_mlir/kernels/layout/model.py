"""CPU models of the layout kernels: the very geometry and lane maps the
kernels trace (run over ints), with the NumPy emulator standing in for the
copy engine (loads with their out-of-bounds fill, stores clipped at the
tensor's edge, the swizzled shared images). A model's result is what the
kernel writes if the copy engine does what the emulator says, so the CPU
tests check every coordinate map, box and shared-memory move against
NumPy's own permute, pad and unfold. Needs only NumPy: the geometry comes
from layout/geometry/, which imports no MLIR (test_layout_geometry_imports)."""

from __future__ import annotations

import numpy as np

from ... import contract, emulator
from ...address_ints import IntOps
from ...emulator.swizzle import swizzle_address
from ..copy.transpose_plan import Plan
from .call import flat_boxes_fit, flat_row_conditions
from .geometry.addressing import IntDynOps
from .geometry.gather import IntWordOps, StridedGather, piece_offset, piece_sizes, piece_words
from .geometry.narrow import NarrowGeometry
from .geometry.pad import PadGeometry, RowsGeometry
from .geometry.permute import (
    BoxGeometry,
    ThreadLoadMap,
    ThreadStoreMap,
    TransposeGeometry,
)
from .geometry.simt import rows_geometry, simt_geometry
from .geometry.smem_transpose import ScalarTranspose, transpose_method
from .geometry.taps import TapsGeometry
from .geometry.unfold import Im2colGeometry, RowsUnfoldGeometry
from .limits import ELEM_DTYPES
from .plan.permute import merged_out_view

STORAGE = {n: np.dtype(name).type for n, name in contract.UINT_DTYPES.items()}


def storage(elem: int):
    return STORAGE[elem]


def _shared(nbytes: int) -> np.ndarray:
    return emulator.make_shared(nbytes)


def model_boxes(geo, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """build_permute_boxes: every tile's box loaded and stored."""
    elem = A.dtype.itemsize
    counts = geo.counts(A.shape, IntDynOps)
    out_box = tuple(geo.tile[p] for p in geo.perm)
    for t in range(geo.n_tiles(counts)):
        src, dst = geo.origin(t, counts, IntDynOps)
        shared = _shared(int(np.prod(geo.tile)) * elem)
        emulator.load(shared, 0, A, box=geo.tile, coords=src)
        B = emulator.store(B, shared, 0, box=out_box, coords=dst)
    return B


def transpose_in_shared(shared: np.ndarray, layout, threads: int, method: str) -> None:
    """The kernel's in-place transpose of the tile at byte 0 of `shared`,
    thread by thread: every read before any write."""
    elem = layout.elem
    if method == "ldmatrix":
        plan = Plan(layout.t_k, layout.t_l, (layout.t_k, layout.t_l), 1, 2, threads, 1,
                    layout.swizzle, "ldmatrix", "uint16", wide_in=layout.wide_in,
                    wide_out=layout.wide_out)
        moves = []
        for warp in range(threads // 32):
            for k in range(plan.ld_ops_per_warp):
                rows = [plan.ld_lane(warp, lane, k, IntOps) for lane in range(32)]
                for block in range(4):
                    src = [swizzle_address(rows[8 * block + i][0], layout.swizzle)
                           for i in range(8)]
                    dst = [swizzle_address(rows[8 * block + i][1], layout.swizzle)
                           for i in range(8)]
                    # ldmatrix.trans reads the 8x8 block transposed; stmatrix
                    # writes row i of what it holds to dst[i].
                    for i in range(8):
                        for j in range(8):
                            moves.append((dst[i] + 2 * j, src[j] + 2 * i))
        values = [shared[s:s + 2].copy() for _, s in moves]
        for (d, _), v in zip(moves, values):
            shared[d:d + 2] = v
        return
    scalar = ScalarTranspose(layout, threads)
    moves = []
    for tid in range(threads):
        lane, warp = tid % 32, tid // 32
        src = scalar.bases(lane, warp, IntOps, "in")
        dst = scalar.bases(lane, warp, IntOps, "out")
        for s in range(scalar.steps):
            moves.append((dst ^ scalar.step_offset(s, "out"),
                          src ^ scalar.step_offset(s, "in")))
    values = [shared[s:s + elem].copy() for _, s in moves]
    for (d, _), v in zip(moves, values):
        shared[d:d + elem] = v


def _thread_stores(shared: np.ndarray, lay, threads: int, dst, q: int, B: np.ndarray,
                   written: np.ndarray) -> None:
    """build_permute_transpose's `thread_store`: each thread's vectors of
    the output image (ThreadStoreMap), read at their swizzled addresses and
    written to B (the merged output view) where inside it. Raises where a
    vector would cross B's innermost edge."""
    tsm = ThreadStoreMap(lay, threads)
    V = tsm.vec_bytes // lay.elem
    raw = shared.view(np.uint8)
    for tid in range(threads):
        row0, col0 = tsm.lane(tid, IntOps)
        for i in range(tsm.steps):
            row = row0 + i * tsm.rows_per_step
            at = list(dst)
            at[q], at[-1] = at[q] + row, at[-1] + col0
            if row >= lay.t_l or at[q] >= B.shape[q] or at[-1] >= B.shape[-1]:
                continue
            if at[-1] + V > B.shape[-1]:
                raise IndexError(f"thread {tid} step {i}: a vector across the row's end")
            byte = swizzle_address(tsm.image_byte(row, col0, IntOps), lay.swizzle)
            chunk = raw[byte:byte + tsm.vec_bytes].view(B.dtype)
            where = tuple(at[:-1]) + (slice(at[-1], at[-1] + V),)
            B[where] = chunk
            written[where] += 1


def _thread_loads(shared: np.ndarray, lay, tile, threads: int, src, A: np.ndarray) -> None:
    """build_permute_transpose's `thread_load`: each thread's vectors of the
    input image (ThreadLoadMap: the same bytes, the same clamped
    coordinates, a vector across a row's end read element by element),
    written at their swizzled addresses. Raises where an image byte is
    written twice or not at all."""
    tlm = ThreadLoadMap(lay, tuple(tile), threads)
    raw = shared.view(np.uint8)
    hits = np.zeros(lay.tile_bytes, dtype=np.int64)
    for tid in range(threads):
        for i in range(tlm.steps):
            if tid + i * threads >= tlm.vectors:
                continue
            byte = tlm.image_byte(tid, i, IntDynOps)
            at, col = tlm.source(src, byte, A.shape, IntDynOps)
            # The clamped columns: a whole vector's own where it fits.
            cols = tlm.columns(col, A.shape[-1], IntDynOps)
            phys = swizzle_address(byte, lay.swizzle)
            raw[phys:phys + tlm.VECTOR] = A[tuple(at)][cols].view(np.uint8)
            hits[phys:phys + tlm.VECTOR] += 1
    if not (hits == 1).all():
        raise AssertionError(f"thread loads: {int((hits == 0).sum())} image bytes never "
                             f"written, {int((hits > 1).sum())} written twice")


def model_transpose(geo, A: np.ndarray, B: np.ndarray, threads: int = 256,
                    method: str | None = None, thread_store: bool = False,
                    thread_load: bool = False) -> np.ndarray:
    """build_permute_transpose: load boxes (or with `thread_load` the
    threads' vectors), the in-place transpose, stores (the copy engine's,
    or with `thread_store` the threads'; these raise where an element would
    be written twice or not at all)."""
    written = np.zeros(B.shape, dtype=np.int64)
    lay = geo.layout
    method = transpose_method(lay, method)
    counts = geo.counts(A.shape, IntDynOps)
    for t in range(geo.n_tiles(counts)):
        src, dst = geo.origin(t, counts, IntDynOps)
        shared = _shared(lay.tile_bytes)
        A_view = A.reshape(A.shape[:-1] + (A.shape[-1] // lay.width, lay.width)) \
            if lay.wide_in else A
        if thread_load:
            _thread_loads(shared, lay, geo.tile, threads, src, A)
        for box, step, off in ([] if thread_load else geo.load_boxes()):
            emulator.load(shared, off, A_view, box=box,
                          coords=geo.split(src[:-1] + (src[-1] + step,), lay.wide_in,
                                           IntDynOps),
                          swizzle=lay.swizzle)
        transpose_in_shared(shared, lay, threads, method)
        if thread_store:
            _thread_stores(shared, lay, threads, dst, geo.q, B, written)
            continue
        for box, step, off in geo.store_boxes():
            B_view = B.reshape(B.shape[:-1] + (B.shape[-1] // lay.width, lay.width)) \
                if lay.wide_out else B
            B = emulator.store(B_view, shared, off, box=box,
                               coords=geo.split(dst[:-1] + (dst[-1] + step,), lay.wide_out,
                                                IntDynOps),
                               swizzle=lay.swizzle).reshape(B.shape)
    if thread_store and not (written == 1).all():
        raise AssertionError(f"{int((written == 0).sum())} elements never written, "
                             f"{int((written > 1).sum())} written twice")
    return B


def input_view(plan, x: np.ndarray) -> np.ndarray:
    """`x`'s bits as the plan's input view (shape and element strides), for
    the kernels that read a view in place."""
    elem = plan.params["elem"]
    flat = np.ascontiguousarray(x).view(storage(elem)).reshape(-1)
    shape, strides = plan.in_view
    return np.lib.stride_tricks.as_strided(flat, shape, [s * elem for s in strides])


def model_permute(plan, x: np.ndarray) -> np.ndarray:
    """What the plan's kernel leaves in the output, for input `x` (an array
    of the plan's input view)."""
    p = plan.params
    elem = p["elem"]
    out_shape = tuple(plan.out_view[0])
    if plan.kind == "transpose":   # the merged view of p's gather (unsplit)
        out_shape = merged_out_view(plan.canonical, len(p.get("gather", ())) + 1)[0]
    in_shape = plan.canonical.shape if plan.kind == "transpose" else plan.in_view[0]
    A = np.ascontiguousarray(x).view(storage(elem)).reshape(in_shape)
    B = np.zeros(out_shape, dtype=storage(elem))
    if plan.kind in ("boxes", "copy"):
        return model_boxes(BoxGeometry(tuple(p["perm"]), tuple(p["box"]),
                                       tile_order=tuple(p.get("order", ()))), A, B)
    if plan.kind == "narrow":
        return model_narrow(p, input_view(plan, x), B)
    if plan.kind == "transpose":
        geo = TransposeGeometry.make(tuple(p["perm"]), tuple(p["tile"]), p["span"], elem,
                                     p.get("gather", ()), p.get("wide_in", False),
                                     p.get("wide_out", False), p.get("walk", ()),
                                     p.get("order", ()))
        return model_transpose(geo, A, B, p.get("threads", 256), p.get("method"),
                               p.get("thread_store", False), p.get("thread_load", False))
    if plan.kind == "simt" and p.get("cols"):
        return model_simt_rows(rows_geometry(p, elem), input_view(plan, x), B)
    if plan.kind == "simt" and p.get("tile"):
        return model_simt_tiled(simt_geometry(p, elem), input_view(plan, x), B)
    return np.ascontiguousarray(A.transpose(p["perm"]))


def model_simt_rows(geo, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """build_permute_simt_rows: each tile's clamped loads, then its bounded
    stores, slot by slot as the threads do them. Raises where a load would
    leave A or two stores would write one element."""
    ops, k, l, r = IntDynOps, geo.k, geo.l, A.ndim
    counts = geo.counts(A.shape, ops)
    tid = np.arange(geo.threads)
    written = np.zeros(B.shape, dtype=np.int64)
    for t in range(int(np.prod(counts))):
        src = geo.origin(t, counts, ops)
        last_l = min(A.shape[l] - src[l], geo.cols) - 1
        last_k = min(A.shape[k] - src[k], geo.rows) - 1 if k is not None else 0
        for s in range(geo.steps):
            i, j = geo.slot(tid, s, ops)
            at = [np.full(geo.threads, c) for c in src]
            at[l] = src[l] + np.minimum(j, last_l)
            if k is not None:
                at[k] = src[k] + np.minimum(i, last_k)
            for a in range(r):
                if at[a].max() >= A.shape[a]:
                    raise IndexError(f"tile {t} slot {s} loads past axis {a}")
            keep = (j <= last_l) & (i <= last_k if k is not None else True)
            out = [np.full(geo.threads, src[a]) for a in geo.perm]
            out[r - 1] = out[r - 1] + j
            if k is not None:
                out[r - 2] = out[r - 2] + i
            where = tuple(o[keep] for o in out)
            B[where] = A[tuple(a[keep] for a in at)]
            np.add.at(written, where, 1)
    if written.max(initial=0) > 1:
        raise AssertionError("an element is stored twice")
    return B


def model_simt_tiled(geo, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """build_permute_simt_tiled: each tile's clamped loads into a shared
    tile of the kernel's layout, then the bounded stores, slot by slot as
    the threads do them (all the threads of a slot at once)."""
    ops, k, l, q, r = IntDynOps, geo.k, geo.l, geo.q, A.ndim
    counts = geo.counts(A.shape, ops)
    tid = np.arange(geo.threads)
    lane, warp = tid % 32, tid // 32
    w = geo.width

    def output_at(src, i, j, keep):
        out = [np.full(i.shape, src[a]) for a in geo.perm]
        out[r - 1] = out[r - 1] + i
        out[q] = out[q] + j
        return tuple(o[keep] for o in out)

    for t in range(int(np.prod(counts))):
        src = geo.origin(t, counts, ops)
        last_k = min(A.shape[k] - src[k], geo.tile) - 1
        last_l = min(A.shape[l] - src[l], geo.cols) - 1
        shared = np.zeros(geo.shared_shape, dtype=A.dtype)

        def read(i, j):
            at = [np.full(geo.threads, c) for c in src]
            at[k] = src[k] + np.minimum(i, last_k)
            at[l] = src[l] + np.minimum(j, last_l)
            return A[tuple(at)]

        if not geo.vec:
            for s in range(geo.steps):
                i, j = geo.load_slot(lane, warp, s)
                shared[i, j] = read(i, j)
            for s in range(geo.steps):
                i, j = geo.store_slot(lane, warp, s)
                keep = (i <= last_k) & (j <= last_l)
                B[output_at(src, i, j, keep)] = shared[i[keep], j[keep]]
            continue
        # The vector forms: a shared vector is `w` elements of a row from
        # column chunk * w on; an input vector may not start past the last
        # whole one (vec "in": the rows are whole vectors).
        for s in range(geo.vec_steps):
            i, j, row, chunk = geo.vec_load_task(tid, s, ops)
            for m in range(w):
                value = read(i + m, j) if geo.vec == "out" else \
                    read(i, np.minimum(j, last_l - (w - 1)) + m)
                shared[row, chunk * w + m] = value
        for s in range(geo.vec_steps):
            i, j, row, chunk = geo.vec_store_task(tid, s, ops)
            keep = (i <= last_k) & (j <= last_l)
            for m in range(w):
                di, dj = (m, 0) if geo.vec == "out" else (0, m)
                B[output_at(src, i + di, j + dj, keep)] = shared[row[keep],
                                                                 chunk[keep] * w + m]
    return B


def model_narrow(p: dict, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """build_permute_narrow: every tile's boxes loaded, each pixel group's
    vectors regrouped by NarrowGeometry (all reads, then all writes, as a
    thread does), the other side's boxes stored. The lanes' rotation only
    changes which instruction moves which vector, not what lands where, so
    the model leaves it out; test_layout_narrow checks that it moves every
    vector once and the GPU test runs it."""
    geo = NarrowGeometry.of_params(p)
    interleave = p["direction"] == "interleave"
    planar_shape = A.shape if interleave else B.shape
    counts = geo.counts(planar_shape, IntDynOps)
    v, elem = geo.vec, geo.elem

    def planar_boxes(b, x0):
        return [(k * geo.planar_box_bytes, geo.planar_coords(b, x0, k, IntDynOps))
                for k in range(geo.nb)]

    for t in range(counts[0] * counts[1]):
        b, x0 = geo.origin(t, counts, IntDynOps)
        shared = _shared(geo.stage_bytes)
        inter = [(geo.interleaved_offset, geo.interleaved_coords(b, x0, IntDynOps))]
        loads, stores = (planar_boxes(b, x0), inter) if interleave else \
            (inter, planar_boxes(b, x0))
        box_in, box_out = (geo.planar_box, geo.interleaved_box) if interleave else \
            (geo.interleaved_box, geo.planar_box)
        for off, coords in loads:
            emulator.load(shared, off, A, box=box_in, coords=coords)
        for g in range(geo.rows):
            if interleave:
                src = [geo.planar_offset(g, ch, IntDynOps) for ch in range(geo.n)]
                dst = [geo.interleaved_offset_of(g, m) for m in range(geo.n)]
            else:
                src = [geo.interleaved_offset_of(g, m) for m in range(geo.n)]
                dst = [geo.planar_offset(g, ch, IntDynOps) for ch in range(geo.n)]
            vectors = [[shared[a + i * elem:a + (i + 1) * elem].copy() for i in range(v)]
                       for a in src]
            for a, values in zip(dst, geo.regroup(vectors, p["direction"])):
                for i, value in enumerate(values):
                    shared[a + i * elem:a + (i + 1) * elem] = value
        for off, coords in stores:
            B = emulator.store(B, shared, off, box=box_out, coords=coords)
    return B


__all__ = ["ELEM_DTYPES", "model_boxes", "model_narrow", "model_permute", "model_transpose",
           "storage", "transpose_in_shared"]


# -- pad --------------------------------------------------------------------

def _fill_array(shape, elem: int, fill: str, bits: int) -> np.ndarray:
    return np.full(shape, bits if fill == "value" else 0, dtype=storage(elem))


def _nan_format(elem: int) -> str:
    return {2: "bfloat16", 4: "float32", 8: "float64"}[elem]


def _float_view(a: np.ndarray) -> np.ndarray:
    """The storage a NaN-filling map's format reads (bfloat16 is uint16)."""
    return a.view({4: np.float32, 8: np.float64}.get(a.dtype.itemsize, a.dtype))


def model_pad_boxes(box, A: np.ndarray, lefts, out_shape, fill: str, bits: int = 0):
    """build_pad_boxes: per tile, the box loaded from the shifted coordinates
    (filled outside A), for fill "value" the outside overwritten, stored."""
    elem = A.dtype.itemsize
    geo = PadGeometry(tuple(box))
    B = np.zeros(out_shape, dtype=storage(elem))
    counts = geo.counts(out_shape, IntDynOps)
    fmt = {"format": _nan_format(elem), "oob_fill": 1} if fill == "nan" else {}
    if fill == "nan":
        A, B = _float_view(A), _float_view(B)
    nbytes = int(np.prod(box)) * elem
    for t in range(int(np.prod(counts))):
        out = geo.origin(t, counts, IntDynOps)
        src = tuple(o - l for o, l in zip(out, lefts))
        shared = _shared(nbytes)
        emulator.load(shared, 0, A, box=box, coords=src, **fmt)
        if fill == "value":
            image = shared[:nbytes].view(storage(elem)).reshape(box)
            idx = np.indices(box)
            outside = np.zeros(box, bool)
            for a in range(len(box)):
                c = idx[a] + src[a]
                outside |= (c < 0) | (c >= A.shape[a])
            image[outside] = bits
        B = emulator.store(B, shared, 0, box=box, coords=out, **(
            {"format": _nan_format(elem)} if fill == "nan" else {}))
    return B.view(storage(elem))


class U32Ops(IntDynOps):
    """The vector pad's i32 arithmetic on NumPy int64 arrays holding u32
    values: a subtraction wraps, a comparison and a min are unsigned."""
    MASK = (1 << 32) - 1

    @staticmethod
    def sub(a, b):
        return (a - b) & U32Ops.MASK

    @staticmethod
    def ult(a, b):
        return (a & U32Ops.MASK) < (b & U32Ops.MASK)

    @staticmethod
    def min(a, b):
        return np.minimum(a & U32Ops.MASK, b & U32Ops.MASK)

    @staticmethod
    def all(conds):
        return np.logical_and.reduce(conds)


def _vector_indices(geo, out_shape) -> tuple:
    """(B's extents in vectors, B's vector count, the vector index of every
    thread and slot of every tile) of a vector kernel's geometry."""
    radices = geo.radices(tuple(out_shape), IntDynOps)
    n = int(np.prod(radices))
    tile, s, tid = np.meshgrid(np.arange(-(-n // geo.tile)), np.arange(geo.slots),
                               np.arange(geo.threads), indexing="ij")
    return radices, n, geo.vector(tile, tid, s).reshape(-1).astype(np.int64)


def _move_vectors(geo, A: np.ndarray, at, coords, stored, out_shape, inside=None,
                  bits: int = 0) -> np.ndarray:
    """B from every thread's vector: each load's source `at` read from A
    (raises where it leaves A or is not a whole vector of a row), the fill
    where `inside` is false, the stores where `stored`. Raises where an
    element of B is stored twice or not at all."""
    last = A.ndim - 1
    for a, c in enumerate(at):
        if (c >= A.shape[a]).any() or (a == last and ((c % geo.vec).any() or
                                                      (c + geo.vec > A.shape[a]).any())):
            raise AssertionError(f"a load leaves A along axis {a}")
    B = np.zeros(tuple(out_shape), dtype=A.dtype)
    count = np.zeros(B.shape, dtype=np.int64)
    for k in range(geo.vec):   # the vector's elements, one at a time
        src = tuple(c[stored] + (k if a == last else 0) for a, c in enumerate(at))
        dst = tuple(c[stored] + (k if a == B.ndim - 1 else 0) for a, c in enumerate(coords))
        B[dst] = A[src] if inside is None else np.where(inside[stored], A[src],
                                                        A.dtype.type(bits))
        np.add.at(count, dst, 1)
    if (count != 1).any():
        raise AssertionError(f"{int((count == 0).sum())} elements unwritten, "
                             f"{int((count > 1).sum())} written twice")
    return B


def model_pad_vectors(geo, A: np.ndarray, lefts, out_shape, bits: int = 0) -> np.ndarray:
    """build_pad_vectors: every thread's vectors of every tile, by the
    kernel's own geometry (geometry.vector_tiles.VectorPadGeometry) in
    32-bit unsigned arithmetic: each load's source clamped to A's edge, the
    fill where the source lies outside, the stores bounded by B's vector
    count."""
    radices, n, v = _vector_indices(geo, out_shape)
    lefts = [x & U32Ops.MASK for x in lefts]
    coords, inside, at = geo.spot(v, radices, list(A.shape), lefts, U32Ops)
    return _move_vectors(geo, A, at, coords, v < n, out_shape, inside, bits)


def model_permute_vectors(geo, A: np.ndarray, out_shape) -> np.ndarray:
    """build_permute_vectors: every thread's vector of every tile by the
    kernel's own geometry (geometry.vector_tiles.VectorPermuteGeometry), the
    index clamped to B's last vector for the loads, the stores bounded by
    B's vector count."""
    radices, n, v = _vector_indices(geo, out_shape)
    coords, src = geo.spot(np.minimum(v, n - 1), radices, U32Ops)
    return _move_vectors(geo, A, src, coords, v < n, out_shape)


def _flat_tile(geo, threads: int, shared: np.ndarray, B: np.ndarray, written: np.ndarray,
               f0: int, n_rows: int, Wo: int, delta: int) -> None:
    """build_pad_rows' flat form on one tile: its output run [f0, f0 +
    n_rows Wo) as aligned 16-byte vectors read as the kernel reads them (two
    chunks a vector; the vectors across a row's end joined first into slots
    from row r and row r + 1's first chunks, where a chunk before its start
    is row r's last in box 0), each thread stepping through its vectors as
    the kernel's loop does; the run's ends by element."""
    elem, V, pitch = geo.elem, geo.vec, geo.wbox * geo.elem

    def chunk(addr: int) -> np.ndarray:
        got = shared[addr:addr + 16]
        assert addr >= 0 and len(got) == 16, "a chunk read past the stage"
        return got

    def pair(a0: int, a1: int, rem: int) -> np.ndarray:
        return np.concatenate([chunk(a0), chunk(a1 if rem else a0)])[rem:rem + 16]

    def words(rho: int, s: int, clamp: bool) -> np.ndarray:
        a = s & -V
        a1 = min(a + V, geo.nb * geo.wbox - V) if clamp else a + V
        return pair(geo.shared_offset(rho, a, IntDynOps), geo.shared_offset(rho, a1, IntDynOps),
                    (s - a) * elem)

    slots = {}
    for r in range(n_rows - 1):
        m = (f0 + (r + 1) * Wo) & (V - 1)
        if m:
            low = words(r, Wo - m + delta, True)
            sp = delta + V - m
            a = sp & -V
            nbase = r * pitch + pitch + (a - V) * elem
            high = pair(nbase, nbase + 16, (sp - a) * elem)
            slots[r] = np.concatenate([low[:m * elem], high[m * elem:]])
    end = f0 + n_rows * Wo
    a0, a1 = -(-f0 // V) * V, end // V * V
    n_vec = (max(a1, a0) - a0) // V
    dr, dc = divmod(threads * V, Wo)
    iters = -(-(geo.rows * geo.columns // V + 1) // threads)
    flat = B.view(np.uint8)
    for tid in range(threads):
        r, c = divmod(tid * V, Wo)
        c += a0 - f0
        r, c = (r + 1, c - Wo) if c >= Wo else (r, c)
        for i in range(iters):
            k = tid + i * threads
            if k < n_vec:
                g = a0 + k * V
                flat[g * elem:(g + V) * elem] = slots[r] if c + V > Wo else \
                    words(r, c + delta, False)
                written[g:g + V] += 1
            c += dc
            r, c = (r + dr + 1, c - Wo) if c >= Wo else (r + dr, c)
    for e in [*range(f0, min(a0, end)), *range(max(a1, a0), end)]:
        r, c = divmod(e - f0, Wo)
        off = geo.shared_offset(r, c + delta, IntDynOps)
        flat[e * elem:(e + 1) * elem] = shared[off:off + elem]
        written[e] += 1


def model_pad_rows(p: dict, A: np.ndarray, lefts, rights, fill: str, bits: int = 0):
    """build_pad_rows: per tile, the nb boxes of rows loaded, then every
    output row segment copied from the shifted window (head, 16-byte
    vectors, tail: every element once); with p["flat"], where a tile spans
    whole rows, the flat form's vectors (_flat_tile)."""
    elem = A.dtype.itemsize
    rank = A.ndim
    geo = RowsGeometry.of_params(p, rank, elem)
    out = [d + l + r for d, l, r in zip(A.shape, lefts, rights)]
    B = np.zeros(int(np.prod(out)), dtype=storage(elem))
    written = np.zeros(B.shape, np.int32)
    counts = geo.counts(out, IntDynOps)
    fmt = {"format": _nan_format(elem), "oob_fill": 1} if fill == "nan" else {}
    box = (1,) * (rank - 2) + (geo.rows, geo.wbox)
    src_array = _float_view(A) if fill == "nan" else A
    height = geo.height(out[-2], IntDynOps)
    flat = p.get("flat", False) and flat_boxes_fit(geo.wbox, elem)
    for t in range(int(np.prod(counts))):
        outer, row0, c0 = geo.origin(t, counts, IntDynOps, height)
        col, delta = geo.load_start(c0, lefts[-1], IntDynOps)
        src = tuple(o - l for o, l in zip(outer, lefts)) + (row0 - lefts[-2],)
        shared = _shared(geo.nb * geo.box_bytes)
        for k in range(geo.nb):
            emulator.load(shared, k * geo.box_bytes, src_array, box=box,
                          coords=src + (col + k * geo.wbox,), **fmt)
        n_x = min(out[-1] - c0, geo.columns)
        flat_outer = 0
        for o, d in zip(outer, out[:-2]):
            flat_outer = flat_outer * d + o
        outer_ok = all(0 <= o - l < d for o, l, d in zip(outer, lefts, A.shape))
        if flat and all(flat_row_conditions(out[-1], geo.wbox, geo.nb, elem)):
            f0 = (flat_outer * out[-2] + row0) * out[-1]
            _flat_tile(geo, p["threads"], shared, B, written, f0, min(out[-2] - row0, height),
                       out[-1], delta)
            continue
        for rho in range(height):
            orow = row0 + rho
            if orow >= out[-2]:
                continue
            f = (flat_outer * out[-2] + orow) * out[-1] + c0
            row_ok = outer_ok and 0 <= orow - lefts[-2] < A.shape[-2]
            for x in range(n_x):
                off = geo.shared_offset(rho, x + delta, IntDynOps)
                v = shared[off:off + elem].view(storage(elem))[0]
                if fill == "value" and not (row_ok and 0 <= c0 + x - lefts[-1] < A.shape[-1]):
                    v = bits
                B[f + x] = v
                written[f + x] += 1
    assert (written == 1).all(), "an output element written twice or not at all"
    return B.reshape(out)


# -- unfold -------------------------------------------------------------------

def model_unfold_nhwc(p: dict, A: np.ndarray) -> np.ndarray:
    """build_unfold_nhwc: per tile one im2col load (emulated) and one store
    into the (N L, taps, C) view of the output."""
    geo = Im2colGeometry.of_params(p)
    conv = geo.conv
    n, h, w, c = A.shape
    oh, ow = conv.out_hw(h, w, IntDynOps)
    L = oh * ow
    B = np.zeros((n * L, conv.taps, c), dtype=A.dtype)
    counts = geo.counts(n, c, L, IntDynOps)
    lower, upper = geo.corners
    sh, sw = conv.stride
    box = (geo.pixels, geo.channels)
    for t in range(int(np.prod(counts))):
        coords, offsets, dst = geo.origin(t, counts, ow, L, IntDynOps)
        shared = _shared(geo.pixels * geo.channels * A.dtype.itemsize)
        emulator.load(shared, 0, A, box=box, coords=coords, mode="im2col",
                      element_strides=(1, sh, sw, 1), pixel_box_lower=lower,
                      pixel_box_upper=upper, offsets=offsets)
        B = emulator.store(B, shared, 0, box=(geo.pixels, 1, geo.channels), coords=dst)
    return B.reshape(n, L, conv.taps * c)


def model_unfold_nchw(p: dict, A: np.ndarray) -> np.ndarray:
    """build_unfold_nchw: per tile the nb boxes of input rows (every
    hstride-th), then every tap's output row segments copied from the
    shifted, strided window; with p["gather"] == "wide" (stride along W >
    1) each vector from the chunks the kernel reads (geometry.gather, the
    same word arithmetic) and the ends as its aligned pieces."""
    elem = A.dtype.itemsize
    geo = RowsUnfoldGeometry.of_params(p, elem)
    conv = geo.conv
    n, c, h, w = A.shape
    planes = A.reshape(n * c, h, w)
    oh, ow = conv.out_hw(h, w, IntDynOps)
    L = oh * ow
    B = np.zeros(n * c * conv.taps * L, dtype=A.dtype)
    flat = B.view(np.uint8)
    written = np.zeros(B.shape, np.int32)
    counts = geo.counts(n * c, oh, ow, IntDynOps)
    (sh, sw), (dh, dw) = conv.stride, conv.dilation
    box = (1, geo.box_rows, geo.wbox)
    strides = (1, geo.hstride, 1)
    V = geo.vec
    wide = p.get("gather", "elements") == "wide" and sw > 1
    g = StridedGather(elem, sw) if wide else None
    stage = geo.nb * geo.box_bytes
    row_end = geo.nb * geo.wbox - V

    def vector_words(shared, r_in, s_idx, ends):
        a = s_idx // V * V
        last = min((s_idx + (V - 1) * sw) // V * V, row_end)
        els = [a + k * V for k in range(g.chunks)]
        for k in range(1 if ends else g.chunks - 1, g.chunks):
            els[k] = min(els[k], last)
        words = []
        for e in els:
            assert 0 <= e <= row_end, "a chunk read past the row"
            off = geo.shared_offset(r_in, e, IntDynOps)
            assert off + 16 <= stage
            words += [int(x) for x in shared[off:off + 16].view("<u4")]
        return g.out_words(words, (s_idx - a) * elem, IntWordOps)

    def put(at: int, data: bytes) -> None:
        assert len(data) % elem == 0
        flat[at * elem:at * elem + len(data)] = np.frombuffer(data, np.uint8)
        written[at:at + len(data) // elem] += 1

    def pieces(words, at: int, nbytes: int, head: bool) -> None:
        for size in piece_sizes(elem, head):
            if nbytes & size:
                off = piece_offset(nbytes, size, head, lambda x, m: x & m)
                assert ((at * elem) + off) % size == 0, "a piece store off its alignment"
                pw = piece_words(words, off, size, IntWordOps)
                val = pw[0] | (pw[1] << 32 if size == 8 else 0)
                put(at + off // elem, (val & ((1 << (8 * size)) - 1)).to_bytes(size, "little"))

    for t in range(int(np.prod(counts))):
        plane, oy0, ox0, row_in, col, delta = geo.origin(t, counts, IntDynOps)
        shared = _shared(stage)
        for k in range(geo.nb):
            emulator.load(shared, k * geo.box_bytes, planes, box=box, element_strides=strides,
                          coords=(plane, row_in, col + k * geo.wbox))
        n_x = min(ow - ox0, geo.columns)
        for tap in range(conv.taps):
            i, j = conv.tap(tap, IntDynOps)
            for rho in range(geo.rows):
                oy = oy0 + rho
                if oy >= oh:
                    continue
                f = (plane * conv.taps + tap) * L + oy * ow + ox0
                r_in = geo.box_row(rho, i)
                shift = j * dw + delta

                def element(x):
                    off = geo.shared_offset(r_in, x * sw + shift, IntDynOps)
                    return shared[off:off + elem].tobytes()
                if not wide:
                    for x in range(n_x):
                        put(f + x, element(x))
                    continue
                head = (V - f % V) % V
                n_vec = (max(n_x, head) - head) // V
                for slot in range(n_vec):
                    x0 = head + slot * V
                    words = vector_words(shared, r_in, x0 * sw + shift, False)
                    put(f + x0, b"".join(x.to_bytes(4, "little") for x in words))
                if n_x < head:
                    for x in range(n_x):
                        put(f + x, element(x))
                    continue
                if head:
                    pieces(vector_words(shared, r_in, shift, True), f, head * elem, True)
                x0 = head + n_vec * V
                if x0 < n_x:
                    pieces(vector_words(shared, r_in, x0 * sw + shift, True), f + x0,
                           (n_x - x0) * elem, False)
    assert written.max(initial=1) == 1, "an output element written twice"
    return B.reshape(n, c * conv.taps, L)


def model_unfold_taps(p: dict, A: np.ndarray) -> np.ndarray:
    """build_unfold_nchw_taps: per tile the halo and the aligned shifts'
    images loaded, the other shifts' images copied out of the halo 16 bytes
    at a time, then one store per tap from its image's row i dh."""
    (kh, kw), (ph, _), (dh, _) = p["kernel"], p["padding"], p["dilation"]
    elem = A.dtype.itemsize
    geo = TapsGeometry.of_params(p, elem)
    n, c, h, w = A.shape
    planes = A.reshape(n * c, h, w)
    oh = h + 2 * ph - dh * (kh - 1)
    ow = w + 2 * p["padding"][1] - p["dilation"][1] * (kw - 1)
    B = np.zeros((n * c, kh * kw, oh, ow), dtype=A.dtype)
    written = np.zeros(B.shape, np.int32)
    V = geo.vec
    counts = geo.counts(n * c, oh, ow, IntDynOps)
    for t in range(int(np.prod(counts))):
        plane, oy0, ox0 = geo.origin(t, counts, IntDynOps)
        shared = _shared(geo.stage_bytes)
        for k in range(geo.hnb if geo.built else 0):
            emulator.load(shared, k * geo.halo_box_bytes, planes,
                          box=(1, geo.rows_in, geo.hbox),
                          coords=(plane, oy0 - ph, ox0 + geo.halo_start + k * geo.hbox))
        for j, shift in enumerate(geo.shifts):
            if j not in geo.built:
                emulator.load(shared, geo.image_offset(j), planes,
                              box=(1, geo.rows_in, geo.width),
                              coords=(plane, oy0 - ph, ox0 + shift))
        for j in geo.built:
            shift = geo.shifts[j] - geo.halo_start
            first, rem = shift // V * V, (shift % V) * elem
            for r in range(geo.rows_in):
                for chunk in range(geo.width // V):
                    col = chunk * V + first
                    assert col + (2 if rem else 1) * V <= geo.hbox * geo.hnb, \
                        "a chunk read past the halo"
                    a0 = geo.halo_offset(r, col, IntDynOps)
                    a1 = geo.halo_offset(r, col + V, IntDynOps)
                    pair = np.concatenate([shared[a0:a0 + 16], shared[a1:a1 + 16]])
                    dst = geo.image_offset(j) + r * geo.width * elem + chunk * 16
                    shared[dst:dst + 16] = pair[rem:rem + 16]
        for i in range(kh):
            for j in range(kw):
                box = (1, 1, geo.rows, geo.width)
                B = emulator.store(B, shared, geo.image_offset(j) + i * dh * geo.width * elem,
                                   box=box, coords=(plane, i * kw + j, oy0, ox0))
                written[plane, i * kw + j, oy0:oy0 + geo.rows, ox0:ox0 + geo.width] += 1
    assert written.max(initial=1) == 1 and written.min(initial=1) == 1, \
        "an output element written twice or not at all"
    return B.reshape(n, c * kh * kw, oh * ow)
