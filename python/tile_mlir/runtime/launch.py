"""The driver's launch calls.

A cluster-free launch is bound once (function, grid, block, shared size,
parameter array) and then called with only the stream. The bound call is
the package's C extension `_launch` (libcuda's cuLaunchKernel called
directly, no per-call argument conversion); where that extension cannot
load, cuda-python's cuLaunchKernel with the same arguments fixed
(`NATIVE_LAUNCH` says which; docs/runtime.md). Cluster launches go through
cuLaunchKernelEx with a launch config built once."""

from __future__ import annotations

import ctypes
import functools
import math
import threading

from .driver import INVALID_CONTEXT, check, cuda
from .errors import CudaError
from .scalars import F32_MAX

try:
    from . import _launch
    NATIVE_LAUNCH = True
    NATIVE_LAUNCH_ERROR = None
except ImportError as error:  # not built (a source tree run without CMake) or no libcuda
    _launch = None
    NATIVE_LAUNCH = False
    NATIVE_LAUNCH_ERROR = str(error)


class Launcher:
    """Launches one function with a fixed grid, block, cluster and dynamic
    shared size; only the stream and the parameter array vary."""

    def __init__(self, function, grid, block, cluster, shared_bytes: int, context=None):
        self.function = function
        self.context = 0 if context is None else int(context)
        self.grid, self.block = tuple(grid), tuple(block)
        self.shared_bytes = shared_bytes
        drv = cuda()
        self._launch_kernel = drv.cuLaunchKernel
        self._fixed = (function, *self.grid, *self.block, shared_bytes)
        self.config = _cluster_config(grid, block, cluster, shared_bytes) if cluster else None

    def bound_call(self, kernel_params: int, owner=None, current_stream=None,
                   scalars=(), dispatch: bool = True):
        """cuLaunchKernel with everything but the stream bound. Calling it
        with a stream handle launches and returns the driver's status as an
        int, unchecked (0 on success); `launch_with(stream, args)` first
        packs the scalars of `args` as `scalars` says ((index, slot address,
        'i' or 'f', width, low, high) each) and returns -1, launching
        nothing, when one needs the Python checks. `owner` is kept alive with
        it; `current_stream` and `dispatch` are for the C call path. A launch
        while another context than the function's is current on the thread
        returns 201 (INVALID_CONTEXT) unlaunched."""
        if _launch is not None:
            return _launch.Bound(int(self.function), self.grid, self.block,
                                 self.shared_bytes, kernel_params, owner, current_stream,
                                 scalars, dispatch, self.context)
        return _PythonBound(functools.partial(self._launch_kernel, *self._fixed),
                            kernel_params, scalars, owner, self.context)

    def __call__(self, stream: int, kernel_params: int) -> None:
        if self.config is None:
            status = self._launch_kernel(*self._fixed, stream, kernel_params, 0)[0]
            if int(status):
                raise CudaError("cuLaunchKernel", status)
            return
        self.config.hStream = stream
        check(cuda().cuLaunchKernelEx(self.config, self.function, kernel_params, 0),
              "cuLaunchKernelEx")


def native_dispatch(launches: dict, number_marker):
    """The C cached call over a kernel's dict of validated launches (None
    without the extension): called with the argument tuple, it keys the
    arguments as Kernel.__call__ does, launches a hit on its arrays' current
    stream and returns the status, or -1 when the Python path must run."""
    return None if _launch is None else _launch.Dispatch(launches, number_marker)


class _PythonBound:
    """bound_call's interface over cuda-python, where _launch is unavailable."""

    def __init__(self, launch, kernel_params: int, scalars, owner, context: int = 0):
        self._launch = launch
        self._context = context
        self._params = kernel_params
        self._owner = owner
        self._slots = [(index, _SLOT_TYPES[kind, width].from_address(address), kind,
                        width, low, high)
                       for index, address, kind, width, low, high in scalars]
        self._lock = threading.Lock()  # the driver copies the slots during the call

    def __call__(self, stream: int) -> int:
        if self._context:
            current = cuda().cuCtxGetCurrent()
            if int(current[0]) or current[1] is None or int(current[1]) != self._context:
                return INVALID_CONTEXT   # as the C path: launched by the caller's switch
        return int(self._launch(stream, self._params, 0)[0])

    def launch_with(self, stream: int, args) -> int:
        with self._lock:
            for index, slot, kind, width, low, high in self._slots:
                x = args[index]
                if kind == "i":
                    if type(x) is not int or not low <= x <= high:
                        return -1
                elif type(x) is not float or (width == 4 and math.isfinite(x) and
                                              abs(x) > F32_MAX):
                    return -1
                slot.value = x
            return self(stream)


_SLOT_TYPES = {("i", 4): ctypes.c_uint32, ("i", 8): ctypes.c_uint64,
               ("f", 4): ctypes.c_float, ("f", 8): ctypes.c_double}


def _cluster_config(grid, block, cluster, shared_bytes: int):
    drv = cuda()
    config = drv.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = grid
    config.blockDimX, config.blockDimY, config.blockDimZ = block
    config.sharedMemBytes = shared_bytes
    attr = drv.CUlaunchAttribute()
    attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = cluster
    config.attrs = [attr]
    config.numAttrs = 1
    return config


__all__ = ["Launcher", "NATIVE_LAUNCH", "native_dispatch"]
