"""Planning of the layout ops (tile_mlir.kernels.layout.plan): canonical
forms, which kernel runs, its static parameters, and the named errors of
bad arguments. Plain Python: no GPU, no MLIR needed by the code under test."""

import importlib

import numpy as np
import pytest
from tile_mlir.errors import TileUsageError
from tile_mlir.kernels.layout.plan import common as P
from tile_mlir.kernels.layout.plan import pad as PD
from tile_mlir.kernels.layout.plan import permute as PP
from tile_mlir.kernels.layout.plan import unfold as PU
from tile_mlir.testing.layout_cases import PERMUTE_BENCH


def dense(shape):
    return P.contiguous_strides(shape)


@pytest.mark.parametrize("shape,dims,canon,perm", [
    ((64, 256, 256, 256), (0, 2, 3, 1), (64, 256, 65536), (0, 2, 1)),
    ((64, 256, 256, 256), (0, 3, 1, 2), (64, 65536, 256), (0, 2, 1)),
    ((32, 64, 32, 64, 256), (0, 4, 1, 2, 3), (32, 131072, 256), (0, 2, 1)),
    ((8, 8, 16, 1024, 1024), (4, 3, 2, 1, 0), (8, 8, 16, 1024, 1024), (4, 3, 2, 1, 0)),
    ((4, 1, 96), (2, 1, 0), (4, 96), (1, 0)),          # a size-1 axis dropped
    ((7, 9, 5), (2, 0, 1), (63, 5), (1, 0)),            # 0 and 1 stay adjacent
    ((3, 4, 5), (0, 1, 2), (60,), (0,)),                # the identity: one run
])
def test_canonical_permutation(shape, dims, canon, perm):
    c = PP.canonical_permutation(shape, dense(shape), dims)
    assert (c.shape, c.perm) == (canon, perm)


def test_a_permuted_view_is_read_in_memory_order():
    # x = y.permute(1, 0, 2) of a dense y (4, 6, 8): x.permute(1, 0, 2) is y.
    c = PP.canonical_permutation((6, 4, 8), (8, 48, 1), (1, 0, 2))
    assert (c.shape, c.strides, c.perm) == ((192,), (1,), (0,))
    # x.permute(2, 0, 1) of the same view: y's axes (4, 6, 8) to (8, 6, 4).
    c = PP.canonical_permutation((6, 4, 8), (8, 48, 1), (2, 0, 1))
    assert c.shape == (4, 6, 8) and c.perm == (2, 1, 0)


def test_plans_of_the_benchmark_table():
    kinds = [PP.plan_permute(s, dense(s), d, 2).kind for s, d in PERMUTE_BENCH]
    assert kinds == ["transpose", "boxes", "transpose", "transpose", "transpose",
                     "boxes", "transpose", "transpose"]
    # (8, 8, 16, 1024, 1024) by (4, 3, 2, 1, 0): the output's rows are 8
    # elements; the two innermost output axes make a 64-row tile, and one
    # more (two of axis 2) 128 rows: the output seen as (1024, 1024, 1024),
    # split by the 64-element span.
    plan = PP.plan_permute((8, 8, 16, 1024, 1024), dense((8, 8, 16, 1024, 1024)),
                          (4, 3, 2, 1, 0), 2)
    assert plan.params["gather"] == (8, 8) and plan.params["tile"] == (2, 128)
    assert plan.out_view[0] == (1024, 1024, 16, 64) and plan.params["wide_out"]
    fewest = PP.plan_permute((8, 8, 16, 1024, 1024), dense((8, 8, 16, 1024, 1024)),
                            (4, 3, 2, 1, 0), 2, deeper=False)
    assert fewest.params["gather"] == (8,) and fewest.params["tile"] == (8, 128)


