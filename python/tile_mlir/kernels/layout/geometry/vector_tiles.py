"""What the vector kernels (pad_vectors, permute_vectors) share: a tile is
`threads * slots` consecutive 16-byte vectors of the output B, thread
`tid` moving vectors tid + s * threads of it (consecutive lanes on
consecutive vectors), and a vector's coordinates are the digits of its
index over B's extents with the last counted in vectors. No MLIR here: the
kernels trace it over IR values, their CPU models (layout_model) over
NumPy arrays."""

from __future__ import annotations

from ..limits import ELEM_DTYPES, STRIDE_ALIGN, VECTOR_TILE_LIMIT


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
        if not (pow2 and 32 <= self.threads <= 1024) or self.slots < 1 or \
                self.tile > VECTOR_TILE_LIMIT or more:
            raise ValueError(f"threads {self.threads} (a power of two, 32 to 1024), slots "
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
