"""The library kernel builders check their parameters: a value of the wrong
kind or out of range, or one the builder cannot build, is a TileUsageError
naming [kernel-params] (or [dtype-name]), the builder and the value."""

import pytest

from tile_mlir.errors import TileUsageError
from tile_mlir import kernels

BAD = [
    # (builder, kwargs, what the message must name)
    ("build_copy", dict(rows=331, cols=378), "whole number of boxes"),
    ("build_copy", dict(rows=256, cols=256, box=0), "box = 0"),
    ("build_copy", dict(rows=[], cols=256), "rows = []"),
    ("build_copy", dict(rows=256, cols=256, stages=0), "stages = 0 is outside 1.."),
    ("build_copy", dict(rows=256, cols=256, grid=2**40), f"grid = {2**40}"),
    ("build_copy", dict(rows=256, cols=256, swizzle=-1), "swizzle = -1 is outside 0.."),
    ("build_copy", dict(rows=256, cols=256, evict_first="yes"), "evict_first = 'yes'"),
    ("build_copy", dict(rows=256, cols=256, store_lag=4), "store_lag"),
    ("build_copy", dict(rows=256, cols=256, order="zigzag"), "zigzag"),
    ("build_copy", dict(rows=True, cols=256), "rows = True"),
    ("build_copy", dict(rows=256, cols=256, nope=1), "nope"),
    ("build_copy_one_tile", dict(rows=256, cols=256, box=(64, 128, 1)), "box = (64, 128, 1)"),
    ("build_transpose_one_tile", dict(rows=284, cols=-1), "cols = -1"),
    ("build_transpose_one_tile", dict(rows=284, cols=256), "284x256"),
    ("build_transpose", dict(rows=256, cols=256, method="magic"), "magic"),
    ("build_simt_copy", dict(rows=256, cols=256, layout="diagonal"), "diagonal"),
    ("build_copy_tma_simt", dict(rows=256, cols=256, consumer_warps=0), "consumer_warps = 0"),
    ("build_grouped_copy", dict(box=(0, 64)), "box = (0, 64)"),
    ("make_plan", dict(rows=256, cols=256, threads=48), "multiple of 32"),
]


@pytest.mark.parametrize("builder,kwargs,names", BAD,
                         ids=[f"{b}-{'-'.join(map(str, k))}" for b, k, _ in BAD])
def test_bad_parameters_are_named(builder, kwargs, names):
    with pytest.raises(TileUsageError) as info:
        getattr(kernels, builder)(**kwargs)
    assert info.value.rule == "kernel-params"
    assert builder in str(info.value)
    assert names in str(info.value)


def test_an_unknown_dtype_is_a_dtype_name_error():
    with pytest.raises(TileUsageError) as info:
        kernels.build_copy(256, 256, dtype="bfloat17")
    assert info.value.rule == "dtype-name"
    assert "bfloat17" in str(info.value)


def test_good_parameters_still_build():
    # The checks add no rejection of a form the library builds.
    assert kernels.build_copy(256, 256, box=[64, 128]).name == "tma_copy"
    assert kernels.build_grouped_copy().name == "grouped_copy"
    assert kernels.make_plan(256, 256).tile == (64, 64)
