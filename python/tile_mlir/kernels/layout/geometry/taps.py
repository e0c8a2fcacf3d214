"""The tile of build_unfold_nchw_taps (builders/unfold_taps.py), without
MLIR: the plan sizes it here, the kernel and its CPU model build from it."""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import BOX_MAX, SHARED_ALIGN, STAGE_ALIGN, STRIDE_ALIGN
from .addressing import boxed_offset, digits


def _round(x: int, m: int) -> int:
    return -(-x // m) * m


@dataclass(frozen=True)
class TapsGeometry:
    """The static tile: `rows` output rows by `width` output columns of one
    plane; the halo the threads shift from, as `hnb` boxes of `hbox`
    columns side by side (each box no wider than the input row; hnb 0: not
    sized yet, the plan's probe); and where each column shift's image lies
    in a stage."""
    kernel: tuple
    padding: tuple
    dilation: tuple
    elem: int
    rows: int
    width: int
    hbox: int = 0
    hnb: int = 0

    @classmethod
    def of_params(cls, p: dict, elem: int) -> "TapsGeometry":
        """The geometry build_unfold_nchw_taps' params `p` give its kernel
        on `elem`-byte elements."""
        return cls(tuple(p["kernel"]), tuple(p["padding"]), tuple(p["dilation"]), int(elem),
                   int(p["rows"]), int(p["width"]), int(p.get("hbox", 0)), int(p.get("hnb", 0)))

    def __post_init__(self):
        if (self.width * self.elem) % SHARED_ALIGN or not 0 < self.width <= BOX_MAX:
            raise ValueError(f"width {self.width}: a multiple of {SHARED_ALIGN} bytes, "
                             f"at most {BOX_MAX} elements")
        if self.rows_in > BOX_MAX:
            raise ValueError(f"{self.rows_in} input rows a tile: at most {BOX_MAX}")
        if self.built and self.hnb and (self.hbox % self.vec or
                                        not 0 < self.hbox <= BOX_MAX or
                                        self.hbox * self.hnb < self.halo_width):
            raise ValueError(f"a halo of {self.halo_width} columns in {self.hnb} boxes of "
                             f"{self.hbox}")

    @property
    def vec(self) -> int:
        return STRIDE_ALIGN // self.elem

    def counts(self, planes, oh, ow, ops) -> list:
        """Tiles along the planes, the output rows and the output columns."""
        return [planes, ops.cdiv(oh, self.rows), ops.cdiv(ow, self.width)]

    def origin(self, t, counts, ops) -> tuple:
        """(plane, first output row, first output column) of tile t."""
        p, rb, cb = digits(t, counts, ops)
        return p, rb * self.rows, cb * self.width

    @property
    def rows_in(self) -> int:
        return self.rows + (self.kernel[0] - 1) * self.dilation[0]

    @property
    def shifts(self) -> list:
        """s_j for each kernel column j: output column x reads input column
        x + s_j."""
        return [j * self.dilation[1] - self.padding[1] for j in range(self.kernel[1])]

    @property
    def built(self) -> list:
        """The kernel columns whose shift is not whole 16-byte chunks: the
        threads make their images."""
        return [j for j, s in enumerate(self.shifts) if s % self.vec]

    @property
    def halo_start(self) -> int:
        """The halo's first column, relative to the tile's first column."""
        return min(self.shifts[j] for j in self.built) // self.vec * self.vec \
            if self.built else 0

    @property
    def halo_width(self) -> int:
        """Columns the halo must hold: a row's last chunk also reads the
        chunk after its shifted start."""
        if not self.built:
            return 0
        reach = max(self.shifts[j] for j in self.built) - self.halo_start
        return _round(self.width + reach, self.vec)

    @property
    def halo_box_bytes(self) -> int:
        return _round(self.rows_in * self.hbox * self.elem, SHARED_ALIGN)

    @property
    def halo_bytes(self) -> int:
        return self.hnb * self.halo_box_bytes if self.built else 0

    def halo_offset(self, row, col, ops):
        """Byte offset in the halo of its column `col` (>= 0) of row `row`."""
        return boxed_offset(row, col, self.hbox, self.hnb, self.halo_box_bytes, self.elem,
                            ops)

    @property
    def image_bytes(self) -> int:
        return self.rows_in * self.width * self.elem

    def image_offset(self, j: int) -> int:
        """Byte offset in a stage of kernel column j's image (after the halo)."""
        return self.halo_bytes + j * self.image_bytes

    @property
    def stage_bytes(self) -> int:
        return _round(self.image_offset(len(self.shifts)), STAGE_ALIGN)
