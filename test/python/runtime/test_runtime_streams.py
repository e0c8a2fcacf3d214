"""stream= values and the default stream (runtime/streams.py), with
stand-ins for torch, cupy and cuda-python stream objects. CPU only."""

import sys
import types

import pytest

from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.runtime.streams import current_stream, stream_handle


def _object(module: str, name: str, **attrs):
    cls = type(name, (), {})
    cls.__module__ = module
    obj = cls()
    for k, v in attrs.items():
        setattr(obj, k, v)
    return obj


def test_every_stream_kind_gives_its_handle():
    assert stream_handle(0) == 0 and stream_handle(0x7f00) == 0x7f00
    assert stream_handle(_object("torch.cuda.streams", "Stream", cuda_stream=11)) == 11
    assert stream_handle(_object("cupy.cuda.stream", "Stream", ptr=12)) == 12
    cu = type("CUstream", (), {"__int__": lambda self: 13})
    cu.__module__ = "cuda.bindings.driver"
    assert stream_handle(cu()) == 13
    proto = _object("somelib", "S")
    type(proto).__cuda_stream__ = lambda self: (0, 14)
    assert stream_handle(proto) == 14


@pytest.mark.parametrize("bad", ["default", -1, 1.5, True, None, object()])
def test_anything_else_is_stream_type(bad):
    with pytest.raises(TileRuntimeError) as err:
        stream_handle(bad)
    assert err.value.rule == "stream-type"


def test_the_default_is_the_arrays_librarys_current_stream(monkeypatch):
    torch = types.ModuleType("torch")
    torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: 21)
    cupy = types.ModuleType("cupy")
    current = [0]   # cupy's current device; its current stream is per device

    class Device:
        def __init__(self, index):
            self.index = index

        def __enter__(self):
            self.before, current[0] = current[0], self.index

        def __exit__(self, *exc):
            current[0] = self.before

    cupy.cuda = types.SimpleNamespace(
        Device=Device, get_current_stream=lambda: types.SimpleNamespace(ptr=22 + current[0]))
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    assert current_stream(frozenset({"torch", "cupy"})) == 21  # torch first
    assert current_stream(frozenset({"cupy", "numpy"})) == 22
    assert current_stream(frozenset({"cupy"}), device=1) == 23 and current[0] == 0
    assert current_stream(frozenset({"numpy"})) == 0
    assert current_stream(frozenset()) == 0
