"""Thin, checked access to the CUDA driver through cuda-python."""

from __future__ import annotations

from functools import lru_cache

from .errors import CudaError


@lru_cache(maxsize=None)
def cuda():
    """The `cuda.bindings.driver` module (imported on first use)."""
    try:
        from cuda.bindings import driver
    except ImportError:  # cuda-python < 12.6 layout
        from cuda import cuda as driver  # type: ignore[no-redef]
    return driver


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


def context():
    """The primary context of device 0, made current (once per process)."""
    global _context
    if _context is None:
        drv = cuda()
        check(drv.cuInit(0), "cuInit")
        device = check(drv.cuDeviceGet(0), "cuDeviceGet")
        _context = check(drv.cuDevicePrimaryCtxRetain(device), "cuDevicePrimaryCtxRetain")
        check(drv.cuCtxSetCurrent(_context), "cuCtxSetCurrent")
    return _context


def gpu_available() -> tuple[bool, str]:
    """Whether a CUDA device can be used here, and why not."""
    try:
        drv = cuda()
    except ImportError as err:
        return False, f"cuda-python is not installed ({err})"
    try:
        status, = drv.cuInit(0)
        if int(status) != 0:
            return False, f"cuInit failed: {getattr(status, 'name', status)}"
        status, count = drv.cuDeviceGetCount()
        if int(status) != 0 or count == 0:
            return False, "no CUDA device"
    except Exception as err:  # driver library missing
        return False, f"no CUDA driver ({err})"
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
