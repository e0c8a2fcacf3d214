"""A tiled 2-D transpose, out[j, i] = in[i, j], with staged input and
output buffers.

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
bits 7..9), and the threads apply the same map (the emulator's
`swizzle_address`, on IR values) to the absolute addresses they compute, so
the result does not depend on the dynamic-shared base alignment. With 128B
swizzle the eight rows of an 8x8 block (same logical chunk, eight
consecutive rows) land in eight different chunks: each 8-row phase of
ldmatrix/stmatrix, and each scalar 8x4 patch, is free of bank conflicts.

Persistent grid: CTA b handles tiles b, b + grid, ... in `Plan.tile_origin`
order (row-major over the input's tiles, or over `group` x `group` squares of
tiles), `stages` input stages keep loads in flight. `grid` = the number of
tiles with `stages=1` is the plain one-tile-per-CTA form. The in-place forms
are in `transpose_inplace`.
"""

from __future__ import annotations

from ... import builder as K
from ... import tma
from ...builder import IrOps
from ...emulator.swizzle import swizzle_address
from ..common.opcodes import load_opcode, store_opcode
from ..common.params import checked_params
from .tiling import round_robin_count
from .transpose_plan import make_plan


def swizzled(addr: K.Expr, swizzle: int) -> K.Expr:
    """The physical shared address of logical byte address `addr` (an index
    value) under TMA swizzle `swizzle` (the emulator's map)."""
    return swizzle_address(addr, swizzle, ops=IrOps)


@checked_params
def build_transpose(rows: int, cols: int, tile=(64, 64), stages: int = 4,
                    grid: int = 264, swizzle: int = 3, dtype: str = "bfloat16",
                    threads: int = 128, out_stages: int = 2,
                    method: str = "ldmatrix", group: int = 1, order: str = "row",
                    name: str = "tma_transpose") -> K.KernelDef:
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
        base = K.base_address(ins[0][0])
        count = round_robin_count(block, plan.n_tiles, grid)  # this CTA's tiles

        def origin(j):
            return plan.tile_origin(block + j * grid, IrOps)

        def load(s: int, j, site: str):
            i0, j0 = origin(j)
            tag = f"{site}{s}"
            bar = bars.ptr_to([s])
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
            for k in range(tc // w):
                tma.apply(load_opcode(), ins[s][k], A, box=(tr, w), coords=(i0, j0 + k * w),
                          swizzle=swizzle, mbar=bar, tag=tag)

        def store(o: int, j):
            i0, j0 = origin(j)
            for m in range(tr // w):
                tma.apply(store_opcode(), B, outs[o][m], box=(tc, w),
                          coords=(j0, i0 + m * w), swizzle=swizzle)

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
            K.mbarrier_wait(bars.ptr_to([s]), K.full_parity(j, S))
            in_base = base + (plan.in_offset + s * plan.tile_bytes)
            out_base = base + (plan.out_offset + o * plan.tile_bytes)
            src = [swizzled(in_base + a, swizzle) for a, _ in lane_offsets]
            dst = [swizzled(out_base + b, swizzle) for _, b in lane_offsets]
            if method == "ldmatrix":
                frags = [K.ldmatrix_x4_trans(a) for a in src]
                for a, regs in zip(dst, frags):
                    K.stmatrix_x4(a, regs)
            else:
                values = [K.load_shared_b16(a) for a in src]
                for a, v in zip(dst, values):
                    K.store_shared_b16(v, a)
            K.fence_proxy_async_shared_cta()
            K.cta_sync()
            with K.if_(tid == 0):
                nxt = j + S
                with K.if_(nxt < count):
                    K.on_stage(s, S, lambda si: load(si, nxt, "re"))
                K.on_stage(o, O, lambda oi: store(oi, j))
                K.bulk_commit_group()
                # The buffer the warps write at tile j + 2 is the one store
                # j + 2 - O read: at most O - 2 newer groups may be pending.
                K.bulk_wait_group(O - 2, read=True)
        with K.if_(tid == 0):
            K.bulk_wait_group(0)

    kdef = K.KernelDef(body, grid=grid, block=threads,
                       params=[("A", K.Tensor((rows, cols), dtype)),
                               ("B", K.Tensor((cols, rows), dtype))], name=name)
    kdef.plan = plan
    return kdef
