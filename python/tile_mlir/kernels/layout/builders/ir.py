"""IR helpers the layout kernels share: runtime extents of a memref
argument, index arithmetic whose divisors may be runtime values, and the
integer conversions the copies' coordinates need.

`DynOps` is the kernels' `ops` object (as `tile_mlir.builder.IrOps`, but
`div`/`mod` also take runtime divisors), so the geometry written over it
(layout/geometry/) runs unchanged on plain ints with
geometry.addressing.IntDynOps in a CPU model of the kernel."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, llvm, memref, vector

from .... import builder as K
from ....builder import IrOps
from ....builder.pointers import shared_pointer
from ..geometry.addressing import product

__all__ = ["DynOps", "IrU32Ops", "all_of", "chunk_pair_vector", "extents",
           "i32_of", "index_of", "move_vectors", "shifted_chunk", "signed_offset", "to_i32"]


def extents(buf: K.Buffer) -> list[K.Expr]:
    """The extent of every axis of a (dynamically shaped) memref argument."""
    return [K.Expr(memref.dim(buf.value, K.Expr.of(i))) for i in range(buf.type.rank)]


def _value(x, like: K.Expr) -> ir.Value:
    return K.Expr.of(x, like)


class DynOps(IrOps):
    """Unsigned index arithmetic on Exprs; divisors may be Exprs or ints."""

    @staticmethod
    def div(a, n):
        if isinstance(n, int) and n & (n - 1) == 0:
            return IrOps.shr(a, n.bit_length() - 1) if n > 1 else a
        return K.Expr(arith.divui(K.Expr.of(a), _value(n, a)))

    @staticmethod
    def mod(a, n):
        if isinstance(n, int) and n & (n - 1) == 0:
            return IrOps.and_(a, n - 1)
        return K.Expr(arith.remui(K.Expr.of(a), _value(n, a)))

    @staticmethod
    def cdiv(a, n):
        return DynOps.div(a + (n - 1), n)

    @staticmethod
    def min(a, b):
        return K.Expr(arith.minui(K.Expr.of(a), _value(b, a)))

    @staticmethod
    def max(a, b):
        return K.Expr(arith.maxui(K.Expr.of(a), _value(b, a)))

    @staticmethod
    def ge_select(a, bound: int, x: int):
        """x where a >= bound (unsigned), else 0."""
        ge = arith.cmpi(arith.CmpIPredicate.uge, K.Expr.of(a), _value(bound, a))
        return K.Expr(arith.select(ge, _value(x, a), _value(0, a)))


def all_of(conds) -> K.Expr:
    """The conjunction of i1 Exprs, left to right."""
    out = K.Expr(K.Expr.of(conds[0]))
    for c in conds[1:]:
        out = K.Expr(arith.andi(K.Expr.of(out), K.Expr.of(c)))
    return out


def to_i32(x: K.Expr) -> ir.Value:
    """An index Expr as an i32 value (tile counts and tickets are i32); an
    i32 passes through."""
    v = K.Expr.of(x)
    i32 = ir.IntegerType.get_signless(32)
    if isinstance(v.type, ir.IndexType):
        return arith.index_cast(i32, v)
    if v.type != i32:
        raise TypeError(f"to_i32 takes an index or i32 value, not {v.type}")
    return v


def signed_offset(x: K.Expr, delta: int) -> K.Expr:
    """x + delta for a possibly negative delta (coordinates of loads may start
    before the tensor: the copy engine fills what lies outside)."""
    return x + delta if delta >= 0 else x - (-delta)


def chunk_pair_vector(chunk0: K.Expr, chunk1: K.Expr, byte_rem: K.Expr) -> ir.Value:
    """Bytes [byte_rem, byte_rem + 16) of the 32 bytes made of the 16-byte
    aligned shared chunks at chunk0 and chunk1 (byte_rem in 0..15), as a
    vector<4xi32>. Two 16-byte loads, conflict-free when the lanes of a warp
    read consecutive chunks (five 32-bit loads 16 bytes apart per lane are
    four-way bank conflicts each), then a word select and a funnel shift.
    chunk1 is read only when byte_rem > 0 (else chunk0 is read twice), so
    it may lie past the loaded bytes then. The chunks need not be adjacent:
    the second may start the next box's row."""
    i32 = ir.IntegerType.get_signless(32)
    v4 = ir.VectorType.get([4], i32)
    rem = K.Expr.of(byte_rem)
    zero = K.Expr.of(0, byte_rem)
    has_rem = arith.cmpi(arith.CmpIPredicate.ne, rem, zero)
    second = K.Expr(arith.select(has_rem, K.Expr.of(chunk1), K.Expr.of(chunk0)))
    words = []
    for addr in (chunk0, second):
        v = llvm.load(v4, shared_pointer(addr), alignment=16)
        words += [vector.extract(v, [], [i]) for i in range(4)]

    def bit(mask: int) -> ir.Value:
        masked = arith.andi(rem, K.Expr.of(mask, byte_rem))
        return arith.cmpi(arith.CmpIPredicate.ne, masked, zero)

    q0, q1 = bit(4), bit(8)          # the word offset's bits
    picked = []
    for j in range(5):               # picked[j] = words[j + byte_rem // 4]
        lo = arith.select(q0, words[j + 1], words[j])
        hi = arith.select(q0, words[j + 3], words[j + 2])
        picked.append(arith.select(q1, hi, lo))
    shift = to_i32(K.Expr.of(IrOps.shl(IrOps.and_(byte_rem, 3), 3)))
    # One 32-bit funnel shift a word (shf.r), not a 64-bit shift of a pair.
    return vector.from_elements(v4, [llvm.intr_fshr(picked[i + 1], picked[i], shift)
                                     for i in range(4)])


