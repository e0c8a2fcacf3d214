"""The kernel being traced: what the builder's helpers add module-level
state to (shared globals, the dynamic shared-memory size)."""

from __future__ import annotations

import mlir.ir as ir


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
        raise RuntimeError(f"{what} is only valid inside a @kernel body")
    return trace
