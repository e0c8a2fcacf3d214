"""Thin, checked access to the CUDA driver through cuda-python."""

from __future__ import annotations

import threading
from functools import lru_cache

from .errors import CudaError, TileRuntimeError

INSTALL_CUDA_PYTHON = "pip install 'tile-mlir[gpu]' (or pip install cuda-python)"
INSTALL_DRIVER = ("install the NVIDIA driver (libcuda.so.1, e.g. the distribution's "
                  "nvidia-driver package) on a machine with a CUDA GPU")


@lru_cache(maxsize=None)
def cuda():
    """The `cuda.bindings.driver` module (imported on first use)."""
    try:
        from cuda.bindings import driver
    except ImportError:  # cuda-python < 12.6 layout
        try:
            from cuda import cuda as driver  # type: ignore[no-redef]
        except ImportError as err:
            raise TileRuntimeError(
                "cuda-python-missing",
                f"the runtime needs cuda-python, which is not installed ({err}); "
                f"{INSTALL_CUDA_PYTHON}") from err
    return driver


def init(drv) -> None:
    """cuInit(0); cuda-python loads libcuda here, so a missing driver library
    (DynamicLibNotFoundError, an OSError) surfaces as a rule, not a traceback."""
    try:
        result = drv.cuInit(0)
    except Exception as err:  # the driver library could not be loaded
        raise TileRuntimeError(
            "cuda-driver-missing",
            f"cuda-python is installed but the CUDA driver could not be loaded "
            f"({type(err).__name__}: {err}); {INSTALL_DRIVER}") from err
    check(result, "cuInit")


def check(result, call: str):
    """Unpacks a cuda-python result tuple, raising on a non-success status."""
    if isinstance(result, tuple):
        status, rest = result[0], result[1:]
    else:
        status, rest = result, ()
    if int(status) != 0:
        raise CudaError(call, status)
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else rest


_context = None
# The driver's current context is per thread: torch's autograd runs backward
# passes on threads of its own, and a program's worker threads start with
# none. `context()` makes it current on each thread that asks.
_here = threading.local()
INVALID_CONTEXT = 201  # CUDA_ERROR_INVALID_CONTEXT: no (or another) context current


def context():
    """The primary context of device 0, current on the calling thread."""
    global _context
    if _context is None:
        drv = cuda()
        init(drv)
        device = check(drv.cuDeviceGet(0), "cuDeviceGet")
        _context = check(drv.cuDevicePrimaryCtxRetain(device), "cuDevicePrimaryCtxRetain")
    if getattr(_here, "context", None) is not _context:
        check(cuda().cuCtxSetCurrent(_context), "cuCtxSetCurrent")
        _here.context = _context
    return _context


def made_current(status) -> bool:
    """Whether a failed call's status says the calling thread had no current
    context; if so it has device 0's primary context now (retry the call).
    The launch paths check this only after a failure, so a launch costs
    nothing more."""
    if int(status) != INVALID_CONTEXT:
        return False
    _here.context = None
    context()
    return True


def gpu_available() -> tuple[bool, str]:
    """Whether a CUDA device can be used here, and why not."""
    try:
        drv = cuda()
    except TileRuntimeError:
        return False, f"cuda-python is not installed: {INSTALL_CUDA_PYTHON}"
    try:
        init(drv)
    except TileRuntimeError:
        return False, "no CUDA driver (libcuda could not be loaded)"
    except CudaError as err:
        name = getattr(err.status, "name", str(err.status))
        if name == "CUDA_ERROR_NO_DEVICE":
            return False, "no CUDA GPU (the driver is installed, cuInit found no device)"
        return False, f"the CUDA driver did not start: {err}"
    status, count = drv.cuDeviceGetCount()
    if int(status) != 0 or count == 0:
        return False, "no CUDA GPU (the driver reports no device)"
    return True, ""


def compute_capability() -> tuple[int, int]:
    drv = cuda()
    context()
    device = check(drv.cuDeviceGet(0), "cuDeviceGet")
    attr = drv.CUdevice_attribute
    major = check(drv.cuDeviceGetAttribute(
        attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device), "cuDeviceGetAttribute")
    minor = check(drv.cuDeviceGetAttribute(
        attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device), "cuDeviceGetAttribute")
    return major, minor


def device_arch() -> str:
    """The compile target of device 0: sm_90a for compute capability 9.0,
    sm_100a for 10.0 (the arch-specific targets TMA kernels need)."""
    major, minor = compute_capability()
    return f"sm_{major}{minor}a"
