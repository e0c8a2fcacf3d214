"""Scalar arguments (runtime/scalars.py): every type's range and kind
checks, and the bits packed into the parameter slot. CPU only."""

import ctypes

import numpy as np
import pytest

from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.runtime.launcher import _pack
from tile_mlir.runtime.scalars import ScalarSlot

RANGES = {"int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
          "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1),
          "index": (-2**63, 2**63 - 1), "i32": (-2**31, 2**32 - 1),
          "i64": (-2**63, 2**64 - 1)}
WIDTH = {"int32": 32, "uint32": 32, "i32": 32, "int64": 64, "uint64": 64,
         "i64": 64, "index": 64}


@pytest.mark.parametrize("dtype", sorted(RANGES))
def test_integer_ranges_end_exactly_at_the_type(dtype):
    lo, hi = RANGES[dtype]
    slot = ScalarSlot(dtype, 3)
    for v in (lo, hi, 0, np.int8(5)):
        bits = int(v) % 2**WIDTH[dtype]
        packed = slot.value(v)
        assert ctypes.sizeof(packed) * 8 == WIDTH[dtype]
        assert int.from_bytes(bytes(packed), "little") == bits
    for v in (lo - 1, hi + 1):
        with pytest.raises(TileRuntimeError) as err:
            slot.value(v)
        assert err.value.rule == "scalar-range"
        assert "argument 3" in err.value.message and str(v) in err.value.message


@pytest.mark.parametrize("dtype", sorted(RANGES))
@pytest.mark.parametrize("value", [1.0, True, np.bool_(True), "7", None, np.float32(1)])
def test_integers_take_only_integers(dtype, value):
    with pytest.raises(TileRuntimeError) as err:
        ScalarSlot(dtype, 0).value(value)
    assert err.value.rule == "scalar-type"


def test_floats():
    f32, f64 = ScalarSlot("float32", 1), ScalarSlot("float64", 2)
    assert f32.value(1.5).value == 1.5 and f32.value(3).value == 3.0
    assert np.float32(f32.value(0.1).value) == np.float32(0.1)
    assert f64.value(np.float64(-2.5e300)).value == -2.5e300
    assert f32.value(float("inf")).value == float("inf")  # infinities are values
    assert np.isnan(f32.value(float("nan")).value)
    with pytest.raises(TileRuntimeError) as err:
        f32.value(1e39)  # a finite value that float32 cannot hold
    assert err.value.rule == "scalar-range"
    for bad in (True, "1.0", None, [1.0]):
        with pytest.raises(TileRuntimeError) as err:
            f64.value(bad)
        assert err.value.rule == "scalar-type"


def test_an_unpackable_parameter_type_is_named():
    with pytest.raises(TileRuntimeError) as err:
        ScalarSlot("f16", 4)
    assert err.value.rule == "scalar-type" and "f16" in err.value.message


def test_scalars_are_packed_in_parameter_order():
    """A scalar between memrefs takes one slot at its place; maps come last."""
    from tile_mlir.runtime.arrays import DeviceView
    view = DeviceView(ptr=0x1000, shape=(4,), strides=(1,), dtype=np.dtype("f4"))
    params = [{"kind": "memref", "shape": [4], "element": "f32"},
              {"kind": "scalar", "type": "i32", "dtype": "uint32"},
              {"kind": "memref", "shape": [4], "element": "f32"}]
    packed = _pack(params, [view, None, view], [], [])
    # memref: allocated, aligned, offset, size, stride = 5 slots
    assert len(packed.pointers) == 5 + 1 + 5
    assert list(packed.scalar_slots) == [1]
    packed.scalar_slots[1].value = 2**32 - 1
    assert ctypes.c_uint32.from_address(packed.pointers[5]).value == 2**32 - 1
    assert ctypes.c_uint64.from_address(packed.pointers[6]).value == 0x1000


@pytest.mark.parametrize("dtype", sorted(RANGES) + ["float32", "float64"])
def test_store_checks_like_value(dtype):
    """store() (the call path's short form) writes what value() packs and
    rejects what value() rejects."""
    from tile_mlir.runtime.scalars import SCALAR_CTYPES
    checker, slot = ScalarSlot(dtype, 1), SCALAR_CTYPES[dtype]()
    samples = [0, 7, -1, 2**31, -2**31 - 1, 2**32, 2**63, -2**63 - 1, 2**64, 1.5,
               1e39, np.int64(-3), True, "x"]
    for x in samples:
        try:
            want = bytes(checker.value(x))
        except TileRuntimeError as err:
            with pytest.raises(TileRuntimeError) as got:
                checker.store(slot, x)
            assert got.value.rule == err.rule
            continue
        checker.store(slot, x)
        assert bytes(slot) == want, x
