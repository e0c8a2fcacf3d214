"""The SIMT row copy (plan.permute's "simt" plans that keep the innermost
axis, the identity included): B = A.permute(perm) where perm[-1] is A's
innermost axis and the strides are ones the copy engine cannot address
(rows not a multiple of 16 bytes, as in the (1, 0, 2) permute of a
(4096, 64, 4095) tensor).

Each output row is a run of one input row, so no element changes rows and
no shared memory is needed. A tile is `rows` output rows (consecutive
along the output's next axis, A's axis perm[-2]) by `cols` elements of
them; a thread moves the elements n = tid + s * threads of the tile (row
n // cols, column n % cols), so consecutive lanes read and write
consecutive elements of one row. The loads of a partial tile are clamped
to its last row and column (every load in bounds and unpredicated, so a
thread's loads are all in flight at once); the stores are bounded. A
tile of whole rows takes a branch that clamps and bounds only the columns
(a thread's columns are few values), so each address is a row base plus
constants. One tile a CTA, numbered in the output's order (the last axis fastest): the
digits of the tile index are the only divisions by runtime extents, one
set a tile rather than one an element. Every extent and stride is a
runtime value; the element size, the permutation, the tile and the thread
count are static. The geometry (SimtRowsGeometry) is geometry/simt.py's.
"""

from __future__ import annotations

from .... import builder as K
from ....builder import IrOps
from ..geometry.simt import SimtRowsGeometry
from ..limits import ELEM_DTYPES, MAX_GRID
from .ir import DynOps, all_of, extents


def build_permute_simt_rows(elem: int, perm, rows: int, cols: int, threads: int = 256,
                            name: str = "permute_simt_rows") -> K.KernelDef:
    """B = A.permute(perm) row by row (module docstring); A has runtime
    strides (innermost 1), B is contiguous. The launch's grid is the tile
    count."""
    perm = tuple(int(p) for p in perm)
    geo = SimtRowsGeometry(perm, elem, rows, cols, threads)
    dtype = ELEM_DTYPES[elem]
    r, k, l = len(perm), geo.k, geo.l
    q = r - 2   # the output axis the tile's rows run along

    def body(A, B):
        dims = extents(A)
        counts = geo.counts(dims, DynOps)
        src = geo.origin(K.block_id(), counts, DynOps)
        last_l = DynOps.min(dims[l] - src[l], cols) - 1
        last_k = DynOps.min(dims[k] - src[k], rows) - 1 if k is not None else None
        tid = K.thread_id()
        # A thread's row part, where lanes span rows (cols < threads), is
        # max'ed with extent >> 40 (0 for any extent there is) so that LLVM
        # cannot prove its bits disjoint from the slots' constants: it then
        # keeps `row + constant` an add, and each slot's address a row base
        # plus a constant, rather than an `or` and a multiply per element.
        parts = [geo.slot_parts(tid, s, DynOps) for s in range(geo.steps)]
        i_thread = parts[0][0]
        if k is not None and not isinstance(i_thread, int):
            i_thread = DynOps.max(i_thread, IrOps.shr(dims[k], 40))
        slots = [(i_thread + c, j) for _, c, j in parts]

        def move(clamp_rows: bool, clamp_cols: bool) -> list:
            """A tile's loads, then its stores, clamped and bounded along
            the rows and the columns where asked. A thread's columns are
            few values (one where cols <= threads), so their clamps cost
            little; unclamped rows make each address a row base plus
            constants."""
            values = []
            for i, j in slots:   # every load first: all of them in flight
                at = list(src)
                at[l] = src[l] + (DynOps.min(j, last_l) if clamp_cols else j)
                if k is not None:
                    at[k] = src[k] + (DynOps.min(i, last_k) if clamp_rows else i)
                values.append(A[tuple(at)])
            for (i, j), v in zip(slots, values):
                out = [src[a] for a in perm]
                out[r - 1] = out[r - 1] + j
                bounds = [j <= last_l] if clamp_cols else []
                if k is not None:
                    out[q] = out[q] + i
                    bounds += [i <= last_k] if clamp_rows else []
                out = tuple(out)   # the address before the bound (fewer registers)
                if not bounds:
                    B[out] = v
                    continue
                with K.if_(bounds[0] if len(bounds) == 1 else all_of(bounds)):
                    B[out] = v
            return []

        # The fast branch: a tile of whole rows (rank 1: whole columns).
        if k is None:
            K.if_else(last_l >= cols - 1, [], lambda: move(False, False),
                      lambda: move(False, True))
        else:
            K.if_else(last_k >= rows - 1, [], lambda: move(False, True),
                      lambda: move(True, True))

    params = [("A", K.Tensor((None,) * r, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * r, dtype))]
    # The launch's grid is the tile count; the declared (known) grid bounds
    # the block index, so it is the largest there is.
    kdef = K.KernelDef(body, grid=MAX_GRID, block=threads, params=params, name=name)
    kdef.geometry = geo
    return kdef
