"""GPU tests: run on a machine with a CUDA GPU against prebuilt artifacts.

Build the artifacts where MLIR is installed (`python scripts/build_gpu_artifacts.py`,
into .artifacts/ or $TILE_GPU_ARTIFACTS, and `python bench/build_layout.py` for
the layout ops' suites, into its layout/ subfolder), carry them, run
`pytest test/gpu`. A folder of bench/build_layout.py's alone runs the layout
suites.
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


# The suites of the layout ops, whose kernels bench/build_layout.py builds
# into a folder of their own (a cache of about 1,300 kernels).
LAYOUT_SUITES = {"test_layout.py", "test_layout_grad.py", "test_layout_long_axes.py",
                 "test_layout_prepared.py",
                 "test_layout_torch.py",
                 "test_narrow_transpose.py", "test_simt_rows.py", "test_simt_transpose.py"}


def _index_kind(folder: Path) -> str | None:
    """The kind of artifact folder: None where it has no index.json."""
    path = folder / "index.json"
    if not path.exists():
        return None
    index = json.loads(path.read_text())
    return index.get("kind", "artifacts") if isinstance(index, dict) else "artifacts"


# Read once: collection asks for every test.
ARTIFACTS_KIND = _index_kind(ARTIFACTS)


def _layout_folder() -> Path | None:
    """bench/build_layout.py's folder: the artifact folder itself, or its layout/."""
    if ARTIFACTS_KIND == "layout-cache":
        return ARTIFACTS
    sub = ARTIFACTS / "layout"
    return sub if _index_kind(sub) == "layout-cache" else None


LAYOUT = _layout_folder()


def _is_layout_suite(path) -> bool:
    return Path(str(path)).name in LAYOUT_SUITES


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "test/gpu" not in str(item.fspath).replace(os.sep, "/"):
            continue
        if _REASON:
            item.add_marker(pytest.mark.skip(reason=f"no GPU: {_REASON}"))
        elif _is_layout_suite(item.fspath):
            if LAYOUT is None:
                item.add_marker(pytest.mark.skip(
                    reason=f"no layout kernels in {ARTIFACTS} or {ARTIFACTS / 'layout'} "
                           "(python bench/build_layout.py)"))
        elif ARTIFACTS_KIND in (None, "layout-cache"):
            item.add_marker(pytest.mark.skip(
                reason=f"no GPU artifacts in {ARTIFACTS} "
                       "(python scripts/build_gpu_artifacts.py)"))


@pytest.fixture(autouse=True)
def _layout_kernels_cache(request, monkeypatch):
    """The layout suites load their kernels from the layout folder's cache
    where it is a subfolder of the artifacts (the rest use the artifacts')."""
    if LAYOUT is not None and LAYOUT != ARTIFACTS and _is_layout_suite(request.node.fspath):
        monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(LAYOUT / "cache"))


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
