"""Element types of kernel buffers, by the dtype names numpy (and the
contract) use."""

from __future__ import annotations

import mlir.ir as ir

# Builder dtype name -> MLIR element type spelling.
DTYPES = {
    "uint8": "ui8", "int8": "si8", "uint16": "ui16", "int16": "si16",
    "uint32": "ui32", "int32": "si32", "uint64": "ui64", "int64": "si64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2",
    "float4_e2m1fn": "f4E2M1FN", "float6_e2m3fn": "f6E2M3FN",
    "float6_e3m2fn": "f6E3M2FN",
    # Signless bytes: the shared image of the packed formats.
    "i8": "i8",
}


def element_type(dtype: str) -> ir.Type:
    """The MLIR element type of builder dtype `dtype` (needs a context)."""
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype '{dtype}' (known: {', '.join(DTYPES)})")
    return ir.Type.parse(DTYPES[dtype])
