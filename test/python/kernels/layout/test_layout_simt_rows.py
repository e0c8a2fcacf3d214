"""The SIMT row copy on the CPU: which permutations take it (those that keep
the innermost axis on strides the copy engine cannot address) and which
stay one element a thread, its tile rule, its model (the kernel's tile
walk, clamped loads and bounded stores) against NumPy on random bits for
every element size, shapes and views, every benchmark variant, and its
lane map: each tile element moved once, consecutive lanes on consecutive
elements of a row."""

import numpy as np
import pytest

from tile_mlir.testing.layout_cases import (ELEMS, SIMT_ROWS_BENCH, SIMT_ROWS_BENCH_SMALL,
                                            SIMT_ROWS_SHAPES, SIMT_ROWS_VIEWS)
from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
from tile_mlir.kernels.layout.model import input_view, model_permute, model_simt_rows, storage
from tile_mlir.kernels.layout.plan.common import contiguous_strides
from tile_mlir.kernels.layout.plan.permute import simt_row_tile
from tile_mlir.kernels.layout.permute import (call_plan, kernel_for, plan_for, simt_plan,
                                       simt_row_tiles, variants)
from tile_mlir.kernels.layout.builders.permute_simt_rows import build_permute_simt_rows
from tile_mlir.kernels.layout.geometry.simt import SimtRowsGeometry, rows_geometry

from layout_bits import bits, strided_input


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("shape,dims", SIMT_ROWS_SHAPES)
def test_unaligned_row_permutes_take_the_row_copy(shape, dims, elem):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["cols"]
    builder, params = kernel_for(plan)
    assert builder.endswith(":build_permute_simt_rows")
    assert params == {"elem": elem, "perm": list(plan.canonical.perm),
                      "rows": plan.params["rows"], "cols": plan.params["cols"],
                      "threads": 256}


@pytest.mark.parametrize("row,next_axis,elem,tile", [
    (4095, 64, 2, (32, 256, 256)),     # 16 KiB: 8192 elements, 256 columns
    (4095, 64, 1, (32, 256, 256)),     # at most 8192 elements
    (4095, 64, 4, (16, 256, 256)),
    (4095, 64, 8, (8, 256, 256)),
    (9, 4096, 2, (512, 16, 256)),      # rows under a warp: the row's power of two
    (41, 7, 2, (8, 64, 256)),          # 8 rows: the next axis's power of two
    (300, 1000, 2, (128, 64, 256)),    # 320 padded columns for 32 and 64: the wider
    (257, 100, 2, (128, 64, 256)),     # 128 rows leave room for 64 columns
    (257, 3, 2, (4, 512, 256)),        # 3 rows: the row's power of two
    (1001, None, 2, (1, 1024, 256)),   # rank 1: a piece of the run
    (100000, None, 4, (1, 4096, 256)),
    (100, None, 2, (1, 128, 128)),
    (3, 2, 2, (2, 4, 8)),
])
def test_the_row_tile(row, next_axis, elem, tile):
    assert simt_row_tile(row, next_axis, elem) == tile


@pytest.mark.parametrize("shape,dims,why", [
    ((3, 5, 7), (1, 0, 2), "a tile of 4 x 8 elements"),
    ((2, 7000, 3), (1, 0, 2), "rows of 3 along an axis of 2"),
    ((7, 9), (0, 1), "63 elements"),
])
def test_tiles_under_a_cta_stay_one_element_a_thread(shape, dims, why):
    plan = plan_for(shape, contiguous_strides(shape), dims, 2)
    assert plan.kind == "simt" and plan.params["tile"] == 0 and "cols" not in plan.params, why
    assert kernel_for(plan)[0].endswith(":build_permute_simt")


def test_aligned_row_permutes_keep_the_copy_engine():
    for shape, dims in [((4096, 64, 4096), (1, 0, 2)), ((64, 4096, 32, 128), (0, 2, 1, 3))]:
        assert plan_for(shape, contiguous_strides(shape), dims, 2).kind == "boxes"


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("shape,dims", SIMT_ROWS_SHAPES)
def test_model_matches_numpy(shape, dims, elem):
    rng = np.random.default_rng(sum(shape) * elem)
    x = bits(rng, shape, elem)
    plan, _ = call_plan(shape, contiguous_strides(shape), dims, elem)
    assert np.array_equal(model_permute(plan, x).reshape(-1), x.transpose(dims).reshape(-1))


