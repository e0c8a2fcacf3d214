"""The shapes the layout ops' GPU tests (test/gpu/test_layout.py) and
benchmark (bench/layout.py) run, in one place: the modules' cache_recipes()
compile exactly the kernels these need, so a machine without MLIR runs them
from a carried compile cache."""

from __future__ import annotations

from ..kernels.layout.plan.common import contiguous_strides, inverse_permutation
from ..kernels.layout.plan.pad import channels_last_order, normalize_pad, reorder_pad

ELEMS = (1, 2, 4, 8)

# (shape, dims): box multiples and not, size-1 axes, ranks 2-5, strides that
# are multiples of 16 bytes for every element size (TMA kernels) and some
# that are not (the SIMT kernel).
PERMUTE_SHAPES = [
    ((208, 144), (1, 0)), ((48, 320), (1, 0)), ((16, 16), (1, 0)), ((1, 64), (1, 0)),
    ((37, 70), (1, 0)), ((64, 48), (0, 1)),
    ((3, 80, 144), (0, 2, 1)), ((80, 3, 144), (1, 0, 2)), ((48, 5, 176), (2, 1, 0)),
    ((16, 48, 32), (1, 2, 0)), ((32, 16, 48), (2, 0, 1)), ((7, 9, 5), (2, 0, 1)),
    ((4, 1, 96), (2, 1, 0)),
    ((2, 48, 16, 80), (0, 2, 3, 1)), ((2, 16, 80, 48), (0, 3, 1, 2)),
    ((3, 40, 6, 32), (0, 2, 1, 3)), ((16, 32, 3, 48), (3, 1, 0, 2)),
    ((5, 6, 7, 16), (1, 0, 3, 2)),
    ((2, 4, 6, 16, 64), (0, 4, 1, 2, 3)), ((2, 2, 16, 32, 48), (4, 3, 2, 1, 0)),
    ((3, 16, 2, 5, 32), (1, 3, 0, 4, 2)), ((2, 3, 4, 5, 6), (4, 2, 0, 1, 3)),
    ((2, 1, 16, 1, 48), (4, 1, 2, 0, 3)),
    # Identities whose (n / L, L) view has many rows: boxes of at most 256.
    ((1025, 4), (0, 1)), ((3, 1000, 6), (0, 1, 2)), ((33, 1, 16, 33), (0, 1, 2, 3)),
]

# The benchmark table (bf16, 2 GiB each), scaled down for the GPU test.
PERMUTE_BENCH = [
    ((64, 4096, 4096), (0, 2, 1)),
    ((4096, 64, 4096), (1, 0, 2)),
    ((512, 512, 4096), (2, 1, 0)),
    ((64, 256, 256, 256), (0, 2, 3, 1)),
    ((64, 256, 256, 256), (0, 3, 1, 2)),
    ((64, 4096, 32, 128), (0, 2, 1, 3)),
    ((32, 64, 32, 64, 256), (0, 4, 1, 2, 3)),
    ((8, 8, 16, 1024, 1024), (4, 3, 2, 1, 0)),
]
TRANSPOSE_BENCH = (32768, 32768)
PERMUTE_BENCH_SMALL = [
    ((4, 520, 264), (0, 2, 1)), ((264, 4, 520), (1, 0, 2)), ((40, 24, 264), (2, 1, 0)),
    ((2, 32, 24, 40), (0, 2, 3, 1)), ((2, 40, 24, 32), (0, 3, 1, 2)),
    ((2, 72, 32, 128), (0, 2, 1, 3)), ((2, 8, 4, 8, 256), (0, 4, 1, 2, 3)),
    ((8, 8, 16, 16, 64), (4, 3, 2, 1, 0)), ((1000, 1040), (1, 0)),
    ((40, 8, 768), (1, 0, 2)),
]


