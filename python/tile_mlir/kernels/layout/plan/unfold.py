"""Planning of unfold: a call's spec (UnfoldSpec: image, kernel, padding,
stride, dilation, layout) and the kernel that moves it (UnfoldPlan: im2col,
taps, rows or simt) with that kernel's static parameters."""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field

from .... import contract
from ....errors import TileUsageError
from ..geometry.taps import TapsGeometry
from ..limits import BOX_MAX, SHARED_ALIGN, STRIDE_ALIGN
from .common import check_elem, coords_reach, fitted_boxes, pow2_floor

LAYOUTS = ("NCHW", "NHWC")


def _pair(name: str, value, minimum: int) -> tuple:
    items = value
    if not isinstance(value, bool):   # a bool is rejected below, as torch does
        try:
            items = (operator.index(value),) * 2
        except TypeError:   # a pair (an array of two has __index__, which raises)
            pass
    if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
        items = None
    else:
        items = tuple(items)
    if items is None or len(items) != 2 or not all(
            hasattr(v, "__index__") and not isinstance(v, bool) and v.__index__() >= minimum
            for v in items):
        raise TileUsageError("unfold-spec", f"{name} is an int or a pair of ints "
                             f">= {minimum}, got {value!r}")
    return tuple(v.__index__() for v in items)


@dataclass(frozen=True)
class UnfoldSpec:
    """One unfold: image (N, C, H, W) in either layout, kernel (kh, kw),
    padding, stride and dilation pairs, output extents (oh, ow)."""
    n: int
    c: int
    h: int
    w: int
    kernel: tuple
    padding: tuple
    stride: tuple
    dilation: tuple
    layout: str

    @property
    def out_hw(self) -> tuple:
        return tuple((size + 2 * p - d * (k - 1) - 1) // s + 1 for size, k, p, s, d in zip(
            (self.h, self.w), self.kernel, self.padding, self.stride, self.dilation))

    @property
    def taps(self) -> int:
        return self.kernel[0] * self.kernel[1]

    @property
    def blocks(self) -> int:
        return self.out_hw[0] * self.out_hw[1]

    def out_shape(self) -> tuple:
        """(N, C * kh * kw, L) for NCHW (F.unfold), (N, L, kh * kw * C) for NHWC
        (columns ordered (i, j, c): the GEMM operand of a channels-last
        convolution)."""
        if self.layout == "NCHW":
            return (self.n, self.c * self.taps, self.blocks)
        return (self.n, self.blocks, self.taps * self.c)

    def static(self) -> dict:
        return {"kernel": list(self.kernel), "padding": list(self.padding),
                "stride": list(self.stride), "dilation": list(self.dilation)}


def unfold_spec(shape, kernel_size, padding=0, stride=1, dilation=1,
                layout: str = "NCHW") -> UnfoldSpec:
    if layout not in LAYOUTS:
        raise TileUsageError("unfold-spec", f"layout {layout!r}: 'NCHW' or 'NHWC'")
    if len(shape) not in (3, 4):
        raise TileUsageError("unfold-spec", f"unfold takes a 4-D batch or a 3-D image "
                             f"({layout} or {layout[1:]}), got shape {tuple(shape)}")
    dims = tuple(shape) if len(shape) == 4 else (1,) + tuple(shape)
    if layout == "NCHW":
        n, c, h, w = dims
    else:
        n, h, w, c = dims
    if min(c, h, w) < 1:
        raise TileUsageError("unfold-spec", f"unfold needs non-zero channels, height and "
                             f"width (only a batch may be empty), got {layout} shape "
                             f"{tuple(shape)}")
    spec = UnfoldSpec(n, c, h, w, _pair("kernel_size", kernel_size, 1),
                      _pair("padding", padding, 0), _pair("stride", stride, 1),
                      _pair("dilation", dilation, 1), layout)
    if min(spec.out_hw) < 1:
        raise TileUsageError("unfold-spec", f"a {spec.kernel} kernel (dilation "
                             f"{spec.dilation}, padding {spec.padding}) does not fit the "
                             f"{h}x{w} image: no output positions")
    return spec


@dataclass(frozen=True)
class UnfoldPlan:
    """"im2col" (NHWC: im2col loads of pixel columns, tile stores), "taps"
    (NCHW, stride 1: shifted images of the input rows in shared memory, a
    tile store per tap), "rows" (NCHW: boxes of input rows, threads writing
    the shifted windows) or "simt"; `params` the builder's static
    parameters."""
    kind: str
    spec: UnfoldSpec
    params: dict = field(default_factory=dict)


def _im2col_ok(spec: UnfoldSpec, elem: int) -> bool:
    corner = contract.IM2COL_CORNER_RANGES["im2col", 4]
    lo, hi = corner.min, corner.max
    off = contract.IM2COL_OFFSET_RANGES[4]
    for k, p, s, d in zip(spec.kernel, spec.padding, spec.stride, spec.dilation):
        if not (lo <= -p and p - (k - 1) * d <= hi and -p <= hi and
                lo <= p - (k - 1) * d and (k - 1) * d <= off.max and
                s in contract.ELEMENT_STRIDE_RANGE):
            return False
    return (spec.c * elem) % STRIDE_ALIGN == 0


# build_unfold_nchw_taps: a stage of images of at most this many bytes (three
# stages, two CTAs an SM).
TAPS_STAGE_BYTES = 36 * 1024


