"""Module loading, argument checks, parameter packing and launch."""

from __future__ import annotations

import ctypes
from pathlib import Path

from ..artifact import Artifact
from ..launch_shape import dim3
from ..spec import TensorMapSpec
from .arrays import (DeviceView, accepted_dtypes, check_packed, device_view, download,
                     host_packing, packed_layout, upload)
from .debug import ErrorBuffer
from .driver import check, context, cuda
from .errors import TileRuntimeError
from .tensormap import TensorMapCache, check_source


def load(artifact: Artifact | str | Path,
         debug_timeout: float | None = None) -> "Module":
    """Loads an artifact. A debug artifact's waits time out after
    `debug_timeout` seconds (default: $TILE_DEBUG_TIMEOUT_MS, else the
    kernel's own 1 s)."""
    if not isinstance(artifact, Artifact):
        artifact = Artifact.load(artifact)
    return Module(artifact, debug_timeout)


class Module:
    """A loaded cubin; call it like its single kernel, or index by name.

    A debug artifact (`compile(..., debug=True)`, a manifest with a `debug`
    entry) has an error buffer: every launch then synchronizes its stream,
    and a fault the kernel recorded is raised as a DeviceFault
    (a TileRuntimeError naming the rule; docs/debug-mode.md)."""

    def __init__(self, artifact: Artifact, debug_timeout: float | None = None):
        if artifact.cubin is None:
            raise TileRuntimeError("artifact-cubin", "the artifact has no cubin "
                                   "(compile it with cubin=True, where ptxas is)")
        context()
        self.artifact = artifact
        self.handle = check(cuda().cuModuleLoadData(artifact.cubin), "cuModuleLoadData")
        self.debug = None
        if "debug" in artifact.manifest:
            self.debug = ErrorBuffer(self.handle, artifact.manifest["debug"])
            if debug_timeout is not None:
                self.debug.set_timeout(debug_timeout)
        self.kernels = {info["name"]: Kernel(self, info) for info in artifact.kernels}

    def __getitem__(self, name: str) -> "Kernel":
        if name not in self.kernels:
            raise TileRuntimeError("kernel-name", f"no kernel {name!r} in the module "
                                   f"(it holds {', '.join(self.kernels) or 'none'})")
        return self.kernels[name]

    def _only(self) -> "Kernel":
        if len(self.kernels) != 1:
            raise TileRuntimeError("kernel-name", f"the module holds "
                                   f"{len(self.kernels)} kernels "
                                   f"({', '.join(self.kernels)}): index it by name")
        return next(iter(self.kernels.values()))

    def __call__(self, *args, **kwargs):
        return self._only()(*args, **kwargs)

    def bind(self, *args, **kwargs) -> "BoundLaunch":
        return self._only().bind(*args, **kwargs)


class Kernel:
    def __init__(self, module: Module, info: dict):
        self.module = module
        self.info = info
        self.name = info["name"]
        self.function = check(cuda().cuModuleGetFunction(module.handle, self.name.encode()),
                              "cuModuleGetFunction")
        self.specs = [TensorMapSpec.from_json(entry)
                      for entry in info.get("tensor_maps", [])]
        self.maps = TensorMapCache()
        self.dynamic_shared = int(info.get("dynamic_shared_bytes", 0))
        check_shared_bytes(info, _shared_limit())
        if self.dynamic_shared > 48 * 1024:
            attr = cuda().CUfunction_attribute
            check(cuda().cuFuncSetAttribute(
                self.function, attr.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                self.dynamic_shared), "cuFuncSetAttribute")

    # -- checks ------------------------------------------------------------
    def _check_args(self, views: list[DeviceView]) -> None:
        params = self.info["params"]
        if len(views) != len(params):
            raise TileRuntimeError("argument-count", f"{self.name} takes {len(params)} "
                                   f"arguments, got {len(views)}")
        for i, (view, param) in enumerate(zip(views, params)):
            if param["kind"] != "memref":
                raise TileRuntimeError("argument-kind", f"argument {i}: scalar "
                                       "parameters are not supported by the launcher")
            if view.dtype not in accepted_dtypes(param["element"]):
                raise TileRuntimeError("argument-dtype", f"argument {i}: dtype "
                                       f"{view.dtype} does not match the kernel's "
                                       f"{param['element']}")
            shape = param["shape"]
            if len(view.shape) != len(shape):
                raise TileRuntimeError("global-rank", f"argument {i}: rank "
                                       f"{len(view.shape)}, expected {len(shape)}")
            packed = bool(shape) and host_packing(param["element"]) != (1, 1)
            for axis, (got, want) in enumerate(zip(view.shape, shape)):
                if packed and axis == len(shape) - 1:
                    continue  # bytes of packed values: check_packed
                if want is not None and got != want:
                    raise TileRuntimeError("argument-shape", f"argument {i}: axis "
                                           f"{axis} is {got}, expected {want}")
            if packed:
                check_packed(view, param["element"], shape[-1], i)
        for spec in self.specs:
            check_source(spec, views[spec.source], spec.source)

    # -- launch ------------------------------------------------------------
    def _prepare(self, args, grid, block, cluster) -> "BoundLaunch":
        views = [device_view(a, i) for i, a in enumerate(args)]
        self._check_args(views)  # nothing is uploaded or launched before this
        views = [upload(v) if v.host is not None else v for v in views]
        for spec in self.specs:  # device addresses now known
            check_source(spec, views[spec.source], spec.source)
        maps = [self.maps.get(spec, views[spec.source]) for spec in self.specs]
        packings = [host_packing(p.get("element", "")) for p in self.info["params"]]
        return BoundLaunch(self, views, _pack(views, self.specs, maps, packings),
                           dim3(grid or self.info.get("grid", (1, 1, 1))),
                           dim3(block or self.info.get("block", (1, 1, 1))),
                           cluster or self.info.get("cluster"))

    def __call__(self, *args, grid=None, block=None, cluster=None, stream=0,
                 sync: bool = True):
        """Launches on `stream`. A debug artifact always synchronizes the
        stream and raises the fault its kernel recorded (after copying numpy
        arguments back, so what the kernel wrote can be inspected)."""
        launch = self._prepare(args, grid, block, cluster)
        _launch(self.function, launch.grid, launch.block, launch.cluster,
                self.dynamic_shared, stream, launch.kernel_params)
        fault = None
        if sync or launch.has_host_arrays or self.module.debug:
            check(cuda().cuStreamSynchronize(stream), "cuStreamSynchronize")
            if self.module.debug:
                fault = self.module.debug.take(self.name)
        launch.download()
        if fault is not None:
            raise fault

    def bind(self, *device_args, grid=None, block=None, cluster=None) -> "BoundLaunch":
        """Checks the (device) arguments and encodes their tensor maps once;
        the returned callable only launches (for repeated launches)."""
        launch = self._prepare(device_args, grid, block, cluster)
        if launch.has_host_arrays:
            raise TileRuntimeError("device-array", "bind() takes device arrays "
                                   "(cupy, torch); numpy arrays are copied per call")
        return launch


