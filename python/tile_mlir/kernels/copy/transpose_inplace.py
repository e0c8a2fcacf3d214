"""Transposes that move each tile in place: one shared buffer per tile,
ldmatrix reads, a CTA barrier, stmatrix writes into the same bytes.

`build_transpose_one_tile`: one tile per CTA, grid = the tile count.
`build_transpose_dynamic`: persistent CTAs claiming tiles at run time.
Both take `order="column"` (consecutive tiles write neighbouring pieces of
the same output rows) and wide 3-D boxes (`wide_in` / `wide_out`: one box
per tile, whole tile rows contiguous, at the price of 2-way bank conflicts).
"""

from __future__ import annotations

import mlir.ir as ir

from ... import builder as K
from ... import tma
from ...builder import IrOps
from ..common.opcodes import EVICT_FIRST, load_opcode, store_opcode
from ..common.params import checked_params
from .claims import TileClaims
from .transpose import swizzled
from .transpose_plan import SHARED_LIMIT, Plan, make_plan


class InPlaceTile:
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
        self.base = K.base_address(self.ins[0])

    def load(self, bar, i0, j0, tag: str) -> None:
        """The TMA load(s) of the input tile at (i0, j0) into the tile buffer,
        completing on `bar` and tagged `tag` (for `tma.tx_bytes`)."""
        plan = self.plan
        tr, tc = plan.tile
        w, sw = plan.width, plan.swizzle
        policy, hint = self.hints["load"]
        if plan.wide_in:
            tma.apply(load_opcode(3, hint), self.ins[0], self.A, box=(tr, tc // w, w),
                      coords=(i0, IrOps.div(j0, w), 0), swizzle=sw, mbar=bar, tag=tag,
                      l2_promotion=self.l2, **policy)
            return
        for k in range(tc // w):
            tma.apply(load_opcode(2, hint), self.ins[k], self.A, box=(tr, w),
                      coords=(i0, j0 + k * w), swizzle=sw, mbar=bar, tag=tag,
                      l2_promotion=self.l2, **policy)

    def transpose(self, lane_offsets) -> None:
        """All threads: read every block, CTA barrier, write them back."""
        sw = self.plan.swizzle
        frags = [K.ldmatrix_x4_trans(swizzled(self.base + a, sw)) for a, _ in lane_offsets]
        K.cta_sync()  # every read is done before any write lands on its bytes
        for (_, b), regs in zip(lane_offsets, frags):
            K.stmatrix_x4(swizzled(self.base + b, sw), regs)

    def store(self, i0, j0) -> None:
        """The TMA store(s) of the transposed tile: input tile (i0, j0) lands at
        (j0, i0) of the output (commit and wait are the caller's)."""
        plan = self.plan
        tr, tc = plan.tile
        w, sw = plan.width, plan.swizzle
        policy, hint = self.hints["store"]
        if plan.wide_out:
            tma.apply(store_opcode(3, hint), self.B, self.outs[0], box=(tc, tr // w, w),
                      coords=(j0, IrOps.div(i0, w), 0), swizzle=sw, l2_promotion=self.l2,
                      **policy)
            return
        for m in range(tr // w):
            tma.apply(store_opcode(2, hint), self.B, self.outs[m], box=(tc, w),
                      coords=(j0, i0 + m * w), swizzle=sw, l2_promotion=self.l2, **policy)


def cache_hints(evict_first: str) -> dict:
    """{"load"|"store": (cache_policy kwargs, whether the opcode carries
    .L2::cache_hint)}: `evict_first`
    "load", "store" or "both" give those copies the L2 evict_first policy."""
    if evict_first not in ("", "load", "store", "both"):
        raise ValueError(f"evict_first {evict_first!r}: '', 'load', 'store' or 'both'")
    return {side: ({"cache_policy": EVICT_FIRST}, True)
            if evict_first in (side, "both") else ({}, False) for side in ("load", "store")}


def _lane_offsets(plan: Plan):
    tid = K.thread_id()
    lane, warp = IrOps.mod(tid, 32), IrOps.div(tid, 32)
    return [plan.ld_lane(warp, lane, k, IrOps) for k in range(plan.ld_ops_per_warp)]


def _tensors(plan: Plan) -> list:
    """A wide box sees its matrix as (rows, cols / W, W): the same bytes."""
    w, dtype = plan.width, plan.dtype
    return [("A", K.Tensor((plan.rows, plan.cols // w, w) if plan.wide_in
                           else (plan.rows, plan.cols), dtype)),
            ("B", K.Tensor((plan.cols, plan.rows // w, w) if plan.wide_out
                           else (plan.cols, plan.rows), dtype))]


@checked_params
def build_transpose_one_tile(rows: int, cols: int, tile=(64, 64), swizzle: int = 3,
                             dtype: str = "bfloat16", threads: int = 128,
                             group: int = 1, order: str = "row",
                             wide_in: bool = False, wide_out: bool = False,
                             l2_promotion: int = 0, evict_first: str = "",
                             name: str = "tma_transpose_one_tile",
                             pattern_only: bool = False) -> K.KernelDef:
    """One tile per CTA (grid = the tile count; the block scheduler hands out
    the tiles), transposed in place (`InPlaceTile`): thread 0 loads the
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
    the TMA traffic pattern alone allows. `kernel.plan` holds the geometry,
    `kernel.shared_bytes` the dynamic shared memory it uses."""
    n_tiles = (rows // tile[0]) * (cols // tile[1])
    plan = make_plan(rows, cols, tile, 1, 2, threads, n_tiles, swizzle, "ldmatrix",
                     dtype, group, order, wide_in, wide_out)
    hints = cache_hints(evict_first)

    def body(A, B):
        tid = K.thread_id()
        io = InPlaceTile(plan, A, B, 0, hints, l2_promotion)
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

    kdef = K.KernelDef(body, grid=n_tiles, block=threads, params=_tensors(plan), name=name)
    kdef.plan = plan
    kdef.shared_bytes = plan.tile_bytes + 8
    return kdef


@checked_params
def build_transpose_dynamic(rows: int, cols: int, tile=(128, 128), stages: int = 3,
                            store_lag: int = 1, grid: int = 132, swizzle: int = 3,
                            dtype: str = "bfloat16", threads: int = 256,
                            order: str = "column", wide_in: bool = True,
                            wide_out: bool = True,
                            name: str = "tma_transpose_dynamic") -> K.KernelDef:
    """Persistent CTAs that claim tiles at run time (as build_copy_dynamic
    does), each tile transposed in place in one of `stages` shared buffers
    (`InPlaceTile`).

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
    the last CTA out resets it (`TileClaims`)."""
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
    if ids_offset + 4 * S > SHARED_LIMIT:
        raise ValueError(f"{ids_offset + 4 * S} bytes of shared memory > 227 KiB")
    hints = cache_hints("")

    def body(A, B, Ctr):
        tid = K.thread_id()
        ios = [InPlaceTile(plan, A, B, s * plan.tile_bytes, hints, 0) for s in range(S)]
        bars = K.dynamic_shared((S,), "uint64", bar_offset)
        claims = TileClaims(Ctr, K.dynamic_shared((S,), "uint32", ids_offset), n_tiles)

        def origin(tile: ir.Value):
            return plan.tile_origin(IrOps.index(tile), IrOps)

        def load(s: int, ticket: ir.Value, bar, tag: str):
            i0, j0 = origin(ticket)
            ios[s].load(bar, i0, j0, tag)

        start = claims.stage_starter(bars, load)

        first_ahead = claims.prefill(tid, bars, S, start)
        offsets = _lane_offsets(plan)

        def step(j, ahead):
            """All threads transpose tile j; thread 0 stores and refills."""
            stage = j % S
            tile = claims.tile_id(stage)
            K.mbarrier_wait(bars.ptr_to([stage]), K.full_parity(j, S))
            K.on_stage(stage, S, lambda s: ios[s].transpose(offsets))
            K.fence_proxy_async_shared_cta()
            K.cta_sync()

            def store_and_refill():
                i0, j0 = origin(tile)
                K.on_stage(stage, S, lambda s: ios[s].store(i0, j0))
                K.bulk_commit_group()
                K.bulk_wait_group(store_lag, read=True)
                return [claims.spend_if(j >= store_lag, ahead, lambda: K.on_stage(
                    (j - store_lag) % S, S, lambda s: start(s, ahead, "re")))]

            return K.if_else(tid == 0, [claims.i32], store_and_refill,
                             lambda: [ahead])[0]

        claims.loop(S, first_ahead, step)
        with K.if_(tid == 0):
            K.bulk_wait_group(0)
            claims.count_out()

    kdef = K.KernelDef(body, grid=grid, block=threads,
                       params=_tensors(plan) + [("Ctr", K.Tensor((2,), "int32"))],
                       name=name)
    kdef.plan = plan
    kdef.shared_bytes = ids_offset + 4 * S
    return kdef
