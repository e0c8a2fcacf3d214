"""Thin, checked access to the CUDA driver through cuda-python."""

from __future__ import annotations

import operator
import sys
from functools import lru_cache

from .bindings import import_driver
from .errors import CudaError, TileRuntimeError

INSTALL_CUDA_PYTHON = "pip install 'tile-mlir[gpu]' (or pip install cuda-python)"
INSTALL_DRIVER = ("install the NVIDIA driver (libcuda.so.1, e.g. the distribution's "
                  "nvidia-driver package) on a machine with a CUDA GPU")


@lru_cache(maxsize=None)
def cuda():
    """The `cuda.bindings.driver` module (imported on first use)."""
    try:
        return import_driver()
    except ImportError as err:
        raise TileRuntimeError(
            "cuda-python-missing",
            f"the runtime needs cuda-python, which is not installed ({err}); "
            f"{INSTALL_CUDA_PYTHON}") from err


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
    status = int(result[0] if isinstance(result, tuple) else result)
    if status == NO_DEVICE:
        raise TileRuntimeError("cuda-device-missing", "the CUDA driver is installed but "
                               "cuInit found no GPU (CUDA_ERROR_NO_DEVICE)")
    if status != 0:  # a driver that cannot start is as good as none
        raise TileRuntimeError("cuda-driver-missing", "the CUDA driver did not start: "
                               f"{CudaError('cuInit', status)}; {INSTALL_DRIVER}")


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


# The driver's current context is per thread, and it is the caller's:
# torch reads its current device from it. So the runtime never leaves its
# own behind: each call that needs a context makes the device's primary
# context current for that call only (`on_device`) and restores what the
# thread had (another device's, a context of the program's own, or none).
_primary: dict = {}
NO_DEVICE = 100  # CUDA_ERROR_NO_DEVICE: cuInit found no GPU
INVALID_CONTEXT = 201  # CUDA_ERROR_INVALID_CONTEXT: no (or another) context current


def primary_context(device: int = 0):
    """The primary context of `device` (retained once per process), the one
    torch and other CUDA runtime users allocate in."""
    ctx = _primary.get(device)
    if ctx is None:
        drv = cuda()
        init(drv)
        handle = check(drv.cuDeviceGet(device), "cuDeviceGet")
        ctx = _primary[device] = check(drv.cuDevicePrimaryCtxRetain(handle),
                                       "cuDevicePrimaryCtxRetain")
    return ctx


