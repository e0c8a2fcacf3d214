"""Structured control flow: `if_`, loops (plain, nested and carried) and
multi-indices."""

from __future__ import annotations

import contextlib
from typing import Callable, Sequence

import mlir.ir as ir
from mlir.dialects import scf

from .trace import emits_ir
from .values import Expr, index_constant


@emits_ir
@contextlib.contextmanager
def if_(cond: Expr):
    """`with if_(lane == 0):` emits scf.if."""
    op = scf.IfOp(Expr.of(cond))
    with ir.InsertionPoint(op.then_block):
        yield
        scf.YieldOp([])


@emits_ir
def if_else(cond, result_types: Sequence[ir.Type], then: Callable[[], list],
            otherwise: Callable[[], list]) -> list:
    """scf.if with results: `then()` and `otherwise()` build their branch
    and return its values. Returns the if's results."""
    branch = scf.IfOp(Expr.of(cond), list(result_types), has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp(then())
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp(otherwise())
    return list(branch.results)


@emits_ir
def range_(start, stop, step=1):
    """`for i in range_(tid, n, nthreads):` emits one scf.for (index bounds)."""
    loop = scf.ForOp(Expr.of(start), Expr.of(stop), Expr.of(step))
    with ir.InsertionPoint(loop.body):
        yield Expr(loop.induction_variable)
        scf.YieldOp([])


@emits_ir
def grid(*extents: int):
    """`for g, r in grid(2, 8):` emits nested scf.for loops."""
    ips = []
    ivs = []
    for extent in extents:
        loop = scf.ForOp(index_constant(0), index_constant(extent, "grid extent"),
                          index_constant(1))
        ip = ir.InsertionPoint(loop.body)
        ip.__enter__()
        ips.append(ip)
        ivs.append(Expr(loop.induction_variable))
    try:
        yield ivs[0] if len(ivs) == 1 else tuple(ivs)
    finally:
        for ip in reversed(ips):
            scf.YieldOp([])
            ip.__exit__(None, None, None)


@emits_ir
def for_carried(start, stop, inits: Sequence[ir.Value],
                body: Callable[[Expr, list], list]) -> list:
    """scf.for over [start, stop) carrying `inits`; body(j, values) returns
    the next values. Returns the final values."""
    loop = scf.ForOp(Expr.of(start), Expr.of(stop), Expr.of(1), list(inits))
    with ir.InsertionPoint(loop.body):
        scf.YieldOp(body(Expr(loop.induction_variable), list(loop.inner_iter_args)))
    return list(loop.results)


@emits_ir
def while_carried(types: Sequence[ir.Type], inits: Sequence[ir.Value],
                  condition: Callable[[list], ir.Value],
                  body: Callable[[list], list]) -> list:
    """scf.while carrying values of `types` from `inits`: it runs while
    condition(values) (an i1) holds; body(values) returns the next values.
    Returns the final values."""
    loop = scf.WhileOp(list(types), list(inits))
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        scf.ConditionOp(condition(list(before.arguments)), list(before.arguments))
    after = loop.after.blocks.append(*types)
    with ir.InsertionPoint(after):
        scf.YieldOp(body(list(after.arguments)))
    return list(loop.results)


def unravel(flat: Expr, shape: Sequence[int]) -> tuple:
    """Multi-index of a row-major flat index."""
    index = []
    for extent in reversed(shape):
        index.append(flat % extent)
        flat = flat // extent
    return tuple(reversed(index))
