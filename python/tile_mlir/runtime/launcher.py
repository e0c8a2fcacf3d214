"""Module loading, argument checks, parameter packing and launch."""

from __future__ import annotations

import ctypes
import math
import threading
from pathlib import Path

import numpy as np

from ..artifact_data import ArtifactData
from ..contract import DEFAULT_SHARED_BYTES_PER_BLOCK
from ..launch_shape import dim3
from .arg_keys import args_key
from .arrays import check_device, device_view, download, host_packing, packed_layout, upload
from .debug import ErrorBuffer
from .driver import check, cuda, device_index, on_device, primary_context, relaunch_on
from .errors import CudaError, TileRuntimeError
from .launch import Launcher, native_dispatch
from .manifest import check_manifest, read_artifact
from .scalars import SCALAR_CTYPES, is_number
from .signature import Signature, scalar_dtype
from .streams import current_stream, stream_getter, stream_handle
from .tensormap import TensorMapCache, check_source


def load(artifact: ArtifactData | str | Path, debug_timeout: float | None = None,
         device: int | None = None) -> "Module":
    """Loads an artifact onto CUDA device `device` (default: the calling
    thread's current device, torch's where torch has set one, else 0). A
    debug artifact's waits time out after `debug_timeout` seconds (default:
    $TILE_DEBUG_TIMEOUT_MS, else the kernel's own 1 s).

    Everything that needs no device is checked before the driver is asked
    for: the path ([artifact-path]), the manifest ([artifact-manifest]),
    the cubin ([artifact-cubin]), each kernel's parameters and launch shape,
    and the form of `device` ([device-index]); so a broken artifact is
    named on a machine without a GPU too."""
    if not isinstance(artifact, ArtifactData):   # a folder (Artifact is an ArtifactData)
        artifact = read_artifact(artifact)
    return Module(artifact, debug_timeout, device)


def preflight(artifact: ArtifactData) -> dict:
    """The driver-free checks of loading `artifact`: its manifest, its cubin
    and each kernel's Signature (by name), which a call's arguments can be
    checked against before the module is loaded."""
    if artifact.cubin is None:
        raise TileRuntimeError("artifact-cubin", "the artifact has no cubin "
                               "(compile it with cubin=True, where ptxas is)")
    check_manifest(artifact.manifest)
    return {info["name"]: Signature(info) for info in artifact.kernels}


def _check_timeout(seconds) -> None:
    """[debug-timeout]: None or a positive, finite number of seconds."""
    if seconds is None:
        return
    if not is_number(seconds) or isinstance(seconds, (bool, np.bool_, complex)) or \
            not math.isfinite(seconds) or seconds <= 0:
        raise TileRuntimeError("debug-timeout", f"debug_timeout={seconds!r}: expected "
                               "None (the default) or a positive, finite number of "
                               "seconds")


class Module:
    """A loaded cubin; call it like its single kernel, or index by name.

    It lives on one device (`device`): its arrays must be there, and its
    launches go on that device, with its primary context current for the
    call only (the thread's own current context is left as it was).

    A debug artifact (`compile(..., debug=True)`, a manifest with a `debug`
    entry) has an error buffer: every launch then synchronizes its stream,
    and a fault the kernel recorded is raised as a DeviceFault
    (a TileRuntimeError naming the rule; docs/debug-mode.md)."""

    _single = None  # the kernel of a one-kernel module

    def __init__(self, artifact: ArtifactData, debug_timeout: float | None = None,
                 device: int | None = None):
        preflight(artifact)   # before the driver: see load()
        _check_timeout(debug_timeout)
        self.device = device_index(device)
        self.context = primary_context(self.device)
        self.artifact = artifact
        with on_device(self.device):
            self.handle = check(cuda().cuModuleLoadData(artifact.cubin), "cuModuleLoadData")
            self.debug = None
            if "debug" in artifact.manifest:
                self.debug = ErrorBuffer(self.handle, artifact.manifest["debug"],
                                         ordinal=self.device)
                if debug_timeout is not None:
                    self.debug.set_timeout(debug_timeout)
            self.kernels = {info["name"]: Kernel(self, info) for info in artifact.kernels}
        self._single = next(iter(self.kernels.values())) if len(self.kernels) == 1 else None

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
        kernel = self._single or self._only()  # raises [kernel-name]
        if not kwargs and kernel._dispatch is not None:  # Kernel.__call__'s C path
            status = kernel._dispatch(args)
            if status > 0:  # another context (or none) current here: switch for it
                status = relaunch_on(self.device, status, lambda: kernel._dispatch(args))
            if status >= 0:
                if status:
                    raise CudaError("cuLaunchKernel", status)
                return None
        return kernel(*args, **kwargs)

    def bind(self, *args, **kwargs) -> "BoundLaunch":
        """`Kernel.bind` of the module's only kernel."""
        return self._only().bind(*args, **kwargs)


