"""The TMA opcodes the library kernels issue (spelled by the C++ printer)
and the L2 cache policy they may give them."""

from __future__ import annotations

from functools import lru_cache

from ...tma import format_opcode

EVICT_FIRST = 0x12F0000000000000  # createpolicy L2::evict_first (streaming)


@lru_cache(maxsize=None)
def load_opcode(rank: int = 2, cache_hint: bool = False) -> str:
    """A tile-mode load into shared::cta, completing on an mbarrier."""
    return format_opcode("load", "tile", rank, cache_hint=cache_hint)


@lru_cache(maxsize=None)
def store_opcode(rank: int = 2, cache_hint: bool = False) -> str:
    """A tile-mode store from shared::cta, tracked by a bulk group."""
    return format_opcode("store", "tile", rank, cache_hint=cache_hint)