# Transposing plans for the GPU test of the threads' stores at every
# element size: plain, wide and gathered tiles, partial tiles, and swizzle
# spans of 32 bytes ((4, 3, 2, 1, 0) at 4 bytes: 8 x 64 tiles).
THREAD_STORE_SHAPES = [
    ((208, 144), (1, 0)), ((48, 5, 176), (2, 1, 0)), ((2, 16, 80, 48), (0, 3, 1, 2)),
    ((2, 8, 4, 8, 256), (0, 4, 1, 2, 3)), ((8, 8, 16, 16, 64), (4, 3, 2, 1, 0)),
    ((4, 8, 12, 8, 64), (4, 3, 2, 1, 0)),
]

# Views whose innermost extent is not a whole number of 16-byte vectors,
# (shape, strides, dims, elem), for the threads' loads: a vector across
# the rows' end is gathered element by element.
THREAD_LOAD_VIEWS = [
    ((200, 36), (64, 1), (1, 0), 2), ((200, 40, 36), (2560, 64, 1), (2, 1, 0), 2),
    ((3, 200, 38), (12800, 64, 1), (0, 2, 1), 4),
]


def permute_test_cases():
    """(shape, dims, elem) of the GPU test."""
    for elem in ELEMS:
        for shape, dims in PERMUTE_SHAPES:
            yield shape, dims, elem
    for shape, dims in PERMUTE_BENCH_SMALL:
        yield shape, dims, 2


# (shape, pad): torch.nn.functional.pad order (last axis first).
PAD_SHAPES = [
    ((3, 20, 32), (1, 1, 1, 1)), ((3, 20, 32), (8, 8, 2, 3)), ((2, 5, 24, 40), (1, 2, 3, 0)),
    ((4, 64), (-8, 8)), ((4, 64), (3, -5)), ((3, 9, 48), (0, 0, 2, 1)),
    ((2, 3, 16, 32), (8, 0, 0, 0, 1, 1)), ((40,), (3, 5)), ((64,), (16, 0)),
    ((41,), (3, 5)),
    ((2, 7, 5), (1, 2)), ((1, 3, 30, 17), (2, 2, 2, 2)), ((2, 300, 24), (2, 7)),
    ((2, 2, 3, 4, 32), (1, 1, 1, 1, 1, 1)),
    # Whole 16-byte vectors for 2-byte elements: tiles of the vector pad,
    # the last partial; a crop of rows. One row whose pad ends inside a
    # vector (the engine's boxes).
    ((3, 5, 70, 96), (8, 16, 1, 0)), ((2, 40, 64), (0, 8, -3, 2)), ((1000,), (8, 3)),
    # Rows over several boxes and column tiles, odd shifts: vectors whose
    # aligned chunks lie in two boxes.
    ((2, 6, 1000), (5, 3, 1, 2)), ((3, 9, 520), (7, 1, 0, 3)),
    ((8, 64, 32, 32), (1, 1, 1, 1)),  # the README's example
    # One short row: boxes of 16 bytes past the row's end.
    ((3,), (4, 2)), ((1, 17), (-16, 6)),
    # Aligned rows widened a little: column tiles of one width (136 + 128
    # for bf16), a shift of a whole tile's start.
    ((3, 70, 256), (0, 8)), ((2, 3, 20, 128), (16, 8, 1, 0)),
]
PAD_VALUES = ("zero", "nan", "value")
PAD_BENCH = ((64, 256, 256, 256), (1, 1, 1, 1))
PAD_BENCH_SMALL = ((4, 16, 64, 256), (1, 1, 1, 1))
# Aligned rows widened by 16 bytes (the vector pad; the copy engine's boxes
# as a variant), beside the rows.
PAD_WIDEN_BENCH = ((64, 256, 256, 256), (0, 8))
# Aligned rows padded on H only: whole vectors where the boxes move well too.
PAD_OUTER_BENCH = ((64, 256, 256, 256), (0, 0, 1, 1))
PAD_WIDEN_BENCH_SMALL = ((4, 16, 64, 256), (0, 8))


