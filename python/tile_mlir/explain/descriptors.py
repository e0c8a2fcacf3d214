"""The wgmma descriptors of the IR that read an explained load's image
(`tile-mlir explain --wgmma op=N`): each `tile.wgmma_descriptor` of the
copy's function whose buffer lies in the copy's buffer at a byte offset the
IR fixes (the same memref, or views of one allocation at constant offsets),
as the fields a --wgmma SPEC takes."""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir

from . import source as _src

# A tile's MLIR element type -> its wgmma input type (8-bit integers are
# signless in the IR: s8 unless type=u8 is given).
_PTX = {"bf16": "bf16", "f16": "f16", "f32": "tf32", "f8E4M3FN": "e4m3",
        "f8E5M2": "e5m2", "i8": "s8", "ui8": "u8", "si8": "s8"}
_SPANS = {"none": 0, "b32": 32, "b64": 64, "b128": 128}


@dataclass(frozen=True)
class IrDescriptor:
    """One tile.wgmma_descriptor reading the copy's image: its --wgmma
    fields and where it stands in the input."""
    index: int          # among the function's tile.wgmma_descriptor ops
    text: str           # the op, as printed
    spec: dict          # start, lbo, sbo, swizzle, base, role, major, n, type, step


def _root(value: ir.Value):
    """(allocation key, byte offset) of a memref through memref.view ops at
    constant offsets, or None where the IR does not fix the offset."""
    offset = 0
    for _ in range(64):
        if not isinstance(value, ir.OpResult):
            return ("argument", value), offset
        owner = value.owner
        if owner.name == "memref.view":
            at = _src._constant(owner.operands[1])
            if at is None:
                return None
            offset += at
            value = owner.operands[0]
        elif owner.name == "gpu.dynamic_shared_memory":
            return ("dynamic",), offset   # every such op is the one window
        elif owner.name == "memref.get_global":
            return ("global", str(owner.attributes["name"])), offset
        else:
            return ("value", value), offset
    return None


def _width(t: ir.Type) -> int:
    for cls in (ir.IntegerType, ir.FloatType):
        try:
            return cls(t).width
        except (ValueError, TypeError):
            continue
    return 8


def _bytes(value: ir.Value) -> int:
    t = ir.MemRefType(value.type)
    count = 1
    for d in t.shape:
        count *= d
    return count * _width(t.element_type) // 8


def _function(op: ir.Operation):
    parent = op.parent
    while parent is not None and parent.name not in ("gpu.func", "func.func", "llvm.func"):
        parent = parent.parent
    return parent


def _descriptor_ops(func: ir.Operation) -> list:
    """The function's tile.wgmma_descriptor ops, in program order."""
    found = []

    def visit(op):
        if op.name == "tile.wgmma_descriptor":
            found.append(op)
        return ir.WalkResult.ADVANCE

    func.walk(visit)
    return found


def descriptors_of(copy: ir.Operation) -> list:
    """The IrDescriptors reading `copy`'s shared buffer (module docstring)."""
    shared = _src.operand_groups(copy).get("shared") or []
    func = _function(copy)
    if not shared or func is None:
        return []
    where = _root(shared[0])
    if where is None:
        return []
    size = _bytes(shared[0])
    out = []
    for index, op in enumerate(_descriptor_ops(func)):
        buffer = op.operands[0]
        if not isinstance(buffer.type, ir.MemRefType):
            continue
        mine = _root(buffer)
        if mine is None or mine[0] != where[0]:
            continue
        start = mine[1] - where[1]
        if not (start < size and start + _bytes(buffer) > 0):
            continue
        element = str(ir.MemRefType(buffer.type).element_type)
        step = _src._constant(op.operands[1])
        if step is None:
            continue   # a K step chosen at run time: no one start to show
        lbo, sbo = _src.attribute(op, "lbo"), _src.attribute(op, "sbo")
        swizzle = _SPANS.get(_src.attribute(op, "swizzle"), 0)
        major = _src.attribute(op, "major").upper()
        ptx = _PTX.get(element, element)
        spec = {"start": start, "lbo": lbo, "sbo": sbo, "swizzle": swizzle,
                "base": _src.attribute(op, "base_offset", 0),
                "role": _src.attribute(op, "matrix").upper(), "major": major,
                "n": _src.attribute(op, "rows"), "type": ptx, "step": step}
        out.append(IrDescriptor(index, str(op), spec))
    return out


__all__ = ["IrDescriptor", "descriptors_of"]
