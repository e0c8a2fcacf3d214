"""Warpgroup MMA (sm_90a): `wgmma.mma_async` into an `Accumulator`, its
fence / commit / wait, matrix descriptors of shared tiles, and the
stmatrix epilogue of an accumulator into a shared tile.

    acc = wgmma_accumulator(128, "f32")
    wgmma_fence()
    for k in range(4):          # K = 64 bf16: four k16 steps along a 128-byte row
        a = wgmma_descriptor(a_tile, lbo=16, sbo=1024, swizzle=128, offset=32 * k)
        b = wgmma_descriptor(b_tile, lbo=16, sbo=1024, swizzle=128, offset=32 * k)
        acc = wgmma(acc, a, b, "bf16", scale_d=k > 0)
    wgmma_commit_group()
    wgmma_wait_group(0)

The legal shapes and types are tile_mlir.wgmma's (the PTX ISA's). A
descriptor-A wgmma with a constant scale_d is the upstream
`nvvm.wgmma.mma_async`; an A in registers, or a scale_d decided at run
time, which that op does not take, is the same instruction as inline PTX.
"""

from __future__ import annotations

from math import prod
from typing import Sequence

import mlir.ir as ir
from mlir.dialects import arith, llvm, memref, nvvm

from .. import contract
from .. import wgmma as spec
from ..dialects import tile as _tile
from ..emulator.swizzle import swizzle_address
from ..errors import TileUsageError, verify_operation
from .address_ops import IrOps
from .dtypes import element_type
from .matrix import stmatrix_x4
from .pointers import _buffer, base_address
from .threads import lane_id
from .trace import emits_ir
from .values import Buffer, Expr, Pointer, int_constant, is_shared
from .warpgroup import warp_in_warpgroup

_NVVM_TYPES = {name: getattr(nvvm.WGMMATypes, name)
               for name in ("f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8", "f32", "s32")}


def _i64() -> ir.Type:
    return ir.IntegerType.get_signless(64)


def _register_type(d_type: str) -> ir.Type:
    """An accumulator register's MLIR type: f32, or i32 (s32, f16 pairs)."""
    return ir.F32Type.get() if d_type == "f32" else ir.IntegerType.get_signless(32)


