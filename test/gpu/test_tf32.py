"""Measures how the H200 rounds float32 to tf32 on a `format="tfloat32"` load
(ties in particular), and checks the sweep's emulator setting matches."""

import numpy as np

from tile_mlir import emulator, runtime
from tile_mlir.testing.cases import all_cases

# A sibling test module: pytest puts this folder on sys.path.
from test_sweep import TF32_ROUNDING, expected_load


def _tie_words(rng, n):
    """float32 words whose low 13 bits are exactly half an ulp of tf32, with
    both parities of the kept mantissa, both signs, normal exponents."""
    sign = rng.integers(0, 2, n, dtype=np.uint32) << 31
    exponent = rng.integers(1, 254, n, dtype=np.uint32) << 23
    kept = rng.integers(0, 1 << 10, n, dtype=np.uint32) << 13
    return (sign | exponent | kept | np.uint32(0x1000)).astype(np.uint32)


def test_tf32_ties_and_rounding(artifacts, rng):
    case = next(c for c in all_cases() if c["name"] == "load_format_tfloat32")
    mod = runtime.load(artifacts / case["name"])
    sshape = tuple(mod.artifact.kernel()["params"][1]["shape"])
    G = _tie_words(rng, 32 * 64).reshape(32, 64).view(np.float32)
    S = np.zeros(sshape, dtype=np.float32)
    out = np.zeros_like(S)
    mod(G, S, out)
    got = out.reshape(-1).view(np.uint8)
    matches = {}
    for mode in ("nearest_even", "nearest_away"):
        shared = S.reshape(-1).view(np.uint8).copy()
        emulator.load(shared, 0, G, box=case["box"], coords=case["coords"],
                      format="tfloat32", tf32_rounding=mode)
        matches[mode] = bool(np.array_equal(shared, got))
    print(f"tf32 tie rounding on this GPU: {matches}")
    assert matches[TF32_ROUNDING], f"the GPU does not round ties as {TF32_ROUNDING}: {matches}"
    assert expected_load  # the sweep compares tf32 loads with the same setting
