"""Value conversions the copy engine applies: tf32 rounding, FTZ, bf16.

All work on bit patterns so that NaN payloads and signed zeros are exact.
"""

from __future__ import annotations

import numpy as np

from .. import contract

TF32_ROUNDINGS = ("nearest_even", "nearest_away")

_EXP32 = np.uint32(0x7F800000)
_MANT32 = np.uint32(0x007FFFFF)
_SIGN32 = np.uint32(0x80000000)


def _bits32(values) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype == np.float32:
        return arr.view(np.uint32)
    if arr.dtype in (np.uint32, np.int32):
        return arr.view(np.uint32)
    raise ValueError(f"expected float32 values or uint32 bit patterns, got {arr.dtype}")


def flush_denormals_f32(values) -> np.ndarray:
    """float32 with denormal inputs replaced by zero of the same sign."""
    bits = _bits32(values).copy()
    denormal = ((bits & _EXP32) == 0) & ((bits & _MANT32) != 0)
    bits[denormal] &= _SIGN32
    return bits.view(np.float32)


def round_tf32(values, rounding: str = "nearest_even") -> np.ndarray:
    """float32 rounded to tf32 (10 mantissa bits): the low 13 bits cleared
    after rounding to nearest; ties to even or away from zero. NaN and Inf
    pass unchanged; a carry out of the largest finite values gives Inf."""
    if rounding not in TF32_ROUNDINGS:
        raise ValueError(f"tf32_rounding must be one of {TF32_ROUNDINGS}, "
                         f"got {rounding!r}")
    bits = _bits32(values).astype(np.uint64)
    special = (bits & 0x7F800000) == 0x7F800000
    if rounding == "nearest_even":
        bias = 0xFFF + ((bits >> 13) & 1)
    else:
        bias = np.uint64(0x1000)
    # Sign-magnitude: adding to the magnitude rounds away from zero, and a
    # carry from the mantissa into the exponent is the correct next binade.
    rounded = ((bits + bias) & ~np.uint64(0x1FFF)) & 0xFFFFFFFF
    out = np.where(special, bits, rounded).astype(np.uint32)
    return out.view(np.float32)


def to_format(values: np.ndarray, fmt_name: str,
              tf32_rounding: str = "nearest_even") -> np.ndarray:
    """Storage values as the copy engine delivers them for `fmt_name`: which
    formats flush and round is the contract's (Formats.def), the arithmetic
    above is the emulator's own."""
    info = contract.format_info(fmt_name)
    if info.flushes_subnormals:
        values = flush_denormals_f32(values)
    if info.rounds_tf32:
        values = round_tf32(values, tf32_rounding)
    return values


def bf16_to_float32(bits) -> np.ndarray:
    """bfloat16 bit patterns (uint16) to float32, exactly."""
    b = np.asarray(bits).astype(np.uint16).astype(np.uint32) << 16
    return b.view(np.float32)


def float32_to_bf16(values) -> np.ndarray:
    """float32 to bfloat16 bit patterns, round to nearest even; NaN becomes
    the canonical 0x7FFF."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(np.asarray(values, dtype=np.float32))
    return np.where(nan, 0x7FFF, rounded).astype(np.uint16)
