"""16-byte vector loads and stores (ld/st.*.v4.b32) on memref buffers."""

from __future__ import annotations

from typing import Sequence

import mlir.ir as ir
from mlir.dialects import vector

from .dtypes import element_type
from .trace import emits_ir
from .values import Buffer, Expr

VECTOR_BYTES = 16


def vector_type(dtype: str) -> ir.VectorType:
    """16 bytes of `dtype` (inside a kernel body: needs the context)."""
    elem = element_type(dtype)
    return ir.VectorType.get([VECTOR_BYTES * 8 // elem.width], elem)


@emits_ir
def vector_load(vtype: ir.VectorType, buf: Buffer, indices: Sequence) -> ir.Value:
    """A 16-byte vector load at element `indices` of `buf`."""
    return vector.load(vtype, buf.value, [Expr.of(i) for i in indices], alignment=16)


@emits_ir
def vector_store(value: ir.Value, buf: Buffer, indices: Sequence) -> None:
    """A 16-byte vector store of `value` at element `indices` of `buf`."""
    vector.store(value, buf.value, [Expr.of(i) for i in indices], alignment=16)


@emits_ir
def vector_store_if(pred: Expr, value: ir.Value, buf: Buffer, index) -> None:
    """A 16-byte vector store of `value` at flat element `index` of the 1-D
    global `buf` where `pred` holds: one predicated `st.global.v4.b32`
    (inline PTX, with the value as its operand whether or not it stores).
    Behind a branch instead, LLVM sinks the loads that only feed the store
    into the branch, so a thread's loads for several stores can no longer
    all be in flight before its first store."""
    from mlir.dialects import arith, llvm

    from .pointers import global_pointer
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    words = vector.bitcast(ir.VectorType.get([4], i32), value)
    elem = ir.VectorType(value.type).element_type.width // 8
    base = llvm.ptrtoint(i64, global_pointer(buf))
    offset = arith.muli(arith.index_cast(i64, Expr.of(index)), arith.constant(i64, elem))
    addr = arith.addi(base, offset)
    flag = arith.extui(i32, Expr.of(pred))
    operands = [addr] + [vector.extract(words, [], [i]) for i in range(4)] + [flag]
    llvm.inline_asm(None, operands,
                    "{ .reg .pred p; .reg .b64 g; setp.ne.b32 p, $5, 0; "
                    "cvta.to.global.u64 g, $0; @p st.global.v4.b32 [g], {$1, $2, $3, $4}; }",
                    "l,r,r,r,r,r,~{memory}", has_side_effects=True)
