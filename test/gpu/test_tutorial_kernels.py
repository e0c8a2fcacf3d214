"""docs/tutorial.md's kernels on the GPU, from the artifacts
scripts/build_gpu_artifacts.py builds into <artifacts>/tutorial/ (no MLIR
needed here); the expected results are computed here, not taken from the
scripts. Where MLIR is installed too, each script also runs as a user runs
it, building, compiling and checking on the GPU itself.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tile_mlir import runtime

ROOT = Path(__file__).resolve().parents[2]


def _module(artifacts, name):
    folder = artifacts / "tutorial" / name
    if not folder.exists():
        pytest.skip(f"no {folder} (python scripts/build_gpu_artifacts.py)")
    return runtime.load(folder)


def test_load_fills_out_of_bounds_rows_with_zeros(artifacts, rng):
    mod = _module(artifacts, "load")
    a = rng.standard_normal((100, 32)).astype(np.float32)
    out = np.full((112, 32), np.nan, np.float32)
    mod(a, out)
    assert np.array_equal(out[:100].view(np.uint32), a.view(np.uint32))
    assert np.array_equal(out[100:].view(np.uint32), np.zeros((12, 32), np.uint32))


def test_store_writes_every_row_and_no_more(artifacts, rng):
    mod = _module(artifacts, "store")
    a = rng.integers(0, 2**32, size=(100, 32), dtype=np.uint32)
    b = np.full_like(a, 0xDEADBEEF)
    mod(a, b)
    assert np.array_equal(b, a)


def test_multicast_reaches_every_cta(artifacts, rng):
    mod = _module(artifacts, "multicast")
    a = rng.integers(0, 2**32, size=(16, 32), dtype=np.uint32)
    out = np.full((2, 16, 32), 0xDEADBEEF, np.uint32)
    mod(a, out)
    for rank in range(2):
        assert np.array_equal(out[rank], a), f"CTA {rank}"


@pytest.mark.parametrize("name", ["load", "store", "multicast"])
def test_script_runs_as_written(name):
    pytest.importorskip("mlir.ir", reason="the scripts build their kernels (MLIR)")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "build" / "python_packages"), env.get("PYTHONPATH", "")])
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "tutorial" / f"{name}.py")],
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1].startswith("ran on the GPU: "), run.stdout
