"""`derive`: build a tensor map on the device from a template (one
`tile.tensormap_derive`, docs/device-tensor-maps.md).

    tmap = tensormaps.derive(T, slot, staging=stage, address=src_ptr,
                             dims=(rows, cols), strides=(pitch,), box=(64, 128))
    tma.apply(load_opcode(), buf, tmap, box=(64, 128), coords=..., mbar=bar)

`template` is a kernel parameter (a memref: the host encodes its tiled map
from the template fields `box`, `format`, `swizzle`, `element_strides`,
`interleave`, `l2_promotion`, `oob_fill`) or a pointer to a map the caller
encoded (the same keywords then declare its fields). `address`, `dims`
(outer-to-inner, i32) and `strides` (outer dimensions' byte strides, i64)
are runtime or constant values; `new_box`, `new_element_strides`,
`new_format`, `new_swizzle`, `new_interleave`, `new_oob_fill` and
`new_rank` replace fields with constants. The op is verified as it is
built: a rejection raises `TileVerifyError` naming the rule. The result is
the published map (a global pointer) for `tma.apply`'s global operand.
"""

from __future__ import annotations

from typing import Sequence

import mlir.ir as ir
from mlir.dialects import arith

from .builder.trace import emits_ir
from .builder.values import int_constant
from .dialects import tile as _tile
from .errors import TileUsageError
from .tma import _enum, _format_name, _int, _ints, _sequence, _value, verify


def _typed(value, width: int, what: str) -> ir.Value:
    """An i`width` operand from an int, an index value or an i`width` value."""
    ty = ir.IntegerType.get_signless(width)
    if isinstance(value, int):  # range-checked ([int-range]), never wrapped
        return int_constant(ty, value, what)
    value = _value(value)
    if isinstance(value.type, ir.IndexType):
        return arith.index_cast(ty, value)
    if isinstance(value.type, ir.IntegerType):
        have = ir.IntegerType(value.type).width
        if have == width:
            return value
        return (arith.extui(ty, value) if have < width else arith.trunci(ty, value))
    raise TileUsageError("kernel-value", f"{what} is an integer or index value, "
                         f"got {value.type}")


def _address(value) -> ir.Value:
    """new_address: an int, an i64 or index value, or a pointer."""
    if not isinstance(value, int):
        v = _value(value)
        if str(v.type).startswith("!llvm.ptr"):
            return v
    return _typed(value, 64, "address")


def _i32_attr(value):
    return None if value is None else ir.IntegerAttr.get(
        ir.IntegerType.get_signless(32), value)


def _array(name: str, values, rule: str):
    return None if values is None else ir.DenseI64ArrayAttr.get(_ints(name, values, rule))


@emits_ir
def derive(template, dest, *, staging=None, address=None,
           dims: Sequence | None = None, strides: Sequence | None = None,
           box: Sequence[int] | None = None, format: str | None = None,
           swizzle: int | None = None, element_strides: Sequence[int] | None = None,
           interleave: int | None = None, l2_promotion: int = 0,
           oob_fill: int | None = None, new_box: Sequence[int] | None = None,
           new_element_strides: Sequence[int] | None = None,
           new_format: str | None = None, new_swizzle: int | None = None,
           new_interleave: int | None = None, new_oob_fill: int | None = None,
           new_rank: int | None = None) -> ir.Value:
    """Builds and verifies one `tile.tensormap_derive`; returns the map."""
    knobs = {name: _i32_attr(None if value is None else _int(name, value, rule))
             for name, value, rule in (
                 ("swizzle", swizzle, "swizzle-range"),
                 ("interleave", interleave, "interleave-range"),
                 ("oob_fill", oob_fill, "oob-fill-range"),
                 ("new_swizzle", new_swizzle, "swizzle-range"),
                 ("new_interleave", new_interleave, "interleave-range"),
                 ("new_oob_fill", new_oob_fill, "oob-fill-range"),
                 ("new_rank", new_rank, "rank-range"))}
    formats = {name: None if value is None else _enum("format", _format_name(value))
               for name, value in (("format", format), ("new_format", new_format))}
    op = _tile.TensorMapDeriveOp(
        ir.Type.parse("!llvm.ptr<1>"), _value(template), _value(dest),
        [_typed(d, 32, "a dim") for d in _sequence("dims", dims or [])],
        [_typed(s, 64, "a stride") for s in _sequence("strides", strides or [])],
        staging=None if staging is None else _value(staging),
        new_address=None if address is None else _address(address),
        box=_array("box", box, "box-extent"),
        element_strides=_array("element_strides", element_strides,
                               "element-strides-range"),
        new_box=_array("new_box", new_box, "box-extent"),
        new_element_strides=_array("new_element_strides", new_element_strides,
                                   "element-strides-range"),
        l2_promotion=_i32_attr(_int("l2_promotion", l2_promotion,
                                    "l2-promotion-range")),
        **knobs, **formats)
    verify(op)
    return op.result
