"""The narrow transpose kernel (plan.permute.plan_narrow): B = A.permute(perm)
where one of the two innermost axes is n elements too short or unaligned
for the transposing kernel, as in an image's NCHW <-> NHWC with three
channels.

With V = 16 / elem, V consecutive pixels of all n channels are 16 n
contiguous bytes of the interleaved side, so that side is the aligned
tensor map (B, L / V, V n) (rows of `group` such pixel groups) and the
planar side the map (B, n, L). A tile is R pixel groups (R V pixels of one
batch entry): one box there, R V / W boxes of n x W on the planar side (or
one box of its split view). Thread g of the tile
regroups pixel group g: n 16-byte vectors of one side in shared memory
become the n of the other (one vector per channel row on the planar
side, n consecutive vectors on the interleaved side), with the copy
engine loading one image and storing the other. Extents are runtime
values; the element size, n, R, W and the direction are static.
"""

from __future__ import annotations

from contextlib import nullcontext

import mlir.ir as ir
from mlir.dialects import arith, llvm, vector

from .... import builder as K
from .... import tma
from ....builder import IrOps
from ....builder.pointers import shared_pointer
from ...common.opcodes import load_opcode, store_opcode
from ..geometry.narrow import DIRECTIONS, NarrowGeometry
from ..limits import ELEM_DTYPES
from .ir import DynOps, extents
from .pipeline import Stages, all_thread_pipeline


class _SharedVectors:
    """16-byte vectors of shared memory, as four words (what is read and
    written) or as the elements a regroup moves, and a lane's pick among
    the `turns` rotations of its vectors."""

    def __init__(self, elem: int, v: int, turns: int):
        i32 = ir.IntegerType.get_signless(32)
        self.words = ir.VectorType.get([4], i32)
        self.elems = ir.VectorType.get([v], ir.IntegerType.get_signless(8 * elem))
        self.v, self.turns = v, turns

    def read(self, addr) -> ir.Value:
        return llvm.load(self.words, shared_pointer(addr), alignment=16)

    def write(self, addr, value: ir.Value) -> None:
        llvm.store(value, shared_pointer(addr), alignment=16)

    def unpack(self, w: ir.Value) -> list:
        e = vector.bitcast(self.elems, w)
        return [vector.extract(e, [], [i]) for i in range(self.v)]

    def pack(self, values: list) -> ir.Value:
        return vector.bitcast(self.words, vector.from_elements(self.elems, values))

    def pick(self, options: list, turn) -> ir.Value:
        """options[t] where turn == t (a lane's rotation, below turns)."""
        out = options[0]
        for t in range(1, self.turns):
            hit = arith.cmpi(arith.CmpIPredicate.eq, K.Expr.of(turn),
                             K.Expr.of(t, turn))
            out = arith.select(hit, options[t], out)
        return out