# Pads with no positive amount (F.pad returns a copy of the cropped view in
# the layout of torch's clone): (base shape, dims of the view taken of a
# dense base, pad, element size). Contiguous, transposed and permuted
# views, channels_last's order, a no-op pad of a permuted view.
CROP_VIEWS = [((4, 64), (0, 1), (-8, -3), 2), ((4, 64), (0, 1), (), 1),
              ((3, 5, 40), (0, 2, 1), (-1, 0), 2), ((3, 5, 40), (0, 2, 1), (0, 0, -2, -1), 4),
              ((2, 6, 7, 16), (0, 3, 1, 2), (-1, -1, 0, -2), 2),
              ((2, 3, 8, 40), (0, 2, 1, 3), (), 8), ((2, 3, 8, 40), (0, 2, 1, 3), (0, -8), 1),
              ((2, 7, 16, 6), (0, 3, 1, 2), (-1, -1, 0, -2), 2),   # channels_last
              ((), (), (), 4), ((0, 8), (0, 1), (0, -2), 2),   # a 0-d copy, an empty crop
              # An axis cropped to one element, which the memory order keeps
              # where the input has it: a transpose's, channels_last's C.
              ((64, 256), (1, 0), (0, 0, -255, 0), 2),
              ((2, 32, 32, 16), (0, 3, 1, 2), (0, 0, 0, 0, -15, 0), 2)]


# More axes than the copy engine addresses once merged: the threads'
# kernels of any rank. (shape, dims, elem) and (shape, pad, elem, fill).
BEYOND_RANK_PERMUTES = [((2, 3, 2, 3, 2, 3), (5, 4, 3, 2, 1, 0), 2),
                        ((2, 3, 2, 2, 3, 2, 5), (6, 0, 2, 1, 3, 5, 4), 1)]
BEYOND_RANK_PADS = [((2, 3, 2, 3, 2, 9), (1, 2, 0, 1, 1, 0, 2, 1, 1, 1, 0, 3), 2, "value"),
                    ((3, 2, 2, 3, 2, 4), (1, 2) * 6, 4, "zero")]
# An expanded channel (C's stride 0): not channels_last to torch, so F.pad's
# result is contiguous. (shape, strides, pad, elem, fill).
EXPANDED_CHANNEL_PAD = ((2, 3, 4, 5), (20, 0, 5, 1), (1, 1), 4, "zero")


def crop_view_strides(shape, dims) -> tuple:
    """The strides of base.permute(dims) for a dense base of `shape`, indexed
    by the base's axes (the view's shape is shape permuted the same way)."""
    return tuple(contiguous_strides(shape)[d] for d in dims)


def pad_test_cases():
    """(shape, pad, elem, fill) of the GPU test (NaN fills for 2-, 4- and
    8-byte floats)."""
    for elem in ELEMS:
        for shape, pad in PAD_SHAPES + [PAD_BENCH_SMALL]:
            for fill in PAD_VALUES:
                if fill == "nan" and elem == 1:
                    continue
                yield shape, pad, elem, fill


# (shape, kernel_size, padding, stride, dilation, layout): NCHW input shapes
# (NHWC runs take the same image channels-last).
UNFOLD_SHAPES = [
    ((2, 16, 20, 24), 3, 1, 1, 1), ((2, 8, 16, 40), (3, 5), (1, 2), 1, 1),
    ((1, 32, 17, 19), 3, 0, 2, 1), ((2, 16, 24, 24), 3, 2, 1, 2),
    ((3, 8, 12, 32), (1, 3), (0, 1), (1, 2), 1), ((1, 64, 9, 16), 2, 0, 2, 1),
    ((2, 3, 30, 34), 3, 1, 1, 1),
    ((1, 4, 10, 400), 3, 1, 1, 1), ((1, 3, 9, 264), (3, 5), (1, 3), 1, 1),
    ((8, 64, 32, 32), 3, 1, 1, 1),  # the README's example
    # The taps kernel in bf16: halos of one and two boxes, dilation, 5 taps
    # a row, partial row tiles.
    ((2, 5, 20, 128), 3, 1, 1, 1), ((1, 3, 13, 192), (3, 5), (1, 4), 1, (1, 2)),
    ((2, 2, 37, 64), (5, 3), (3, 1), 1, (2, 1)),
]
UNFOLD_BENCH = ((32, 64, 128, 128), 3, 1, 1, 1)
UNFOLD_BENCH_SMALL = ((2, 64, 32, 48), 3, 1, 1, 1)


