"""Tensor maps from the compiler's spec and an argument's runtime layout.

The spec (#tile.tensor_map_spec, a manifest entry read as a TensorMapSpec)
holds every descriptor field and host decision; this module adds what only
run time knows (base address, sizes, strides), checks the runtime rules
first, and caches each encoded map by (spec, pointer, shape, strides).
"""

from __future__ import annotations

from ..contract import GLOBAL_STRIDE_BYTES_BOUND, MAX_GLOBAL_DIM
from ..spec import TensorMapSpec
from .arrays import DeviceView
from .driver import check, cuda
from .errors import CudaError, TileRuntimeError


def descriptor_layout(spec: TensorMapSpec, view: DeviceView) -> tuple[list[int], list[int]]:
    """globalDim (elements) and globalStrides (bytes), innermost-first."""
    rank = spec.rank
    shape = list(view.shape)
    strides = [s * view.itemsize for s in view.strides]
    values, nbytes = spec.packing
    if (values, nbytes) != (1, 1):  # packed values: the array's last axis is bytes
        shape[-1] = shape[-1] * values // nbytes
    if spec.interleave:
        # Axes (N, C_slices, *spatial, Ci): Ci is the implicit slice and the
        # innermost spatial axis steps by one slice.
        dims = shape[:rank]
        outer_strides = strides[:rank - 1]
    else:
        dims = shape
        outer_strides = strides[:-1]
    return dims[::-1], outer_strides[::-1]


def check_source(spec: TensorMapSpec, view: DeviceView, index: int) -> None:
    """The runtime rules (docs/rules.md) for one tensor-map source."""
    where = f"argument {index}"
    if len(view.shape) != spec.global_rank:
        raise TileRuntimeError("global-rank", f"{where} has rank {len(view.shape)}, "
                               f"the kernel expects {spec.global_rank}")
    if view.strides and view.strides[-1] != 1:
        raise TileRuntimeError("global-inner-stride", f"{where}: the innermost stride "
                               f"is {view.strides[-1]} elements, expected 1 "
                               "(make the array contiguous in its last axis)")
    values, nbytes = spec.packing
    if (values, nbytes) != (1, 1) and (view.itemsize != 1 or view.shape[-1] % nbytes):
        raise TileRuntimeError("packed-host-array", f"{where}: a {spec.format} map "
                               f"reads a byte array ({values} values in {nbytes} "
                               f"byte{'s' if nbytes > 1 else ''}), got "
                               f"{view.shape[-1]} {view.dtype} on the innermost axis")
    align = spec.base_alignment
    if view.host is None and view.ptr % align:
        raise TileRuntimeError("global-base-alignment", f"{where}: base address "
                               f"{view.ptr:#x} is not {align}-byte aligned")
    dims, strides = descriptor_layout(spec, view)
    for i, dim in enumerate(dims):
        if not 1 <= dim <= MAX_GLOBAL_DIM:
            raise TileRuntimeError("global-dim-range", f"{where}: dimension {dim} "
                                   f"(innermost-first index {i}) is outside 1..2^32")
    stride_align = spec.stride_alignment
    for i, stride in enumerate(strides):
        if stride % stride_align:
            raise TileRuntimeError("global-stride-alignment", f"{where}: byte stride "
                                   f"{stride} (innermost-first index {i + 1}) is not a "
                                   f"multiple of {stride_align}; pad the rows")
        if stride >= GLOBAL_STRIDE_BYTES_BOUND:
            raise TileRuntimeError("global-stride-range", f"{where}: byte stride "
                                   f"{stride} is not below 2^40")
    # An im2col box is (channels, pixels): only the channels bound a dim.
    boxes = spec.box[:1] if spec.im2col else spec.box
    for i, (box, dim) in enumerate(zip(boxes, dims)):
        if box > dim:
            raise TileRuntimeError("box-within-dim", f"{where}: box extent {box} "
                                   f"is larger than dimension {dim} (innermost-first "
                                   f"index {i})")
    multiple = spec.inner_multiple
    if dims[0] % multiple:
        raise TileRuntimeError("packed-inner-dim", f"{where}: inner dimension {dims[0]} "
                               f"is not a multiple of {multiple}")


