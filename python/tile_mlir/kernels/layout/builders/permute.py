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

The geometry (`BoxGeometry`, `TransposeGeometry`) is written over an `ops`
object, so the CPU model (tile_mlir.kernels.layout.model) runs the same
coordinate maps the kernels emit.
"""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir
from mlir.dialects import llvm, vector

from .... import builder as K
from .... import tma
from ....builder import IrOps
from ....builder.pointers import shared_pointer
from ...common.opcodes import load_opcode, store_opcode
from ...copy.transpose import swizzled
from ...copy.transpose_inplace import cache_hints
from ...copy.transpose_plan import Plan
from ..geometry.smem_transpose import (
    ScalarTranspose,
    TileLayout,
    threads_error,
    transpose_method,
    transpose_tile,
)
from ..limits import ELEM_DTYPES, SWIZZLE_SPANS
from .ir import DynOps, all_of, digits, extents, product
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


@dataclass(frozen=True)
class TiledGeometry:
    """Tiles of `tile[a]` elements along input axis a, numbered row-major
    over the input axes in `order` (slowest first; default the output's
    order, the last output axis fastest, so consecutive tiles write
    neighbouring pieces of the output)."""
    perm: tuple
    tile: tuple
    # (axis, g): the tiles along input axis `axis` are walked g at a time,
    # the blocks slowest (the rest of the walk unchanged inside each), so
    # the tiles in flight cover a smaller region; () walks plainly.
    walk: tuple = ()
    # The input axes from the slowest tile digit to the fastest; () is the
    # output's order. Another order trades which side's runs are long.
    tile_order: tuple = ()

    @property
    def order(self) -> tuple:
        return self.tile_order or self.perm

    def counts(self, dims, ops) -> list:
        return [d if t == 1 else ops.cdiv(d, t) for d, t in zip(dims, self.tile)]

    def n_tiles(self, counts):
        return product(counts)

    def input_origin(self, t, counts, ops) -> tuple:
        radices = [counts[a] for a in self.order]
        u = [None] * len(self.perm)
        if self.walk:
            axis, g = self.walk
            p = self.order.index(axis)
            block_tiles = product(radices[:p] + radices[p + 1:]) * g
            block = ops.div(t, block_tiles)
            # The last block along the axis may hold fewer than g tiles.
            radices[p] = ops.min(radices[p] - block * g, g)
            t = t - block * block_tiles
        for j, digit in enumerate(digits(t, radices, ops)):
            u[self.order[j]] = digit
        if self.walk:
            u[axis] = u[axis] + block * g
        return tuple(x if t == 1 else x * t for x, t in zip(u, self.tile))

    def origin(self, t, counts, ops) -> tuple:
        """(input coordinates, output coordinates) of tile `t`'s first element."""
        coords = self.input_origin(t, counts, ops)
        return coords, tuple(coords[p] for p in self.perm)


class BoxGeometry(TiledGeometry):
    """build_permute_boxes: one box per tile (`tile` is the box)."""