@pytest.mark.parametrize("elem", ELEMS)
@pytest.mark.parametrize("shape,strides,dims", SIMT_ROWS_VIEWS)
def test_model_of_views_matches_numpy(shape, strides, dims, elem):
    """Strided inputs (a sliced matrix, a strided batch): read in place."""
    rng = np.random.default_rng(len(shape) + elem)
    flat, view = strided_input(rng, shape, strides, elem)
    plan, dense = call_plan(shape, strides, dims, elem)
    assert not dense and plan.kind == "simt" and plan.params["cols"]
    A = input_view(plan, flat)
    B = np.zeros(plan.out_view[0], dtype=storage(elem))
    got = model_simt_rows(rows_geometry(plan.params, elem), A, B)
    assert np.array_equal(got.reshape(-1), view.transpose(dims).reshape(-1))


@pytest.mark.parametrize("shape,dims,elem", SIMT_ROWS_BENCH_SMALL)
def test_every_benchmark_variant_models_numpy(shape, dims, elem):
    rng = np.random.default_rng(shape[-1])
    x = bits(rng, shape, elem)
    want = x.transpose(dims).reshape(-1)
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    rows = plan.params["rows"]
    names = []
    for name, (_, params) in variants(plan):
        names.append(name)
        A = x.reshape(plan.in_view[0])
        B = np.zeros(plan.out_view[0], dtype=storage(elem))
        assert np.array_equal(model_simt_rows(rows_geometry(params, elem), A, B).reshape(-1),
                              want), name
    assert names == ["default", f"rows {rows // 2}", f"rows {rows * 2}", "t512", "t128", "t64"]
    assert simt_plan(plan).params == {"elem": elem, "perm": plan.canonical.perm, "tile": 0}


@pytest.mark.parametrize("shape,dims,elem", SIMT_ROWS_BENCH)
def test_the_benchmark_rows_take_the_row_copy(shape, dims, elem):
    plan = plan_for(shape, contiguous_strides(shape), dims, elem)
    assert plan.kind == "simt" and plan.params["cols"]


@pytest.mark.parametrize("rows,cols,threads", [(32, 256, 256), (512, 16, 256), (1, 1024, 256),
                                               (8, 64, 512), (2, 4, 8)])
def test_each_tile_element_moves_once_along_lanes(rows, cols, threads):
    geo = SimtRowsGeometry((1, 0, 2), 2, rows, cols, threads)
    tid = np.arange(threads)
    seen = np.zeros((rows, cols), dtype=int)
    for s in range(geo.steps):
        i, j = geo.slot(tid, s, IntDynOps)
        np.add.at(seen, (i, j), 1)
        # A warp's lanes: as few rows as the tile allows, consecutive
        # columns within each.
        lanes = min(32, threads)
        for w in range(0, threads, lanes):
            wi, wj = i[w:w + lanes], j[w:w + lanes]
            assert len(set(wi)) == max(1, lanes // cols)
            for row in set(wi):
                run = wj[wi == row]
                assert list(run) == list(range(run[0], run[0] + len(run)))
    assert (seen == 1).all()


def test_the_launch_is_the_tile_count():
    plan = plan_for((100, 3, 257), contiguous_strides((100, 3, 257)), (1, 0, 2), 2)
    # Output (3, 100, 257): 100 rows of 257 in tiles of 128 x 64.
    assert (plan.params["rows"], plan.params["cols"]) == (128, 64)
    assert simt_row_tiles(plan.canonical, plan.params) == 3 * 1 * 5


@pytest.mark.parametrize("perm,rows,cols,threads,why", [
    ((0, 2, 1), 32, 256, 256, "keeps the innermost axis"),
    ((1, 0, 2), 24, 256, 256, "powers of two"),
    ((1, 0, 2), 1, 64, 128, "a multiple of the threads"),
    ((0,), 2, 64, 64, "one row at rank 1"),
])
def test_bad_geometries_are_refused(perm, rows, cols, threads, why):
    with pytest.raises(ValueError, match=why):
        SimtRowsGeometry(perm, 2, rows, cols, threads)
    with pytest.raises(ValueError, match=why):
        build_permute_simt_rows(2, perm, rows, cols, threads)
