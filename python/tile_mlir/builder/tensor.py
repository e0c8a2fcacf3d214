"""`Tensor`: the type of a kernel parameter (a global tensor)."""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir

from .dtypes import element_type


@dataclass(frozen=True)
class Tensor:
    """A global tensor parameter. `None` in `shape` is a runtime dimension;
    `dynamic_strides` makes the outer strides runtime values too (the
    innermost stays 1)."""
    shape: tuple
    dtype: str
    dynamic_strides: bool = False

    def memref_type(self) -> ir.MemRefType:
        dyn = ir.ShapedType.get_dynamic_size()
        shape = [dyn if d is None else d for d in self.shape]
        layout = None
        if self.dynamic_strides:
            strides = ", ".join(["?"] * (len(shape) - 1) + ["1"])
            layout = ir.Attribute.parse(f"strided<[{strides}]>")
        return ir.MemRefType.get(shape, element_type(self.dtype), layout=layout)
