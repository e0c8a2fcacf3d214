"""Runtime errors name the contract rule they enforce (docs/rules.md)."""

from __future__ import annotations


class TileRuntimeError(ValueError):
    """An argument broke a rule; nothing was launched."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


class CudaError(RuntimeError):
    """A CUDA driver call returned an error status."""

    def __init__(self, call: str, status):
        name = getattr(status, "name", str(status))
        super().__init__(f"{call} failed: {name}")
        self.call = call
        self.status = status
