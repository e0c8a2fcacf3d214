"""Runtime errors name the contract rule they enforce (docs/rules.md)."""

from __future__ import annotations

from ..errors import TileError


class TileRuntimeError(TileError):
    """An argument broke a rule and nothing was launched, or (DeviceFault,
    a debug artifact) the kernel recorded a rule's violation on the device."""


class CudaError(RuntimeError):
    """A CUDA driver call returned an error status."""

    def __init__(self, call: str, status):
        name = getattr(status, "name", str(status))
        super().__init__(f"{call} failed: {name}")
        self.call = call
        self.status = status