class Accumulator:
    """A wgmma accumulator: one thread's registers of a 64 x N tile of type
    `dtype` ("f32", "f16" or "s32"), held as one LLVM struct value."""

    def __init__(self, value: ir.Value, n: int, dtype: str):
        self.value = value
        self.n = n
        self.dtype = dtype

    @emits_ir
    def registers(self) -> list[ir.Value]:
        """The struct's registers (f32, or i32: s32 values, f16 pairs)."""
        kind = _register_type(self.dtype)
        return [llvm.extractvalue(kind, self.value, [i]) for i in range(self.size)]

    @property
    def size(self) -> int:
        """Registers per thread: N/2 (f32, s32) or N/4 (f16)."""
        return self.n // 4 if self.dtype == "f16" else self.n // 2

    @staticmethod
    def struct_type(n: int, dtype: str) -> ir.Type:
        """The LLVM struct type of an accumulator of N and `dtype`."""
        count = n // 4 if dtype == "f16" else n // 2
        name = "f32" if dtype == "f32" else "i32"
        return ir.Type.parse("!llvm.struct<(" + ", ".join([name] * count) + ")>")

    @staticmethod
    @emits_ir
    def from_registers(registers: Sequence[ir.Value], n: int, dtype: str) -> "Accumulator":
        """An accumulator of N and `dtype` holding `registers` (as
        registers() returns them: for loops that carry them)."""
        struct = llvm.mlir_undef(Accumulator.struct_type(n, dtype))
        for i, reg in enumerate(registers):
            struct = llvm.insertvalue(struct, reg, [i])
        return Accumulator(struct, n, dtype)

    @emits_ir
    def coords(self, i: int) -> tuple[Expr, Expr]:
        """(row, column) in the 64 x N tile of register `i` of this thread
        (index values). An f16 register holds columns column and column + 1.

        Warp w of the warpgroup holds rows 16w..16w+15: lane l has rows
        16w + l/4 and 8 more, and per 8 columns, columns 2(l%4) and one more."""
        if not isinstance(i, int) or not 0 <= i < self.size:
            raise TileUsageError("int-range", f"accumulator register {i!r} is outside "
                                 f"0..{self.size - 1}")
        element = 2 * i if self.dtype == "f16" else i  # of the f32 layout
        lane = lane_id()
        row = warp_in_warpgroup() * 16 + lane // 4 + 8 * ((element // 2) % 2)
        col = lane % 4 * 2 + (8 * (element // 4) + element % 2)
        return row, col


@emits_ir
def wgmma_accumulator(n: int, dtype: str = "f32", fill: float | int = 0) -> Accumulator:
    """An accumulator of a 64 x `n` tile of `dtype` ("f32", "f16", "s32" or
    their builder names), every element `fill` (an f16 accumulator: 0 only)."""
    dtype = spec.ptx_type(dtype, "accumulator type", ("f32", "f16", "s32"))
    if isinstance(n, bool) or not isinstance(n, int) or n not in spec.legal_n("f16"):
        raise TileUsageError("wgmma-shape", f"accumulator N {n!r} is not a multiple of "
                             "8 from 8 to 256")
    if dtype == "f32":
        value = arith.constant(ir.F32Type.get(), float(fill))
    elif dtype == "s32" or fill == 0:
        value = int_constant(ir.IntegerType.get_signless(32), int(fill), "accumulator fill")
    else:
        raise TileUsageError("kernel-value", f"an f16 accumulator starts at 0, got {fill!r}")
    count = n // 4 if dtype == "f16" else n // 2
    return Accumulator.from_registers([value] * count, n, dtype)


@emits_ir
def wgmma_descriptor(tile, lbo: int, sbo: int, swizzle: int = 0, base_offset: int = 0,
                     offset: int = 0) -> Expr:
    """The 64-bit matrix descriptor (an i64 value) of the shared tile at
    `tile` + `offset` bytes: `tile` a shared buffer, a shared Pointer or a
    shared address (index or i32 value). The other fields are
    tile_mlir.wgmma.matrix_descriptor's, checked there
    ([wgmma-descriptor-field]); `offset` is a multiple of 16 bytes."""
    fields = spec.descriptor_fields(lbo, sbo, swizzle, base_offset)
    if isinstance(offset, bool) or not isinstance(offset, int) or offset % 16:
        raise TileUsageError("wgmma-descriptor-field", f"offset {offset!r} is not a "
                             "multiple of 16 bytes")
    i64 = _i64()
    addr = arith.addi(_shared_address(tile), int_constant(i64, offset, "offset"))
    start = arith.shrui(arith.andi(addr, arith.constant(i64, 0x3FFFF)),
                        arith.constant(i64, 4))
    return Expr(arith.ori(start, arith.constant(i64, _signed64(fields))))


_MATRICES = ("a", "b")
_MAJORS = ("k", "mn")
# tile.tma_copy's swizzle values (CUtensorMapSwizzle), as tile's enum spells them.
_SWIZZLE_NAMES = ("none", "b32", "b64", "b128", "b128_atom_32b", "b128_atom_32b_flip_8b",
                  "b128_atom_64b")


def _choice(value, what: str, choices) -> str:
    if value not in choices:
        raise TileUsageError("kernel-value", f"{what} is one of {', '.join(map(repr, choices))}, "
                             f"got {value!r}")
    return value


def _k_step(k_step) -> ir.Value:
    """An index constant for an int; an index or integer value as given."""
    if isinstance(k_step, int) and not isinstance(k_step, bool):
        return int_constant(ir.IndexType.get(), k_step, "k_step")
    value = Expr.of(k_step) if isinstance(k_step, (Expr, ir.Value)) else None
    if value is None or not isinstance(value.type, (ir.IndexType, ir.IntegerType)):
        raise TileUsageError("kernel-value", "k_step is an int or an index or integer "
                             f"value, got {k_step!r}")
    return value


@emits_ir
def wgmma_tile_descriptor(tile, k_step=0, *, matrix: str, rows: int, k: int, lbo: int,
                          sbo: int, swizzle: int = 0, major: str = "k",
                          base_offset: int = 0, dtype: str | None = None) -> Expr:
    """The matrix descriptor (an i64 value) of instruction K step `k_step`
    of an operand tile, as a `tile.wgmma_descriptor` op: the verifier then
    checks the tile against the wgmma and against the `tile.tma_copy` that
    fills it (docs/rules.md, wgmma-*).

    `tile` is a shared buffer (or a shared Pointer, with `dtype`); `matrix`
    "a" (rows = 64) or "b" (rows = N); `k` the tile's K extent; `major` "k"
    or "mn" (transposed, f16/bf16); `swizzle` the copy's swizzle value (0
    none, 1 32B, 2 64B, 3 128B); `lbo`, `sbo` bytes and `base_offset` as in
    tile_mlir.wgmma.matrix_descriptor (checked there,
    [wgmma-descriptor-field]). A K-major 128B bf16 A tile of 64 x 64:

        wgmma_tile_descriptor(a_tile, k, matrix="a", rows=64, k=64,
                              lbo=16, sbo=1024, swizzle=3)"""
    _choice(matrix, "matrix", _MATRICES)
    _choice(major, "major", _MAJORS)
    if isinstance(swizzle, bool) or not isinstance(swizzle, int) \
            or not 0 <= swizzle < len(_SWIZZLE_NAMES):
        raise TileUsageError("wgmma-descriptor-field", f"swizzle {swizzle!r} is not a "
                             f"copy's swizzle value 0..{len(_SWIZZLE_NAMES) - 1}")
    span = {0: 0, 1: 32, 2: 64, 3: 128}.get(swizzle, 128)
    spec.descriptor_fields(lbo, sbo, span, base_offset)
    for value, what in ((rows, "rows"), (k, "k")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise TileUsageError("kernel-value", f"{what} is a positive int, got {value!r}")
    if isinstance(tile, Pointer):
        if dtype is None:
            raise TileUsageError("wgmma-tile-dtype", "a pointer tile names its dtype")
        buffer = tile.value
    else:
        buffer = _buffer(tile, "wgmma_tile_descriptor").value
    i64 = ir.IntegerType.get_signless(64)
    op = _tile.WgmmaDescriptorOp(
        i64, buffer, _k_step(k_step),
        ir.Attribute.parse(f"#tile<matrix {matrix}>"),
        ir.Attribute.parse(f"#tile<major {major}>"),
        ir.Attribute.parse(f"#tile<swizzle {_SWIZZLE_NAMES[swizzle]}>"),
        *(ir.IntegerAttr.get(i64, v) for v in (rows, k, lbo, sbo)),
        element_type=None if dtype is None else ir.TypeAttr.get(element_type(dtype)),
        base_offset=ir.IntegerAttr.get(i64, base_offset))
    verify_operation(op, erase_on_failure=True)
    return Expr(op.result)


def _signed64(value: int) -> int:
    """An unsigned 64-bit value as the signed int an i64 constant takes."""
    return value - (1 << 64) if value >= 1 << 63 else value


def _shared_address(tile) -> ir.Value:
    """A shared tile's address as i64."""
    i64 = _i64()
    if isinstance(tile, Pointer):
        return llvm.ptrtoint(i64, tile.value)
    if isinstance(tile, Buffer) or (isinstance(tile, ir.Value)
                                    and isinstance(tile.type, ir.MemRefType)):
        buf = _buffer(tile, "wgmma_descriptor")
        if not is_shared(buf.type.memory_space):
            raise TileUsageError("kernel-value", "wgmma_descriptor takes a shared tile; "
                                 f"got a buffer of type {buf.type}")
        return arith.index_cast(i64, memref.extract_aligned_pointer_as_index(buf.value))
    value = Expr.of(tile) if isinstance(tile, (Expr, ir.Value)) else None
    if value is None or not isinstance(value.type, (ir.IndexType, ir.IntegerType)):
        raise TileUsageError("kernel-value", "wgmma_descriptor takes a shared buffer, "
                             f"pointer or address, got {tile!r}")
    if isinstance(value.type, ir.IndexType):
        return arith.index_cast(i64, value)
    return arith.extui(i64, value) if ir.IntegerType(value.type).width < 64 else value


def _descriptor(value, what: str) -> ir.Value:
    """An i64 descriptor operand: an i64 value, or an int (an unsigned
    64-bit descriptor, e.g. tile_mlir.wgmma.matrix_descriptor's)."""
    i64 = _i64()
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < 1 << 64:
            raise TileUsageError("int-range", f"{what} {value} is not a 64-bit descriptor")
        return arith.constant(i64, _signed64(value))
    if isinstance(value, (Expr, ir.Value)) and Expr.of(value).type == i64:
        return Expr.of(value)
    raise TileUsageError("kernel-value", f"{what} is an i64 matrix descriptor "
                         f"(wgmma_descriptor) or an int, got {value!r}")


def _a_registers(a) -> list[ir.Value] | None:
    """A's four i32 registers when `a` is a list or tuple; else None."""
    if not isinstance(a, (list, tuple)):
        return None
    i32 = ir.IntegerType.get_signless(32)
    regs = [Expr.of(r) if isinstance(r, (Expr, ir.Value)) else None for r in a]
    if len(regs) != 4 or any(r is None or r.type != i32 for r in regs):
        raise TileUsageError("kernel-value", "wgmma's A in registers is four i32 "
                             f"values (this thread's share of the 64 x K tile), got {a!r}")
    return regs


def _scale_d(scale_d) -> bool | ir.Value:
    """A bool, or an i1 value decided at run time."""
    if isinstance(scale_d, bool):
        return scale_d
    if isinstance(scale_d, (Expr, ir.Value)) and \
            Expr.of(scale_d).type == ir.IntegerType.get_signless(1):
        return Expr.of(scale_d)
    raise TileUsageError("kernel-value", "wgmma's scale_d is a bool or an i1 value "
                         f"(False: D = A*B, True: D = A*B + D), got {scale_d!r}")


@emits_ir
def wgmma(acc: Accumulator, a, b, a_type: str, b_type: str | None = None, *,
          scale_d=True, negate_a: bool = False, negate_b: bool = False,
          trans_a: bool = False, trans_b: bool = False,
          satfinite: bool = False) -> Accumulator:
    """`wgmma.mma_async` m64nNkK: D = A*B + D (`scale_d` True) or D = A*B
    (False; an i1 value decides at run time), issued by the whole
    warpgroup; returns the new accumulator (read it after
    `wgmma_wait_group`).

    `acc` fixes N and the accumulator type. `a` is A's matrix descriptor
    (an i64, see `wgmma_descriptor`; 64 x K, K-major unless `trans_a`) or
    A's four i32 registers (this thread's share); `b` is B's descriptor
    (K x N, K-major unless `trans_b`). `a_type` / `b_type` (default
    `a_type`) are PTX type names ("bf16", "tf32", "e4m3", "s8", ...) or the
    builder's dtype names. `negate_a` / `negate_b` negate floating-point
    inputs (imm-scale -1); `satfinite` clamps s32 results.

    Illegal combinations are TileUsageErrors: [wgmma-dtype] (types, and the
    flags a type does not allow), [wgmma-shape] (N), [kernel-value]
    (operand kinds)."""
    if not isinstance(acc, Accumulator):
        raise TileUsageError("kernel-value", "wgmma's acc is an Accumulator "
                             f"(wgmma_accumulator), got {acc!r}")
    regs = _a_registers(a)
    shape = spec.check_shape(acc.n, a_type, a_type if b_type is None else b_type,
                             acc.dtype, negate_a=negate_a, negate_b=negate_b,
                             trans_a=trans_a, trans_b=trans_b, satfinite=satfinite,
                             a_in_registers=regs is not None)
    b_desc = _descriptor(b, "wgmma's b")
    scale = _scale_d(scale_d)
    if regs is None and isinstance(scale, bool):
        a_desc = _descriptor(a, "wgmma's a")
        value = nvvm.wgmma_mma_async(
            acc.value.type, acc.value, a_desc, b_desc,
            ir.Attribute.parse(f"#nvvm.shape<m = {spec.M}, n = {shape.n}, k = {shape.k}>"),
            _NVVM_TYPES[shape.a], _NVVM_TYPES[shape.b], _NVVM_TYPES[shape.d],
            nvvm.WGMMAScaleOut.one if scale else nvvm.WGMMAScaleOut.zero,
            nvvm.WGMMAScaleIn.neg if negate_a else nvvm.WGMMAScaleIn.one,
            nvvm.WGMMAScaleIn.neg if negate_b else nvvm.WGMMAScaleIn.one,
            nvvm.MMALayout.col if trans_a else nvvm.MMALayout.row,
            nvvm.MMALayout.row if trans_b else nvvm.MMALayout.col,
            satfinite=nvvm.MMAIntOverflow.satfinite if satfinite else None)
        return Accumulator(value, acc.n, acc.dtype)
    a_operands = regs if regs is not None else [_descriptor(a, "wgmma's a")]
    if isinstance(scale, bool):
        scale = arith.constant(ir.IntegerType.get_signless(1), int(scale))
    return _inline_wgmma(acc, shape, a_operands, b_desc, scale,
                         (negate_a, negate_b, trans_a, trans_b, satfinite))


def _inline_wgmma(acc: Accumulator, shape: spec.Shape, a_operands: list[ir.Value],
                  b_desc: ir.Value, scale: ir.Value, flags: tuple) -> Accumulator:
    """The wgmma as inline PTX: what the upstream op does not take (A in
    registers, a run-time scale_d), spelled as that op spells the rest."""
    negate_a, negate_b, trans_a, trans_b, satfinite = flags
    count = shape.registers
    a_regs = len(a_operands) == 4
    first_a = 2 * count
    b_at = first_a + len(a_operands)
    a_text = ("{" + ", ".join(f"${first_a + i}" for i in range(4)) + "}" if a_regs
              else f"${first_a}")
    imms = []
    if shape.d != "s32":
        imms += [-1 if negate_a else 1, -1 if negate_b else 1]
    if shape.a in ("f16", "bf16"):
        imms += ([] if a_regs else [int(trans_a)]) + [int(trans_b)]
    opcode = shape.instruction + (".satfinite" if satfinite else "")
    d_text = "{" + ", ".join(f"${i}" for i in range(count)) + "}"
    tail = "".join(f", {v}" for v in imms)
    asm = ("{\n.reg .pred p;\n"
           f"setp.ne.b32 p, ${b_at + 1}, 0;\n"
           f"{opcode} {d_text}, {a_text}, ${b_at}, p{tail};\n}}\n")
    out = "=f" if shape.d == "f32" else "=r"
    constraints = ",".join([out] * count + [str(i) for i in range(count)]
                           + ["r" if a_regs else "l"] * len(a_operands) + ["l", "r"])
    scale_i32 = arith.extui(ir.IntegerType.get_signless(32), scale)
    value = llvm.inline_asm(acc.value.type, acc.registers() + a_operands + [b_desc, scale_i32],
                            asm, constraints, has_side_effects=True)
    return Accumulator(value, acc.n, acc.dtype)


@emits_ir
def wgmma_fence() -> None:
    """`wgmma.fence.sync.aligned`: orders this warpgroup's register and
    shared-memory accesses before the wgmmas that follow (issue it before
    the first wgmma, and after writing an accumulator or A registers)."""
    nvvm.wgmma_fence_aligned()


@emits_ir
def wgmma_commit_group() -> None:
    """`wgmma.commit_group.sync.aligned`: closes a wgmma-group of this
    warpgroup's uncommitted wgmmas."""
    nvvm.wgmma_commit_group_sync_aligned()


@emits_ir
def wgmma_wait_group(n: int = 0, *accumulators: Accumulator) -> tuple[Accumulator, ...]:
    """`wgmma.wait_group.sync.aligned n`: waits until at most `n` of this
    warpgroup's committed wgmma-groups are pending. Returns `accumulators`
    passed through a register barrier that the wait orders: read the
    results from the returned accumulators, so no read of them moves above
    the wait."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TileUsageError("kernel-value", f"wgmma_wait_group n is an int, got {n!r}")
    if not 0 <= n < 1 << 31:
        raise TileUsageError("int-range", f"wgmma_wait_group n {n} is outside "
                             f"0..{(1 << 31) - 1}")
    for acc in accumulators:
        if not isinstance(acc, Accumulator):
            raise TileUsageError("kernel-value", "wgmma_wait_group passes Accumulators "
                                 f"through, got {acc!r}")
    nvvm.wgmma_wait_group_sync_aligned(n)
    return tuple(_after_wait(acc) for acc in accumulators)


def _after_wait(acc: Accumulator) -> Accumulator:
    """`acc`'s registers through an empty side-effecting asm (each tied to
    itself): their uses stay after the wait."""
    count = acc.size
    out = "=f" if acc.dtype == "f32" else "=r"
    constraints = ",".join([out] * count + [str(i) for i in range(count)])
    value = llvm.inline_asm(acc.value.type, acc.registers(), "", constraints,
                            has_side_effects=True)
    return Accumulator(value, acc.n, acc.dtype)


_EPILOGUE_TYPES = {"bf16": "bfloat16", "bfloat16": "bfloat16", "f16": "float16",
                   "float16": "float16"}
# The swizzles an epilogue tile may take: the copy's values (tma.apply's and
# wgmma_tile_descriptor's spelling), those a sm_90 TMA store reads.
_EPILOGUE_SWIZZLES = (0, 1, 2, 3)


def _pack_pair(low: ir.Value, high: ir.Value, narrow: ir.Type) -> ir.Value:
    """Two f32 values rounded to nearest even into one i32 of 16-bit halves
    (the lower column in the low half, as stmatrix stores it)."""
    i16, i32 = ir.IntegerType.get_signless(16), ir.IntegerType.get_signless(32)
    halves = [arith.extui(i32, arith.bitcast(i16, arith.truncf(narrow, v)))
              for v in (low, high)]
    return arith.ori(halves[0], arith.shli(halves[1], arith.constant(i32, 16)))


def epilogue_tile_shape(n: int, swizzle: int = 0) -> tuple[int, ...]:
    """The shape of wgmma_store_accumulator's tile of a 64 x `n`
    accumulator: (64, n) unswizzled; swizzled, (blocks, 64, w) with w =
    span / 2 columns (one swizzle span of 16-bit elements) and blocks =
    ceil(n / w): block b holds columns bw..bw+w-1, each row one span."""
    if swizzle == 0:
        return (spec.M, n)
    w = contract.swizzle_span(swizzle) // 2
    return (-(-n // w), spec.M, w)


def epilogue_lane_address(base, warp, lane, group: int, n: int, swizzle: int, ops):
    """The shared address that `lane` of `warp` gives stmatrix.x4 for
    columns 16*group..+15 of a 64 x `n` tile at address `base`, written over
    `ops` (IrOps in the kernel, IntOps in a CPU model). Lanes 8m..8m+7
    address rows 0-7 of matrix m: rows 16*warp + 8(m%2) + 0..7, columns
    16*group + 8(m/2) + 0..7. Swizzled, the logical byte of the tile image
    (epilogue_tile_shape) goes through the emulator's swizzle map of the
    absolute address, as the copy engine applies it."""
    matrix, row_in = ops.div(lane, 8), ops.mod(lane, 8)
    row = warp * 16 + row_in + ops.mod(matrix, 2) * 8
    column = ops.div(matrix, 2) * 8 + 16 * group
    if swizzle == 0:
        return base + (row * n + column) * 2
    span = contract.swizzle_span(swizzle)
    block, first = divmod(16 * group, span // 2)   # a 16-column group lies in one block
    logical = block * spec.M * span + row * span + (column - 16 * group + first) * 2
    return swizzle_address(base + logical, swizzle, ops=ops)


def _static_view_offset(buf: Buffer) -> int | None:
    """The byte offset of a view of the dynamic window (1024-byte aligned)
    when it is a constant; None for any other buffer."""
    def op(value):
        owner = value.owner
        return getattr(owner, "operation", owner) if isinstance(
            owner, (ir.Operation, ir.OpView)) else None

    view = op(buf.value)
    if view is None or view.name != "memref.view":
        return None
    src, shift = op(view.operands[0]), op(view.operands[1])
    if src is None or src.name != "gpu.dynamic_shared_memory" \
            or shift is None or shift.name != "arith.constant":
        return None
    return ir.IntegerAttr(shift.attributes["value"]).value


@emits_ir
def wgmma_store_accumulator(acc: Accumulator, tile, *, swizzle: int = 0) -> None:
    """Stores an accumulator (64 x N) into `tile`, a shared buffer of bf16
    or f16, with `stmatrix.sync.aligned.m8n8.x4.b16`: each warp of the
    warpgroup writes its 16 rows, 16 columns per instruction (an 8x8 block
    of the accumulator is one stmatrix matrix: lane l holds row l/4,
    columns 2(l%4) and one more). Before a TMA store reads the tile, order
    these writes with fence_proxy_async_shared_cta() and a CTA barrier.

    An f32 accumulator is rounded to the tile's type, to nearest even. An
    f16 accumulator's registers already hold f16 pairs: they are stored as
    they are, into an f16 tile only. Into bf16 it is refused
    ([wgmma-dtype]), not converted: bf16 keeps 7 fraction bits to f16's 10,
    so each value would be rounded a second time (after the f16
    accumulation's own rounding), which no plain store does; accumulate in
    f32 for a bf16 tile.

    `swizzle` is the TMA store's swizzle value (as tma.apply takes it: 0
    none, 1 32B, 2 64B, 3 128B). 0: `tile` is 64 x N, row-major. Swizzled:
    `tile` is a row-major [ceil(N / w), 64, w] buffer, w = span / 2 (64
    columns for 128B, 32 for 64B, 16 for 32B): block b is the image of the
    TMA store of box (64, w) at column b*w (or the N - b*w columns left),
    each row one span, its 16-byte chunks placed by the swizzle of their
    absolute shared address (the copy engine's map,
    tile_mlir.emulator.swizzle). That store needs each block's base aligned
    to the swizzle period (1024 bytes for 128B, 512 for 64B, 256 for 32B):
    checked here for a dynamic_shared view ([shared-base-alignment]); other
    buffers are checked by the tile.tma_copy verifier of the store.

    [wgmma-dtype]: the accumulator is s32, or f16 with a bf16 tile;
    [wgmma-shape]: N is not a multiple of 16; [kernel-value]: `swizzle` is
    not 0..3, or `tile` is not a shared row-major buffer of
    epilogue_tile_shape(N, swizzle) of bf16 or f16."""
    if not isinstance(acc, Accumulator):
        raise TileUsageError("kernel-value", "wgmma_store_accumulator takes an "
                             f"Accumulator, got {acc!r}")
    if acc.dtype not in ("f32", "f16"):
        raise TileUsageError("wgmma-dtype", "wgmma_store_accumulator stores an f32 or f16 "
                             f"accumulator, got {acc.dtype}")
    if acc.n % 16:
        raise TileUsageError("wgmma-shape", f"wgmma_store_accumulator stores 16 "
                             f"columns an instruction; N = {acc.n} is not a multiple of 16")
    if isinstance(swizzle, bool) or swizzle not in _EPILOGUE_SWIZZLES:
        names = ", ".join(f"{s} ({contract.SWIZZLE_TABLE[s].name})" for s in _EPILOGUE_SWIZZLES)
        raise TileUsageError("kernel-value", f"wgmma_store_accumulator's swizzle is one of "
                             f"{names} (a TMA store's swizzle), got {swizzle!r}")
    buf = _buffer(tile, "wgmma_store_accumulator")
    kind = buf.type
    names = {element_type(name): name for name in set(_EPILOGUE_TYPES.values())}
    shape = epilogue_tile_shape(acc.n, swizzle)
    strides = [prod(shape[i + 1:]) for i in range(len(shape))]
    if (not is_shared(kind.memory_space) or tuple(kind.shape) != shape
            or kind.element_type not in names
            or list(kind.get_strides_and_offset()[0]) != strides):
        what = " x ".join(map(str, shape))
        raise TileUsageError("kernel-value", "wgmma_store_accumulator's tile is a "
                             f"shared {what} buffer of bf16 or f16 (row-major"
                             + (f", swizzle {swizzle}" if swizzle else "") + f"), got {kind}")
    if acc.dtype == "f16" and names[kind.element_type] != "float16":
        raise TileUsageError("wgmma-dtype", "wgmma_store_accumulator stores an f16 "
                             "accumulator into an f16 tile only (f16 -> bf16 rounds each "
                             f"value: accumulate in f32 for bf16), got a tile of {kind}")
    period = contract.SWIZZLE_TABLE[swizzle].period_bytes
    offset = _static_view_offset(buf) if swizzle else None
    if offset is not None and offset % period:
        raise TileUsageError("shared-base-alignment", "wgmma_store_accumulator's swizzled "
                             f"tile starts at dynamic shared byte {offset}, not a multiple "
                             f"of the swizzle period {period}")
    regs = acc.registers()
    lane, warp = lane_id(), warp_in_warpgroup()
    base = base_address(buf)
    for group in range(acc.n // 16):
        # Matrices: rows 0-7 / 8-15 of columns 16g..+7, then of 16g+8..+15:
        # f32 registers 8g + (0,1), (2,3), (4,5), (6,7); f16 registers
        # 4g + 0..3 (each already one pair).
        if acc.dtype == "f16":
            words = regs[4 * group:4 * group + 4]
        else:
            first = 8 * group
            words = [_pack_pair(regs[first + 2 * m], regs[first + 2 * m + 1],
                                kind.element_type) for m in range(4)]
        stmatrix_x4(epilogue_lane_address(base, warp, lane, group, acc.n, swizzle, IrOps),
                    words)
