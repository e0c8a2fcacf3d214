"""The SIMT row copy on the GPU (tile_mlir.kernels.layout.builders.permute_simt_rows:
permutations that keep the innermost axis on strides the copy engine
cannot address), bit-exact against torch on fresh random bits: ranks 1-5
with partial tiles both ways for every element size, strided views, and
every variant the benchmark measures (and the one-element-a-thread kernel
it replaced).

    TILE_GPU_ARTIFACTS=.artifacts/layout TILE_MLIR_CACHE_DIR=.artifacts/layout/cache \\
        python3 -m pytest -q test/gpu/test_simt_rows.py
"""

import importlib

import pytest

torch = pytest.importorskip("torch")

from tile_mlir.kernels import permute  # noqa: E402
from tile_mlir.testing.layout_cases import (ELEMS, SIMT_ROWS_BENCH_SMALL,  # noqa: E402
                                            SIMT_ROWS_VIEWS, simt_rows_test_cases)
from torch_bits import (bits as ints, case_id as _id,  # noqa: E402
                        check_permute_variants, random_bits)

P = importlib.import_module("tile_mlir.kernels.layout.permute")


def is_rows(plan):
    return plan.kind == "simt" and bool(plan.params.get("cols"))


CASES = list(simt_rows_test_cases())


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_row_copy_is_exact(case, gen):
    shape, dims, elem = case
    x = random_bits(shape, elem, gen)
    assert is_rows(P.plan_for(x.shape, x.stride(), dims, elem))
    y = permute(x, dims)
    assert y.is_contiguous() and y.dtype == x.dtype and y.shape == x.permute(dims).shape
    assert torch.equal(ints(y), ints(x).permute(dims).contiguous())


@pytest.mark.parametrize("elem", ELEMS)
def test_row_copy_of_views(elem, gen):
    """Read in place: a sliced matrix (the identity) and a strided batch."""
    views = [random_bits((70, 75), elem, gen)[:, :45],
             random_bits((3, 4000), elem, gen)[:, :40 * 97].view(3, 40, 97)[..., :33]]
    assert [(tuple(v.shape), v.stride()) for v in views] == \
        [(shape, strides) for shape, strides, _ in SIMT_ROWS_VIEWS]
    for view, (_, _, dims) in zip(views, SIMT_ROWS_VIEWS):
        plan, dense = P.call_plan(view.shape, view.stride(), dims, elem)
        assert is_rows(plan) and not dense
        y = permute(view, dims)
        assert torch.equal(ints(y), ints(view).permute(dims).contiguous())


@pytest.mark.parametrize("case", SIMT_ROWS_BENCH_SMALL,
                         ids=[_id(c) for c in SIMT_ROWS_BENCH_SMALL])
def test_row_copy_variants_are_exact(case, gen):
    shape, dims, elem = case
    x = random_bits(shape, elem, gen)
    plan = P.plan_for(x.shape, x.stride(), dims, elem)
    assert is_rows(plan)
    check_permute_variants(P, plan, x, dims)
