"""The kernels of the repeated-call cases (layout_cases.CALL_CASES, their
first-call extents CALL_FIRST_EXTENTS, CALL_TEST_CASES), as compile-cache
recipes: test/gpu/test_layout_prepared.py and bench/layout_call_cost.py
run them."""

from __future__ import annotations

import math

from ...kernels.layout import pad, permute, unfold
from ...kernels.layout.call import unique_recipes
from ..layout_cases import CALL_CASES, CALL_CHANNELS_LAST, CALL_FIRST_EXTENTS, CALL_TEST_CASES


def _fill(value) -> str:
    """The pad kind of a fill value: NaN, all-zero bits (0.0, not -0.0), or a value."""
    if value != value:
        return "nan"
    return "zero" if value == 0 and math.copysign(1.0, value) > 0 else "value"


def _cases():
    """CALL_CASES, each at its first-call extents, and CALL_TEST_CASES."""
    for op, shape, args, elem in CALL_CASES:
        yield op, shape, args, elem
        for k in CALL_FIRST_EXTENTS:
            yield op, (shape[0] * k, *shape[1:]), args, elem
    yield from CALL_TEST_CASES


def cache_recipes() -> list:
    """Every kernel the repeated-call cases run."""
    out = []
    for op, shape, args, elem in _cases():
        if op == "permute":
            out += permute.recipes_for([(shape, args[0], elem)])
        elif op == "pad":
            out += pad.recipes_for([(shape, args[0], elem, _fill(args[1]))])
        else:
            k, p, s, d, layout = args
            nchw = shape if len(shape) == 4 or layout == "NHWC" else (1, *shape)
            out += unfold.recipes_for([(nchw, k, p, s, d, layout, elem)])
    (n, c, h, w), spec, elem = CALL_CHANNELS_LAST
    out += pad.recipes_for([((n, h, w, c), (0, 0) + tuple(spec), elem, "zero")])
    return unique_recipes(out)
