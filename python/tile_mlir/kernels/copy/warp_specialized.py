"""Warp-specialized copies: a producer warp fills a ring of shared buffers
with TMA loads ("full" and "empty" mbarriers per stage), consumer warps
drain it (TMA stores in build_copy_ws, 16-byte SIMT stores in
build_copy_tma_simt)."""

from __future__ import annotations

from ... import builder as K
from ... import tma
from ...builder import IrOps
from ..common.opcodes import load_opcode, store_opcode
from ..common.params import checked_params
from .tiling import box_origin, elem_bytes, round_robin_count, tile_order, tiling


def ring_and_producer(A, box, dtype: str, stages: int, stage_bytes: int, count,
                      coords, consumers: int = 1):
    """The warp-specialized ring: `stages` buffers with a "full" and an
    "empty" mbarrier each (thread 0 initialises them; "empty" counts
    `consumers` arrivals; then a CTA barrier), and warp 0's producer: for its
    j-th tile (of `count`, at `coords(j)`) it waits until stage j % stages is
    empty, arms the stage's "full" barrier with the box's bytes and issues
    the TMA load. Returns (bufs, full, empty)."""
    tid = K.thread_id()
    bufs = [K.dynamic_shared(tuple(box), dtype, s * stage_bytes) for s in range(stages)]
    full = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
    empty = K.dynamic_shared((stages,), "uint64", stages * stage_bytes + stages * 8)
    with K.if_(tid == 0):
        for s in range(stages):
            K.mbarrier_init(full.ptr_to([s]), 1)
            K.mbarrier_init(empty.ptr_to([s]), consumers)
    K.cta_sync()

    with K.if_(tid == 0):  # producer
        for j in K.range_(0, count):
            stage = j % stages
            K.mbarrier_wait(empty.ptr_to([stage]), K.empty_parity(j, stages))

            def load(s):
                bar = full.ptr_to([s])
                K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(f"ld{s}"))
                tma.apply(load_opcode(), bufs[s], A, box=box, coords=coords(j), mbar=bar,
                          tag=f"ld{s}")
            K.on_stage(stage, stages, load)
    return bufs, full, empty


@checked_params
def build_copy_ws(rows: int, cols: int, box=(64, 128), stages: int = 4, grid: int = 132,
                  dtype: str = "bfloat16", name: str = "tma_copy_ws", store_lag: int = 1,
                  order: str = "round_robin") -> K.KernelDef:
    """Warp-specialized persistent copy, 64 threads.

    Warp 0 (lane 0) is the producer: for its j-th tile it waits until stage
    j % stages is empty (`empty_parity`), arms the stage's "full" barrier
    with the box's bytes and issues the TMA load. Warp 1 (lane 0) is the
    consumer: it waits on "full" (`full_parity`), issues the TMA store,
    commits a bulk group, waits `wait_group.read store_lag` (all but the
    `store_lag` newest stores have finished reading shared memory) and then
    arrives on the "empty" barrier of tile j - store_lag's stage.
    Thread 0 initialises every barrier before a CTA barrier splits the roles.
    """
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")
    tiles_c, n_tiles, stage_bytes = tiling(rows, cols, box, dtype)
    tile_order(0, n_tiles, grid, order)  # an unknown order fails here, not in the trace

    def body(A, B):
        tid = K.thread_id()
        block = K.block_id()
        count, tile_of = tile_order(block, n_tiles, grid, order)

        def coords(j):
            return box_origin(tile_of(j), tiles_c, box)

        bufs, full, empty = ring_and_producer(A, box, dtype, stages, stage_bytes,
                                              count, coords)

        with K.if_(tid == 32):  # consumer
            for j in K.range_(0, count):
                stage = j % stages
                K.mbarrier_wait(full.ptr_to([stage]), K.full_parity(j, stages))
                K.on_stage(stage, stages, lambda s: tma.apply(
                    store_opcode(), B, bufs[s], box=box, coords=coords(j)))
                K.bulk_commit_group()
                K.bulk_wait_group(store_lag, read=True)
                with K.if_(j >= store_lag):
                    K.mbarrier_arrive(empty.ptr_to([(j - store_lag) % stages]))
            K.bulk_wait_group(0)

    tensor = K.Tensor((rows, cols), dtype)
    return K.KernelDef(body, grid=grid, block=64, params=[("A", tensor), ("B", tensor)],
                       name=name)


@checked_params
def build_copy_tma_simt(rows: int, cols: int, box=(64, 128), stages: int = 4,
                        grid: int = 132, consumer_warps: int = 4, dtype: str = "bfloat16",
                        name: str = "tma_load_simt_store") -> K.KernelDef:
    """TMA loads, ordinary stores: warp 0 (lane 0) loads boxes into a ring
    of `stages` buffers with build_copy_ws's producer (`ring_and_producer`);
    the `consumer_warps` warps after it wait on "full", each thread moves
    its share of the box with ld.shared.v4 and st.global.v4 (all its loads
    before its stores), then arrives on "empty" (count: every consumer
    thread)."""
    if not 1 <= consumer_warps:
        raise ValueError("at least one consumer warp")
    tiles_c, n_tiles, stage_bytes = tiling(rows, cols, box, dtype)
    br, bc = box
    vec = 16 // elem_bytes(dtype)
    consumers = 32 * consumer_warps
    per_row = bc // vec
    per_thread, rest = divmod(br * per_row, consumers)
    if bc % vec or rest:
        raise ValueError("the box must split evenly into 16-byte vectors per thread")

    def body(A, B):
        vtype = K.vector_type(dtype)
        tid = K.thread_id()
        ring = K.dynamic_shared((stages, br, bc), dtype, 0)
        block = K.block_id()
        count = round_robin_count(block, n_tiles, grid)

        def origin(j):
            return box_origin(block + j * grid, tiles_c, box)

        _, full, empty = ring_and_producer(A, box, dtype, stages, stage_bytes, count,
                                           origin, consumers)

        with K.if_(tid >= 32):  # consumers
            ctid = tid - 32
            spots = []
            for k in range(per_thread):
                q = ctid + k * consumers
                spots.append((IrOps.div(q, per_row), IrOps.mod(q, per_row) * vec))
            for j in K.range_(0, count):
                stage = j % stages
                K.mbarrier_wait(full.ptr_to([stage]), K.full_parity(j, stages))
                r0, c0 = origin(j)
                values = [K.vector_load(vtype, ring, (stage, r, c)) for r, c in spots]
                for value, (r, c) in zip(values, spots):
                    K.vector_store(value, B, (r0 + r, c0 + c))
                K.mbarrier_arrive(empty.ptr_to([stage]))

    tensor = K.Tensor((rows, cols), dtype)
    return K.KernelDef(body, grid=grid, block=32 + consumers,
                       params=[("A", tensor), ("B", tensor)], name=name)
