"""`Scalar`: the type of a by-value kernel parameter (an integer or float).

The kernel receives the value as an `Expr`; the runtime packs a Python or
numpy number into the parameter slot after the range and type checks of
runtime/scalars.py. The parameter's builder type is recorded on the kernel
(`tile.param_types`) because MLIR's signless integers do not say whether a
32-bit parameter is signed: the manifest carries it to the runtime."""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir

from ..errors import TileUsageError

# Builder name -> MLIR type of the parameter. `index` is 64-bit on NVPTX.
SCALAR_TYPES = {
    "int32": "i32", "uint32": "i32", "int64": "i64", "uint64": "i64",
    "float32": "f32", "float64": "f64", "index": "index",
}


@dataclass(frozen=True)
class Scalar:
    """A by-value parameter: int32, uint32, int64, uint64, float32, float64
    or index."""
    dtype: str

    def __post_init__(self):
        if not isinstance(self.dtype, str) or self.dtype not in SCALAR_TYPES:
            raise TileUsageError("kernel-signature", f"unknown scalar type "
                                 f"{self.dtype!r} (known: {', '.join(SCALAR_TYPES)})")

    def ir_type(self) -> ir.Type:
        """The parameter's MLIR type (i32, i64, f32, f64 or index)."""
        return ir.Type.parse(SCALAR_TYPES[self.dtype])
