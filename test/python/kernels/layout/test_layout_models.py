"""The layout kernels' geometry on the CPU (tile_mlir.kernels.layout.model):
the very coordinate maps, boxes and shared-memory moves the kernels trace,
with the NumPy emulator standing in for the copy engine, against NumPy's
own transpose, pad and unfold on random bits. Also the shared-memory
transpose's lane maps: every element once, no bank conflicts."""

import dataclasses

import numpy as np
import pytest

from tile_mlir.errors import TileUsageError
from tile_mlir.kernels.layout.call import (FLAT_LAUNCH, _converter, as_tensor, flat_boxes_fit,
                                           flat_row_conditions)
from tile_mlir.testing.layout_cases import THREAD_LOAD_VIEWS
from tile_mlir.kernels.layout.plan.pad import channels_last_like
from tile_mlir.kernels.layout.model import (model_pad_boxes, model_pad_rows,
                                            model_pad_vectors, model_permute,
                                            model_permute_vectors,
                                            model_unfold_nchw, model_unfold_nhwc,
                                            model_unfold_taps)
from tile_mlir.kernels.layout.plan.common import contiguous_strides
from tile_mlir.kernels.layout.plan.pad import ENGINE_NAN, plan_pad
from tile_mlir.kernels.layout.plan.unfold import plan_unfold, unfold_spec
from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
from tile_mlir.kernels.layout.geometry.permute import BoxGeometry, TransposeGeometry
from tile_mlir.kernels.layout.geometry.vector_tiles import VectorPadGeometry, VectorPermuteGeometry
from tile_mlir.kernels.layout.permute import plan_for, thread_load_forms
from tile_mlir.kernels.layout.geometry.smem_transpose import ScalarTranspose, TileLayout, bank_conflicts

from layout_bits import bits


PERMUTES = [
    ((200, 136), (1, 0), 2), ((3, 72, 136), (0, 2, 1), 2), ((40, 3, 304), (1, 0, 2), 2),
    ((36, 68), (1, 0), 4), ((16, 9, 40), (2, 0, 1), 2), ((16, 48), (1, 0), 8),
    ((64, 1, 128), (2, 1, 0), 2), ((2, 3, 64, 32), (0, 2, 1, 3), 2), ((48, 64), (0, 1), 1),
    ((16, 16), (1, 0), 2), ((2, 8, 16, 8, 64), (4, 3, 2, 1, 0), 2),
    ((37, 70), (1, 0), 2), ((2, 1, 16, 1, 48), (4, 1, 2, 0, 3), 4),
    ((128, 192), (1, 0), 2), ((3, 64, 256), (0, 2, 1), 4),   # wide boxes both ways
]


def test_wide_boxes_where_the_rows_split():
    plan = plan_for((128, 192), (192, 1), (1, 0), 2)
    assert plan.params["wide_in"] and plan.params["wide_out"]
    assert plan.in_view == ((128, 3, 64), (192, 64, 1))


@pytest.mark.parametrize("shape,dims,elem", PERMUTES)
def test_permute_model_equals_numpy(shape, dims, elem):
    rng = np.random.default_rng(len(shape) * 7 + elem)
    x = bits(rng, shape, elem)
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    got = model_permute(plan, x)
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


THREAD_STORES = [
    ((200, 136), (1, 0), 2), ((16, 9, 40), (2, 0, 1), 2), ((128, 192), (1, 0), 2),
    ((64, 48), (1, 0), 1), ((36, 68), (1, 0), 4), ((16, 48), (1, 0), 8),
    ((2, 1, 16, 1, 48), (4, 1, 2, 0, 3), 8),   # gathered axes, wide boxes
]


@pytest.mark.parametrize("threads,slots", [(256, 1), (32, 3)])
@pytest.mark.parametrize("shape,dims,elem", [
    ((40, 3, 304), (1, 0, 2), 2), ((2, 3, 64, 32), (0, 2, 1, 3), 2), ((5, 7, 16), (1, 0, 2), 1),
    ((2, 3, 5, 7, 4), (3, 1, 0, 2, 4), 4), ((3, 9, 2), (1, 0, 2), 8)])
