"""The SIMT transpose through shared memory on the CPU: which shapes take it
(and which stay one element a thread), its model (the kernel's very tile
walk, clamped loads, shared pitch and bounded stores) against NumPy's
transpose on random bits, and its lane maps: every tile element moved once
each way, no bank conflicts in either shared-memory pass."""

import numpy as np
import pytest

from tile_mlir.kernels.layout_cases import (ELEMS, SIMT_TILED_BENCH, SIMT_TILED_BENCH_SMALL,
                                            SIMT_TILED_SHAPES, SIMT_TILED_VIEWS)
from tile_mlir.kernels.layout_model import model_permute, model_simt_tiled, storage
from tile_mlir.kernels.layout_plan import SIMT_TILE, contiguous_strides
from tile_mlir.kernels.permute import (call_plan, kernel_for, plan_for, simt_plan, simt_tiles,
                                       variants)
from tile_mlir.kernels.permute_simt_tiled import SimtTileGeometry, build_permute_simt_tiled


def bits(rng, shape, elem):
    return rng.integers(0, (1 << (8 * elem)) - 1, size=shape, dtype=storage(elem),
                        endpoint=True)


def strided_input(rng, shape, strides, elem):
    """A random buffer just large enough for the view, and the view."""
    span = 1 + sum((d - 1) * s for d, s in zip(shape, strides))
    flat = bits(rng, (span,), elem)
    view = np.lib.stride_tricks.as_strided(flat, shape, [s * elem for s in strides])
    return flat, view


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("shape,dims", SIMT_TILED_SHAPES)
def test_unaligned_transposes_take_the_tiled_kernel(shape, dims, elem):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["tile"] == SIMT_TILE
    builder, params = kernel_for(plan)
    assert builder.endswith(":build_permute_simt_tiled") and params["tile"] == SIMT_TILE


@pytest.mark.parametrize("shape,dims,elem,why", [
    ((3, 5, 7), (1, 0, 2), 2, "the innermost axis stays"),
    ((31, 100), (1, 0), 2, "31 rows: under half a tile"),
    ((100, 31), (1, 0), 2, "31 columns"),
    ((7, 9, 5), (2, 0, 1), 1, "short axes"),
])
def test_other_simt_shapes_stay_one_element_a_thread(shape, dims, elem, why):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["tile"] == 0, why
    assert kernel_for(plan)[0].endswith(":build_permute_simt")


def test_aligned_transposes_keep_the_copy_engine():
    for shape, dims, elem in [((4096, 4096), (1, 0), 2), ((8, 50256, 768), (0, 2, 1), 2)]:
        assert plan_for(shape, contiguous_strides(shape), dims, elem).kind == "transpose"


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("shape,dims", SIMT_TILED_SHAPES)
def test_model_matches_numpy(shape, dims, elem):
    rng = np.random.default_rng(sum(shape) * elem)
    x = bits(rng, shape, elem)
    plan, _ = call_plan(shape, contiguous_strides(shape), dims, elem)
    assert np.array_equal(model_permute(plan, x).reshape(-1), x.transpose(dims).reshape(-1))


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("shape,strides,dims", SIMT_TILED_VIEWS)
def test_model_of_views_matches_numpy(shape, strides, dims, elem):
    """Strided inputs: the kernel reads the view in place."""
    rng = np.random.default_rng(len(shape) + elem)
    flat, view = strided_input(rng, shape, strides, elem)
    plan, _ = call_plan(shape, strides, dims, elem)
    assert plan.kind == "simt" and plan.params["tile"]
    geo = SimtTileGeometry(tuple(plan.params["perm"]), elem, plan.params["tile"])
    shape_in, strides_in = plan.in_view
    A = np.lib.stride_tricks.as_strided(flat, shape_in, [s * elem for s in strides_in])
    B = np.zeros(plan.out_view[0], dtype=storage(elem))
    got = model_simt_tiled(geo, A, B)
    assert np.array_equal(got.reshape(-1), view.transpose(dims).reshape(-1))


