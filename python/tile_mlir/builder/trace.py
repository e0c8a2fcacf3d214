"""The kernel being traced: what the builder's helpers add module-level
state to (shared globals, the dynamic shared-memory size)."""

from __future__ import annotations

import functools

import mlir.ir as ir

from ..errors import TileUsageError


class Trace:
    """The gpu.module being filled while a kernel body runs."""
    current: "Trace | None" = None

    def __init__(self, module_body: ir.Block):
        self.module_body = module_body
        self.shared_count = 0
        self.dynamic_bytes = 0


def current_trace(what: str) -> Trace:
    """The active trace; `what` names the helper in the error outside one."""
    trace = Trace.current
    if trace is None:
        raise TileUsageError("builder-scope", f"{what} is only valid inside a "
                             "@kernel body")
    return trace


def emits_ir(fn):
    """Marks a helper that adds ops at the current insertion point: called
    where no IR is being built (outside a kernel body, or an MLIR insertion
    point and location), it is a [builder-scope] error rather than MLIR's."""

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        try:
            ir.InsertionPoint.current
        except ValueError:
            located = False
        else:
            located = ir.Location.current is not None
        if not located:
            raise TileUsageError("builder-scope", f"{fn.__name__} adds IR: call "
                                 "it inside a @kernel body")
        return fn(*args, **kwargs)

    return checked
