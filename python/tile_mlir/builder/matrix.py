"""Warp-wide 8x8 matrix moves through shared memory: ldmatrix / stmatrix
(four b16 blocks per instruction)."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import llvm, nvvm

from .pointers import shared_pointer
from .trace import emits_ir
from .values import Expr

_SHAPE_8X8 = "#nvvm.ld_st_matrix_shape<m = 8, n = 8>"


@emits_ir
def ldmatrix_x4_trans(addr: Expr) -> list[ir.Value]:
    """ldmatrix.sync.aligned.m8n8.x4.trans.b16: this lane gives the shared
    address `addr` of one 8x8 block row; returns its four i32 registers."""
    i32 = ir.IntegerType.get_signless(32)
    struct = ir.Type.parse("!llvm.struct<(i32, i32, i32, i32)>")
    res = nvvm.ldmatrix(struct, shared_pointer(addr), 4, nvvm.MMALayout.col,
                        ir.Attribute.parse(_SHAPE_8X8), nvvm.LdStMatrixEltType.B16)
    return [llvm.extractvalue(i32, res, [i]) for i in range(4)]


@emits_ir
def stmatrix_x4(addr: Expr, regs: list[ir.Value]) -> None:
    """stmatrix.sync.aligned.m8n8.x4.b16 of four i32 registers; this lane
    gives the shared address `addr` of one 8x8 block row."""
    nvvm.stmatrix(shared_pointer(addr), regs, nvvm.MMALayout.row,
                  ir.Attribute.parse(_SHAPE_8X8), nvvm.LdStMatrixEltType.B16)
