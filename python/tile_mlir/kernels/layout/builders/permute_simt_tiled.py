"""The SIMT transpose through shared memory (layout_plan's "simt" plans
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
are static.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir.dialects import vector

from .... import builder as K
from ....builder import IrOps
from ..limits import ELEM_DTYPES, VECTOR_BYTES
from .ir import DynOps, OutputOrderTiles, all_of, extents, product

WARP = 32
VEC_SIDES = ("", "in", "out")


@dataclass(frozen=True)
class SimtTileGeometry(OutputOrderTiles):
    """Which element of a tile thread `tid` moves in each of its `steps`
    slots, and the tile walk (the output's order, k fastest). A tile is
    `tile` elements along k (the output's rows) by `tile_l` along l (the
    input's rows; `tile` when None)."""
    perm: tuple
    elem: int
    tile: int = 64
    threads: int = 256
    tile_l: int | None = None
    vec: str = ""

    def __post_init__(self):
        t, u, w = self.tile, self.cols, self.threads // WARP
        if self.threads % WARP or t % WARP or u % WARP or t % w or u % w \
                or t * u % self.threads:
            raise ValueError(f"tile {t} x {u} with {self.threads} threads: both sides "
                             f"multiples of {WARP} and of the {w} warps")
        if len(self.perm) < 2 or self.perm[-1] == len(self.perm) - 1:
            raise ValueError(f"perm {self.perm}: the innermost axis must move")
        if self.vec not in VEC_SIDES:
            raise ValueError(f"vec {self.vec!r}: one of {', '.join(map(repr, VEC_SIDES))}")
        if self.vec and self.tile * self.cols // self.width % self.threads:
            raise ValueError(f"vec {self.vec!r}: the tile's {self.tile * self.cols // self.width}"
                             f" vectors do not split over {self.threads} threads")

    # The vector forms (vec "in": the input's rows are whole 16-byte vectors,
    # "out": the output's). That side moves 16-byte vectors between global
    # and shared memory; the other side's elements are gathered into (or
    # scattered from) one vector per thread, so both shared passes are
    # 16-byte accesses. The shared tile is `chunks` vectors a row, along the
    # vector side's axis, rows along the other; a vector's chunk is XORed
    # with its row (`swizzle`) so that 8 rows' same chunk fill all 32 banks.

    @property
    def width(self) -> int:
        """Elements in a 16-byte vector."""
        return VECTOR_BYTES // self.elem

    @property
    def chunks(self) -> int:
        """Vectors a shared row holds (the vector forms)."""
        return (self.tile if self.vec == "out" else self.cols) // self.width

    @property
    def shared_shape(self) -> tuple:
        """Elements of the shared tile: (k, l + pad); (l, k) for vec "out"."""
        if self.vec == "out":
            return (self.cols, self.tile)
        return (self.tile, self.cols if self.vec == "in" else self.pitch)

    @property
    def vec_steps(self) -> int:
        return self.tile * self.cols // self.width // self.threads

    def swizzle(self, chunk, row, ops):
        """Where a row's vector `chunk` sits: the 128-byte lines a bank group
        spans hold 8 // chunks rows, so rows of that group XOR the chunk."""
        per_line = max(1, 8 // self.chunks)
        return ops.xor(chunk, ops.mod(ops.div(row, per_line), min(8, self.chunks)))

    def vec_load_task(self, tid, s, ops) -> tuple:
        """(i, j, shared row, shared chunk) of a thread's slot s in the load
        pass: vec "out" gathers elements i..i+width-1 of input column j
        (consecutive lanes: consecutive j); vec "in" loads the vector at
        row i, columns j..j+width-1 (consecutive lanes: consecutive j)."""
        n = tid + s * self.threads
        if self.vec == "out":
            j, c = ops.mod(n, self.cols), ops.div(n, self.cols)
            return c * self.width, j, j, self.swizzle(c, j, ops)
        c, i = ops.mod(n, self.chunks), ops.div(n, self.chunks)
        return i, c * self.width, i, self.swizzle(c, i, ops)

    def vec_store_task(self, tid, s, ops) -> tuple:
        """(i, j, shared row, shared chunk) of a thread's slot s in the store
        pass: vec "out" stores the vector of output row j at i..i+width-1
        (consecutive lanes: consecutive i); vec "in" scatters elements
        j..j+width-1 of tile row i to their output rows (consecutive lanes:
        consecutive i)."""
        n = tid + s * self.threads
        if self.vec == "out":
            c, j = ops.mod(n, self.chunks), ops.div(n, self.chunks)
            return c * self.width, j, j, self.swizzle(c, j, ops)
        i, c = ops.mod(n, self.tile), ops.div(n, self.tile)
        return i, c * self.width, i, self.swizzle(c, i, ops)

    @property
    def cols(self) -> int:
        """The tile's extent along l."""
        return self.tile if self.tile_l is None else self.tile_l

    @property
    def k(self) -> int:
        return self.perm[-1]

    @property
    def l(self) -> int:
        return len(self.perm) - 1

    @property
    def q(self) -> int:
        """The output axis the input's innermost axis lands on."""
        return self.perm.index(self.l)

    @property
    def pitch(self) -> int:
        """Shared row pitch in elements: an odd number of 4-byte words
        (8-byte elements: an odd number of elements), so that 32 rows of one
        column sit in 32 banks."""
        return self.cols + max(1, 4 // self.elem)

    @property
    def steps(self) -> int:
        return self.tile * self.cols // self.threads

    def tile_extent(self, axis: int) -> int:
        return {self.k: self.tile, self.l: self.cols}.get(axis, 1)

    def load_slot(self, lane, warp, s) -> tuple:
        """(row along k, column along l) that a thread reads in slot s."""
        per_row = self.cols // WARP
        return warp + (self.threads // WARP) * (s // per_row), lane + WARP * (s % per_row)

    def store_slot(self, lane, warp, s) -> tuple:
        """(row along k, column along l) that a thread writes in slot s."""
        per_col = self.tile // WARP
        return lane + WARP * (s % per_col), warp + (self.threads // WARP) * (s // per_col)


def simt_geometry(params: dict, elem: int) -> SimtTileGeometry:
    """The geometry of build_permute_simt_tiled(**params)'s kernel."""
    return SimtTileGeometry(tuple(params["perm"]), elem, params["tile"],
                            params.get("threads", 256), params.get("tile_l"),
                            params.get("vec", ""))


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
    r, k, l, q, cols, width = len(perm), geo.k, geo.l, geo.q, geo.cols, geo.width

    def body(A, B):
        dims = extents(A)
        counts = geo.counts(dims, DynOps)
        shared = K.alloc_shared(geo.shared_shape, dtype)
        tid = K.thread_id()
        lane, warp = IrOps.and_(tid, WARP - 1), IrOps.shr(tid, 5)

        def output_at(src, i, j) -> tuple:
            out = [src[a] for a in perm]
            out[r - 1] = out[r - 1] + i
            out[q] = out[q] + j
            return tuple(out)

        def move_elements(src, last_k, last_l) -> None:
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

        def move_vectors_out(src, last_k, last_l) -> None:
            vtype = K.vector_type(dtype)
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

        def move_vectors_in(src, last_k, last_l) -> None:
            vtype = K.vector_type(dtype)
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

        move_tile = {"": move_elements, "out": move_vectors_out, "in": move_vectors_in}[vec]

        def move(t) -> None:
            src = geo.origin(t, counts, DynOps)
            move_tile(src, DynOps.min(dims[k] - src[k], tile) - 1,
                      DynOps.min(dims[l] - src[l], cols) - 1)

        if grid == 0:
            move(K.block_id())
            return
        for t in K.range_(K.block_id(), product(counts), K.grid_dim()):
            move(t)
            K.cta_sync()   # the tile is read before the next one lands

    params = [("A", K.Tensor((None,) * r, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * r, dtype))]
    # One tile a CTA: the launch's grid is the tile count; the declared
    # (known) grid bounds the block index, so it is the largest there is.
    kdef = K.KernelDef(body, grid=grid or (1 << 31) - 1, block=threads, params=params,
                       name=name)
    kdef.geometry = geo
    return kdef