def test_vector_permute_model_equals_numpy(shape, dims, elem, threads, slots):
    # The vector permute's geometry (the boxes plans' default kernel)
    # on the plan's canonical view, last tiles past B's end included.
    x = bits(np.random.default_rng(sum(shape) + elem), shape, elem)
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "boxes"
    geo = VectorPermuteGeometry(elem, tuple(plan.params["perm"]), threads, slots)
    got = model_permute_vectors(geo, x.reshape(plan.in_view[0]), plan.out_view[0])
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


@pytest.mark.parametrize("threads", [256, 512])
@pytest.mark.parametrize("shape,dims,elem", THREAD_STORES)
def test_thread_stores_model_equals_numpy(shape, dims, elem, threads):
    """The transposes whose threads store the tile: every output element
    written once (the model raises otherwise), equal to NumPy's permute."""
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "transpose"
    p = {**plan.params, "thread_store": True, "threads": threads}
    x = bits(np.random.default_rng(elem * 31 + threads), shape, elem)
    got = model_permute(dataclasses.replace(plan, params=p), x)
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


@pytest.mark.parametrize("stores", [False, True], ids=["engine stores", "thread stores"])
@pytest.mark.parametrize("threads", [256, 512])
@pytest.mark.parametrize("shape,dims,elem", THREAD_STORES)
def test_thread_loads_model_equals_numpy(shape, dims, elem, threads, stores):
    """The transposes whose threads load the tile: every image byte written
    once (the model raises otherwise), the result equal to NumPy's permute."""
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "transpose"
    p = {**plan.params, "thread_load": True, "thread_store": stores, "threads": threads}
    x = bits(np.random.default_rng(elem * 37 + threads), shape, elem)
    got = model_permute(dataclasses.replace(plan, params=p), x)
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


@pytest.mark.parametrize("shape,strides,dims,elem", THREAD_LOAD_VIEWS)
def test_thread_loads_of_ragged_rows(shape, strides, dims, elem):
    """Views whose rows end inside a 16-byte vector, every thread-load form:
    the vectors across the end are read element by element at clamped
    columns, and what lands past the edge never reaches the output."""
    plan = plan_for(shape, strides, dims, elem)
    assert plan.kind == "transpose" and shape[-1] * elem % 16
    base = bits(np.random.default_rng(elem), (int(np.dot(np.subtract(shape, 1), strides)) + 1,),
                elem)
    x = np.lib.stride_tricks.as_strided(base, shape, [s * elem for s in strides])
    want = np.ascontiguousarray(x.transpose(dims)).reshape(-1)
    for name, (_, params) in thread_load_forms(plan):
        got = model_permute(dataclasses.replace(plan, params=params), x)
        assert np.array_equal(got.reshape(-1), want), name


WALKS = [((200, 136), (1, 0), (0, 1)), ((600, 400), (1, 0), (0, 2)), ((600, 400), (1, 0), (0, 4)),
         ((40, 24, 264), (2, 1, 0), (1, 5)), ((3, 600, 136), (0, 2, 1), (1, 2)),
         ((8, 8, 4, 16, 256), (4, 3, 2, 1, 0), (2, 1)),
         ((8, 8, 4, 16, 256), (4, 3, 2, 1, 0), (3, 4))]


@pytest.mark.parametrize("shape,dims,walk", WALKS)
def test_tile_walk_visits_every_tile_once(shape, dims, walk):
    """A blocked walk (g tiles at a time, the last block short) is a
    reordering of the plain one: the same tile origins, each once; and the
    model's output with it is still the permutation."""
    plan = plan_for(shape, contiguous_strides(shape), dims, 2)
    p = dict(plan.params)
    args = (p["perm"], p["tile"], p["span"], 2, p["gather"])
    plain, walked = TransposeGeometry.make(*args), TransposeGeometry.make(*args, walk=walk)
    counts = plain.counts(plan.canonical.shape, IntDynOps)
    n = plain.n_tiles(counts)
    a = [plain.input_origin(t, counts, IntDynOps) for t in range(n)]
    b = [walked.input_origin(t, counts, IntDynOps) for t in range(n)]
    assert a != b and sorted(a) == sorted(b) and len(set(b)) == n
    if len(shape) > 3:
        return   # the scalar transpose's model is slow; the origins are the point
    x = bits(np.random.default_rng(5), shape, 2)
    p["walk"] = walk
    got = model_permute(dataclasses.replace(plan, params=p), x)
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