@dataclass(frozen=True)
class TransposeGeometry(TiledGeometry):
    """build_permute_transpose: a tile is T_k x T_l elements. T_l runs along
    the input's innermost axis; T_k gathers the input axes that are the
    output's innermost, `gather_axes` (output order, m of them): the first
    (the outermost of them in the output) tiled by `tile[a]`, the others
    whole (static extents). The output is seen with those m axes merged
    into one (rank - m + 1 axes). Loads: T_l / W boxes (the gathered axes'
    extents, W along the innermost axis); stores: T_k / W boxes (T_l along
    output axis q, where the input's innermost axis lands, W along the
    merged innermost axis). Tiles are numbered in the output's order (the
    gathered axes fastest), so the tiles in flight write long runs of the
    output and the reads are the scattered side: on the H200 scattered
    writes cost more than scattered reads ((2, 1, 0) 4.03 TB/s against 3.77
    when the innermost input axis walked second fastest)."""
    layout: TileLayout = None
    gather_axes: tuple = ()

    @staticmethod
    def make(perm, tile, span: int, elem: int, gather=(), wide_in: bool = False,
             wide_out: bool = False, walk=(), order=()) -> "TransposeGeometry":
        perm = tuple(perm)
        extents_, axes, layout = transpose_tile(perm, tile, span, elem, gather, wide_in,
                                                wide_out)
        return TransposeGeometry(perm, extents_, tuple(walk), _tile_order(perm, order),
                                 layout, axes)

    @property
    def m(self) -> int:
        return len(self.gather_axes)

    @property
    def q(self) -> int:
        return self.perm.index(len(self.perm) - 1)

    def origin(self, t, counts, ops) -> tuple:
        """(input coordinates, coordinates in the merged output view)."""
        coords = self.input_origin(t, counts, ops)
        outer = tuple(coords[p] for p in self.perm[:len(self.perm) - self.m])
        first = self.gather_axes[0]
        scale = self.layout.t_k // self.tile[first]
        return coords, outer + (coords[first] * scale if scale > 1 else coords[first],)

    def load_boxes(self) -> list:
        """(box, inner coordinate step, byte offset in the stage) per load;
        `wide_in`: one box over the input seen as (..., D / W, W), whose
        coordinates end (inner / W, 0)."""
        lay, r = self.layout, len(self.perm)
        box = list(self.tile)
        if lay.wide_in:
            return [(tuple(box[:-1]) + (lay.t_l // lay.width, lay.width), 0, 0)]
        box[r - 1] = lay.width
        return [(tuple(box), m * lay.width, m * lay.t_k * lay.span)
                for m in range(lay.t_l // lay.width)]

    def store_boxes(self) -> list:
        lay = self.layout
        rank = len(self.perm) - self.m + 1
        box = [1] * rank
        if lay.wide_out:
            box[self.q] = lay.t_l
            return [(tuple(box[:-1]) + (lay.t_k // lay.width, lay.width), 0, 0)]
        box[self.q], box[rank - 1] = lay.t_l, lay.width
        return [(tuple(box), n * lay.width, n * lay.t_l * lay.span)
                for n in range(lay.t_k // lay.width)]

    def split(self, coords, wide: bool):
        """Coordinates of a view whose innermost axis is split by W."""
        if not wide:
            return coords
        w = self.layout.width
        inner = coords[-1]
        return tuple(coords[:-1]) + (inner // w if isinstance(inner, int)
                                     else IrOps.div(inner, w), 0)


def _tile_order(perm, order) -> tuple:
    """A tile order (TiledGeometry.tile_order) checked against perm."""
    order = tuple(int(a) for a in order)
    if order and sorted(order) != list(range(len(perm))):
        raise ValueError(f"order {order}: not a permutation of the {len(perm)} input axes")
    return order


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
    (TiledGeometry.tile_order; () the output's)."""
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
    geo = BoxGeometry(perm, box, tile_order=_tile_order(perm, order))
    out_box = box if permuted_store else tuple(box[p] for p in perm)
    stage_bytes = -(-product(box) * elem // 1024) * 1024
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
        values = [_load_word(layout.elem, base + xor(src, a)) for a, _ in steps]
        K.cta_sync()
        for (_, b), v in zip(steps, values):
            _store_word(v, base + xor(dst, b), layout.elem)
    return work


@dataclass(frozen=True)
class ThreadStoreMap:
    """Which vectors of a transposed tile's output image each thread stores
    (build_permute_transpose's `thread_store`). A vector is 16 bytes, or a
    whole tile row where that is less; a tile row holds `per_row` of them,
    and thread t takes row t // per_row + i * rows_per_step, vector
    t % per_row, at steps i < `steps` (rows past T_l are skipped), so a
    warp's lanes write consecutive vectors of one output row. Written over
    `ops` so the CPU test steps the same map."""
    layout: TileLayout
    threads: int

    @property
    def vec_bytes(self) -> int:
        return min(16, self.layout.t_k * self.layout.elem)

    @property
    def per_row(self) -> int:
        return self.layout.t_k * self.layout.elem // self.vec_bytes

    @property
    def rows_per_step(self) -> int:
        if self.threads % self.per_row:
            raise ValueError(f"{self.threads} threads do not cover whole rows of "
                             f"{self.per_row} vectors")
        return self.threads // self.per_row

    @property
    def steps(self) -> int:
        return -(-self.layout.t_l // self.rows_per_step)

    @property
    def row_bytes(self) -> int:
        """Bytes from one output row of the image to the next, within a box."""
        lay = self.layout
        return lay.t_k * lay.elem if lay.wide_out else lay.span

    def lane(self, tid, ops) -> tuple:
        """(first row, first column) of thread `tid`'s vectors."""
        return ops.div(tid, self.per_row), \
            ops.mod(tid, self.per_row) * (self.vec_bytes // self.layout.elem)

    def image_byte(self, row, col, ops):
        """The logical (unswizzled) byte offset of output element (row, col)
        in the image the TMA stores read: T_k / W boxes of T_l rows of W,
        or with `wide_out` one row-major (T_l, T_k) box."""
        lay = self.layout
        if lay.wide_out:
            return row * self.row_bytes + col * lay.elem
        return (ops.div(col, lay.width) * (lay.t_l * lay.span) + row * lay.span +
                ops.mod(col, lay.width) * lay.elem)


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
    same_chunk = step_bytes % 1024 == 0

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


@dataclass(frozen=True)
class ThreadLoadMap:
    """Which 16-byte vectors of a tile's input image each thread loads
    (build_permute_transpose's `thread_load`), and from where: thread t
    takes vectors t + i * threads of the image in byte order (`image_byte`;
    the last step's vectors past the image are loaded again as the image's
    last and not stored), so a warp's lanes read consecutive pieces of the
    tile's input rows. Written over `ops` so the CPU model steps the same
    map."""
    layout: TileLayout
    tile: tuple      # the tile's extent along each input axis
    threads: int

    VECTOR = 16

    @property
    def vectors(self) -> int:
        return self.layout.tile_bytes // self.VECTOR

    @property
    def steps(self) -> int:
        return -(-self.vectors // self.threads)

    @property
    def elements(self) -> int:
        """Elements in a vector."""
        return self.VECTOR // self.layout.elem

    def stored(self, i: int) -> bool:
        """Whether every thread's vector of step i lies inside the image."""
        return (i + 1) * self.threads <= self.vectors

    def image_byte(self, tid, i: int, ops):
        """The logical (unswizzled) image byte of thread tid's i-th vector
        (the image's last vector where step i's lies past it)."""
        byte = (tid + i * self.threads) * self.VECTOR
        return byte if self.stored(i) else ops.min(byte, self.layout.tile_bytes - self.VECTOR)

    def offsets(self, byte, ops) -> tuple:
        """Offsets from the tile's origin along each input axis of the
        element the copy engine's load boxes put at logical image byte
        `byte`: the boxes lie one after another (one row-major box of the
        whole tile with `wide_in`, else T_l / W boxes of W columns), each
        row-major."""
        lay = self.layout
        extents, inner = list(self.tile), 0
        if not lay.wide_in:
            box_bytes = lay.t_k * lay.span
            inner = ops.div(byte, box_bytes) * lay.width
            byte = ops.mod(byte, box_bytes)
            extents[-1] = lay.width
        out = digits(ops.div(byte, lay.elem), extents, ops)
        out[-1] = out[-1] + inner
        return tuple(out)

    def source(self, origin, byte, dims, ops) -> tuple:
        """(outer coordinates, first column) the vector at image byte `byte`
        of the tile at input coordinates `origin` reads from an input of
        extents `dims` (the innermost unsplit): an axis the tile spans is
        clamped to its last index, so every load is in bounds; what such a
        load fetches lands where the output lies past its edge. With
        `wide_in` the rows are whole numbers of W (so of vectors) and the
        column is clamped to the row's last vector; otherwise a vector
        across the row's end is read element by element, each clamped to
        the last column (`columns`)."""
        off = self.offsets(byte, ops)
        at = [o + d if t == 1 else ops.min(o + d, n - 1)
              for o, d, t, n in zip(origin[:-1], off[:-1], self.tile[:-1], dims[:-1])]
        col = origin[-1] + off[-1]
        if self.layout.wide_in:
            col = ops.min(col, dims[-1] - self.elements)
        return at, col

    def columns(self, col, inner, ops) -> list:
        """The columns of a vector at `col` read element by element (rows of
        `inner` elements), each clamped to the last."""
        return [ops.min(col + m, inner - 1) for m in range(self.elements)]


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
    lay = geo.layout
    method = transpose_method(lay, method)
    dtype = ELEM_DTYPES[elem]
    rank_out = r - geo.m + 1
    rank_a, rank_b = r + int(bool(wide_in)), rank_out + int(bool(wide_out))
    if max(rank_a, rank_b) > 5:
        raise ValueError("a wide box needs one more axis than the copy engine's 5")
    per_cta = grid == 0
    if thread_load and not per_cta:
        raise ValueError(f"thread_load with grid {grid}: the threads load one tile a CTA "
                         f"(grid=0) only")
    if thread_load and evict_first in ("load", "both"):
        raise ValueError(f"evict_first {evict_first!r} with thread_load: the threads' loads "
                         f"take no L2 policy")
    st = Stages(1 if per_cta else stages, -(-lay.tile_bytes // 1024) * 1024)
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
                c = geo.split(coords[:-1] + (coords[-1] + step,), wide_in)
                tma.apply(load_opcode(rank_a, load_hint), buf, A, box=b, coords=c,
                          swizzle=lay.swizzle, mbar=bar, tag=tag, **load_policy)

        def store(s, ticket):
            _, coords = geo.origin(tile_index(ticket), counts, DynOps)
            for buf, b, step in outs[s]:
                c = geo.split(coords[:-1] + (coords[-1] + step,), wide_out)
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

    # The one-tile form's grid is the launch's tile count; the declared
    # (known) grid bounds the block index, so it is the largest there is.
    kdef = K.KernelDef(body, grid=(1 << 31) - 1 if per_cta else grid, block=threads, params=_params(elem, rank_a, rank_b),
                       name=name)
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
