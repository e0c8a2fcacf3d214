"""IR helpers the layout kernels share: runtime extents of a memref
argument, index arithmetic whose divisors may be runtime values, and the
integer conversions the copies' coordinates need.

`DynOps` is the kernels' `ops` object (as `tile_mlir.builder.IrOps`, but
`div`/`mod` also take runtime divisors), so the geometry written over it
runs unchanged on plain ints with `tile_mlir.builder.IntOps` in a CPU
model of the kernel."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, memref

from .. import builder as K
from ..builder import IrOps


def extents(buf: K.Buffer) -> list[K.Expr]:
    """The extent of every axis of a (dynamically shaped) memref argument."""
    return [K.Expr(memref.dim(buf.value, K.Expr.of(i))) for i in range(buf.type.rank)]


def _value(x, like: K.Expr) -> ir.Value:
    return K.Expr.of(x, like)


class DynOps(IrOps):
    """Unsigned index arithmetic on Exprs; divisors may be Exprs or ints."""

    @staticmethod
    def div(a, n):
        if isinstance(n, int) and n & (n - 1) == 0:
            return IrOps.shr(a, n.bit_length() - 1) if n > 1 else a
        return K.Expr(arith.divui(K.Expr.of(a), _value(n, a)))

    @staticmethod
    def mod(a, n):
        if isinstance(n, int) and n & (n - 1) == 0:
            return IrOps.and_(a, n - 1)
        return K.Expr(arith.remui(K.Expr.of(a), _value(n, a)))

    @staticmethod
    def cdiv(a, n):
        return DynOps.div(a + (n - 1), n)

    @staticmethod
    def min(a, b):
        return K.Expr(arith.minui(K.Expr.of(a), _value(b, a)))

    @staticmethod
    def max(a, b):
        return K.Expr(arith.maxui(K.Expr.of(a), _value(b, a)))


class IntDynOps:
    """DynOps' operations on plain ints (the CPU model of a kernel)."""

    @staticmethod
    def div(a, n):
        return a // n

    @staticmethod
    def mod(a, n):
        return a % n

    @staticmethod
    def cdiv(a, n):
        return -(-a // n)

    @staticmethod
    def min(a, b):
        return min(a, b)

    @staticmethod
    def max(a, b):
        return max(a, b)

    @staticmethod
    def xor(a, b):
        return a ^ b

    @staticmethod
    def shr(a, n):
        return a >> n

    @staticmethod
    def shl(a, n):
        return a << n

    @staticmethod
    def and_(a, m):
        return a & m


def digits(t, radices, ops) -> list:
    """Mixed-radix digits of `t` (the last radix varies fastest)."""
    out = []
    for radix in reversed(radices):
        out.append(ops.mod(t, radix))
        t = ops.div(t, radix)
    return list(reversed(out))


def product(values, one=1):
    total = one
    for v in values:
        total = total * v
    return total


def to_i32(x: K.Expr) -> ir.Value:
    """An index Expr as an i32 value (tile counts and tickets are i32)."""
    return arith.index_cast(ir.IntegerType.get_signless(32), K.Expr.of(x))


def signed_offset(x: K.Expr, delta: int) -> K.Expr:
    """x + delta for a possibly negative delta (coordinates of loads may start
    before the tensor: the copy engine fills what lies outside)."""
    return x + delta if delta >= 0 else x - (-delta)


def shifted_vector(row_addr: K.Expr, byte_offset: K.Expr) -> ir.Value:
    """The 16 bytes at shared address row_addr + byte_offset (any byte
    alignment; row_addr 4-byte aligned) as a vector<4xi32>: five aligned
    32-bit loads and a funnel shift per word by the offset's byte remainder
    (the fifth word is read even when the remainder is 0: up to 4 bytes
    past the 16, which must lie in shared memory)."""
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    from mlir.dialects import llvm
    from ..builder.pointers import shared_pointer
    first = row_addr + IrOps.and_(byte_offset, -4)
    shift = arith.index_cast(i64, K.Expr.of(IrOps.shl(IrOps.and_(byte_offset, 3), 3)))
    words = [arith.extui(i64, llvm.load(i32, shared_pointer(first + 4 * i), alignment=4))
             for i in range(5)]
    thirty_two = arith.constant(i64, 32)
    out = []
    for i in range(4):
        pair = arith.ori(words[i], arith.shli(words[i + 1], thirty_two))
        out.append(arith.trunci(i32, arith.shrui(pair, shift)))
    from mlir.dialects import vector
    return vector.from_elements(ir.VectorType.get([4], i32), out)
