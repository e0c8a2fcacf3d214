"""Warp-wide 8x8 matrix moves through shared memory: ldmatrix / stmatrix
(1, 2 or 4 b16 blocks per instruction)."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import llvm, nvvm

from ..errors import TileUsageError
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


_STMATRIX_COUNTS = (1, 2, 4)


@emits_ir
def stmatrix(addr: Expr, regs: list[ir.Value], trans: bool = False) -> None:
    """`stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16`: the warp
    stores `len(regs)` (1, 2 or 4; [stmatrix-shape]) 8x8 b16 matrices, each
    i32 register two b16 values of one row (of one column with `trans`:
    each matrix is stored transposed). This lane gives the shared address
    `addr` of one matrix row: lanes 0-7 matrix 0's rows, 8-15 matrix 1's,
    and so on. The epilogue's store of an accumulator converted to 16 bits."""
    if not isinstance(regs, (list, tuple)) or len(regs) not in _STMATRIX_COUNTS:
        raise TileUsageError("stmatrix-shape", f"stmatrix stores 1, 2 or 4 matrices "
                             f"(one i32 register each), got {regs!r}")
    i32 = ir.IntegerType.get_signless(32)
    values = [Expr.of(r) if isinstance(r, (Expr, ir.Value)) else None for r in regs]
    if any(v is None or v.type != i32 for v in values):
        raise TileUsageError("kernel-value", f"stmatrix's registers are i32 values, got {regs!r}")
    if not isinstance(trans, bool):
        raise TileUsageError("kernel-value", f"stmatrix trans is a bool, got {trans!r}")
    nvvm.stmatrix(shared_pointer(addr), values,
                  nvvm.MMALayout.col if trans else nvvm.MMALayout.row,
                  ir.Attribute.parse(_SHAPE_8X8), nvvm.LdStMatrixEltType.B16)
