"""A tiled 2-D transpose written with the Python builder: out[j, i] = in[i, j].

Per tile (TR x TC elements of `in` at (i0, j0), TC x TR of `out` at (j0, i0)):

1. one thread issues the TMA loads of the tile into a swizzled input stage
   (TC / W boxes of TR x W; W = 64 bf16 = one 128-byte swizzle span), which
   complete on that stage's mbarrier;
2. every thread waits on the mbarrier, then the warps transpose the tile in
   shared memory: `method="ldmatrix"` moves four 8x8 blocks per warp
   instruction (`ldmatrix.x4.trans` reads the blocks transposed,
   `stmatrix.x4` writes them back at the mirrored block position);
   `method="scalar"` moves one 16-bit element per thread and instruction;
3. fence.proxy.async.shared::cta, CTA barrier;
4. one thread refills the input stage with a later tile, issues the TMA
   stores of the transposed tile (TR / W boxes of TC x W) from one of
   `out_stages` output buffers, commits the bulk group, and waits
   (`wait_group.read out_stages - 2`) so that the buffer the warps write two
   tiles later has been read by its store; the barrier of the next tile
   publishes that wait to the other threads (one barrier per tile).

Both shared buffers use the TMA swizzle (128B by default): the copy engine
swizzles 16-byte chunks by the absolute shared address (chunk bits 4..6 ^=
bits 7..9), and the threads apply the same XOR to the absolute addresses they
compute, so the result does not depend on the dynamic-shared base alignment.
With 128B swizzle the eight rows of an 8x8 block (same logical chunk, eight
consecutive rows) land in eight different chunks: each 8-row phase of
ldmatrix/stmatrix, and each scalar 8x4 patch, is free of bank conflicts.

Persistent grid: CTA b handles tiles b, b + grid, ... in `Plan.tile_origin`
order (row-major over the input's tiles, or over `group` x `group` squares of
tiles), `stages` input stages keep loads in flight. `grid` = the number of
tiles with `stages=1` is the plain one-tile-per-CTA form.

Two more forms transpose each tile in place (one shared buffer per tile,
ldmatrix reads, CTA barrier, stmatrix writes into the same bytes):
`build_transpose_one_tile` (one tile per CTA, grid = the tile count) and
`build_transpose_dynamic` (persistent CTAs claiming tiles at run time).
Both take `order="column"` (consecutive tiles write neighbouring pieces of
the same output rows) and wide 3-D boxes (`wide_in` / `wide_out`: one box
per tile, whole tile rows contiguous, at the price of 2-way bank conflicts).

The lane -> address maps are plain functions over an `ops` object, so that
test/python/test_transpose_kernel.py can run the same maps on integers
against the numpy TMA model (tile_mlir.emulator) on the CPU.
"""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir
from mlir.dialects import arith, llvm, memref, nvvm

from copy_kernel import _on_stage
from tile_mlir import kernel as K
from tile_mlir import tma

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
LOAD3 = LOAD.replace(".2d.", ".3d.")
EVICT_FIRST = 0x12F0000000000000  # createpolicy L2::evict_first (streaming)
STORE3 = STORE.replace(".2d.", ".3d.")
METHODS = ("ldmatrix", "scalar")
_ELEM_BYTES = {"bfloat16": 2, "float16": 2, "int16": 2, "uint16": 2}


# -- the arithmetic the address maps use, on ints (numpy) or on index Exprs --

class IntOps:
    """Python ints / numpy integer arrays (the CPU model)."""

    @staticmethod
    def div(a, n: int):
        return a // n

    @staticmethod
    def mod(a, n: int):
        return a % n

    @staticmethod
    def xor(a, b):
        return a ^ b

    @staticmethod
    def shr(a, n: int):
        return a >> n

    @staticmethod
    def shl(a, n: int):
        return a << n

    @staticmethod
    def and_(a, m: int):
        return a & m