ORDERS = [((3, 600, 136), (0, 2, 1), (0, 1, 2)), ((40, 24, 264), (2, 1, 0), (1, 0, 2)),
          ((2, 3, 72, 128), (0, 2, 1, 3), (0, 1, 2, 3)), ((264, 4, 520), (1, 0, 2), (0, 1, 2)),
          ((8, 8, 4, 16, 256), (4, 3, 2, 1, 0), (3, 2, 1, 0, 4))]


@pytest.mark.parametrize("shape,dims,order", ORDERS)
def test_tile_order_visits_every_tile_once(shape, dims, order):
    """Another tile order (the benchmark's order variants) visits the plain
    order's tile origins, each once, and the model's output with it is
    still the permutation."""
    plan = plan_for(shape, contiguous_strides(shape), dims, 2)
    p = dict(plan.params)
    if plan.kind == "transpose":
        args = (p["perm"], p["tile"], p["span"], 2, p["gather"])
        plain, ordered = (TransposeGeometry.make(*args),
                          TransposeGeometry.make(*args, order=order))
    else:
        plain = BoxGeometry(tuple(p["perm"]), tuple(p["box"]))
        ordered = BoxGeometry(tuple(p["perm"]), tuple(p["box"]), tile_order=order)
    counts = plain.counts(plan.canonical.shape, IntDynOps)
    n = plain.n_tiles(counts)
    a = [plain.input_origin(t, counts, IntDynOps) for t in range(n)]
    b = [ordered.input_origin(t, counts, IntDynOps) for t in range(n)]
    assert a != b and sorted(a) == sorted(b) and len(set(b)) == n
    if len(shape) > 3 and plan.kind == "transpose":
        return   # the scalar transpose's model is slow; the origins are the point
    x = bits(np.random.default_rng(6), shape, 2)
    p["order"] = order
    got = model_permute(dataclasses.replace(plan, params=p), x)
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


def test_a_tile_order_must_be_a_permutation_of_the_axes():
    from tile_mlir.kernels.layout.builders.permute import build_permute_boxes, build_permute_transpose
    with pytest.raises(ValueError, match=r"order \(0, 0, 2\): not a permutation"):
        build_permute_boxes(2, (1, 0, 2), (1, 4, 64), order=(0, 0, 2))
    with pytest.raises(ValueError, match=r"order \(0, 1\): not a permutation of the 3"):
        build_permute_transpose(2, (0, 2, 1), (128, 128), order=(0, 1))


@pytest.mark.parametrize("deeper", [True, False])
def test_gathered_tiles_equal_numpy(deeper):
    # Tiles that gather the output's innermost axes whole: the two of the
    # fewest that make a swizzle row, and one more (the default).
    from tile_mlir.kernels.layout.plan.permute import plan_permute
    shape, dims = (8, 8, 4, 4, 64), (4, 3, 2, 1, 0)
    plan = plan_permute(shape, contiguous_strides(shape), dims, 2, deeper=deeper)
    assert (plan.params["gather"], plan.params["tile"]) == \
        (((8, 8), (2, 64)) if deeper else ((8,), (8, 64)))
    x = bits(np.random.default_rng(9), shape, 2)
    got = model_permute(plan, x)
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


def _pad_ref(x, c, value):
    out = np.full(c.out_shape, value, dtype=x.dtype)
    A = x.reshape(c.shape)
    src, dst = [], []
    for d, l, r in zip(c.shape, c.lefts, c.rights):
        lo, hi = max(0, -l), min(d, d + r)
        src.append(slice(lo, hi))
        dst.append(slice(lo + l, hi + l))
    out[tuple(dst)] = A[tuple(src)]
    return out