def _taps_params(spec: UnfoldSpec, elem: int) -> dict | None:
    """The taps kernel's tile for an NCHW unfold with stride 1 whose input
    and output rows are whole 16-byte chunks, or None. Every box is within
    its tensor's extents (`box-within-dim`): the tile no wider than the
    input and output rows, its input rows within H, the halo in boxes no
    wider than the input row (fitted_boxes)."""
    oh, ow = spec.out_hw
    if spec.stride != (1, 1) or (spec.w * elem) % STRIDE_ALIGN or \
            (ow * elem) % STRIDE_ALIGN or oh < 1 or ow < 1:
        return None
    unit = SHARED_ALIGN // elem
    spare = (spec.kernel[0] - 1) * spec.dilation[0]  # input rows beyond the tile's
    # The widest tile whose halo fits, then the most rows (up to 32) whose
    # stage fits.
    for width in range(min(BOX_MAX, ow, spec.w) // unit * unit, 0, -unit):
        probe = TapsGeometry(spec.kernel, spec.padding, spec.dilation, elem, 1, width, 0, 0)
        halo = (0, 0)
        if probe.built:
            halo = fitted_boxes(elem, spec.w, probe.halo_width)
            if halo is None:
                continue
        rows = pow2_floor(max(1, min(oh, 32, spec.h - spare)))
        while rows >= 1 and rows + spare <= spec.h:
            geo = TapsGeometry(spec.kernel, spec.padding, spec.dilation, elem, rows, width,
                               *halo)
            if geo.stage_bytes <= TAPS_STAGE_BYTES:
                return {"rows": rows, "width": width, "hbox": halo[0], "hnb": halo[1],
                        "stages": 3}
            rows //= 2
    return None


def _unfold_reach(spec: UnfoldSpec) -> bool:
    """Whether the copy engine's coordinates reach the views of every
    unfold kernel's tensor maps (tile_mlir.kernels.layout.unfold.run): the image
    and the output as (N * C, H, W) and (N * C, taps, OH, OW) for NCHW,
    (N, H, W, C) and (N * L, taps, C) for NHWC."""
    oh, ow = spec.out_hw
    if spec.layout == "NCHW":
        return coords_reach((spec.n * spec.c, spec.h, spec.w), (spec.taps, oh, ow))
    return coords_reach((spec.n, spec.h, spec.w, spec.c), (spec.n * spec.blocks, spec.taps))


def row_stride(spec: UnfoldSpec) -> int:
    """The element stride along H of the NCHW rows kernel's loads that skips
    the rows no tap reads: gcd of the stride and the dilation along H, where
    the copy engine takes it (up to 8), else 1."""
    g = math.gcd(spec.stride[0], spec.dilation[0])
    return g if g in contract.ELEMENT_STRIDE_RANGE else 1


def plan_unfold(spec: UnfoldSpec, strides_ok: bool, elem: int, grid: int = 132,
                fit: bool = True, taps: bool = True, hstride: bool = False) -> UnfoldPlan:
    """`strides_ok`: the input is dense with its innermost axis contiguous;
    `fit`: NCHW row boxes fitted to the window (fitted_boxes) where they
    can be, else powers of two; `taps`: the taps kernel where it applies;
    `hstride`: the rows kernel loads only the rows its taps read
    (row_stride), so a tile holds more output rows."""
    check_elem(elem)
    base = {"elem": elem, **spec.static()}
    if not _unfold_reach(spec):
        return UnfoldPlan("simt", spec, base)
    if spec.layout == "NHWC":
        if strides_ok and _im2col_ok(spec, elem):
            cb = min(BOX_MAX, pow2_floor(spec.c))
            pixels = max(1, min(BOX_MAX, pow2_floor(spec.n * spec.blocks),
                                pow2_floor(16384 // (cb * elem))))
            return UnfoldPlan("im2col", spec, {**base, "pixels": pixels, "channels": cb,
                                               "stages": 4, "grid": grid})
        return UnfoldPlan("simt", spec, base)
    v = STRIDE_ALIGN // elem
    (kh, kw), (sh, sw), (dh, dw) = spec.kernel, spec.stride, spec.dilation
    oh, ow = spec.out_hw
    tile = _taps_params(spec, elem) if strides_ok and taps else None
    if tile:
        return UnfoldPlan("taps", spec, {**base, **tile})
    if strides_ok and (spec.w * elem) % STRIDE_ALIGN == 0 and spec.w >= v:
        need = (ow - 1) * sw + (kw - 1) * dw + 1 + v
        fitted = fitted_boxes(elem, spec.w, need) if fit else None
        if fitted:
            wbox, nb = fitted
        else:
            wbox = max(v, min(BOX_MAX, pow2_floor(spec.w)))
            nb = max(1, min(4, -(-need // wbox)))
        columns = (nb * wbox - v - (kw - 1) * dw - 1) // sw + 1
        g = row_stride(spec) if hstride else 1
        rows = 0
        r = pow2_floor(min(oh, BOX_MAX))
        while r >= 1:
            held = ((r - 1) * sh + (kh - 1) * dh) // g + 1   # box rows in shared memory
            rin = (held - 1) * g + 1                         # input rows they span
            if rin <= min(BOX_MAX, spec.h) and held * nb * wbox * elem <= 32768:
                rows = r
                break
            r //= 2
        if rows and columns >= 1:
            # A tile no wider than the output row (rounded to 16 bytes): the
            # threads' vector slots are all used.
            width = min(columns, -(-ow // v) * v)
            return UnfoldPlan("rows", spec, {**base, "wbox": wbox, "nb": nb, "rows": rows,
                                             "width": width, "stages": 3, "grid": grid,
                                             **({"hstride": g} if g > 1 else {})})
    return UnfoldPlan("simt", spec, base)
