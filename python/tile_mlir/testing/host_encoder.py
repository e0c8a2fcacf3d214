"""The MLIR host lowering run on the CPU: `HostEncoder` JIT-compiles a
host function holding one `tile.tensor_map` (the `tile-host-to-llvm`
pipeline, MLIR's ExecutionEngine) and records the arguments it passes
cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col, which a stand-in receives
instead of the driver. Needs MLIR (not for the GPU machine)."""

from __future__ import annotations

import ctypes
import json

import mlir.ir as ir
import numpy as np
from mlir.execution_engine import ExecutionEngine
from mlir.passmanager import PassManager
from mlir.runtime import get_ranked_memref_descriptor

from .. import _native
from ..builder import make_context
from ..spec import TensorMapSpec

# passes/lib/Pipelines/Pipeline.cpp: tile-lower-tma-host and the host lowering to LLVM.
HOST_PIPELINE = "builtin.module(tile-host-to-llvm)"


ENCODE = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64),
    ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32),
    ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int)
# cuTensorMapEncodeIm2col(map, dataType, rank, address, globalDim,
#   globalStrides, pixelBoxLowerCorner, pixelBoxUpperCorner, channelsPerPixel,
#   pixelsPerColumn, elementStrides, interleave, swizzle, l2Promotion, oobFill)
ENCODE_IM2COL = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64),
    ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_int32),
    ctypes.c_uint32, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint32),
    ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int)
# The stand-in's prototype and recorder for each spec `encode`.
STAND_INS = {"tiled": (ENCODE, "_record"),
             "im2col": (ENCODE_IM2COL, "_record_im2col")}


class HostEncoder:
    """`@encode(%A)` holding one tile.tensor_map over %A, lowered and JITed;
    each call records the arguments it passed cuTensorMapEncodeTiled (or,
    for an im2col spec, cuTensorMapEncodeIm2col). `spec` is a manifest entry
    or its TensorMapSpec."""

    def __init__(self, spec: TensorMapSpec | dict, memref_type: str, status: int = 0):
        if not isinstance(spec, TensorMapSpec):
            spec = TensorMapSpec.from_json(spec)
        self.spec = spec
        self.calls = []
        self.status = status
        self.context = make_context()
        # The manifest entry back as the attribute (the C++ reader of the
        # serializer's JSON, verified).
        attr = _native.tensor_map_spec_attr(self.context, json.dumps(spec.to_json()))
        text = f"""
        func.func @encode(%A: {memref_type}) attributes {{llvm.emit_c_interface}} {{
          %map = tile.tensor_map %A {{spec = {attr}}} : {memref_type} -> !llvm.ptr
          return
        }}"""
        with self.context:
            module = ir.Module.parse(text)
            PassManager.parse(HOST_PIPELINE).run(module.operation)
            self.lowered = str(module)
            self.engine = ExecutionEngine(module, opt_level=2)
        # Bound before the first lookup, which materializes the code.
        self.function = spec.encode_function
        prototype, method = STAND_INS[spec.encode]
        self._callback = prototype(getattr(self, method))
        self.engine.raw_register_runtime(
            self.function, ctypes.cast(self._callback, ctypes.c_void_p))

    def _record(self, tmap, data_type, rank, address, dims, strides, box, es,
                interleave, swizzle, l2_promotion, oob_fill):
        self.calls.append({
            "map": tmap, "data_type": data_type, "rank": rank, "address": address,
            "dims": dims[:rank], "strides": strides[:max(rank - 1, 1)],
            "box": box[:rank], "element_strides": es[:rank],
            "interleave": interleave, "swizzle": swizzle,
            "l2_promotion": l2_promotion, "oob_fill": oob_fill,
        })
        return self.status

    def _record_im2col(self, tmap, data_type, rank, address, dims, strides, lower,
                       upper, channels, pixels, es, interleave, swizzle,
                       l2_promotion, oob_fill):
        self.calls.append({
            "map": tmap, "data_type": data_type, "rank": rank, "address": address,
            "dims": dims[:rank], "strides": strides[:rank - 1],
            "lower": lower[:rank - 2], "upper": upper[:rank - 2],
            "channels": channels, "pixels": pixels,
            "element_strides": es[:rank], "interleave": interleave,
            "swizzle": swizzle, "l2_promotion": l2_promotion, "oob_fill": oob_fill,
        })
        return self.status

    def __call__(self, array: np.ndarray, base: np.ndarray | None = None):
        """Runs @encode on `array`; with `base`, the descriptor points at
        `base` and carries the view's element offset instead."""
        desc = get_ranked_memref_descriptor(array)
        if base is not None:
            shift = array.ctypes.data - base.ctypes.data
            assert shift % array.itemsize == 0
            desc.allocated = base.ctypes.data
            desc.aligned = ctypes.cast(base.ctypes.data, type(desc.aligned))
            desc.offset = shift // array.itemsize
        self.engine.invoke("encode", ctypes.pointer(ctypes.pointer(desc)))
        return self.calls[-1]


def aligned_empty(shape, dtype, align: int = 128) -> np.ndarray:
    """A zeroed array whose data starts `align`-byte aligned."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * dtype.itemsize
    raw = np.zeros(nbytes + align, np.uint8)
    start = (-raw.ctypes.data) % align
    return raw[start:start + nbytes].view(dtype).reshape(shape)