PADS = [((3, 20, 32), (8, 8, 1, 2), 2, "zero"), ((3, 20, 32), (1, 1, 1, 1), 2, "zero"),
        ((2, 5, 24, 40), (1, 2, 3, 0), 2, "value"), ((4, 64), (-8, 8), 4, "zero"),
        ((4, 64), (3, -5), 1, "value"), ((3, 9, 48), (0, 0, 2, 1), 2, "value"),
        ((2, 6, 32), (1, 1, 1, 1), 4, "nan"), ((5, 32), (16, 16, 2, 2), 2, "nan"),
        ((40,), (3, 5), 2, "zero"), ((2, 300, 24), (2, 7), 8, "nan")]


@pytest.mark.parametrize("shape,pad,elem,fill", PADS)
def test_pad_model_equals_numpy(shape, pad, elem, fill):
    rng = np.random.default_rng(sum(shape) + elem)
    x = bits(rng, shape, elem)
    if fill == "nan" and elem == 4:
        x &= 0x3FFFFFFF   # no NaN inputs: the emulator's float32 maps quiet them
    value = {"zero": 0, "value": 0x5A, "nan": ENGINE_NAN.get(elem, 0)}[fill]
    plan = plan_pad(shape, contiguous_strides(shape), pad, elem, fill)
    c = plan.canonical
    A = x.reshape(c.shape)
    if plan.kind == "boxes":
        got = model_pad_boxes(plan.params["box"], A, c.lefts, c.out_shape, fill, value)
        if plan.params["vectors"]:   # the default kernel of such a plan
            vectors = model_pad_vectors(VectorPadGeometry(elem, c.rank), A, c.lefts,
                                        c.out_shape, value)
            assert np.array_equal(vectors.reshape(-1), got.reshape(-1))
    else:
        assert plan.kind == "rows"
        if c.rank == 1:
            A, lefts, rights = A.reshape(1, -1), (0,) + c.lefts, (0,) + c.rights
        else:
            lefts, rights = c.lefts, c.rights
        got = model_pad_rows(plan.params, A, lefts, rights, fill, value)
    assert np.array_equal(got.reshape(-1), _pad_ref(x, c, value).reshape(-1))


# Whole-vector pads: crops, pads on outer axes only, one axis, rank 5,
# tiles that end past B, and one vector a row.
VECTOR_PADS = [((4, 64), (8, 8), 2), ((3, 20, 32), (0, 16, 1, 2), 2), ((4, 64), (-8, 16), 2),
               ((5, 48), (-16, -16, 2, -1), 1), ((6, 16), (0, 0, 3, 3), 4),
               ((2, 3, 4, 5, 8), (2, 2, 1, 0, 0, 1, 1, 1, 2, 0), 8), ((1000,), (8, 24), 2),
               ((7, 3, 8), (8, 0, 0, 2), 2), ((3, 2, 2), (2, 2, 0, 0, 1, 1), 8)]


@pytest.mark.parametrize("threads,slots", [(256, 4), (32, 1), (64, 3)])
@pytest.mark.parametrize("shape,pad,elem", VECTOR_PADS)
def test_vector_pad_model_equals_numpy(shape, pad, elem, threads, slots):
    # The vector pad's geometry (32-bit wrapping coordinates, the clamp to
    # A's edge, the bound on B's last tile) against NumPy's pad of random
    # bits, with a fill value whose bits fill every byte of the element.
    x = bits(np.random.default_rng(sum(shape) + elem + slots), shape, elem)
    plan = plan_pad(shape, contiguous_strides(shape), pad, elem, "value")
    assert plan.kind == "boxes" and plan.params["vectors"]
    c = plan.canonical
    value = int.from_bytes(bytes(range(0xA1, 0xA1 + elem)), "little")
    got = model_pad_vectors(VectorPadGeometry(elem, c.rank, threads, slots),
                            x.reshape(c.shape), c.lefts, c.out_shape, value)
    assert np.array_equal(got.reshape(-1), _pad_ref(x, c, value).reshape(-1))


