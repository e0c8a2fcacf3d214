"""Grid, block and cluster shapes (standard library only: the builder and the
runtime both use it)."""

from __future__ import annotations

from .errors import TileUsageError


def dim3(value) -> tuple[int, int, int]:
    """`4` or `(4, 2)` as a 3-D shape `(4, 1, 1)` / `(4, 2, 1)`; anything
    but 1 to 3 positive ints is a [launch-shape] error."""
    dims = (value,) if isinstance(value, int) else (
        tuple(value) if hasattr(value, "__iter__") and not isinstance(value, str)
        else None)
    if dims is None or not 1 <= len(dims) <= 3 or \
            not all(isinstance(d, int) and d > 0 for d in dims):
        raise TileUsageError("launch-shape", "a grid, block or cluster shape is a "
                             f"positive int or 1 to 3 positive ints, got {value!r}")
    return dims + (1,) * (3 - len(dims))
