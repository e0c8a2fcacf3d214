"""Grid, block and cluster shapes (standard library only: the builder and the
runtime both use it)."""

from __future__ import annotations


def dim3(value) -> tuple[int, int, int]:
    """`4` or `(4, 2)` as a 3-D shape `(4, 1, 1)` / `(4, 2, 1)`."""
    if isinstance(value, int):
        return (value, 1, 1)
    value = tuple(value)
    return value + (1,) * (3 - len(value))
