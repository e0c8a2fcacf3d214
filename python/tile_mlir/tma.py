"""`apply`: issue one `tile.tma_copy` the way the contract's example writes it.

    apply("cp.async.bulk.tensor.2d.shared::cta.global.tile."
          "mbarrier::complete_tx::bytes",
          shared, A, box=(8, 16), coords=(0, 0), coord_steps=((8, 0),),
          mbar=mbar.ptr_to([0]))

Operands follow the contract's order: `shared, global_` for loads and
`global_, shared` for stores and reductions; a prefetch
(`cp.async.bulk.prefetch.tensor...`) takes the global operand alone. im2col
forms take `pixel_box_lower=`, `pixel_box_upper=` and `offsets=`, with
`box=(pixels_per_column, channels_per_pixel)`. The op is verified as soon as
it is built; a rejection raises `TileVerifyError` with the rule's name (an
unknown opcode or format too), an operand of the wrong kind `TileUsageError`
[kernel-value].
"""

from __future__ import annotations

from typing import Iterable, Sequence

import mlir.ir as ir
from mlir.dialects import arith

from . import _native
from .builder.trace import emits_ir
from .builder.values import is_shared
from .contract import (COORD_RANGE, DIRECTIONS, MODES, RANK_RANGE, REDUCTION_OPERATORS,
                       format_info)
from .dialects import tile as _tile
from .errors import TileError, TileUsageError, TileVerifyError, verify_operation


def _unwrap(value):
    return getattr(value, "value", value) if not isinstance(value, ir.Value) else value


def _fits(value: int, bits: int) -> bool:
    """`value` is a `bits`-wide integer of either signedness (MLIR would
    silently truncate it otherwise)."""
    return -(1 << (bits - 1)) <= value < (1 << bits)


def _as_i32(value) -> ir.Value:
    """An i32 SSA value from a Python int, an index or an i32 value."""
    if isinstance(value, int):
        if value not in COORD_RANGE:
            raise TileVerifyError("coord-range", f"coordinate {value} does not fit "
                                  "the instruction's signed 32-bit coordinates")
        return arith.constant(ir.IntegerType.get_signless(32), value)
    value = _value(value)
    if isinstance(value.type, ir.IndexType):
        return arith.index_cast(ir.IntegerType.get_signless(32), value)
    if isinstance(value.type, ir.IntegerType) and ir.IntegerType(value.type).width == 32:
        return value
    raise TileUsageError("kernel-value", f"coordinates are i32 or index, got {value.type}")


def _as_int(value, width: int, name: str) -> ir.Value:
    if isinstance(value, int):
        if not _fits(value, width):
            raise TileUsageError("int-range", f"{name} {value} does not fit "
                                 f"{width} bits ({-(1 << (width - 1))}..{(1 << width) - 1})")
        return arith.constant(ir.IntegerType.get_signless(width), value)
    return _value(value)


def _value(value) -> ir.Value:
    """The MLIR value of a builder value (or an MLIR value itself)."""
    value = _unwrap(value)
    if not isinstance(value, ir.Value):
        raise TileUsageError("kernel-value", "expected an int, a builder value or an "
                             f"MLIR value, got {value!r}")
    return value


def _ints(name: str, values, rule: str) -> list[int]:
    """A field given as a sequence of ints (box, element_strides, ...); one
    beyond 64 bits breaks the field's range `rule`."""
    items = list(values) if hasattr(values, "__iter__") else None
    if items is None or not all(isinstance(v, int) for v in items):
        raise TileUsageError("kernel-value", f"{name} is a sequence of ints, "
                             f"got {values!r}")
    if not all(-(1 << 63) <= v < (1 << 63) for v in items):
        raise TileVerifyError(rule, f"{name} {values!r} does not fit 64 bits")
    return items


