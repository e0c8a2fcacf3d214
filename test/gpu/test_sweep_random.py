"""Randomized differential run: every seeded random case built into
.artifacts/random (scripts/build_gpu_artifacts.py --random N) runs on fresh
random data and is compared bit-exactly with the emulator. A failure prints
the case and the data seed."""

import json
import os

import numpy as np
import pytest

# A sibling test module: pytest puts this folder on sys.path.
from test_sweep import run_case


def _random_index(artifacts):
    path = artifacts / "random" / "index.json"
    return json.loads(path.read_text()) if path.exists() else None


def test_random_cases(artifacts):  # runs after test_sweep.py (file order)
    index = _random_index(artifacts)
    if index is None:
        pytest.skip("no random cases built (build_gpu_artifacts.py --random N)")
    seed = int(os.environ.get("TILE_GPU_SEED", int.from_bytes(os.urandom(4), "little")))
    print(f"differential run: {len(index['cases'])} cases, generator seed "
          f"{index['seed']}, data seed TILE_GPU_SEED={seed}")
    rng = np.random.default_rng(seed)
    failures = []
    for name in index["cases"]:
        folder = artifacts / "random" / name
        case = json.loads((folder / "case.json").read_text())
        try:
            run_case(case, folder, rng)
        except AssertionError as err:
            failures.append(f"{name}: {err} :: {json.dumps(case)}")
        except Exception as err:  # a trap poisons the context: stop here
            raise AssertionError(f"{name} raised {err} :: {json.dumps(case)}") from err
    print(f"{len(index['cases']) - len(failures)} of {len(index['cases'])} random cases "
          "matched the emulator bit for bit")
    assert not failures, "\n".join(failures[:20])
