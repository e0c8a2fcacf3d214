"""Debug builds on the GPU (docs/debug-mode.md): each planted fault raises
its named TileRuntimeError instead of hanging or trapping, the CUDA context
stays usable, and a correct launch then runs in the same process, bit-exact.
The kernels (tile_mlir.testing.debug_kernels, built with debug=True into
debug/ by scripts/build_gpu_artifacts.py) take their faults from runtime
values, so the verifier cannot see them; pipelined copies built the same
way raise nothing (no false alarm)."""

import json
import time

import numpy as np
import pytest

from tile_mlir import runtime
from tile_mlir.runtime import DeviceFault, TileRuntimeError

BOX = (32, 64)
BOX_BYTES = 32 * 64 * 4
COORDS_SHAPE = (64, 128)
TIMEOUT = 0.2  # seconds: the planted hangs end here, not after the default 1 s


def _load(artifacts, name, timeout=None):
    path = artifacts / "debug" / name
    if not (path / "manifest.json").exists():
        pytest.skip(f"no debug artifact {name} (python scripts/build_gpu_artifacts.py)")
    return runtime.load(path, debug_timeout=timeout)


def _fault(fn, *args) -> DeviceFault:
    start = time.perf_counter()
    with pytest.raises(TileRuntimeError) as err:
        fn(*args)
    print(f"{time.perf_counter() - start:.3f} s: {err.value}")
    assert isinstance(err.value, DeviceFault)
    return err.value


def _box(rng):
    return rng.standard_normal(BOX).astype(np.float32)


def _still_usable(artifacts, rng):
    """A release kernel and a correct debug launch after the fault."""
    seed = runtime.load(artifacts / "seed")
    x = rng.integers(0, 2**32, size=(16, 16), dtype=np.uint32)
    out = np.zeros_like(x)
    seed(x, out)
    assert np.array_equal(out, x)
    mod = _load(artifacts, "expect_tx", TIMEOUT)
    a, out = _box(rng), np.zeros(BOX, np.float32)
    mod(a, np.array([BOX_BYTES], np.int32), out)
    assert np.array_equal(out.view(np.uint32), a.view(np.uint32))


def test_wrong_expect_tx_is_barrier_tx_mismatch(artifacts, rng):
    mod = _load(artifacts, "expect_tx", TIMEOUT)
    a, out = _box(rng), np.zeros(BOX, np.float32)
    fault = _fault(mod, a, np.array([4096], np.int32), out)  # 4096 for 8192 bytes
    assert fault.rule == "barrier-tx-mismatch"
    assert fault.kernel == "debug_expect_tx"
    assert fault.values["expected_bytes"] == 4096
    assert fault.values["issued_bytes"] == BOX_BYTES
    assert fault.values["expect_tx_ops"] == 1 and fault.values["copies"] == 1
    assert "mbarrier.try_wait.parity" in fault.site
    # The same kernel, correct, in the same process.
    mod(a, np.array([BOX_BYTES], np.int32), out)
    assert np.array_equal(out.view(np.uint32), a.view(np.uint32))
    _still_usable(artifacts, rng)


def test_no_arrive_is_mbarrier_timeout(artifacts, rng):
    mod = _load(artifacts, "no_arrive", TIMEOUT)
    a, out = _box(rng), np.zeros(BOX, np.float32)
    start = time.perf_counter()
    fault = _fault(mod, a, np.array([0], np.int32), out)  # 0: the barrier is not armed
    assert fault.rule == "mbarrier-timeout"
    assert fault.values["expect_tx_ops"] == 0  # nothing arrived
    assert fault.values["issued_bytes"] == BOX_BYTES and fault.values["copies"] == 1
    assert fault.values["waited_us"] >= TIMEOUT * 1e6
    assert time.perf_counter() - start < 10 * TIMEOUT + 1, "the wait was not bounded"
    _still_usable(artifacts, rng)


def _coords_run(mod, rng, coords):
    a = rng.standard_normal(COORDS_SHAPE).astype(np.float32)
    out = np.zeros(COORDS_SHAPE, np.float32)
    return a, out, lambda: mod(a, np.array(coords, np.int32), out)


def _expect_box(a, coords):
    r0, c0, r1, c1 = coords
    want = np.zeros_like(a)
    want[r1:r1 + BOX[0], c1:c1 + BOX[1]] = a[r0:r0 + BOX[0], c0:c0 + BOX[1]]
    return want


def _correct_coords(mod, rng):
    coords = (8, 16, 16, 32)
    a, out, run = _coords_run(mod, rng, coords)
    run()
    assert np.array_equal(out.view(np.uint32), _expect_box(a, coords).view(np.uint32))


def test_misaligned_runtime_inner_coordinate(artifacts, rng):
    mod = _load(artifacts, "coords", TIMEOUT)
    a, out, run = _coords_run(mod, rng, (0, 3, 0, 0))  # 3 float32: 12 bytes
    fault = _fault(run)
    assert fault.rule == "inner-coord-alignment"
    assert fault.values == {"axis": 1, "coordinate": 3, "byte_offset": 12, "multiple": 16,
                            "element_bits": 32}
    assert "shared::cta.global" in fault.site  # the load, not issued
    assert not out.any(), "nothing was stored"
    _correct_coords(mod, rng)
    _still_usable(artifacts, rng)