FLAT_PADS = [((1, 2, 64, 256), (1, 1, 1, 1)), ((3, 20, 32), (8, 8, 2, 3)),
             ((2, 300, 32), (2, 7)), ((2, 6, 208), (5, 3, 1, 2)), ((3, 9, 528), (7, 1, 0, 3)),
             ((2, 5, 24, 48), (1, 2, 3, 0)), ((1, 3, 30, 32), (2, 2, 2, 2)), ((6, 32), (0, 1))]


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
@pytest.mark.parametrize("shape,pad", FLAT_PADS)
def test_flat_pad_rows_model_equals_numpy(shape, pad, elem):
    # The flat form's vectors (the joins across rows' ends, their reads of
    # row r + 1's chunk before its start, the clamped second chunk) on rows
    # of every alignment against row pitch, tiles of one and of many rows.
    x = bits(np.random.default_rng(len(shape) + elem), shape, elem)
    plan = plan_pad(shape, contiguous_strides(shape), pad, elem, "zero", boxes=False)
    assert plan.kind == "rows"
    c = plan.canonical
    p = plan.params
    assert flat_boxes_fit(p["wbox"], elem)
    assert all(flat_row_conditions(c.out_shape[-1], p["wbox"], p["nb"], elem))
    for tiles in (p, {**p, "rows": 3, "equal": False}):
        got = model_pad_rows({**tiles, **FLAT_LAUNCH}, x.reshape(c.shape), c.lefts, c.rights,
                             "zero")
        assert np.array_equal(got.reshape(-1), _pad_ref(x, c, 0).reshape(-1))


@pytest.mark.parametrize("rows,fill", [(10, "zero"), (10, "value"), (7, "zero"), (30, "value")])
def test_pad_rows_of_equal_height_equal_numpy(rows, fill):
    # 22 output rows in boxes of 10: three tiles of 8 (two box rows unused);
    # of 7: four of 6 (the last 4); of 30: one tile of 22.
    shape, pad = (3, 20, 32), (1, 1, 1, 1)
    x = bits(np.random.default_rng(rows), shape, 2)
    value = 0x5A if fill == "value" else 0
    plan = plan_pad(shape, contiguous_strides(shape), pad, 2, fill)
    c = plan.canonical
    p = {**plan.params, "rows": rows, "equal": True}
    got = model_pad_rows(p, x.reshape(c.shape), c.lefts, c.rights, fill, value)
    assert np.array_equal(got.reshape(-1), _pad_ref(x, c, value).reshape(-1))


def _unfold_ref(x, k, p, s, d):
    (kh, kw), (ph, pw), (sh, sw), (dh, dw) = [(v, v) if isinstance(v, int) else v
                                              for v in (k, p, s, d)]
    n, c, h, w = x.shape
    xp = np.zeros((n, c, h + 2 * ph, w + 2 * pw), x.dtype)
    xp[:, :, ph:ph + h, pw:pw + w] = x
    oh = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, c, kh, kw, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i, j] = xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                 j * dw:j * dw + sw * (ow - 1) + 1:sw]
    return out.reshape(n, c * kh * kw, oh * ow)


UNFOLDS = [((2, 16, 20, 24), 3, 1, 1, 1), ((2, 8, 16, 40), (3, 5), (1, 2), 1, 1),
           ((1, 32, 17, 19), 3, 0, 2, 1), ((2, 16, 24, 24), 3, 2, 1, 2),
           ((3, 8, 12, 32), (1, 3), (0, 1), (1, 2), 1), ((1, 64, 9, 16), 2, 0, 2, 1),
           # the taps kernel: a two-box halo, wide shifts, dilation, 5 taps a row
           ((2, 5, 20, 128), 3, 1, 1, 1), ((1, 2, 8, 256), (1, 3), (0, 100), 1, (1, 100)),
           ((1, 3, 13, 192), (3, 5), (1, 4), 1, (1, 2)), ((1, 4, 10, 400), 3, 1, 1, 1)]


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("shape,k,p,s,d", UNFOLDS)
def test_unfold_model_equals_numpy(layout, shape, k, p, s, d):
    rng = np.random.default_rng(shape[1] + shape[2])
    x = bits(rng, shape, 2)
    want = _unfold_ref(x, k, p, s, d)
    if layout == "NHWC":
        n, c = shape[:2]
        taps = want.shape[1] // c
        want = np.ascontiguousarray(want.reshape(n, c, taps, -1).transpose(0, 3, 2, 1)) \
            .reshape(n, -1, taps * c)
        x = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    plan = plan_unfold(unfold_spec(x.shape, k, p, s, d, layout), True, 2)
    if plan.kind == "simt":
        pytest.skip("the SIMT kernel has no model")
    model = {"im2col": model_unfold_nhwc, "taps": model_unfold_taps,
             "rows": model_unfold_nchw}[plan.kind]
    assert np.array_equal(model(plan.params, x), want)
    if plan.kind == "taps":  # the rows kernel still serves these shapes' variants
        rows = plan_unfold(unfold_spec(x.shape, k, p, s, d, layout), True, 2, taps=False)
        assert rows.kind == "rows"
        assert np.array_equal(model_unfold_nchw(rows.params, x), want)


