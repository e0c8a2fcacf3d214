"""The permute kernels: B = A.permute(perm) (contiguous B) for a canonical
permutation of rank 1..5 (tile_mlir.kernels.layout.plan.common). Every extent is
a runtime value (the tensor maps are encoded from the arguments at
launch); the element size, the permutation and the box or tile are static.

build_permute_boxes      the innermost axis stays innermost: one thread
                         moves boxes (TMA load at the input coordinates,
                         TMA store at the permuted ones), tiles claimed at
                         run time (build_copy_dynamic's pipeline)
build_permute_transpose  the innermost axis moves: tiles of T_k x T_l
                         (input axis k = perm[-1] by the innermost axis) are
                         loaded as swizzled boxes, transposed in place in
                         shared memory by every thread, stored as boxes
build_permute_simt       any strides: one element per thread and step

The geometry (`BoxGeometry`, `TransposeGeometry`, the threads' load and
store maps: geometry/permute.py) is written over an `ops` object, so the
CPU model (tile_mlir.kernels.layout.model) runs the same coordinate maps
the kernels emit.
"""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, llvm, vector

from .... import builder as K
from .... import tma
from ....builder import IrOps
from ....builder.pointers import shared_pointer
from ...common.opcodes import load_opcode, store_opcode
from ...copy.transpose import swizzled
from ...copy.transpose_inplace import cache_hints
from ...copy.transpose_plan import Plan
from ..geometry.addressing import digits, product
from ..geometry.permute import (
    BoxGeometry,
    ThreadLoadMap,
    ThreadStoreMap,
    TransposeGeometry,
    checked_tile_order,
)
from ..geometry.smem_transpose import (
    ScalarTranspose,
    TileLayout,
    threads_error,
    transpose_method,
)
from ..limits import ELEM_DTYPES, MAX_GRID, STAGE_ALIGN, SWIZZLE_SPANS
from .ir import DynOps, all_of, extents
from .pipeline import Stages, all_thread_pipeline, one_thread_pipeline, one_tile

CTR = ("Ctr", K.Tensor((2,), "int32"))


def _params(elem: int, rank_in: int, rank_out: int, counter: bool = True,
            strided_out: bool = False) -> list:
    dtype = ELEM_DTYPES[elem]
    params = [("A", K.Tensor((None,) * rank_in, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * rank_out, dtype, dynamic_strides=strided_out))]
    return params + [CTR] if counter else params


def _check_perm(perm, most: int | None = 5) -> tuple:
    """perm as ints; ValueError unless a permutation of rank 1..most (the
    copy engine's 5; None for the threads' kernels of any rank)."""
    perm = tuple(int(p) for p in perm)
    top = len(perm) if most is None else most
    if sorted(perm) != list(range(len(perm))) or not 1 <= len(perm) <= top:
        raise ValueError(f"perm {perm} is not a permutation of rank 1..{most or 'any'}")
    return perm


