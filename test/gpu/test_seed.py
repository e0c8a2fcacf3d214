"""The contract's example exactly as written, on the GPU."""

import numpy as np

from tile_mlir import runtime


def test_seed_example_as_written(artifacts):
    mod = runtime.load(artifacts / "seed")
    x = np.arange(256, dtype="uint32").reshape(16, 16)
    out = np.zeros_like(x)
    mod(x, out)
    np.testing.assert_array_equal(out, x)


def test_seed_example_random(artifacts, rng):
    mod = runtime.load(artifacts / "seed")
    x = rng.integers(0, 2**32, size=(16, 16), dtype=np.uint32)
    out = np.full_like(x, 0xDEADBEEF)
    mod(x, out)
    assert np.array_equal(out, x)


def test_seed_manifest_records_one_tensor_map(artifacts):
    from tile_mlir.artifact import Artifact
    info = Artifact.load(artifacts / "seed").kernel("tma_load")
    (spec,) = info["tensor_maps"]
    assert spec["box"] == [16, 8] and spec["format"] == "uint32"
    assert info["block"] == [32, 1, 1] and info["grid"] == [1, 1, 1]