@pytest.mark.parametrize("elem,span,tile,threads", [
    (4, 128, (64, 64), 256), (8, 128, (64, 64), 256), (1, 128, (128, 128), 256),
    (2, 128, (128, 128), 256), (4, 64, (64, 64), 256), (8, 64, (32, 32), 128),
    (4, 32, (16, 16), 256)])
def test_scalar_transpose_moves_every_element_once_without_conflicts(elem, span, tile,
                                                                      threads):
    st = ScalarTranspose(TileLayout(elem, span, *tile), threads)
    seen = {st.element(lane, warp, step) for warp in range(threads // 32)
            for step in range(st.steps) for lane in range(32)}
    assert len(seen) == tile[0] * tile[1]
    assert all(kk < tile[0] and l < tile[1] for kk, l in seen)
    assert bank_conflicts(st.layout, st.lane_map) == (True, True)


def test_gathered_rows_map_their_bits():
    # kk = (a0, a1) in input order, output columns (a1, a0): 8 x 8 rows.
    lay = TileLayout(2, 128, 64, 64, ((3, 0, 3), (0, 3, 3)))
    assert lay.out_column(0b101_011) == 0b011_101
    st = ScalarTranspose(lay, 256)
    assert bank_conflicts(lay, st.lane_map) == (True, True)


def test_an_unknown_array_library_has_no_way_back():
    # Its module cannot be imported, or has no from_dlpack: as_tensor then
    # names it in a layout-array error rather than returning a torch tensor.
    assert _converter("tile_mlir_no_such_library") is None
    assert _converter("pytest") is None


def test_non_arrays_are_named():
    with pytest.raises(TileUsageError) as err:
        as_tensor(np.zeros(4, np.float32))   # a host array (or no torch at all)
    assert err.value.rule == "layout-array"


# (shape, strides, whether F.pad keeps channels_last), as torch 2.14 gives
# them: F.pad(v, (1, 1, 1, 1)) of each view.
CHANNELS_LAST_VIEWS = [
    ((2, 3, 5, 6), (105, 1, 21, 3), True),    # x_cl[..., 1:]
    ((2, 2, 5, 7), (105, 1, 21, 3), True),    # x_cl[:, 1:]
    ((2, 3, 3, 7), (105, 1, 42, 3), False),   # x_cl[:, :, ::2]: contiguous out
    ((2, 3, 5, 6), (105, 35, 7, 1), False),   # an NCHW slice
    ((2, 3, 5, 7), (0, 1, 0, 0), False),      # expanded
    ((2, 1, 5, 7), (35, 1, 7, 1), True),      # C = 1, made channels_last
    ((2, 1, 5, 7), (35, 35, 7, 1), False),    # C = 1, contiguous
    ((2, 3, 4, 5, 6), (360, 1, 90, 18, 3), True),   # channels_last_3d
    ((2, 3, 5), (15, 1, 3), False),           # rank 3: no such format
]


@pytest.mark.parametrize("shape, strides, kept", CHANNELS_LAST_VIEWS)
def test_channels_last_strides_are_torchs(shape, strides, kept):
    assert channels_last_like(shape, strides) == kept