def _sequence(name: str, values) -> list:
    """Operands given as a sequence (coords, rows, offsets, coord_steps)."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TileUsageError("kernel-value", f"{name} is a sequence, got {values!r}")
    return list(values)


def _int(name: str, value, rule: str) -> int:
    """A 32-bit field (swizzle, ...), as an i32 attribute holds it (either
    signedness); a larger int breaks its range `rule`."""
    if not isinstance(value, int):
        raise TileUsageError("kernel-value", f"{name} is an int, got {value!r}")
    if not _fits(value, 32):
        raise TileVerifyError(rule, f"{name} {value} does not fit 32 bits")
    return value


def _enum(kind: str, value: str) -> ir.Attribute:
    return ir.Attribute.parse(f"#tile<{kind} {value}>")


def parse_opcode(opcode: str) -> dict:
    """The structured fields of a PTX opcode spelling (the C++ parser's); an
    unknown spelling is a TileVerifyError [opcode-syntax], a well-formed one
    of a rank outside 1..5 (`.6d`) [rank-range]."""
    if not isinstance(opcode, str):
        raise TileVerifyError("opcode-syntax", f"the opcode is a PTX spelling (a "
                              f"string), got {opcode!r}")
    parsed = _native.parse_ptx_opcode(opcode)
    if isinstance(parsed, str):
        _check_opcode_rank(opcode)
        raise TileVerifyError("opcode-syntax", f"'{opcode}': {parsed}")
    direction, mode, rank, reduction, cluster, multicast, hint, group = parsed
    return {
        "direction": DIRECTIONS[direction], "mode": MODES[mode], "rank": rank,
        "reduction": None if reduction < 0 else REDUCTION_OPERATORS[reduction],
        "dst_cluster": bool(cluster), "multicast": bool(multicast),
        "cache_hint": bool(hint), "cta_group": group or None,
    }


def _check_opcode_rank(opcode: str) -> None:
    """A spelling that is well formed but for its `.Nd` (`.6d`) breaks
    [rank-range], as tile-opt's verifier says, not [opcode-syntax]."""
    rank = _native.out_of_range_opcode_rank(opcode)
    if rank is not None:
        raise TileVerifyError("rank-range", f"'{opcode}': rank {rank} is "
                              f"outside {RANK_RANGE.min}..{RANK_RANGE.max}")


def format_opcode(direction: str = "load", mode: str = "tile", rank: int = 2,
                  reduction: str | None = None, dst_cluster: bool = False,
                  multicast: bool = False, cache_hint: bool = False,
                  cta_group: int | None = None) -> str:
    """The canonical PTX spelling of opcode fields (the C++ printer), the
    inverse of `parse_opcode`: `format_opcode(**parse_opcode(s))`. Fields no
    opcode has are a TileVerifyError [opcode-syntax], a rank outside 1..5
    [rank-range]."""
    for kind, value, names in (("direction", direction, DIRECTIONS),
                               ("mode", mode, MODES)):
        if value not in names:
            raise TileVerifyError("opcode-syntax", f"unknown {kind} '{value}' "
                                  f"(known: {', '.join(names)})")
    if reduction is not None and reduction not in REDUCTION_OPERATORS:
        raise TileVerifyError("opcode-syntax", f"unknown reduction '{reduction}' "
                              f"(known: {', '.join(REDUCTION_OPERATORS)})")
    if not isinstance(rank, int) or not isinstance(cta_group or 0, int):
        raise TileVerifyError("opcode-syntax", f"rank and cta_group are ints, got "
                              f"{rank!r} and {cta_group!r}")
    if rank not in RANK_RANGE:
        raise TileVerifyError("rank-range", f"rank {rank} is outside {RANK_RANGE}")
    try:
        spelling = _native.print_ptx_opcode((
            DIRECTIONS.index(direction), MODES.index(mode), rank,
            -1 if reduction is None else REDUCTION_OPERATORS.index(reduction),
            int(dst_cluster), int(multicast), int(cache_hint), cta_group or 0))
    except ValueError as err:  # the C++ printer: fields out of range
        raise TileVerifyError("opcode-syntax", str(err)) from None
    parse_opcode(spelling)  # fields no opcode has (rank 9) do not parse
    return spelling


def verify(op: ir.OpView) -> None:
    """Runs the op's verifier; raises TileVerifyError naming the rule."""
    # A rejected op is not left behind in the kernel being built.
    verify_operation(op, erase_on_failure=True)


def _format_name(format) -> str:
    """A format keyword (a dialect format name or an alias such as "tf32");
    an unknown one is the verifier's [format-match]."""
    try:
        return format_info(format).name
    except TileError as err:
        raise TileVerifyError(err.rule, err.message) from None


@emits_ir
def apply(opcode: str, *operands, box: Sequence[int], coords: Iterable,
          coord_steps: Sequence[Sequence[int]] | None = None,
          format: str | None = None, swizzle: int = 0,
          element_strides: Sequence[int] | None = None, interleave: int = 0,
          l2_promotion: int = 0, oob_fill: int = 0, mbar=None, cta_mask=None,
          cache_policy=None, gather4: Sequence | None = None,
          scatter4: Sequence | None = None,
          pixel_box_lower: Sequence[int] | None = None,
          pixel_box_upper: Sequence[int] | None = None,
          offsets: Sequence | None = None,
          tag: str | None = None) -> _tile.TmaCopyOp:
    """Builds and verifies one `tile.tma_copy` at the current insertion point
    and returns it (docs/contract.md describes every field).

    Operands, by the opcode's direction (destination first for stores, as
    in PTX): a load `apply(opcode, shared, global_, ...)`; a store or a
    reduction `apply(opcode, global_, shared, ...)`; a prefetch
    `apply(opcode, global_, ...)`. `shared` is a shared Buffer whose leading
    axes beyond the box are repeat axes (one instruction per slot);
    `global_` a Tensor parameter, or a tensor map (`tensormaps.derive`).

    - `box`, `coords`: the box extents and its first element, in elements,
      outer-to-inner (the memref's axis order; the driver's is reversed).
      Coordinates are ints or index/i32 values, signed 32-bit [coord-range].
    - `coord_steps`: per repeat axis, what each further slot adds to coords.
    - `mbar`: a load's mbarrier (`buffer.ptr_to([i])`); arm it with
      `mbarrier_arrive_expect_tx` for `transaction_bytes(op)` or
      `tx_bytes(tag)`. Stores and reductions complete through
      `bulk_commit_group` / `bulk_wait_group` instead.
    - `swizzle`: 0 none, 1 32B, 2 64B, 3 128B (4..6: sm_100). A swizzled
      buffer starts on a whole swizzle period, 8 rows of the span: 1024
      bytes for 128B, so `alloc_shared(..., align=1024)` [shared-base-alignment].
    - `oob_fill`: what a load writes for box elements outside the tensor:
      0 zeros (the driver's CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE: no NaN fill),
      1 NaN (NAN_REQUEST_ZERO_FMA; floating-point formats only [oob-fill-float]).
    - `cta_mask`: a multicast load's 16-bit mask of the cluster's CTA ranks
      that receive the box, each at the same shared offset, each completing
      its own mbarrier at the same offset.
    - `format` (default: the Tensor's dtype), `element_strides`,
      `interleave`, `l2_promotion`, `cache_policy` (with an
      `.L2::cache_hint` opcode), `gather4`/`scatter4` rows, and the im2col
      `pixel_box_lower`, `pixel_box_upper`, `offsets`.
    - `tag`: names the copy for `tx_bytes` and `prefetch_tensormap`.

    A rejected op raises TileVerifyError naming its rule and is not left in
    the kernel; an operand of the wrong kind is a TileUsageError
    [kernel-value]."""
    fields = parse_opcode(opcode)
    if fields["direction"] == "prefetch":
        if len(operands) != 1:
            raise TileVerifyError("shared-operand", "a prefetch takes exactly one "
                                  f"operand (global_), got {len(operands)}")
        shared, global_ = None, operands[0]
    elif len(operands) != 2:
        raise TileVerifyError("shared-operand", "apply takes exactly two operands "
                              "(shared, global_ or global_, shared by direction), "
                              f"got {len(operands)}")
    elif fields["direction"] == "load":
        shared, global_ = operands
    else:
        global_, shared = operands
    if gather4 is not None and scatter4 is not None:
        raise TileVerifyError("gather4-rows", "give gather4= or scatter4=, not both")
    rows = gather4 if gather4 is not None else scatter4
    keyword = "gather4" if gather4 is not None else "scatter4"
    format_name = None if format is None else _format_name(format)
    steps = None
    if coord_steps is not None:
        steps = ir.ArrayAttr.get(
            [ir.DenseI64ArrayAttr.get(_ints("coord_steps entry", step, "coord-range"))
             for step in _sequence("coord_steps", coord_steps)])
    corners = {name: None if value is None else
               ir.DenseI64ArrayAttr.get(_ints(name, value, "im2col-corners"))
               for name, value in (("pixel_box_lower", pixel_box_lower),
                                   ("pixel_box_upper", pixel_box_upper))}
    knobs = {name: _int(name, value, rule) for name, value, rule in (
        ("swizzle", swizzle, "swizzle-range"),
        ("interleave", interleave, "interleave-range"),
        ("l2_promotion", l2_promotion, "l2-promotion-range"),
        ("oob_fill", oob_fill, "oob-fill-range"))}
    if tag is not None and not isinstance(tag, str):
        raise TileUsageError("kernel-value", f"tag is a string, got {tag!r}")
    op = _tile.TmaCopyOp(
        shared=None if shared is None else _value(shared),
        global_=_value(global_),
        coords=[_as_i32(c) for c in _sequence("coords", coords)],
        rows=[_as_i32(r) for r in _sequence(keyword, rows or [])],
        offsets=[_as_int(o, 16, "offset") for o in _sequence("offsets", offsets or [])],
        direction=_enum("direction", fields["direction"]),
        mode=_enum("mode", fields["mode"]),
        rank=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), fields["rank"]),
        box=ir.DenseI64ArrayAttr.get(_ints("box", box, "box-extent")),
        mbar=None if mbar is None else _value(mbar),
        cta_mask=None if cta_mask is None else _as_int(cta_mask, 16, "cta_mask"),
        cache_policy=(None if cache_policy is None
                      else _as_int(cache_policy, 64, "cache_policy")),
        reduction=(_enum("reduction", fields["reduction"])
                   if fields["reduction"] else None),
        dst_cluster=fields["dst_cluster"], multicast=fields["multicast"],
        cache_hint=fields["cache_hint"], cta_group=fields["cta_group"],
        coord_steps=steps,
        format=None if format_name is None else _enum("format", format_name),
        element_strides=(None if element_strides is None else
                         ir.DenseI64ArrayAttr.get(_ints("element_strides",
                                                        element_strides,
                                                        "element-strides-range"))),
        tag=tag, **knobs, **corners)
    try:
        verify(op)
    except TileVerifyError as err:
        raise _operand_order_hint(err, fields["direction"], shared, global_) from None
    # The op has one row operand group: which keyword gave it is checked
    # once the op has passed its own rules (the textual form's verdict).
    if rows is not None and fields["mode"] != keyword:
        op.operation.erase()
        raise TileVerifyError("gather4-rows", f"{keyword}= needs the tile::{keyword} "
                              f"opcode, the opcode's mode is {fields['mode']}")
    return op