def encode_arguments(spec: TensorMapSpec, view: DeviceView) -> list[tuple[str, object]]:
    """(parameter, value) of the spec's cuTensorMapEncode* call after the map
    itself, in the driver's order and by its parameter names, as plain ints
    and lists of ints."""
    dims, strides = descriptor_layout(spec, view)
    args = [("tensorDataType", spec.data_type), ("tensorRank", spec.rank),
            ("globalAddress", view.ptr), ("globalDim", dims),
            # Rank 1 has no strides; the driver still wants a non-null array.
            ("globalStrides", strides or [dims[0] * view.itemsize])]
    if spec.encode == "tiled":
        args.append(("boxDim", list(spec.box)))
    elif spec.encode == "im2col":
        args += [("pixelBoxLowerCorner", list(spec.pixel_box_lower)),
                 ("pixelBoxUpperCorner", list(spec.pixel_box_upper)),
                 ("channelsPerPixel", spec.channels_per_pixel),
                 ("pixelsPerColumn", spec.pixels_per_column)]
    else:
        args += [("pixelBoxLowerCornerWidth", spec.pixel_box_lower[0]),
                 ("pixelBoxUpperCornerWidth", spec.pixel_box_upper[0]),
                 ("channelsPerPixel", spec.channels_per_pixel),
                 ("pixelsPerColumn", spec.pixels_per_column)]
    args += [("elementStrides", list(spec.element_strides)),
             ("interleave", spec.interleave)]
    if spec.encode == "im2col_wide":
        args.append(("mode", spec.wide_mode))
    args += [("swizzle", spec.swizzle), ("l2Promotion", spec.l2_promotion),
             ("oobFill", spec.oob_fill)]
    return args


# The cuda-python types of the parameters that take one, and of the arrays'
# elements; the other parameters are passed as Python ints and lists.
_SCALAR_TYPES = {
    "tensorDataType": "CUtensorMapDataType", "interleave": "CUtensorMapInterleave",
    "mode": "CUtensorMapIm2ColWideMode", "swizzle": "CUtensorMapSwizzle",
    "l2Promotion": "CUtensorMapL2promotion", "oobFill": "CUtensorMapFloatOOBfill",
}
_ARRAY_TYPES = {"globalDim": "cuuint64_t", "globalStrides": "cuuint64_t",
                "boxDim": "cuuint32_t", "elementStrides": "cuuint32_t"}


def _driver_value(drv, parameter: str, value):
    if parameter in _SCALAR_TYPES:
        return getattr(drv, _SCALAR_TYPES[parameter])(value)
    if parameter in _ARRAY_TYPES:
        return [getattr(drv, _ARRAY_TYPES[parameter])(v) for v in value]
    return value


def encode(spec: TensorMapSpec, view: DeviceView):
    """cuTensorMapEncodeTiled / Im2col / Im2colWide (by the spec's `encode`)
    for `spec` over `view` (already checked). A map the driver rejects is a
    [tensor-map-encode] error naming the call, its status and its arguments."""
    drv = cuda()
    arguments = encode_arguments(spec, view)
    name = spec.encode_function
    try:
        return check(getattr(drv, name)(*(_driver_value(drv, p, v)
                                          for p, v in arguments)), name)
    except CudaError as err:
        status = getattr(err.status, "name", str(err.status))
        listed = ", ".join(f"{p}={v:#x}" if p == "globalAddress" else f"{p}={v}"
                           for p, v in arguments)
        raise TileRuntimeError(
            "tensor-map-encode", f"argument {spec.source}: {name} returned "
            f"{status} ({int(err.status)}) for {listed}") from None


class TensorMapCache:
    """Encoded maps keyed by spec and layout: encode once, launch many."""

    def __init__(self):
        self._maps = {}

    def get(self, spec: TensorMapSpec, view: DeviceView):
        key = (id(spec), view.ptr, view.shape, view.strides)
        tmap = self._maps.get(key)
        if tmap is None:
            tmap = self._maps[key] = encode(spec, view)
        return tmap
