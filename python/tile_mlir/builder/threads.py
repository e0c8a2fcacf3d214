"""Where a thread is: thread, lane, block and cluster ids and extents."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, gpu, nvvm

from .values import Expr


def lane_id() -> Expr:
    return Expr(gpu.lane_id())


def thread_id(dim: str = "x") -> Expr:
    return Expr(gpu.thread_id(getattr(gpu.Dimension, dim)))


def block_id(dim: str = "x") -> Expr:
    return Expr(gpu.block_id(getattr(gpu.Dimension, dim)))


def block_dim(dim: str = "x") -> Expr:
    return Expr(gpu.block_dim(getattr(gpu.Dimension, dim)))


def grid_dim(dim: str = "x") -> Expr:
    """The launch's grid extent (the one it runs with, not the default)."""
    return Expr(gpu.grid_dim(getattr(gpu.Dimension, dim)))


def cluster_ctarank() -> Expr:
    """This CTA's rank in its cluster (index)."""
    rank = nvvm.read_ptx_sreg_cluster_ctarank(ir.IntegerType.get_signless(32))
    return Expr(arith.index_cast(ir.IndexType.get(), rank))
