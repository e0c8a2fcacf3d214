"""The pad kernels' tile geometry (builders/pad.py traces it, the CPU
models run it over ints): `PadGeometry`, the boxes kernel's tiles of B,
and `RowsGeometry`, the rows kernel's tiles of output rows and the boxes
of input rows behind them. Written over an `ops` object
(addressing.IntDynOps or builders.ir.DynOps)."""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import SHARED_ALIGN, STRIDE_ALIGN
from .addressing import boxed_offset, digits


def equal_tile_height(out_rows, box_rows, cdiv):
    """The pad rows kernel's tiles of one height: out_rows split into the
    fewest tiles a box of box_rows allows, evenly (258 rows, a box of 45:
    six tiles of 43). `cdiv` is ceiling division on ints or kernel values."""
    return cdiv(out_rows, cdiv(out_rows, box_rows))


@dataclass(frozen=True)
class PadGeometry:
    """Tiles of `tile[a]` elements along output axis a, row-major."""
    tile: tuple

    def counts(self, out_dims, ops) -> list:
        return [d if t == 1 else ops.cdiv(d, t) for d, t in zip(out_dims, self.tile)]

    def origin(self, t, counts, ops) -> tuple:
        u = digits(t, counts, ops)
        return tuple(x if t == 1 else x * t for x, t in zip(u, self.tile))


@dataclass(frozen=True)
class RowsGeometry:
    """build_pad_rows: a tile is `rows` output rows (axis rank-2) by
    `columns` output columns, at one position of the outer axes; the
    input behind it is loaded as `nb` boxes of `rows` x `wbox` elements,
    the first at the 16-byte aligned column at or before the shifted
    start (`delta` elements before it). `equal`: the tiles along the rows
    are of one height, at most `rows` (the box's), chosen at run time from
    the output's rows (258 rows in boxes of 44: six tiles of 43), so no
    tile is a sliver; the box's rows past the tile's are loaded, unused."""
    rank: int
    elem: int
    wbox: int
    nb: int
    rows: int
    equal: bool = False

    @classmethod
    def of_params(cls, p: dict, rank: int, elem: int) -> "RowsGeometry":
        """The geometry build_pad_rows' params `p` give its kernel on
        tensors of `rank` axes of `elem`-byte elements."""
        return cls(int(rank), int(elem), int(p["wbox"]), int(p["nb"]), int(p["rows"]),
                   bool(p.get("equal", False)))

    @property
    def vec(self) -> int:
        return STRIDE_ALIGN // self.elem

    @property
    def columns(self) -> int:
        return self.nb * self.wbox - self.vec

    @property
    def box_bytes(self) -> int:
        """Bytes from one box's image to the next (128-byte aligned)."""
        return -(-self.rows * self.wbox * self.elem // SHARED_ALIGN) * SHARED_ALIGN

    def counts(self, out_dims, ops) -> list:
        return list(out_dims[:-2]) + [ops.cdiv(out_dims[-2], self.rows),
                                      ops.cdiv(out_dims[-1], self.columns)]

    def height(self, out_rows, ops):
        """Output rows per tile: `rows`, or with `equal` the height that
        splits out_rows into as few tiles as `rows` gives, evenly."""
        return equal_tile_height(out_rows, self.rows, ops.cdiv) if self.equal else self.rows

    def origin(self, t, counts, ops, height) -> tuple:
        """(outer output coords, first output row, first output column) of
        tile t, whose tiles are `height` rows (self.height)."""
        u = digits(t, counts, ops)
        return tuple(u[:-2]), u[-2] * height, u[-1] * self.columns

    def load_start(self, c0, left, ops):
        """(aligned input column of box 0, delta) for output column c0."""
        start = c0 - left
        aligned = ops.and_(start, -self.vec)
        return aligned, start - aligned

    def shared_offset(self, row, s, ops):
        """Byte offset in the stage of element s (>= 0) of tile row `row`."""
        return boxed_offset(row, s, self.wbox, self.nb, self.box_bytes, self.elem, ops)
