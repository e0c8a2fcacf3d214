"""The vector permute: B = A.permute(perm) where perm keeps A's innermost
axis and every row is whole 16-byte vectors (the boxes plans of
plan.permute.plan_permute: A's outer strides, and so its rows, multiples of
16 bytes). No shared memory and no copy engine: each thread moves 16-byte
vectors of B, as the vector pad (pad_vectors) does for pads; the default
of the boxes plans where its coordinates reach (permute.vector_kernel),
the boxes kernel being its variant ("engine boxes").

A tile is `threads * slots` consecutive vectors of B; thread `tid` moves
vectors tid + s * threads of it. A vector's coordinates in B are the
digits of its index over B's extents (one 32-bit division an axis after
the first), its source the same coordinates in A's order. The loads of the
last tile's vectors past B's end read B's last vector's source (every load
in bounds, so all of a thread's loads are in flight at once); their stores
are skipped. Extents and strides are runtime values; the element size,
the permutation and the tile are static. The launch's grid is the tile
count.
"""

from __future__ import annotations

from .... import builder as K
from ..geometry.vector_tiles import VectorPermuteGeometry
from ..limits import ELEM_DTYPES, MAX_GRID
from .ir import IrU32Ops, extents, i32_of, move_vectors


def build_permute_vectors(elem: int, perm, threads: int = 256, slots: int = 1,
                          name: str = "permute_vectors") -> K.KernelDef:
    """B = A.permute(perm) by 16-byte vectors (module docstring). A has
    runtime strides (innermost 1, the others 16-byte multiples), B is
    contiguous; every extent and B's vector count below
    limits.VECTOR_INDEX_LIMIT."""
    perm = tuple(int(p) for p in perm)
    geo = VectorPermuteGeometry(elem, perm, threads, slots)
    dtype = ELEM_DTYPES[elem]
    r = len(perm)

    def source(v, radices, n):
        # Past B's end, B's last vector (stored only where v is in B).
        coords, src = geo.spot(IrU32Ops.min(v, n - 1), radices, IrU32Ops)
        return coords, src, None

    def body(A, B):
        move_vectors(geo, A, B, [i32_of(x) for x in extents(B)], dtype, source)

    params = [("A", K.Tensor((None,) * r, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * r, dtype))]
    kdef = K.KernelDef(body, grid=MAX_GRID, block=threads, params=params, name=name)
    kdef.geometry = geo
    return kdef
