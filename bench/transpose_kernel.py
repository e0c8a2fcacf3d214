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

The lane -> address maps are plain functions over an `ops` object, so that
test/python/test_transpose_kernel.py can run the same maps on integers
against the numpy TMA model (tile_mlir.emulator) on the CPU.
"""

from __future__ import annotations

from dataclasses import dataclass

import mlir.ir as ir
from mlir.dialects import arith, llvm, memref, nvvm

from tile_mlir import kernel as K
from tile_mlir import tma

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
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
        """(i0, j0) of tile `t`: row-major over group x group squares of
        tiles, row-major inside each square (group 1: plain row-major), so
        that the tiles in flight at once read and write compact regions."""
        tr, tc = self.tile
        g = self.group
        if g == 1:
            return ops.div(t, self.tiles_c) * tr, ops.mod(t, self.tiles_c) * tc
        square, inner = ops.div(t, g * g), ops.mod(t, g * g)
        squares_c = self.tiles_c // g
        ti = ops.div(square, squares_c) * g + ops.div(inner, g)
        tj = ops.mod(square, squares_c) * g + ops.mod(inner, g)
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
        sub-box c // W holds columns [W k, W k + W) as TR rows of W."""
        tr = self.tile[0]
        return (ops.div(c, self.width) * (tr * self.row_bytes) + r * self.row_bytes
                + ops.mod(c, self.width) * self.elem)

    def out_elem(self, c, r, ops):
        """Logical byte offset of out-tile element (c, r) (= in-tile (r, c))
        in an output buffer: sub-box r // W holds TC rows of W."""
        tc = self.tile[1]
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
              dtype: str = "bfloat16", group: int = 1) -> Plan:
    if dtype not in _ELEM_BYTES:
        raise ValueError(f"dtype {dtype!r}: the transpose moves 16-bit elements "
                         f"({', '.join(_ELEM_BYTES)})")
    if method not in METHODS:
        raise ValueError(f"method {method!r} is not one of {METHODS}")
    if swizzle not in (0, 1, 2, 3):
        raise ValueError("swizzle is 0..3")
    plan = Plan(rows, cols, tuple(tile), stages, out_stages, threads, grid, swizzle,
                method, dtype, group)
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
                    method: str = "ldmatrix", group: int = 1,
                    name: str = "tma_transpose"):
    """A KernelDef `name(A: rows x cols, B: cols x rows)` with B = A^T
    (`kernel.plan` holds the geometry)."""
    plan = make_plan(rows, cols, tile, stages, out_stages, threads, grid, swizzle,
                     method, dtype, group)
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

        def on(index, n, fn):
            for i in range(n):
                with K.if_(index == i):
                    fn(i)

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
                    on(s, S, lambda si: load(si, nxt, "re"))
                on(o, O, lambda oi: store(oi, j))
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