def shifted_chunk(chunk0: K.Expr, chunk1: K.Expr, byte_rem: int) -> ir.Value:
    """Bytes [byte_rem, byte_rem + 16) of the 32 bytes made of the 16-byte
    aligned shared chunks at chunk0 and chunk1, as a vector<4xi32>:
    chunk_pair_vector with a static shift, the words picked at compile time,
    chunk0 alone read when byte_rem is 0."""
    if not 0 <= byte_rem < 16:
        raise ValueError("byte_rem is in 0..15")
    i32 = ir.IntegerType.get_signless(32)
    v4 = ir.VectorType.get([4], i32)
    first = llvm.load(v4, shared_pointer(chunk0), alignment=16)
    if byte_rem == 0:
        return first
    second = llvm.load(v4, shared_pointer(chunk1), alignment=16)
    words = [vector.extract(v, [], [i]) for v in (first, second) for i in range(4)]
    q, shift = byte_rem // 4, 8 * (byte_rem % 4)
    if shift == 0:
        return vector.from_elements(v4, words[q:q + 4])
    amount = arith.constant(i32, shift)
    return vector.from_elements(v4, [llvm.intr_fshr(words[q + i + 1], words[q + i], amount)
                                     for i in range(4)])


def i32_of(x) -> K.Expr:
    """An index Expr as an i32 Expr."""
    return K.Expr(to_i32(x))


def index_of(x: K.Expr) -> K.Expr:
    """An i32 Expr that is never negative as an index."""
    return K.Expr(arith.index_castui(ir.IndexType.get(), K.Expr.of(x)))


class IrU32Ops(DynOps):
    """The vector kernels' geometry arithmetic on i32 Exprs, unsigned (a
    negative coordinate wraps to a large one)."""

    @staticmethod
    def sub(a, b):
        return a - b

    @staticmethod
    def ult(a, b):
        return K.Expr(arith.cmpi(arith.CmpIPredicate.ult, K.Expr.of(a), K.Expr.of(b)))

    @staticmethod
    def all(conds):
        return all_of(conds)


def move_vectors(geo, A: K.Buffer, B: K.Buffer, out: list, dtype: str, source) -> None:
    """The body of a vector kernel (pad_vectors, permute_vectors; `geo` a
    geometry.vector_tiles.VectorTiles): each thread's vectors of its CTA's
    tile of B, whose extents are `out` (i32). `source(v, radices, n)` gives,
    for vector v (i32) of B's n (B's extents `radices`, the last in
    vectors), B's coordinates, A's coordinates of its load (always inside
    A) and a function of the loaded value giving what is stored, or None.
    Every load comes first, so all of a thread's are in flight at once;
    then the stores of the vectors inside B."""
    vtype = K.vector_type(dtype)
    radices = geo.radices(out, IrU32Ops)
    n = product(radices)
    tile, tid = i32_of(K.block_id()), i32_of(K.thread_id())
    spots = []
    for s in range(geo.slots):
        v = geo.vector(tile, tid, s)
        spots.append((v, *source(v, radices, n)))
    values = [K.vector_load(vtype, A, tuple(index_of(c) for c in at))
              for _, _, at, _ in spots]
    for (v, coords, _, pick), value in zip(spots, values):
        stored = value if pick is None else pick(value)
        with K.if_(IrU32Ops.ult(v, n)):
            K.vector_store(stored, B, tuple(index_of(c) for c in coords))
