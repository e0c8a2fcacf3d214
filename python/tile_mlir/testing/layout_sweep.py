"""The cells of the layout sweep (bench/layout_sweep.py): every op class at
every size and element size, as concrete shapes and op arguments.

A cell is one call of permute, pad or unfold on a fresh input of
`shape` (`dtype`), sized to about `size` input bytes. The sizes run from
4 KiB to 4 GiB, the element sizes are 1, 2, 4 and 8 bytes (uint8,
bfloat16, float32, float64). Each class builds its shape from a template
whose axes grow at their own rates; extents are multiples of a unit
(16 bytes of elements where the copy engine needs aligned rows, 1
elsewhere) times a number with a factor 3, 5 or 7 (1 and 2 are taken
too), so no sweep is tuned to powers of two. Where a class cannot reach a
size (its smallest extents hold more than 4 KiB, or an unfold's output
would pass UNFOLD_OUTPUT_CAP), the nearest shape it can take is used and
its real bytes recorded (`in_bytes`). Pure Python: the GPU script
imports torch, this module does not, so the recipes of every cell are
listed where MLIR is (layout_recipes/sweep.py).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from functools import cache

from ..errors import TileUsageError
from ..kernels.layout.plan.common import contiguous_strides
from ..kernels.layout.plan.pad import normalize_pad
from ..kernels.layout.plan.unfold import unfold_spec

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
SIZES = (4 * KIB, 64 * KIB, MIB, 16 * MIB, 256 * MIB, 4 * GIB)
SIZE_NAMES = {4 * KIB: "4K", 64 * KIB: "64K", MIB: "1M", 16 * MIB: "16M", 256 * MIB: "256M",
              4 * GIB: "4G"}
DTYPES = {1: "uint8", 2: "bfloat16", 4: "float32", 8: "float64"}
ELEMS = tuple(DTYPES)
OPS = ("permute", "pad", "unfold")
# An unfold's output is 2-9x its input: capped so that the output, torch's
# result and the channels-last reorder's intermediate fit one 80 GB card
# together, and a 4 GiB cell's slow torch op times in about a second.
UNFOLD_OUTPUT_CAP = 8 * GIB
# Cells that move at least this many bytes (read + written) are also
# compared with torch copy_ of the same bytes.
COPY_GOAL_BYTES = 64 * MIB
ALIGN_BYTES = 16   # the copy engine's stride alignment
QUICK_SIZES = (64 * KIB, 16 * MIB)
QUICK_ELEMS = (2,)


def _smooth(limit: int) -> list:
    """1, 2 and the numbers up to `limit` whose prime factors are 2, 3, 5 and
    7 with at least one of 3, 5, 7 (so never a power of two past 2)."""
    out = {1, 2}
    p2 = 1
    while p2 <= limit:
        p3 = p2
        while p3 <= limit:
            p5 = p3
            while p5 <= limit:
                p7 = p5
                while p7 <= limit:
                    if p7 & (p7 - 1):   # not a power of two
                        out.add(p7)
                    p7 *= 7
                p5 *= 5
            p3 *= 3
        p2 *= 2
    return sorted(out)


SMOOTH = _smooth(1 << 34)
ODD_SMOOTH = [m for m in SMOOTH if m % 2]


@dataclass(frozen=True)
class Axis:
    """One extent of a class's template: `base` at scale 1, growing as
    scale ** weight (0: fixed), a multiple of its unit ("16B": 16 bytes of
    elements; else that many elements), odd if `odd`, at least `least`
    units."""
    base: int
    weight: float = 1.0
    unit: object = 1
    odd: bool = False
    least: int = 1

    def units(self, elem: int) -> int:
        """The unit in elements for `elem`-byte elements."""
        return max(1, ALIGN_BYTES // elem) if self.unit == "16B" else int(self.unit)

    def extent(self, scale: float, elem: int) -> int:
        """The extent at `scale`: base * scale ** weight rounded (in log) to
        the nearest multiple allowed."""
        unit = self.units(elem)
        if self.weight == 0:
            return self.base
        want = max(self.base * scale ** self.weight / unit, self.least)
        choices = ODD_SMOOTH if self.odd else SMOOTH
        i = bisect.bisect_left(choices, want)
        near = [m for m in choices[max(0, i - 1):i + 1] if m >= self.least]
        if not near:
            near = [m for m in choices if m >= self.least][:1]
        return unit * min(near, key=lambda m: abs(math.log(m / want)))


@dataclass(frozen=True)
class SweepClass:
    """An op class: its op, name, shape template (axes in the input's
    logical order; a channels_last input is an NCHW shape stored N, H, W,
    C) and op arguments (permute: dims; pad: pad; unfold: kernel_size,
    padding, stride, dilation, layout)."""
    op: str
    name: str
    axes: tuple
    args: dict = field(default_factory=dict, hash=False)
    channels_last: bool = False


A16 = "16B"


def _permute(name, dims, *axes) -> SweepClass:
    return SweepClass("permute", name, tuple(axes), {"dims": tuple(dims)})


def _pad(name, pad, *axes, channels_last=False) -> SweepClass:
    return SweepClass("pad", name, tuple(axes), {"pad": tuple(pad)}, channels_last)


def _unfold(name, layout, padding, stride, dilation, *axes) -> SweepClass:
    return SweepClass("unfold", name, tuple(axes),
                      {"kernel_size": 3, "padding": padding, "stride": stride,
                       "dilation": dilation, "layout": layout})


# NCHW images for pad and unfold: N and C grow slowly, H and W fast; W in
# whole 16-byte rows (aligned rows: the engine's kernels, not the SIMT one).
_NCHW = (Axis(2, 0.25), Axis(24, 0.5), Axis(56, 1.0, least=8), Axis(112, 1.0, A16, least=2))
_NHWC = (Axis(2, 0.25), Axis(56, 1.0, least=8), Axis(56, 1.0, least=8), Axis(64, 0.5, A16))

CLASSES = (
    _permute("transpose (1, 0)", (1, 0), Axis(768, 1.0, A16), Axis(640, 1.0, A16)),
    _permute("(0, 2, 1)", (0, 2, 1), Axis(3, 0.3), Axis(336, 1.0, A16), Axis(400, 1.0, A16)),
    _permute("(1, 0, 2)", (1, 0, 2), Axis(96, 1.0), Axis(21, 0.5), Axis(240, 0.5, A16)),
    _permute("(2, 1, 0)", (2, 1, 0), Axis(112, 1.0, A16), Axis(5, 0.3), Axis(720, 1.0, A16)),
    _permute("NCHW->NHWC (0, 2, 3, 1)", (0, 2, 3, 1),
             Axis(2, 0.3), Axis(48, 0.5, A16), Axis(56, 1.0), Axis(112, 1.0, A16)),
    _permute("NHWC->NCHW (0, 3, 1, 2)", (0, 3, 1, 2),
             Axis(2, 0.3), Axis(56, 1.0), Axis(112, 1.0, A16), Axis(48, 0.5, A16)),
    _permute("(0, 2, 1, 3)", (0, 2, 1, 3),
             Axis(2, 0.3), Axis(384, 1.0), Axis(12, 0.3), Axis(80, 0.2, A16)),
    _permute("(0, 4, 1, 2, 3)", (0, 4, 1, 2, 3), Axis(2, 0.2), Axis(5, 0.3), Axis(12, 0.5),
             Axis(48, 0.5, A16), Axis(80, 0.5, A16)),
    _permute("(4, 3, 2, 1, 0)", (4, 3, 2, 1, 0), Axis(48, 0.5, A16), Axis(5, 0.3),
             Axis(6, 0.3), Axis(28, 0.5), Axis(80, 0.5, A16)),
    _permute("narrow NCHW->NHWC C=3", (0, 2, 3, 1),
             Axis(2, 0.3), Axis(3, 0.0), Axis(224, 1.0), Axis(224, 1.0, A16)),
    # Odd extents: no row is a multiple of 16 bytes at any element size.
    _permute("unaligned transpose (1, 0)", (1, 0), Axis(1001, 1.0, odd=True),
             Axis(771, 1.0, odd=True)),
    _pad("(1, 1, 1, 1)", (1, 1, 1, 1), *_NCHW),
    _pad("W (0, 8)", (0, 8), *_NCHW),
    _pad("crop (-1, -1, -2, -2)", (-1, -1, -2, -2), *_NCHW),
    _pad("mixed (2, -1, -1, 3)", (2, -1, -1, 3), *_NCHW),
    _pad("channels_last (1, 1, 1, 1)", (1, 1, 1, 1), Axis(2, 0.25), Axis(48, 0.5, A16),
         Axis(56, 1.0, least=8), Axis(56, 1.0, least=8), channels_last=True),
    _unfold("NCHW k3 p1", "NCHW", 1, 1, 1, *_NCHW),
    _unfold("NCHW k3 s2 d2", "NCHW", 0, 2, 2, *_NCHW),
    _unfold("NHWC k3 p1", "NHWC", 1, 1, 1, *_NHWC),
    _unfold("NHWC k3 s2 d2", "NHWC", 0, 2, 2, *_NHWC),
)
CLASS_NAMES = tuple(c.name for c in CLASSES)


@dataclass
class Cell:
    """One call of the sweep: op class, nominal `size` (input bytes),
    element size, the input `shape` (logical order; `channels_last`: stored
    N, H, W, C), the op's arguments, its result's shape, the real input
    bytes and the bytes it moves (read + written: permute twice the input;
    pad the input it keeps plus the output; unfold input plus output)."""
    op: str
    cls: str
    size: int
    elem: int
    shape: tuple
    args: dict
    out_shape: tuple
    in_bytes: int
    moved: int
    channels_last: bool = False

    @property
    def dtype(self) -> str:
        """The torch dtype name of the cell's input."""
        return DTYPES[self.elem]

    def input_strides(self) -> tuple:
        """The strides of the cell's input: contiguous, or (channels_last)
        those of an NCHW view of a contiguous (N, H, W, C) tensor."""
        if not self.channels_last:
            return contiguous_strides(tuple(self.shape))
        n, c, h, w = self.shape
        sn, sh, sw, sc = contiguous_strides((n, h, w, c))
        return (sn, sc, sh, sw)

    @property
    def key(self) -> str:
        """The cell's identity in a sweep's JSON."""
        return f"{self.op}|{self.cls}|{SIZE_NAMES[self.size]}|{self.elem}"

    def to_json(self) -> dict:
        """The cell as plain JSON values."""
        return {"key": self.key, "op": self.op, "class": self.cls, "size": self.size,
                "size_name": SIZE_NAMES[self.size], "elem": self.elem, "dtype": self.dtype,
                "shape": list(self.shape), "args": {k: list(v) if isinstance(v, tuple) else v
                                                    for k, v in self.args.items()},
                "out_shape": list(self.out_shape), "in_bytes": self.in_bytes,
                "moved": self.moved, "channels_last": self.channels_last}


