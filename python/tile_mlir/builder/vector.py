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
def vector_store(value: ir.Value, buf: Buffer, indices: Sequence,
                 alignment: int = VECTOR_BYTES) -> None:
    """A vector store of `value` (16 bytes unless told) at element `indices`
    of `buf`, whose address is a multiple of `alignment` bytes."""
    vector.store(value, buf.value, [Expr.of(i) for i in indices], alignment=alignment)