def build_permute_boxes(elem: int, perm, box, stages: int = 4, store_lag: int = 1,
                        grid: int = 132, permuted_store: bool = False, order=(),
                        name: str = "permute_boxes") -> K.KernelDef:
    """B = A.permute(perm) for a perm that keeps the innermost axis: boxes
    `box` (input order; extents above 1 only on axes whose order the
    permutation keeps) loaded at the input coordinates and stored at the
    permuted ones. `permuted_store`: B is the output seen in the input's
    axis order (its strides permuted, so not decreasing), and each box is
    stored at the coordinates it was loaded from: the box may then span any
    axes, and both images are the same bytes. `order`: the tile order
    (geometry.permute.TiledGeometry.tile_order; () the output's)."""
    perm = _check_perm(perm)
    box = tuple(int(b) for b in box)
    r = len(perm)
    if perm[-1] != r - 1 or len(box) != r:
        raise ValueError(f"perm {perm} moves the innermost axis or box {box} "
                         "has the wrong rank")
    big = [a for a in range(r) if box[a] > 1]
    if not permuted_store and [a for a in perm if a in big] != big:
        raise ValueError(f"box {box}: the permutation {perm} reorders its axes")
    dtype = ELEM_DTYPES[elem]
    geo = BoxGeometry(perm, box, tile_order=checked_tile_order(perm, order))
    out_box = box if permuted_store else tuple(box[p] for p in perm)
    stage_bytes = -(-product(box) * elem // STAGE_ALIGN) * STAGE_ALIGN
    st = Stages(stages, stage_bytes)

    def body(A, B, Ctr):
        counts = geo.counts(extents(A), DynOps)
        ins = [K.dynamic_shared(box, dtype, st.offset(s)) for s in range(stages)]
        outs = [K.dynamic_shared(out_box, dtype, st.offset(s)) for s in range(stages)]

        def load(s, ticket, bar, tag):
            coords, _ = geo.origin(IrOps.index(ticket), counts, DynOps)
            tma.apply(load_opcode(r), ins[s], A, box=box, coords=coords, mbar=bar, tag=tag)

        def store(s, ticket):
            coords_in, coords_out = geo.origin(IrOps.index(ticket), counts, DynOps)
            tma.apply(store_opcode(r), B, outs[s], box=out_box,
                      coords=coords_in if permuted_store else coords_out)

        one_thread_pipeline(st, store_lag, Ctr, geo.n_tiles(counts), load, store)

    kdef = K.KernelDef(body, grid=grid, block=32,
                       params=_params(elem, r, r, strided_out=permuted_store), name=name)
    kdef.shared_bytes = st.shared_bytes
    kdef.geometry = geo
    return kdef


def _load_word(elem: int, addr: K.Expr) -> ir.Value:
    return llvm.load(ir.IntegerType.get_signless(8 * elem), shared_pointer(addr),
                     alignment=elem)


def _store_word(value: ir.Value, addr: K.Expr, elem: int) -> None:
    llvm.store(value, shared_pointer(addr), alignment=elem)


def transpose_work(layout: TileLayout, threads: int, method: str):
    """work(base): every thread's share of the in-place transpose of the
    tile at shared address `base` (an index Expr, 1024-aligned): all reads,
    a CTA barrier, all writes."""
    tid = K.thread_id()
    lane, warp = IrOps.mod(tid, 32), IrOps.div(tid, 32)
    sw = layout.swizzle
    if method == "ldmatrix":
        plan = Plan(layout.t_k, layout.t_l, (layout.t_k, layout.t_l), 1, 2, threads, 1,
                    sw, "ldmatrix", "uint16", wide_in=layout.wide_in,
                    wide_out=layout.wide_out)
        error = threads_error(layout, threads, method)
        if error:
            raise ValueError(error)
        offsets = [plan.ld_lane(warp, lane, k, IrOps) for k in range(plan.ld_ops_per_warp)]

        def work(base):
            frags = [K.ldmatrix_x4_trans(swizzled(base + a, sw)) for a, _ in offsets]
            K.cta_sync()
            for (_, b), regs in zip(offsets, frags):
                K.stmatrix_x4(swizzled(base + b, sw), regs)
        return work
    scalar = ScalarTranspose(layout, threads)
    src = scalar.bases(lane, warp, IrOps, "in")
    dst = scalar.bases(lane, warp, IrOps, "out")
    steps = [(scalar.step_offset(s, "in"), scalar.step_offset(s, "out"))
             for s in range(scalar.steps)]

    def xor(a, c):
        return a if c == 0 else IrOps.xor(a, K.Expr(K.Expr.of(c, a)))

    def work(base):
        if layout.elem == 1:
            # Addresses the tile loop would otherwise hoist (two a byte: 255
            # registers for a 16 KB tile, one CTA an SM) are rebuilt per tile.
            src_t, dst_t = _per_tile(src), _per_tile(dst)
        else:
            src_t, dst_t = src, dst
        values = [_load_word(layout.elem, base + xor(src_t, a)) for a, _ in steps]
        K.cta_sync()
        for (_, b), v in zip(steps, values):
            _store_word(v, base + xor(dst_t, b), layout.elem)
    return work


def _per_tile(x: K.Expr) -> K.Expr:
    """x (an index below 2^31) through an empty side-effecting asm: a value
    LLVM cannot hoist out of the loop it is computed in."""
    i32 = ir.IntegerType.get_signless(32)
    v = arith.index_cast(i32, K.Expr.of(x))
    v = llvm.inline_asm(i32, [v], "", "=r,0", has_side_effects=True)
    return K.Expr(arith.index_castui(ir.IndexType.get(), v))


def thread_store_work(layout: TileLayout, threads: int, dtype: str):
    """stores(base, B, coords, dims, q): after a CTA barrier, every thread
    stores its vectors (ThreadStoreMap) of the transposed tile at shared
    address `base` to B, the merged output view, whose tile starts at
    `coords` (the tile's T_l rows along axis q, its T_k columns innermost;
    extents `dims`; with `wide_out` B's innermost axis is split by W, and
    `coords` are unsplit). B's innermost extent is a multiple of 16 bytes
    (the store map's row pitch), so a vector is wholly inside or wholly
    past it."""
    lay = layout
    tsm = ThreadStoreMap(lay, threads)
    rps, vec_bytes = tsm.rows_per_step, tsm.vec_bytes
    step_bytes = rps * tsm.row_bytes
    rho0, kap = tsm.lane(K.thread_id(), IrOps)
    byte0 = tsm.image_byte(rho0, kap, IrOps)
    vtype = ir.VectorType.get([vec_bytes // lay.elem], K.element_type(dtype))
    # The swizzles XOR address bits 4-6 with bits 7-9 (or fewer of them): a
    # step of whole 1024-byte blocks keeps a vector's chunk, so one swizzle
    # serves every step.
    same_chunk = step_bytes % STAGE_ALIGN == 0

    def stores(base, B, coords, dims, q):
        K.cta_sync()
        first = swizzled(base + byte0, lay.swizzle)
        col = coords[-1] + kap
        inner = dims[-2] * lay.width if lay.wide_out else dims[-1]
        col_ok = col < inner
        for i in range(tsm.steps):
            addr = first + i * step_bytes if same_chunk else \
                swizzled(base + byte0 + i * step_bytes, lay.swizzle)
            conds = [col_ok, coords[q] + rho0 + i * rps < dims[q]]
            if (i + 1) * rps > lay.t_l:   # the last step's rows past the tile
                conds.append(rho0 + i * rps < lay.t_l)
            at = list(coords)
            at[q], at[-1] = coords[q] + rho0 + i * rps, col
            if lay.wide_out:   # (..., D / W, W); a vector stays inside its W
                at[-1:] = [IrOps.div(col, lay.width), IrOps.mod(col, lay.width)]
            with K.if_(all_of(conds)):
                value = llvm.load(vtype, shared_pointer(addr), alignment=vec_bytes)
                K.vector_store(value, B, at, alignment=vec_bytes)
    return stores


def thread_load_work(layout: TileLayout, tile, threads: int, dtype: str):
    """loads(base, A, origin, dims): every thread loads its vectors
    (ThreadLoadMap) of the tile whose input coordinates start at `origin`
    (unsplit; A's extents `dims`, the innermost unsplit) from A (seen as
    (..., D / W, W) with `wide_in`) and writes them, swizzled, where the
    copy engine's load boxes would have. Every load is issued before the
    first shared write; coordinates are clamped (ThreadLoadMap.source), so
    the only branch is a vector across a row's end (not `wide_in`), read
    element by element."""
    lay = layout
    tlm = ThreadLoadMap(lay, tuple(tile), threads)
    vtype = ir.VectorType.get([tlm.elements], K.element_type(dtype))
    tid = K.thread_id()

    def loads(base, A, origin, dims):
        def index(at, col):
            if lay.wide_in:   # (..., D / W, W); a vector stays inside its W
                return tuple(at) + (IrOps.div(col, lay.width), IrOps.mod(col, lay.width))
            return tuple(at) + (col,)

        pending = []
        for i in range(tlm.steps):
            byte = tlm.image_byte(tid, i, DynOps)
            at, col = tlm.source(origin, byte, dims, DynOps)

            def whole(at=at, col=col):
                return [K.vector_load(vtype, A, index(at, col))]

            def by_element(at=at, col=col):
                return [vector.from_elements(vtype, [
                    A[index(at, c)].value for c in tlm.columns(col, dims[-1], DynOps)])]

            if lay.wide_in:
                value = whole()[0]
            else:
                value = K.if_else(col + tlm.elements <= dims[-1], [vtype], whole,
                                  by_element)[0]
            pending.append((i, byte, value))
        for i, byte, value in pending:
            def put(byte=byte, value=value):
                llvm.store(value, shared_pointer(swizzled(base + byte, lay.swizzle)),
                           alignment=tlm.VECTOR)
            if tlm.stored(i):
                put()
            else:
                with K.if_(tid + i * threads < tlm.vectors):
                    put()
    return loads


def _transpose_geometry(elem: int, perm, tile, span: int, gather, wide_in: bool,
                        wide_out: bool, walk, order) -> TransposeGeometry:
    """build_permute_transpose's geometry, its perm, span, walk and gather
    checked (ValueError)."""
    perm = _check_perm(perm)
    r = len(perm)
    if perm[-1] == r - 1:
        raise ValueError(f"perm {perm} keeps the innermost axis: build_permute_boxes")
    if span not in SWIZZLE_SPANS:
        raise ValueError(f"span {span}: 128, 64 or 32 bytes")
    walk = tuple(int(w) for w in walk)
    if walk and (len(walk) != 2 or not 0 <= walk[0] < r or walk[1] < 1):
        raise ValueError(f"walk {walk}: (input axis, tiles per block >= 1)")
    geo = TransposeGeometry.make(perm, tuple(tile), span, elem, gather, wide_in, wide_out,
                                 walk, order)
    if r - 1 in geo.gather_axes:
        raise ValueError(f"gather {gather}: the gathered axes include the innermost")
    return geo


def _transpose_ranks(geo: TransposeGeometry, wide_in: bool, wide_out: bool) -> tuple:
    """(A's rank, B's rank): the merged output view's, each one more where
    its innermost axis is split by W."""
    r = len(geo.perm)
    rank_out = r - geo.m + 1
    rank_a, rank_b = r + int(bool(wide_in)), rank_out + int(bool(wide_out))
    if max(rank_a, rank_b) > 5:
        raise ValueError("a wide box needs one more axis than the copy engine's 5")
    return rank_a, rank_b


def _transpose_body(geo: TransposeGeometry, st: Stages, dtype: str, threads: int,
                    method: str, ranks: tuple, wides: tuple, store_lag: int,
                    evict_first: str, thread_load: bool, thread_store: bool, per_cta: bool):
    """body(A, B, Ctr) of build_permute_transpose (its docstring): the
    stages' boxes, the loads and stores of a tile, and the pipeline (or
    one_tile) that runs them around the in-place transpose."""
    lay, (rank_a, rank_b), (wide_in, wide_out) = geo.layout, ranks, wides
    stages = st.count
    (load_policy, load_hint), (store_policy, store_hint) = (
        cache_hints(evict_first)[side] for side in ("load", "store"))
    # The persistent pipeline's tickets are i32, one_tile's the block index.
    tile_index = (lambda t: t) if per_cta else IrOps.index

    def body(A, B, Ctr):
        dims = extents(A)
        if wide_in:   # (..., D / W, W): the innermost extent is their product
            dims = dims[:-2] + [dims[-2] * lay.width]
        counts = geo.counts(dims, DynOps)
        ins = [[(K.dynamic_shared(b, dtype, st.offset(s) + off), b, step)
                for b, step, off in geo.load_boxes()] for s in range(stages)]
        outs = [[(K.dynamic_shared(b, dtype, st.offset(s) + off), b, step)
                 for b, step, off in geo.store_boxes()] for s in range(stages)]
        bases = [K.base_address(ins[s][0][0]) for s in range(stages)]
        work = transpose_work(lay, threads, method)

        if thread_load:
            thread_loads = thread_load_work(lay, geo.tile, threads, dtype)

        def load(s, ticket, bar=None, tag=None):
            coords, _ = geo.origin(tile_index(ticket), counts, DynOps)
            if thread_load:
                thread_loads(bases[s], A, coords, dims)
                return
            for buf, b, step in ins[s]:
                c = geo.split(coords[:-1] + (coords[-1] + step,), wide_in, IrOps)
                tma.apply(load_opcode(rank_a, load_hint), buf, A, box=b, coords=c,
                          swizzle=lay.swizzle, mbar=bar, tag=tag, **load_policy)

        def store(s, ticket):
            _, coords = geo.origin(tile_index(ticket), counts, DynOps)
            for buf, b, step in outs[s]:
                c = geo.split(coords[:-1] + (coords[-1] + step,), wide_out, IrOps)
                tma.apply(store_opcode(rank_b, store_hint), B, buf, box=b, coords=c,
                          swizzle=lay.swizzle, **store_policy)

        if thread_store:
            stores = thread_store_work(lay, threads, dtype)
            dims_b = extents(B)

            def transpose_and_store(s, ticket):
                work(bases[s])
                _, coords = geo.origin(tile_index(ticket), counts, DynOps)
                stores(bases[s], B, coords, dims_b, geo.q)

            if per_cta:
                one_tile(st, load, transpose_and_store, threads_load=thread_load)
            else:
                all_thread_pipeline(st, Ctr, geo.n_tiles(counts), load, transpose_and_store)
        elif per_cta:
            one_tile(st, load, lambda s, tile: work(bases[s]), store, threads_load=thread_load)
        else:
            all_thread_pipeline(st, Ctr, geo.n_tiles(counts), load,
                                lambda s, ticket: work(bases[s]), store, store_lag)

    return body


def build_permute_transpose(elem: int, perm, tile, span: int = 128, stages: int = 3,
                            store_lag: int = 1, grid: int = 132, threads: int = 256,
                            method: str | None = None, gather=(), wide_in: bool = False,
                            wide_out: bool = False, evict_first: str = "", walk=(),
                            order=(), thread_store: bool = False, thread_load: bool = False,
                            name: str = "permute_transpose") -> K.KernelDef:
    """B = A.permute(perm) for a perm that moves the innermost axis: T_k x T_l
    tiles (`TransposeGeometry`: tile = (extent along input axis
    perm[-1 - len(gather)], T_l); `gather` the whole extents of the output's
    innermost axes after it) loaded as boxes of one `span`-byte swizzled row
    width, transposed in place in shared memory (`transpose_work`:
    ldmatrix.trans/stmatrix or conflict-free scalar accesses), stored as
    boxes; persistent CTAs claim tiles at run time. B is the output seen
    with its len(gather) + 1 innermost axes merged. `wide_in` / `wide_out`:
    A / B are seen with their innermost axis split by W (one more axis),
    and one 3-D box per tile moves each side (whole tile rows contiguous).
    `grid=0`: one tile per CTA, no pipeline (`one_tile`; the launch's grid
    is the tile count, `stages` is ignored). `evict_first`: "load", "store"
    or "both" give those copies the L2 evict_first policy. `walk`: (axis,
    g), the tile walk in blocks of g tiles along input axis `axis`
    (TiledGeometry.walk); `order`, the tile order (TiledGeometry.tile_order).
    `thread_store`: the threads store the transposed tile with 16-byte
    vector stores (`thread_store_work`) instead of the copy engine;
    `thread_load` (one tile a CTA only): the threads load it with 16-byte
    vector loads (`thread_load_work`), the copy engine none."""
    geo = _transpose_geometry(elem, perm, tile, span, gather, wide_in, wide_out, walk, order)
    lay = geo.layout
    method = transpose_method(lay, method)
    dtype = ELEM_DTYPES[elem]
    rank_a, rank_b = _transpose_ranks(geo, wide_in, wide_out)
    per_cta = grid == 0
    if thread_load and not per_cta:
        raise ValueError(f"thread_load with grid {grid}: the threads load one tile a CTA "
                         f"(grid=0) only")
    if thread_load and evict_first in ("load", "both"):
        raise ValueError(f"evict_first {evict_first!r} with thread_load: the threads' loads "
                         f"take no L2 policy")
    st = Stages(1 if per_cta else stages, -(-lay.tile_bytes // STAGE_ALIGN) * STAGE_ALIGN)
    body = _transpose_body(geo, st, dtype, threads, method, (rank_a, rank_b),
                           (wide_in, wide_out), store_lag, evict_first, thread_load,
                           thread_store, per_cta)

    # The one-tile form's grid is the launch's tile count; the declared
    # (known) grid bounds the block index, so it is the largest there is.
    kdef = K.KernelDef(body, grid=MAX_GRID if per_cta else grid, block=threads,
                       params=_params(elem, rank_a, rank_b), name=name)
    # one_tile: no tile ids; loaded by the threads, no mbarrier either
    kdef.shared_bytes = st.shared_bytes if not per_cta else \
        st.bar_offset if thread_load else st.ids_offset
    kdef.geometry = geo
    return kdef


def build_permute_simt(elem: int, perm, grid: int = 1056, threads: int = 256,
                       name: str = "permute_simt") -> K.KernelDef:
    """B = A.permute(perm) for any strides of A (innermost stride 1): each
    thread copies one element per step of a grid-stride loop over B (the
    launch's grid; `grid` is the most it may have)."""
    perm = _check_perm(perm, most=None)
    r = len(perm)

    def body(A, B):
        dims = extents(B)
        n = product(dims)
        start = K.block_id() * threads + K.thread_id()
        for f in K.range_(start, n, K.grid_dim() * threads):
            out = digits(f, dims, DynOps)
            src = [None] * r
            for j, p in enumerate(perm):
                src[p] = out[j]
            B[tuple(out)] = A[tuple(src)]

    return K.KernelDef(body, grid=grid, block=threads,
                       params=_params(elem, r, r, counter=False), name=name)
