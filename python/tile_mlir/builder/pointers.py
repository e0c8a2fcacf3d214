"""Raw LLVM pointers into global and shared memory, and scalar accesses
through them (for what memref ops do not express: atomics, ldmatrix,
swizzled addresses)."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, llvm, memref

from ..errors import TileUsageError
from .trace import emits_ir
from .values import Buffer, Expr, int_constant, is_shared


def _buffer(buf, what: str) -> Buffer:
    """`buf` as a Buffer: a Buffer, or an MLIR value of memref type
    ([kernel-value] names anything else)."""
    if isinstance(buf, Buffer):
        return buf
    if isinstance(buf, ir.Value) and isinstance(buf.type, ir.MemRefType):
        return Buffer(buf)
    if isinstance(buf, Expr):
        kind = f"a builder value of type {buf.value.type}"
    elif isinstance(buf, ir.Value):
        kind = f"an MLIR value of type {buf.type}"
    else:
        kind = repr(buf)
    raise TileUsageError("kernel-value", f"{what} takes a buffer (a kernel parameter, "
                         f"alloc_shared or dynamic_shared), got {kind}")


@emits_ir
def base_address(buf: Buffer) -> Expr:
    """The buffer's aligned base address as an index value (a Buffer, or an
    MLIR memref value)."""
    buf = _buffer(buf, "base_address")
    return Expr(memref.extract_aligned_pointer_as_index(buf.value))


@emits_ir
def shared_pointer(addr: Expr) -> ir.Value:
    """`!llvm.ptr<3>` at shared address `addr` (an index or i32 value)."""
    i64 = ir.IntegerType.get_signless(64)
    kind = addr.value.type
    if isinstance(kind, ir.IndexType):
        wide = arith.index_cast(i64, addr.value)
    elif kind == ir.IntegerType.get_signless(32):
        wide = arith.extui(i64, addr.value)
    else:
        raise TypeError(f"a shared address is an index or i32 value, not {kind}")
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr<3>"), wide)


@emits_ir
def global_pointer(buf: Buffer) -> ir.Value:
    """Generic `!llvm.ptr` to element 0 of a global tensor (a Buffer of a
    kernel parameter, or an MLIR memref value of global memory)."""
    buf = _buffer(buf, "global_pointer")
    if is_shared(buf.type.memory_space):
        raise TileUsageError("kernel-value", "global_pointer takes a global tensor; "
                             f"got a shared buffer of type {buf.type} (a shared "
                             "address is no generic pointer)")
    i64 = ir.IntegerType.get_signless(64)
    addr = arith.index_cast(i64, memref.extract_aligned_pointer_as_index(buf.value))
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr"), addr)


@emits_ir
def word_pointer(ptr: ir.Value, k: int) -> ir.Value:
    """Generic pointer to the k-th 32-bit word after `ptr`."""
    i64 = ir.IntegerType.get_signless(64)
    addr = arith.addi(llvm.ptrtoint(i64, ptr), int_constant(i64, 4 * k,
                                                            "word_pointer byte offset"))
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr"), addr)


@emits_ir
def load_shared_b16(addr: Expr) -> ir.Value:
    """One 16-bit load (an i16) from shared address `addr`."""
    return llvm.load(ir.IntegerType.get_signless(16), shared_pointer(addr))


@emits_ir
def store_shared_b16(value: ir.Value, addr: Expr) -> None:
    """One 16-bit store of `value` (an i16) to shared address `addr`."""
    llvm.store(value, shared_pointer(addr))
