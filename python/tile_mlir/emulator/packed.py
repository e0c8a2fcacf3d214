"""The packed sub-byte formats: global packing and shared image bytes.

Global arrays of packed formats are np.uint8 byte arrays; the logical
innermost dimension counts values (bytes * 8 / bits). Values are packed
least-significant bit first: value j of a row occupies bits [bits*j,
bits*(j+1)) of the row read as a little-endian bit stream (for 4-bit values:
element 2k in the low nibble of byte k).
"""

from __future__ import annotations

import numpy as np

from .formats import Format


def unpack(raw: np.ndarray, fmt: Format) -> np.ndarray:
    """Packed bytes (..., B) -> values (..., B * 8 / bits), np.uint8."""
    raw = np.ascontiguousarray(raw, dtype=np.uint8)
    bits = np.unpackbits(raw, axis=-1, bitorder="little")
    n = bits.shape[-1] // fmt.bits
    bits = bits[..., :n * fmt.bits].reshape(raw.shape[:-1] + (n, fmt.bits))
    weights = (1 << np.arange(fmt.bits)).astype(np.uint8)
    return (bits * weights).sum(axis=-1, dtype=np.uint16).astype(np.uint8)


def pack(values: np.ndarray, fmt: Format) -> np.ndarray:
    """Values (..., n) -> packed bytes (..., n * bits / 8), np.uint8.
    Bits above `fmt.bits` of each value are dropped."""
    values = np.ascontiguousarray(values, dtype=np.uint8)
    n = values.shape[-1]
    if (n * fmt.bits) % 8:
        raise ValueError(f"{n} values of {fmt.bits} bits do not fill whole bytes")
    bits = np.unpackbits(values[..., None], axis=-1, bitorder="little")[..., :fmt.bits]
    bits = bits.reshape(values.shape[:-1] + (n * fmt.bits,))
    return np.packbits(bits, axis=-1, bitorder="little")
