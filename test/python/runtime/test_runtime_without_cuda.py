"""Without cuda-python or without a driver the runtime names what is missing
(a TileRuntimeError with a rule), simulated on the CPU."""

import sys

import pytest

from tile_mlir.runtime import TileRuntimeError, driver


@pytest.fixture
def fresh_driver(monkeypatch):
    driver.cuda.cache_clear()
    monkeypatch.setattr(driver, "_primary", {})
    # lru_cache keeps no failed import: nothing to clear afterwards.


def test_missing_cuda_python(monkeypatch, fresh_driver):
    # A None entry in sys.modules makes the import raise ImportError.
    for name in ("cuda", "cuda.bindings", "cuda.bindings.driver", "cuda.cuda"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(TileRuntimeError) as err:
        driver.primary_context()
    assert err.value.rule == "cuda-python-missing"
    assert "pip install 'tile-mlir[gpu]'" in str(err.value)
    ok, why = driver.gpu_available()
    assert not ok and why.startswith("cuda-python is not installed")


class DynamicLibNotFoundError(RuntimeError):
    """Stands in for cuda.pathfinder's error when libcuda.so.1 is absent."""


class Status(int):
    name = "CUDA_ERROR_NO_DEVICE"


class NoDriver:
    def cuInit(self, flags):
        raise DynamicLibNotFoundError("Failure finding libcuda.so")


class NoDevice:
    def cuInit(self, flags):
        return (Status(100),)


def test_missing_driver(monkeypatch, fresh_driver):
    monkeypatch.setattr(driver, "cuda", lambda: NoDriver())
    with pytest.raises(TileRuntimeError) as err:
        driver.primary_context()
    assert err.value.rule == "cuda-driver-missing"
    assert "DynamicLibNotFoundError" in str(err.value)
    assert "NVIDIA driver" in str(err.value)
    ok, why = driver.gpu_available()
    assert not ok and why.startswith("no CUDA driver")


def test_missing_gpu(monkeypatch, fresh_driver):
    monkeypatch.setattr(driver, "cuda", lambda: NoDevice())
    with pytest.raises(TileRuntimeError) as err:
        driver.primary_context()
    assert err.value.rule == "cuda-device-missing"
    assert "CUDA_ERROR_NO_DEVICE" in str(err.value)
    ok, why = driver.gpu_available()
    assert not ok and why.startswith("no CUDA GPU")


class BrokenDriver:
    def cuInit(self, flags):
        return (999,)  # CUDA_ERROR_UNKNOWN: a driver that does not start


def test_a_driver_that_does_not_start(monkeypatch, fresh_driver):
    monkeypatch.setattr(driver, "cuda", lambda: BrokenDriver())
    with pytest.raises(TileRuntimeError) as err:
        driver.primary_context()
    assert err.value.rule == "cuda-driver-missing"
    assert "cuInit failed" in str(err.value)
    ok, why = driver.gpu_available()
    assert not ok and why.startswith("no CUDA driver")


class Recorder:
    """A driver whose calls are recorded: two devices, a primary context
    each, and a current context per thread (None: none current)."""

    def __init__(self):
        import threading
        self.calls = []
        self._here = threading.local()

    def CUcontext(self, value):
        assert value == 0
        return None

    def cuInit(self, flags):
        return (Status(0),)

    def cuDeviceGet(self, ordinal):
        return (Status(0), ordinal)

    def cuDevicePrimaryCtxRetain(self, device):
        self.calls.append(("retain", device))
        return (Status(0), Ctx(100 + device))

    def cuCtxGetCurrent(self):
        return (Status(0), getattr(self._here, "ctx", None))

    def cuCtxGetDevice(self):
        return (Status(0), int(self._here.ctx) - 100)

    def cuCtxSetCurrent(self, ctx):
        self.calls.append(("current", None if ctx is None else int(ctx)))
        self._here.ctx = ctx
        return (Status(0),)


class Ctx(int):
    """A CUcontext stand-in: cuda-python's handles convert to int."""


def test_on_device_restores_the_threads_own_context(monkeypatch, fresh_driver):
    # torch reads its current device from the thread's current context, so
    # the runtime sets its device's context for a call only.
    rec = Recorder()
    monkeypatch.setattr(driver, "cuda", lambda: rec)
    with driver.on_device(1):
        assert rec.cuCtxGetCurrent()[1] == 101
    assert rec.cuCtxGetCurrent()[1] is None       # none was current: none again
    rec.cuCtxSetCurrent(Ctx(100))                  # the program's device 0
    with driver.on_device(1):
        assert driver.current_device() == 1
    assert driver.current_device() == 0
    calls = len(rec.calls)
    with driver.on_device(0):                      # already current: nothing set
        pass
    assert [c for c in rec.calls[calls:] if c[0] == "current"] == []
    assert [c for c in rec.calls if c[0] == "retain"] == [("retain", 1), ("retain", 0)]


def test_on_device_restores_on_an_error(monkeypatch, fresh_driver):
    rec = Recorder()
    monkeypatch.setattr(driver, "cuda", lambda: rec)
    with pytest.raises(ZeroDivisionError):
        with driver.on_device(1):
            1 / 0
    assert rec.cuCtxGetCurrent()[1] is None


def test_each_thread_gets_its_context_back(monkeypatch, fresh_driver):
    import threading
    rec = Recorder()
    monkeypatch.setattr(driver, "cuda", lambda: rec)
    seen = []

    def work():
        for device in (1, 0):
            with driver.on_device(device):
                seen.append(rec.cuCtxGetCurrent()[1])
            seen.append(rec.cuCtxGetCurrent()[1])
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    # A thread with none gets none back from device 1, and keeps device 0's
    # (what the CUDA runtime would make current there itself).
    assert seen == [101, None, 100, 100]
    assert rec.cuCtxGetCurrent()[1] is None   # this thread's is its own


def test_only_an_invalid_context_status_relaunches(monkeypatch, fresh_driver):
    rec = Recorder()
    monkeypatch.setattr(driver, "cuda", lambda: rec)
    launches = []

    def launch():
        launches.append(rec.cuCtxGetCurrent()[1])
        return 0
    assert driver.relaunch_on(1, 0, launch) == 0 and launches == []
    assert driver.relaunch_on(1, 700, launch) == 700 and launches == []
    # CUDA_ERROR_INVALID_CONTEXT: again under device 1's context, then back.
    assert driver.relaunch_on(1, 201, launch) == 0 and launches == [101]
    assert rec.cuCtxGetCurrent()[1] is None


@pytest.mark.parametrize("device", ["cpu", "cuda:x", "gpu:0", -1, True, 1.5, [0]])
def test_a_device_that_names_no_cuda_ordinal_is_named(device):
    # Checked before any driver call, so this runs without a GPU.
    with pytest.raises(TileRuntimeError) as err:
        driver.device_index(device)
    assert err.value.rule == "device-index" and repr(device) in str(err.value)


def test_a_device_the_machine_lacks_is_named(monkeypatch, fresh_driver):
    class TwoDevices(Recorder):
        def cuDeviceGetCount(self):
            return (Status(0), 2)
    monkeypatch.setattr(driver, "cuda", lambda: TwoDevices())
    assert driver.device_index("cuda:1") == 1
    with pytest.raises(TileRuntimeError) as err:
        driver.device_index(2)
    assert err.value.rule == "device-index" and "2 CUDA devices" in str(err.value)