def _regroup_work(geo: NarrowGeometry, direction: str, threads: int, bases: list, tid):
    """work(s, ticket): each thread regroups its pixel groups of stage s
    (group tid + k threads at step k), a group's reads before its writes;
    a lane's interleaved vectors are rotated by its turn
    (NarrowGeometry.rotation), so a warp's accesses spread over the banks."""
    sv = _SharedVectors(geo.elem, geo.vec, geo.turns)
    rows, n, d = geo.rows, geo.n, geo.turns
    interleave = direction == "interleave"
    steps = -(-rows // threads)
    read, write, unpack, pack, pick = sv.read, sv.write, sv.unpack, sv.pack, sv.pick

    def work(s, ticket):
        base = bases[s]
        for step in range(steps):
            g = tid + step * threads
            with K.if_(g < rows) if rows % threads else nullcontext():
                turn = geo.rotation(g, DynOps)
                inter = [base + geo.interleaved_offset_of(
                    g, geo.interleaved_step(g, m, DynOps)) for m in range(n)]
                planar_at = [base + geo.planar_offset(g, ch, DynOps) for ch in range(n)]
                if interleave:
                    channels = [unpack(read(a)) for a in planar_at]
                    out = [pack(x) for x in geo.regroup(channels, direction)]
                    for m, a in enumerate(inter):
                        write(a, pick([out[(m + t) % n] for t in range(d)], turn))
                else:
                    raw = [read(a) for a in inter]   # raw[m]: vector (m + turn) mod n
                    groups = [unpack(pick([raw[(j - t) % n] for t in range(d)], turn))
                              for j in range(n)]
                    for a, x in zip(planar_at, geo.regroup(groups, direction)):
                        write(a, pack(x))

    return work


def build_permute_narrow(elem: int, n: int, direction: str, rows: int, width: int,
                         split: bool = False, group: int = 1, stages: int = 4, grid: int = 264,
                         threads: int = 256, name: str = "permute_narrow") -> K.KernelDef:
    """B = A's narrow transpose (module docstring). Parameters A (the
    input's view: planar (B, n, L), with `split` (B, n, L / width, width),
    for "interleave"; interleaved (B, L / (group V), group V n) for
    "deinterleave"), B
    (the output's view, the other form, contiguous) and Ctr."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction {direction!r}: one of {DIRECTIONS}")
    geo = NarrowGeometry(elem, n, rows, width, bool(split), group)
    v = geo.vec
    if rows & (rows - 1) or width & (width - 1) or width % v or geo.pixels % width:
        raise ValueError(f"rows {rows} and width {width}: powers of two, width a "
                         f"multiple of {v} dividing rows x {v}")
    if group & (group - 1) or rows % group:
        raise ValueError(f"group {group}: a power of two dividing rows {rows}")
    if group * n * v > 256 or rows // group > 256 or width > 256 or geo.pixels // width > 256:
        raise ValueError(f"boxes {geo.planar_box} and {geo.interleaved_box} pass 256")
    dtype = ELEM_DTYPES[elem]
    st = Stages(stages, geo.stage_bytes)
    interleave = direction == "interleave"

    def body(A, B, Ctr):
        planar_arg = A if interleave else B
        counts = geo.counts(extents(planar_arg), DynOps)
        planar = [[K.dynamic_shared(geo.planar_box, dtype, st.offset(s) +
                                    k * geo.planar_box_bytes) for k in range(geo.nb)]
                  for s in range(stages)]
        inter = [K.dynamic_shared(geo.interleaved_box, dtype,
                                  st.offset(s) + geo.interleaved_offset)
                 for s in range(stages)]
        bases = [K.base_address(planar[s][0]) for s in range(stages)]
        tid = K.thread_id()

        def planar_io(s, ticket, op, bar=None, tag=None):
            b, x0 = geo.origin(IrOps.index(ticket), counts, DynOps)
            rank = len(geo.planar_box)
            for k in range(geo.nb):
                coords = geo.planar_coords(b, x0, k, DynOps)
                if op == "load":
                    tma.apply(load_opcode(rank), planar[s][k], A, box=geo.planar_box,
                              coords=coords, mbar=bar, tag=tag)
                else:
                    tma.apply(store_opcode(rank), B, planar[s][k], box=geo.planar_box,
                              coords=coords)

        def inter_io(s, ticket, op, bar=None, tag=None):
            b, x0 = geo.origin(IrOps.index(ticket), counts, DynOps)
            coords = geo.interleaved_coords(b, x0, DynOps)
            if op == "load":
                tma.apply(load_opcode(3), inter[s], A, box=geo.interleaved_box,
                          coords=coords, mbar=bar, tag=tag)
            else:
                tma.apply(store_opcode(3), B, inter[s], box=geo.interleaved_box,
                          coords=coords)

        def load(s, ticket, bar, tag):
            (planar_io if interleave else inter_io)(s, ticket, "load", bar, tag)

        def store(s, ticket):
            (inter_io if interleave else planar_io)(s, ticket, "store")

        work = _regroup_work(geo, direction, threads, bases, tid)
        all_thread_pipeline(st, Ctr, counts[0] * counts[1], load, work, store, 1)

    ranks = (len(geo.planar_box), 3)
    rank_a, rank_b = ranks if interleave else ranks[::-1]
    params = [("A", K.Tensor((None,) * rank_a, ELEM_DTYPES[elem], dynamic_strides=True)),
              ("B", K.Tensor((None,) * rank_b, ELEM_DTYPES[elem])),
              ("Ctr", K.Tensor((2,), "int32"))]
    kdef = K.KernelDef(body, grid=grid, block=threads, params=params, name=name)
    kdef.shared_bytes = st.shared_bytes
    kdef.geometry = geo
    return kdef

