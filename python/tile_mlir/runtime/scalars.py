"""Scalar kernel arguments: type and range checks, then the C value packed
into the parameter slot.

A parameter's `dtype` comes from the manifest: the builder type
(int32, uint32, int64, uint64, float32, float64, index) or, for a kernel
written as MLIR text, its signless type (i32, i64), which takes either
signedness's range (the value's bit pattern is what the kernel sees)."""

from __future__ import annotations

import ctypes
import math
import numbers

import numpy as np

from .errors import TileRuntimeError

F32_MAX = float(np.finfo(np.float32).max)


class ScalarSlot:
    """How one scalar parameter is checked and packed."""

    def __init__(self, dtype: str, index: int):
        if dtype not in _KINDS:
            raise TileRuntimeError("scalar-type", f"argument {index}: the kernel's "
                                   f"scalar parameter type {dtype} is not one the "
                                   f"launcher packs ({', '.join(_KINDS)})")
        self.dtype = dtype
        self.index = index
        self.ctype, self.low, self.high = _KINDS[dtype]
        self.is_float = self.low is None

    def store(self, slot, x) -> None:
        """Checks `x` and writes it into the parameter slot (a ctypes value of
        this type): a plain int or float in range takes the short path."""
        kind = type(x)
        if kind is int and self.low is not None and self.low <= x <= self.high:
            slot.value = x
        elif kind is float and self.is_float and self.dtype == "float64":
            slot.value = x
        else:
            slot.value = self.value(x).value

    def packing(self) -> tuple:
        """(kind, width, low, high) for a launch path that packs a plain int
        or float itself (runtime/launch.py): 'i' takes an int in
        [low, high], 'f' a float (a float32 slot: one that does not
        overflow it), anything else goes through value()."""
        width = ctypes.sizeof(self.ctype)
        return ("f", width, 0, 0) if self.is_float else ("i", width, self.low, self.high)

    def value(self, x):
        """`x` as this parameter's C value, or a [scalar-type]/[scalar-range]
        error naming the argument, the value and the type."""
        where = f"argument {self.index}"
        if isinstance(x, (bool, np.bool_)):
            raise TileRuntimeError("scalar-type", f"{where}: a bool for a {self.dtype} "
                                   "parameter (pass an int)")
        if self.is_float:
            if not isinstance(x, (numbers.Real, np.floating, np.integer)):
                raise TileRuntimeError("scalar-type", f"{where}: expected a number for "
                                       f"a {self.dtype} parameter, got {type(x).__name__}")
            v = float(x)
            if self.dtype == "float32" and math.isfinite(v) and abs(v) > F32_MAX:
                raise TileRuntimeError("scalar-range", f"{where}: {v!r} overflows "
                                       "float32 (largest finite 3.4028235e+38)")
            return self.ctype(v)
        if not isinstance(x, (numbers.Integral, np.integer)):
            raise TileRuntimeError("scalar-type", f"{where}: expected an integer for "
                                   f"a {self.dtype} parameter, got {type(x).__name__} "
                                   f"{x!r}")
        v = int(x)
        if not self.low <= v <= self.high:
            raise TileRuntimeError("scalar-range", f"{where}: {v} is outside {self.dtype}'s "
                                   f"range [{self.low}, {self.high}]")
        # A signless type's upper half is the negative bit patterns.
        return self.ctype(v)


# dtype -> (ctype, lowest, highest); floats have no integer range.
_KINDS = {
    "int32": (ctypes.c_int32, -2**31, 2**31 - 1),
    "uint32": (ctypes.c_uint32, 0, 2**32 - 1),
    "int64": (ctypes.c_int64, -2**63, 2**63 - 1),
    "uint64": (ctypes.c_uint64, 0, 2**64 - 1),
    "index": (ctypes.c_int64, -2**63, 2**63 - 1),
    "i32": (ctypes.c_uint32, -2**31, 2**32 - 1),
    "i64": (ctypes.c_uint64, -2**63, 2**64 - 1),
    "float32": (ctypes.c_float, None, None),
    "float64": (ctypes.c_double, None, None),
}


def is_array(x) -> bool:
    """Whether `x` is an array of some library (for [argument-kind]); a
    numpy scalar, which also exports __array_interface__, is a number."""
    if is_number(x):
        return False
    return isinstance(x, np.ndarray) or any(
        hasattr(x, attr) for attr in ("__cuda_array_interface__", "__dlpack__",
                                      "__array_interface__", "data_ptr"))


def is_number(x) -> bool:
    """Whether `x` is passed as a scalar (rather than described as an array)."""
    return isinstance(x, (numbers.Number, np.generic))



# The C type of each scalar dtype's parameter slot.
SCALAR_CTYPES = {dtype: kind[0] for dtype, kind in _KINDS.items()}

__all__ = ["F32_MAX", "SCALAR_CTYPES", "ScalarSlot", "is_array", "is_number"]
