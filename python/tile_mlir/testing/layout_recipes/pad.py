"""The pad kernels the GPU tests and the benchmark run, as compile-cache
recipes (the shapes: tile_mlir.testing.layout_cases)."""

from __future__ import annotations

from ...kernels.layout.call import unique_recipes
from ...kernels.layout.pad import (
    TORCH_DTYPES,
    boxes_forms,
    kernel_for,
    plan_for,
    recipes_for,
    rows_forms,
    rows_plan,
    variants,
)
from ...kernels.layout.plan.common import contiguous_strides
from ..layout_cases import (
    BEYOND_RANK_PADS,
    CROP_VIEWS,
    EXPANDED_CHANNEL_PAD,
    EXPANDED_PAD,
    LONG_PADS,
    PAD_BENCH,
    PAD_BENCH_SMALL,
    PAD_OUTER_BENCH,
    PAD_VIEWS,
    PAD_WIDEN_BENCH,
    PAD_WIDEN_BENCH_SMALL,
    WIDE_VIEW,
    WIDE_VIEW_PAD,
    channels_last_pad_cases,
    crop_view_strides,
    grad_pad_cases,
    pad_test_cases,
)


def cache_recipes() -> list:
    """Every pad kernel the GPU tests and the benchmark run."""
    views = [(shape, strides, pad_, 2, fill) for shape, strides, pad_, fill in PAD_VIEWS]
    views += [(*WIDE_VIEW, WIDE_VIEW_PAD, 2, "zero"), (*EXPANDED_PAD, 2, "zero"),
              (*EXPANDED_PAD, 2, "value")]
    views += [(tuple(shape[d] for d in dims), crop_view_strides(shape, dims), pad_, elem,
               "value") for shape, dims, pad_, elem in CROP_VIEWS]
    views.append(EXPANDED_CHANNEL_PAD)
    cases = (list(pad_test_cases()) + views + list(grad_pad_cases()) +
             list(channels_last_pad_cases()) + LONG_PADS + BEYOND_RANK_PADS)
    return unique_recipes(recipes_for(cases) + bench_recipes(PAD_BENCH) +
                          bench_recipes(PAD_WIDEN_BENCH) + bench_recipes(PAD_OUTER_BENCH) +
                          variant_test_recipes() +
                          forms_test_recipes(pad_test_cases()))


def bench_recipes(case, fills=("zero",)) -> list:
    """Every variant the benchmark measures for the pad `case` (shape, pad) of bf16."""
    shape, pad_ = case
    out = []
    for fill in fills:
        plan = plan_for(shape, contiguous_strides(shape), pad_, 2, fill)
        out += [k for _, k in variants(plan, "bfloat16")]
        rows = rows_plan(plan)
        if rows is not None:
            out.append(kernel_for(rows, "bfloat16"))
    return out


def forms_test_recipes(cases) -> list:
    """Both forms of every rows plan, and the kernels of every boxes plan,
    among `cases` (shape, pad, elem, fill)."""
    out = []
    for shape, pad_, elem, fill in cases:
        plan = plan_for(shape, contiguous_strides(shape), pad_, elem, fill)
        dtype_name = TORCH_DTYPES[elem, fill == "nan"]
        out += [k for _, k in rows_forms(plan, dtype_name) + boxes_forms(plan, dtype_name)]
    return unique_recipes(out)


def variant_test_recipes() -> list:
    """The variants of the GPU test's scaled-down benchmark row, for the
    zero fill and a value."""
    return [k for case in (PAD_BENCH_SMALL, PAD_WIDEN_BENCH_SMALL)
            for k in bench_recipes(case, ("zero", "value"))]
