"""The persistent pipelines of the layout kernels: CTAs claim tiles at run
time (`TileClaims`, as build_copy_dynamic and build_transpose_dynamic do)
from a tile count the kernel computes from its arguments' extents.

`one_thread_pipeline`: one thread loads tiles into `stages` shared stages
and stores each back with TMA (build_copy_dynamic's protocol), for kernels
that only move boxes.

`all_thread_pipeline`: one thread loads and claims; every thread works on
each tile in shared memory (a transpose, a shifted copy); then one thread
issues the tile's TMA stores, if any (build_transpose_dynamic's protocol).
A kernel whose threads write the output themselves passes `store=None`:
the stage is refilled as soon as every thread is done with it.

`producer_warp_pipeline`: for kernels whose threads only read the stages
(they write the output themselves): one extra warp claims and loads, the
worker warps never wait for each other, only for their stage's load; each
releases a stage on its "empty" mbarrier when done with it.

`one_tile`: no pipeline; one tile per CTA (the launch's grid is the tile
count and the block scheduler hands the tiles out in order), several CTAs
an SM overlapping each other's loads, work and stores (the form of
build_transpose_one_tile).
"""

from __future__ import annotations

from typing import Callable

import mlir.ir as ir
from mlir.dialects import arith

from .. import builder as K
from .. import tma
from .claims import TileClaims


class RuntimeClaims(TileClaims):
    """TileClaims whose tile count is an i32 value computed in the kernel."""

    def __init__(self, Ctr: K.Buffer, ids: K.Buffer, n_tiles: ir.Value):
        super().__init__(Ctr, ids, 0)
        self.n = n_tiles


def tile_count_i32(n_tiles: K.Expr) -> ir.Value:
    return arith.index_cast(ir.IntegerType.get_signless(32), K.Expr.of(n_tiles))


class Stages:
    """`stages` shared stages of `stage_bytes` each from byte 0 of dynamic
    shared memory (1024-aligned: swizzled boxes may start there), then one
    mbarrier per stage ("full"; with `empty`, a second one per stage after
    them) and one tile id per stage."""

    def __init__(self, stages: int, stage_bytes: int, empty: bool = False):
        if stage_bytes % 1024:
            raise ValueError("a stage is a whole number of 1024-byte blocks")
        self.count = stages
        self.stage_bytes = stage_bytes
        self.bar_offset = stages * stage_bytes
        self.empty_offset = self.bar_offset + 8 * stages if empty else None
        self.ids_offset = self.bar_offset + 8 * stages * (2 if empty else 1)
        self.shared_bytes = self.ids_offset + 4 * stages

    def offset(self, s: int) -> int:
        return s * self.stage_bytes

    def barriers(self) -> K.Buffer:
        return K.dynamic_shared((self.count,), "uint64", self.bar_offset)

    def empties(self) -> K.Buffer:
        if self.empty_offset is None:
            raise ValueError("these stages have no empty barriers (Stages(empty=True))")
        return K.dynamic_shared((self.count,), "uint64", self.empty_offset)

    def ids(self) -> K.Buffer:
        return K.dynamic_shared((self.count,), "uint32", self.ids_offset)


def one_thread_pipeline(stages: Stages, store_lag: int, Ctr: K.Buffer, n_tiles: K.Expr,
                        load: Callable, store: Callable) -> None:
    """Thread 0 runs build_copy_dynamic's pipeline over tickets claimed from
    Ctr: `load(s, ticket, bar, tag)` issues stage s's loads (all tagged `tag`,
    completing on `bar`), `store(s, ticket)` its stores."""
    S = stages.count
    if not 1 <= store_lag < S:
        raise ValueError("store_lag must be in 1..stages-1")
    tid = K.thread_id()
    bars = stages.barriers()
    claims = RuntimeClaims(Ctr, stages.ids(), tile_count_i32(n_tiles))

    start = claims.stage_starter(bars, load)

    def step(j, ahead):
        stage = j % S
        K.mbarrier_wait(bars.ptr_to([stage]), K.full_parity(j, S))
        ticket = claims.tile_id(stage)
        K.on_stage(stage, S, lambda s: store(s, ticket))
        K.bulk_commit_group()
        K.bulk_wait_group(store_lag, read=True)
        return claims.spend_if(j >= store_lag, ahead, lambda: K.on_stage(
            (j - store_lag) % S, S, lambda s: start(s, ahead, "re")))

    with K.if_(tid == 0):
        for s in range(S):
            K.mbarrier_init(bars.ptr_to([s]), 1)
        for s in range(S):
            start(s, claims.claim(), "pro")
        claims.loop(S, claims.claim(), step)
        K.bulk_wait_group(0)
        claims.count_out()


