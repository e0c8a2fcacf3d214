"""Where a thread is: thread, lane, block and cluster ids and extents."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, gpu, nvvm

from ..errors import TileUsageError
from .trace import emits_ir
from .values import Expr


def _dimension(dim: str):
    if dim not in ("x", "y", "z"):
        raise TileUsageError("kernel-value", f"dim is 'x', 'y' or 'z', got {dim!r}")
    return getattr(gpu.Dimension, dim)


@emits_ir
def lane_id() -> Expr:
    """This thread's lane in its warp, 0 to 31 (index)."""
    return Expr(gpu.lane_id())


@emits_ir
def thread_id(dim: str = "x") -> Expr:
    """`threadIdx.<dim>` (index); `dim` is 'x', 'y' or 'z', anything else a
    TileUsageError [kernel-value]."""
    return Expr(gpu.thread_id(_dimension(dim)))


@emits_ir
def block_id(dim: str = "x") -> Expr:
    """`blockIdx.<dim>` (index): this CTA's position in the grid."""
    return Expr(gpu.block_id(_dimension(dim)))


@emits_ir
def block_dim(dim: str = "x") -> Expr:
    """`blockDim.<dim>` (index): threads per block along `dim`."""
    return Expr(gpu.block_dim(_dimension(dim)))


@emits_ir
def grid_dim(dim: str = "x") -> Expr:
    """The launch's grid extent (the one it runs with, not the default)."""
    return Expr(gpu.grid_dim(_dimension(dim)))


@emits_ir
def cluster_ctarank() -> Expr:
    """This CTA's rank in its cluster (index)."""
    rank = nvvm.read_ptx_sreg_cluster_ctarank(ir.IntegerType.get_signless(32))
    return Expr(arith.index_cast(ir.IndexType.get(), rank))