class Kernel(Signature):
    """One kernel of a loaded module.

    Calling it checks the arguments against the manifest, encodes their
    tensor maps and launches. Device-array arguments are checked once per
    distinct (address, shape, strides, dtype, device) combination: the
    validated launch, maps encoded, is kept (the newest CACHE_SIZE of them),
    and a call whose arguments have the same keys only checks and packs its
    scalars and launches (runtime/arg_keys.py says what a key holds)."""

    CACHE_SIZE = 64

    def __init__(self, module: Module, info: dict):
        super().__init__(info)
        self.module = module
        self.function = check(cuda().cuModuleGetFunction(module.handle, self.name.encode()),
                              "cuModuleGetFunction")
        self.maps = TensorMapCache()
        self.dynamic_shared = int(info.get("dynamic_shared_bytes", 0))
        self._launches: dict = {}
        # The cached call in C where the extension loaded (runtime/launch.py).
        self._dispatch = native_dispatch(self._launches, _NUMBER)
        check_shared_bytes(info, _shared_limit(module.device))
        if self.dynamic_shared > DEFAULT_SHARED_BYTES_PER_BLOCK:
            attr = cuda().CUfunction_attribute
            check(cuda().cuFuncSetAttribute(
                self.function, attr.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                self.dynamic_shared), "cuFuncSetAttribute")

    # -- launch ------------------------------------------------------------
    def _prepare(self, args, grid, block, cluster, stream: int = 0) -> "BoundLaunch":
        """Checks and encodes; `stream` is the launch's, which a DLPack
        producer makes its array ready on."""
        with on_device(self.module.device):  # encoding and uploads need its context
            return self._prepare_here(args, grid, block, cluster, stream)

    def _prepare_here(self, args, grid, block, cluster, stream: int) -> "BoundLaunch":
        params = self.info["params"]
        if len(args) != len(params):
            raise TileRuntimeError("argument-count", f"{self.name} takes {len(params)} "
                                   f"arguments, got {len(args)}")
        grid, block, cluster = self.launch_shape(grid, block, cluster)  # the limits
        views = [None if p["kind"] == "scalar" or is_number(a)
                 else device_view(a, i, stream) for i, (a, p) in enumerate(zip(args, params))]
        self._check_args(views, args)  # nothing is uploaded or launched before this
        for i, view in enumerate(views):
            if view is not None:
                check_device(view, i, self.module.device)
        views = [upload(v, self.module.device) if v is not None and v.host is not None
                 else v for v in views]
        for spec in self.specs:  # device addresses now known
            check_source(spec, views[spec.source], spec.source)
        maps = [self.maps.get(spec, views[spec.source]) for spec in self.specs]
        return BoundLaunch(self, views, _pack(self.info["params"], views, self.specs, maps),
                           grid, block, cluster)

    def _cached(self, args, key, grid, block, cluster, stream: int) -> "BoundLaunch":
        """The validated launch for arguments with these keys (made on a miss)."""
        full = (key, _hashable(grid), _hashable(block), _hashable(cluster))
        launch = self._launches.get(full)
        if launch is None:
            launch = self._prepare(args, grid, block, cluster, stream)
            if len(self._launches) >= self.CACHE_SIZE:
                del self._launches[next(iter(self._launches))]  # the oldest
            self._launches[full] = launch
        return launch

    def __call__(self, *args, grid=None, block=None, cluster=None, stream=None,
                 sync: bool | None = None):
        """Launches on `stream` (docs/runtime.md): by default the current
        stream of the arguments' array library (torch, then cupy), else 0.

        The call returns once the launch is queued. It synchronizes the
        stream only when `sync=True`, when an argument is a numpy array
        (copied to the device and back), and for a debug artifact, which
        then raises the fault its kernel recorded (after copying numpy
        arguments back, so what the kernel wrote can be inspected)."""
        if (self._dispatch is not None and stream is None and grid is None and
                block is None and cluster is None and not sync):
            status = self._dispatch(args)  # the cached call in C; -1: not handled
            if status > 0:  # another context (or none) current here: switch for it
                status = relaunch_on(self.module.device, status,
                                     lambda: self._dispatch(args))
            if status >= 0:
                if status:
                    raise CudaError("cuLaunchKernel", status)
                return
        handle = None if stream is None else stream_handle(stream)
        try:  # torch tensors and plain numbers, keyed inline (the common call)
            key = tuple([_NUMBER if type(a) in _PLAIN_NUMBERS else
                         (type(a), a.data_ptr(), a.shape, a.stride(), a.dtype)
                         for a in args])
        except (AttributeError, TypeError):
            key = args_key(args)
        if key is not None:  # no DLPack-only array: the stream is not needed yet
            launch = self._launches.get((key, grid, block, cluster) if grid is None and
                                        block is None and cluster is None else
                                        (key, _hashable(grid), _hashable(block),
                                         _hashable(cluster)))
            if launch is None:
                launch = self._cached(args, key, grid, block, cluster, handle or 0)
            if handle is None:
                handle = launch.current_stream()
        else:
            if handle is None:
                handle = current_stream(frozenset(type(a).__module__.split(".")[0]
                                                  for a in args), self.module.device)
            launch = self._prepare(args, grid, block, cluster, handle)
        launch.launch(handle, args)
        if sync or launch.must_sync:
            self._finish(launch, handle)

    def _finish(self, launch: "BoundLaunch", handle: int) -> None:
        """Synchronizes, copies numpy arguments back, raises a recorded fault."""
        with on_device(self.module.device):
            check(cuda().cuStreamSynchronize(handle), "cuStreamSynchronize")
            fault = self.module.debug.take(self.name) if self.module.debug else None
            launch.download()
        if fault is not None:
            raise fault

    def bind(self, *device_args, grid=None, block=None, cluster=None) -> "BoundLaunch":
        """Checks the (device) arguments and encodes their tensor maps once;
        the returned callable only launches (for repeated launches), with
        the scalar arguments' values given here."""
        launch = self._prepare(device_args, grid, block, cluster)
        if launch.has_host_arrays:
            raise TileRuntimeError("device-array", "bind() takes device arrays "
                                   "(torch, cupy, jax, numba); numpy arrays are "
                                   "copied per call")
        launch.set_scalars(device_args)
        return launch


