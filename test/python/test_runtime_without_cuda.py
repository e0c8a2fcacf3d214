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
