"""SSA values with Python operators: `Expr` (index or signless integers),
`Pointer` (shared memory) and `Buffer` (memrefs)."""

from __future__ import annotations

from typing import Sequence

import mlir.ir as ir
from mlir.dialects import arith, llvm, memref

from ..errors import TileUsageError

SHARED_SPACE = 3  # NVVM address space of shared memory


def int_bounds(mtype: ir.Type) -> tuple[int, int]:
    """The ints a constant of integer or index type `mtype` takes: either
    signedness's below 64 bits (0xFFFFFFFF is an i32 too), signed 64-bit
    for i64 and index (64-bit on NVPTX)."""
    width = 64 if isinstance(mtype, ir.IndexType) else ir.IntegerType(mtype).width
    if width >= 64:
        return -(1 << 63), (1 << 63) - 1
    return -(1 << (width - 1)), (1 << width) - 1


def checked_int(value: int, mtype: ir.Type, what: str) -> int:
    """`value` if it fits `mtype` (int_bounds); else [int-range] naming
    `what`, rather than MLIR wrapping it."""
    if not isinstance(value, int):
        raise TileUsageError("kernel-value", f"{what} is an int, got {value!r}")
    low, high = int_bounds(mtype)
    if not low <= value <= high:
        raise TileUsageError("int-range", f"{what} {value} does not fit {mtype} "
                             f"({low}..{high})")
    return value


def int_constant(mtype: ir.Type, value: int, what: str = "value") -> ir.Value:
    """arith.constant of a Python int, range-checked ([int-range])."""
    return arith.constant(mtype, checked_int(value, mtype, what))


def index_constant(value: int, what: str = "index value") -> ir.Value:
    return int_constant(ir.IndexType.get(), value, what)


def i32_constant(value: int, what: str = "i32 value") -> ir.Value:
    return int_constant(ir.IntegerType.get_signless(32), value, what)


def to_i32(value: ir.Value) -> ir.Value:
    """`value` as i32 (index values are cast; others pass through)."""
    if isinstance(value.type, ir.IndexType):
        return arith.index_cast(ir.IntegerType.get_signless(32), value)
    return value


class Expr:
    """An SSA value with Python operators (index or signless integers)."""

    def __init__(self, value: ir.Value):
        self.value = value

    @staticmethod
    def of(x, like: "Expr | None" = None) -> ir.Value:
        """The MLIR value of `x`: an Expr's value, an `ir.Value` as is, an int as
        a constant (of `like`'s integer type when `like` is given and not an
        index, else an index). Anything else is a TileUsageError [kernel-value]."""
        if isinstance(x, Expr):
            return x.value
        if isinstance(x, ir.Value):
            return x
        if isinstance(x, int):
            if like is not None and not isinstance(like.value.type, ir.IndexType):
                return int_constant(like.value.type, x, f"{like.value.type} operand")
            return index_constant(x)
        raise TileUsageError("kernel-value", f"cannot use {x!r} as a kernel value")

    def _bin(self, other, fn, swap=False):
        a, b = self.value, Expr.of(other, self)
        return Expr(fn(b, a) if swap else fn(a, b))

    def __add__(self, o): return self._bin(o, arith.addi)
    def __radd__(self, o): return self._bin(o, arith.addi, swap=True)
    def __sub__(self, o): return self._bin(o, arith.subi)
    def __rsub__(self, o): return self._bin(o, arith.subi, swap=True)
    def __mul__(self, o): return self._bin(o, arith.muli)
    def __rmul__(self, o): return self._bin(o, arith.muli, swap=True)
    def __floordiv__(self, o): return self._bin(o, arith.floordivsi)
    def __mod__(self, o): return self._bin(o, arith.remsi)

    def _cmp(self, other, predicate):
        pred = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), predicate)
        return Expr(arith.cmpi(pred, self.value, Expr.of(other, self)))

    # arith.cmpi predicates: eq=0 ne=1 slt=2 sle=3 sgt=4 sge=5.
    def __eq__(self, o): return self._cmp(o, 0)  # type: ignore[override]
    def __ne__(self, o): return self._cmp(o, 1)  # type: ignore[override]
    def __lt__(self, o): return self._cmp(o, 2)
    def __le__(self, o): return self._cmp(o, 3)
    def __gt__(self, o): return self._cmp(o, 4)
    def __ge__(self, o): return self._cmp(o, 5)
    __hash__ = None  # type: ignore[assignment]


class Pointer(Expr):
    """A `!llvm.ptr<3>` into shared memory (e.g. an mbarrier)."""


def is_shared(space) -> bool:
    """Whether a memref memory space attribute is shared (workgroup) memory."""
    if space is None:
        return False
    if isinstance(space, ir.IntegerAttr):
        return space.value == SHARED_SPACE
    return str(space) == "#gpu.address_space<workgroup>"


class Buffer:
    """A memref value: global tensors and shared allocations."""

    def __init__(self, value: ir.Value):
        self.value = value
        self.type = ir.MemRefType(value.type)

    @property
    def shape(self) -> tuple[int, ...]:
        """The memref's shape (a runtime dimension is MLIR's dynamic-size value)."""
        return tuple(self.type.shape)

    def _indices(self, key) -> list[ir.Value]:
        key = key if isinstance(key, tuple) else (key,)
        if len(key) != self.type.rank:
            raise TileUsageError("kernel-value", f"expected {self.type.rank} "
                                 f"indices, got {len(key)}")
        return [Expr.of(k) for k in key]

    def __getitem__(self, key) -> Expr:
        return Expr(memref.load(self.value, self._indices(key)))

    def __setitem__(self, key, value) -> None:
        memref.store(Expr.of(value), self.value, self._indices(key))

    def ptr_to(self, index: Sequence) -> Pointer:
        """Shared-memory pointer to one element (for mbarrier operands);
        indices are ints or index values."""
        if not is_shared(self.type.memory_space):
            raise TileUsageError("kernel-value", "ptr_to needs a shared "
                                 "(workgroup) buffer")
        index = list(index) if hasattr(index, "__iter__") else [index]
        if len(index) != self.type.rank:
            raise TileUsageError("kernel-value", f"ptr_to takes {self.type.rank} "
                                 f"indices, got {index!r}")
        strides, _ = self.type.get_strides_and_offset()
        elem_bytes = self.type.element_type.width // 8
        i64 = ir.IntegerType.get_signless(64)
        base = memref.extract_aligned_pointer_as_index(self.value)
        addr = arith.index_cast(i64, base)
        static = sum(i * s for i, s in zip(index, strides) if isinstance(i, int))
        addr = arith.addi(addr, int_constant(i64, static * elem_bytes,
                                             f"ptr_to({list(index)!r}) byte offset"))
        for i, stride in zip(index, strides):
            if not isinstance(i, int):
                scaled = arith.muli(arith.index_cast(i64, Expr.of(i)),
                                    arith.constant(i64, stride * elem_bytes))
                addr = arith.addi(addr, scaled)
        return Pointer(llvm.inttoptr(ir.Type.parse("!llvm.ptr<3>"), addr))
