"""The unfold (im2col) kernels. Extents are runtime values; the element
size, kernel, padding, stride, dilation and the tile are static.

build_unfold_nhwc  channels-last input (N, H, W, C), output (N, L, kh kw C)
                   viewed as (N L, kh kw, C): a tile is P output pixels by
                   Cb channels of one filter tap, one im2col load (pixel
                   column from the output pixel's base position, the tap as
                   offsets, stride as traversal strides, the padding from
                   the copy engine's fill) and one tile store. One thread
                   moves boxes (the boxes pipeline of the permute kernels).
build_unfold_nchw  F.unfold's layout: input (N C, H, W), output
                   (N, C kh kw, L) written flat. A tile is one image plane
                   by R output rows by Cw output columns: the input rows
                   under them loaded as nb boxes (the padding filled by the
                   copy engine), then every thread copies, for every tap,
                   the tap's shifted and strided window into the output rows
                   (16-byte stores where aligned, element stores at the ends).
build_unfold_simt  any strides or sizes, either layout: one output element
                   per thread and step.

The window and the tiles' geometry (Conv, Im2colGeometry,
RowsUnfoldGeometry) are geometry/unfold.py's, so the CPU models run the
maps these kernels trace.
"""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, llvm, vector

from .... import builder as K
from .... import tma
from ....builder import IrOps
from ....builder.pointers import shared_pointer
from ....tma import format_opcode
from ...common.opcodes import load_opcode, store_opcode
from ..call import rows_stage_bytes
from ..geometry.addressing import digits, product
from ..geometry.gather import (StridedGather, piece_offset, piece_sizes, piece_words,
                               wide_gather_fits)
from ..geometry.unfold import Conv, Im2colGeometry, RowsUnfoldGeometry
from ..limits import ELEM_DTYPES, STAGE_ALIGN
from .ir import DynOps, all_of, chunk_pair_vector, extents, to_i32
from .pipeline import Stages, all_thread_pipeline, one_thread_pipeline


def _i16(x) -> ir.Value:
    return arith.index_cast(ir.IntegerType.get_signless(16), K.Expr.of(x))


