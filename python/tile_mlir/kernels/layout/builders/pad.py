"""The pad kernels: B = pad(A) in canonical form (tile_mlir.kernels.
plan.pad.canonical_pad), B[o] = A[o - left] inside A, the fill outside.
Extents are runtime values, and so are the pads and the fill's bits
(scalar parameters); the dtype, rank, box or tile and the fill's kind
("zero", "nan": the copy engine's fills; "value": written by threads) are
static.

build_pad_boxes  every stride and the innermost shift 16-byte aligned: one
                 box of B per tile, loaded from A at the shifted
                 coordinates (the copy engine fills what lies outside A),
                 stored to B. Fill "value": the threads overwrite what lies
                 outside in the boxes that reach past A's edge.
build_pad_rows   B's rows at any alignment: blocks of A's rows loaded the
                 same way (nb boxes side by side, the first at a 16-byte
                 aligned column before the shifted start); the threads copy
                 each output row segment to B with 16-byte stores where B
                 is aligned and element stores at the segment's ends.
build_pad_simt   any strides: one element per thread and step.

The tiles' geometry (PadGeometry, RowsGeometry) is geometry/pad.py's, so
the CPU models run the maps these kernels trace.
"""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir
from mlir.dialects import arith, llvm, vector

from .... import builder as K
from .... import contract, tma
from ....builder import IrOps
from ....builder.pointers import shared_pointer
from ...common.opcodes import load_opcode, store_opcode
from ...copy.transpose_inplace import cache_hints
from ..call import flat_boxes_fit, flat_row_conditions, rows_stage_bytes
from ..geometry.addressing import digits, product
from ..geometry.pad import PadGeometry, RowsGeometry
from ..limits import ELEM_DTYPES, STAGE_ALIGN, STRIDE_ALIGN
from .ir import DynOps, all_of, chunk_pair_vector, extents, to_i32
from .pipeline import Stages, all_thread_pipeline, one_thread_pipeline

FILLS = ("zero", "nan", "value")
FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
# The dtypes a pad kernel moves: the signless integers of each size (bits),
# and the float types a NaN or a value fill converts to.
DTYPES = tuple(ELEM_DTYPES.values()) + FLOAT_DTYPES


def dtype_bytes(dtype: str) -> int:
    if dtype not in DTYPES:
        raise ValueError(f"dtype {dtype!r}: one of {', '.join(DTYPES)}")
    return contract.dtype_bytes(dtype)


def _check_fill(fill: str, dtype: str) -> None:
    if fill not in FILLS:
        raise ValueError(f"fill {fill!r}: one of {FILLS}")
    if fill == "nan" and dtype not in FLOAT_DTYPES:
        raise ValueError("the NaN fill needs a floating-point dtype")


def _scalars(prefix: str, rank: int) -> list:
    return [(f"{prefix}{a}", K.Scalar("index")) for a in range(rank)]


def _any(conds) -> K.Expr:
    out = conds[0]
    for c in conds[1:]:
        out = K.Expr(arith.ori(out.value, c.value))
    return out


def _select(cond: K.Expr, a, b) -> K.Expr:
    """a where cond holds, else b (index Exprs or ints, or two i1 Exprs)."""
    return K.Expr(arith.select(K.Expr.of(cond), K.Expr.of(a), K.Expr.of(b)))


def _i32(x) -> K.Expr:
    """An index Expr as an i32 Expr."""
    return K.Expr(to_i32(x))


def _c32(n: int) -> K.Expr:
    """An i32 constant Expr."""
    return K.Expr(arith.constant(ir.IntegerType.get_signless(32), n))