def out_shape(cls: SweepClass, shape: tuple) -> tuple:
    """The result's shape of `cls` on an input of `shape`."""
    if cls.op == "permute":
        return tuple(shape[d] for d in cls.args["dims"])
    if cls.op == "pad":
        lefts, rights = normalize_pad(cls.args["pad"], len(shape))
        return tuple(d + l + r for d, l, r in zip(shape, lefts, rights))
    a = cls.args
    return unfold_spec(shape, a["kernel_size"], a["padding"], a["stride"], a["dilation"],
                       a["layout"]).out_shape()


def moved_bytes(cls: SweepClass, shape: tuple, elem: int) -> int:
    """Bytes read plus bytes written by one call (see Cell)."""
    n_in = math.prod(shape)
    n_out = math.prod(out_shape(cls, shape))
    if cls.op == "permute":
        return 2 * n_in * elem
    if cls.op == "pad":
        lefts, rights = normalize_pad(cls.args["pad"], len(shape))
        kept = math.prod(d + min(l, 0) + min(r, 0) for d, l, r in zip(shape, lefts, rights))
        return (kept + n_out) * elem
    return (n_in + n_out) * elem


def _valid(cls: SweepClass, shape: tuple, elem: int) -> bool:
    """Whether the class can run on `shape`: a pad leaves every axis non-empty,
    an unfold has output positions and its output stays under the cap."""
    if cls.op == "permute":
        return True
    try:
        out = out_shape(cls, shape)
    except TileUsageError:   # unfold_spec's [unfold-spec]: no output positions
        return False
    if min(out) < 1:
        return False
    return cls.op != "unfold" or math.prod(out) * elem <= UNFOLD_OUTPUT_CAP


