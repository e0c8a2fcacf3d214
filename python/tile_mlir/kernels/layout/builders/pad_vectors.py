"""The vector pad: B = pad(A) in canonical form (plan.pad.canonical_pad)
where every row piece is whole 16-byte vectors: A's rows, B's rows and the
shift along the last axis are multiples of 16 bytes, as are A's outer
strides. No shared memory and no copy engine: each thread moves 16-byte
vectors, B[o] = A[o - left] inside A and the fill outside, the way a plain
copy moves them.

Why a kernel of its own: B's rows need not be a width the copy engine's
boxes move well. F.pad (0, 8) widens 512-byte rows to 528; there the
engine's boxes (272-byte box rows, the column fill) ran at 0.93 of torch
copy_ on the H100 and these vectors at 0.98 (docs/decisions.md, "Layout:
aligned pads and the vector pad").

A tile is `threads * slots` consecutive vectors of B; thread `tid` moves
vectors tid + s * threads of it (consecutive lanes, consecutive vectors).
A vector's coordinates are the digits of its index over B's extents (one
32-bit division an axis after the first), its source those minus the pads. Every load is
in bounds: a source coordinate outside A is clamped to A's edge (one
unsigned min: a negative coordinate wraps to a large one), so all of a
thread's loads are in flight at once, and the fill is selected after it.
Extents, pads and the fill's bits are runtime values; the element size,
the rank and the tile are static. The launch's grid is the tile count.
"""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, vector

from .... import builder as K
from ..geometry.vector_tiles import VectorPadGeometry
from ..limits import ELEM_DTYPES, MAX_GRID
from .ir import IrU32Ops, extents, i32_of, move_vectors


def build_pad_vectors(elem: int, rank: int, threads: int = 256, slots: int = 1,
                      name: str = "pad_vectors") -> K.KernelDef:
    """B = pad(A) by 16-byte vectors (module docstring) of `elem`-byte
    elements. Parameters A (runtime strides, innermost 1), B (contiguous),
    left0.. (index; negative crops) and the fill's bits (int64, the
    element's bits in its low bytes). Every extent and the count of B's
    vectors below 2^31 (plan.pad.whole_vectors)."""
    geo = VectorPadGeometry(elem, rank, threads, slots)
    dtype = ELEM_DTYPES[elem]

    def body(A, B, *scalars):
        lefts, bits = [i32_of(x) for x in scalars[:rank]], scalars[rank]
        dims, out = [i32_of(x) for x in extents(A)], [i32_of(x) for x in extents(B)]
        scalar = K.Expr.of(bits)
        if elem < 8:
            scalar = arith.trunci(ir.IntegerType.get_signless(8 * elem), scalar)
        fill = vector.broadcast(K.vector_type(dtype), scalar)

        def source(v, radices, n):
            coords, inside, at = geo.spot(v, radices, dims, lefts, IrU32Ops)
            return coords, at, lambda value: arith.select(K.Expr.of(inside), value, fill)

        move_vectors(geo, A, B, out, dtype, source)

    params = [("A", K.Tensor((None,) * rank, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * rank, dtype))]
    params += [(f"left{a}", K.Scalar("index")) for a in range(rank)]
    params += [("value", K.Scalar("int64"))]
    # The launch's grid is the tile count; the declared grid bounds the
    # block index, so it is the largest there is.
    kdef = K.KernelDef(body, grid=MAX_GRID, block=threads, params=params, name=name)
    kdef.geometry = geo
    return kdef
