"""The kernels of the repeated-call cases (layout_cases.CALL_CASES), as
compile-cache recipes: test/gpu/test_layout_prepared.py and
bench/layout_call_cost.py run them."""

from __future__ import annotations

from ...kernels.layout import pad, permute, unfold
from ...kernels.layout.call import unique_recipes
from ..layout_cases import CALL_CASES, CALL_CHANNELS_LAST

_FILLS = {0: "zero", 1.5: "value"}


def _fill(value) -> str:
    return "nan" if value != value else _FILLS[value]


def cache_recipes() -> list:
    """Every kernel the repeated-call cases run."""
    out = []
    for op, shape, args, elem in CALL_CASES:
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