# A shape is searched over scales that put the template's product within
# SEARCH_OCTAVES of the size, in steps of 1/STEPS of an octave.
SEARCH_OCTAVES = 4
STEPS = 64


@cache
def fit_shape(cls: SweepClass, size: int, elem: int) -> tuple:
    """The class's valid shape whose input bytes are nearest `size` (in log)."""
    want = size / elem
    growth = sum(axis.weight for axis in cls.axes)
    center = (want / math.prod(axis.base for axis in cls.axes)) ** (1 / growth)
    best, best_err, seen = None, None, set()
    for k in range(-SEARCH_OCTAVES * STEPS, SEARCH_OCTAVES * STEPS + 1):
        scale = center * 2.0 ** (k / (STEPS * growth))
        shape = tuple(axis.extent(scale, elem) for axis in cls.axes)
        if shape in seen:
            continue
        seen.add(shape)
        err = abs(math.log(math.prod(shape) / want))
        if (best_err is None or err < best_err - 1e-12) and _valid(cls, shape, elem):
            best, best_err = shape, err
    if best is None:   # a class whose template cannot be made valid: a bug here
        raise AssertionError(f"sweep class {cls.name!r}: no valid shape for "
                             f"{size} bytes of {elem}-byte elements")
    return best


def make_cell(cls: SweepClass, size: int, elem: int) -> Cell:
    """The cell of `cls` at `size` input bytes and `elem`-byte elements."""
    shape = fit_shape(cls, size, elem)
    return Cell(cls.op, cls.name, size, elem, shape, dict(cls.args), out_shape(cls, shape),
                math.prod(shape) * elem, moved_bytes(cls, shape, elem), cls.channels_last)


