"""The shared-memory swizzles, as maps of absolute byte addresses.

Addresses are byte offsets in a buffer whose base is aligned to 1024 bytes
(the longest swizzle period), so offset bits are absolute address bits.

  0 none
  1 32B   bit4 ^= bit7                  (measured on the H200)
  2 64B   bits[4:5] ^= bits[7:8]        (measured on the H200)
  3 128B  bits[4:6] ^= bits[7:9]        (measured on the H200)
  4 128B_ATOM_32B         32-byte units inside each 128-byte line:
                          bits[5:6] ^= bits[7:8]
  5 128B_ATOM_32B_FLIP_8B as 4, and the two 8-byte halves of every 16-byte
                          chunk swap on odd 128-byte lines: bit3 ^= bit7
  6 128B_ATOM_64B         64-byte halves swap on odd lines: bit6 ^= bit7

Swizzles 4..6 (sm_100 only, never executed here) follow the PTX ISA's
pattern tables (section "Swizzling Modes": the 32B-atom table lists four
distinct 128-byte lines, the 64B-atom table two); CUTLASS encodes the
32B-atom mode as the same XOR (Swizzle<2,5,2>). The 8-byte flip "on every
alternate line" is read as line parity (bit 7); the documentation shows
it only in a figure. Every map XORs bits below bit 7 with bits at or above
it, which it leaves unchanged: each map is its own inverse.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import contract

# The driver's swizzle modes (CU_TENSOR_MAP_SWIZZLE_*) by value, their names
# ("none", "32B", ...) and the ones only loads may use: the contract's facts
# (DriverEnums.def). The XOR maps below are the emulator's own.
SWIZZLES = tuple(s.value for s in contract.SWIZZLE_TABLE)
SWIZZLE_NAMES = tuple(s.name for s in contract.SWIZZLE_TABLE)
LOAD_ONLY_SWIZZLES = contract.LOAD_ONLY_SWIZZLES


def _check(swizzle: int) -> int:
    if isinstance(swizzle, bool) or swizzle not in SWIZZLES:
        raise ValueError(f"swizzle-range: swizzle {swizzle!r} is outside "
                         f"0..{len(SWIZZLES) - 1} ({', '.join(SWIZZLE_NAMES)})")
    return int(swizzle)


def swizzle_span(swizzle: int) -> int:
    """Bytes of one swizzled row: 0, 32, 64 or 128 (128 for 4..6)."""
    return contract.SWIZZLE_SPAN_BYTES[_check(swizzle)]


def swizzle_period(swizzle: int) -> int:
    """Bytes after which the pattern repeats, 0 without swizzle. Swizzles
    4..6 repeat after 512 or 256 bytes; their documented pattern base is the
    1024-byte boundary of the 128B family, which is what this returns."""
    return contract.SWIZZLE_TABLE[_check(swizzle)].period_bytes


class _Operators:
    """Python's integer operators (ints and numpy integer arrays)."""
    xor = staticmethod(operator.xor)
    shr = staticmethod(operator.rshift)
    shl = staticmethod(operator.lshift)
    and_ = staticmethod(operator.and_)


def _pattern(addr, s: int, ops):
    """The XOR map of swizzle `s` (1..6), written over `ops` (xor, shr, shl,
    and_) so that it runs on ints, numpy arrays and, in a kernel, on index
    values (the transpose kernel's address arithmetic)."""
    if s <= 3:
        mask = (1 << s) - 1
        return ops.xor(addr, ops.shl(ops.and_(ops.shr(addr, 7), mask), 4))
    if s in (4, 5):
        out = ops.xor(addr, ops.shl(ops.and_(ops.shr(addr, 7), 3), 5))
        if s == 5:
            out = ops.xor(out, ops.shl(ops.and_(ops.shr(addr, 7), 1), 3))
        return out
    return ops.xor(addr, ops.shl(ops.and_(ops.shr(addr, 7), 1), 6))


def swizzle_address(address, swizzle: int, ops=None):
    """Swizzled byte address(es) of unswizzled `address` (int or array; or,
    with `ops`, any value those operations take). Each map is its own
    inverse, so this also unswizzles."""
    s = _check(swizzle)
    if s == 0:
        return address
    if ops is not None:
        return _pattern(address, s, ops)
    if isinstance(address, (int, np.integer)):
        return int(_pattern(int(address), s, _Operators))
    return _pattern(np.asarray(address, dtype=np.int64), s, _Operators)
