"""Dynamic shared memory beside static shared memory: 128B-swizzled TMA
loads into the dynamic window of a kernel that also has static mbarriers and
a static sentinel buffer (tile_mlir/testing/dynamic_shared_layout.py), compared bit
for bit with the emulator. The emulator's swizzle assumes a 1024-byte
aligned base, so a dynamic window that starts anywhere else (or overlaps the
static buffers) shows here as wrong bytes, a hang or a clobbered sentinel."""

import numpy as np
import pytest

from tile_mlir import emulator, runtime
from tile_mlir.testing import dynamic_shared_layout as DSL


def _expected(G, S) -> np.ndarray:
    shared = S.reshape(-1).view(np.uint8).copy()
    for offset, box, coords, swizzle, _ in DSL.COPIES:
        emulator.load(shared, offset, G, box=box, coords=coords, swizzle=swizzle,
                      format="uint16")
    return shared


def test_declares_the_dynamic_window(artifacts):
    folder = artifacts / "dynamic_beside_static"
    if not folder.exists():
        pytest.skip("dynamic_beside_static not built (python scripts/build_gpu_artifacts.py)")
    ptx = (folder / "kernel.ptx").read_text()
    assert ".extern .shared .align 1024 .b8 __dynamic_shmem__0[];" in ptx


def test_swizzled_dynamic_beside_static(artifacts, rng):
    folder = artifacts / "dynamic_beside_static"
    if not folder.exists():
        pytest.skip("dynamic_beside_static not built (python scripts/build_gpu_artifacts.py)")
    mod = runtime.load(folder)
    words = DSL.DYNAMIC_BYTES // 2
    for _ in range(3):
        G = rng.integers(0, 1 << 16, DSL.GLOBAL_SHAPE, dtype=np.uint16)
        S = rng.integers(0, 1 << 16, (words,), dtype=np.uint16)
        sent = rng.integers(0, 1 << 32, (DSL.SENTINEL_WORDS,), dtype=np.uint32)
        out = np.zeros_like(S)
        sent_out = np.zeros_like(sent)
        mod(G, S, sent, out, sent_out)
        assert np.array_equal(sent_out, sent), "the static buffer was overwritten"
        got = out.view(np.uint8)
        want = _expected(G, S)
        bad = np.flatnonzero(got != want)
        assert bad.size == 0, (f"{bad.size} of {got.size} dynamic bytes differ, "
                               f"first at {bad[:8].tolist()}")
