"""GPU tests: run on a machine with a CUDA GPU against prebuilt artifacts.

Build the artifacts where MLIR is installed (`python scripts/build_gpu_artifacts.py`,
into .artifacts/ or $TILE_GPU_ARTIFACTS), carry them, run `pytest test/gpu`.
Everything here imports only numpy, cuda-python and tile_mlir's pure-Python
parts (runtime, emulator, artifact, contract, testing.cases), found through
PYTHONPATH=build/python_packages or pyproject's pytest `pythonpath`.
"""

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("TILE_GPU_ARTIFACTS", ROOT / ".artifacts"))
# Kernels loaded through the compile cache come from the carried folder
# (scripts/build_gpu_artifacts.py populates it).
os.environ.setdefault("TILE_MLIR_CACHE_DIR", str(ARTIFACTS / "cache"))


def _gpu_reason() -> str:
    try:
        from tile_mlir.runtime.driver import gpu_available
    except ImportError as err:
        return f"tile_mlir runtime not importable: {err}"
    ok, why = gpu_available()
    return "" if ok else why


_REASON = _gpu_reason()


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "test/gpu" not in str(item.fspath).replace(os.sep, "/"):
            continue
        if _REASON:
            item.add_marker(pytest.mark.skip(reason=f"no GPU: {_REASON}"))
        elif not (ARTIFACTS / "index.json").exists():
            item.add_marker(pytest.mark.skip(
                reason=f"no GPU artifacts in {ARTIFACTS} "
                       "(python scripts/build_gpu_artifacts.py)"))


@pytest.fixture(scope="session")
def artifacts() -> Path:
    return ARTIFACTS


@pytest.fixture(scope="session")
def index(artifacts) -> dict:
    return json.loads((artifacts / "index.json").read_text())


@pytest.fixture
def rng(request):
    """Fresh random data each run; the seed is printed so failures replay."""
    seed = int(os.environ.get("TILE_GPU_SEED", int.from_bytes(os.urandom(4), "little")))
    print(f"[{request.node.name}] TILE_GPU_SEED={seed}")
    import numpy as np
    return np.random.default_rng(seed)


@pytest.fixture
def gen(rng):
    """A CUDA torch generator seeded from `rng` (the layout ops' tests)."""
    torch = pytest.importorskip("torch")
    g = torch.Generator(device="cuda")
    g.manual_seed(int(rng.integers(0, 2**62)))
    return g
