"""The SIMT transpose through shared memory on the CPU: which shapes take it
(and which stay one element a thread), its model (the kernel's very tile
walk, clamped loads, shared pitch and bounded stores) against NumPy's
transpose on random bits, and its lane maps: every tile element moved once
each way, no bank conflicts in either shared-memory pass."""

import numpy as np
import pytest

from tile_mlir.testing.layout_cases import (ELEMS, SIMT_TILED_BENCH, SIMT_TILED_BENCH_SMALL,
                                            SIMT_TILED_SHAPES, SIMT_TILED_VIEWS)
from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
from tile_mlir.kernels.layout.model import input_view, model_permute, model_simt_tiled, storage
from tile_mlir.kernels.layout.plan.common import contiguous_strides
from tile_mlir.kernels.layout.plan.permute import SIMT_TILE_L, SIMT_TILES, simt_tile
from tile_mlir.kernels.layout.permute import (call_plan, kernel_for, plan_for, simt_plan, simt_tiles,
                                       variants)
from tile_mlir.kernels.layout.builders.permute_simt_tiled import build_permute_simt_tiled
from tile_mlir.kernels.layout.geometry.simt import SimtTileGeometry, simt_geometry

from layout_bits import bits, strided_input


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("shape,dims", SIMT_TILED_SHAPES)
def test_unaligned_transposes_take_the_tiled_kernel(shape, dims, elem):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["tile"] in SIMT_TILES
    assert plan.params["tile_l"] == SIMT_TILE_L
    builder, params = kernel_for(plan)
    assert builder.endswith(":build_permute_simt_tiled")
    assert (params["tile"], params["tile_l"], params["grid"]) == \
        (plan.params["tile"], SIMT_TILE_L, 0)
    assert params["threads"] == (512 if elem == 2 and not plan.params["vec"] else 256)


@pytest.mark.parametrize("out_row,elem,tile", [
    (32, 2, 64), (64, 2, 64), (127, 2, 64), (128, 2, 128), (255, 1, 128), (256, 2, 256),
    (50257, 4, 256), (50257, 8, 128), (100, 8, 64)])
def test_the_tile_is_the_longest_the_output_rows_fill(out_row, elem, tile):
    """Within 64 KiB of shared memory: 8-byte elements stop at 128."""
    assert simt_tile(out_row, elem) == tile


@pytest.mark.parametrize("shape,dims,elem,vec", [
    ((8, 50257, 768), (0, 2, 1), 2, "in"),      # input rows of 768: whole vectors
    ((8192, 512, 7, 7), (0, 2, 3, 1), 2, "out"),  # output rows of 512 channels
    ((32767, 32767), (1, 0), 2, ""),
    ((64, 33), (1, 0), 1, "out"),               # 64 one-byte elements: 4 vectors
    ((40, 3, 2, 35), (3, 1, 2, 0), 1, ""),       # 40 bytes: not whole vectors
    ((40, 3, 2, 35), (3, 1, 2, 0), 2, "out"),
    ((3, 101, 80), (0, 2, 1), 1, "in"),
    ((3, 101, 81), (0, 2, 1), 8, ""),            # 81-element rows: no side whole
])
def test_the_vector_side_is_the_one_in_whole_vectors(shape, dims, elem, vec):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["vec"] == vec
    assert kernel_for(plan)[1]["vec"] == vec


def test_an_input_stride_off_the_vectors_keeps_elements():
    """Rows of 80 one-byte elements 88 bytes apart: the rows are whole
    vectors but the strides are not."""
    plan, dense = call_plan((3, 101, 80), (101 * 88, 88, 1), (0, 2, 1), 1)
    assert not dense and plan.kind == "simt" and plan.params["vec"] == ""


@pytest.mark.parametrize("elem", ELEMS)
def test_the_shapes_cover_both_vector_sides_and_elements(elem):
    sides = {plan_for(shape, contiguous_strides(shape), dims, elem).params["vec"]
             for shape, dims in SIMT_TILED_SHAPES}
    assert sides == {"", "in", "out"}


def test_the_tile_follows_the_output_rows():
    """The tile runs along the output's rows: input axis perm[-1]."""
    for shape, dims, tile in [((1003, 64), (1, 0), 256), ((2, 150, 77), (0, 2, 1), 128),
                              ((300, 5, 97), (2, 1, 0), 256), ((100, 129), (1, 0), 64)]:
        assert plan_for(shape, contiguous_strides(shape), dims, 2).params["tile"] == tile


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
    geo = simt_geometry(plan.params, elem)
    A = input_view(plan, flat)
    B = np.zeros(plan.out_view[0], dtype=storage(elem))
    got = model_simt_tiled(geo, A, B)
    assert np.array_equal(got.reshape(-1), view.transpose(dims).reshape(-1))


@pytest.mark.parametrize("shape,dims,elem", SIMT_TILED_BENCH_SMALL)
def test_every_benchmark_variant_models_numpy(shape, dims, elem):
    """The benchmark's variants (other tile lengths, more threads, CTAs
    that loop over tiles) move the same elements."""
    rng = np.random.default_rng(shape[-1])
    x = bits(rng, shape, elem)
    want = x.transpose(dims).reshape(-1)
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    names = []
    for name, (_, params) in variants(plan):
        names.append(name)
        geo = simt_geometry(params, elem)
        A = x.reshape(plan.in_view[0])
        B = np.zeros(plan.out_view[0], dtype=storage(elem))
        assert np.array_equal(model_simt_tiled(geo, A, B).reshape(-1), want), name
    assert {"loop g528", "loop g1056"} <= set(names)
    assert ("t256" if plan.params["threads"] == 512 else "t512") in names
    assert ("elements" in names) == bool(plan.params["vec"])
    assert len([n for n in names if n.endswith(f"x{SIMT_TILE_L}")]) == len(SIMT_TILES) - 1
    assert simt_plan(plan).params["tile"] == 0


