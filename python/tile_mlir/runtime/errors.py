"""Runtime errors name the contract rule they enforce (docs/rules.md)."""

from __future__ import annotations

from ..errors import TileError
from .bindings import import_driver


class TileRuntimeError(TileError):
    """An argument broke a rule and nothing was launched, or (DeviceFault,
    a debug artifact) the kernel recorded a rule's violation on the device."""


class CudaError(RuntimeError):
    """A CUDA driver call returned an error status."""

    def __init__(self, call: str, status):
        if isinstance(status, int):  # the C launch path returns a plain status
            status = _named_status(status)
        name = getattr(status, "name", str(status))
        super().__init__(f"{call} failed: {name}")
        self.call = call
        self.status = status


def _named_status(status: int):
    """The CUresult member for a status, where cuda-python knows it."""
    try:
        return import_driver().CUresult(status)
    except Exception:  # cuda-python missing, or a status it does not list
        return status
