"""The benchmark kernels on the GPU, small: the persistent copy and
transpose that claim their tiles at run time (tile_mlir.kernels
build_copy_dynamic, build_transpose_dynamic) and the one-tile-per-CTA TMA
transposes (build_transpose_one_tile: row and column tile orders,
64-column and wide 3-D boxes), built by
scripts/build_gpu_artifacts.py into bench_kernels/. Fresh random bits each
run, compared bit for bit; the tile counters must be left at zero."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from tile_mlir import runtime

ROOT = Path(__file__).resolve().parents[2]


def _entries(artifacts, kind):
    path = artifacts / "bench_kernels" / "index.json"
    if not path.exists():
        return []
    return [e for e in json.loads(path.read_text()) if e["kind"] == kind]


def _params(kind):
    folder = Path(os.environ.get("TILE_GPU_ARTIFACTS", ROOT / ".artifacts"))
    entries = _entries(folder, kind)
    return pytest.mark.parametrize("entry", entries or [None],
                                   ids=[e["name"] for e in entries] or ["none"])


def _module(artifacts, entry):
    if entry is None:
        pytest.skip("bench_kernels not built (python scripts/build_gpu_artifacts.py)")
    return runtime.load(artifacts / "bench_kernels" / entry["name"])


@_params("dynamic_copy")
def test_dynamic_copy_is_exact_and_leaves_the_counter_zero(artifacts, rng, entry):
    mod = _module(artifacts, entry)
    ctr = np.zeros(2, np.int32)
    for _ in range(3):  # each launch must reset the counter for the next
        a = rng.integers(0, 1 << 16, (entry["rows"], entry["cols"]), dtype=np.uint16)
        b = np.zeros_like(a)
        mod(a, b, ctr)
        assert np.array_equal(a, b)
        assert ctr.tolist() == [0, 0]


@_params("dynamic_copy")
@pytest.mark.parametrize("start", ["end", "three_left"])
def test_dynamic_copy_claims_only_from_its_counter(artifacts, rng, entry, start):
    """A counter that starts at the tile count (every ticket out of range:
    nothing copied) or three tiles before it (only the last three tiles,
    row-major over the boxes, are copied); the last CTA out resets it."""
    mod = _module(artifacts, entry)
    a = rng.integers(1, 1 << 16, (entry["rows"], entry["cols"]), dtype=np.uint16)
    b = np.zeros_like(a)
    first = entry["tiles"] - (0 if start == "end" else 3)
    ctr = np.array([first, 0], np.int32)
    mod(a, b, ctr)
    br, bc = entry["box"]
    expect = np.zeros_like(a)
    tiles_c = entry["cols"] // bc
    for t in range(first, entry["tiles"]):
        r, c = (t // tiles_c) * br, (t % tiles_c) * bc
        expect[r:r + br, c:c + bc] = a[r:r + br, c:c + bc]
    assert np.array_equal(b, expect)
    assert ctr.tolist() == [0, 0]


def _back_to_back(mod, args, grid):
    """Launches five times on one upload (the counter stays on the device
    between launches), with `grid` CTAs instead of the built grid, then
    copies the arrays back."""
    from tile_mlir.runtime.driver import check, cuda
    (kernel,) = mod.kernels.values()
    launch = kernel._prepare(args, (grid, 1, 1), None, None)
    for _ in range(5):
        launch()
    check(cuda().cuStreamSynchronize(0), "cuStreamSynchronize")
    launch.download()


@_params("dynamic_copy")
@pytest.mark.parametrize("extra_ctas", [0, 3, -1])
def test_dynamic_copy_back_to_back_on_other_grids(artifacts, rng, entry, extra_ctas):
    mod = _module(artifacts, entry)
    a = rng.integers(0, 1 << 16, (entry["rows"], entry["cols"]), dtype=np.uint16)
    b = np.zeros_like(a)
    ctr = np.zeros(2, np.int32)
    _back_to_back(mod, (a, b, ctr), max(1, entry["grid"] + extra_ctas))
    assert np.array_equal(a, b)
    assert ctr.tolist() == [0, 0]


@_params("transpose")
def test_one_tile_transpose_is_exact(artifacts, rng, entry):
    mod = _module(artifacts, entry)
    a = rng.integers(0, 1 << 16, (entry["rows"], entry["cols"]), dtype=np.uint16)
    b = np.zeros((entry["cols"], entry["rows"]), np.uint16)
    b3 = b.reshape(entry["out_shape"])
    mod(a.reshape(entry["in_shape"]), b3)
    assert np.array_equal(b3.reshape(b.shape), a.T)


@_params("dynamic_transpose")
def test_dynamic_transpose_is_exact_and_leaves_the_counter_zero(artifacts, rng, entry):
    mod = _module(artifacts, entry)
    ctr = np.zeros(2, np.int32)
    for _ in range(3):
        a = rng.integers(0, 1 << 16, (entry["rows"], entry["cols"]), dtype=np.uint16)
        b = np.zeros((entry["cols"], entry["rows"]), np.uint16)
        mod(a.reshape(entry["in_shape"]), b.reshape(entry["out_shape"]), ctr)
        assert np.array_equal(b, a.T)
        assert ctr.tolist() == [0, 0]


@_params("dynamic_transpose")
@pytest.mark.parametrize("extra_ctas", [0, 2, -1])
def test_dynamic_transpose_back_to_back_on_other_grids(artifacts, rng, entry, extra_ctas):
    mod = _module(artifacts, entry)
    a = rng.integers(0, 1 << 16, (entry["rows"], entry["cols"]), dtype=np.uint16)
    b = np.zeros((entry["cols"], entry["rows"]), np.uint16)
    ctr = np.zeros(2, np.int32)
    _back_to_back(mod, (a.reshape(entry["in_shape"]), b.reshape(entry["out_shape"]), ctr),
                  max(1, entry["grid"] + extra_ctas))
    assert np.array_equal(b, a.T)
    assert ctr.tolist() == [0, 0]