def sweep_cells(ops=None, classes=None, sizes=None, elems=None) -> list:
    """The sweep's cells, filtered (None: all): ops by name, classes by a
    word of their name, sizes in bytes, elems in bytes. Ordered by class,
    element size, then size from the largest (the Triton peers are chosen
    on the largest cell of each class and element size)."""
    out = []
    for cls in CLASSES:
        if ops is not None and cls.op not in ops:
            continue
        if classes is not None and not any(word in cls.name for word in classes):
            continue
        for elem in ELEMS:
            if elems is not None and elem not in elems:
                continue
            for size in sorted(SIZES, reverse=True):
                if sizes is None or size in sizes:
                    out.append(make_cell(cls, size, elem))
    return out


def parse_size(text: str) -> int:
    """A size of SIZE_NAMES ("4K", "16M", "4G"; case-insensitive) in bytes;
    ValueError for another."""
    by_name = {name.lower(): size for size, name in SIZE_NAMES.items()}
    try:
        return by_name[text.strip().lower()]
    except KeyError:
        raise ValueError(f"size {text!r}: one of {', '.join(SIZE_NAMES.values())}") from None


# A model of the sweep's GPU time, for the estimate the script prints:
# each implementation's timing is about six batches of at least
# BATCH_SECONDS or three calls, after a few single calls; torch's ops run
# at about TORCH_RATE (the slowest tables: 0.12-0.6 TB/s), the others at
# FAST_RATE; every Triton kernel compiled costs TRITON_COMPILE_SECONDS.
BATCH_SECONDS = 2e-3
TORCH_RATE = 0.3e12
FAST_RATE = 3e12
TRITON_COMPILE_SECONDS = 0.3
CELL_SECONDS = 0.03   # input, reference, comparisons, freeing


def _impl_seconds(moved: int, rate: float) -> float:
    t = moved / rate
    return 6 * max(BATCH_SECONDS, 3 * t) + 5 * t


def estimate_seconds(cells, shortlist: int = 4) -> float:
    """Estimated device seconds of a sweep of `cells`: torch, Triton's
    winner, ours and (64 MiB and up) copy_ timed each cell; `shortlist`
    Triton variants compiled and timed once on the first cell of each class
    and element size, the winner compiled again for about half the others
    (other sizes specialize the kernel on other divisibilities)."""
    total, firsts = 0.0, set()
    for c in cells:
        total += CELL_SECONDS + _impl_seconds(c.moved, TORCH_RATE)
        total += 2 * _impl_seconds(c.moved, FAST_RATE)
        if c.moved >= COPY_GOAL_BYTES:
            total += _impl_seconds(c.moved, FAST_RATE)
        group = (c.cls, c.elem)
        if group not in firsts:
            firsts.add(group)
            total += shortlist * (TRITON_COMPILE_SECONDS + 2 * _impl_seconds(c.moved,
                                                                             FAST_RATE) / 6)
        else:
            total += TRITON_COMPILE_SECONDS / 2
    return total
