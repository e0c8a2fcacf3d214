"""The SIMT transpose through shared memory (plan.permute's "simt" plans
whose innermost axis moves, both tiled axes at least SIMT_TILE_MIN long):
B = A.permute(perm) for strides the copy engine cannot address (not
multiples of 16 bytes), as in the transpose of a (50257, 768) matrix.

A tile is T elements along input axis k = perm[-1] (the output's rows) by
U along the input's innermost axis l. The threads read it with
consecutive lanes along l (coalesced input rows) into a shared tile of row
pitch U + pad elements, then write it with consecutive lanes along k
(coalesced output rows). The pitch makes a column of the tile fall in 32
different banks, so neither pass has a bank conflict. The loads of a
partial tile are clamped to its last row and column (every load in
bounds, none predicated, so a thread's loads are all in flight at once);
the stores are bounded. Each CTA moves one tile (the block scheduler
starts the next CTA as one finishes, so one CTA's stores overlap the
next one's loads), or with `grid` > 0 loops over tiles; tiles are
numbered in the output's order (consecutive CTAs write neighbouring
pieces of the same output rows). Every extent and stride is a runtime
value; the element size, the permutation, the tile and the thread count
are static. The geometry (SimtTileGeometry) is geometry/simt.py's.
"""

from __future__ import annotations

from mlir.dialects import vector

from .... import builder as K
from ....builder import IrOps
from ..geometry.addressing import product
from ..geometry.simt import WARP, SimtTileGeometry
from ..limits import ELEM_DTYPES, MAX_GRID
from .ir import DynOps, all_of, extents


class _TiledTrace:
    """build_permute_simt_tiled's kernel body being traced: the values every
    tile shares (A's extents, the tile counts, the shared tile, the thread's
    lane and warp), built in the constructor, then a tile's move in the
    element form or either vector form."""

    def __init__(self, geo: SimtTileGeometry, dtype: str, A, B):
        self.geo, self.dtype, self.A, self.B = geo, dtype, A, B
        self.dims = extents(A)
        self.counts = geo.counts(self.dims, DynOps)
        self.shared = K.alloc_shared(geo.shared_shape, dtype)
        self.tid = K.thread_id()
        self.lane, self.warp = IrOps.and_(self.tid, WARP - 1), IrOps.shr(self.tid, 5)

    def output_at(self, src, i, j) -> tuple:
        """Output coordinates of element (i along k, j along l) of the tile
        at input coordinates `src`."""
        perm, r, q = self.geo.perm, len(self.geo.perm), self.geo.q
        out = [src[a] for a in perm]
        out[r - 1] = out[r - 1] + i
        out[q] = out[q] + j
        return tuple(out)

    def move_elements(self, src, last_k, last_l) -> None:
        """The element form: each slot's element read into the padded shared
        tile, then written out along the output's rows."""
        geo, A, B, shared = self.geo, self.A, self.B, self.shared
        lane, warp, k, l, output_at = self.lane, self.warp, geo.k, geo.l, self.output_at
        loads = [geo.load_slot(lane, warp, s) for s in range(geo.steps)]
        values = []
        for i, j in loads:   # every load first: all of them in flight
            at = list(src)
            at[k] = src[k] + DynOps.min(i, last_k)
            at[l] = src[l] + DynOps.min(j, last_l)
            values.append(A[tuple(at)])
        for (i, j), v in zip(loads, values):
            shared[i, j] = v
        K.cta_sync()
        for i, j in (geo.store_slot(lane, warp, s) for s in range(geo.steps)):
            out = output_at(src, i, j)
            with K.if_(all_of([i <= last_k, j <= last_l])):
                B[out] = shared[i, j]

    def move_vectors_out(self, src, last_k, last_l) -> None:
        """vec "out": each thread gathers `width` elements of an input column
        into one shared vector, then stores whole output vectors."""
        geo, A, B, shared, tid = self.geo, self.A, self.B, self.shared, self.tid
        k, l, width, output_at = geo.k, geo.l, geo.width, self.output_at
        vtype = K.vector_type(self.dtype)
        tasks = [geo.vec_load_task(tid, s, DynOps) for s in range(geo.vec_steps)]
        gathered = []
        for i, j, _, _ in tasks:
            at = list(src)
            at[l] = src[l] + DynOps.min(j, last_l)
            elements = []
            for m in range(width):
                at[k] = src[k] + DynOps.min(i + m, last_k)
                elements.append(A[tuple(at)].value)
            gathered.append(elements)
        for (_, _, row, chunk), elements in zip(tasks, gathered):
            K.vector_store(vector.from_elements(vtype, elements), shared,
                           (row, chunk * width))
        K.cta_sync()
        for s in range(geo.vec_steps):
            i, j, row, chunk = geo.vec_store_task(tid, s, DynOps)
            out = output_at(src, i, j)
            # Output rows are whole vectors: one in the tile is all in.
            with K.if_(all_of([i <= last_k, j <= last_l])):
                K.vector_store(K.vector_load(vtype, shared, (row, chunk * width)), B, out)

    def move_vectors_in(self, src, last_k, last_l) -> None:
        """vec "in": whole input vectors loaded into the shared tile, then
        each scattered element by element to its output rows."""
        geo, A, B, shared, tid = self.geo, self.A, self.B, self.shared, self.tid
        k, l, width, output_at = geo.k, geo.l, geo.width, self.output_at
        vtype = K.vector_type(self.dtype)
        tasks = [geo.vec_load_task(tid, s, DynOps) for s in range(geo.vec_steps)]
        last_j = last_l - (width - 1)   # the last vector's first column
        loaded = []
        for i, j, _, _ in tasks:
            at = list(src)
            at[k] = src[k] + DynOps.min(i, last_k)
            at[l] = src[l] + DynOps.min(j, last_j)
            loaded.append(K.vector_load(vtype, A, tuple(at)))
        for (_, _, row, chunk), v in zip(tasks, loaded):
            K.vector_store(v, shared, (row, chunk * width))
        K.cta_sync()
        for s in range(geo.vec_steps):
            i, j, row, chunk = geo.vec_store_task(tid, s, DynOps)
            outs = [output_at(src, i, j + m) for m in range(width)]
            with K.if_(all_of([i <= last_k, j <= last_l])):
                v = K.vector_load(vtype, shared, (row, chunk * width))
                for m, out in enumerate(outs):
                    B[out] = K.Expr(vector.extract(v, [], [m]))

    def move(self, t) -> None:
        """Tile t: its origin, its last row and column inside A, its move."""
        geo, dims, k, l = self.geo, self.dims, self.geo.k, self.geo.l
        move_tile = {"": self.move_elements, "out": self.move_vectors_out,
                     "in": self.move_vectors_in}[geo.vec]
        src = geo.origin(t, self.counts, DynOps)
        move_tile(src, DynOps.min(dims[k] - src[k], geo.tile) - 1,
                  DynOps.min(dims[l] - src[l], geo.cols) - 1)


