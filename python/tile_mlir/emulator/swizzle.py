"""The shared-memory swizzle: 16-byte chunk index XOR address bits 7..9.

Addresses are byte offsets in a buffer whose base is aligned to 1024 bytes
(the longest swizzle period), so offset bits are absolute address bits.
Measured on the H200: 128B: bits[4:6] ^= bits[7:9]; 64B: bits[4:5] ^=
bits[7:8]; 32B: bit4 ^= bit7. The map is its own inverse.
"""

from __future__ import annotations

import numpy as np

SWIZZLES = (0, 1, 2, 3)


def _check(swizzle: int) -> int:
    if swizzle not in SWIZZLES:
        raise ValueError(f"swizzle-range: swizzle {swizzle!r} is outside 0..3 "
                         "(none, 32B, 64B, 128B)")
    return int(swizzle)


def swizzle_span(swizzle: int) -> int:
    """Bytes of one swizzled row: 0, 32, 64 or 128."""
    return 0 if _check(swizzle) == 0 else 16 << swizzle


def swizzle_period(swizzle: int) -> int:
    """Bytes after which the pattern repeats (8 spans), 0 without swizzle."""
    return swizzle_span(swizzle) * 8


def swizzle_address(address, swizzle: int):
    """Swizzled byte address(es) of unswizzled `address` (int or array)."""
    s = _check(swizzle)
    if s == 0:
        return address
    mask = (1 << s) - 1
    if isinstance(address, (int, np.integer)):
        address = int(address)
        return address ^ (((address >> 7) & mask) << 4)
    addr = np.asarray(address, dtype=np.int64)
    return addr ^ (((addr >> 7) & mask) << 4)


# The XOR only reads bits 7..9, which it leaves unchanged: an involution.
unswizzle_address = swizzle_address
