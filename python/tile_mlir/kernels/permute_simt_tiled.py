"""The SIMT transpose through shared memory (layout_plan's "simt" plans
whose innermost axis moves, both tiled axes at least SIMT_TILE_MIN long):
B = A.permute(perm) for strides the copy engine cannot address (not
multiples of 16 bytes), as in the transpose of a (50257, 768) matrix.

A tile is T x T elements: input axis k = perm[-1] (the output's innermost)
by the input's innermost axis l. The threads read it with consecutive
lanes along l (coalesced input rows) into a shared tile of row pitch
T + pad elements, then write it with consecutive lanes along k (coalesced
output rows). The pitch makes a column of the tile fall in 32 different
banks, so neither pass has a bank conflict. The loads of a partial tile
are clamped to its last row and column (every load in bounds, none
predicated, so a thread's loads are all in flight at once); the stores
are bounded. Tiles are claimed by a grid-stride loop in the output's order
(consecutive CTAs write neighbouring pieces of the same output rows).
Every extent and stride is a runtime value; the element size, the
permutation and T are static.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir.dialects import arith

from .. import builder as K
from ..builder import IrOps
from .layout_ir import DynOps, extents, product
from .layout_plan import ELEM_DTYPES

WARP = 32


@dataclass(frozen=True)
class SimtTileGeometry:
    """Which element of a T x T tile thread `tid` moves in each of its
    `steps` slots, and the tile walk (the output's order, k fastest)."""
    perm: tuple
    elem: int
    tile: int = 64
    threads: int = 256

    def __post_init__(self):
        t, w = self.tile, self.threads // WARP
        if self.threads % WARP or t % WARP or t % w or t * t % self.threads:
            raise ValueError(f"tile {t} with {self.threads} threads: both multiples "
                             f"of {WARP}, the tile's rows a multiple of the warps")
        if len(self.perm) < 2 or self.perm[-1] == len(self.perm) - 1:
            raise ValueError(f"perm {self.perm}: the innermost axis must move")

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
        return self.tile + max(1, 4 // self.elem)

    @property
    def steps(self) -> int:
        return self.tile * self.tile // self.threads

    def tile_extent(self, axis: int) -> int:
        return self.tile if axis in (self.k, self.l) else 1

    def counts(self, dims, ops) -> list:
        return [ops.cdiv(d, self.tile) if self.tile_extent(a) > 1 else d
                for a, d in enumerate(dims)]

    def origin(self, t, counts, ops) -> list:
        """Input coordinates of tile t's first element (tiles numbered over
        the input axes in the output's order, the last fastest)."""
        coords = [None] * len(self.perm)
        for a in reversed(self.perm):
            coords[a] = ops.mod(t, counts[a]) * self.tile_extent(a)
            t = ops.div(t, counts[a])
        return coords

    def load_slot(self, lane, warp, s) -> tuple:
        """(row along k, column along l) that a thread reads in slot s."""
        per_row = self.tile // WARP
        return warp + (self.threads // WARP) * (s // per_row), lane + WARP * (s % per_row)

    def store_slot(self, lane, warp, s) -> tuple:
        """(row along k, column along l) that a thread writes in slot s."""
        per_col = self.tile // WARP
        return lane + WARP * (s % per_col), warp + (self.threads // WARP) * (s // per_col)


def _and(a: K.Expr, b: K.Expr) -> K.Expr:
    return K.Expr(arith.andi(a.value, b.value))


def build_permute_simt_tiled(elem: int, perm, tile: int = 64, threads: int = 256,
                             grid: int = 1056, name: str = "permute_simt_tiled") -> K.KernelDef:
    """B = A.permute(perm) through shared memory (module docstring); A has
    runtime strides (innermost 1), B is contiguous. `grid` is the most CTAs
    the launch may have."""
    perm = tuple(int(p) for p in perm)
    if sorted(perm) != list(range(len(perm))) or len(perm) > 5:
        raise ValueError(f"perm {perm} is not a permutation of rank 2..5")
    geo = SimtTileGeometry(perm, elem, tile, threads)
    dtype = ELEM_DTYPES[elem]
    r, k, l, q = len(perm), geo.k, geo.l, geo.q

    def body(A, B):
        dims = extents(A)
        counts = geo.counts(dims, DynOps)
        shared = K.alloc_shared((tile, geo.pitch), dtype)
        tid = K.thread_id()
        lane, warp = IrOps.and_(tid, WARP - 1), IrOps.shr(tid, 5)
        loads = [geo.load_slot(lane, warp, s) for s in range(geo.steps)]
        stores = [geo.store_slot(lane, warp, s) for s in range(geo.steps)]
        for t in K.range_(K.block_id(), product(counts), K.grid_dim()):
            src = geo.origin(t, counts, DynOps)
            last_k = DynOps.min(dims[k] - src[k], tile) - 1
            last_l = DynOps.min(dims[l] - src[l], tile) - 1
            values = []
            for i, j in loads:   # every load first: all of them in flight
                at = list(src)
                at[k] = src[k] + DynOps.min(i, last_k)
                at[l] = src[l] + DynOps.min(j, last_l)
                values.append(A[tuple(at)])
            for (i, j), v in zip(loads, values):
                shared[i, j] = v
            K.cta_sync()
            for i, j in stores:
                out = [src[a] for a in perm]
                out[r - 1] = out[r - 1] + i
                out[q] = out[q] + j
                with K.if_(_and(i <= last_k, j <= last_l)):
                    B[tuple(out)] = shared[i, j]
            K.cta_sync()   # the tile is read before the next one lands

    params = [("A", K.Tensor((None,) * r, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * r, dtype))]
    kdef = K.KernelDef(body, grid=grid, block=threads, params=params, name=name)
    kdef.geometry = geo
    return kdef
