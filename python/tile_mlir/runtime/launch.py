"""The driver's launch calls.

A cluster-free launch calls libcuda's cuLaunchKernel through ctypes with
fixed argument types: the per-launch cost is the driver's own plus one
foreign call (cuda-python's wrapper converts every argument again on each
call). Cluster launches go through cuda-python's cuLaunchKernelEx with a
launch config built once per bound launch."""

from __future__ import annotations

import ctypes
from functools import lru_cache

from .driver import check, cuda
from .errors import CudaError


@lru_cache(maxsize=None)
def _cu_launch_kernel():
    cuda()  # cuda-python has loaded (and initialized) the driver library
    fn = ctypes.CDLL("libcuda.so.1").cuLaunchKernel
    fn.argtypes = ([ctypes.c_void_p] + [ctypes.c_uint] * 7 +
                   [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p])
    fn.restype = ctypes.c_int
    return fn


def kernel_launcher(function):
    """launch(grid, block, shared_bytes, stream, kernel_params) for one
    CUfunction, through libcuda's cuLaunchKernel."""
    fn, handle = _cu_launch_kernel(), int(function)

    def launch(grid, block, shared_bytes, stream, kernel_params):
        status = fn(handle, *grid, *block, shared_bytes, stream, kernel_params, None)
        if status:
            raise CudaError("cuLaunchKernel", cuda().CUresult(status))

    return launch


class Launcher:
    """Launches one function with a fixed grid, block, cluster and dynamic
    shared size; only the stream and the parameter array vary."""

    def __init__(self, function, grid, block, cluster, shared_bytes: int):
        self.function = function
        self.grid, self.block = tuple(grid), tuple(block)
        self.shared_bytes = shared_bytes
        self.config = _cluster_config(grid, block, cluster, shared_bytes) if cluster else None
        self._launch = None if cluster else kernel_launcher(function)

    def __call__(self, stream: int, kernel_params: int) -> None:
        if self._launch is not None:
            self._launch(self.grid, self.block, self.shared_bytes, stream, kernel_params)
            return
        self.config.hStream = stream
        check(cuda().cuLaunchKernelEx(self.config, self.function, kernel_params, 0),
              "cuLaunchKernelEx")


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


__all__ = ["Launcher", "kernel_launcher"]
