"""The unfold kernels the GPU tests and the benchmark run, as compile-cache
recipes (the shapes: tile_mlir.testing.layout_cases)."""

from __future__ import annotations

from ...kernels.layout.call import unique_recipes
from ...kernels.layout.unfold import plan_for, recipes_for, variants
from ..layout_cases import GRAD_ELEMS, UNFOLD_BENCH, UNFOLD_GRAD, unfold_test_cases


def layout_shape(nchw_shape, layout: str) -> tuple:
    n, c, h, w = nchw_shape
    return (n, c, h, w) if layout == "NCHW" else (n, h, w, c)


def cache_recipes() -> list:
    """Every unfold kernel the GPU tests and the benchmark run."""
    cases = [(layout_shape(shape, layout), k, p, s, d, layout, elem)
             for shape, k, p, s, d, layout, elem in unfold_test_cases()]
    cases += [(layout_shape(shape, layout), k, p, s, d, layout, elem)
              for shape, k, p, s, d, layout in UNFOLD_GRAD for elem in GRAD_ELEMS]
    out = recipes_for(cases, gather=True)
    shape, k, p, s, d = UNFOLD_BENCH
    for layout in ("NCHW", "NHWC"):
        plan = plan_for(layout_shape(shape, layout), 2, k, p, s, d, layout)
        out += [kernel for _, kernel in variants(plan)]
    return unique_recipes(out)
