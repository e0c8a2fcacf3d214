"""The vector kernels' geometry (builders/pad_vectors.py,
builders/permute_vectors.py). What they share (`VectorTiles`): a tile is
`threads * slots` consecutive 16-byte vectors of the output B, thread
`tid` moving vectors tid + s * threads of it (consecutive lanes on
consecutive vectors), and a vector's coordinates are the digits of its
index over B's extents with the last counted in vectors; then where each
kernel's vector comes from (`VectorPadGeometry`, `VectorPermuteGeometry`).
No MLIR here: the kernels trace it over IR values, their CPU models
(model.py) over NumPy arrays."""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import ELEM_DTYPES, MAX_RANK, MAX_THREADS, STRIDE_ALIGN, VECTOR_TILE_LIMIT


class VectorTiles:
    """The tile walk of a geometry with `elem`, `threads` and `slots`."""
    elem: int
    threads: int
    slots: int

    def check_tiles(self, more: str = "") -> None:
        """Raises ValueError naming an element size, thread count or tile
        the kernels cannot take (and `more`, a subclass's own rule, where
        it is not empty)."""
        if self.elem not in ELEM_DTYPES:
            raise ValueError(f"element size {self.elem}: one of {tuple(ELEM_DTYPES)}")
        pow2 = self.threads > 0 and self.threads & (self.threads - 1) == 0
        if not (pow2 and 32 <= self.threads <= MAX_THREADS) or self.slots < 1 or \
                self.tile > VECTOR_TILE_LIMIT or more:
            raise ValueError(f"threads {self.threads} (a power of two, 32 to {MAX_THREADS}), slots "
                             f"{self.slots} (at least one; threads * slots at most "
                             f"{VECTOR_TILE_LIMIT})" + (f", {more}" if more else ""))

    @property
    def vec(self) -> int:
        return STRIDE_ALIGN // self.elem

    @property
    def tile(self) -> int:
        return self.threads * self.slots

    def radices(self, out, ops) -> list:
        """B's extents with the last counted in vectors."""
        return list(out[:-1]) + [ops.div(out[-1], self.vec)]

    def vector(self, tile, tid, s):
        """The index of the vector thread `tid` moves in slot s of `tile`."""
        return tile * self.tile + s * self.threads + tid

    def coords(self, v, radices, ops) -> list:
        """B's element coordinates of vector v (one division an axis after
        the first)."""
        out, rest = [], v
        for radix in reversed(radices[1:]):
            out.append(ops.mod(rest, radix))
            rest = ops.div(rest, radix)
        out = [rest] + list(reversed(out))
        out[-1] = out[-1] * self.vec
        return out


@dataclass(frozen=True)
class VectorPadGeometry(VectorTiles):
    """Where vector v of B comes from (module docstring); `ops` does the
    arithmetic: builders.ir.IrU32Ops in the kernel, model.U32Ops in its
    CPU model."""
    elem: int
    rank: int
    threads: int = 256
    slots: int = 1

    def __post_init__(self):
        self.check_tiles("" if 1 <= self.rank <= MAX_RANK else
                         f"rank {self.rank} (1 to {MAX_RANK})")

    def spot(self, v, radices, dims, lefts, ops) -> tuple:
        """(B's element coordinates of vector v, whether its source lies in
        A, the source clamped to A's edge: always a vector inside A)."""
        coords = self.coords(v, radices, ops)
        src = [ops.sub(o, l) for o, l in zip(coords, lefts)]
        inside = ops.all([ops.ult(c, d) for c, d in zip(src, dims)])
        lasts = [d - 1 for d in dims[:-1]] + [dims[-1] - self.vec]
        return coords, inside, [ops.min(c, e) for c, e in zip(src, lasts)]


@dataclass(frozen=True)
class VectorPermuteGeometry(VectorTiles):
    """Where vector v of B comes from (module docstring); `ops` does the
    arithmetic: builders.ir.IrU32Ops in the kernel, model.U32Ops in its
    CPU model."""
    elem: int
    perm: tuple
    threads: int = 256
    slots: int = 1

    def __post_init__(self):
        r = len(self.perm)
        keeps = sorted(self.perm) == list(range(r)) and 2 <= r <= MAX_RANK and \
            self.perm[-1] == r - 1
        self.check_tiles("" if keeps else f"perm {self.perm} (a permutation of rank 2..5 "
                                          f"that keeps the innermost axis)")

    def spot(self, v, radices, ops) -> tuple:
        """(B's element coordinates of vector v, A's of its source)."""
        coords = self.coords(v, radices, ops)
        src = [None] * len(self.perm)
        for k, a in enumerate(self.perm):
            src[a] = coords[k]
        return coords, src