def build_unfold_nhwc(elem: int, kernel, padding, stride, dilation, pixels: int,
                      channels: int, stages: int = 4, grid: int = 132,
                      name: str = "unfold_nhwc") -> K.KernelDef:
    """unfold of a channels-last image through im2col loads. Parameters A
    (N, H, W, C), B (N L, kh kw, C), Ctr."""
    conv = Conv.of(kernel, padding, stride, dilation)
    geo = Im2colGeometry(conv, int(pixels), int(channels))
    dtype = ELEM_DTYPES[elem]
    box = (geo.pixels, geo.channels)
    st = Stages(stages, -(-geo.pixels * geo.channels * elem // STAGE_ALIGN) * STAGE_ALIGN)
    lower, upper = geo.corners
    (sh, sw) = conv.stride
    opcode = format_opcode("load", "im2col", 4)

    def body(A, B, Ctr):
        n, h, w, c = extents(A)
        oh, ow = conv.out_hw(h, w, DynOps)
        L = oh * ow
        counts = geo.counts(n, c, L, DynOps)
        ins = [K.dynamic_shared(box, dtype, st.offset(s)) for s in range(stages)]
        outs = [K.dynamic_shared((geo.pixels, 1, geo.channels), dtype, st.offset(s))
                for s in range(stages)]

        def load(s, ticket, bar, tag):
            coords, offsets, _ = geo.origin(IrOps.index(ticket), counts, ow, L, DynOps)
            tma.apply(opcode, ins[s], A, box=box, coords=coords,
                      element_strides=(1, sh, sw, 1), pixel_box_lower=lower,
                      pixel_box_upper=upper, offsets=[_i16(o) for o in offsets],
                      mbar=bar, tag=tag)

        def store(s, ticket):
            _, _, coords = geo.origin(IrOps.index(ticket), counts, ow, L, DynOps)
            tma.apply(store_opcode(3), B, outs[s], box=(geo.pixels, 1, geo.channels),
                      coords=coords)

        one_thread_pipeline(st, 1, Ctr, product(counts), load, store)

    params = [("A", K.Tensor((None,) * 4, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * 3, dtype)), ("Ctr", K.Tensor((2,), "int32"))]
    kdef = K.KernelDef(body, grid=grid, block=32, params=params, name=name)
    kdef.shared_bytes = st.shared_bytes
    kdef.geometry = geo
    return kdef


class IrWordOps:
    """geometry.gather's word ops in IR: i32 words, index byte offsets."""

    @staticmethod
    def sel(c, a, b):
        return arith.select(c, a, b)

    @staticmethod
    def bit(x, m):
        masked = arith.andi(K.Expr.of(x), K.Expr.of(m, x))
        return arith.cmpi(arith.CmpIPredicate.ne, masked, K.Expr.of(0, x))

    @staticmethod
    def fshr(hi, lo, x):
        shift = to_i32(K.Expr.of(IrOps.shl(IrOps.and_(x, 3), 3)))
        return llvm.intr_fshr(hi, lo, shift)

    @staticmethod
    def prmt(a, b, sel):
        code = sum(s << (4 * k) for k, s in enumerate(sel))
        i32 = ir.IntegerType.get_signless(32)
        return llvm.inline_asm(i32, [a, b], f"prmt.b32 $0, $1, $2, {code:#06x};",
                               "=r,r,r")


def _chunk_words(addr) -> list:
    """The 4 words of the 16-byte shared chunk at byte address addr."""
    v4 = ir.VectorType.get([4], ir.IntegerType.get_signless(32))
    v = llvm.load(v4, shared_pointer(addr), alignment=16)
    return [vector.extract(v, [], [i]) for i in range(4)]


def _store_piece(B, at, words, size: int, dtype: str, elem: int) -> None:
    """The low `size` bytes of words (one, or two for 8) at element `at`
    of B, an aligned store of that size."""
    i32, i64 = (ir.IntegerType.get_signless(n) for n in (32, 64))
    if size == 8:
        lo, hi = (arith.extui(i64, w) for w in words)
        value = arith.ori(lo, arith.shli(hi, arith.constant(i64, 32)))
        itype = i64
    else:
        itype = ir.IntegerType.get_signless(8 * size)
        value = words[0] if size == 4 else arith.trunci(itype, words[0])
    vec = vector.from_elements(ir.VectorType.get([1], itype), [value])
    vtype = ir.VectorType.get([size // elem], K.element_type(dtype))
    K.vector_store(vector.bitcast(vtype, vec), B, (at,), alignment=size)


def build_unfold_nchw(elem: int, kernel, padding, stride, dilation, wbox: int, nb: int,
                      rows: int, stages: int = 3, grid: int = 132, threads: int = 256,
                      width: int = 0, fence: str = "all", hstride: int = 1,
                      gather: str = "elements", name: str = "unfold_nchw") -> K.KernelDef:
    """F.unfold's layout. Parameters A (N C, H, W), B (flat N C kh kw L), Ctr.
    `width`: output columns per tile (at most what the boxes hold; 0: that);
    `fence`: as build_pad_rows'; `hstride`: the row loads' element stride
    along H (RowsUnfoldGeometry); `gather`: how a strided window (stride
    along W > 1) becomes 16-byte vectors: "elements", one shared load an
    element, or "wide", whole chunks and byte permutes (geometry.gather),
    the segment's ends stored as aligned power-of-two pieces."""
    conv = Conv.of(kernel, padding, stride, dilation)
    geo = RowsUnfoldGeometry(conv, elem, int(wbox), int(nb), int(rows), int(width),
                             int(hstride))
    if geo.columns < 1 or geo.box_rows > 256:
        raise ValueError("the tile does not hold one output column or too many rows")
    if gather not in ("elements", "wide"):
        raise ValueError(f"gather {gather!r}: 'elements' or 'wide'")
    dtype = ELEM_DTYPES[elem]
    V = geo.vec
    st = Stages(stages, rows_stage_bytes(geo.rows_in, geo.wbox, nb, elem))
    (kh, kw), (sh, sw), (dh, dw) = conv.kernel, conv.stride, conv.dilation
    wide = gather == "wide" and sw > 1
    if wide and not wide_gather_fits(elem, sw):
        raise ValueError(f"gather 'wide' reads more chunks than elements at stride {sw}")
    strided = StridedGather(elem, sw) if wide else None
    segments = conv.taps * geo.rows
    total_slots = segments * geo.slots
    box = (1, geo.box_rows, geo.wbox)
    image = (1, geo.rows_in, geo.wbox)
    estrides = None if geo.hstride == 1 else (1, geo.hstride, 1)
    row_end = nb * geo.wbox - V   # the element index of a row's last chunk

    def body(A, B, Ctr):
        planes, h, w = extents(A)
        oh, ow = conv.out_hw(h, w, DynOps)
        L = oh * ow
        counts = geo.counts(planes, oh, ow, DynOps)
        bufs = [[K.dynamic_shared(image, dtype, st.offset(s) + k * geo.box_bytes)
                 for k in range(nb)] for s in range(stages)]
        bases = [K.base_address(b[0]) for b in bufs]
        tid = K.thread_id()
        vtype = K.vector_type(dtype)
        elem_type = K.element_type(dtype)

        def load(s, ticket, bar, tag):
            p, _, _, row_in, col, _ = geo.origin(IrOps.index(ticket), counts, DynOps)
            for k in range(nb):
                tma.apply(load_opcode(3), bufs[s][k], A, box=box,
                          coords=(p, row_in, col + k * geo.wbox), mbar=bar, tag=tag,
                          **({} if estrides is None else {"element_strides": estrides}))

        def work(s, ticket):
            p, oy0, ox0, _, _, delta = geo.origin(IrOps.index(ticket), counts, DynOps)
            n_x = DynOps.min(ow - ox0, geo.columns)

            def element(r_in, x):
                # Output column ox0 + x reads window column (x sw + j dw) of the row.
                off = geo.shared_offset(r_in, x, DynOps)
                return llvm.load(elem_type, shared_pointer(bases[s] + off), alignment=elem)

            def wide_words(r_in, s_idx, ends=False) -> list:
                # The 4 words of elements s_idx + e sw (e < V) of box row r_in.
                # A vector's chunks lie in the row up to the last, whose
                # element it needs; an end's window may reach past the row
                # (elements it does not store), so each chunk is clamped.
                a = IrOps.and_(s_idx, -V)
                last = DynOps.min(IrOps.and_(s_idx + (V - 1) * sw, -V), row_end)
                els = [a + k * V for k in range(strided.chunks)]
                for k in range(1 if ends else strided.chunks - 1, strided.chunks):
                    els[k] = DynOps.min(els[k], last)
                addrs = [bases[s] + geo.shared_offset(r_in, e, DynOps) for e in els]
                if strided.swap:
                    # Chunks a and a + V in the order that spreads a load
                    # phase's lanes over all banks.
                    flip = IrWordOps.bit(IrOps.shr(a, V.bit_length() - 1), 8)
                    first = K.Expr(arith.select(flip, K.Expr.of(addrs[1]),
                                                K.Expr.of(addrs[0])))
                    second = K.Expr(arith.select(flip, K.Expr.of(addrs[0]),
                                                 K.Expr.of(addrs[1])))
                    c0, c1 = _chunk_words(first), _chunk_words(second)
                    words = [arith.select(flip, y, x) for x, y in zip(c0, c1)] + \
                            [arith.select(flip, x, y) for x, y in zip(c0, c1)]
                    for addr in addrs[2:]:
                        words += _chunk_words(addr)
                else:
                    words = [wd for addr in addrs for wd in _chunk_words(addr)]
                return strided.out_words(words, (s_idx - a) * elem, IrWordOps)

            for q in K.range_(tid, total_slots, threads):
                seg, slot = IrOps.div(q, geo.slots), IrOps.mod(q, geo.slots)
                tap, rho = IrOps.div(seg, geo.rows), IrOps.mod(seg, geo.rows)
                i, j = conv.tap(tap, IrOps)
                oy = oy0 + rho
                with K.if_(oy < oh):
                    r_in = geo.box_row(rho, i)
                    shift = delta + j * dw
                    f = ((p * conv.taps + tap) * L + oy * ow) + ox0
                    head = DynOps.mod(V - DynOps.mod(f, V), V)
                    n_vec = DynOps.div(DynOps.max(n_x, head) - head, V)

                    def src(x):
                        return element(r_in, x * sw + shift)
                    with K.if_(slot < n_vec):
                        x0 = head + slot * V
                        if sw == 1:
                            # A contiguous window: 16 shifted bytes from the two
                            # aligned chunks under them (the second may start
                            # the next box).
                            s_idx = x0 + shift
                            a = IrOps.and_(s_idx, -V)
                            words = chunk_pair_vector(
                                bases[s] + geo.shared_offset(r_in, a, DynOps),
                                bases[s] + geo.shared_offset(r_in, a + V, DynOps),
                                (s_idx - a) * elem)
                            K.vector_store(vector.bitcast(vtype, words), B, (f + x0,))
                        elif wide:
                            v4 = ir.VectorType.get([4], ir.IntegerType.get_signless(32))
                            words = vector.from_elements(
                                v4, wide_words(r_in, x0 * sw + shift))
                            K.vector_store(vector.bitcast(vtype, words), B, (f + x0,))
                        else:
                            elems = [src(x0 + e) for e in range(V)]
                            K.vector_store(vector.from_elements(vtype, elems), B, (f + x0,))
                    if wide:
                        _wide_ends(B, slot, geo.slots, f, head, n_x, n_vec, V, elem, dtype,
                                   shift, sw, wide_words, r_in, src)
                    else:
                        with K.if_(slot == geo.slots - 1):  # the ends, element by element
                            for e in range(V - 1):
                                with K.if_(all_of([head > e, n_x > e])):
                                    B[f + e] = K.Expr(src(e))
                                tail = head + n_vec * V + e
                                with K.if_(tail < n_x):
                                    B[f + tail] = K.Expr(src(tail))

        all_thread_pipeline(st, Ctr, product(counts), load, work, None,
                            fence=fence)

    params = [("A", K.Tensor((None,) * 3, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,), dtype)), ("Ctr", K.Tensor((2,), "int32"))]
    kdef = K.KernelDef(body, grid=grid, block=threads, params=params, name=name)
    kdef.shared_bytes = st.shared_bytes
    kdef.geometry = geo
    return kdef


def _wide_ends(B, slot, slots: int, f, head, n_x, n_vec, V: int, elem: int, dtype: str,
               shift, sw: int, wide_words, r_in, src) -> None:
    """A segment's elements outside its aligned vectors, by two threads: the
    head [0, head) (ending on a 16-byte boundary) from the window at column
    0, the tail from the window at its first column (starting on one),
    each as aligned power-of-two pieces. A segment shorter than its head
    is written element by element."""
    and_ = IrOps.and_
    with K.if_(slot == slots - 2):
        with K.if_(all_of([head > 0, n_x >= head])):
            words = wide_words(r_in, shift, True)
            nbytes = head * elem
            for size in piece_sizes(elem, True):
                off = piece_offset(nbytes, size, True, and_)
                with K.if_(IrWordOps.bit(nbytes, size)):
                    _store_piece(B, f + DynOps.div(off, elem),
                                 piece_words(words, off, size, IrWordOps), size, dtype, elem)
        with K.if_(n_x < head):
            for e in range(V - 1):
                with K.if_(n_x > e):
                    B[f + e] = K.Expr(src(e))
    with K.if_(slot == slots - 1):
        x0 = head + n_vec * V
        with K.if_(all_of([n_x >= head, x0 < n_x])):
            words = wide_words(r_in, x0 * sw + shift, True)
            nbytes = (n_x - x0) * elem
            for size in piece_sizes(elem, False):
                off = piece_offset(nbytes, size, False, and_)
                with K.if_(IrWordOps.bit(nbytes, size)):
                    _store_piece(B, f + x0 + DynOps.div(off, elem),
                                 piece_words(words, off, size, IrWordOps), size, dtype, elem)


def build_unfold_simt(elem: int, kernel, padding, stride, dilation, layout: str,
                      grid: int = 1056, threads: int = 256,
                      name: str = "unfold_simt") -> K.KernelDef:
    """unfold for any strides: one output element per thread and step.
    Parameters A ((N, C, H, W) or (N, H, W, C)), B ((N, C K, L) or (N, L, K C))."""
    conv = Conv.of(kernel, padding, stride, dilation)
    dtype = ELEM_DTYPES[elem]
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = conv.kernel, conv.stride, conv.padding, \
        conv.dilation
    nchw = layout == "NCHW"

    def body(A, B):
        if nchw:
            n, c, h, w = extents(A)
        else:
            n, h, w, c = extents(A)
        oh, ow = conv.out_hw(h, w, DynOps)
        out = extents(B)
        total = product(out)
        elem_type = K.element_type(dtype)
        start = K.block_id() * threads + K.thread_id()
        for f in K.range_(start, total, K.grid_dim() * threads):
            b, row, col = digits(f, out, DynOps)
            if nchw:
                ch, tap = DynOps.div(row, conv.taps), DynOps.mod(row, conv.taps)
                pos = col
            else:
                tap, ch = DynOps.div(col, c), DynOps.mod(col, c)
                pos = row
            i, j = conv.tap(tap, DynOps)
            oy, ox = DynOps.div(pos, ow), DynOps.mod(pos, ow)
            y = oy * sh + i * dh - ph
            x = ox * sw + j * dw - pw
            inside = all_of([all_of([y >= 0, y < h]), all_of([x >= 0, x < w])])
            index = (b, ch, y, x) if nchw else (b, y, x, ch)
            (v,) = K.if_else(inside, [elem_type], lambda: [A[index].value],
                             lambda: [arith.constant(elem_type, 0)])
            B[(b, row, col)] = K.Expr(v)

    params = [("A", K.Tensor((None,) * 4, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * 3, dtype))]
    return K.KernelDef(body, grid=grid, block=threads, params=params, name=name)
