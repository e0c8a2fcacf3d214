"""The wgmma matrix on the GPU: every kernel of tile_mlir.testing.wgmma_plan
(input type x swizzle x major-ness x N, with and without B multicast),
built by scripts/build_gpu_artifacts.py into <artifacts>/wgmma_matrix/.

Valid kernels: fresh small-integer inputs, exact in every input type, whose
sums of products are exact in the accumulator, so Out equals numpy's GEMM
bit for bit.

Planted mismatches (wgmma_plan.PLANTS, built with checks off; with checks
on the verifier rejects each naming its rule, as
test/python/builder/test_wgmma_matrix_build.py checks): Out equals what
the emulator's wgmma view predicts element for element, so the elements
the GPU gets wrong are exactly the ones the prediction says. A race
(`unwaited_copy`: the wgmmas before the wait on their loads) has no
prediction: its result only differs from the GEMM.
"""

import numpy as np
import pytest

from tile_mlir import runtime
from tile_mlir.testing import wgmma_plan as P

CONFIGS = {c.name: c for c in P.matrix() + P.planted()}


def _run(artifacts, cfg, rng):
    folder = artifacts / "wgmma_matrix" / cfg.name
    if not folder.exists():
        pytest.skip(f"no {folder} (python scripts/build_gpu_artifacts.py)")
    mod = runtime.load(folder)
    a, b = P.inputs(cfg, rng)
    ctas = P.CLUSTER if cfg.multicast else 1
    dtype = P.out_dtype(cfg)
    sentinel = np.nan if dtype == np.float32 else np.iinfo(np.int32).min
    out = np.full((P.M * ctas, cfg.n), sentinel, dtype)
    mod(P.host_bits(cfg.dtype, P.stored(cfg, a)), P.host_bits(cfg.dtype, P.stored(cfg, b)),
        out)
    return a, b, out


def _first(diff: np.ndarray) -> list:
    return np.argwhere(diff)[:4].tolist()


@pytest.mark.parametrize("name", sorted(c.name for c in P.matrix()))
def test_wgmma_matches_matmul(artifacts, rng, name):
    cfg = CONFIGS[name]
    a, b, out = _run(artifacts, cfg, rng)
    expected = P.reference(a, b).astype(out.dtype)
    assert np.array_equal(out, expected), (
        f"{name}: {int(np.sum(out != expected))} of {out.size} differ, first "
        f"(row, col): {_first(out != expected)}")


@pytest.mark.parametrize("name", sorted(c.name for c in P.planted()))
def test_planted_mismatch_gives_the_predicted_wrong_elements(artifacts, rng, name):
    cfg = CONFIGS[name]
    a, b, out = _run(artifacts, cfg, rng)
    reference = P.reference(a, b)
    plant = P.PLANTS[cfg.plant]
    if not plant.predictable:
        wrong = out.astype(np.int64) != reference
        assert wrong.any(), f"{name} ({plant.why}): the GPU gave the GEMM"
        print(f"{name}: {int(wrong.sum())} of {out.size} elements wrong")
        return
    # float64 holds every int32 and f32 result, and a prediction in another
    # read type (float64), exactly.
    predicted = P.predict_all(cfg, a, b).astype(np.float64)
    predicted_wrong = predicted != reference
    assert predicted_wrong.any(), f"{name}: the plant predicts no wrong element"
    got = out.astype(np.float64)
    got_wrong = got != reference
    assert np.array_equal(got_wrong, predicted_wrong), (
        f"{name} ({plant.why}): {int(got_wrong.sum())} wrong on the GPU, "
        f"{int(predicted_wrong.sum())} predicted; first disagreeing (row, col): "
        f"{_first(got_wrong != predicted_wrong)}")
    assert np.array_equal(got, predicted), (
        f"{name}: the wrong elements' values differ from the prediction at "
        f"{_first(got != predicted)}")
