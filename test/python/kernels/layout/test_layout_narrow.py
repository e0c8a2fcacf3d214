"""The narrow transpose on the CPU: which shapes it takes (and which stay
on the threads' kernel), its views, and its model (the kernel's very
geometry and regrouping, the NumPy emulator standing in for the copy
engine) against NumPy's transpose on random bits."""

import numpy as np
import pytest

from tile_mlir.kernels.layout.plan import common as P
from tile_mlir.kernels.layout.model import model_narrow, model_permute
from tile_mlir.kernels.layout.geometry.narrow import NarrowGeometry
from tile_mlir.kernels.layout.permute import call_plan, kernel_for, narrow_variants, plan_for

from layout_bits import bits


def dense(shape):
    return P.contiguous_strides(shape)


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_nchw_and_nhwc_of_three_channels_are_narrow(elem):
    v = 16 // elem
    hw = 224 * 224
    to_nhwc = plan_for((64, 3, 224, 224), dense((64, 3, 224, 224)), (0, 2, 3, 1), elem)
    assert to_nhwc.kind == "narrow" and to_nhwc.params["direction"] == "interleave"
    # 256 divides H W: the planar side in rows of 256, one box a tile.
    assert to_nhwc.params["split"] and to_nhwc.params["width"] == 256
    assert to_nhwc.in_view == ((64, 3, hw // 256, 256), (3 * hw, hw, 256, 1))
    # The interleaved side in rows of 8 pixel groups where 16 n 8 elements
    # fit a box row (else 4: 3 uint8 channels x 16 pixels x 4 = 192).
    g = 4 if elem == 1 else 8
    assert to_nhwc.params["group"] == g
    assert to_nhwc.out_view == ((64, hw // (g * v), 3 * g * v), (3 * hw, 3 * g * v, 1))
    to_nchw = plan_for((64, 224, 224, 3), dense((64, 224, 224, 3)), (0, 3, 1, 2), elem)
    assert to_nchw.kind == "narrow" and to_nchw.params["direction"] == "deinterleave"
    assert to_nchw.in_view == to_nhwc.out_view and to_nchw.out_view == to_nhwc.in_view


@pytest.mark.parametrize("shape,dims,elem,why", [
    ((2, 3, 4100), (0, 2, 1), 2, "L not a multiple of 8 bf16"),
    ((2, 4100, 3), (0, 2, 1), 2, "L not a multiple of 8 bf16"),
    ((2, 40, 4096), (0, 2, 1), 1, "40 uint8 pixels: 640 > 256 elements a box row"),
    ((2, 33, 4096), (0, 2, 1), 8, "33 channels: a thread's vectors would spill"),
    ((64, 3, 8), (0, 2, 1), 2, "tiles of 384 bytes"),
    ((3, 5, 2, 64), (1, 3, 0, 2), 2, "not a narrow form"),
])
def test_shapes_outside_the_narrow_form_stay_on_threads(shape, dims, elem, why):
    assert plan_for(shape, dense(shape), dims, elem).kind == "simt", why


@pytest.mark.parametrize("length,elem,split,width", [
    (5136, 2, False, 256),    # 16 x 321: rows of 32 bytes would be too short
    (2112, 2, True, 64),      # 64 x 33: rows of 128 bytes
    (4608, 1, True, 256),     # 512 x 9
])
def test_the_planar_side_splits_where_128_bytes_divide_its_rows(length, elem, split, width):
    plan = plan_for((2, 3, length), dense((2, 3, length)), (0, 2, 1), elem)
    assert plan.kind == "narrow"
    assert (plan.params["split"], plan.params["width"]) == (split, width)
    want = ((2, 3, length // width, width), (3 * length, length, width, 1)) if split else \
        ((2, 3, length), (3 * length, length, 1))
    assert plan.in_view == want


def test_aligned_wide_rows_keep_the_transposing_kernel():
    # 16 bf16 rows are one 32-byte swizzle span: the transposer's, as before.
    assert plan_for((2, 16, 4096), dense((2, 16, 4096)), (0, 2, 1), 2).kind == "transpose"


def test_tiles_are_about_16_kb_and_within_the_boxes():
    for elem in (1, 2, 4, 8):
        v = 16 // elem
        for n in range(2, 256 // v + 1):
            plan = plan_for((2, n, 1 << 16), dense((2, n, 1 << 16)), (0, 2, 1), elem)
            if plan.kind != "narrow":
                continue
            p = plan.params
            geo = NarrowGeometry(elem, n, p["rows"], p["width"], p["split"], p["group"])
            tile = geo.pixels * n * elem
            assert 4096 <= tile <= 16384 and geo.width <= 256
            assert all(1 <= d <= 256 for d in geo.planar_box + geo.interleaved_box)
            assert geo.pixels % geo.width == 0 and geo.width % v == 0


CASES = [((2, 3, 5136), (0, 2, 1), 1), ((2, 5136, 3), (0, 2, 1), 1),
         ((3, 1040), (1, 0), 2), ((1040, 3), (1, 0), 2), ((2, 5, 2048), (0, 2, 1), 4),
         ((2, 520, 7), (0, 2, 1), 4), ((600, 8), (1, 0), 2), ((8, 600), (1, 0), 2),
         ((2, 31, 264), (0, 2, 1), 8), ((2, 264, 29), (0, 2, 1), 8),
         ((2, 16, 2064), (0, 2, 1), 1), ((2, 3, 48, 107), (0, 2, 3, 1), 2),
         # the planar side split (rows of 256 or 64 elements), partial tiles
         ((2, 3, 4608), (0, 2, 1), 1), ((2, 4608, 3), (0, 2, 1), 1),
         ((2, 5, 1536), (0, 2, 1), 2), ((2, 1536, 5), (0, 2, 1), 2),
         ((3, 2112), (1, 0), 2), ((2112, 3), (1, 0), 2)]


@pytest.mark.parametrize("shape,dims,elem", CASES)
def test_narrow_model_equals_numpy(shape, dims, elem):
    rng = np.random.default_rng(sum(shape) + elem)
    x = bits(rng, shape, elem)
    plan = plan_for(shape, dense(shape), dims, elem)
    assert plan.kind == "narrow"
    got = model_permute(plan, x)
    assert np.array_equal(got.reshape(-1), np.ascontiguousarray(x.transpose(dims)).reshape(-1))


@pytest.mark.parametrize("shape,dims,elem", [CASES[0], CASES[1], CASES[6], CASES[12],
                                             CASES[15]])
def test_narrow_variants_equal_numpy(shape, dims, elem):
    rng = np.random.default_rng(3)
    x = bits(rng, shape, elem)
    plan = plan_for(shape, dense(shape), dims, elem)
    builder, params = kernel_for(plan)
    want = np.ascontiguousarray(x.transpose(dims)).reshape(-1)
    for name, (_, k) in narrow_variants(builder, params):
        got = model_permute(plan.__class__(plan.kind, plan.canonical, {**plan.params, **k},
                                           plan.in_view, plan.out_view), x)
        assert np.array_equal(got.reshape(-1), want), name


def test_a_view_is_read_through_its_strides():
    # Every other batch entry of (4, 3, L), and the channels of a permuted
    # (4, 3, L) read as (4, L, 3): no contiguous copy first.
    rng = np.random.default_rng(5)
    base = bits(rng, (4, 3, 2064), 2)
    for view, dims in ((base[::2], (0, 2, 1)), (base.transpose(0, 2, 1), (0, 1, 2))):
        strides = tuple(s // 2 for s in view.strides)
        plan, dense_first = call_plan(view.shape, strides, dims, 2)
        assert plan.kind == "narrow" and not dense_first
        flat = base.reshape(-1)
        offset = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // 2
        shape, st = plan.in_view
        A = np.lib.stride_tricks.as_strided(flat[offset:], shape, [s * 2 for s in st])
        B = np.zeros(plan.out_view[0], dtype=np.uint16)
        got = model_narrow(plan.params, A, B)
        assert np.array_equal(got.reshape(-1),
                              np.ascontiguousarray(view.transpose(dims)).reshape(-1))


@pytest.mark.parametrize("n,elem", [(2, 2), (3, 1), (5, 4), (3, 8)])
def test_regroup_is_its_own_inverse(n, elem):
    geo = NarrowGeometry(elem, n, 64, 64)
    channels = [[(ch, p) for p in range(geo.vec)] for ch in range(n)]
    pixels = geo.regroup(channels, "interleave")
    flat = [x for vec in pixels for x in vec]
    assert flat == [(e % n, e // n) for e in range(n * geo.vec)]
    assert geo.regroup(pixels, "deinterleave") == channels


def _phase_conflicts(offsets) -> int:
    """The worst bank-group conflict of 16-byte accesses by a warp: in each
    phase of 8 lanes, how many distinct 16-byte chunks share a bank group."""
    worst = 1
    for phase in range(4):
        chunks = {o // 16 for o in offsets[8 * phase:8 * phase + 8]}
        groups = [c % 8 for c in chunks]
        worst = max(worst, max(groups.count(b) for b in set(groups)))
    return worst


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_every_vector_moves_once_without_bank_conflicts(elem):
    from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
    v = 16 // elem
    for n in range(2, 256 // v + 1):
        geo = NarrowGeometry(elem, n, 64, 64 * v if 64 * v <= 256 else 256)
        for warp in range(2):
            lanes = range(32 * warp, 32 * warp + 32)
            for g in lanes:
                steps = [geo.interleaved_step(g, m, IntDynOps) for m in range(n)]
                assert sorted(steps) == list(range(n)), (n, g)
            for m in range(n):
                inter = [geo.interleaved_offset_of(g, geo.interleaved_step(g, m, IntDynOps))
                         for g in lanes]
                planar = [geo.planar_offset(g, m, IntDynOps) for g in lanes]
                assert _phase_conflicts(inter) == 1, (elem, n, m)
                assert _phase_conflicts(planar) == 1, (elem, n, m)


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_a_narrow_launch_is_bounded_by_its_tiles(elem):
    # The persistent narrow kernel is launched with no more CTAs than its
    # tiles: the host's count is every tile origin the kernel walks, each
    # inside the planar side, covering it (both directions, small and
    # large, split or not).
    from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
    from tile_mlir.kernels.layout.permute import _tiles, narrow_tile_count
    seen = set()
    for shape, dims in (((2, 3, 16, 16), (0, 2, 3, 1)), ((2, 16, 16, 3), (0, 3, 1, 2)),
                        ((5, 3, 64, 96), (0, 2, 3, 1)), ((5, 64, 96, 3), (0, 3, 1, 2)),
                        ((1, 4, 512, 512), (0, 2, 3, 1)), ((3, 512, 40, 4), (0, 3, 1, 2))):
        plan = plan_for(shape, dense(shape), dims, elem)
        if plan.kind != "narrow":
            continue
        _, p = kernel_for(plan)
        geo = NarrowGeometry(elem, p["n"], p["rows"], p["width"], bool(p["split"]), p["group"])
        planar = plan.in_view[0] if p["direction"] == "interleave" else plan.out_view[0]
        length = planar[2] * planar[3] if p["split"] else planar[2]
        n = narrow_tile_count(plan, p)
        assert _tiles(plan, p, plan.in_view[0]) == n   # what run() bounds the launch by
        counts = geo.counts(list(planar), IntDynOps)
        origins = {geo.origin(t, counts, IntDynOps) for t in range(n)}
        assert len(origins) == n
        assert all(b < planar[0] and x0 < length for b, x0 in origins)
        assert origins == {(b, x) for b in range(planar[0])
                           for x in range(0, length, geo.pixels)}
        seen.add((p["direction"], bool(p["split"])))
    assert len({d for d, _ in seen}) == 2