# The inline key: a plain int or float is a scalar (a bool is not: the full
# path rejects it), anything with torch's accessors is keyed by its type,
# address, shape, strides and dtype; anything else takes arg_keys.args_key.
_PLAIN_NUMBERS = frozenset({int, float})
_NUMBER = "scalar"


def _hashable(value):
    """A grid/block/cluster override as a key part (a list: its tuple); one
    that cannot be a key is no launch shape ([launch-shape])."""
    if isinstance(value, list):
        value = tuple(value)
    try:
        hash(value)
    except TypeError:
        return dim3(value)   # raises, unless an unhashable iterable of ints
    return value


def _shared_limit(device: int = 0) -> int:
    """Shared memory one block may opt into on `device`."""
    drv = cuda()
    device = check(drv.cuDeviceGet(device), "cuDeviceGet")
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
    """A launch with checked arguments, encoded maps and packed parameters;
    calling it launches on `stream` (default: the current stream of the
    arrays' library, else 0)."""

    def __init__(self, kernel: Kernel, views, params: "_Params", grid, block, cluster):
        self.kernel = kernel
        self.views = views
        self.params = params
        self.kernel_params = params.array()
        self.grid, self.block, self.cluster = grid, block, cluster
        self.has_host_arrays = any(v is not None and v.host is not None for v in views)
        self.libraries = frozenset(v.library for v in views if v is not None)
        self.device = kernel.module.device
        self.current_stream = stream_getter(self.libraries, self.device)
        self.launcher = Launcher(kernel.function, grid, block,
                                 dim3(cluster) if cluster else None, kernel.dynamic_shared,
                                 kernel.module.context)
        self._scalars = [(i, kernel.scalars[i], slot)
                         for i, slot in params.scalar_slots.items()]
        self.debug = kernel.module.debug
        self.must_sync = self.has_host_arrays or bool(self.debug)
        # cuLaunchKernel with all but the stream bound, where a launch needs
        # no cluster config; it packs plain scalars itself (launch_with).
        self.direct = None if cluster else self.launcher.bound_call(
            self.kernel_params, params, self.current_stream,
            [(i, ctypes.addressof(slot), *checker.packing())
             for i, checker, slot in self._scalars], not self.must_sync)
        # A cluster launch packs its scalars in Python, then launches.
        self._lock = threading.Lock() if cluster and self._scalars else None

    def set_scalars(self, args) -> None:
        """Checks and packs the scalar arguments among `args`."""
        for index, checker, slot in self._scalars:
            checker.store(slot, args[index])

    def launch(self, stream: int, args=None) -> None:
        """Launches on the stream handle, with the scalars of `args` (checked)
        or, without `args`, the ones packed last."""
        if self.direct is None:  # a cluster launch (cuda-python): under its context
            with on_device(self.device):
                if args is None or self._lock is None:
                    self.launcher(stream, self.kernel_params)
                    return
                with self._lock:  # the driver copies the parameters during the call
                    self.set_scalars(args)
                    self.launcher(stream, self.kernel_params)
            return
        status = self._direct(stream, args)
        if status > 0:  # another context (or none) current here: switch for it
            status = relaunch_on(self.device, status, lambda: self._direct(stream, args))
        if status:
            raise CudaError("cuLaunchKernel", status)

    def _direct(self, stream: int, args) -> int:
        if args is None or not self._scalars:
            return self.direct(stream)
        status = self.direct.launch_with(stream, args)
        if status < 0:  # a value to convert (numpy) or reject, by rule
            status = self.direct.launch_with(stream, self._checked(args))
            assert status >= 0, "checked scalars must pack"
        return status

    def _checked(self, args) -> list:
        """`args` with each scalar checked and converted to the plain int or
        float its slot takes ([scalar-type], [scalar-range] otherwise)."""
        args = list(args)
        for index, checker, _ in self._scalars:
            args[index] = checker.value(args[index]).value
        return args

    def __call__(self, stream=None) -> None:
        """Launches on `stream`; a debug artifact synchronizes it and raises
        the fault its kernel recorded."""
        handle = self.current_stream() if stream is None else stream_handle(stream)
        if self.direct is None:
            self.launch(handle)
        else:
            status = self.direct(handle)
            if status > 0:  # another context (or none) current here: switch for it
                status = relaunch_on(self.device, status, lambda: self.direct(handle))
            if status:
                raise CudaError("cuLaunchKernel", status)
        if self.debug:
            self.kernel._finish(self, handle)

    def download(self) -> None:
        for view in self.views:
            if view is not None and view.host is not None:
                download(view)


