"""Arguments as device memory: numpy (copied); torch, cupy, numba, jax and
any other CUDA array (__cuda_array_interface__ or __dlpack__) in place."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import contract
from .driver import check, cuda, on_device
from .errors import TileRuntimeError

# MLIR element type (as the manifest spells it) -> numpy storage dtype: the
# contract's element-type table.
ELEMENT_DTYPES = {mlir: np.dtype(info.numpy)
                  for mlir, info in contract.ELEMENT_TYPES.items()}


def accepted_dtypes(element: str) -> set:
    """The numpy dtypes an argument of MLIR element type `element` may have;
    a type without a host dtype is [argument-dtype]."""
    if element not in ELEMENT_DTYPES:
        raise TileRuntimeError("argument-dtype", f"the kernel's element type "
                               f"{element} has no host dtype (known: "
                               f"{', '.join(ELEMENT_DTYPES)})")
    dtypes = {ELEMENT_DTYPES[element]}
    if contract.ELEMENT_TYPES[element].signless:
        # Signless integers accept either signedness of the same width.
        dtypes.add(np.dtype(f"i{ELEMENT_DTYPES[element].itemsize}"))
    return dtypes


def host_packing(element: str) -> tuple[int, int]:
    """(values, bytes) of the innermost axis of a host array holding MLIR
    element type `element`: (2, 1) for packed fp4, (4, 3) for fp6, (1, 1)
    otherwise (the `packing` of Formats.def's rows for the type)."""
    info = contract.ELEMENT_TYPES.get(element)
    if info is None or info.default_format is None:
        return (1, 1)
    return contract.FORMATS[info.default_format].packing


def check_packed(view: "DeviceView", element: str, values: int | None,
                 index: int) -> None:
    """The host array of a packed argument (docs/rules.md, packed-host-array):
    bytes (uint8) whose innermost axis holds the packed values, `values` of
    them where the parameter fixes it (128 float4 values: 64 bytes, 128
    float6 values: 96), in whole packing groups, and outer byte strides of
    whole groups (so the memref's sizes and strides, in values, are exact)."""
    per, nbytes = host_packing(element)
    name = contract.ELEMENT_TYPES[element].name
    where = f"argument {index}"
    if values is not None:
        if values * nbytes % per:
            raise TileRuntimeError("packed-host-array", f"{where}: {values} {name} "
                                   f"values do not fill whole bytes ({per} take "
                                   f"{nbytes})")
        want = values * nbytes // per
        if view.shape[-1] != want:
            raise TileRuntimeError(
                "packed-host-array", f"{where}: the innermost axis holds "
                f"{view.shape[-1]} bytes, expected {want}: {values} {name} values "
                f"packed {per} in {nbytes} byte{'s' if nbytes > 1 else ''}")
    elif view.shape[-1] % nbytes:
        raise TileRuntimeError(
            "packed-host-array", f"{where}: the innermost axis holds "
            f"{view.shape[-1]} bytes, not whole {nbytes}-byte groups of {per} "
            f"{name} values")
    if view.host is None:  # numpy arrays are uploaded contiguous
        for axis, stride in enumerate(view.strides[:-1]):
            if stride % nbytes:
                raise TileRuntimeError(
                    "packed-host-array", f"{where}: byte stride {stride} of axis "
                    f"{axis} is not whole {nbytes}-byte groups of {per} {name} "
                    "values")


def packed_layout(view: "DeviceView", packing: tuple[int, int]) -> tuple[tuple, tuple]:
    """The sizes and strides, in values, that the kernel's memref of an
    argument describes: a packed argument's innermost axis counts bytes on
    the host (checked by check_packed: whole groups)."""
    per, nbytes = packing
    if packing == (1, 1):
        return view.shape, view.strides
    shape = view.shape[:-1] + (view.shape[-1] // nbytes * per,)
    strides = tuple(s // nbytes * per for s in view.strides[:-1]) + view.strides[-1:]
    return shape, strides


@dataclass
class DeviceView:
    """Device address, shape and element strides of one argument."""
    ptr: int
    shape: tuple
    strides: tuple  # in elements
    dtype: np.dtype
    host: np.ndarray | None = None  # numpy argument to copy back
    allocation: object = field(default=None, repr=False)
    device: int = 0
    library: str = "numpy"  # top-level module of the array's type

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize


def storage_dtype(name: str, index: int) -> np.dtype:
    """The numpy storage dtype of an array library's dtype name: the
    contract's host dtype for the names it knows (bfloat16 -> uint16,
    float8_e4m3fn -> uint8, ...), numpy's own otherwise."""
    info = contract.DTYPES.get(name)
    if info is not None:
        return np.dtype(info.numpy)
    try:
        return np.dtype(name)
    except TypeError:
        raise TileRuntimeError("argument-dtype", f"argument {index}: dtype {name} "
                               "has no numpy equivalent") from None


def _dtype(name, index: int) -> np.dtype:
    if isinstance(name, np.dtype) and name.name in contract.DTYPES:
        return storage_dtype(name.name, index)
    try:
        return np.dtype(name)
    except TypeError:
        return storage_dtype(str(name), index)


def _contiguous_strides(shape: tuple) -> tuple:
    return tuple(int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape)))


def _from_interface(obj, index: int) -> DeviceView:
    info = obj.__cuda_array_interface__
    dtype = _dtype(info["typestr"], index)
    shape = tuple(info["shape"])
    if info.get("strides") is None:
        strides = _contiguous_strides(shape)
    else:
        byte_strides = tuple(info["strides"])
        if any(s % dtype.itemsize for s in byte_strides):
            raise TileRuntimeError(
                "global-stride-alignment",
                f"argument {index}: byte strides {byte_strides} are not "
                f"multiples of the element size {dtype.itemsize}")
        strides = tuple(s // dtype.itemsize for s in byte_strides)
    return DeviceView(ptr=int(info["data"][0]), shape=shape, strides=strides,
                      dtype=dtype, library=type(obj).__module__.split(".")[0])


def _torch_view(obj, index: int) -> DeviceView:
    if not obj.is_cuda:
        raise TileRuntimeError("device-array", f"argument {index}: a CPU torch "
                               "tensor; pass a CUDA tensor or a numpy array")
    return DeviceView(ptr=int(obj.data_ptr()), shape=tuple(obj.shape),
                      strides=tuple(obj.stride()),
                      dtype=storage_dtype(str(obj.dtype).replace("torch.", ""), index),
                      device=obj.device.index or 0, library="torch")


def _strided_memory_view():
    """cuda.core's StridedMemoryView (DLPack and CUDA array interface reader)."""
    try:
        from cuda.core.utils import StridedMemoryView
    except ImportError:
        try:
            from cuda.core.experimental.utils import StridedMemoryView
        except ImportError:
            return None
    return StridedMemoryView


def _dlpack_view(obj, index: int, stream: int) -> DeviceView:
    """An array known only through __dlpack__ (jax, ...), read by cuda.core;
    the producer makes it ready on `stream` (the DLPack stream contract)."""
    view_type = _strided_memory_view()
    if view_type is None:
        raise TileRuntimeError("device-array", f"argument {index}: a "
                               f"{type(obj).__name__} exports only __dlpack__, which "
                               "the runtime reads through cuda-core (pip install "
                               "'tile-mlir[gpu]' or pip install cuda-core)")
    try:
        # DLPack names the legacy default stream 1 (0 is ambiguous there).
        view = view_type(obj, stream_ptr=stream or 1)
        dtype = view.dtype
    except (BufferError, TypeError, ValueError) as err:
        raise TileRuntimeError("device-array", f"argument {index}: its DLPack "
                               f"export cannot be read ({err})") from None
    if not view.is_device_accessible or view.device_id < 0:
        raise TileRuntimeError("device-array", f"argument {index}: a host "
                               f"{type(obj).__name__}; pass a CUDA array or a numpy array")
    shape = tuple(view.shape)
    strides = tuple(view.strides) if view.strides is not None else _contiguous_strides(shape)
    return DeviceView(ptr=int(view.ptr), shape=shape, strides=strides,
                      dtype=_dtype(dtype, index), device=int(view.device_id),
                      library=type(obj).__module__.split(".")[0])


def device_view(obj, index: int, stream: int = 0) -> DeviceView:
    """Describes `obj` without copying (numpy arrays are described as host):
    a torch CUDA tensor, an object with __cuda_array_interface__ (cupy,
    numba) or one with __dlpack__ (jax and the rest)."""
    if isinstance(obj, np.ndarray):
        return DeviceView(ptr=0, shape=obj.shape,
                          strides=tuple(s // obj.itemsize for s in obj.strides),
                          dtype=obj.dtype, host=obj)
    if type(obj).__module__.startswith("torch"):
        return _torch_view(obj, index)
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_interface(obj, index)
    if hasattr(obj, "__dlpack__"):
        return _dlpack_view(obj, index, stream)
    raise TileRuntimeError("device-array", f"argument {index}: expected a numpy "
                           "array or a CUDA array (torch, cupy, jax, numba: "
                           "__cuda_array_interface__ or __dlpack__), got "
                           f"{type(obj).__name__}")


def device_of(view: DeviceView) -> int:
    """The CUDA device an array's memory lives on, as the driver says,
    whatever library made it (an empty array's null pointer: the device its
    library names)."""
    if view.ptr == 0:
        return view.device
    drv = cuda()
    attr = drv.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
    try:
        return int(check(drv.cuPointerGetAttribute(attr, view.ptr),
                         "cuPointerGetAttribute"))
    except Exception:
        return view.device  # memory the driver does not track (rare)


def check_device(view: DeviceView, index: int, device: int = 0) -> None:
    """[argument-device]: the array lives on `device`, the module's."""
    if view.host is not None or view.ptr == 0:
        return
    ordinal = device_of(view)
    if ordinal != device:
        raise TileRuntimeError("argument-device", f"argument {index} lives on CUDA "
                               f"device {ordinal}; the module is loaded on device "
                               f"{device} (load it with device={ordinal})")


class DeviceBuffer:
    """A cuMemAlloc'd buffer on `device`, freed with the object."""

    def __init__(self, nbytes: int, device: int = 0):
        self.nbytes = nbytes
        self.device = device
        with on_device(device):
            self.ptr = int(check(cuda().cuMemAlloc(max(nbytes, 1)), "cuMemAlloc"))

    def __del__(self):
        try:
            with on_device(self.device):
                cuda().cuMemFree(self.ptr)
        except Exception:
            pass


def upload(view: DeviceView, device: int = 0) -> DeviceView:
    """Copies a host (numpy) view into a fresh contiguous buffer on `device`."""
    host = np.ascontiguousarray(view.host)
    buffer = DeviceBuffer(host.nbytes, device)
    with on_device(device):
        check(cuda().cuMemcpyHtoD(buffer.ptr, host.ctypes.data, host.nbytes),
              "cuMemcpyHtoD")
    strides = tuple(s // host.itemsize for s in host.strides)
    return DeviceView(ptr=buffer.ptr, shape=host.shape, strides=strides,
                      dtype=host.dtype, host=view.host, allocation=buffer)


def download(view: DeviceView) -> None:
    """Copies a device copy back into its numpy argument."""
    out = np.empty(view.shape, dtype=view.dtype)
    check(cuda().cuMemcpyDtoH(out.ctypes.data, view.ptr, out.nbytes), "cuMemcpyDtoH")
    np.copyto(view.host, out)
