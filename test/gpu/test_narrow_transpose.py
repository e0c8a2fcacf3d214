"""Narrow transposes on the GPU (tile_mlir.kernels.layout.builders.permute_narrow: an axis
too short or unaligned for the transposing kernel, as in NCHW <-> NHWC of
three channels), bit-exact against torch on fresh random bits: 4-9
values of n for each element size, both directions, partial tiles,
views, and every variant the benchmark measures.

    TILE_GPU_ARTIFACTS=.artifacts/layout TILE_MLIR_CACHE_DIR=.artifacts/layout/cache \\
        python3 -m pytest -q test/gpu/test_narrow_transpose.py
"""

import importlib

import pytest

torch = pytest.importorskip("torch")

from tile_mlir.kernels import permute  # noqa: E402
from tile_mlir.testing.layout_cases import (NARROW_BENCH_SMALL, NARROW_L,  # noqa: E402
                                            NARROW_VIEWS, narrow_test_cases)
from torch_bits import bits as ints, case_id as _id, random_bits  # noqa: E402

P = importlib.import_module("tile_mlir.kernels.layout.permute")


CASES = list(narrow_test_cases())


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_narrow_transpose_is_exact(case, gen):
    shape, dims, elem = case
    x = random_bits(shape, elem, gen)
    assert P.plan_for(x.shape, x.stride(), dims, elem).kind == "narrow"
    y = permute(x, dims)
    assert y.is_contiguous() and y.dtype == x.dtype
    assert torch.equal(ints(y), ints(x).permute(dims).contiguous())


@pytest.mark.parametrize("elem", [1, 2])
def test_narrow_transpose_of_views(elem, gen):
    planar = random_bits((4, 3, NARROW_L), elem, gen)
    pixels = random_bits((4, NARROW_L, 3), elem, gen)
    views = [planar[::2], pixels[::2], planar.permute(0, 2, 1)]
    assert [(tuple(v.shape), v.stride()) for v in views] == \
        [(shape, strides) for shape, strides, _ in NARROW_VIEWS]
    for view, (_, _, dims) in zip(views, NARROW_VIEWS):
        plan, dense = P.call_plan(view.shape, view.stride(), dims, elem)
        assert plan.kind == "narrow" and not dense
        y = permute(view, dims)
        assert torch.equal(ints(y), ints(view).permute(dims).contiguous())


@pytest.mark.parametrize("case", NARROW_BENCH_SMALL, ids=[_id(c) for c in NARROW_BENCH_SMALL])
def test_narrow_variants_are_exact(case, gen):
    shape, dims, elem = case
    x = random_bits(shape, elem, gen)
    ref = ints(x).permute(dims).contiguous()
    plan = P.plan_for(x.shape, x.stride(), dims, elem)
    assert plan.kind == "narrow"
    for name, kernel in P.variants(plan) + [("simt", P.kernel_for(P.simt_plan(plan)))]:
        out = torch.full_like(ref, -1).view(x.dtype)
        P.run(P.simt_plan(plan) if name == "simt" else plan, x, out, kernel)
        torch.cuda.synchronize()
        assert torch.equal(ints(out), ref), f"variant {name}"