def unfold_test_cases():
    """(shape, kernel_size, padding, stride, dilation, layout, elem)."""
    for layout in ("NCHW", "NHWC"):
        for elem in (2, 4):
            for shape, k, p, s, d in UNFOLD_SHAPES + [UNFOLD_BENCH_SMALL]:
                yield shape, k, p, s, d, layout, elem
        for shape, k, p, s, d in UNFOLD_SHAPES[:3]:
            for elem in (1, 8):
                yield shape, k, p, s, d, layout, elem


# Strided inputs of the GPU test: (shape, strides, dims) of views of a
# dense (6, 40, 64) tensor: permuted, sliced, stepped, innermost stride 64.
VIEW_BASE = (6, 40, 64)
PERMUTE_VIEWS = [
    ((64, 6, 40), (1, 2560, 64), (1, 2, 0)),      # base.permute(2, 0, 1)
    ((4, 40, 48), (2560, 64, 1), (2, 0, 1)),      # base[1:5, :, :48]
    ((6, 20, 64), (2560, 128, 1), (0, 2, 1)),     # base[:, ::2, :]
    ((6, 64, 32), (2560, 1, 64), (2, 1, 0)),      # base.transpose(1, 2)[:, :, :32]
]
# The identity test's bf16 tensor, whose identity is a view of it, and its
# calls that copy (shape, strides, dims): another order, and the identity of
# a stepped view (x[:, ::2]).
IDENTITY_BASE = (6, 40, 24)
IDENTITY_COPIES = [((6, 40, 24), (960, 24, 1), (0, 2, 1)),
                   ((6, 20, 24), (960, 48, 1), (0, 1, 2))]
# Other GPU-test calls: (shape, dims, elem).
# The README's example (bf16 (8, 64, 32, 32)) is among the cases, so the
# carried cache holds its kernels and the GPU test runs it.
README_SHAPE = (8, 64, 32, 32)
PERMUTE_EXTRA = [((4, 264, 520), (0, 2, 1), 2), ((1, 1, 1), (2, 0, 1), 4),
                 (README_SHAPE, (0, 2, 3, 1), 2),
                 ((48, 80), (1, 0), 4), ((16, 64), (1, 0), 2)]
# A rank-6 view whose strides keep its axes apart (a slice of a dense
# (4, 4, 4, 4, 4, 8) tensor): run as its contiguous copy, whose axes merge.
WIDE_VIEW = ((2, 2, 2, 2, 2, 4), (2048, 512, 128, 32, 8, 1))
WIDE_VIEW_DIMS = (0, 1, 2, 3, 5, 4)
WIDE_VIEW_PAD = (1, 1)

