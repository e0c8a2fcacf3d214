"""build_unfold_nchw_taps: F.unfold of NCHW with stride 1, the output
written by the copy engine.

With stride 1, output row (c, i, j) of F.unfold is the plane of channel c
shifted by i dh - ph rows and s_j = j dw - pw columns, zeros where that
reads outside. So a tile (one plane, `rows` output rows, `width` output
columns) needs one shared image per column shift s_j, each holding the
`rows_in` = rows + (kh - 1) dh input rows under the tile, shifted by s_j:
tap (i, j) is then a TMA store of image j from row i dh.

A shift that is a multiple of 16 bytes is a TMA load at that column (the
padding is the engine's zero fill). Any other shift would break the 16-byte
innermost-coordinate rule, so those images are built by the threads from one
halo load starting at the aligned column at or before the smallest such
shift. The threads move about (number of such shifts) x the input through
shared memory. The copy engine writes all kh kw x the input, where
build_unfold_nchw's threads write every tap.

Parameters A (N C, H, W), B (N C, kh kw, oh, ow), Ctr. Extents are runtime
values; W and ow must be multiples of 16 bytes (the maps' row strides), which
plan_unfold checks.
"""

from __future__ import annotations

from mlir.dialects import llvm

from .... import builder as K
from .... import tma
from ....builder import IrOps
from ....builder.pointers import shared_pointer
from ...common.opcodes import load_opcode, store_opcode
from ..geometry.addressing import product
from ..geometry.taps import TapsGeometry
from ..geometry.unfold import Conv
from ..limits import ELEM_DTYPES
from .ir import DynOps, extents, shifted_chunk, signed_offset
from .pipeline import Stages, all_thread_pipeline


def build_unfold_nchw_taps(elem: int, kernel, padding, stride, dilation, rows: int,
                           width: int, hbox: int = 0, hnb: int = 0, stages: int = 3,
                           grid: int = 132, threads: int = 256,
                           name: str = "unfold_nchw_taps") -> K.KernelDef:
    conv = Conv.of(kernel, padding, stride, dilation)
    if conv.stride != (1, 1):
        raise ValueError("build_unfold_nchw_taps takes stride 1")
    geo = TapsGeometry(conv.kernel, conv.padding, conv.dilation, int(elem), int(rows),
                       int(width), int(hbox), int(hnb))
    if geo.built and not geo.hnb:
        raise ValueError(f"a halo of {geo.halo_width} columns needs hbox and hnb")
    dtype = ELEM_DTYPES[elem]
    V = geo.vec
    st = Stages(stages, geo.stage_bytes)
    (kh, kw), (ph, _), (dh, _) = conv.kernel, conv.padding, conv.dilation
    chunks = geo.width // V  # 16-byte chunks in an image row

    def body(A, B, Ctr):
        planes, h, w = extents(A)
        oh, ow = conv.out_hw(h, w, DynOps)
        counts = geo.counts(planes, oh, ow, DynOps)

        def image(s, j, row=0, shape=(1, geo.rows_in, geo.width)):
            offset = st.offset(s) + geo.image_offset(j) + row * geo.width * elem
            return K.dynamic_shared(shape, dtype, offset)

        halo_box = (1, geo.rows_in, geo.hbox)
        halos = [[K.dynamic_shared(halo_box, dtype, st.offset(s) + k * geo.halo_box_bytes)
                  for k in range(geo.hnb)] for s in range(stages)] if geo.built else []
        tid = K.thread_id()

        def load(s, ticket, bar, tag):
            p, oy0, ox0 = geo.origin(IrOps.index(ticket), counts, DynOps)
            row = signed_offset(oy0, -ph)
            for k in range(geo.hnb if geo.built else 0):
                tma.apply(load_opcode(3), halos[s][k], A, box=halo_box,
                          coords=(p, row, signed_offset(ox0, geo.halo_start + k * geo.hbox)),
                          mbar=bar, tag=tag)
            for j, shift in enumerate(geo.shifts):
                if j not in geo.built:
                    tma.apply(load_opcode(3), image(s, j), A,
                              box=(1, geo.rows_in, geo.width),
                              coords=(p, row, signed_offset(ox0, shift)), mbar=bar, tag=tag)

        def work(s, ticket):
            if not geo.built:
                return
            halo = K.base_address(halos[s][0])
            for j in geo.built:
                shift = geo.shifts[j] - geo.halo_start
                first, rem = shift // V * V, (shift % V) * elem
                dst = K.base_address(image(s, j))
                for q in K.range_(tid, geo.rows_in * chunks, threads):
                    r, c = IrOps.div(q, chunks), IrOps.mod(q, chunks)
                    col = c * V + first  # the halo column of the chunk's start
                    words = shifted_chunk(halo + geo.halo_offset(r, col, DynOps),
                                          halo + geo.halo_offset(r, col + V, DynOps), rem)
                    llvm.store(words, shared_pointer(dst + r * (geo.width * elem) + c * 16),
                               alignment=16)

        def store(s, ticket):
            p, oy0, ox0 = geo.origin(IrOps.index(ticket), counts, DynOps)
            for i in range(kh):
                for j in range(kw):
                    tma.apply(store_opcode(4), B,
                              image(s, j, i * dh, (1, 1, geo.rows, geo.width)),
                              box=(1, 1, geo.rows, geo.width),
                              coords=(p, i * kw + j, oy0, ox0))

        all_thread_pipeline(st, Ctr, product(counts), load, work, store)

    params = [("A", K.Tensor((None,) * 3, dtype, dynamic_strides=True)),
              ("B", K.Tensor((None,) * 4, dtype)), ("Ctr", K.Tensor((2,), "int32"))]
    kdef = K.KernelDef(body, grid=grid, block=threads, params=params, name=name)
    kdef.shared_bytes = st.shared_bytes
    kdef.geometry = geo
    return kdef
