"""Runtime rules the other CPU tests leave out, each raised without a GPU
(the launcher's checks run before anything is uploaded or launched; the
tensor-map encode runs against a fake driver)."""

import numpy as np
import pytest

from tile_mlir.runtime import tensormap
from tile_mlir.runtime.arrays import DeviceView, device_view
from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.runtime.launcher import Kernel
from tile_mlir.runtime.scalars import ScalarSlot
from tile_mlir.spec import TensorMapSpec


def _kernel(params):
    # A launcher without a loaded module: only the argument checks run.
    k = object.__new__(Kernel)
    k.name = "k"
    k.info = {"params": params}
    k.specs = []
    k.scalars = {i: ScalarSlot(p.get("dtype", p.get("type")), i)
                 for i, p in enumerate(params) if p["kind"] == "scalar"}
    return k


def test_an_array_for_a_scalar_parameter_is_argument_kind():
    k = _kernel([{"kind": "scalar", "type": "i32"}])
    with pytest.raises(TileRuntimeError) as err:
        k._check_args([None], [np.zeros(4, np.int32)])
    assert err.value.rule == "argument-kind"
    assert "argument 0" in err.value.message


def test_argument_count_counts_parameters():
    k = _kernel([{"kind": "memref", "shape": [4], "element": "ui32"}] * 2)
    with pytest.raises(TileRuntimeError) as err:
        k._check_args([device_view(np.zeros(4, np.uint32), 0)])
    assert err.value.rule == "argument-count"
    assert "takes 2 arguments, got 1" in err.value.message


def test_anything_but_an_array_is_device_array():
    with pytest.raises(TileRuntimeError) as err:
        device_view("not an array", 3)
    assert err.value.rule == "device-array"
    assert "argument 3" in err.value.message


class _Status(int):
    """A CUresult as cuda-python returns it: an int with a name."""

    @property
    def name(self):
        return {0: "CUDA_SUCCESS", 1: "CUDA_ERROR_INVALID_VALUE"}[int(self)]


class _FakeDriver:
    """The parts of cuda.bindings.driver encode() uses: each type records
    its name, each encode call its arguments and returns `status`."""

    def __init__(self, status):
        self.status, self.calls = _Status(status), []

    def __getattr__(self, name):
        if name.startswith("cuTensorMapEncode"):
            def call(*args):
                self.calls.append((name, args))
                return self.status, "the map"
            return call
        return lambda value: (name, value)


def _spec(**fields):
    entry = {
        "base_alignment": 16, "box": [16, 8], "bytes": 128, "data_type": 7,
        "elem_bits": 32, "element_strides": [1, 1], "encode": "tiled",
        "format": "float32", "global_rank": 2, "inner_multiple": 1,
        "interleave": 0, "l2_promotion": 0, "mode": "tile", "oob_fill": 0,
        "packing": [1, 1], "rank": 2, "source": 3, "stride_alignment": 16,
        "swizzle": 0}
    return TensorMapSpec.from_json(dict(entry, **fields))


def _view():
    return DeviceView(ptr=0x10000, shape=(32, 64), strides=(64, 1),
                      dtype=np.dtype(np.float32))


def test_encode_passes_the_driver_its_arguments(monkeypatch):
    drv = _FakeDriver(0)
    monkeypatch.setattr(tensormap, "cuda", lambda: drv)
    assert tensormap.encode(_spec(swizzle=3), _view()) == "the map"
    [(name, args)] = drv.calls
    assert name == "cuTensorMapEncodeTiled"
    assert args == (("CUtensorMapDataType", 7), 2, 0x10000,
                    [("cuuint64_t", 64), ("cuuint64_t", 32)], [("cuuint64_t", 256)],
                    [("cuuint32_t", 16), ("cuuint32_t", 8)],
                    [("cuuint32_t", 1), ("cuuint32_t", 1)],
                    ("CUtensorMapInterleave", 0), ("CUtensorMapSwizzle", 3),
                    ("CUtensorMapL2promotion", 0), ("CUtensorMapFloatOOBfill", 0))


def test_im2col_wide_passes_its_mode_before_the_swizzle(monkeypatch):
    drv = _FakeDriver(0)
    monkeypatch.setattr(tensormap, "cuda", lambda: drv)
    spec = _spec(encode="im2col_wide", mode="im2col_w", box=[16, 64],
                 pixel_box_lower=[-1], pixel_box_upper=[1], channels_per_pixel=16,
                 pixels_per_column=64, wide_mode=0, swizzle=2)
    tensormap.encode(spec, _view())
    [(name, args)] = drv.calls
    assert name == "cuTensorMapEncodeIm2colWide"
    assert args[5:] == (-1, 1, 16, 64, [("cuuint32_t", 1), ("cuuint32_t", 1)],
                        ("CUtensorMapInterleave", 0),
                        ("CUtensorMapIm2ColWideMode", 0), ("CUtensorMapSwizzle", 2),
                        ("CUtensorMapL2promotion", 0), ("CUtensorMapFloatOOBfill", 0))


def test_a_rejected_encode_is_tensor_map_encode(monkeypatch):
    monkeypatch.setattr(tensormap, "cuda", lambda: _FakeDriver(1))
    with pytest.raises(TileRuntimeError) as err:
        tensormap.encode(_spec(), _view())
    assert err.value.rule == "tensor-map-encode"
    message = err.value.message
    assert message.startswith("argument 3: cuTensorMapEncodeTiled returned "
                              "CUDA_ERROR_INVALID_VALUE (1) for ")
    assert "globalAddress=0x10000" in message
    assert "globalDim=[64, 32], globalStrides=[256], boxDim=[16, 8]" in message
