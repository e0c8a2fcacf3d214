"""The unfold kernels' tile geometry (builders/unfold.py and
builders/unfold_taps.py trace it, the CPU models run it over ints): the
window (`Conv`), the im2col kernel's tiles (`Im2colGeometry`) and the
rows kernel's tiles with the boxes of input rows behind them
(`RowsUnfoldGeometry`). Written over an `ops` object
(addressing.IntDynOps or builders.ir.DynOps)."""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import SHARED_ALIGN, STRIDE_ALIGN
from .addressing import boxed_offset, digits


@dataclass(frozen=True)
class Conv:
    """The static window: kernel, padding, stride, dilation as (h, w) pairs."""
    kernel: tuple
    padding: tuple
    stride: tuple
    dilation: tuple

    @staticmethod
    def of(kernel, padding, stride, dilation) -> "Conv":
        return Conv(*(tuple(int(v) for v in x) for x in (kernel, padding, stride, dilation)))

    @staticmethod
    def of_params(p: dict) -> "Conv":
        """The convolution an unfold kernel's params `p` name."""
        return Conv.of(p["kernel"], p["padding"], p["stride"], p["dilation"])

    @property
    def taps(self) -> int:
        return self.kernel[0] * self.kernel[1]

    def out_hw(self, h, w, ops):
        return tuple(ops.div(size + (2 * p - d * (k - 1) - 1), s) + 1 for size, k, p, s, d in
                     zip((h, w), self.kernel, self.padding, self.stride, self.dilation))

    def tap(self, t, ops):
        """(i, j) of tap t (row-major over the kernel)."""
        return ops.div(t, self.kernel[1]), ops.mod(t, self.kernel[1])


@dataclass(frozen=True)
class Im2colGeometry:
    conv: Conv
    pixels: int
    channels: int

    @classmethod
    def of_params(cls, p: dict) -> "Im2colGeometry":
        """The geometry build_unfold_nhwc's params `p` give its kernel."""
        return cls(Conv.of_params(p), int(p["pixels"]), int(p["channels"]))

    def counts(self, n, c, L, ops) -> list:
        return [ops.cdiv(n * L, self.pixels), self.conv.taps, ops.cdiv(c, self.channels)]

    def origin(self, t, counts, ow, L, ops):
        """(im2col coords (n, h, w, c), offsets (i dh, j dw), store coords
        (pixel, tap, c))."""
        pb, tap, cb = digits(t, counts, ops)
        g0 = pb * self.pixels
        n, rem = ops.div(g0, L), ops.mod(g0, L)
        oy, ox = ops.div(rem, ow), ops.mod(rem, ow)
        (sh, sw), (ph, pw), (dh, dw) = self.conv.stride, self.conv.padding, self.conv.dilation
        c0 = cb * self.channels
        i, j = self.conv.tap(tap, ops)
        return (n, oy * sh - ph, ox * sw - pw, c0), (i * dh, j * dw), (g0, tap, c0)

    @property
    def corners(self) -> tuple:
        (kh, kw), (ph, pw), (dh, dw) = self.conv.kernel, self.conv.padding, self.conv.dilation
        return (-ph, -pw), (ph - (kh - 1) * dh, pw - (kw - 1) * dw)


@dataclass(frozen=True)
class RowsUnfoldGeometry:
    """build_unfold_nchw: tiles of one plane by `rows` output rows by
    `columns` output columns; the input rows behind them are `rows_in`
    rows of nb boxes of wbox elements, box 0 at the aligned column at or
    before the first column the tile reads (`delta` elements before it).
    `hstride`: the loads' element stride along H (a divisor of the
    stride and the dilation along H): box row r is input row r hstride
    after the tile's first, so the rows no tap reads are not loaded."""
    conv: Conv
    elem: int
    wbox: int
    nb: int
    rows: int
    width: int = 0    # output columns per tile; 0: all the boxes hold
    hstride: int = 1

    @classmethod
    def of_params(cls, p: dict, elem: int) -> "RowsUnfoldGeometry":
        """The geometry build_unfold_nchw's params `p` give its kernel on
        `elem`-byte elements."""
        return cls(Conv.of_params(p), int(elem), int(p["wbox"]), int(p["nb"]), int(p["rows"]),
                   int(p.get("width", 0)), int(p.get("hstride", 1)))

    def __post_init__(self):
        (_, _), (sh, _), (dh, _) = self.conv.kernel, self.conv.stride, self.conv.dilation
        if sh % self.hstride or dh % self.hstride:
            raise ValueError(f"hstride {self.hstride} divides neither the stride nor "
                             f"the dilation along H ({sh}, {dh})")

    @property
    def vec(self) -> int:
        return STRIDE_ALIGN // self.elem

    @property
    def rows_in(self) -> int:
        """Box rows held in shared memory (the image of box_rows)."""
        (kh, _), (sh, _), (dh, _) = self.conv.kernel, self.conv.stride, self.conv.dilation
        return ((self.rows - 1) * sh + (kh - 1) * dh) // self.hstride + 1

    @property
    def box_rows(self) -> int:
        """The load box's extent along H (input rows it spans)."""
        return (self.rows_in - 1) * self.hstride + 1

    def box_row(self, rho, i):
        """The box row of output row rho's tap row i."""
        (_, _), (sh, _), (dh, _) = self.conv.kernel, self.conv.stride, self.conv.dilation
        g = self.hstride
        return rho * (sh // g) + i * (dh // g)

    @property
    def columns(self) -> int:
        (_, kw), (_, sw), (_, dw) = self.conv.kernel, self.conv.stride, self.conv.dilation
        held = (self.nb * self.wbox - self.vec - (kw - 1) * dw - 1) // sw + 1
        return min(held, self.width) if self.width else held

    @property
    def box_bytes(self) -> int:
        return -(-self.rows_in * self.wbox * self.elem // SHARED_ALIGN) * SHARED_ALIGN

    def counts(self, planes, oh, ow, ops) -> list:
        return [planes, ops.cdiv(oh, self.rows), ops.cdiv(ow, self.columns)]

    def origin(self, t, counts, ops):
        """(plane, first output row, first output column, input row of box
        row 0, aligned input column of box 0, delta)."""
        p, rb, cb = digits(t, counts, ops)
        oy0, ox0 = rb * self.rows, cb * self.columns
        (sh, sw), (ph, pw) = self.conv.stride, self.conv.padding
        row_in = oy0 * sh - ph
        start = ox0 * sw - pw
        col = ops.and_(start, -self.vec)
        return p, oy0, ox0, row_in, col, start - col

    def shared_offset(self, row, s, ops):
        """Byte offset of element s (>= 0) of box row `row` in the stage."""
        return boxed_offset(row, s, self.wbox, self.nb, self.box_bytes, self.elem, ops)

    @property
    def slots(self) -> int:
        """Per output row segment: one slot per possible 16-byte vector, and
        one for the elements at its ends."""
        return self.columns // self.vec + 2
