"""The byte map of one repeat slot: which element and byte of it each
shared byte holds, and of which kind the byte is. The tile and im2col
models compute the per-byte values of an image; this places them."""

from __future__ import annotations

import numpy as np

from .source import ExplainError

PAYLOAD, OUT_OF_BOUNDS, PADDING = 0, 1, 2
KIND_NAMES = {PAYLOAD: "payload", OUT_OF_BOUNDS: "out-of-bounds", PADDING: "padding"}


def scatter_slot(rel: np.ndarray, coords: np.ndarray, within: np.ndarray,
                 valid: np.ndarray, size: int) -> tuple:
    """(element, byte, kind) of each of a slot's `size` shared bytes.

    The image's payload byte p of row r lies at slot offset rel[r, p]; it is
    byte within[p] of the element at global coordinates coords[r, p], which
    lies inside the global array where valid[r, p] (PAYLOAD, else
    OUT_OF_BOUNDS). Bytes no image byte lands on are PADDING.
    """
    rows, payload = rel.shape
    rank = coords.shape[-1]
    element = np.zeros((size, rank), dtype=np.int64)
    byte = np.full(size, -1, dtype=np.int16)
    kind = np.full(size, PADDING, dtype=np.uint8)
    flat = rel.reshape(-1)
    if flat.min() < 0 or flat.max() >= size:
        raise ExplainError("explain-supported", "internal: an image byte falls outside its slot")
    element[flat] = coords.reshape(-1, rank)
    byte[flat] = np.broadcast_to(within[None, :], (rows, payload)).reshape(-1)
    kind[flat] = np.where(valid.reshape(-1), PAYLOAD, OUT_OF_BOUNDS)
    return element, byte, kind
