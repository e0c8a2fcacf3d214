"""Without cuda-python or without a driver the runtime names what is missing
(a TileRuntimeError with a rule), simulated on the CPU."""

import sys

import pytest

from tile_mlir.runtime import TileRuntimeError, driver


@pytest.fixture
def fresh_driver(monkeypatch):
    driver.cuda.cache_clear()
    monkeypatch.setattr(driver, "_context", None)
    # lru_cache keeps no failed import: nothing to clear afterwards.


def test_missing_cuda_python(monkeypatch, fresh_driver):
    # A None entry in sys.modules makes the import raise ImportError.
    for name in ("cuda", "cuda.bindings", "cuda.bindings.driver", "cuda.cuda"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(TileRuntimeError) as err:
        driver.context()
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
        driver.context()
    assert err.value.rule == "cuda-driver-missing"
    assert "DynamicLibNotFoundError" in str(err.value)
    assert "NVIDIA driver" in str(err.value)
    ok, why = driver.gpu_available()
    assert not ok and why.startswith("no CUDA driver")


def test_missing_gpu(monkeypatch, fresh_driver):
    monkeypatch.setattr(driver, "cuda", lambda: NoDevice())
    with pytest.raises(driver.CudaError):
        driver.context()
    ok, why = driver.gpu_available()
    assert not ok and why.startswith("no CUDA GPU")


class Recorder:
    """A driver whose calls are recorded: one device, one primary context."""

    def __init__(self):
        self.calls = []

    def cuInit(self, flags):
        return (Status(0),)

    def cuDeviceGet(self, ordinal):
        return (Status(0), "dev0")

    def cuDevicePrimaryCtxRetain(self, device):
        self.calls.append("retain")
        return (Status(0), "ctx0")

    def cuCtxSetCurrent(self, ctx):
        self.calls.append(("current", ctx))
        return (Status(0),)


def test_the_context_is_made_current_on_each_thread(monkeypatch, fresh_driver):
    # The driver's current context is per thread (autograd's backward runs
    # on threads of its own): once retained, it is set on every new thread.
    import threading
    rec = Recorder()
    monkeypatch.setattr(driver, "cuda", lambda: rec)
    monkeypatch.setattr(driver, "_here", threading.local())
    driver.context()
    driver.context()   # this thread already has it
    thread = threading.Thread(target=driver.context)
    thread.start()
    thread.join()
    assert rec.calls == ["retain", ("current", "ctx0"), ("current", "ctx0")]


def test_only_an_invalid_context_status_sets_the_context(monkeypatch, fresh_driver):
    import threading
    rec = Recorder()
    monkeypatch.setattr(driver, "cuda", lambda: rec)
    monkeypatch.setattr(driver, "_here", threading.local())
    driver.context()
    assert not driver.made_current(0) and not driver.made_current(700)
    assert rec.calls == ["retain", ("current", "ctx0")]
    assert driver.made_current(201)   # CUDA_ERROR_INVALID_CONTEXT: set again, retry
    assert rec.calls[-1] == ("current", "ctx0") and len(rec.calls) == 3