def build_permute_simt_tiled(elem: int, perm, tile: int = 64, threads: int = 256,
                             grid: int = 0, tile_l: int | None = None, vec: str = "",
                             name: str = "permute_simt_tiled") -> K.KernelDef:
    """B = A.permute(perm) through shared memory (module docstring); A has
    runtime strides (innermost 1), B is contiguous. `grid=0`: one tile per
    CTA (the launch's grid is the tile count, the block scheduler hands
    them out); otherwise a grid-stride loop over the tiles and `grid` the
    most CTAs the launch may have. `vec` "out" needs output rows (A's axis
    perm[-1]) of whole 16-byte vectors; "in" needs A's rows and strides in
    whole vectors and A 16-byte aligned."""
    perm = tuple(int(p) for p in perm)
    if sorted(perm) != list(range(len(perm))) or len(perm) > 5:
        raise ValueError(f"perm {perm} is not a permutation of rank 2..5")
    geo = SimtTileGeometry(perm, elem, tile, threads, tile_l, vec)
    dtype = ELEM_DTYPES[elem]
    r = len(perm)

    def body(A, B):
        trace = _TiledTrace(geo, dtype, A, B)
        if grid == 0:
            trace.move(K.block_id())
            return
        for t in K.range_(K.block_id(), product(trace.counts), K.grid_dim()):
            trace.move(t)
            K.cta_sync()   # the tile is read before the next one lands

    params = [("A", K.Tensor((None,) * r, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * r, dtype))]
    # One tile a CTA: the launch's grid is the tile count; the declared
    # (known) grid bounds the block index, so it is the largest there is.
    kdef = K.KernelDef(body, grid=grid or MAX_GRID, block=threads, params=params,
                       name=name)
    kdef.geometry = geo
    return kdef