def _shared_limit() -> int:
    """Shared memory one block may opt into on device 0."""
    drv = cuda()
    device = check(drv.cuDeviceGet(0), "cuDeviceGet")
    return int(check(drv.cuDeviceGetAttribute(
        drv.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
        device), "cuDeviceGetAttribute"))


def check_shared_bytes(info: dict, limit: int) -> None:
    """Static plus dynamic shared memory must fit the device's per-block limit."""
    static = int(info.get("static_shared_bytes", 0))
    dynamic = int(info.get("dynamic_shared_bytes", 0))
    if static + dynamic > limit:
        raise TileRuntimeError(
            "shared-memory-limit", f"{info['name']} needs {static} static + {dynamic} "
            f"dynamic = {static + dynamic} bytes of shared memory, the device allows "
            f"{limit} per block")


class BoundLaunch:
    """A launch with checked arguments and packed parameters."""

    def __init__(self, kernel: Kernel, views, params, grid, block, cluster):
        self.kernel = kernel
        self.views = views
        self.params = params
        self.kernel_params = params.array()
        self.grid, self.block, self.cluster = grid, block, cluster
        self.has_host_arrays = any(v.host is not None for v in views)

    def __call__(self, stream=0) -> None:
        """Launches on `stream`; a debug artifact synchronizes it and raises
        the fault its kernel recorded."""
        _launch(self.kernel.function, self.grid, self.block, self.cluster,
                self.kernel.dynamic_shared, stream, self.kernel_params)
        debug = self.kernel.module.debug
        if debug:
            check(cuda().cuStreamSynchronize(stream), "cuStreamSynchronize")
            fault = debug.take(self.kernel.name)
            if fault is not None:
                raise fault

    def download(self) -> None:
        for view in self.views:
            if view.host is not None:
                download(view)


class _Params:
    """Keeps the packed parameter values alive for the launch."""

    def __init__(self):
        self.values = []
        self.pointers = []

    def add(self, value) -> None:
        self.values.append(value)
        self.pointers.append(ctypes.addressof(value))

    def add_address(self, address: int) -> None:
        self.pointers.append(address)

    def array(self):
        self.raw = (ctypes.c_void_p * len(self.pointers))(*self.pointers)
        return ctypes.addressof(self.raw)


def _pack(views, specs, maps, packings=None) -> _Params:
    """Flattened LLVM parameters: each memref as (allocated, aligned, offset,
    sizes..., strides...), sizes and strides in the memref's elements (values,
    for a packed argument's byte array: `packings`, per view, default none),
    then each tensor map by value (128 bytes)."""
    params = _Params()
    for view, packing in zip(views, packings or [(1, 1)] * len(views)):
        params.add(ctypes.c_uint64(view.ptr))
        params.add(ctypes.c_uint64(view.ptr))
        params.add(ctypes.c_int64(0))
        shape, strides = packed_layout(view, packing)
        for size in shape:
            params.add(ctypes.c_int64(size))
        for stride in strides:
            params.add(ctypes.c_int64(stride))
    for spec, tmap in sorted(zip(specs, maps), key=lambda p: p[0].param):
        params.add_address(int(tmap.getPtr()))
    return params


def _launch(function, grid, block, cluster, shared_bytes, stream,
            kernel_params: int) -> None:
    drv = cuda()
    if not cluster:
        check(drv.cuLaunchKernel(function, *grid, *block, shared_bytes, stream,
                                 kernel_params, 0), "cuLaunchKernel")
        return
    cluster = dim3(cluster)
    config = drv.CUlaunchConfig()
    config.gridDimX, config.gridDimY, config.gridDimZ = grid
    config.blockDimX, config.blockDimY, config.blockDimZ = block
    config.sharedMemBytes = shared_bytes
    config.hStream = stream
    attr = drv.CUlaunchAttribute()
    attr.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    attr.value.clusterDim.x, attr.value.clusterDim.y, attr.value.clusterDim.z = cluster
    config.attrs = [attr]
    config.numAttrs = 1
    check(drv.cuLaunchKernelEx(config, function, kernel_params, 0), "cuLaunchKernelEx")


__all__ = ["load", "Module", "Kernel", "BoundLaunch"]
