"""The permute kernels the GPU tests and the benchmark run, as compile-cache
recipes (the shapes: tile_mlir.testing.layout_cases)."""

from __future__ import annotations

from ...kernels.layout.call import unique_recipes
from ...kernels.layout.permute import (
    kernel_for,
    plan_for,
    recipes_for,
    simt_plan,
    thread_load_forms,
    thread_store_forms,
    variants,
    vector_variants,
)
from ...kernels.layout.plan.common import contiguous_strides
from ..layout_cases import (
    BEYOND_RANK_PERMUTES,
    ELEMS,
    EXPANDED_PERMUTE,
    IDENTITY_COPIES,
    LONG_PERMUTES,
    NARROW_BENCH,
    NARROW_BENCH_SMALL,
    NARROW_VIEWS,
    PERMUTE_BENCH,
    PERMUTE_BENCH_SMALL,
    PERMUTE_EXTRA,
    PERMUTE_VIEWS,
    SIMT_ROWS_BENCH,
    SIMT_ROWS_BENCH_SMALL,
    SIMT_ROWS_VIEWS,
    SIMT_TILED_BENCH,
    SIMT_TILED_BENCH_SMALL,
    SIMT_TILED_VIEWS,
    THREAD_LOAD_VIEWS,
    THREAD_STORE_SHAPES,
    TRANSPOSE_BENCH,
    WIDE_VIEW,
    WIDE_VIEW_DIMS,
    grad_permute_cases,
    narrow_test_cases,
    permute_test_cases,
    simt_rows_test_cases,
    simt_tiled_test_cases,
)


def previous_transpose_recipe() -> tuple:
    """The fastest transpose of bench/transpose.py (one 128 x 128 tile per CTA,
    512 threads, column order, wide boxes both ways) for the benchmark's
    2-D transpose, whose size it is built for."""
    rows, cols = TRANSPOSE_BENCH
    return ("tile_mlir.kernels.copy.transpose_inplace:build_transpose_one_tile",
            {"rows": rows, "cols": cols, "tile": [128, 128], "threads": 512,
             "order": "column", "wide_in": True, "wide_out": True})


def bench_recipes() -> list:
    """The benchmark's kernels: every table row's plan and its variants."""
    out = [previous_transpose_recipe()]
    for shape, dims in PERMUTE_BENCH + [(TRANSPOSE_BENCH, (1, 0))]:
        plan = plan_for(shape, contiguous_strides(shape), dims, 2)
        out += [kernel for _, kernel in variants(plan)]
    return out


def variant_test_recipes() -> list:
    """Every variant of the GPU test's scaled-down benchmark rows (bf16:
    partial tiles for the one-tile form and the other variants)."""
    out = []
    for shape, dims in PERMUTE_BENCH_SMALL:
        plan = plan_for(shape, contiguous_strides(shape), dims, 2)
        out += [kernel for _, kernel in variants(plan)]
    return out


def thread_form_test_recipes() -> list:
    """The threads' stores and loads (thread_store_forms, thread_load_forms)
    of THREAD_STORE_SHAPES' transposing plans at every element size, and
    the loads of THREAD_LOAD_VIEWS (the GPU tests')."""
    dense = [(shape, contiguous_strides(shape), dims, elem)
             for shape, dims in THREAD_STORE_SHAPES for elem in ELEMS]
    out = []
    for forms, cases in ((thread_store_forms, dense),
                         (thread_load_forms, dense + THREAD_LOAD_VIEWS)):
        for shape, strides, dims, elem in cases:
            plan = plan_for(shape, strides, dims, elem)
            if plan.kind == "transpose":
                out += [kernel for _, kernel in forms(plan)]
    return out


def vector_test_recipes() -> list:
    """The vector permutes (vector_variants) of every GPU test shape whose
    plan moves boxes."""
    out = []
    for shape, dims, elem in permute_test_cases():
        plan = plan_for(shape, contiguous_strides(shape), dims, elem)
        out += [kernel for _, kernel in vector_variants(plan)]
    return out


def cache_recipes() -> list:
    """Every permute kernel the GPU tests and the benchmark run
    (`tile-mlir cache populate tile_mlir.kernels.layout.permute:cache_recipes`)."""
    cases = list(permute_test_cases()) + PERMUTE_EXTRA + LONG_PERMUTES + BEYOND_RANK_PERMUTES + \
        list(grad_permute_cases()) + [
        (shape, strides, dims, elem) for shape, strides, dims in PERMUTE_VIEWS
        for elem in (1, 2, 4, 8)] + [(*WIDE_VIEW, WIDE_VIEW_DIMS, 2), (*EXPANDED_PERMUTE, 2)] + [
        (shape, strides, dims, 2) for shape, strides, dims in IDENTITY_COPIES]
    cases += list(narrow_test_cases()) + [(shape, strides, dims, elem) for shape, strides, dims
                                          in NARROW_VIEWS for elem in (1, 2)]
    cases += list(simt_tiled_test_cases()) + [(shape, strides, dims, elem) for shape, strides,
                                              dims in SIMT_TILED_VIEWS for elem in ELEMS]
    cases += list(simt_rows_test_cases()) + [(shape, strides, dims, elem) for shape, strides,
                                             dims in SIMT_ROWS_VIEWS for elem in ELEMS]
    narrow = []
    for shape, dims, elem in NARROW_BENCH + NARROW_BENCH_SMALL + SIMT_TILED_BENCH + \
            SIMT_TILED_BENCH_SMALL + SIMT_ROWS_BENCH + SIMT_ROWS_BENCH_SMALL:
        plan = plan_for(shape, contiguous_strides(shape), dims, elem)
        narrow += [kernel for _, kernel in variants(plan)] + [kernel_for(simt_plan(plan))]
    return unique_recipes(recipes_for(cases) + bench_recipes() + variant_test_recipes() +
                          thread_form_test_recipes() + vector_test_recipes() + narrow)