def all_thread_pipeline(stages: Stages, Ctr: K.Buffer, n_tiles: K.Expr, load: Callable,
                        work: Callable, store: Callable | None = None,
                        store_lag: int = 1, fence: str = "all") -> None:
    """Thread 0 claims tickets and loads stages (`load(s, ticket, bar, tag)`);
    every thread, for its j-th tile: reads the stage's ticket (one past the
    end ends the loop for the whole CTA), waits on its mbarrier, runs
    `work(s, ticket)`, then fence.proxy.async and a CTA barrier. Then thread
    0 issues `store(s, ticket)` (TMA stores reading the stage), commits and
    waits `wait_group.read store_lag`, and refills the stage of tile
    j - store_lag; with `store=None` it refills stage j at once.

    A refilled stage's ticket is read by the other threads at the head of
    iteration j - store_lag + stages, which must be j + 2 or later (the CTA
    barrier of iteration j + 1 lies between): store_lag <= stages - 2.

    `fence`: where the proxy fence (fence.proxy.async) that orders the
    threads' shared accesses before the copy engine's next access of the
    stage goes. "all": every thread's, before the CTA barrier (needed where
    threads write a stage that a TMA store then reads). With `store=None`
    the threads only read the stages, and a thread's fence is a
    MEMBAR.ALL.CTA in SASS that also waits for its own global stores, so:
    "issuer": thread 0's alone, after the barrier, before the refill;
    "none": no fence (every read of a stage feeds a store issued before the
    barrier, so none is outstanding at the refill: the ordering rests on
    that dependency and the barrier). Both are benchmark variants."""
    S = stages.count
    lag = store_lag if store is not None else 0
    if store is not None and not 1 <= lag <= S - 2:
        raise ValueError("store_lag must be in 1..stages-2")
    if store is None and S < 2:
        raise ValueError("at least two stages")
    if fence not in ("all", "issuer", "none"):
        raise ValueError(f"fence {fence!r}: one of all, issuer, none")
    if fence != "all" and store is not None:
        raise ValueError("threads that write a stage for a TMA store fence it: fence='all'")
    tid = K.thread_id()
    bars = stages.barriers()
    claims = RuntimeClaims(Ctr, stages.ids(), tile_count_i32(n_tiles))

    start = claims.stage_starter(bars, load)

    first_ahead = claims.prefill(tid, bars, S, start)

    def step(j, ahead):
        stage = j % S
        ticket = claims.tile_id(stage)
        K.mbarrier_wait(bars.ptr_to([stage]), K.full_parity(j, S))
        K.on_stage(stage, S, lambda s: work(s, ticket))
        if fence == "all":
            K.fence_proxy_async_shared_cta()
        K.cta_sync()

        def finish():
            if fence == "issuer":
                K.fence_proxy_async_shared_cta()
            if store is not None:
                K.on_stage(stage, S, lambda s: store(s, ticket))
                K.bulk_commit_group()
                K.bulk_wait_group(lag, read=True)
            return [claims.spend_if(j >= lag, ahead, lambda: K.on_stage(
                (j - lag) % S, S, lambda s: start(s, ahead, "re")))]

        return K.if_else(tid == 0, [claims.i32], finish, lambda: [ahead])[0]

    claims.loop(S, first_ahead, step)
    with K.if_(tid == 0):
        if store is not None:
            K.bulk_wait_group(0)
        claims.count_out()


