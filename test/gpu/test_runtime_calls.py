"""The runtime on real kernels (H200): scalar parameters, streams, array
libraries (torch, cupy, jax, numba), the cached call path, CUDA graph
capture, and kernels loaded from the carried compile cache (this machine
has no MLIR: every kernel here comes from `tile-mlir cache populate`, run by
scripts/build_gpu_artifacts.py into .artifacts/cache)."""

import os

import numpy as np
import pytest

from tile_mlir import cache
from tile_mlir.runtime import TileRuntimeError

# Builders by name: importing tile_mlir.testing.runtime_kernels needs MLIR.
KERNELS = "tile_mlir.testing.runtime_kernels"
SCALAR_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64", "index")

torch = pytest.importorskip("torch")
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # jax shares the GPU

INT_LIMITS = {"int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
              "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1),
              "index": (-2**63, 2**63 - 1)}


@pytest.fixture(scope="module")
def echo():
    return cache.load_kernel(f"{KERNELS}:build_scalar_echo")


@pytest.fixture(scope="module")
def box_f32():
    return cache.load_kernel(f"{KERNELS}:build_box_at", dtype="float32")


@pytest.fixture(scope="module")
def box_bf16():
    return cache.load_kernel(f"{KERNELS}:build_box_at", dtype="bfloat16")


def _echo(echo, values):
    out32 = torch.full((2,), -1, dtype=torch.int32, device="cuda")
    out64 = torch.full((3,), -1, dtype=torch.int64, device="cuda")
    f32 = torch.full((1,), -1, dtype=torch.float32, device="cuda")
    f64 = torch.full((1,), -1, dtype=torch.float64, device="cuda")
    echo(out32, out64, f32, f64, *values)
    torch.cuda.synchronize()
    return out32.cpu().numpy(), out64.cpu().numpy(), f32.cpu().numpy(), f64.cpu().numpy()