def test_negative_runtime_store_coordinate(artifacts, rng):
    mod = _load(artifacts, "coords", TIMEOUT)
    a, out, run = _coords_run(mod, rng, (0, 0, -8, 0))
    fault = _fault(run)
    assert fault.rule == "store-coords-nonnegative"
    assert fault.values == {"slot": 0, "axis": 0, "coordinate": -8}
    assert "global.shared::cta" in fault.site  # the store, not issued
    assert not out.any()
    _correct_coords(mod, rng)
    _still_usable(artifacts, rng)


def _entries(artifacts, kind):
    path = artifacts / "debug" / "index.json"
    entries = json.loads(path.read_text()) if path.exists() else []
    found = [e for e in entries if e["kind"] == kind]
    if not found:
        pytest.skip(f"no debug {kind} artifact")
    return found


def _rounds_inputs(rng):
    """Small integers as bf16 bits (exact products and sums in f32)."""
    from tile_mlir.testing import wgmma_plan as P
    a = rng.integers(-4, 5, size=(64, 64))
    b = rng.integers(-4, 5, size=(64, 64))
    return a, b, P.host_bits("bf16", a), P.host_bits("bf16", b)


def test_wgmma_rounds_correct_raise_nothing(artifacts, rng):
    """Three rounds waited on their own phases: 3 x A @ B.T bit for bit, no
    fault; in round 2 B's image is of phase 0 and the barrier runs phase 2,
    of the same parity: the generation keeps it from a false alarm."""
    mod = _load(artifacts, "wgmma_rounds", TIMEOUT)
    for delay_ns in (0, 20_000, 0):
        a, b, a_bits, b_bits = _rounds_inputs(rng)
        out = np.full((64, 64), np.nan, np.float32)
        mod(a_bits, b_bits, np.array([0, 1, 0], np.int32), np.zeros(1, np.int32),
            np.array([delay_ns], np.int32), out)
        assert np.array_equal(out, (3 * a @ b.T).astype(np.float32))


@pytest.mark.parametrize("case", ["other_barrier", "phase_past"])
def test_wgmma_reading_a_tile_still_landing_is_unwaited_copy(artifacts, rng, case):
    """The warpgroup waits on a barrier that completes at once (W = 1: the
    one thread 0 arrives on) or, in round 2, on phase parity 0 again (a
    phase already past), while the loads' phase stays open for 200 us (the
    slow producer's arrival): the wgmmas read A before its phase completes,
    and the debug build names [wgmma-unwaited-copy] with the load's
    barrier and the phase it was issued in. Then the same kernel runs
    correctly. (Without the open phase, a wrong wait whose bytes have
    landed reads correct data and is not reported: docs/debug-mode.md.)"""
    mod = _load(artifacts, "wgmma_rounds", TIMEOUT)
    par, which = (([0, 1, 0], 1) if case == "other_barrier" else ([0, 0, 0], 0))
    for _ in range(3):
        a, b, a_bits, b_bits = _rounds_inputs(rng)
        out = np.zeros((64, 64), np.float32)
        fault = _fault(mod, a_bits, b_bits, np.array(par, np.int32),
                       np.array([which], np.int32), np.array([200_000], np.int32), out)
        assert fault.rule == "wgmma-unwaited-copy"
        assert fault.kernel == "debug_wgmma_rounds"
        assert "tile.wgmma_descriptor" in fault.site
        v = fault.values
        assert v["image"] is not None and v["tile_bytes"] == 64 * 128
        # A's image: the tile it overlaps starts where A's load wrote.
        assert v["image"] == v["tile"]
        assert v["phase"] == (0 if case == "other_barrier" else 1)
    a, b, a_bits, b_bits = _rounds_inputs(rng)
    out = np.zeros((64, 64), np.float32)
    mod(a_bits, b_bits, np.array([0, 1, 0], np.int32), np.zeros(1, np.int32),
        np.array([20_000], np.int32), out)
    assert np.array_equal(out, (3 * a @ b.T).astype(np.float32))


def test_correct_debug_kernels_raise_nothing(artifacts, rng):
    """The contract's example and two pipelined copies (ring barriers,
    single-thread and warp-specialized), built with debug=True: bit-exact,
    no fault, and the debug buffer stays clean over repeated launches."""
    seed = _load(artifacts, "seed")
    x = rng.integers(0, 2**32, size=(16, 16), dtype=np.uint32)
    out = np.zeros_like(x)
    seed(x, out)
    assert np.array_equal(out, x)
    for kind in ("dynamic_copy", "ws_copy"):
        for entry in _entries(artifacts, kind):
            mod = _load(artifacts, entry["name"])
            extra = [np.zeros(2, np.int32)] if kind == "dynamic_copy" else []
            for _ in range(3):
                a = rng.integers(0, 1 << 16, (entry["rows"], entry["cols"]), dtype=np.uint16)
                b = np.zeros_like(a)
                mod(a, b, *extra)
                assert np.array_equal(a, b), entry["name"]
                assert all(not e.any() for e in extra)
