"""Element types of kernel buffers, by the dtype names numpy (and the
contract) use: `tile_mlir.contract.DTYPES` (ElementTypes.def)."""

from __future__ import annotations

import mlir.ir as ir

from ..contract import DTYPES
from ..errors import TileUsageError


def element_type(dtype: str) -> ir.Type:
    """The MLIR element type of builder dtype `dtype` (needs a context)."""
    if not isinstance(dtype, str) or dtype not in DTYPES:
        raise TileUsageError("dtype-name", f"unknown dtype {dtype!r} "
                             f"(known: {', '.join(DTYPES)})")
    return ir.Type.parse(DTYPES[dtype].mlir)