def test_every_scalar_type_arrives_bit_exact(echo, rng):
    for trial in range(4):
        vals = {}
        for dtype, (lo, hi) in INT_LIMITS.items():
            pick = [lo, hi, 0, int(rng.integers(lo // 2, hi // 2, dtype=np.int64))
                    if hi < 2**63 else int(rng.integers(0, 2**62))][trial]
            vals[dtype] = pick
        vals["float32"] = float(np.float32(rng.standard_normal() * 1e30))
        vals["float64"] = float(rng.standard_normal() * 1e300)
        order = [vals[d] for d in SCALAR_DTYPES]
        o32, o64, f32, f64 = _echo(echo, order)
        assert o32.view(np.uint32).tolist() == [vals["int32"] % 2**32, vals["uint32"]]
        assert o64.view(np.uint64).tolist() == [vals["int64"] % 2**64, vals["uint64"],
                                                vals["index"] % 2**64]
        assert f32[0] == np.float32(vals["float32"]) and f64[0] == vals["float64"]


def test_numpy_scalars_are_accepted(echo):
    values = [np.int32(-7), np.uint32(7), np.int64(-2**40), np.uint64(2**63),
              np.float32(1.5), np.float64(-2.25), np.int16(3)]
    o32, o64, f32, f64 = _echo(echo, values)
    assert o32.tolist() == [-7, 7]
    assert o64.view(np.uint64).tolist() == [2**64 - 2**40, 2**63, 3]
    assert f32[0] == 1.5 and f64[0] == -2.25


@pytest.mark.parametrize("index, value, rule", [
    (4, 2**31, "scalar-range"), (5, -1, "scalar-range"), (6, 2**63, "scalar-range"),
    (7, 2**64, "scalar-range"), (8, 1e39, "scalar-range"), (4, 1.0, "scalar-type"),
    (4, True, "scalar-type"), (9, "1.0", "scalar-type"), (10, np.float32(2), "scalar-type"),
])
def test_bad_scalars_name_their_rule(echo, index, value, rule):
    args = [torch.zeros(2, dtype=torch.int32, device="cuda"),
            torch.zeros(3, dtype=torch.int64, device="cuda"),
            torch.zeros(1, dtype=torch.float32, device="cuda"),
            torch.zeros(1, dtype=torch.float64, device="cuda"), 1, 2, 3, 4, 5.0, 6.0, 7]
    args[index] = value
    with pytest.raises(TileRuntimeError) as err:
        echo(*args)
    assert err.value.rule == rule and f"argument {index}" in err.value.message


def _box_case(rng, rows=200, cols=128, dtype=torch.float32):
    a = torch.from_numpy(rng.standard_normal((rows, cols)).astype(np.float32)).to(
        "cuda", dtype)
    b = torch.full_like(a, -3.0)
    return a, b


def _check_box(a, b, row, col, box=(16, 64)):
    want = torch.full_like(a, -3.0)
    want[row:row + box[0], col:col + box[1]] = a[row:row + box[0], col:col + box[1]]
    assert torch.equal(b, want)


def test_scalar_coordinates_drive_the_copy(box_f32, rng):
    for _ in range(5):
        rows = int(rng.integers(16, 500))
        a, b = _box_case(rng, rows)
        row, col = int(rng.integers(0, rows - 15)), int(rng.integers(0, 2)) * 64
        box_f32(a, b, row, col)
        torch.cuda.synchronize()
        _check_box(a, b, row, col)


def test_the_call_path_cache_follows_pointers_and_data(box_f32, rng):
    a, b = _box_case(rng)
    box_f32(a, b, 3, 64)
    a.copy_(torch.randn_like(a))  # same pointer, new data
    b.fill_(-3.0)
    box_f32(a, b, 7, 0)  # same keys, new scalars
    torch.cuda.synchronize()
    _check_box(a, b, 7, 0)
    a2, b2 = _box_case(rng)  # new pointers
    box_f32(a2, b2, 5, 64)
    torch.cuda.synchronize()
    _check_box(a2, b2, 5, 64)
    # A view whose base is not 16-byte aligned fails even though a view of
    # the same shape and strides passed before.
    wide = torch.zeros(200 * 128 + 4, device="cuda")
    ok, bad = wide[:200 * 128].view(200, 128), wide[1:200 * 128 + 1].view(200, 128)
    box_f32(ok, b, 0, 0)
    with pytest.raises(TileRuntimeError) as err:
        box_f32(bad, b, 0, 0)
    assert err.value.rule == "global-base-alignment"


def test_calls_launch_through_the_c_extension():
    """The GPU machine loads runtime/_launch: the cases here run the C path."""
    from tile_mlir.runtime import launch
    assert launch.NATIVE_LAUNCH, launch.NATIVE_LAUNCH_ERROR


def _current_context() -> int:
    from tile_mlir.runtime import driver
    ctx = driver.check(driver.cuda().cuCtxGetCurrent(), "cuCtxGetCurrent")
    return 0 if ctx is None else int(ctx)


def test_a_thread_with_no_context_launches_and_gets_device_0s(box_f32, rng):
    """The driver's current context is per thread. A fresh thread (such as
    autograd's backward threads) that calls first thing launches, both a
    cached launch (the C path) and a new one, whose tensor maps are encoded
    on that thread. torch reads its current device from that context: the
    call leaves device 0's primary context there, the one the CUDA runtime
    would make current itself."""
    import threading
    from tile_mlir.runtime import driver
    a, b = _box_case(rng)
    a2, b2 = _box_case(rng)
    box_f32(a, b, 3, 64)  # cached on this thread
    torch.cuda.synchronize()
    b.fill_(-3.0)
    primary = int(driver.primary_context(0))
    seen, errors = [], []

    def worker():
        try:
            seen.append(_current_context())
            box_f32(a, b, 5, 0)      # the cached call (the C path's switch)
            seen.append(_current_context())
            box_f32(a2, b2, 7, 64)   # checked and encoded here
            seen.append(_current_context())
        except Exception as err:     # noqa: BLE001 - reported below
            errors.append(err)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert not errors, errors
    assert seen == [0, primary, primary]
    torch.cuda.synchronize()
    _check_box(a, b, 5, 0)
    _check_box(a2, b2, 7, 64)


def _own_context(drv, check):
    """A context of the program's own on device 0 (not the primary one),
    made current; cuda-python 13 takes creation parameters first."""
    dev = check(drv.cuDeviceGet(0), "cuDeviceGet")
    try:
        return check(drv.cuCtxCreate(None, 0, dev), "cuCtxCreate")
    except TypeError:
        return check(drv.cuCtxCreate(0, dev), "cuCtxCreate")


def test_a_programs_own_context_is_current_again_after_a_call(box_f32, rng):
    """A call made while the program's own context is current launches in
    the primary context (where torch's memory lives) and gives the thread
    its context back."""
    from tile_mlir.runtime import driver
    drv, check = driver.cuda(), driver.check
    a, b = _box_case(rng)
    a2, b2 = _box_case(rng)
    box_f32(a, b, 3, 64)
    torch.cuda.synchronize()
    b.fill_(-3.0)
    torch.cuda.synchronize()
    primary = _current_context()
    own = _own_context(drv, check)
    try:
        assert _current_context() == int(own) != primary
        box_f32(a, b, 9, 0)       # cached
        assert _current_context() == int(own)
        box_f32(a2, b2, 11, 64)   # new keys
        assert _current_context() == int(own)
    finally:
        check(drv.cuCtxDestroy(own), "cuCtxDestroy")
        check(drv.cuCtxSetCurrent(driver.primary_context(0)), "cuCtxSetCurrent")
    torch.cuda.synchronize()
    _check_box(a, b, 9, 0)
    _check_box(a2, b2, 11, 64)


two_devices = pytest.mark.skipif(torch.cuda.device_count() < 2,
                                 reason="needs two CUDA devices")


@two_devices
def test_a_module_runs_on_the_device_it_is_loaded_on(rng):
    """A module loads on the current device (torch's), or the one named; its
    arrays must live there, and torch's current device stays as it was."""
    with torch.cuda.device(1):
        mod1 = cache.load_kernel(f"{KERNELS}:build_box_at", dtype="float32")
    mod0 = cache.load_kernel(f"{KERNELS}:build_box_at", dtype="float32", device=0)
    assert (mod1.device, mod0.device) == (1, 0) and mod1 is not mod0
    assert cache.load_kernel(f"{KERNELS}:build_box_at", dtype="float32",
                             device="cuda:1") is mod1
    a, b = (t.to("cuda:1") for t in _box_case(rng))
    for current in (0, 1, 0):       # the cached call under either current device
        with torch.cuda.device(current):
            row = int(rng.integers(0, 185))
            b.fill_(-3.0)
            mod1(a, b, row, 64)
            assert torch.cuda.current_device() == current
            torch.cuda.synchronize(1)
            _check_box(a, b, row, 64)
    import threading
    seen = []
    b.fill_(-3.0)

    def worker():   # a thread with no context gets none back from device 1
        seen.append(_current_context())
        mod1(a, b, 0, 0)
        seen.append(_current_context())
    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [0, 0]
    torch.cuda.synchronize(1)
    _check_box(a, b, 0, 0)
    with pytest.raises(TileRuntimeError) as err:
        mod0(a, b, 0, 0)
    assert err.value.rule == "argument-device"
    assert "device 1" in err.value.message and "device 0" in err.value.message
    with pytest.raises(TileRuntimeError) as err:
        cache.load_kernel(f"{KERNELS}:build_box_at", dtype="float32",
                          device=torch.cuda.device_count())
    assert err.value.rule == "device-index"


def test_threads_calling_one_cached_launch_keep_their_scalars(box_f32, rng):
    """Eight threads launch the same cached launch (same arrays, same keys),
    each with its own (row, col) on its own stream: a launch that took one
    thread's row with another's col would copy a box none of them asked
    for."""
    import threading
    a = torch.from_numpy(rng.standard_normal((512, 128)).astype(np.float32)).cuda()
    out = torch.full_like(a, -3.0)
    picks = [(64 * i + int(rng.integers(0, 40)), 64 * (i % 2)) for i in range(8)]
    streams = [torch.cuda.Stream() for _ in picks]
    box_f32(a, out, *picks[0])  # cache the launch
    torch.cuda.synchronize()
    start = threading.Barrier(len(picks))

    def worker(i):
        start.wait()
        with torch.cuda.stream(streams[i]):
            for _ in range(300):
                box_f32(a, out, *picks[i])

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(picks))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    torch.cuda.synchronize()
    want = torch.full_like(a, -3.0)
    for row, col in picks:
        want[row:row + 16, col:col + 64] = a[row:row + 16, col:col + 64]
    assert torch.equal(out, want)


def test_strided_views_are_checked(box_f32, rng):
    big = torch.from_numpy(rng.standard_normal((64, 256)).astype(np.float32)).cuda()
    a = big[:, :128]  # outer stride 256 elements: a valid tensor map
    b = torch.full((64, 128), -3.0, device="cuda")
    box_f32(a, b, 8, 64)
    torch.cuda.synchronize()
    _check_box(a.contiguous(), b, 8, 64)
    with pytest.raises(TileRuntimeError) as err:
        box_f32(big[:, ::2], b, 0, 0)
    assert err.value.rule == "global-inner-stride"


def test_launches_go_on_the_current_torch_stream(box_bf16, rng):
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        a, b = _box_case(rng, dtype=torch.bfloat16)  # made on the side stream
        box_bf16(a, b, 16, 64)  # no stream=: the side stream, after the fill
        b_copy = b.clone()  # ordered after the launch on the same stream
    side.synchronize()
    _check_box(a, b_copy, 16, 64)


def test_explicit_streams_of_every_kind(box_f32, rng):
    cupy = pytest.importorskip("cupy")
    from tile_mlir.runtime.driver import check, cuda
    drv = cuda()
    cu_stream = check(drv.cuStreamCreate(0), "cuStreamCreate")
    streams = {"torch": torch.cuda.Stream(), "cupy": cupy.cuda.Stream(non_blocking=True),
               "CUstream": cu_stream, "int": int(cu_stream)}
    for name, stream in streams.items():
        a, b = _box_case(rng)
        torch.cuda.synchronize()
        box_f32(a, b, 32, 0, stream=stream)
        handle = {"torch": lambda s: s.cuda_stream, "cupy": lambda s: s.ptr}.get(
            name, lambda s: int(s))(stream)
        check(drv.cuStreamSynchronize(handle), "cuStreamSynchronize")
        _check_box(a, b, 32, 0)
    with pytest.raises(TileRuntimeError) as err:
        box_f32(a, b, 0, 0, stream="default")
    assert err.value.rule == "stream-type"


def test_graph_capture_replays_with_new_data(box_f32, rng):
    a, b = _box_case(rng)
    box_f32(a, b, 0, 0)  # validated and cached outside the capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        box_f32(a, b, 48, 64)
    for _ in range(3):
        a.copy_(torch.randn_like(a))
        b.fill_(-3.0)
        graph.replay()
        torch.cuda.synchronize()
        _check_box(a, b, 48, 64)


def test_cupy_jax_and_numba_arrays(box_f32, rng):
    cupy = pytest.importorskip("cupy")
    host = rng.standard_normal((96, 128)).astype(np.float32)
    a, b = cupy.asarray(host), cupy.full((96, 128), -3.0, cupy.float32)
    box_f32(a, b, 40, 64)  # the current cupy stream
    cupy.cuda.get_current_stream().synchronize()
    want = np.full_like(host, -3.0)
    want[40:56, 64:128] = host[40:56, 64:128]
    assert np.array_equal(cupy.asnumpy(b), want)

    jax = pytest.importorskip("jax")
    ja = jax.device_put(host, jax.devices("gpu")[0])
    tb = torch.full((96, 128), -3.0, device="cuda")
    box_f32(ja, tb, 40, 64)  # a DLPack-only input
    torch.cuda.synchronize()
    assert np.array_equal(tb.cpu().numpy(), want)

    numba_cuda = pytest.importorskip("numba.cuda")
    na = numba_cuda.to_device(host)
    nb = numba_cuda.to_device(np.full_like(host, -3.0))
    box_f32(na, nb, 40, 64)
    numba_cuda.synchronize()
    assert np.array_equal(nb.copy_to_host(), want)


def test_bf16_torch_and_bind(box_bf16, rng):
    a, b = _box_case(rng, dtype=torch.bfloat16)
    bound = box_bf16.bind(a, b, 64, 0)
    bound()
    torch.cuda.synchronize()
    _check_box(a, b, 64, 0)
    with pytest.raises(TileRuntimeError) as err:
        box_bf16(a.float(), b, 0, 0)
    assert err.value.rule == "argument-dtype"


def test_the_artifact_from_the_cache_is_callable(rng):
    art = cache.compile_recipe(f"{KERNELS}:build_box_at", dtype="float32",
                               arch=cache.default_arch())
    a, b = _box_case(rng)
    art(a, b, 0, 64)
    torch.cuda.synchronize()
    _check_box(a, b, 0, 64)


def test_a_missing_recipe_is_a_named_miss():
    if cache.mlir_available():
        pytest.skip("this process has MLIR: a miss compiles")
    with pytest.raises(TileRuntimeError) as err:
        cache.load_kernel(f"{KERNELS}:build_never_populated")
    assert err.value.rule == "compile-cache-miss"
    assert "build_never_populated" in err.value.message