def current_device() -> int:
    """torch's current device where torch has initialised CUDA (it may set
    a device lazily, with no context current yet), else the device of the
    calling thread's current context, else 0."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        return int(torch.cuda.current_device())
    drv = cuda()
    init(drv)
    ctx = check(drv.cuCtxGetCurrent(), "cuCtxGetCurrent")
    if ctx is None or int(ctx) == 0:
        return 0
    return int(check(drv.cuCtxGetDevice(), "cuCtxGetDevice"))


def device_index(device=None) -> int:
    """A CUDA device ordinal from `device`: None (the current device), an
    int, "cuda" / "cuda:N", or a torch.device; [device-index] unless this
    machine has it."""
    if device is None:
        return current_device()
    index = getattr(device, "index", device)
    if getattr(device, "type", "cuda") != "cuda":   # torch.device("cpu")
        index = -1
    if isinstance(device, str):
        kind, _, number = device.partition(":")
        index = (int(number) if number.isdigit() else -1) if kind == "cuda" else -1
        index = None if kind == "cuda" and not number else index
    if index is None:   # torch.device("cuda"): the current device
        return current_device()
    if not isinstance(index, bool):
        try:
            index = operator.index(index)   # numpy integers too
        except TypeError:
            pass
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise TileRuntimeError("device-index", f"device={device!r}: expected a CUDA "
                               "device ordinal (an int >= 0, 'cuda:N' or a torch.device)")
    drv = cuda()
    init(drv)
    count = int(check(drv.cuDeviceGetCount(), "cuDeviceGetCount"))
    if index >= count:
        raise TileRuntimeError("device-index", f"device={device!r}: this machine has "
                               f"{count} CUDA device{'s' if count != 1 else ''}")
    return index


class on_device:
    """`with on_device(d):` runs its block with device d's primary context
    current on this thread, then makes current again whatever was (nothing
    is set where it already is). A thread that had no context keeps device
    0's: that is the context the CUDA runtime itself would make current
    there (torch's current device stays 0), and later calls on the thread,
    the program's own driver calls included, find it current as before."""

    __slots__ = ("device", "_previous", "_switched")

    def __init__(self, device: int = 0):
        self.device = device
        self._switched = False

    def __enter__(self):
        ctx = primary_context(self.device)
        drv = cuda()
        previous = check(drv.cuCtxGetCurrent(), "cuCtxGetCurrent")
        none = previous is None or int(previous) == 0
        if none or int(previous) != int(ctx):
            check(drv.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        self._switched = (int(previous) != int(ctx)) if not none else self.device != 0
        if self._switched:
            self._previous = previous if previous is not None else drv.CUcontext(0)
        return ctx

    def __exit__(self, *exc):
        if self._switched:
            self._switched = False
            check(cuda().cuCtxSetCurrent(self._previous), "cuCtxSetCurrent")
        return False


def relaunch_on(device: int, status, launch):
    """A launch's status; where it was refused because this thread's current
    context is not `device`'s (INVALID_CONTEXT, which the C launch path also
    returns, launching nothing, when it sees another context current),
    `launch()` again under device's context, restoring the thread's after."""
    if int(status) != INVALID_CONTEXT:
        return status
    with on_device(device):
        return launch()


def gpu_available() -> tuple[bool, str]:
    """Whether a CUDA device can be used here, and why not."""
    try:
        drv = cuda()
    except TileRuntimeError:
        return False, f"cuda-python is not installed: {INSTALL_CUDA_PYTHON}"
    try:
        init(drv)
    except TileRuntimeError as err:
        if err.rule == "cuda-device-missing":
            return False, "no CUDA GPU (the driver is installed, cuInit found no device)"
        return False, f"no CUDA driver: {err.message}"
    status, count = drv.cuDeviceGetCount()
    if int(status) != 0 or count == 0:
        return False, "no CUDA GPU (the driver reports no device)"
    return True, ""


def device_attribute(device: int, name: str) -> int:
    """`device`'s attribute CU_DEVICE_ATTRIBUTE_<name> (the driver started
    already: cuInit)."""
    drv = cuda()
    handle = check(drv.cuDeviceGet(device), "cuDeviceGet")
    return int(check(drv.cuDeviceGetAttribute(
        getattr(drv.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}"), handle),
        "cuDeviceGetAttribute"))


def compute_capability(device: int = 0) -> tuple[int, int]:
    init(cuda())   # device attributes need no context
    return (device_attribute(device, "COMPUTE_CAPABILITY_MAJOR"),
            device_attribute(device, "COMPUTE_CAPABILITY_MINOR"))


def device_name(device: int = 0) -> str:
    """`device`'s product name as the driver reports it ("NVIDIA H100 80GB
    HBM3"): the layout kernels' tuning (kernels/layout/tuning.py) keys on it."""
    drv = cuda()
    init(drv)
    handle = check(drv.cuDeviceGet(device), "cuDeviceGet")
    raw = check(drv.cuDeviceGetName(256, handle), "cuDeviceGetName")
    return bytes(raw).split(b"\0", 1)[0].decode(errors="replace")


def device_arch(device: int = 0) -> str:
    """The compile target of `device`: sm_90a for compute capability 9.0,
    sm_100a for 10.0 (the arch-specific targets TMA kernels need)."""
    major, minor = compute_capability(device)
    return f"sm_{major}{minor}a"
