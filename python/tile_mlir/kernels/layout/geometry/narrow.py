"""The geometry of the narrow transpose (permute_narrow): which pixels a
tile holds, where each 16-byte vector of a tile lies in shared memory, and
how a thread regroups them. Written over an `ops` object, so the kernel
(IR values) and its CPU model (ints, layout/model.py) run the same maps; no
MLIR here, so the host can size a launch without it."""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from ..limits import STAGE_ALIGN, STRIDE_ALIGN

DIRECTIONS = ("interleave", "deinterleave")


def _align(nbytes: int, to: int) -> int:
    return -(-nbytes // to) * to


@dataclass(frozen=True)
class NarrowGeometry:
    """Tiles of `rows` rows of the interleaved view (rows V pixels) at one
    batch entry, numbered batch-major. The planar side (B, n, L) is loaded
    or stored as rows V / `width` boxes of n x `width` side by side, or,
    with `split`, seen as (B, n, L / width, width) (width dividing L) and
    moved as one box of n x (rows V / width) x width: each channel's
    pixels contiguous in shared memory either way. The interleaved side is
    one box of `rows` pixel groups (16 n contiguous bytes each) either way,
    its rows `group` pixel groups long."""
    elem: int
    n: int
    rows: int
    width: int
    split: bool = False
    # The interleaved side is seen in rows of `group` pixel groups, (B, L /
    # (group V), group V n): box rows of 16 n group bytes.
    group: int = 1

    @classmethod
    def of_params(cls, p: dict) -> "NarrowGeometry":
        """The geometry build_permute_narrow's params `p` give its kernel
        (for its CPU model and the host's launch size)."""
        return cls(int(p["elem"]), int(p["n"]), int(p["rows"]), int(p["width"]),
                   bool(p.get("split", False)), int(p.get("group", 1)))

    @property
    def vec(self) -> int:
        return STRIDE_ALIGN // self.elem

    @property
    def pixels(self) -> int:
        return self.rows * self.vec

    @property
    def nb(self) -> int:
        return 1 if self.split else self.pixels // self.width

    @property
    def planar_box(self) -> tuple:
        if self.split:
            return (1, self.n, self.pixels // self.width, self.width)
        return (1, self.n, self.width)

    def planar_coords(self, b, x0, k: int, ops) -> tuple:
        """Coordinates of planar box k of the tile at pixel x0."""
        if self.split:
            return (b, 0, ops.div(x0, self.width), 0)
        return (b, 0, x0 + k * self.width)

    @property
    def interleaved_box(self) -> tuple:
        return (1, self.rows // self.group, self.group * self.vec * self.n)

    def interleaved_coords(self, b, x0, ops) -> tuple:
        return (b, ops.div(x0, self.group * self.vec), 0)

    @property
    def planar_box_bytes(self) -> int:
        """Bytes from one planar box's image to the next (128-aligned)."""
        cols = self.pixels if self.split else self.width
        return _align(self.n * cols * self.elem, 128)

    @property
    def interleaved_offset(self) -> int:
        return self.nb * self.planar_box_bytes

    @property
    def stage_bytes(self) -> int:
        return _align(self.interleaved_offset + self.pixels * self.n * self.elem, STAGE_ALIGN)

    def counts(self, planar_dims, ops) -> list:
        """Tiles along (batch, pixels) of the planar side's extents."""
        length = planar_dims[2] * planar_dims[3] if self.split else planar_dims[2]
        return [planar_dims[0], ops.cdiv(length, self.pixels)]

    def origin(self, t, counts, ops) -> tuple:
        """(batch entry, first pixel) of tile t."""
        return ops.div(t, counts[1]), ops.mod(t, counts[1]) * self.pixels

    def planar_offset(self, g, ch, ops):
        """Byte offset in the stage of channel ch's vector of group g."""
        x = g * self.vec
        if self.split:
            return (ch * self.pixels + x) * self.elem
        k, col = ops.div(x, self.width), ops.mod(x, self.width)
        return k * self.planar_box_bytes + (ch * self.width + col) * self.elem

    def interleaved_offset_of(self, g, m: int):
        """Byte offset in the stage of vector m (of n) of group g."""
        return self.interleaved_offset + (g * self.n + m) * STRIDE_ALIGN

    @property
    def turns(self) -> int:
        """d = gcd(n, 8): lane g's vectors on the interleaved side are 16 n
        bytes after lane g - 1's, so in the 8 lanes of one 16-byte access
        phase (8 x 16 bytes = the 32 banks) d lanes would hit each bank
        group. Lane g takes its vectors rotated by rotation(g) < d instead."""
        return gcd(self.n, 8)

    def rotation(self, g, ops):
        """Lane g's turn: its vector m of step m is vector (m + turn) mod n,
        the turn (g div (8 / d)) mod d, so the d lanes of a phase that share
        a bank group (g, g + 8 / d, ...) each take another vector."""
        d = self.turns
        return ops.mod(ops.div(g, 8 // d), d)

    def interleaved_step(self, g, step: int, ops):
        """The vector (of n) that lane g moves at `step` on the interleaved
        side: (step + rotation) mod n (rotation < d <= n)."""
        q = step + self.rotation(g, ops)
        return q if self.turns == 1 else ops.ge_select(q, self.n, -self.n) + q

    def regroup(self, vectors: list, direction: str) -> list:
        """The n vectors (lists of V elements) of the other side: interleave
        takes channel vectors to pixel-group vectors, deinterleave back."""
        n, v = self.n, self.vec
        if direction == "interleave":
            flat = [vectors[e % n][e // n] for e in range(n * v)]
            return [flat[m * v:(m + 1) * v] for m in range(n)]
        flat = [x for vec in vectors for x in vec]
        return [[flat[p * n + ch] for p in range(v)] for ch in range(n)]


def stage_bytes(elem: int, n: int, rows: int, width: int, split: bool = False) -> int:
    """Shared bytes of one stage of the kernel (`group` does not change them)."""
    return NarrowGeometry(elem, n, rows, width, split).stage_bytes