@pytest.mark.parametrize("shape,dims,elem", SIMT_TILED_BENCH_SMALL)
def test_every_benchmark_variant_models_numpy(shape, dims, elem):
    """The benchmark's variants (fewer CTAs, a 32-element tile) move the
    same elements."""
    rng = np.random.default_rng(shape[-1])
    x = bits(rng, shape, elem)
    want = x.transpose(dims).reshape(-1)
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    names = []
    for name, (_, params) in variants(plan):
        names.append(name)
        geo = SimtTileGeometry(tuple(params["perm"]), elem, params["tile"])
        A = x.reshape(plan.in_view[0])
        B = np.zeros(plan.out_view[0], dtype=storage(elem))
        assert np.array_equal(model_simt_tiled(geo, A, B).reshape(-1), want), name
    assert "tile 32" in names and "g528" in names
    assert simt_plan(plan).params["tile"] == 0


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("tile", [32, 64])
def test_each_tile_element_moves_once_each_way(tile, elem):
    geo = SimtTileGeometry((1, 0), elem, tile)
    for slot in (geo.load_slot, geo.store_slot):
        seen = [slot(tid % 32, tid // 32, s) for tid in range(geo.threads)
                for s in range(geo.steps)]
        assert sorted(seen) == [(i, j) for i in range(tile) for j in range(tile)]


def wavefronts(byte_offsets, elem):
    """Shared-memory passes one warp access needs: a 4-byte bank serves one
    word a pass (lanes on the same word share it)."""
    words = set()
    for a in byte_offsets:
        words.update((a + b) // 4 for b in range(0, max(elem, 4), 4))
    per_bank = {}
    for w in words:
        per_bank[w % 32] = per_bank.get(w % 32, 0) + 1
    return max(per_bank.values())


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("tile", [32, 64])
def test_no_bank_conflicts_either_way(tile, elem):
    """Every warp access of both passes (the row writes after the loads and
    the column reads before the stores) takes the fewest passes its bytes
    allow: one, two for 8-byte elements."""
    geo = SimtTileGeometry((0, 2, 1), elem, tile)
    least = -(-32 * elem // 128)
    for slot in (geo.load_slot, geo.store_slot):
        for warp in range(geo.threads // 32):
            for s in range(geo.steps):
                offsets = [(i * geo.pitch + j) * elem
                           for i, j in (slot(lane, warp, s) for lane in range(32))]
                assert wavefronts(offsets, elem) == least, (slot.__name__, warp, s)


def test_tile_count_covers_partial_tiles():
    plan = plan_for((100, 3, 129), contiguous_strides((100, 3, 129)), (2, 1, 0), 2)
    assert simt_tiles(plan.canonical, 64) == 2 * 3 * 3


@pytest.mark.parametrize("shape,dims,elem", SIMT_TILED_BENCH)
def test_the_benchmark_rows_take_the_tiled_kernel(shape, dims, elem):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["tile"] == SIMT_TILE


@pytest.mark.parametrize("kwargs,needle", [
    ({"tile": 48}, "tile 48"),
    ({"tile": 64, "threads": 100}, "100 threads"),
    ({"tile": 32, "threads": 2048}, "2048 threads"),
])
def test_bad_geometry_is_named(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        SimtTileGeometry((1, 0), 2, **kwargs)


def test_a_kept_innermost_axis_is_refused():
    with pytest.raises(ValueError, match=r"perm \(1, 0, 2\).*innermost axis must move"):
        SimtTileGeometry((1, 0, 2), 2)


@pytest.mark.parametrize("perm", [(0, 0), (0, 1, 2, 3, 4, 5)[::-1]])
def test_bad_permutations_are_named(perm):
    with pytest.raises(ValueError, match="not a permutation of rank 2..5"):
        build_permute_simt_tiled(2, perm)