class IrOps:
    """Index Exprs in a kernel being traced (unsigned ops: all values are
    non-negative thread ids, offsets and addresses)."""

    @staticmethod
    def _c(n: int, like: K.Expr) -> ir.Value:
        return K.Expr.of(n, like)

    @staticmethod
    def div(a: K.Expr, n: int) -> K.Expr:
        return K.Expr(arith.divui(a.value, IrOps._c(n, a)))

    @staticmethod
    def mod(a: K.Expr, n: int) -> K.Expr:
        return K.Expr(arith.remui(a.value, IrOps._c(n, a)))

    @staticmethod
    def xor(a: K.Expr, b: K.Expr) -> K.Expr:
        return K.Expr(arith.xori(a.value, b.value))

    @staticmethod
    def shr(a: K.Expr, n: int) -> K.Expr:
        return K.Expr(arith.shrui(a.value, IrOps._c(n, a)))

    @staticmethod
    def shl(a: K.Expr, n: int) -> K.Expr:
        return K.Expr(arith.shli(a.value, IrOps._c(n, a)))

    @staticmethod
    def and_(a: K.Expr, m: int) -> K.Expr:
        return K.Expr(arith.andi(a.value, IrOps._c(m, a)))


def swizzle_address(addr, swizzle: int, ops):
    """The physical shared address of logical (row-major) byte address `addr`
    under the TMA swizzle: 16-byte chunk bits 4.. XOR bits 7.. (absolute)."""
    if swizzle == 0:
        return addr
    mask = (1 << swizzle) - 1
    return ops.xor(addr, ops.shl(ops.and_(ops.shr(addr, 7), mask), 4))