def producer_warp_pipeline(stages: Stages, Ctr: K.Buffer, n_tiles: K.Expr, workers: int,
                           load: Callable, work: Callable) -> None:
    """Warp-specialized pipeline over tickets claimed from Ctr, for a block
    of `workers` threads (whole warps) plus one producer warp after them.

    The producer (its lane 0), for its j-th ticket: waits until stage
    j % stages is empty (`empty_parity`), records the ticket and, for a
    tile, arms the stage's "full" barrier and issues `load(s, ticket, bar,
    tag)`; it claims the next ticket before waiting again, so the atomic's
    latency hides behind the wait. Its first ticket past the end is
    recorded in the next stage, whose "full" barrier it completes with a
    plain arrive, and ends every worker's loop.

    Each worker thread, for j = 0, 1, ...: waits on stage j % stages's
    "full" barrier (`full_parity`), reads the stage's ticket (the arrive
    that completed the phase released it), stops at one past the end, else
    runs `work(s, ticket, j)` and arrives on the stage's "empty" barrier
    (count: `workers`). Workers only read stages, so no proxy fence orders
    their reads before the refill: the producer's wait on "empty" does.
    Warps drift apart by up to `stages` - 1 tiles instead of meeting at a
    CTA barrier every tile."""
    S = stages.count
    if S < 2:
        raise ValueError("at least two stages")
    if workers % 32 or workers < 32:
        raise ValueError("workers: whole warps")
    tid = K.thread_id()
    full, empty = stages.barriers(), stages.empties()
    claims = RuntimeClaims(Ctr, stages.ids(), tile_count_i32(n_tiles))
    index = ir.IndexType.get()
    with K.if_(tid == 0):
        for s in range(S):
            K.mbarrier_init(full.ptr_to([s]), 1)
            K.mbarrier_init(empty.ptr_to([s]), workers)
    K.cta_sync()

    start = claims.stage_starter(full, load)
    with K.if_(tid == workers):  # the producer
        def fill(values):
            j, ticket = K.Expr(values[0]), values[1]
            K.mbarrier_wait(empty.ptr_to([j % S]), K.empty_parity(j, S))
            K.on_stage(j % S, S, lambda s: start(s, ticket, "re"))
            return [K.Expr.of(j + 1), claims.claim()]

        j, ticket = K.while_carried([index, claims.i32], [K.Expr.of(0), claims.claim()],
                                    lambda v: claims.is_tile(v[1]).value, fill)
        j = K.Expr(j)
        K.mbarrier_wait(empty.ptr_to([j % S]), K.empty_parity(j, S))
        claims.record(j % S, ticket)
        K.mbarrier_arrive(full.ptr_to([j % S]))
        claims.count_out()

    with K.if_(tid < workers):
        def ready(values):
            j = K.Expr(values[0])
            K.mbarrier_wait(full.ptr_to([j % S]), K.full_parity(j, S))
            return claims.is_tile(claims.tile_id(j % S)).value

        def step(values):
            j = K.Expr(values[0])
            ticket = claims.tile_id(j % S)
            K.on_stage(j % S, S, lambda s: work(s, ticket, j))
            K.mbarrier_arrive(empty.ptr_to([j % S]))
            return [K.Expr.of(j + 1)]

        K.while_carried([index], [K.Expr.of(0)], ready, step)


def one_tile(stages: Stages, load: Callable, work: Callable, store: Callable) -> None:
    """Tile `block_id` in stage 0: thread 0 loads it (`load(0, tile, bar,
    "tile")`, tile an index Expr), every thread waits and runs `work(0,
    tile)`, fence.proxy.async and a CTA barrier, then thread 0 issues
    `store(0, tile)` and waits until the stores have read shared memory."""
    tid = K.thread_id()
    bar = stages.barriers().ptr_to([0])
    tile = K.block_id()
    with K.if_(tid == 0):
        K.mbarrier_init(bar, 1)
    K.cta_sync()
    with K.if_(tid == 0):
        K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("tile"))
        load(0, tile, bar, "tile")
    K.mbarrier_wait(bar, 0)
    work(0, tile)
    K.fence_proxy_async_shared_cta()
    K.cta_sync()
    with K.if_(tid == 0):
        store(0, tile)
        K.bulk_commit_group()
        K.bulk_wait_group(0, read=True)
