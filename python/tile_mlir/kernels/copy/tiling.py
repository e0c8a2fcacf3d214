"""How the copy kernels cut a (rows, cols) tensor into boxes and share the
boxes out among CTAs. Plain ints in (a CPU model), plain ints out; index
Exprs in a kernel being traced."""

from __future__ import annotations

from ... import builder as K
from ... import contract


def elem_bytes(dtype: str) -> int:
    """Bytes of one element of `dtype` (the contract's format of it)."""
    return contract.dtype_bytes(dtype)


def tiling(rows: int, cols: int, box, dtype: str) -> tuple[int, int, int]:
    """(boxes per row of boxes, box count, bytes of one box)."""
    br, bc = box
    if rows % br or cols % bc:
        raise ValueError("the tensor must be a whole number of boxes")
    return cols // bc, (rows // br) * (cols // bc), br * bc * elem_bytes(dtype)


def box_origin(tile, tiles_c: int, box) -> tuple:
    """(row, col) of box number `tile`, boxes numbered row-major."""
    return ((tile // tiles_c) * box[0], (tile % tiles_c) * box[1])


def round_robin_count(block, n_tiles: int, grid: int):
    """How many of tiles block, block + grid, ... lie below n_tiles."""
    return (n_tiles - block + (grid - 1)) // grid


def tile_order(block, n_tiles: int, grid: int, order: str):
    """(count, tile_of): how many tiles CTA `block` copies and its j-th tile.
    "round_robin": tiles block, block + grid, ... (at any moment the CTAs
    work on one compact window of neighbouring tiles; with a grid of many
    waves, a CTA's few tiles lie far apart); "chunk": CTA b copies the
    contiguous run of n_tiles / grid tiles starting at b * n_tiles / grid
    (the CTAs work on `grid` regions spread over the whole tensor)."""
    if order == "round_robin":
        return round_robin_count(block, n_tiles, grid), lambda j: block + j * grid
    if order == "chunk":
        if n_tiles % grid:
            raise ValueError("chunk order needs a grid that divides the tile count")
        per = n_tiles // grid
        count = per if isinstance(block, int) else K.Expr(K.Expr.of(per))
        return count, lambda j: block * per + j
    raise ValueError(f"unknown order '{order}'")
