"""Element types of kernel buffers, by the dtype names numpy (and the
contract) use: `tile_mlir.contract.DTYPES` (ElementTypes.def)."""

from __future__ import annotations

import mlir.ir as ir

from ..contract import DTYPES


def element_type(dtype: str) -> ir.Type:
    """The MLIR element type of builder dtype `dtype` (needs a context)."""
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype '{dtype}' (known: {', '.join(DTYPES)})")
    return ir.Type.parse(DTYPES[dtype].mlir)
