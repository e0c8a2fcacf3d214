"""`Tensor`: the type of a kernel parameter (a global tensor)."""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir

from ..contract import DTYPES
from ..errors import TileUsageError
from .dtypes import element_type


@dataclass(frozen=True)
class Tensor:
    """A global tensor parameter. `None` in `shape` is a runtime dimension;
    `dynamic_strides` makes the outer strides runtime values too (the
    innermost stays 1)."""
    shape: tuple
    dtype: str
    dynamic_strides: bool = False

    def __post_init__(self):
        shape = tuple(self.shape) if hasattr(self.shape, "__iter__") else None
        if not shape or not all(d is None or (isinstance(d, int) and d > 0)
                                for d in shape):
            raise TileUsageError("kernel-signature", "a Tensor's shape is a "
                                 "non-empty sequence of positive ints and None "
                                 f"(runtime dimensions), got {self.shape!r}")
        for d in shape:  # a memref extent is a signed 64-bit int
            if d is not None and d >= 1 << 63:
                raise TileUsageError("int-range", f"Tensor shape {shape!r}: extent {d} "
                                     f"does not fit a memref's 64 bits (at most "
                                     f"{(1 << 63) - 1})")
        if not isinstance(self.dtype, str) or self.dtype not in DTYPES:
            raise TileUsageError("dtype-name", f"unknown dtype {self.dtype!r} "
                                 f"(known: {', '.join(DTYPES)})")
        object.__setattr__(self, "shape", shape)

    def memref_type(self) -> ir.MemRefType:
        """The parameter's MLIR memref type: `?` for runtime dimensions, a
        `strided<[?, ..., 1]>` layout with `dynamic_strides`."""
        dyn = ir.ShapedType.get_dynamic_size()
        shape = [dyn if d is None else d for d in self.shape]
        layout = None
        if self.dynamic_strides:
            strides = ", ".join(["?"] * (len(shape) - 1) + ["1"])
            layout = ir.Attribute.parse(f"strided<[{strides}]>")
        return ir.MemRefType.get(shape, element_type(self.dtype), layout=layout)