TILE_SHAPES = [(32, 32, 256), (64, 64, 256), (256, 64, 256), (128, 64, 512), (32, 128, 128)]


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("tile,tile_l,threads", TILE_SHAPES)
def test_each_tile_element_moves_once_each_way(tile, tile_l, threads, elem):
    geo = SimtTileGeometry((1, 0), elem, tile, threads, tile_l)
    for slot in (geo.load_slot, geo.store_slot):
        seen = [slot(tid % 32, tid // 32, s) for tid in range(geo.threads)
                for s in range(geo.steps)]
        assert sorted(seen) == [(i, j) for i in range(tile) for j in range(tile_l)]


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("vec", ["in", "out"])
@pytest.mark.parametrize("tile,tile_l,threads", [(64, 64, 256), (256, 64, 256),
                                                 (128, 64, 512), (64, 32, 128)])
def test_each_vector_form_moves_every_element_once_each_way(tile, tile_l, threads, vec, elem):
    """The load pass writes, and the store pass reads, every element of the
    shared tile once; the two agree on where tile element (i, j) sits."""
    geo = SimtTileGeometry((1, 0), elem, tile, threads, tile_l, vec)
    w, tid = geo.width, np.arange(threads)
    places = []
    for task in (geo.vec_load_task, geo.vec_store_task):
        seen = {}
        for s in range(geo.vec_steps):
            i, j, row, chunk = task(tid, s, IntDynOps)
            for m in range(w):
                di, dj = (m, 0) if vec == "out" else (0, m)
                for a, b, r, c in zip(i + di, j + dj, row, chunk * w + m):
                    assert (a, b) not in seen
                    seen[a, b] = (r, c)
        assert sorted(seen) == [(i, j) for i in range(tile) for j in range(tile_l)]
        places.append(seen)
    assert places[0] == places[1]


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
@pytest.mark.parametrize("tile,tile_l,threads", TILE_SHAPES)
def test_no_bank_conflicts_either_way(tile, tile_l, threads, elem):
    """Every warp access of both passes (the row writes after the loads and
    the column reads before the stores) takes the fewest passes its bytes
    allow: one, two for 8-byte elements."""
    geo = SimtTileGeometry((0, 2, 1), elem, tile, threads, tile_l)
    least = -(-32 * elem // 128)
    for slot in (geo.load_slot, geo.store_slot):
        for warp in range(geo.threads // 32):
            for s in range(geo.steps):
                offsets = [(i * geo.pitch + j) * elem
                           for i, j in (slot(lane, warp, s) for lane in range(32))]
                assert wavefronts(offsets, elem) == least, (slot.__name__, warp, s)


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("vec", ["in", "out"])
@pytest.mark.parametrize("tile,tile_l,threads", [(64, 64, 256), (256, 64, 256),
                                                 (128, 64, 512), (64, 32, 128)])
def test_no_bank_conflicts_in_the_vector_forms(tile, tile_l, threads, vec, elem):
    """Every warp's 16-byte shared access of both passes takes four passes,
    the fewest 512 bytes allow."""
    geo = SimtTileGeometry((0, 2, 1), elem, tile, threads, tile_l, vec)
    pitch = geo.shared_shape[1]
    for task in (geo.vec_load_task, geo.vec_store_task):
        for warp in range(threads // 32):
            for s in range(geo.vec_steps):
                _, _, row, chunk = task(np.arange(32) + 32 * warp, s, IntDynOps)
                offsets = [(r * pitch + c * geo.width) * elem for r, c in zip(row, chunk)]
                assert wavefronts(offsets, 16) == 4, (task.__name__, warp, s)


def test_tile_count_covers_partial_tiles():
    plan = plan_for((100, 3, 129), contiguous_strides((100, 3, 129)), (2, 1, 0), 2)
    assert simt_tiles(plan.canonical, 64) == 2 * 3 * 3
    assert simt_tiles(plan.canonical, 256, 64) == 1 * 3 * 3
    assert simt_tiles(plan.canonical, 64, 128) == 2 * 3 * 2


@pytest.mark.parametrize("shape,dims,elem", SIMT_TILED_BENCH)
def test_the_benchmark_rows_take_the_tiled_kernel(shape, dims, elem):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["tile"] in SIMT_TILES


@pytest.mark.parametrize("kwargs,needle", [
    ({"tile": 48}, "tile 48"),
    ({"tile": 64, "threads": 100}, "100 threads"),
    ({"tile": 32, "threads": 2048}, "2048 threads"),
    ({"tile": 64, "tile_l": 40}, "tile 64 x 40"),
    ({"tile": 96, "tile_l": 64, "threads": 96}, "of the 3 warps"),
    ({"tile": 64, "vec": "both"}, "vec 'both'"),
    ({"tile": 32, "tile_l": 32, "vec": "in"}, "128 vectors do not split over 256"),
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