# -- geometry ---------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    rows: int
    cols: int
    tile: tuple           # (TR, TC): TR rows x TC cols of `in` per tile
    stages: int           # input stages (loads in flight)
    out_stages: int       # output buffers (stores in flight)
    threads: int
    grid: int
    swizzle: int
    method: str
    dtype: str
    group: int = 1        # tile order: group x group blocks of tiles (1: row-major)
    order: str = "row"    # "row": over the input's tiles row-major; "column": column-major
    wide_in: bool = False   # one 3-D load box per tile (whole tile rows contiguous)
    wide_out: bool = False  # one 3-D store box per tile

    @property
    def elem(self) -> int:
        return _ELEM_BYTES[self.dtype]

    @property
    def width(self) -> int:
        """Inner extent W of every box (elements): one swizzle span."""
        return (16 << self.swizzle) // self.elem if self.swizzle else 128 // self.elem

    @property
    def row_bytes(self) -> int:
        return self.width * self.elem

    @property
    def tile_bytes(self) -> int:
        return self.tile[0] * self.tile[1] * self.elem

    @property
    def tiles_c(self) -> int:
        return self.cols // self.tile[1]

    @property
    def n_tiles(self) -> int:
        return (self.rows // self.tile[0]) * self.tiles_c

    def tile_origin(self, t, ops):
        """(i0, j0) of tile `t`: over group x group squares of tiles, then
        inside each square (group 1: plain tiles), so that the tiles in
        flight at once read and write compact regions. Order "row" walks the
        input's tile grid row-major (consecutive tiles read neighbouring
        pieces of the same input rows); "column" walks it column-major
        (consecutive tiles write neighbouring pieces of the same output
        rows)."""
        tr, tc = self.tile
        g = self.group
        minor_tiles = self.tiles_c if self.order == "row" else self.rows // tr
        if g == 1:
            major, minor = ops.div(t, minor_tiles), ops.mod(t, minor_tiles)
        else:
            square, inner = ops.div(t, g * g), ops.mod(t, g * g)
            squares = minor_tiles // g
            major = ops.div(square, squares) * g + ops.div(inner, g)
            minor = ops.mod(square, squares) * g + ops.mod(inner, g)
        ti, tj = (major, minor) if self.order == "row" else (minor, major)
        return ti * tr, tj * tc

    @property
    def warps(self) -> int:
        return self.threads // 32

    @property
    def in_offset(self) -> int:
        return 0

    @property
    def out_offset(self) -> int:
        return self.stages * self.tile_bytes

    @property
    def bar_offset(self) -> int:
        return (self.stages + self.out_stages) * self.tile_bytes

    @property
    def shared_bytes(self) -> int:
        return self.bar_offset + 8 * self.stages

    def in_elem(self, r, c, ops):
        """Logical byte offset of in-tile element (r, c) in an input stage:
        sub-box c // W holds columns [W k, W k + W) as TR rows of W; with
        `wide_in` the one 3-D box (TR, TC / W, W) is the tile row-major."""
        tr, tc = self.tile
        if self.wide_in:
            return r * (tc * self.elem) + c * self.elem
        return (ops.div(c, self.width) * (tr * self.row_bytes) + r * self.row_bytes
                + ops.mod(c, self.width) * self.elem)

    def out_elem(self, c, r, ops):
        """Logical byte offset of out-tile element (c, r) (= in-tile (r, c))
        in an output buffer: sub-box r // W holds TC rows of W; with
        `wide_out` the one 3-D box (TC, TR / W, W) is the tile row-major."""
        tr, tc = self.tile
        if self.wide_out:
            return c * (tr * self.elem) + r * self.elem
        return (ops.div(r, self.width) * (tc * self.row_bytes) + c * self.row_bytes
                + ops.mod(r, self.width) * self.elem)

    # ldmatrix: per warp instruction four 8x8 blocks; lane l gives the address
    # of row l % 8 of block l // 8 (the same lanes give stmatrix's rows).
    @property
    def ld_ops_per_warp(self) -> int:
        tr, tc = self.tile
        return (tr // 8) * (tc // 8) // 4 // self.warps

    def ld_lane(self, warp, lane, k: int, ops):
        """(input, output) logical byte offsets of lane `lane` of warp `warp`
        for its k-th ldmatrix.x4.trans / stmatrix.x4 pair."""
        nbc = self.tile[1] // 8
        q = warp + k * self.warps
        block = q * 4 + ops.div(lane, 8)
        row = ops.mod(lane, 8)
        br, bc = ops.div(block, nbc), ops.mod(block, nbc)
        src = self.in_elem(br * 8 + row, bc * 8, ops)      # in rows, chunk bc
        dst = self.out_elem(bc * 8 + row, br * 8, ops)     # out rows, chunk br
        return src, dst

    # scalar: per warp instruction an 8-row x 4-column patch; lane l reads
    # (8 pr + l % 8, 4 pc + l // 8) and writes it transposed.
    @property
    def scalar_ops_per_warp(self) -> int:
        tr, tc = self.tile
        return (tr // 8) * (tc // 4) // self.warps

    def scalar_lane(self, warp, lane, k: int, ops):
        npc = self.tile[1] // 4
        p = warp + k * self.warps
        pr, pc = ops.div(p, npc), ops.mod(p, npc)
        r = pr * 8 + ops.mod(lane, 8)
        c = pc * 4 + ops.div(lane, 8)
        return self.in_elem(r, c, ops), self.out_elem(c, r, ops)


def make_plan(rows: int, cols: int, tile=(64, 64), stages: int = 4,
              out_stages: int = 2, threads: int = 128, grid: int = 264,
              swizzle: int = 3, method: str = "ldmatrix",
              dtype: str = "bfloat16", group: int = 1, order: str = "row",
              wide_in: bool = False, wide_out: bool = False) -> Plan:
    if dtype not in _ELEM_BYTES:
        raise ValueError(f"dtype {dtype!r}: the transpose moves 16-bit elements "
                         f"({', '.join(_ELEM_BYTES)})")
    if method not in METHODS:
        raise ValueError(f"method {method!r} is not one of {METHODS}")
    if swizzle not in (0, 1, 2, 3):
        raise ValueError("swizzle is 0..3")
    if order not in ("row", "column"):
        raise ValueError(f"order {order!r} is not 'row' or 'column'")
    plan = Plan(rows, cols, tuple(tile), stages, out_stages, threads, grid, swizzle,
                method, dtype, group, order, wide_in, wide_out)
    tr, tc = plan.tile
    w = plan.width
    for extent in (tr, tc):
        if extent % w or extent % 8 or not 1 <= extent <= 256:
            raise ValueError(f"tile {plan.tile}: each extent must be a multiple of "
                             f"{w} (the box width) and of 8, at most 256")
    if rows % tr or cols % tc:
        raise ValueError(f"the {rows}x{cols} matrix is not a whole number of "
                         f"{tr}x{tc} tiles")
    if group < 1 or (rows // tr) % group or (cols // tc) % group:
        raise ValueError(f"group {group} must divide the tile grid "
                         f"{rows // tr}x{cols // tc}")
    if threads % 32 or threads < 32:
        raise ValueError("threads must be a multiple of 32")
    per = {"ldmatrix": (tr // 8) * (tc // 8) // 4, "scalar": (tr // 8) * (tc // 4)}
    if method == "ldmatrix" and ((tr // 8) * (tc // 8)) % 4:
        raise ValueError("ldmatrix needs a multiple of four 8x8 blocks")
    if per[method] % plan.warps:
        raise ValueError(f"{per[method]} {method} steps per tile do not split over "
                         f"{plan.warps} warps")
    if stages < 1 or out_stages < 2:
        raise ValueError("stages >= 1 and out_stages >= 2")
    if plan.shared_bytes > 227 * 1024:
        raise ValueError(f"{plan.shared_bytes} bytes of shared memory > 227 KiB")
    return plan


# -- shared-memory helpers (pointers into dynamic shared memory) -------------

def _base_address(buf: K.Buffer) -> K.Expr:
    """The buffer's shared address as an index value."""
    return K.Expr(memref.extract_aligned_pointer_as_index(buf.value))


def _pointer(addr: K.Expr) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr<3>"),
                         arith.index_cast(i64, addr.value))


def _ldmatrix_x4_trans(addr: K.Expr) -> list[ir.Value]:
    i32 = ir.IntegerType.get_signless(32)
    struct = ir.Type.parse("!llvm.struct<(i32, i32, i32, i32)>")
    res = nvvm.ldmatrix(struct, _pointer(addr), 4, nvvm.MMALayout.col,
                        ir.Attribute.parse("#nvvm.ld_st_matrix_shape<m = 8, n = 8>"),
                        nvvm.LdStMatrixEltType.B16)
    return [llvm.extractvalue(i32, res, [i]) for i in range(4)]


def _stmatrix_x4(addr: K.Expr, regs: list[ir.Value]) -> None:
    nvvm.stmatrix(_pointer(addr), regs, nvvm.MMALayout.row,
                  ir.Attribute.parse("#nvvm.ld_st_matrix_shape<m = 8, n = 8>"),
                  nvvm.LdStMatrixEltType.B16)


def _load16(addr: K.Expr) -> ir.Value:
    return llvm.load(ir.IntegerType.get_signless(16), _pointer(addr))


def _store16(value: ir.Value, addr: K.Expr) -> None:
    llvm.store(value, _pointer(addr))


# -- the kernel ---------------------------------------------------------------

def build_transpose(rows: int, cols: int, tile=(64, 64), stages: int = 4,
                    grid: int = 264, swizzle: int = 3, dtype: str = "bfloat16",
                    threads: int = 128, out_stages: int = 2,
                    method: str = "ldmatrix", group: int = 1, order: str = "row",
                    name: str = "tma_transpose"):
    """A KernelDef `name(A: rows x cols, B: cols x rows)` with B = A^T
    (`kernel.plan` holds the geometry)."""
    plan = make_plan(rows, cols, tile, stages, out_stages, threads, grid, swizzle,
                     method, dtype, group, order)
    tr, tc = plan.tile
    w = plan.width
    S, O = plan.stages, plan.out_stages

    def body(A, B):
        tid = K.thread_id()
        block = K.block_id()
        ins = [[K.dynamic_shared((tr, w), dtype, plan.in_offset + s * plan.tile_bytes
                                 + k * tr * plan.row_bytes) for k in range(tc // w)]
               for s in range(S)]
        outs = [[K.dynamic_shared((tc, w), dtype, plan.out_offset + o * plan.tile_bytes
                                  + m * tc * plan.row_bytes) for m in range(tr // w)]
                for o in range(O)]
        bars = K.dynamic_shared((S,), "uint64", plan.bar_offset)
        base = _base_address(ins[0][0])
        count = (plan.n_tiles - block + (grid - 1)) // grid  # this CTA's tiles

        def origin(j):
            return plan.tile_origin(block + j * grid, IrOps)

        def load(s: int, j, site: str):
            i0, j0 = origin(j)
            tag = f"{site}{s}"
            bar = bars.ptr_to([s])
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
            for k in range(tc // w):
                tma.apply(LOAD, ins[s][k], A, box=(tr, w), coords=(i0, j0 + k * w),
                          swizzle=swizzle, mbar=bar, tag=tag)

        def store(o: int, j):
            i0, j0 = origin(j)
            for m in range(tr // w):
                tma.apply(STORE, B, outs[o][m], box=(tc, w), coords=(j0, i0 + m * w),
                          swizzle=swizzle)

        with K.if_(tid == 0):
            for s in range(S):
                K.mbarrier_init(bars.ptr_to([s]), 1)
        K.cta_sync()
        with K.if_(tid == 0):
            for s in range(S):
                with K.if_(count > s):
                    load(s, K.Expr(K.Expr.of(s)), "pro")

        # Per-lane logical offsets, fixed for the whole kernel.
        lane = IrOps.mod(tid, 32)
        warp = IrOps.div(tid, 32)
        if method == "ldmatrix":
            lane_offsets = [plan.ld_lane(warp, lane, k, IrOps)
                            for k in range(plan.ld_ops_per_warp)]
        else:
            lane_offsets = [plan.scalar_lane(warp, lane, k, IrOps)
                            for k in range(plan.scalar_ops_per_warp)]

        for j in K.range_(0, count):
            s = j % S
            o = j % O
            K.mbarrier_wait(bars.ptr_to([s]), (j // S) % 2)
            in_base = base + (plan.in_offset + s * plan.tile_bytes)
            out_base = base + (plan.out_offset + o * plan.tile_bytes)
            src = [swizzle_address(in_base + a, swizzle, IrOps) for a, _ in lane_offsets]
            dst = [swizzle_address(out_base + b, swizzle, IrOps) for _, b in lane_offsets]
            if method == "ldmatrix":
                frags = [_ldmatrix_x4_trans(a) for a in src]
                for a, regs in zip(dst, frags):
                    _stmatrix_x4(a, regs)
            else:
                values = [_load16(a) for a in src]
                for a, v in zip(dst, values):
                    _store16(v, a)
            K.fence_proxy_async_shared_cta()
            K.cta_sync()
            with K.if_(tid == 0):
                nxt = j + S
                with K.if_(nxt < count):
                    _on_stage(s, S, lambda si: load(si, nxt, "re"))
                _on_stage(o, O, lambda oi: store(oi, j))
                K.bulk_commit_group()
                # The buffer the warps write at tile j + 2 is the one store
                # j + 2 - O read: at most O - 2 newer groups may be pending.
                K.bulk_wait_group(O - 2, read=True)
        with K.if_(tid == 0):
            K.bulk_wait_group(0)

    ns = {"body": body}
    exec(f"def {name}(A, B): body(A, B)", ns)
    fn = ns[name]
    fn.__annotations__ = {"A": K.Tensor((rows, cols), dtype),
                          "B": K.Tensor((cols, rows), dtype)}
    kdef = K.kernel(grid=grid, block=threads)(fn)
    kdef.plan = plan
    return kdef


class _InPlaceTile:
    """The per-tile steps of the in-place transposes, for a tile buffer at
    byte `offset` of dynamic shared memory: TMA load(s) of the input tile
    (TC / W boxes of TR x W, or one 3-D box with `wide_in`), the warps'
    ldmatrix.x4.trans reads, a CTA barrier, their stmatrix.x4 writes into
    the same bytes (the output's layout), and the TMA store(s)."""

    def __init__(self, plan: Plan, A, B, offset: int, hints: dict, l2_promotion: int):
        tr, tc = plan.tile
        w, dtype = plan.width, plan.dtype
        self.plan, self.A, self.B = plan, A, B
        self.hints, self.l2 = hints, l2_promotion
        if plan.wide_in:
            self.ins = [K.dynamic_shared((tr, tc // w, w), dtype, offset)]
        else:
            self.ins = [K.dynamic_shared((tr, w), dtype, offset + k * tr * plan.row_bytes)
                        for k in range(tc // w)]
        if plan.wide_out:
            self.outs = [K.dynamic_shared((tc, tr // w, w), dtype, offset)]
        else:
            self.outs = [K.dynamic_shared((tc, w), dtype, offset + m * tc * plan.row_bytes)
                         for m in range(tr // w)]
        self.base = _base_address(self.ins[0])

    def load(self, bar, i0, j0, tag: str) -> None:
        plan = self.plan
        tr, tc = plan.tile
        w, sw = plan.width, plan.swizzle
        policy, hint = self.hints["load"]
        if plan.wide_in:
            tma.apply(LOAD3 + hint, self.ins[0], self.A, box=(tr, tc // w, w),
                      coords=(i0, IrOps.div(j0, w), 0), swizzle=sw, mbar=bar, tag=tag,
                      l2_promotion=self.l2, **policy)
            return
        for k in range(tc // w):
            tma.apply(LOAD + hint, self.ins[k], self.A, box=(tr, w), coords=(i0, j0 + k * w),
                      swizzle=sw, mbar=bar, tag=tag, l2_promotion=self.l2, **policy)

    def transpose(self, lane_offsets) -> None:
        """All threads: read every block, CTA barrier, write them back."""
        sw = self.plan.swizzle
        frags = [_ldmatrix_x4_trans(swizzle_address(self.base + a, sw, IrOps))
                 for a, _ in lane_offsets]
        K.cta_sync()  # every read is done before any write lands on its bytes
        for (_, b), regs in zip(lane_offsets, frags):
            _stmatrix_x4(swizzle_address(self.base + b, sw, IrOps), regs)

    def store(self, i0, j0) -> None:
        plan = self.plan
        tr, tc = plan.tile
        w, sw = plan.width, plan.swizzle
        policy, hint = self.hints["store"]
        if plan.wide_out:
            tma.apply(STORE3 + hint, self.B, self.outs[0], box=(tc, tr // w, w),
                      coords=(j0, IrOps.div(i0, w), 0), swizzle=sw, l2_promotion=self.l2,
                      **policy)
            return
        for m in range(tr // w):
            tma.apply(STORE + hint, self.B, self.outs[m], box=(tc, w),
                      coords=(j0, i0 + m * w), swizzle=sw, l2_promotion=self.l2, **policy)


def _hints(evict_first: str) -> dict:
    """{"load"|"store": (cache_policy kwargs, opcode suffix)}."""
    if evict_first not in ("", "load", "store", "both"):
        raise ValueError(f"evict_first {evict_first!r}: '', 'load', 'store' or 'both'")
    return {side: ({"cache_policy": EVICT_FIRST}, ".L2::cache_hint")
            if evict_first in (side, "both") else ({}, "") for side in ("load", "store")}


def _lane_offsets(plan: Plan):
    tid = K.thread_id()
    lane, warp = IrOps.mod(tid, 32), IrOps.div(tid, 32)
    return [plan.ld_lane(warp, lane, k, IrOps) for k in range(plan.ld_ops_per_warp)]


def _tensors(plan: Plan) -> dict:
    """A wide box sees its matrix as (rows, cols / W, W): the same bytes."""
    w, dtype = plan.width, plan.dtype
    return {"A": K.Tensor((plan.rows, plan.cols // w, w) if plan.wide_in
                          else (plan.rows, plan.cols), dtype),
            "B": K.Tensor((plan.cols, plan.rows // w, w) if plan.wide_out
                          else (plan.cols, plan.rows), dtype)}


def build_transpose_one_tile(rows: int, cols: int, tile=(64, 64), swizzle: int = 3,
                             dtype: str = "bfloat16", threads: int = 128,
                             group: int = 1, order: str = "row",
                             wide_in: bool = False, wide_out: bool = False,
                             l2_promotion: int = 0, evict_first: str = "",
                             name: str = "tma_transpose_one_tile",
                             pattern_only: bool = False):
    """One tile per CTA (grid = the tile count; the block scheduler hands out
    the tiles), transposed in place (`_InPlaceTile`): thread 0 loads the
    tile on one mbarrier, every thread waits on it, the warps transpose it
    into the same bytes, fence.proxy.async, CTA barrier, thread 0 issues the
    TMA store(s) and waits until they have read shared memory before the CTA
    exits. Shared memory: one tile (+ the barrier), so several CTAs share an
    SM and their loads overlap each other's transposes and stores.

    `evict_first`: "load", "store" or "both" give those copies the L2
    evict_first cache policy (each byte is touched once).

    `pattern_only=True` is a diagnostic, not a transpose: the same loads,
    barriers and stores at the same coordinates, without the ldmatrix /
    stmatrix step (the output holds untransposed boxes). It measures what
    the TMA traffic pattern alone allows."""
    n_tiles = (rows // tile[0]) * (cols // tile[1])
    plan = make_plan(rows, cols, tile, 1, 2, threads, n_tiles, swizzle, "ldmatrix",
                     dtype, group, order, wide_in, wide_out)
    hints = _hints(evict_first)

    def body(A, B):
        tid = K.thread_id()
        io = _InPlaceTile(plan, A, B, 0, hints, l2_promotion)
        bar = K.dynamic_shared((1,), "uint64", plan.tile_bytes).ptr_to([0])
        i0, j0 = plan.tile_origin(K.block_id(), IrOps)
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
        K.cta_sync()
        with K.if_(tid == 0):
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("tile"))
            io.load(bar, i0, j0, "tile")
        offsets = _lane_offsets(plan)
        K.mbarrier_wait(bar, 0)
        if not pattern_only:
            io.transpose(offsets)
        K.fence_proxy_async_shared_cta()
        K.cta_sync()
        with K.if_(tid == 0):
            io.store(i0, j0)
            K.bulk_commit_group()
            K.bulk_wait_group(0, read=True)

    ns = {"body": body}
    exec(f"def {name}(A, B): body(A, B)", ns)
    fn = ns[name]
    fn.__annotations__ = _tensors(plan)
    kdef = K.kernel(grid=n_tiles, block=threads)(fn)
    kdef.plan = plan
    kdef.shared_bytes = plan.tile_bytes + 8
    return kdef


def build_transpose_dynamic(rows: int, cols: int, tile=(128, 128), stages: int = 3,
                            store_lag: int = 1, grid: int = 132, swizzle: int = 3,
                            dtype: str = "bfloat16", threads: int = 256,
                            order: str = "column", wide_in: bool = True,
                            wide_out: bool = True, name: str = "tma_transpose_dynamic"):
    """Persistent CTAs that claim tiles at run time (as
    copy_kernel.build_copy_dynamic does), each tile transposed in place in
    one of `stages` shared buffers (`_InPlaceTile`).

    Thread 0 claims a ticket (`atom.add` on Ctr[0]) for every load, records
    the stage's tile id in shared memory and loads it if the ticket is a
    tile. All threads, for their j-th tile: read the stage's id (a ticket
    past the end ends the loop, for the whole CTA alike), wait on its
    mbarrier, transpose, fence.proxy.async, CTA barrier; then thread 0
    stores the stage, commits, waits `wait_group.read store_lag` and refills
    the stage of tile j - store_lag with a ticket claimed one tile ahead.
    That id is read by the other threads at the head of iteration
    j - store_lag + stages; with stages - store_lag >= 2 that is iteration
    j + 2 or later, so the CTA barriers of iteration j + 1 lie between the
    write and every read. Ctr is (2,) int32, zero before the first launch;
    the last CTA out resets it (see build_copy_dynamic)."""
    from mlir.dialects import scf
    from copy_kernel import TileClaims, _as_index

    if not 1 <= store_lag <= stages - 2:
        raise ValueError("store_lag must be in 1..stages-2 (the tile ids are read "
                         "two iterations after they are written)")
    # The geometry checks of one stage (the in-place stages have no output
    # buffers, so the plan's own shared-memory sum does not apply).
    plan = make_plan(rows, cols, tile, 1, 2, threads, grid, swizzle, "ldmatrix",
                     dtype, 1, order, wide_in, wide_out)
    S, n_tiles = stages, plan.n_tiles
    bar_offset = S * plan.tile_bytes
    ids_offset = bar_offset + 8 * S
    if ids_offset + 4 * S > 227 * 1024:
        raise ValueError(f"{ids_offset + 4 * S} bytes of shared memory > 227 KiB")
    hints = _hints("")

    def body(A, B, Ctr):
        tid = K.thread_id()
        ios = [_InPlaceTile(plan, A, B, s * plan.tile_bytes, hints, 0) for s in range(S)]
        bars = K.dynamic_shared((S,), "uint64", bar_offset)
        claims = TileClaims(Ctr, K.dynamic_shared((S,), "uint32", ids_offset), n_tiles)

        def origin(tile: ir.Value):
            return plan.tile_origin(_as_index(tile), IrOps)

        def start(s: int, ticket: ir.Value, site: str):
            claims.record(s, ticket)
            with K.if_(claims.is_tile(ticket)):
                bar = bars.ptr_to([s])
                K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(f"{site}{s}"))
                i0, j0 = origin(ticket)
                ios[s].load(bar, i0, j0, f"{site}{s}")

        with K.if_(tid == 0):
            for s in range(S):
                K.mbarrier_init(bars.ptr_to([s]), 1)
            for s in range(S):
                start(s, claims.claim(), "pro")
        first_ahead = scf.IfOp(K.Expr.of(tid == 0), [claims.i32], has_else=True)
        with ir.InsertionPoint(first_ahead.then_block):
            scf.YieldOp([claims.claim()])
        with ir.InsertionPoint(first_ahead.else_block):
            scf.YieldOp([arith.constant(claims.i32, 0)])
        K.cta_sync()  # barrier inits and the first ids are visible
        offsets = _lane_offsets(plan)

        def step(j, ahead):
            """All threads transpose tile j; thread 0 stores and refills."""
            stage = j % S
            tile = claims.tile_id(stage)
            K.mbarrier_wait(bars.ptr_to([stage]), (j // S) % 2)
            _on_stage(stage, S, lambda s: ios[s].transpose(offsets))
            K.fence_proxy_async_shared_cta()
            K.cta_sync()
            thread0 = scf.IfOp(K.Expr.of(tid == 0), [claims.i32], has_else=True)
            with ir.InsertionPoint(thread0.then_block):
                i0, j0 = origin(tile)
                _on_stage(stage, S, lambda s: ios[s].store(i0, j0))
                K.bulk_commit_group()
                K.bulk_wait_group(store_lag, read=True)
                scf.YieldOp([claims.spend_if(j >= store_lag, ahead, lambda: _on_stage(
                    (j - store_lag) % S, S, lambda s: start(s, ahead, "re")))])
            with ir.InsertionPoint(thread0.else_block):
                scf.YieldOp([ahead])
            return thread0.result

        claims.loop(S, first_ahead.result, step)
        with K.if_(tid == 0):
            K.bulk_wait_group(0)
            claims.count_out()

    ns = {"body": body}
    exec(f"def {name}(A, B, Ctr): body(A, B, Ctr)", ns)
    fn = ns[name]
    fn.__annotations__ = {**_tensors(plan), "Ctr": K.Tensor((2,), "int32")}
    kdef = K.kernel(grid=grid, block=threads)(fn)
    kdef.plan = plan
    kdef.shared_bytes = ids_offset + 4 * S
    return kdef
