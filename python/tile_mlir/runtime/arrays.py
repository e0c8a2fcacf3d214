"""Arguments as device memory: numpy (copied), cupy/torch (in place)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import contract
from .driver import check, context, cuda
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

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize


def _dtype(name, index: int) -> np.dtype:
    try:
        return np.dtype(name)
    except TypeError:
        raise TileRuntimeError("argument-dtype", f"argument {index}: dtype {name} "
                               "has no numpy equivalent") from None


def _from_interface(obj, index: int) -> DeviceView:
    info = obj.__cuda_array_interface__
    dtype = _dtype(info["typestr"], index)
    shape = tuple(info["shape"])
    if info.get("strides") is None:
        strides = tuple(int(np.prod(shape[i + 1:], dtype=np.int64))
                        for i in range(len(shape)))
    else:
        byte_strides = tuple(info["strides"])
        if any(s % dtype.itemsize for s in byte_strides):
            raise TileRuntimeError(
                "global-stride-alignment",
                f"argument {index}: byte strides {byte_strides} are not "
                f"multiples of the element size {dtype.itemsize}")
        strides = tuple(s // dtype.itemsize for s in byte_strides)
    return DeviceView(ptr=int(info["data"][0]), shape=shape, strides=strides,
                      dtype=dtype)


def _torch_view(obj, index: int) -> DeviceView:
    if not obj.is_cuda:
        raise TileRuntimeError("device-array", f"argument {index}: a CPU torch "
                               "tensor; pass a CUDA tensor or a numpy array")
    dtype = {"torch.bfloat16": np.dtype(np.uint16)}.get(str(obj.dtype))
    if dtype is None:
        dtype = _dtype(str(obj.dtype).replace("torch.", ""), index)
    return DeviceView(ptr=int(obj.data_ptr()), shape=tuple(obj.shape),
                      strides=tuple(obj.stride()), dtype=dtype)


def device_view(obj, index: int) -> DeviceView:
    """Describes `obj` without copying (numpy arrays are described as host)."""
    if isinstance(obj, np.ndarray):
        return DeviceView(ptr=0, shape=obj.shape,
                          strides=tuple(s // obj.itemsize for s in obj.strides),
                          dtype=obj.dtype, host=obj)
    if type(obj).__module__.startswith("torch"):
        return _torch_view(obj, index)
    if hasattr(obj, "__cuda_array_interface__"):
        return _from_interface(obj, index)
    raise TileRuntimeError("device-array", f"argument {index}: expected a numpy "
                           f"array or a CUDA array (cupy, torch), got {type(obj).__name__}")


class DeviceBuffer:
    """A cuMemAlloc'd buffer, freed with the object."""

    def __init__(self, nbytes: int):
        context()
        self.nbytes = nbytes
        self.ptr = int(check(cuda().cuMemAlloc(max(nbytes, 1)), "cuMemAlloc"))

    def __del__(self):
        try:
            cuda().cuMemFree(self.ptr)
        except Exception:
            pass


def upload(view: DeviceView) -> DeviceView:
    """Copies a host (numpy) view into a fresh contiguous device buffer."""
    host = np.ascontiguousarray(view.host)
    buffer = DeviceBuffer(host.nbytes)
    check(cuda().cuMemcpyHtoD(buffer.ptr, host.ctypes.data, host.nbytes), "cuMemcpyHtoD")
    strides = tuple(s // host.itemsize for s in host.strides)
    return DeviceView(ptr=buffer.ptr, shape=host.shape, strides=strides,
                      dtype=host.dtype, host=view.host, allocation=buffer)


def download(view: DeviceView) -> None:
    """Copies a device copy back into its numpy argument."""
    out = np.empty(view.shape, dtype=view.dtype)
    check(cuda().cuMemcpyDtoH(out.ctypes.data, view.ptr, out.nbytes), "cuMemcpyDtoH")
    np.copyto(view.host, out)
