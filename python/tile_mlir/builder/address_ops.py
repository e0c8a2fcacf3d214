"""The arithmetic that address maps are written in, for plain integers (a
CPU model) or index values in a kernel being traced: a map written over an
`ops` object runs unchanged on both, so a test can check on the CPU the
very maps a kernel emits. IntOps, the ints' side, lives in the MLIR-free
tile_mlir.address_ints (so the CPU models import no MLIR); it is
re-exported here for the builder's users."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith

from ..address_ints import IntOps
from .values import Expr

__all__ = ["IntOps", "IrOps"]


class IrOps:
    """Index Exprs in a kernel being traced (unsigned ops: all values are
    non-negative thread ids, offsets and addresses)."""

    @staticmethod
    def _c(n: int, like: Expr) -> ir.Value:
        return Expr.of(n, like)

    @staticmethod
    def div(a: Expr, n: int) -> Expr:
        """`a // n` as an unsigned index op."""
        return Expr(arith.divui(a.value, IrOps._c(n, a)))

    @staticmethod
    def mod(a: Expr, n: int) -> Expr:
        """`a % n` as an unsigned index op."""
        return Expr(arith.remui(a.value, IrOps._c(n, a)))

    @staticmethod
    def xor(a: Expr, b: Expr) -> Expr:
        """`a ^ b` as an unsigned index op."""
        return Expr(arith.xori(a.value, b.value))

    @staticmethod
    def shr(a: Expr, n: int) -> Expr:
        """`a >> n` as an unsigned index op."""
        return Expr(arith.shrui(a.value, IrOps._c(n, a)))

    @staticmethod
    def shl(a: Expr, n: int) -> Expr:
        """`a << n` as an unsigned index op."""
        return Expr(arith.shli(a.value, IrOps._c(n, a)))

    @staticmethod
    def and_(a: Expr, m: int) -> Expr:
        """`a & m` as an unsigned index op."""
        return Expr(arith.andi(a.value, IrOps._c(m, a)))

    @staticmethod
    def index(value: ir.Value) -> Expr:
        """An unsigned integer value (e.g. an i32 tile id) as an index."""
        return Expr(arith.index_castui(ir.IndexType.get(), value))
