"""Reduction operators of cp.reduce.async.bulk.tensor, per format.

Which operator exists for which format is the contract's table
(tile_mlir.contract.REDUCTIONS, the verifier's reduction-dtype). Semantics (new global value from old and src):
  add   integers wrap; float32 in float32; float16 rounded to nearest even
        in float16; bfloat16: the exact sum rounded to nearest even bf16.
        A NaN result is written as the canonical NaN of the type.
  min/max  signed or unsigned per format; f16/bf16: a NaN operand loses to
        a number, two NaNs give the canonical NaN, -0 orders below +0.
  inc   old >= src ? 0 : old + 1          (uint32)
  dec   (old == 0 or old > src) ? src : old - 1   (uint32)
  and/or/xor  bitwise.
"""

from __future__ import annotations

import numpy as np

from .. import contract
from .convert import bf16_to_float32, float32_to_bf16

# The operators and the formats each is defined on: the contract's table
# (Reductions.def; the verifier's reduction-dtype).
REDUCTIONS = contract.REDUCTION_OPERATORS
ALLOWED = contract.REDUCTIONS

_CANONICAL_NAN = {"float16": 0x7FFF, "bfloat16": 0x7FFF, "float32": 0x7FFFFFFF}


def check_reduction(op: str, format_name: str) -> None:
    if op not in REDUCTIONS:
        raise ValueError(f"reduction-operator: unknown reduction {op!r} "
                         f"(known: {', '.join(REDUCTIONS)})")
    if format_name not in ALLOWED[op]:
        raise ValueError(f"reduction-dtype: reduction {op} is not defined on "
                         f"{format_name} (valid: {', '.join(ALLOWED[op])})")


def _half_key(bits: np.ndarray) -> np.ndarray:
    """An integer that orders 16-bit float patterns (non-NaN), -0 < +0."""
    b = bits.astype(np.int32)
    mag = b & 0x7FFF
    return np.where(b & 0x8000, -mag - 1, mag)


def _half_is_nan(bits: np.ndarray, fmt: str) -> np.ndarray:
    b = bits.astype(np.int32) & 0x7FFF
    return b > (0x7C00 if fmt == "float16" else 0x7F80)


def _float_minmax(op, old_bits, src_bits, fmt):
    ko, ks = _half_key(old_bits), _half_key(src_bits)
    take_src = ks < ko if op == "min" else ks > ko
    nan_o, nan_s = _half_is_nan(old_bits, fmt), _half_is_nan(src_bits, fmt)
    take_src = np.where(nan_o, True, np.where(nan_s, False, take_src))
    out = np.where(take_src, src_bits, old_bits)
    return np.where(nan_o & nan_s, _CANONICAL_NAN[fmt], out).astype(np.uint16)


def apply_reduction(op: str, old: np.ndarray, src: np.ndarray,
                    format_name: str) -> np.ndarray:
    """The new global values; `old` and `src` in the format's storage dtype
    (bfloat16 as uint16 bits), same shape. Returns that dtype."""
    check_reduction(op, format_name)
    old = np.asarray(old)
    src = np.asarray(src, dtype=old.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        return _apply(op, old, src, format_name)


def _apply(op, old, src, format_name):
    if op == "add":
        if format_name == "float32":
            out = (old.astype(np.float32) + src.astype(np.float32)).astype(np.float32)
            bits = out.view(np.uint32).copy()
            bits[np.isnan(out)] = _CANONICAL_NAN["float32"]
            return bits.view(np.float32)
        if format_name == "float16":
            # float32 holds 24 >= 2*11+2 bits: rounding the float32 sum to
            # float16 equals rounding the exact sum (no double rounding).
            out = (old.astype(np.float32) + src.astype(np.float32)).astype(np.float16)
            bits = out.view(np.uint16).copy()
            bits[np.isnan(out)] = _CANONICAL_NAN["float16"]
            return bits.view(np.float16)
        if format_name == "bfloat16":
            # Likewise 24 >= 2*8+2, and bf16 has float32's exponent range.
            total = bf16_to_float32(old) + bf16_to_float32(src)
            return float32_to_bf16(total).astype(old.dtype)
        return np.add(old, src, dtype=old.dtype)    # wraps
    if op in ("min", "max"):
        if format_name in ("float16", "bfloat16"):
            out = _float_minmax(op, old.view(np.uint16), src.view(np.uint16),
                                format_name)
            return out.view(old.dtype)
        return (np.minimum if op == "min" else np.maximum)(old, src)
    if op == "inc":
        return np.where(old >= src, 0, old + np.uint32(1)).astype(old.dtype)
    if op == "dec":
        return np.where((old == 0) | (old > src), src,
                        old - np.uint32(1)).astype(old.dtype)
    fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
    return fn(old, src)