def test_transpose_tiles_fit_the_dims():
    for elem in (1, 2, 4, 8):
        for shape in ((16 // elem * 2, 4096), (4096, 48 // elem * 4), (300, 300)):
            plan = PP.plan_permute(shape, dense(shape), (1, 0), elem)
            if plan.kind != "transpose":
                continue
            t_k, t_l = plan.params["tile"]
            w = plan.params["span"] // elem
            assert t_k <= shape[0] and t_l <= shape[1]
            assert t_k % w == 0 and t_l % w == 0


def test_unaligned_strides_use_the_simt_kernel():
    assert PP.plan_permute((37, 70), dense((37, 70)), (1, 0), 2).kind == "simt"
    assert PP.plan_permute((5, 130, 96), dense((5, 130, 96)), (0, 2, 1), 2).kind == "simt"
    assert PP.plan_permute((40, 64), dense((40, 64)), (1, 0), 2).kind == "transpose"


def test_boxes_keep_the_order_of_their_axes():
    for s, d in PERMUTE_BENCH:
        plan = PP.plan_permute(s, dense(s), d, 2)
        if plan.kind != "boxes":
            continue
        big = [a for a, b in enumerate(plan.params["box"]) if b > 1]
        assert [a for a in plan.canonical.perm if a in big] == big
        assert np.prod(plan.params["box"]) * 2 <= 32768


@pytest.mark.parametrize("dims,rule", [((0, 0, 1), "layout-permutation"),
                                       ((0, 1), "layout-permutation"),
                                       ((0, 1, 3), "layout-permutation"),
                                       (("a", 1, 2), "layout-permutation"),
                                       (5, "layout-permutation")])
def test_bad_dims_are_named(dims, rule):
    with pytest.raises(TileUsageError) as err:
        PP.plan_permute((2, 3, 4), dense((2, 3, 4)), dims, 2)
    assert err.value.rule == rule


def test_negative_dims_count_from_the_end():
    assert P.normalize_dims((-1, 0, -2), 3) == (2, 0, 1)


def test_dims_may_be_any_iterable():
    assert P.normalize_dims((d for d in (2, 0, 1)), 3) == (2, 0, 1)
    with pytest.raises(TileUsageError, match=r"dims \(0, 0, 1\)"):
        P.normalize_dims((d for d in (0, 0, 1)), 3)


WIDE = ((2, 2, 2, 2, 2, 4), (2048, 512, 128, 32, 8, 1))   # a slice of (4,)*5 + (8,)


def test_a_view_with_too_many_apart_axes_runs_contiguous():
    # Its strides keep six axes apart; its contiguous copy merges them.
    import importlib
    permute = importlib.import_module("tile_mlir.kernels.layout.permute")
    pad = importlib.import_module("tile_mlir.kernels.layout.pad")
    with pytest.raises(TileUsageError, match="layout-rank"):
        PP.plan_permute(*WIDE, (0, 1, 2, 3, 5, 4), 2)
    plan, dense_first = permute.call_plan(*WIDE, (0, 1, 2, 3, 5, 4), 2)
    assert dense_first and plan.canonical.shape == (16, 2, 4)
    plan, dense_first = pad.call_plan(*WIDE, (1, 1), 2, "zero")
    assert dense_first and plan.canonical.shape == (32, 4)
    # Six apart when dense too: the threads' kernel, of any rank.
    plan, dense_first = permute.call_plan(WIDE[0], dense(WIDE[0]), (5, 4, 3, 2, 1, 0), 2)
    assert plan.kind == "simt" and plan.canonical.rank == 6 and not dense_first
    assert permute.kernel_for(plan)[0] == permute.BUILD_PERMUTE_SIMT


def test_more_axes_than_the_engine_addresses_run_on_the_threads():
    import importlib
    permute = importlib.import_module("tile_mlir.kernels.layout.permute")
    pad = importlib.import_module("tile_mlir.kernels.layout.pad")
    shape = (2, 3, 2, 3, 2, 9)
    plan, dense_first = pad.call_plan(shape, dense(shape), (1, 1) * 6, 2, "value")
    assert plan.kind == "simt" and plan.canonical.rank == 6 and not dense_first
    assert pad.kernel_for(plan, "bfloat16")[1]["rank"] == 6
    # A view whose innermost stride is not 1 is made contiguous first (the
    # threads' permute reads rows of stride 1).
    doubled = tuple(2 * s for s in dense(shape))
    plan, dense_first = permute.call_plan(shape, doubled, (5, 4, 3, 2, 1, 0), 2)
    assert dense_first and plan.kind == "simt" and plan.canonical.strides[-1] == 1
    # Other rules still come first.
    with pytest.raises(TileUsageError, match="pad-spec"):
        pad.call_plan(shape, dense(shape), (1, 1) * 7, 2, "zero")


def test_channels_last_needs_a_channel_stride():
    # torch's rule: C's stride 0 (an expanded channel) is NCHW.
    assert PD.channels_last_like((2, 3, 4, 5), (60, 1, 15, 3))
    assert not PD.channels_last_like((2, 3, 4, 5), (20, 0, 5, 1))
    assert not PD.channels_last_like((2, 3, 4, 5, 6), (120, 0, 30, 6, 1))


@pytest.mark.parametrize("spec", [np.array(0), np.int64(3), "01"])
def test_zero_d_arrays_are_not_sequences(spec):
    with pytest.raises(TileUsageError) as err:
        P.normalize_dims(spec, 2)
    assert err.value.rule == "layout-permutation"
    with pytest.raises(TileUsageError) as err:
        PD.normalize_pad(spec, 2)
    assert err.value.rule == "pad-spec"


def test_crops_are_moved_in_the_views_memory_order():
    import importlib
    pad = importlib.import_module("tile_mlir.kernels.layout.pad")
    # (3, 40, 5) with strides (200, 1, 40): a transposed view cropped on
    # its middle axis. The recipe is the pad kernel of the view seen in
    # memory order, (3, 5, 40) cropped on the last axis, zero fill.
    view = pad.recipes_for([((3, 40, 5), (200, 1, 40), (0, 0, -2, -1), 2, "value")])
    memory = pad.recipes_for([((3, 5, 40), (200, 40, 1), (-2, -1), 2, "zero")])
    assert view == memory and len(view) == 1


def test_too_many_axes_and_bad_elements_are_named():
    shape = (2, 3, 2, 3, 2, 3)
    with pytest.raises(TileUsageError) as err:
        PP.plan_permute(shape, dense(shape), (5, 4, 3, 2, 1, 0), 2)
    assert err.value.rule == "layout-rank"
    with pytest.raises(TileUsageError) as err:
        PP.plan_permute((4, 4), dense((4, 4)), (1, 0), 16)
    assert err.value.rule == "layout-dtype"


# -- pad ------------------------------------------------------------------

def test_canonical_pad_merges_unpadded_axes():
    c = PD.canonical_pad((64, 256, 256, 256), dense((64, 256, 256, 256)), (1, 1, 1, 1))
    assert (c.shape, c.lefts, c.rights) == ((16384, 256, 256), (0, 1, 1), (0, 1, 1))
    # H only: W merges into H, the pad scales by W.
    c = PD.canonical_pad((2, 3, 16, 32), dense((2, 3, 16, 32)), (0, 0, 1, 2))
    assert (c.shape, c.lefts, c.rights) == ((6, 512), (0, 32), (0, 64))
    assert c.out_shape == (6, 608)


def test_pad_paths():
    def kind(shape, pad, elem=2):
        return PD.plan_pad(shape, dense(shape), pad, elem, "zero").kind
    assert kind((64, 256, 256, 256), (1, 1, 1, 1)) == "rows"      # 258-element rows
    assert kind((4, 64, 64), (8, 8, 1, 1)) == "boxes"            # aligned shift
    assert kind((4, 64, 64), (0, 0, 1, 1)) == "boxes"            # rows of W
    assert kind((2, 7, 5), (1, 2)) == "simt"                     # 10-byte rows
    assert kind((2, 8, 8), (0, 0, 0, 0)) == "copy"
    assert kind((2, 8, 8), (0, 0, -4, -4)) == "empty"


@pytest.mark.parametrize("shape,pad,elem,vectors", [
    ((64, 256, 256, 256), (0, 8), 2, True),       # rows widened by one vector
    ((4, 64, 64), (0, 0, 1, 1), 2, True),         # rows of W padded on H
    ((4, 64, 64), (-8, 8, 1, 1), 2, True),        # a crop of one vector
    ((4, 64, 60), (8, 4), 2, False),              # 120-byte rows (of a 128-byte pitch)
    ((4, 64, 64), (4, 4, 0, 0), 4, True),         # 16-byte pads of 4-byte elements
    ((4, 64, 64), (16, 0), 1, True),
    ((64,), (8, 3), 2, False),                    # one row, 3 elements past a vector
    ((16, 3), (0, 0, 8, 1), 2, False),            # merged into one row of 75
    ((2 ** 20, 4096), (0, 8), 2, True),           # 538M vectors of B
    ((2 ** 22, 4096), (0, 8), 2, False),          # 2152M: past the i32 indices
])
def test_whole_vector_pads_take_the_vector_kernel(shape, pad, elem, vectors):
    strides = dense(shape[:-1] + (64,)) if shape[-1] == 60 else dense(shape)
    plan = PD.plan_pad(shape, strides, pad, elem, "zero")
    assert plan.kind == "boxes" and plan.params["vectors"] == vectors


@pytest.mark.parametrize("pad", [(1,), (1, 2, 3, 4, 5, 6, 7, 8), ("x", 1), 3])
def test_bad_pads_are_named(pad):
    with pytest.raises(TileUsageError) as err:
        PD.plan_pad((2, 3, 4), dense((2, 3, 4)), pad, 2, "zero")
    assert err.value.rule == "pad-spec"


def test_a_pad_given_as_an_iterator_is_read_once():
    # Checking the items must not use up an iterator (it read as no pad).
    assert PD.normalize_pad(iter((1, 2, 3, 4)), 2) == ([3, 1], [4, 2])
    assert PD.canonical_pad((4, 8), (8, 1), (p for p in (1, 1))).out_shape == (4, 10)


def test_negative_extents_are_named():
    with pytest.raises(TileUsageError, match="pad-spec"):
        PD.canonical_pad((4, 4), (4, 1), (-3, -3))


@pytest.mark.parametrize("shape,pad", [
    ((4,), (-6, 3)), ((4,), (3, -6)), ((2,), (1, -3)), ((3, 4), (0, 0, -2, -2))])
def test_crops_past_an_axis_are_named(shape, pad):
    # torch narrows the left crop, then the right one: each must fit.
    with pytest.raises(TileUsageError) as err:
        PD.canonical_pad(shape, dense(shape), pad)
    assert err.value.rule == "pad-spec" and "crop" in str(err.value)


def test_crops_that_fit_are_kept():
    assert PD.canonical_pad((4,), (1,), (-4, 0)).out_shape == (0,)
    assert PD.canonical_pad((4,), (1,), (-1, -3)).out_shape == (0,)
    assert PD.canonical_pad((4,), (1,), (-2, 5)).out_shape == (7,)


def test_rows_under_16_bytes_are_the_threads():
    # A box row is 16 bytes at least and no longer than the rows it reads
    # or writes: 12-byte input rows, 14-byte output rows.
    assert PD.plan_pad((3,), (1,), (4, 2), 4, "zero").kind == "simt"
    assert PD.plan_pad((3,), (1,), (1, 2), 4, "zero").kind == "simt"
    plan = PD.plan_pad((17,), (1,), (-16, 6), 2, "zero")   # 7-element output rows
    assert plan.kind == "rows" and plan.params["wbox"] * plan.params["nb"] <= 24
    assert PD.plan_pad((4, 8), (8, 1), (0, 0, 1, 1), 2, "zero").kind == "boxes"


@pytest.mark.parametrize("shape,pad,elem,widths", [
    ((64, 256, 256, 256), (0, 8), 2, (136, 128)),    # 264 columns: 2 tiles, not 256 + 8
    ((4, 64, 128), (8, 8), 2, (72, 72)),             # 144: 2 of 72, not 128 + 16
    ((3, 9, 512), (0, 16), 1, (176, 176, 176)),      # 528 one-byte columns: 3 equal tiles
    ((4, 64, 256), (0, 0, 1, 1), 2, (256,) * 66),    # 66 merged rows: whole boxes
    ((4, 64, 64), (8, 8, 1, 1), 4, (40, 40)),        # 80 float32 columns
])
def test_pad_boxes_split_an_output_row_evenly(shape, pad, elem, widths):
    plan = PD.plan_pad(shape, dense(shape), pad, elem, "zero")
    assert plan.kind == "boxes"
    bi, out_w = plan.params["box"][-1], plan.out_shape[-1]
    tiles = [min(bi, out_w - x) for x in range(0, out_w, bi)]
    assert tuple(tiles) == widths
    assert (bi * elem) % 16 == 0 and bi <= min(plan.canonical.shape[-1], out_w)
    assert plan.params["box"][-2] * bi * elem <= 16384     # at most 16 KB of box


def test_rows_tile_spans_an_output_row():
    wbox, nb, rows = PD.rows_tile(2, 256, 258)
    assert nb * wbox - 8 >= 258 and wbox <= 256 and rows * nb * wbox * 2 <= 32768


def test_fill_kinds():
    assert PD.fill_kind(0, 2, True, False) == "zero"
    assert PD.fill_kind(0x8000, 2, True, False) == "value"      # -0.0
    assert PD.fill_kind(0x7FC0, 2, True, True) == "nan"
    assert PD.fill_kind(0xFF, 1, True, True) == "value"         # no 1-byte NaN fill


# -- unfold ---------------------------------------------------------------

def test_unfold_spec_and_shapes():
    s = PU.unfold_spec((32, 64, 128, 128), 3, 1)
    assert s.out_hw == (128, 128) and s.out_shape() == (32, 576, 16384)
    s = PU.unfold_spec((32, 128, 128, 64), (3, 5), (1, 2), (2, 1), 1, "NHWC")
    assert s.out_hw == (64, 128) and s.out_shape() == (32, 8192, 15 * 64)
    assert PU.unfold_spec((64, 9, 16), 2, 0, 2).out_shape() == (1, 256, 32)


@pytest.mark.parametrize("args", [
    dict(kernel_size=0), dict(kernel_size=3, padding=-1), dict(kernel_size=(1, 2, 3)),
    dict(kernel_size=40), dict(kernel_size=3, layout="NWHC"),
    dict(kernel_size=3, stride=0)])
def test_bad_unfold_arguments_are_named(args):
    with pytest.raises(TileUsageError) as err:
        PU.unfold_spec((2, 3, 16, 16), **args)
    assert err.value.rule == "unfold-spec"


@pytest.mark.parametrize("shape", [(1, 64, 0, 64), (1, 0, 4, 4), (0, 4, 4), (2, 3, 5, 0)])
def test_unfold_needs_non_zero_images(shape):
    with pytest.raises(TileUsageError) as err:
        PU.unfold_spec(shape, 3, padding=2)
    assert err.value.rule == "unfold-spec" and "non-zero" in str(err.value)


def test_unfold_takes_an_empty_batch():
    assert PU.unfold_spec((0, 3, 8, 8), 3).out_shape() == (0, 27, 36)


def test_unfold_needs_a_4d_or_3d_image():
    with pytest.raises(TileUsageError, match="unfold-spec"):
        PU.unfold_spec((16, 16), 3)


def test_unfold_paths():
    s = PU.unfold_spec((32, 64, 128, 128), 3, 1)
    plan = PU.plan_unfold(s, True, 2)
    assert plan.kind == "taps" and (plan.params["rows"], plan.params["width"]) == (32, 128)
    assert PU.plan_unfold(s, True, 2, taps=False).kind == "rows"
    # Stride 2, or an output row that is not whole 16-byte chunks (3x3 with
    # no padding on 128 columns: 126): the rows kernel.
    assert PU.plan_unfold(PU.unfold_spec((2, 8, 64, 64), 3, 1, 2), True, 2).kind == "rows"
    assert PU.plan_unfold(PU.unfold_spec((2, 8, 64, 128), 3, 0), True, 2).kind == "rows"
    # The bench's halo, 8 + 128 + 8 columns, is wider than the 128-column
    # input row: two boxes of 72. 400 output columns: tiles of 256 (a box),
    # their halo of 272 columns in two boxes of 136.
    assert (plan.params["hbox"], plan.params["hnb"]) == (72, 2)
    plan = PU.plan_unfold(PU.unfold_spec((1, 4, 10, 400), 3, 1), True, 2)
    assert plan.kind == "taps" and plan.params["width"] == 256
    assert (plan.params["hbox"], plan.params["hnb"]) == (136, 2)
    # bf16 rows of 32 columns (64 bytes) hold no 128-byte tile row.
    assert PU.plan_unfold(PU.unfold_spec((8, 64, 32, 32), 3, 1), True, 2).kind == "rows"
    # Shifts of +-100 columns: a halo of 456 columns, two boxes of 232.
    s = PU.unfold_spec((1, 2, 8, 256), (1, 3), (0, 100), 1, (1, 100))
    plan = PU.plan_unfold(s, True, 2)
    assert s.out_hw == (8, 256) and plan.kind == "taps"
    assert (plan.params["hbox"], plan.params["hnb"]) == (232, 2)
    s = PU.unfold_spec((32, 128, 128, 64), 3, 1, layout="NHWC")
    plan = PU.plan_unfold(s, True, 2)
    assert plan.kind == "im2col" and plan.params["channels"] == 64
    s = PU.unfold_spec((2, 30, 34, 3), 3, 1, layout="NHWC")       # 6-byte pixels
    assert PU.plan_unfold(s, True, 2).kind == "simt"
    s = PU.unfold_spec((2, 3, 16, 16), 3, 200)                    # corners out of range
    assert PU.plan_unfold(PU.unfold_spec((2, 16, 16, 16), 3, 200, layout="NHWC"),
                         True, 2).kind == "simt"
    assert s.out_hw == (414, 414)


# Tile-mode coordinates are signed 32-bit: a box can start at most 2^31 - 1
# elements into an axis.
LAST_START = 2 ** 31 - 1
LONG = 2 ** 31 + 4096


def _within_reach(*shapes):
    return max(d for shape in shapes for d in shape) <= LAST_START + 1


def test_a_long_kept_innermost_axis_is_seen_as_two():
    # (2, 2, LONG) by (1, 0, 2): the innermost axis as (LONG / 4096, 4096)
    # (4096 is the largest power of two dividing LONG); the same bytes move.
    shape = (2, 2, LONG)
    plan = PP.plan_permute(shape, dense(shape), (1, 0, 2), 1)
    assert plan.kind == "boxes"
    assert plan.canonical.shape == (2, 2, LONG // 4096, 4096)
    assert plan.canonical.perm == (1, 0, 2, 3)
    assert _within_reach(plan.in_view[0], plan.out_view[0])


@pytest.mark.parametrize("shape,dims", [
    ((40, LONG), (1, 0)),                 # a transpose's long output rows
    ((LONG, 40), (1, 0)),                 # 40-byte pixels: not narrow either
    ((2, 2, 2 ** 31 + 1), (1, 0, 2)),     # an odd extent: no split
    ((2, 2, 2, 2, LONG), (3, 2, 1, 0, 4)),  # no rank left to split into
])
def test_permutes_past_the_coordinates_run_on_threads(shape, dims):
    assert PP.plan_permute(shape, dense(shape), dims, 1).kind == "simt"


def test_a_narrow_transpose_of_long_rows_stays_within_the_coordinates():
    # (16, LONG) by (1, 0) in uint8: the planar side seen in rows of 256,
    # the interleaved side in 16-byte pixels, 16 of them a row: no extent
    # of either view passes the reach.
    plan = PP.plan_permute((16, LONG), dense((16, LONG)), (1, 0), 1)
    assert plan.kind == "narrow" and plan.params["direction"] == "interleave"
    assert plan.in_view == ((1, 16, LONG // 256, 256), (16 * LONG, LONG, 256, 1))
    assert plan.out_view == ((1, LONG // 16, 256), (16 * LONG, 256, 1))
    assert _within_reach(plan.in_view[0], plan.out_view[0])


def test_long_copies_stay_boxes_within_the_coordinates():
    # The identity is a run of rows: any length fits the coordinates.
    plan = PP.plan_permute((4, LONG), dense((4, LONG)), (0, 1), 2)
    assert plan.kind == "copy" and _within_reach(plan.in_view[0])


@pytest.mark.parametrize("shape,pad,elem,canon,lefts", [
    # Aligned pads of long rows: the row as (LONG / 16, 16), padded by one
    # 16-element row each side.
    ((2, LONG), (16, 16), 1, (2, LONG // 16, 16), (0, 1, 0)),
    # One merged axis of 2^31 + 4096 bf16: (2^20 + 2, 2048), padded by
    # 2^19 + 1 rows of 2048 each side.
    ((2, LONG // 2), (0, 0, 1, 1), 2, (2 ** 20 + 2, 2048), (2 ** 19 + 1, 0)),
])
def test_long_pads_are_seen_with_the_axis_split(shape, pad, elem, canon, lefts):
    plan = PD.plan_pad(shape, dense(shape), pad, elem, "zero")
    assert plan.kind == "boxes"
    assert plan.canonical.shape == canon and plan.canonical.lefts == lefts
    assert np.prod(plan.out_shape) == np.prod(
        [d + a + b for d, a, b in zip(shape, *PD.normalize_pad(pad, len(shape)))])
    assert _within_reach(plan.in_view[0], plan.out_shape)


@pytest.mark.parametrize("shape,pad,elem", [
    ((1, LONG), (1, 1), 1),                 # a pad of one element: no split
    ((1, 2 ** 31 - 8), (0, 16), 1),         # split in rows of 8 bytes
])
def test_pads_past_the_coordinates_run_on_threads(shape, pad, elem):
    assert PD.plan_pad(shape, dense(shape), pad, elem, "zero").kind == "simt"


def test_unfolds_past_the_coordinates_run_on_threads():
    # N * C image rows past 2^31 (NCHW views the image as (N * C, H, W)).
    s = PU.unfold_spec((2 ** 25, 65, 32, 32), 3, 1)
    assert PU.plan_unfold(s, True, 1).kind == "simt"
    assert PU.plan_unfold(PU.unfold_spec((2, 64, 32, 32), 3, 1), True, 1).kind != "simt"


def test_engine_plans_of_long_tensors_stay_within_the_coordinates():
    # Every box a plan's kernel issues starts within 2^31 - 1 of its axis's
    # origin: the views' extents (plus, for the pad's row boxes, the boxes
    # a tile reads past its last column) stay under 2^31.
    rng = np.random.default_rng(7)
    seen = set()
    for _ in range(400):
        rank = int(rng.integers(2, 5))
        shape = [int(2 ** rng.uniform(0, 33)) or 1 for _ in range(rank)]
        shape[-1] = max(16, shape[-1] // 16 * 16)
        shape = tuple(shape)
        dims = tuple(int(d) for d in rng.permutation(rank))
        plan = PP.plan_permute(shape, dense(shape), dims, 2)
        seen.add(plan.kind)
        if plan.kind != "simt":
            assert max(plan.in_view[0] + plan.out_view[0]) <= LAST_START + 1, (shape, dims)
        pad = tuple(int(x) for x in rng.integers(0, 3, 2 * rank))
        pplan = PD.plan_pad(shape, dense(shape), pad, 2, "zero")
        seen.add("pad " + pplan.kind)
        if pplan.kind in ("boxes", "rows"):
            p = pplan.params
            reach = max(pplan.out_shape) + (p["nb"] * p["wbox"] if pplan.kind == "rows" else 0)
            assert reach <= LAST_START + 1, (shape, pad)
    assert {"simt", "transpose", "boxes", "pad simt", "pad rows"} <= seen


def test_transpose_tile_counts_are_the_kernels():
    # The host's count of a transposing kernel's tiles is the count the
    # kernel's geometry computes over its A: the one-tile-per-CTA form's
    # grid, and the bound of a persistent launch (_tiles). Where the boxes
    # take a wide view (the input's or the output's innermost axis split by
    # W), the kernel merges a wide input's split axis back before counting,
    # so the tiles are still the canonical axes' (a float64 (4, 6, 8)
    # permute has 2, not a grid of every CTA the card fits).
    from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
    from tile_mlir.kernels.layout.geometry.permute import TransposeGeometry
    from tile_mlir.kernels.layout.permute import (
        _tiles,
        _wide,
        kernel_for,
        plan_for,
        transpose_tile_count,
    )
    from tile_mlir.testing.layout_cases import PERMUTE_BENCH, TRANSPOSE_BENCH
    cases = PERMUTE_BENCH + [(TRANSPOSE_BENCH, (1, 0)), ((3, 130, 70), (2, 0, 1)),
                             ((5, 8, 8, 100, 200), (4, 3, 2, 1, 0)),
                             ((4, 6, 8), (2, 0, 1)), ((24, 8), (1, 0)), ((3, 130, 72), (2, 0, 1)),
                             ((64, 64), (1, 0)), ((8, 64, 32, 32), (0, 2, 3, 1)),
                             ((5, 16, 200), (0, 2, 1))]
    checked = wide = 0
    for shape, dims in cases:
        for elem in (1, 2, 4, 8):
            plan = plan_for(shape, P.contiguous_strides(shape), dims, elem)
            if plan.kind != "transpose":
                continue
            _, p = kernel_for(plan)
            geo = TransposeGeometry.make(p["perm"], p["tile"], p["span"], elem, p["gather"])
            w = p["span"] // elem
            a_shape = _wide(plan.canonical.shape, plan.canonical.strides, p["wide_in"], w)[0]
            merged = list(a_shape[:-2]) + [a_shape[-2] * a_shape[-1]] if p["wide_in"] \
                else list(a_shape)
            n = geo.n_tiles(geo.counts(merged, IntDynOps))
            assert transpose_tile_count(plan.canonical, p) == n, (shape, dims, elem)
            assert _tiles(plan, p, a_shape) == n, (shape, dims, elem)
            checked += 1
            wide += bool(p["wide_in"] or p["wide_out"])
    assert checked >= 20 and wide >= 3
    plan = plan_for((4, 6, 8), P.contiguous_strides((4, 6, 8)), (2, 0, 1), 8)
    _, p = kernel_for(plan)
    assert _tiles(plan, p, plan.in_view[0]) == 2


@pytest.mark.parametrize("shape,dims,elem", [
    ((32768, 32768), (1, 0), 2),                   # the 2-D benchmark row
    ((3, 136, 200), (0, 2, 1), 2),                 # partial tiles
    ((64, 256, 256, 256), (0, 3, 1, 2), 4),
    ((64, 256, 256, 256), (0, 3, 1, 2), 1),        # rows of 128 elements a span
    ((8, 8, 16, 1024, 1024), (4, 3, 2, 1, 0), 2),  # gathered axes
])
def test_a_transposes_variants_are_listed_once(shape, dims, elem):
    # Every element size lists its variants (1-byte plans raised on tiles
    # of 64 rows), and no variant is another's kernel under a second name.
    tm_permute = importlib.import_module("tile_mlir.kernels.layout.permute")
    plan = tm_permute.plan_for(shape, dense(shape), dims, elem)
    assert plan.kind == "transpose"
    kernels = [repr(sorted(k[1].items())) for _, k in tm_permute.variants(plan)]
    assert len(kernels) > 10 and len(set(kernels)) == len(kernels)


@pytest.mark.parametrize("shape,pad,elem,fill,flat", [
    ((64, 256, 256, 256), (1, 1, 1, 1), 2, "zero", True),    # the benchmark row
    ((64, 256, 256, 256), (1, 1, 1, 1), 2, "nan", True),
    ((64, 256, 256, 256), (1, 1, 1, 1), 2, "value", False),  # threads write the value
    ((2, 6, 1008), (5, 3, 1, 2), 2, "zero", True),
    ((2, 6, 1008), (5, 3, 1, 2), 1, "zero", False),          # a tile is not whole rows
    ((3, 5, 8), (1, 0), 2, "zero", False),                   # boxes of one vector
    ((6, 32), (0, 1), 1, "zero", True),                      # boxes of two vectors
])
def test_the_pad_rows_kernel_takes_its_flat_form_where_it_applies(shape, pad, elem, fill,
                                                                  flat):
    tm_pad = importlib.import_module("tile_mlir.kernels.layout.pad")
    plan = tm_pad.plan_for(shape, P.contiguous_strides(shape), pad, elem, fill)
    assert plan.kind == "rows"
    _, params = tm_pad.kernel_for(plan, tm_pad.TORCH_DTYPES[elem, fill == "nan"])
    assert params.get("flat", False) is flat
    assert (params["threads"], params["grid"]) == ((256, 264) if flat else (256, 396))


def test_byte_transposes_take_the_ctas_that_fit():
    # 1-byte tiles under 16 KB run more persistent CTAs an SM (up to what
    # registers, threads and 128 KB of stages allow); 16 KB tiles keep two.
    # 4- and 8-byte tiles take what fits within 192 KB of stages: two of
    # 32 KB tiles, one of 64 KB, more of smaller ones.
    from tile_mlir.kernels.layout.permute import persistent_kernel, plan_for
    grids = {}
    for shape, dims in [((144, 9, 12, 75, 224), (4, 3, 2, 1, 0)),
                        ((3, 80, 180, 384), (0, 2, 3, 1)),
                        ((80, 6, 7, 42, 112), (4, 3, 2, 1, 0)),
                        ((16, 3, 3, 14, 32), (4, 3, 2, 1, 0))]:
        for elem in (1, 4, 8):
            plan = plan_for(shape, dense(shape), dims, elem)
            assert plan.kind == "transpose"
            p = persistent_kernel(plan)[1]   # (small calls: one tile a CTA)
            grids[shape, elem] = (tuple(p["tile"]), p["grid"])
    assert grids[(144, 9, 12, 75, 224), 1] == ((128, 128), 264)
    assert grids[(3, 80, 180, 384), 1] == ((64, 128), 528)
    assert grids[(80, 6, 7, 42, 112), 1] == ((64, 64), 1056)
    assert grids[(16, 3, 3, 14, 32), 1] == ((2, 32), 792)    # gathered: 40 registers
    assert grids[(144, 9, 12, 75, 224), 4] == ((128, 128), 132)
    assert {g for (s, elem), (_, g) in grids.items() if elem == 8 and s[0] != 16} == {264}
    assert grids[(80, 6, 7, 42, 112), 4] == ((64, 64), 396)     # 16 KB, four stages
    assert grids[(16, 3, 3, 14, 32), 8] == ((16, 32), 1056)     # 4 KB: 256-thread CTAs


# Small tiles (short axes) of the sweep's 16 MiB cells: (shape, dims, elem)
# -> (the kernel's changed parameter, its value, the previous default's).
SMALL_TILE_CHOICES = [
    ((56, 6, 7, 36, 96), (4, 3, 2, 1, 0), 2, "threads", 128, 256),   # 4 KB, one tile a CTA
    ((56, 5, 6, 30, 84), (4, 3, 2, 1, 0), 4, "grid", 660, 264),      # 8 KB tiles: 5 CTAs an SM
    ((42, 5, 6, 24, 70), (4, 3, 2, 1, 0), 8, "grid", 396, 264),      # 16 KB tiles: 3
    ((2, 60, 96, 192), (0, 2, 3, 1), 8, "grid", 396, 264),
]


@pytest.mark.parametrize("shape,dims,elem,key,new,old", SMALL_TILE_CHOICES)
def test_small_tiles_fill_the_sms(shape, dims, elem, key, new, old):
    from tile_mlir.kernels.layout.permute import (
        kernel_for,
        persistent_kernel,
        plan_for,
        previous_default,
        variants,
    )
    from tile_mlir.kernels.layout.tuning import TUNINGS
    plan = plan_for(shape, dense(shape), dims, elem)
    for tuning in TUNINGS:
        builder, params = kernel_for(plan, tuning)
        if key == "grid":
            # The persistent kernel's grid; a call of this size (few tiles a
            # CTA) runs its one-tile-a-CTA form.
            per = persistent_kernel(plan)[1]
            assert per["grid"] == new and params == {**per, "grid": 0, "stages": 1}
            continue
        prev = previous_default(plan, tuning)
        assert params[key] == new and prev[1][key] == old
        assert prev == (builder, {**params, key: old})
        assert ("previous default", prev) in variants(plan, tuning)


def test_large_tiles_keep_their_launch():
    # The sweep's 256 MiB and 4 GiB cells run what they ran before the
    # small-tile launches: their kernel is its own previous default.
    from tile_mlir.kernels.layout.permute import call_plan, kernel_for, previous_default
    from tile_mlir.kernels.layout.tuning import TUNINGS
    from tile_mlir.testing.layout_sweep import GIB, MIB, sweep_cells
    cells = sweep_cells(["permute"], None, [256 * MIB, 4 * GIB], None)
    assert len(cells) == 88
    for c in cells:
        plan, _ = call_plan(c.shape, dense(c.shape), c.args["dims"], c.elem)
        for tuning in TUNINGS:
            assert kernel_for(plan, tuning) == previous_default(plan, tuning), c.key


def test_small_tile_launches_are_in_the_sweep_recipes():
    from tile_mlir.kernels.layout.call import recipe_key
    from tile_mlir.kernels.layout.permute import kernel_for, plan_for, previous_default
    from tile_mlir.testing.layout_recipes import sweep as SW
    from tile_mlir.testing.layout_sweep import MIB, sweep_cells
    keys = {recipe_key(*r) for r in SW.cache_recipes(sweep_cells(["permute"], None,
                                                                 [16 * MIB], None))}
    for shape, dims, elem, *_ in SMALL_TILE_CHOICES[:3]:
        plan = plan_for(shape, dense(shape), dims, elem)
        assert recipe_key(*kernel_for(plan)) in keys
        assert recipe_key(*previous_default(plan)) in keys


def test_the_one_wave_simt_transpose_is_a_variant():
    # 256 threads for the unaligned (3375, 2625) bf16 transpose was no faster
    # on the GPU: the default keeps the plan's 512, the variant has 256.
    from tile_mlir.kernels.layout.permute import kernel_for, plan_for, variants
    plan = plan_for((3375, 2625), dense((3375, 2625)), (1, 0), 2)
    builder, params = kernel_for(plan)
    assert params["threads"] == 512
    assert ("one wave", (builder, {**params, "threads": 256})) in variants(plan)


def test_a_pad_launch_is_bounded_by_its_tiles():
    # The persistent pad kernels (rows, boxes) are launched with no more
    # CTAs than tiles: the host's count is every tile origin the kernel
    # walks, each inside the output, covering it once.
    import itertools

    from tile_mlir.kernels.layout import pad as D
    from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
    from tile_mlir.kernels.layout.geometry.pad import PadGeometry, RowsGeometry
    seen = set()
    cases = [((8, 16, 32, 32), (1, 1, 1, 1)), ((8, 64), (-1, -2)), ((8, 16, 32), (2, -1, -1, 3)),
             ((3, 258, 96), (0, 0, 1, 1)), ((2, 8, 16, 64), (0, 0, 8, 8)),
             ((4, 40, 128), (0, 8)), ((5, 7, 300), (3, 5, 2, 0)), ((4, 64, 64), (8, 8)),
             ((8, 16, 32, 32), (0, 0, 1, 1))]
    for (shape, pad_), elem in itertools.product(cases, (1, 2, 4, 8)):
        plan, _ = D.call_plan(shape, P.contiguous_strides(shape), pad_, elem, "zero")
        if plan.kind not in ("rows", "boxes"):
            continue
        dtype = {1: "uint8", 2: "bfloat16", 4: "float32", 8: "float64"}[elem]
        _, p = D.kernel_for(plan, dtype)
        if plan.kind == "boxes":   # the default is the vector kernel: the engine's variant
            p = dict(D.variants(plan, dtype))["engine boxes"][1]
        if plan.kind == "rows":
            c = plan.canonical
            shape_in = list(plan.in_view[0])
            lefts, rights = list(c.lefts), list(c.rights)
            if len(shape_in) == 1:
                shape_in, lefts, rights = [1] + shape_in, [0] + lefts, [0] + rights
            out = [d + lo + hi for d, lo, hi in zip(shape_in, lefts, rights)]
            n = D.rows_tile_count(p, plan, out)
            geo = RowsGeometry(len(out), elem, p["wbox"], p["nb"], p["rows"], bool(p["equal"]))
            counts, height = geo.counts(out, IntDynOps), geo.height(out[-2], IntDynOps)
            origins = [geo.origin(t, counts, IntDynOps, height) for t in range(n)]
            want = {(o, r, col) for o in itertools.product(*map(range, out[:-2]))
                    for r in range(0, out[-2], height)
                    for col in range(0, out[-1], geo.columns)}
        else:
            out = list(plan.out_shape)
            n = D.boxes_tile_count(p, out)
            geo = PadGeometry(tuple(p["box"]))
            origins = [geo.origin(t, geo.counts(out, IntDynOps), IntDynOps) for t in range(n)]
            want = set(itertools.product(*(range(0, d, b) for d, b in zip(out, p["box"]))))
        assert len(set(origins)) == n and set(origins) == want, (shape, pad_, elem)
        seen.add(plan.kind)
    assert seen == {"rows", "boxes"}
