"""The SIMT permutes' tile geometry, traced by builders/permute_simt_rows.py
and builders/permute_simt_tiled.py and run over ints by their CPU models:
the tile walk (tiles numbered in the output's order) and which tile
element each thread moves in each slot. `SimtRowsGeometry`: the row copy
(the innermost axis stays), tiles of `rows` output rows by `cols`
elements; `SimtTileGeometry`: the transpose through a shared tile, T
elements along k = perm[-1] by U along the innermost axis l, with its
vector forms. Written over an `ops` object (addressing.IntDynOps or
builders.ir.DynOps)."""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import VECTOR_BYTES
from .addressing import OutputOrderTiles

WARP = 32
VEC_SIDES = ("", "in", "out")


@dataclass(frozen=True)
class SimtRowsGeometry(OutputOrderTiles):
    """Which tile element thread `tid` moves in each of its `steps` slots,
    and the tile walk."""
    perm: tuple
    elem: int
    rows: int
    cols: int
    threads: int

    def __post_init__(self):
        r = len(self.perm)
        if sorted(self.perm) != list(range(r)) or not 1 <= r <= 5 or self.perm[-1] != r - 1:
            raise ValueError(f"perm {self.perm}: a permutation of rank 1..5 that keeps "
                             f"the innermost axis")
        pow2 = all(v > 0 and v & (v - 1) == 0 for v in (self.rows, self.cols, self.threads))
        if not pow2 or self.rows * self.cols % self.threads or (r == 1 and self.rows != 1):
            raise ValueError(f"tile {self.rows} x {self.cols} with {self.threads} threads: "
                             f"powers of two, the tile a multiple of the threads (one row "
                             f"at rank 1)")

    @property
    def steps(self) -> int:
        return self.rows * self.cols // self.threads

    @property
    def l(self) -> int:
        return len(self.perm) - 1

    @property
    def k(self) -> int | None:
        """The input axis the tile's rows run along (the output's next)."""
        return self.perm[-2] if len(self.perm) > 1 else None

    def tile_extent(self, axis: int) -> int:
        """The tile as a box over the input's axes (plan.common.simt_row_box):
        `cols` along the innermost, `rows` along k, 1 elsewhere."""
        return self.cols if axis == self.l else self.rows if axis == self.k else 1

    def slot(self, tid, s, ops) -> tuple:
        """(row, column) of the tile that thread `tid` moves in slot s."""
        i_thread, i_slot, j = self.slot_parts(tid, s, ops)
        if isinstance(i_thread, int):   # the row is the slot's: one per lane too
            return j * 0 + i_slot, j
        return i_thread + i_slot, j

    def slot_parts(self, tid, s, ops) -> tuple:
        """slot's row as a thread's part plus a constant of the slot, and
        its column (n = tid + s threads: row n / cols, column n mod cols)."""
        if self.cols >= self.threads:   # a slot's lanes share a row
            per_row = self.cols // self.threads
            return 0, s // per_row, tid + (s % per_row) * self.threads
        return ops.div(tid, self.cols), s * (self.threads // self.cols), ops.mod(tid, self.cols)


def rows_geometry(params: dict, elem: int) -> SimtRowsGeometry:
    """The geometry of build_permute_simt_rows(**params)'s kernel."""
    return SimtRowsGeometry(tuple(params["perm"]), elem, params["rows"], params["cols"],
                            params["threads"])


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
