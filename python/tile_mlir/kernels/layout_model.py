"""CPU models of the layout kernels: the very geometry and lane maps the
kernels trace (run over ints), with the NumPy emulator standing in for the
copy engine (loads with their out-of-bounds fill, stores clipped at the
tensor's edge, the swizzled shared images). A model's result is what the
kernel writes if the copy engine does what the emulator says, so the CPU
tests check every coordinate map, box and shared-memory move against
NumPy's own permute, pad and unfold. Needs only NumPy."""

from __future__ import annotations

import numpy as np

from .. import emulator
from ..builder import IntOps
from .layout_ir import IntDynOps
from .layout_plan import ELEM_DTYPES

STORAGE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def storage(elem: int):
    return STORAGE[elem]


def _shared(nbytes: int) -> np.ndarray:
    return emulator.make_shared(nbytes)


def model_boxes(geo, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """build_permute_boxes: every tile's box loaded and stored."""
    elem = A.dtype.itemsize
    counts = geo.counts(A.shape, IntDynOps)
    out_box = tuple(geo.tile[p] for p in geo.perm)
    for t in range(geo.n_tiles(counts)):
        src, dst = geo.origin(t, counts, IntDynOps)
        shared = _shared(int(np.prod(geo.tile)) * elem)
        emulator.load(shared, 0, A, box=geo.tile, coords=src)
        B = emulator.store(B, shared, 0, box=out_box, coords=dst)
    return B


def transpose_in_shared(shared: np.ndarray, layout, threads: int, method: str) -> None:
    """The kernel's in-place transpose of the tile at byte 0 of `shared`,
    thread by thread: every read before any write."""
    elem = layout.elem
    if method == "ldmatrix":
        from ..emulator.swizzle import swizzle_address
        from .transpose_plan import Plan
        plan = Plan(layout.t_k, layout.t_l, (layout.t_k, layout.t_l), 1, 2, threads, 1,
                    layout.swizzle, "ldmatrix", "uint16")
        moves = []
        for warp in range(threads // 32):
            for k in range(plan.ld_ops_per_warp):
                rows = [plan.ld_lane(warp, lane, k, IntOps) for lane in range(32)]
                for block in range(4):
                    src = [swizzle_address(rows[8 * block + i][0], layout.swizzle)
                           for i in range(8)]
                    dst = [swizzle_address(rows[8 * block + i][1], layout.swizzle)
                           for i in range(8)]
                    # ldmatrix.trans reads the 8x8 block transposed; stmatrix
                    # writes row i of what it holds to dst[i].
                    for i in range(8):
                        for j in range(8):
                            moves.append((dst[i] + 2 * j, src[j] + 2 * i))
        values = [shared[s:s + 2].copy() for _, s in moves]
        for (d, _), v in zip(moves, values):
            shared[d:d + 2] = v
        return
    from .smem_transpose import ScalarTranspose
    scalar = ScalarTranspose(layout, threads)
    moves = []
    for tid in range(threads):
        lane, warp = tid % 32, tid // 32
        src = scalar.bases(lane, warp, IntOps, "in")
        dst = scalar.bases(lane, warp, IntOps, "out")
        for s in range(scalar.steps):
            moves.append((dst ^ scalar.step_offset(s, "out"),
                          src ^ scalar.step_offset(s, "in")))
    values = [shared[s:s + elem].copy() for _, s in moves]
    for (d, _), v in zip(moves, values):
        shared[d:d + elem] = v


def model_transpose(geo, A: np.ndarray, B: np.ndarray, threads: int = 256,
                    method: str | None = None) -> np.ndarray:
    """build_permute_transpose: load boxes, the in-place transpose, stores."""
    from .permute_kernels import transpose_method
    lay = geo.layout
    method = transpose_method(lay.elem, method)
    counts = geo.counts(A.shape, IntDynOps)
    for t in range(geo.n_tiles(counts)):
        src, dst = geo.origin(t, counts, IntDynOps)
        shared = _shared(lay.tile_bytes)
        for box, step, off in geo.load_boxes():
            emulator.load(shared, off, A, box=box, coords=src[:-1] + (src[-1] + step,),
                          swizzle=lay.swizzle)
        transpose_in_shared(shared, lay, threads, method)
        for box, step, off in geo.store_boxes():
            B = emulator.store(B, shared, off, box=box,
                               coords=dst[:-1] + (dst[-1] + step,), swizzle=lay.swizzle)
    return B


def model_permute(plan, x: np.ndarray) -> np.ndarray:
    """What the plan's kernel leaves in the output, for input `x` (an array
    of the plan's input view)."""
    from .permute_kernels import BoxGeometry, TransposeGeometry
    p = plan.params
    elem = p["elem"]
    A = np.ascontiguousarray(x).view(storage(elem)).reshape(plan.in_view[0])
    B = np.zeros(plan.out_view[0], dtype=storage(elem))
    if plan.kind in ("boxes", "copy"):
        return model_boxes(BoxGeometry(tuple(p["perm"]), tuple(p["box"])), A, B)
    if plan.kind == "transpose":
        geo = TransposeGeometry.make(tuple(p["perm"]), tuple(p["tile"]), p["span"], elem)
        return model_transpose(geo, A, B, p.get("threads", 256), p.get("method"))
    return np.ascontiguousarray(A.transpose(p["perm"]))


__all__ = ["ELEM_DTYPES", "model_boxes", "model_permute", "model_transpose",
           "storage", "transpose_in_shared"]