class _Params:
    """Keeps the packed parameter values alive for the launch, and says
    where each array's addresses went (runtime/relocate.py rewrites them)."""

    def __init__(self):
        self.values = []
        self.pointers = []
        self.sizes = []          # bytes of each parameter
        self.scalar_slots = {}   # argument index -> its ctypes value
        self.pointer_slots = {}  # argument index -> parameter numbers of its addresses
        self.map_slots = {}      # argument index -> parameter numbers of its tensor maps

    def add(self, value) -> None:
        self.values.append(value)
        self.pointers.append(ctypes.addressof(value))
        self.sizes.append(ctypes.sizeof(value))

    def add_address(self, address: int, size: int) -> None:
        self.pointers.append(address)
        self.sizes.append(size)

    def array(self):
        self.raw = (ctypes.c_void_p * len(self.pointers))(*self.pointers)
        return ctypes.addressof(self.raw)


# A CUtensorMap: 128 bytes, passed by value.
TENSOR_MAP_BYTES = 128


def _pack(params_info, views, specs, maps) -> _Params:
    """Flattened LLVM parameters, in parameter order: each memref as
    (allocated, aligned, offset, sizes..., strides...), sizes and strides in
    the memref's elements (values, for a packed argument's byte array), each
    scalar as its C value (a slot that launches refill), then each tensor
    map by value (128 bytes)."""
    params = _Params()
    for index, (info, view) in enumerate(zip(params_info, views)):
        if info["kind"] == "scalar":
            slot = SCALAR_CTYPES[scalar_dtype(info)]()
            params.scalar_slots[index] = slot
            params.add(slot)
            continue
        params.pointer_slots[index] = (len(params.pointers), len(params.pointers) + 1)
        params.add(ctypes.c_uint64(view.ptr))
        params.add(ctypes.c_uint64(view.ptr))
        params.add(ctypes.c_int64(0))
        shape, strides = packed_layout(view, host_packing(info.get("element", "")))
        for size in shape:
            params.add(ctypes.c_int64(size))
        for stride in strides:
            params.add(ctypes.c_int64(stride))
    for spec, tmap in sorted(zip(specs, maps), key=lambda p: p[0].param):
        params.map_slots.setdefault(spec.source, []).append(len(params.pointers))
        params.add_address(int(tmap.getPtr()), TENSOR_MAP_BYTES)
    return params


__all__ = ["load", "Module", "Kernel", "BoundLaunch"]
