"""Atomic read-modify-write on global words, and memory fences."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import llvm

from .trace import emits_ir
from .values import Expr, int_constant


@emits_ir
def atomic_add(ptr: ir.Value, n: int, ordering: str = "monotonic") -> ir.Value:
    """atom.add.u32 of `n` on the global word at `ptr` with the LLVM
    `ordering` ("monotonic" is relaxed); returns the old value (i32)."""
    i32 = ir.IntegerType.get_signless(32)
    value = int_constant(i32, n, "atomic_add n") if isinstance(n, int) else Expr.of(n)
    return llvm.atomicrmw(llvm.AtomicBinOp.add, ptr, value,
                          getattr(llvm.AtomicOrdering, ordering))


@emits_ir
def fence_acq_rel() -> None:
    """An acquire-release fence (fence.acq_rel on the GPU)."""
    llvm.fence(llvm.AtomicOrdering.acq_rel)
