"""Grid, block and cluster shapes and kernel names: what a launch takes
(standard library and the contract only: the builder, compile and the
runtime all use it)."""

from __future__ import annotations

import re

from . import contract
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


def check_block(block: tuple[int, int, int], where: str = "block") -> None:
    """[block-limit]: CUDA's bounds on a block (threads in all, per axis)."""
    threads = block[0] * block[1] * block[2]
    if threads > contract.MAX_THREADS_PER_BLOCK:
        raise TileUsageError("block-limit", f"{where} {tuple(block)} has {threads} "
                             f"threads; a block holds at most "
                             f"{contract.MAX_THREADS_PER_BLOCK}")
    if block[2] > contract.MAX_BLOCK_Z:
        raise TileUsageError("block-limit", f"{where} {tuple(block)}: a block's z "
                             f"extent is at most {contract.MAX_BLOCK_Z}, got {block[2]}")


def check_grid(grid: tuple[int, int, int], where: str = "grid") -> None:
    """[grid-limit]: CUDA's bounds on each grid extent."""
    for axis, extent, bound in zip("xyz", grid, (contract.MAX_GRID_X, contract.MAX_GRID_YZ,
                                                 contract.MAX_GRID_YZ)):
        if extent > bound:
            raise TileUsageError("grid-limit", f"{where} {tuple(grid)}: extent {axis} "
                                 f"is {extent}; a grid's {axis} extent is at most {bound}")


def check_cluster(cluster: tuple[int, int, int], grid: tuple[int, int, int] | None,
                  where: str = "cluster") -> None:
    """[cluster-limit]: at most MAX_CLUSTER_CTAS CTAs, and (where the grid is
    known) each grid extent a multiple of the cluster's."""
    ctas = cluster[0] * cluster[1] * cluster[2]
    if ctas > contract.MAX_CLUSTER_CTAS:
        raise TileUsageError("cluster-limit", f"{where} {tuple(cluster)} has {ctas} "
                             f"CTAs; a cluster holds at most {contract.MAX_CLUSTER_CTAS}")
    if grid is None:
        return
    for axis, g, c in zip("xyz", grid, cluster):
        if g % c:
            raise TileUsageError("cluster-limit", f"grid {tuple(grid)} is not a whole "
                                 f"number of {where} {tuple(cluster)} clusters: extent "
                                 f"{axis} {g} is not a multiple of {c}")


def check_launch(grid, block, cluster=None) -> None:
    """The launch limits of 3-D shapes (as `dim3` returns them):
    [block-limit], [grid-limit], [cluster-limit]."""
    check_block(block)
    check_grid(grid)
    if cluster is not None:
        check_cluster(cluster, grid)


# A PTX identifier as LLVM's NVPTX back end and ptxas both take it: ASCII
# letters, digits, `_` and `$`, not starting with a digit or `$`; a lone `_`
# is not one (ptxas rejects it).
_SYMBOL = re.compile(r"(?:[A-Za-z]|_(?=[A-Za-z0-9_$]))[A-Za-z0-9_$]*")


def check_symbol(name, what: str = "kernel name") -> str:
    """[kernel-symbol]: `name` is an identifier PTX and the driver take (a
    name outside it aborts the NVPTX back end); returns it."""
    if not isinstance(name, str):
        raise TileUsageError("kernel-symbol", f"a {what} is a str, got "
                             f"{type(name).__name__} {name!r}")
    shown = name if len(name) <= 60 else f"{name[:40]}...({len(name)} characters)"
    if len(name) > contract.MAX_KERNEL_NAME_CHARS:
        raise TileUsageError("kernel-symbol", f"{what} {shown!r} is {len(name)} characters "
                             f"long; at most {contract.MAX_KERNEL_NAME_CHARS}")
    if not _SYMBOL.fullmatch(name):
        raise TileUsageError("kernel-symbol", f"{what} {shown!r} is not a PTX identifier: "
                             "an ASCII letter or '_', then letters, digits, '_' or '$' "
                             "(name= gives a kernel its name)")
    return name
