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

`one_tile`: no pipeline; one tile per CTA (the launch's grid is the tile
count and the block scheduler hands the tiles out in order), several CTAs
an SM overlapping each other's loads, work and stores (the form of
build_transpose_one_tile).
"""

from __future__ import annotations

from typing import Callable

import mlir.ir as ir
from mlir.dialects import arith

from .... import builder as K
from .... import tma
from ...copy.claims import TileClaims
from ..limits import STAGE_ALIGN


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
    mbarrier and one tile id per stage."""

    def __init__(self, stages: int, stage_bytes: int):
        if stage_bytes % STAGE_ALIGN:
            raise ValueError(f"a stage is a whole number of {STAGE_ALIGN}-byte blocks")
        self.count = stages
        self.stage_bytes = stage_bytes
        self.bar_offset = stages * stage_bytes
        self.ids_offset = self.bar_offset + 8 * stages
        self.shared_bytes = self.ids_offset + 4 * stages

    def offset(self, s: int) -> int:
        return s * self.stage_bytes

    def barriers(self) -> K.Buffer:
        return K.dynamic_shared((self.count,), "uint64", self.bar_offset)

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


def one_tile(stages: Stages, load: Callable, work: Callable,
             store: Callable | None = None, threads_load: bool = False) -> None:
    """Tile `block_id` in stage 0: thread 0 loads it (`load(0, tile, bar,
    "tile")`, tile an index Expr), every thread waits and runs `work(0,
    tile)`, fence.proxy.async and a CTA barrier, then thread 0 issues
    `store(0, tile)` and waits until the stores have read shared memory.
    With `store=None` (the threads wrote the output themselves) the CTA
    ends after `work`: nothing reads the stage again. `threads_load`: every
    thread loads its share itself (`load(0, tile)`) and a CTA barrier,
    not an mbarrier, orders the loads before `work`."""
    tid = K.thread_id()
    if threads_load:
        tile = K.block_id()
        load(0, tile)
        K.cta_sync()
    else:
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
    if store is None:
        return
    K.fence_proxy_async_shared_cta()
    K.cta_sync()
    with K.if_(tid == 0):
        store(0, tile)
        K.bulk_commit_group()
        K.bulk_wait_group(0, read=True)