# Axes longer than the copy engine's coordinates reach
# (layout.limits.COORD_REACH): seen as two axes where they split, else moved
# by the threads' kernels. Each case moves 2-17 GB
# (test/gpu/test_layout_long_axes.py, bench/long_axes.py).
LONG_AXIS = 2 ** 31 + 4096
# (shape, dims, elem): a kept innermost axis (split: the boxes kernel); a
# transpose of two long rows (split: the narrow kernel).
LONG_PERMUTES = [((2, 2, LONG_AXIS), (1, 0, 2), 1), ((2, LONG_AXIS), (1, 0), 2)]
# (shape, pad, elem, fill): one input row past the reach, padded by one
# element (the threads); rows padded by 16 bytes (split: an aligned pad,
# the vector pad); a padded outer axis over long rows of bf16 (the
# canonical form merges them into one axis past the reach; split: the
# vector pad).
LONG_PADS = [((1, LONG_AXIS), (1, 1), 1, "zero"), ((2, LONG_AXIS), (16, 16), 1, "value"),
             ((2, LONG_AXIS // 2), (0, 0, 1, 1), 2, "zero")]

# Narrow transposes (plan.permute.plan_narrow): an axis of n elements too
# short or unaligned for the transposing kernel, against a long one. Both
# lengths are multiples of 16 but not of any tile, so every case ends in a
# partial tile; n runs over the values each element size takes (n V <=
# 256, n <= 32). NARROW_L (16 x 321) moves the planar side as boxes side
# by side (for 8-byte elements, one box of rows of 16: 128 bytes),
# NARROW_SPLIT_L (512 x 9) as one box of rows of 256.
NARROW_L = 5136
NARROW_SPLIT_L = 4608
NARROW_NS = {1: (2, 3, 4, 5, 8, 15, 16), 2: (2, 3, 4, 5, 7, 8, 12, 15, 31),
             4: (2, 3, 5, 7, 13, 31), 8: (2, 3, 5, 29, 31)}


def narrow_test_cases():
    """(shape, dims, elem) of the narrow GPU test: both directions, with a
    batch axis and without, and NCHW <-> NHWC of three channels."""
    for elem, ns in NARROW_NS.items():
        for n in ns:
            yield (2, n, NARROW_L), (0, 2, 1), elem
            yield (2, NARROW_L, n), (0, 2, 1), elem
        yield (3, NARROW_L), (1, 0), elem
        yield (NARROW_L, 3), (1, 0), elem
        for n in (2, 3, 5):
            yield (2, n, NARROW_SPLIT_L), (0, 2, 1), elem
            yield (2, NARROW_SPLIT_L, n), (0, 2, 1), elem
        yield (2, 3, 48, 107), (0, 2, 3, 1), elem
        yield (2, 48, 107, 3), (0, 3, 1, 2), elem


# (shape, strides, dims) of views of a dense (4, 3, NARROW_L) or
# (4, NARROW_L, 3) tensor: every other batch entry, and the channel axis
# read from a permuted view.
NARROW_VIEWS = [((2, 3, NARROW_L), (6 * NARROW_L, NARROW_L, 1), (0, 2, 1)),
                ((2, NARROW_L, 3), (6 * NARROW_L, 3, 1), (0, 2, 1)),
                ((4, NARROW_L, 3), (3 * NARROW_L, 1, NARROW_L), (0, 1, 2))]
# The benchmark (bench/narrow_permute.py): about 1.6-2 GiB moved per row.
NARROW_BENCH = [((512, 3, 1024, 1024), (0, 2, 3, 1), 1), ((512, 1024, 1024, 3), (0, 3, 1, 2), 1),
                ((256, 3, 1024, 1024), (0, 2, 3, 1), 2), ((256, 1024, 1024, 3), (0, 3, 1, 2), 2),
                ((128, 3, 1024, 1024), (0, 2, 3, 1), 4), ((2, 2 ** 29), (1, 0), 2),
                ((2 ** 29, 2), (1, 0), 2), ((8, 2 ** 27), (1, 0), 2), ((2 ** 26, 16), (1, 0), 1)]
# Scaled down for the variant test.
NARROW_BENCH_SMALL = [((4, 3, 64, 80), (0, 2, 3, 1), 1), ((4, 64, 80, 3), (0, 3, 1, 2), 2),
                      ((8, 40960), (1, 0), 2), ((8192, 16), (1, 0), 1)]

# Transposes whose strides the copy engine cannot address, on the SIMT
# kernel through shared memory (permute_simt_tiled): partial tiles of each
# tile length, axes between the tiled ones, ranks 2-5, input and output rows
# of whole 16-byte vectors (the vector forms) for every element size, and
# views (shape, strides, dims).
SIMT_TILED_SHAPES = [((100, 129), (1, 0)), ((3, 65, 97), (0, 2, 1)), ((33, 7, 95), (2, 1, 0)),
                     ((40, 3, 2, 35), (3, 1, 2, 0)), ((33, 2, 3, 2, 41), (4, 2, 1, 3, 0)),
                     ((1003, 64), (1, 0)), ((64, 33), (1, 0)), ((2, 47, 3, 7, 7), (0, 2, 3, 4, 1)),
                     ((300, 5, 97), (2, 1, 0)), ((2, 150, 77), (0, 2, 1)), ((129, 131), (1, 0)),
                     ((3, 101, 80), (0, 2, 1)), ((2, 96, 3, 69), (0, 3, 2, 1))]
SIMT_TILED_VIEWS = [((70, 45), (1, 75), (0, 1)), ((3, 40, 33), (4000, 97, 1), (0, 2, 1))]
# The benchmark (bench/unaligned_permute.py): bf16 unless given, 0.8-2 GiB
# moved a row: GPT-2 embedding matrices (50257 x 768) transposed, square matrices
# one element off the alignment, a batch of them, NCHW -> NHWC of 7 x 7
# maps, and uint8 and float32 matrices.
SIMT_TILED_BENCH = [((8, 50257, 768), (0, 2, 1), 2), ((32767, 32767), (1, 0), 2),
                    ((64, 4095, 4097), (0, 2, 1), 2), ((8192, 512, 7, 7), (0, 2, 3, 1), 2),
                    ((32769, 32767), (1, 0), 1), ((16383, 16385), (1, 0), 4)]
SIMT_TILED_BENCH_SMALL = [((768, 5025), (1, 0), 2), ((4, 409, 417), (0, 2, 1), 2),
                          ((64, 512, 7, 7), (0, 2, 3, 1), 2)]


# Permutations that keep the innermost axis, on strides the copy engine
# cannot address (odd rows: unaligned for every element size), on the SIMT
# row copy (permute_simt_rows): rows shorter than a warp, partial tiles
# both ways, ranks 1-5, the identity of a run whose length is no multiple
# of 16 bytes, and views (shape, strides, dims).
SIMT_ROWS_SHAPES = [((7, 9, 41), (1, 0, 2)), ((33, 17, 65), (1, 0, 2)),
                    ((100, 3, 257), (1, 0, 2)), ((5, 6, 7, 301), (2, 0, 1, 3)),
                    ((3, 4, 5, 6, 33), (3, 1, 0, 2, 4)), ((1001,), (0,)), ((7, 143), (0, 1)),
                    ((100, 50, 3), (1, 0, 2)), ((40, 2, 9, 513), (2, 0, 1, 3))]
SIMT_ROWS_VIEWS = [((70, 45), (75, 1), (0, 1)), ((3, 40, 33), (4000, 97, 1), (1, 0, 2))]
# The benchmark (bench/rows_permute.py): bf16 unless given, 0.3-2 GiB moved
# a row: the issue table's (1, 0, 2) and (0, 2, 1, 3) rows with odd rows,
# 18-byte rows, and uint8 and float32.
SIMT_ROWS_BENCH = [((4096, 64, 4095), (1, 0, 2), 2), ((64, 4095, 32, 127), (0, 2, 1, 3), 2),
                   ((4096, 4096, 9), (1, 0, 2), 2), ((2048, 64, 4095), (1, 0, 2), 1),
                   ((1024, 64, 4095), (1, 0, 2), 4)]
SIMT_ROWS_BENCH_SMALL = [((64, 16, 255), (1, 0, 2), 2), ((4, 95, 8, 31), (0, 2, 1, 3), 2),
                         ((256, 64, 9), (1, 0, 2), 2)]


def simt_rows_test_cases():
    """(shape, dims, elem) of the GPU test of the SIMT row copy."""
    for elem in ELEMS:
        for shape, dims in SIMT_ROWS_SHAPES:
            yield shape, dims, elem


def simt_tiled_test_cases():
    """(shape, dims, elem) of the GPU test of the SIMT transpose."""
    for elem in ELEMS:
        for shape, dims in SIMT_TILED_SHAPES:
            yield shape, dims, elem


# Expanded views (stride 0, torch's broadcast): (shape, strides, dims or pad).
EXPANDED_PERMUTE = ((3, 80, 144), (0, 144, 1), (0, 2, 1))
EXPANDED_PAD = ((3, 20, 32), (0, 32, 1), (1, 1, 1, 1))

# (shape, strides, pad, fill) of a view of a dense (3, 40, 64) bf16 tensor.
PAD_VIEWS = [((3, 28, 48), (2560, 64, 1), (1, 2, 3, 4), "zero"),
             ((3, 28, 48), (2560, 64, 1), (8, 8, 0, 1), "value")]


# channels_last and channels_last_3d inputs (test/gpu/test_layout.py):
# (NCHW / NCDHW shape, pad, fill). pad runs them on the memory-order view
# and keeps the format, as F.pad does.
PAD_CHANNELS_LAST = [((2, 8, 10, 12), (1, 1, 1, 1), "zero"),
                     ((2, 16, 6, 9), (1, 2), "value"),
                     ((2, 3, 5, 7), (0, 0, 0, 0, 1, 1), "value"),
                     ((2, 8, 9, 12), (-1, 2, 0, 3), "zero"),
                     ((1, 8, 4, 6, 10), (1, 1, 0, 2, 1, 0), "zero")]


# A channels_last view that is not dense (x[..., 1:] of a (2, 8, 10, 13)
# channels_last tensor): (shape, strides, pad, fill).
PAD_CHANNELS_LAST_VIEW = ((2, 8, 10, 12), (1040, 1, 104, 8), (1, 1, 1, 1), "zero")


def channels_last_pad_cases():
    """(shape, strides, pad, elem, fill) of the memory-order pads that
    PAD_CHANNELS_LAST and PAD_CHANNELS_LAST_VIEW run in bf16."""
    dense = [(shape, _channels_last_strides(shape), pad, fill)
             for shape, pad, fill in PAD_CHANNELS_LAST]
    for shape, strides, pad, fill in dense + [PAD_CHANNELS_LAST_VIEW]:
        order = channels_last_order(len(shape))
        yield (tuple(shape[a] for a in order), tuple(strides[a] for a in order),
               tuple(reorder_pad(pad, order)), 2, fill)


def _channels_last_strides(shape) -> tuple:
    """The strides of a dense channels_last (channels_last_3d) tensor."""
    order = channels_last_order(len(shape))
    inner = contiguous_strides(tuple(shape[a] for a in order))
    strides = [0] * len(shape)
    for position, axis in enumerate(order):
        strides[axis] = inner[position]
    return tuple(strides)


# Gradients (test/gpu/test_layout.py): bf16 gradients compared bit for bit
# with torch's, float64 ones through torch.autograd.gradcheck (and
# gradgradcheck), so small.
GRAD_ELEMS = (2, 8)
PERMUTE_GRAD = [((3, 8, 16), (2, 0, 1)), ((2, 3, 4, 8), (0, 2, 3, 1))]
PAD_GRAD = [((2, 8, 16), (1, 1, 1, 1)), ((4, 16), (-8, 8)), ((2, 4, 8, 8), (8, 0, -1, 2))]
# (NCHW shape, kernel_size, padding, stride, dilation, layout)
UNFOLD_GRAD = [((1, 2, 6, 8), 3, 1, 1, 1, "NCHW"),
               ((1, 2, 6, 8), (2, 3), (1, 0), (1, 2), 1, "NHWC")]


def grad_permute_cases():
    """(shape, dims, elem) of every permute the gradient tests run: each
    forward and its backward (the inverse permutation of the output)."""
    for shape, dims in PERMUTE_GRAD:
        inverse = inverse_permutation(dims)
        for elem in GRAD_ELEMS:
            yield shape, dims, elem
            yield tuple(shape[d] for d in dims), inverse, elem


def grad_pad_cases():
    """(shape, pad, elem, fill) of every pad the gradient tests run: each
    forward (zero and value fills) and its backward (the negated pads)."""
    for shape, pad in PAD_GRAD:
        lefts, rights = normalize_pad(pad, len(shape))
        out = tuple(d + l + r for d, l, r in zip(shape, lefts, rights))
        for elem in GRAD_ELEMS:
            yield shape, pad, elem, "zero"
            yield shape, pad, elem, "value"
            yield out, tuple(-p for p in pad), elem, "zero"


# Calls of every op whose second call takes the prepared path
# (kernels/layout/prepared.py), and the identity of a contiguous tensor
# (a view: no path): the GPU test of repeated calls and
# bench/layout_call_cost.py. (op, shape, args, elem); pad's args are
# (pad, value), unfold's (kernel_size, padding, stride, dilation, layout).
CALL_CASES = [
    ("permute", (64, 64), ((1, 0),), 2),
    ("permute", (64, 64), ((0, 1),), 2),
    ("permute", (8, 64, 32, 32), ((0, 2, 3, 1),), 2),
    ("permute", (2048, 4096), ((1, 0),), 4),
    ("permute", (33, 70), ((1, 0),), 1),
    ("permute", (4, 6, 8), ((2, 0, 1),), 8),
    ("permute", (3, 5, 7, 9, 11), ((4, 3, 2, 1, 0),), 2),
    ("permute", (16, 3, 32, 32), ((0, 2, 3, 1),), 2),
    ("pad", (8, 16, 32, 32), ((1, 1, 1, 1), 0), 2),
    ("pad", (8, 16, 32, 32), ((1, 1, 1, 1), 1.5), 2),
    ("pad", (8, 16, 32, 32), ((1, 1, 1, 1), float("nan")), 2),
    ("pad", (64, 100), ((0, 8), 0), 1),
    ("pad", (8, 64), ((-1, -2), 0), 4),
    ("pad", (8, 16, 32), ((2, -1, -1, 3), 0), 4),
    ("unfold", (2, 16, 32, 32), (3, 1, 1, 1, "NCHW"), 2),
    ("unfold", (2, 32, 32, 16), (3, 1, 1, 1, "NHWC"), 2),
    ("unfold", (16, 20, 20), (3, 0, 2, 2, "NCHW"), 4),
]
# A channels_last (N, C, H, W) input padded (1, 1, 1, 1): F.pad keeps its
# format, so the kernel pads its memory order (N, H, W, C).
CALL_CHANNELS_LAST = ((4, 16, 8, 8), (1, 1, 1, 1), 2)
# bench/layout_call_cost.py times first calls of each CALL_CASES case with
# its leading extent multiplied by each of these (a new key every time).
CALL_FIRST_EXTENTS = range(2, 22)
# Calls test/gpu/test_layout_prepared.py makes beside CALL_CASES (a complex
# permute, pads filled with 0.0 and -0.0, a bool axis' neighbour).
CALL_TEST_CASES = [
    ("permute", (32, 48), ((1, 0),), 8),
    ("permute", (8, 64), ((1, 0),), 2),
    ("pad", (8, 64), ((1, 1), 0.0), 2),
    ("pad", (8, 64), ((1, 1), -0.0), 2),
]