def _in_shared(value) -> bool:
    """Whether a builder/MLIR operand is a memref of shared memory."""
    value = _unwrap(value)
    return (isinstance(value, ir.Value) and isinstance(value.type, ir.MemRefType)
            and is_shared(ir.MemRefType(value.type).memory_space))


def _operand_order_hint(err: TileVerifyError, direction: str, shared,
                        global_) -> TileVerifyError:
    """`err`, with a hint where the operands came in the other direction's
    order (a shared buffer where the global tensor goes, and back)."""
    if err.rule != "shared-address-space" or shared is None or \
            not _in_shared(global_) or _in_shared(shared):
        return err
    order = ("apply(opcode, shared, global_, ...)" if direction == "load"
             else "apply(opcode, global_, shared, ...)")
    return TileVerifyError(err.rule, f"{err.message}; a {direction} takes its operands "
                           f"as {order}: these look swapped")


@emits_ir
def prefetch_tensormap(tag: str) -> None:
    """`prefetch.tensormap` of every distinct tensor map the copies tagged
    `tag` use (opt-in: call it early, from one thread)."""
    _tile.PrefetchTensorMapOp(_tag(tag, "prefetch_tensormap"))


@emits_ir
def tx_bytes(tag: str) -> ir.Value:
    """An i32 holding the transaction bytes of every copy tagged `tag` in
    this kernel (checked when the kernel is verified, folded to a constant).
    Emit it before the copies, for `mbarrier_arrive_expect_tx`."""
    return _tile.TxBytesOp(ir.IntegerType.get_signless(32), _tag(tag, "tx_bytes")).result


def _tag(tag, what: str) -> str:
    """[kernel-value]: a copy's tag is a str (as apply's `tag=`)."""
    if not isinstance(tag, str):
        raise TileUsageError("kernel-value", f"{what}: a tag is a string (a copy's "
                             f"tag=), got {tag!r}")
    return tag


def transaction_bytes(op) -> int:
    """Bytes an mbarrier phase must expect for `op` (all slots, payload only)."""
    return _native.transaction_bytes(getattr(op, "operation", op))


def slot_count(op) -> int:
    """Instructions `op` issues (one per repeat slot)."""
    return _native.slot_count(getattr(op, "operation", op))


def find_copies(module) -> list:
    """Every `tile.tma_copy` in `module`, in program order."""
    found = []

    def visit(op):
        if op.name == "tile.tma_copy":
            found.append(op)
        return ir.WalkResult.ADVANCE

    getattr(module, "operation", module).walk(visit)
    return found
