"""bench/layout_variants.py: each sweep cell's variants, planned from the
cell alone, include as "default" the very kernel the cell's public call
runs (the sweep's compile recipes, made by the ops' own planning), and
"all" selects every variant."""

import importlib
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench"


@pytest.fixture(scope="module")
def V():
    sys.path.insert(0, str(BENCH))
    yield importlib.import_module("layout_variants")   # as layout_sweep.py imports it
    sys.path.remove(str(BENCH))


def recipe_set(entries):
    return {(getattr(b, "__name__", b), repr(sorted(p.items()))) for b, p in entries}


@pytest.mark.parametrize("size", ["64K", "16M", "256M"])
def test_default_variant_is_the_calls_kernel(V, size):
    from tile_mlir.kernels.layout import permute as P
    from tile_mlir.kernels.layout.plan.common import contiguous_strides
    from tile_mlir.kernels.layout.tuning import TUNINGS
    from tile_mlir.testing import layout_sweep as S
    from tile_mlir.testing.layout_recipes.sweep import cache_recipes
    cells = S.sweep_cells(None, None, [S.parse_size(size)], None)
    skipped = 0
    for cell in cells:
        calls = recipe_set(cache_recipes([cell]))
        for tuning in TUNINGS:
            cv = V.cell_variants(cell, tuning)
            if cv is None:   # channels_last pads (a reordered call) and copies
                assert cell.op == "pad"
                skipped += 1
                continue
            assert "default" in cv.kernels, cell.key
            default = recipe_set([cv.kernels["default"]])
            assert default <= calls, cell.key
            if cell.op == "permute":
                # The permutes' kernels depend on the card: the default is
                # this tuning's own, not merely one of either card's.
                shape = tuple(cell.shape)
                plan, _ = P.call_plan(shape, contiguous_strides(shape), cell.args["dims"],
                                      cell.elem)
                assert default == recipe_set([P.kernel_for(plan, tuning)]), \
                    (cell.key, tuning.name)
            assert len(cv.out_shape) and cv.out_shape[-1] > 0
    assert skipped < len(cells) // 4


def test_all_selects_every_variant(V):
    kernels = {"default": 1, "g264": 2, "s4": 3}
    assert V.chosen(kernels, ["all"]) == list(kernels.items())
    assert V.chosen(kernels, ["s4", "nope"]) == [("s4", 3)]
    assert V.chosen(kernels, []) == []