def _join_bytes(low: ir.Value, high: ir.Value, nbytes: K.Expr) -> ir.Value:
    """The first `nbytes` (1..16) bytes of `low` followed by the rest of
    `high` (two vector<4xi32>), through two 64-bit masks: no branch."""
    i64 = ir.IntegerType.get_signless(64)
    pair = ir.VectorType.get([2], i64)
    lo, hi = (vector.bitcast(pair, v) for v in (low, high))

    def ones(n: K.Expr) -> ir.Value:       # the low n (1..8) bytes set
        bits = arith.extui(i64, to_i32(n * 8 - 1))
        two = arith.constant(i64, 2)
        return arith.subi(arith.shli(two, bits), arith.constant(i64, 1))

    zero = arith.constant(i64, 0)
    masks = [ones(DynOps.min(nbytes, 8)),
             arith.select((nbytes > 8).value, ones(DynOps.max(nbytes, 9) - 8), zero)]
    out = []
    for j, mask in enumerate(masks):
        a, b = vector.extract(lo, [], [j]), vector.extract(hi, [], [j])
        keep = arith.andi(a, mask)
        take = arith.andi(b, arith.xori(mask, arith.constant(i64, -1)))
        out.append(arith.ori(keep, take))
    return vector.bitcast(ir.VectorType.get([4], ir.IntegerType.get_signless(32)),
                          vector.from_elements(pair, out))


def _bits(value: K.Expr, dtype: str) -> ir.Value:
    """The fill's int64 bits as the element type's integer."""
    width = 8 * dtype_bytes(dtype)
    v = K.Expr.of(value)
    return v if width == 64 else arith.trunci(ir.IntegerType.get_signless(width), v)


def _as_element(bits: ir.Value, dtype: str) -> ir.Value:
    elem = K.element_type(dtype)
    return bits if isinstance(elem, ir.IntegerType) else arith.bitcast(elem, bits)


def _shared_store(value: ir.Value, addr: K.Expr, dtype: str) -> None:
    llvm.store(value, shared_pointer(addr), alignment=dtype_bytes(dtype))


def _shared_load(dtype: str, addr: K.Expr) -> ir.Value:
    return llvm.load(K.element_type(dtype), shared_pointer(addr),
                     alignment=dtype_bytes(dtype))


def build_pad_boxes(dtype: str, rank: int, box, fill: str = "zero", stages: int = 4,
                    grid: int = 132, threads: int = 128,
                    name: str = "pad_boxes") -> K.KernelDef:
    """pad for aligned strides and shifts: a box of B per tile, loaded from
    A at coordinates o - left. Parameters A, B, Ctr, left0..left{rank-1}
    (index), and for fill "value" the fill's bits (int64)."""
    _check_fill(fill, dtype)
    box = tuple(int(b) for b in box)
    if len(box) != rank:
        raise ValueError(f"box {box} is not rank {rank}")
    elem = dtype_bytes(dtype)
    geo = PadGeometry(box)
    st = Stages(stages, -(-product(box) * elem // STAGE_ALIGN) * STAGE_ALIGN)
    oob = 1 if fill == "nan" else 0
    n_box = product(box)

    def body(A, B, Ctr, *scalars):
        lefts = scalars[:rank]
        dims = extents(A)
        counts = geo.counts(extents(B), DynOps)
        bufs = [K.dynamic_shared(box, dtype, st.offset(s)) for s in range(stages)]

        def source(ticket):
            out = geo.origin(IrOps.index(ticket), counts, DynOps)
            return out, tuple(o - l for o, l in zip(out, lefts))

        def load(s, ticket, bar, tag):
            _, src = source(ticket)
            tma.apply(load_opcode(rank), bufs[s], A, box=box, coords=src, mbar=bar,
                      tag=tag, oob_fill=oob)

        def store(s, ticket):
            out, _ = source(ticket)
            tma.apply(store_opcode(rank), B, bufs[s], box=box, coords=out)

        n_tiles = product(counts)
        if fill != "value":
            one_thread_pipeline(st, 1, Ctr, n_tiles, load, store)
            return
        value = _as_element(_bits(scalars[rank], dtype), dtype)
        tid = K.thread_id()
        bases = [K.base_address(b) for b in bufs]

        def work(s, ticket):
            _, src = source(ticket)
            edge = _any([c < 0 for c in src] +
                        [c + b > d for c, b, d in zip(src, box, dims)])
            with K.if_(edge):  # only boxes that reach past A's edge
                for i in K.range_(tid, n_box, threads):
                    idx = digits(i, box, IrOps)
                    coords = [c + j for c, j in zip(src, idx)]
                    outside = _any([c < 0 for c in coords] +
                                   [c >= d for c, d in zip(coords, dims)])
                    with K.if_(outside):
                        _shared_store(value, bases[s] + i * elem, dtype)

        all_thread_pipeline(st, Ctr, n_tiles, load, work, store, 1)

    params = [("A", K.Tensor((None,) * rank, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * rank, dtype)), ("Ctr", K.Tensor((2,), "int32"))]
    params += _scalars("left", rank)
    if fill == "value":
        params.append(("value", K.Scalar("int64")))
    kdef = K.KernelDef(body, grid=grid, block=threads if fill == "value" else 32,
                       params=params, name=name)
    kdef.shared_bytes = st.shared_bytes
    kdef.geometry = geo
    return kdef


@dataclass(frozen=True)
class _RowsShape:
    """build_pad_rows' static choices: the geometry, the stages, the fill,
    the threads and how they split a tile's rows and segments."""
    geo: RowsGeometry
    dtype: str
    fill: str
    st: Stages
    threads: int
    l2_promotion: int
    evict_first: bool
    flat: bool

    @property
    def oob(self) -> int:
        return 1 if self.fill == "nan" else 0

    @property
    def load_hint(self) -> tuple:
        """(the loads' cache_policy kwargs, whether the opcode carries it)."""
        return cache_hints("load" if self.evict_first else "")["load"]

    @property
    def warps(self) -> int:
        return self.threads // 32

    @property
    def row_steps(self) -> int:
        return -(-self.geo.rows // self.warps)

    @property
    def slots(self) -> int:
        """A warp's 16-byte vectors of one output row segment, per lane."""
        return -(-(self.geo.columns // self.geo.vec + 2) // 32)

    @property
    def slot_offset(self) -> int:
        """The flat form's slots: one 16-byte slot a tile row, after the stages."""
        return -(-self.st.shared_bytes // STRIDE_ALIGN) * STRIDE_ALIGN

    @property
    def shared_bytes(self) -> int:
        return self.slot_offset + self.geo.rows * STRIDE_ALIGN if self.flat else \
            self.st.shared_bytes


class _RowsTrace:
    """build_pad_rows' kernel body being traced: the values every tile
    shares (extents, tile counts, stage addresses, thread ids), built in
    the constructor, then the stage loads and per tile the row form
    (`row_tile`) or the flat form (`flat_work`)."""

    def __init__(self, shape: _RowsShape, A, B, scalars):
        self.shape, self.geo, self.A, self.B = shape, shape.geo, A, B
        geo, rank, dtype = shape.geo, shape.geo.rank, shape.dtype
        self.lefts, rights = scalars[:rank], scalars[rank:2 * rank]
        self.dims = extents(A)
        self.out = [d + l + r for d, l, r in zip(self.dims, self.lefts, rights)]
        self.counts = geo.counts(self.out, DynOps)
        self.height = geo.height(self.out[-2], DynOps)
        self.bufs = [[K.dynamic_shared((1,) * (rank - 2) + (geo.rows, geo.wbox), dtype,
                                       shape.st.offset(s) + k * geo.box_bytes)
                      for k in range(geo.nb)]
                     for s in range(shape.st.count)]
        self.bases = [K.base_address(b[0]) for b in self.bufs]
        self.tid = K.thread_id()
        self.lane, self.warp = IrOps.mod(self.tid, 32), IrOps.div(self.tid, 32)
        self.vtype = K.vector_type(dtype)
        self.value = _as_element(_bits(scalars[2 * rank], dtype), dtype) \
            if shape.fill == "value" else None

    def load(self, s, ticket, bar, tag):
        geo, lefts, rank = self.geo, self.lefts, self.geo.rank
        hint, hinted = self.shape.load_hint
        outer, row0, c0 = geo.origin(IrOps.index(ticket), self.counts, DynOps, self.height)
        col, _ = geo.load_start(c0, lefts[-1], DynOps)
        src = tuple(o - l for o, l in zip(outer, lefts)) + (row0 - lefts[-2],)
        for k in range(geo.nb):
            tma.apply(load_opcode(rank, hinted), self.bufs[s][k], self.A,
                      box=(1,) * (rank - 2) + (geo.rows, geo.wbox),
                      coords=src + (col + k * geo.wbox,), mbar=bar, tag=tag,
                      oob_fill=self.shape.oob, l2_promotion=self.shape.l2_promotion, **hint)

    def shifted_words(self, ebase, s_idx, clamp=False, slot=None):
        """The 16 bytes at element s_idx of the stage row at `ebase`, from
        the two aligned chunks under them (the second may start the
        next box), as vector<4xi32>. `clamp`: the second chunk no later
        than the row's last (bytes past the row are junk, not reads past
        the stage). `slot` (cond, address): where cond holds, the 16
        bytes at that shared address instead."""
        geo, V = self.geo, self.geo.vec
        a = IrOps.and_(s_idx, -V)
        first = ebase + geo.shared_offset(0, a, DynOps)
        if slot is not None:
            first = _select(slot[0], slot[1], first)
        a1 = DynOps.min(a + V, geo.nb * geo.wbox - V) if clamp else a + V
        second = ebase + geo.shared_offset(0, a1, DynOps)
        rem = (s_idx - a) * geo.elem
        if slot is not None:
            rem = _select(slot[0], K.Expr.of(0, rem), rem)
        return chunk_pair_vector(first, second, rem)

    def stage_element(self, ebase, s_idx):
        """Element s_idx of the stage row at `ebase`."""
        return _shared_load(self.shape.dtype, ebase + self.geo.shared_offset(0, s_idx, DynOps))

    def outer_index(self, outer):
        """The flat index of the outer output coordinates `outer`."""
        flat = 0
        for o, d in zip(outer, self.out[:-2]):
            flat = flat * d + o
        return flat

    # -- the row form ----------------------------------------------------

    def row_tile(self, s, ticket):
        """work(s, ticket) of the row form: warp w copies tile rows w,
        w + warps, ..., each an output row segment (`row_segment`)."""
        shape, geo, out, lefts, dims = self.shape, self.geo, self.out, self.lefts, self.dims
        outer, row0, c0 = geo.origin(IrOps.index(ticket), self.counts, DynOps, self.height)
        _, delta = geo.load_start(c0, lefts[-1], DynOps)
        n_x = DynOps.min(out[-1] - c0, geo.columns)
        flat_outer = self.outer_index(outer)
        outer_ok = all_of([(o - l >= 0) for o, l in zip(outer, lefts)] +
                          [(o - l < d) for o, l, d in zip(outer, lefts, dims)]) \
            if shape.fill == "value" and outer else None

        def element(ebase, x, row_ok):
            v = self.stage_element(ebase, x + delta)
            if self.value is None:
                return v
            c_in = c0 + x - lefts[-1]
            ok = all_of([row_ok, c_in >= 0, c_in < dims[-1]])
            return arith.select(ok.value, v, self.value)

        for step in range(shape.row_steps):
            rho = self.warp + step * shape.warps
            orow = row0 + rho
            with K.if_(all_of([rho < self.height, orow < out[-2]]) if geo.equal else
                       all_of([rho < geo.rows, orow < out[-2]]) if geo.rows % shape.warps
                       else (orow < out[-2])):
                ebase = self.bases[s] + rho * (geo.wbox * geo.elem)
                row_ok = None
                if self.value is not None:
                    i_row = orow - lefts[-2]
                    conds = [i_row >= 0, i_row < dims[-2]]
                    row_ok = all_of(conds + ([outer_ok] if outer_ok is not None else []))
                f = (flat_outer * out[-2] + orow) * out[-1] + c0
                self.row_segment(ebase, row_ok, f, n_x, delta, element)

    def row_segment(self, ebase, row_ok, f, n_x, delta, element):
        """One warp's output row segment B[f, f + n_x) from the stage row at
        `ebase`: 16-byte stores where B is aligned, the ends element by
        element. `element(ebase, x, row_ok)` is column x's element (the
        fill where it lies outside A)."""
        V = self.geo.vec
        head = DynOps.mod(V - DynOps.mod(f, V), V)
        n_vec = DynOps.div(DynOps.max(n_x, head) - head, V)
        for j in range(self.shape.slots):
            v_i = self.lane + 32 * j
            with K.if_(v_i < n_vec):
                x0 = head + v_i * V
                if self.value is None:
                    words = self.shifted_words(ebase, x0 + delta)
                    K.vector_store(vector.bitcast(self.vtype, words), self.B,
                                   (f + x0,))
                else:
                    elems = [element(ebase, x0 + i, row_ok) for i in range(V)]
                    K.vector_store(vector.from_elements(self.vtype, elems), self.B,
                                   (f + x0,))
        # The ends: lanes 0..V-1 the head, V..2V-1 the tail.
        with K.if_(self.lane < V):
            x = self.lane
            with K.if_(all_of([x < head, x < n_x])):
                self.B[f + x] = K.Expr(element(ebase, x, row_ok))
        with K.if_(all_of([self.lane >= V, self.lane < 2 * V])):
            x = head + n_vec * V + (self.lane - V)
            with K.if_(x < n_x):
                self.B[f + x] = K.Expr(element(ebase, x, row_ok))

    # -- the flat form ---------------------------------------------------

    def flat_work(self):
        """work(s, ticket) of the flat form (build_pad_rows' `flat`): the
        launch's own values first (the slots, each thread's first vector
        and its step), then per tile `flat_tile` where the tile spans whole
        rows, else the row form."""
        geo, V, threads = self.geo, self.geo.vec, self.shape.threads
        Wo = self.out[-1]
        self.slot_base = K.base_address(K.dynamic_shared((geo.rows * V,), self.shape.dtype,
                                                         self.shape.slot_offset))
        # Each thread's next vector is threads * V elements on: dr rows
        # and dc columns further (one division a launch).
        self.dr, self.dc = DynOps.div(threads * V, Wo), DynOps.mod(threads * V, Wo)
        # and its first vector tid * V elements past the run's first.
        self.r_t, self.c_t = DynOps.div(self.tid * V, Wo), DynOps.mod(self.tid * V, Wo)

        def work(s, ticket):
            # A vector spans at most two rows where they are V or wider.
            K.if_else(all_of(flat_row_conditions(self.out[-1], geo.wbox, geo.nb, geo.elem)), [],
                      lambda: self.flat_tile(s, ticket) or [],
                      lambda: self.row_tile(s, ticket) or [])

        return work

    def flat_tile(self, s, ticket):
        """The flat form on one tile: its output is the run [f0, end) of
        the flat B; the vectors across rows' ends are joined into slots
        (`join_row_ends`), then the threads store the run's aligned
        vectors (`flat_vectors`) and its ends (`flat_ends`)."""
        geo, V, out, Wo = self.geo, self.geo.vec, self.out, self.out[-1]
        outer, row0, c0 = geo.origin(IrOps.index(ticket), self.counts, DynOps, self.height)
        _, delta = geo.load_start(c0, self.lefts[-1], DynOps)
        f0 = (self.outer_index(outer) * out[-2] + row0) * Wo
        n_rows = DynOps.min(out[-2] - row0, self.height)
        end = f0 + n_rows * Wo
        a0 = IrOps.and_(f0 + (V - 1), -V)
        a1 = IrOps.and_(end, -V)
        n_vec = DynOps.div(DynOps.max(a1, a0) - a0, V)
        c = self.c_t + (a0 - f0)     # a0 - f0 < V <= Wo: one wrap at most
        wrapped = c >= Wo
        c = _select(wrapped, c - Wo, c)
        r = self.r_t + _select(wrapped, 1, 0)
        # The stage arithmetic in 32 bits (shared addresses, and
        # columns under `columns`): in 64-bit index math the loop
        # ran 138 instructions a warp's 32 vectors.
        wo, dl = _i32(Wo), _i32(delta)
        self.join_row_ends(s, f0, n_rows, wo, dl)
        K.cta_sync()
        self.flat_vectors(s, a0, n_vec, r, c, wo, dl)
        self.flat_ends(s, f0, end, a0, a1, delta)

    def join_row_ends(self, s, f0, n_rows, wo, dl):
        """First the vector across row r's end, for r < R - 1 where row
        r + 1 starts off a vector (row r's last m elements, then row
        r + 1's first V - m), into row r's slot: one thread a row, the
        rows dealt over the warps."""
        shape, geo, V = self.shape, self.geo, self.geo.vec
        threads, wbox, elem = shape.threads, geo.wbox, geo.elem
        for rep in range(-(-(geo.rows - 1) // threads)):
            rr = self.lane * shape.warps + self.warp + rep * threads
            f1 = f0 + (rr + 1) * self.out[-1]
            m = _i32(IrOps.and_(f1, V - 1))
            with K.if_(all_of([rr + 1 < n_rows, m != 0])):
                rb = _i32(self.bases[s] + rr * (wbox * elem))
                # Row r from column Wo - m (past its end: bytes the join drops).
                low = self.shifted_words(rb, wo - m + dl, clamp=True)
                # Row r + 1 from column -m: its chunks from column a - V,
                # where a - V < 0 is row r's last box-0 chunk, up to
                # column 2V - 1 (flat_boxes_fit).
                sp = dl + V - m
                a = IrOps.and_(sp, -V)
                nbase = rb + (wbox * elem) + (a - V) * elem
                high = chunk_pair_vector(nbase, nbase + STRIDE_ALIGN, (sp - a) * elem)
                llvm.store(_join_bytes(low, high, m * elem),
                           shared_pointer(_i32(self.slot_base + rr * STRIDE_ALIGN)),
                           alignment=16)

    def flat_vectors(self, s, a0, n_vec, r, c, wo, dl):
        """The run's aligned 16-byte vectors, consecutive threads on
        consecutive vectors; thread tid's first is at tile row r, column
        c, and each step moves it dr rows and dc columns on."""
        shape, geo, V = self.shape, self.geo, self.geo.vec
        threads, wbox, elem, tid = shape.threads, geo.wbox, geo.elem, self.tid
        iters = -(-(geo.rows * geo.columns // V + 1) // threads)
        step = _i32(self.dr * (wbox * elem))
        dc32, dr32 = _i32(self.dc), _i32(self.dr)

        def vector_step(i, values):
            # rb: stage address of row r (box 0); c: the vector's column.
            rb, c, r = (K.Expr(v) for v in values)
            k = tid + i * threads
            with K.if_(k < n_vec):
                # A vector across row r's end is row r's slot.
                slot = (c + V > wo, _i32(self.slot_base) + r * STRIDE_ALIGN)
                words = self.shifted_words(rb, c + dl, slot=slot)
                K.vector_store(vector.bitcast(self.vtype, words), self.B, (a0 + k * V,))
            c = c + dc32
            wrap = c >= wo
            c = _select(wrap, c - wo, c)
            rb = rb + step + _select(wrap, _c32(wbox * elem), _c32(0))
            r = r + dr32 + _select(wrap, _c32(1), _c32(0))
            return [K.Expr.of(rb), K.Expr.of(c), K.Expr.of(r)]

        rb0 = _i32(self.bases[s] + r * (wbox * elem))
        K.for_carried(0, iters, [K.Expr.of(v) for v in (rb0, _i32(c), _i32(r))],
                      vector_step)

    def flat_ends(self, s, f0, end, a0, a1, delta):
        """The run's ends: threads 0..V-1 its head, V..2V-1 its tail (a
        division, but in warp 0 alone; without it ptxas took 112
        registers for 80)."""
        geo, V, tid, Wo = self.geo, self.geo.vec, self.tid, self.out[-1]
        is_head = tid < V
        e = _select(is_head, f0 + tid, DynOps.max(a1, a0) + (tid - V))
        in_end = _select(is_head, e < a0, tid < 2 * V)
        with K.if_(all_of([in_end, e < end])):
            off = e - f0
            row, col = DynOps.div(off, Wo), DynOps.mod(off, Wo)
            self.B[e] = K.Expr(self.stage_element(self.bases[s] + row * (geo.wbox * geo.elem),
                                                  col + delta))


def build_pad_rows(dtype: str, rank: int, wbox: int, nb: int, rows: int,
                   fill: str = "zero", stages: int = 3, grid: int = 132,
                   threads: int = 256, l2_promotion: int = 0, evict_first: bool = False,
                   equal: bool = False, fence: str = "all", flat: bool = False,
                   name: str = "pad_rows") -> K.KernelDef:
    """pad whose output rows need not be 16-byte aligned (A's strides must
    be). Parameters A (rank >= 2), B (flat), Ctr, left0.., right0.. (index)
    and for fill "value" its bits (int64). `l2_promotion` (the load map's)
    and `evict_first` (the loads' L2 policy) are benchmark variants;
    `equal`: tiles of one height at most `rows` (RowsGeometry);
    `fence`: where the stage's proxy fence goes (all_thread_pipeline:
    "all", "issuer" or "none"). `flat`: the flat form (pad.flat_launch
    picks it; docs/layout-kernels.md, "The pad's two forms"): where a tile
    spans whole output rows (call.flat_row_conditions, checked at
    run time; else the row form runs), its output is one run of the flat
    output, which the threads write in aligned 16-byte vectors,
    consecutive threads consecutive vectors, so a warp's store covers
    whole 128-byte lines; the vectors across rows' ends are joined into
    shared slots first. The engine's fill only (zero or NaN); boxes that
    fail call.flat_boxes_fit take the row form."""
    if flat and fill == "value":
        raise ValueError("flat: the copy engine's fill only (zero or nan), not 'value'")
    _check_fill(fill, dtype)
    if rank < 2:
        raise ValueError("build_pad_rows takes rank >= 2 (view a 1-D pad as (1, n))")
    elem = dtype_bytes(dtype)
    geo = RowsGeometry(rank, elem, wbox, nb, rows, bool(equal))
    shape = _RowsShape(geo, dtype, fill, Stages(stages, rows_stage_bytes(rows, wbox, nb, elem)),
                       threads, l2_promotion, evict_first, flat and flat_boxes_fit(wbox, elem))

    def body(A, B, Ctr, *scalars):
        trace = _RowsTrace(shape, A, B, scalars)
        work = trace.flat_work() if shape.flat else trace.row_tile
        all_thread_pipeline(shape.st, Ctr, product(trace.counts), trace.load, work, None,
                            fence=fence)

    params = [("A", K.Tensor((None,) * rank, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,), dtype)), ("Ctr", K.Tensor((2,), "int32"))]
    params += _scalars("left", rank) + _scalars("right", rank)
    if fill == "value":
        params.append(("value", K.Scalar("int64")))
    kdef = K.KernelDef(body, grid=grid, block=threads, params=params, name=name)
    kdef.shared_bytes = shape.shared_bytes
    kdef.geometry = geo
    return kdef


def build_pad_simt(dtype: str, rank: int, grid: int = 1056, threads: int = 256,
                   name: str = "pad_simt") -> K.KernelDef:
    """pad for any strides: one output element per thread and step.
    Parameters A, B, left0.. (index) and the fill's bits (int64)."""
    dtype_bytes(dtype)

    def body(A, B, *scalars):
        lefts, bits = scalars[:rank], scalars[rank]
        value = _as_element(_bits(bits, dtype), dtype)
        dims, out = extents(A), extents(B)
        n = product(out)
        elem = K.element_type(dtype)
        start = K.block_id() * threads + K.thread_id()
        for f in K.range_(start, n, K.grid_dim() * threads):
            o = digits(f, out, DynOps)
            src = [x - l for x, l in zip(o, lefts)]
            inside = all_of([c >= 0 for c in src] + [c < d for c, d in zip(src, dims)])
            (v,) = K.if_else(inside, [elem], lambda: [A[tuple(src)].value],
                             lambda: [value])
            B[tuple(o)] = K.Expr(v)

    params = [("A", K.Tensor((None,) * rank, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * rank, dtype))]
    params += _scalars("left", rank) + [("value", K.Scalar("int64"))]
    return K.KernelDef(body, grid=grid, block=threads, params=params, name=name)
