"""Persistent, multi-stage TMA copies driven by one thread, and the
one-direction and one-box-per-CTA forms the bandwidth benchmark compares.

build_copy: one thread per CTA drives the pipeline: it keeps loads in
flight (one mbarrier per stage), and for each tile waits for its load,
stores it back with a TMA store (bulk_group), and refills the stage of the
tile `store_lag` back once `wait_group.read store_lag` says that tile's
store has finished reading shared memory. All shared memory is dynamic, so
the stage buffers start at the 1024-byte-aligned window base.
"""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith

from ... import builder as K
from ... import tma
from ..common.opcodes import EVICT_FIRST, load_opcode, store_opcode
from ..common.params import checked_params
from .tiling import box_origin, round_robin_count, tile_order, tiling


def _init_and_prefill(bars, stages: int, count, load) -> None:
    """One thread: init the stages' mbarriers (count 1), then load(s, s,
    "pro") the first min(stages, count) tiles, tile s into stage s."""
    for s in range(stages):
        K.mbarrier_init(bars.ptr_to([s]), 1)
    for s in range(stages):
        with K.if_(count > s):
            load(s, K.Expr(K.Expr.of(s)), "pro")


def store_lag_pipeline(bars, stages: int, count, store_lag: int, load, store) -> None:
    """One thread's loop over its `count` tiles: init and prefill the stages,
    then for tile j wait for its load, `store(s, j)` it from stage s
    (bulk_group), and once `wait_group.read store_lag` says the store of
    tile j - store_lag has read its stage, refill that stage with tile
    j - store_lag + stages (`load(s, j, site)`); finally drain the stores."""
    _init_and_prefill(bars, stages, count, load)
    for j in K.range_(0, count):
        stage = j % stages
        K.mbarrier_wait(bars.ptr_to([stage]), K.full_parity(j, stages))
        K.on_stage(stage, stages, lambda s: store(s, j))
        K.bulk_commit_group()
        K.bulk_wait_group(store_lag, read=True)
        prev = j - store_lag
        with K.if_(j >= store_lag):
            with K.if_(prev + stages < count):
                K.on_stage(prev % stages, stages, lambda s: load(s, prev + stages, "re"))
    K.bulk_wait_group(0)


@checked_params
def build_copy(rows: int, cols: int, box=(64, 128), stages: int = 4, grid: int = 132,
               swizzle: int = 0, dtype: str = "bfloat16", name: str = "tma_copy",
               l2_promotion: int = 0, evict_first: bool = False, store_lag: int = 1,
               order: str = "round_robin") -> K.KernelDef:
    """A copy B = A of a (rows, cols) tensor in `box` tiles, `stages` loads
    in flight per CTA. `store_lag` K: after issuing tile j's store, wait
    until all but the K newest stores finished reading shared memory, then
    refill tile j-K's stage (K stores and stages-1-K loads stay in flight).
    `order`: see `tiling.tile_order`. `evict_first` gives every copy the L2
    evict_first cache policy."""
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")
    tiles_c, n_tiles, stage_bytes = tiling(rows, cols, box, dtype)
    tile_order(0, n_tiles, grid, order)  # an unknown order fails here, not in the trace
    br, bc = box
    policy = {"cache_policy": EVICT_FIRST} if evict_first else {}

    def body(A, B):
        tid = K.thread_id()
        bufs = [K.dynamic_shared((br, bc), dtype, s * stage_bytes) for s in range(stages)]
        bars = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
        block = K.block_id()
        count, tile_of = tile_order(block, n_tiles, grid, order)  # this CTA's tiles

        def coords(j):
            return box_origin(tile_of(j), tiles_c, box)

        def load(stage_index: int, j, site: str):
            tag = f"{site}{stage_index}"
            bar = bars.ptr_to([stage_index])
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
            tma.apply(load_opcode(2, evict_first), bufs[stage_index], A, box=box,
                      coords=coords(j), swizzle=swizzle, l2_promotion=l2_promotion,
                      mbar=bar, tag=tag, **policy)

        with K.if_(tid == 0):
            store_lag_pipeline(bars, stages, count, store_lag, load, lambda s, j: tma.apply(
                store_opcode(2, evict_first), B, bufs[s], box=box, coords=coords(j),
                swizzle=swizzle, l2_promotion=l2_promotion, **policy))

    tensor = K.Tensor((rows, cols), dtype)
    return K.KernelDef(body, grid=grid, block=32, params=[("A", tensor), ("B", tensor)],
                       name=name)


@checked_params
def build_load_only(rows: int, cols: int, box=(64, 128), stages: int = 4, grid: int = 132,
                    dtype: str = "bfloat16", name: str = "tma_load_only",
                    checksum: bool = True) -> K.KernelDef:
    """Reads every box of A into a ring of `stages` shared buffers and
    nothing else (TMA loads only: rows * cols * elem bytes moved).

    One thread keeps `stages` loads in flight: for tile j it waits on the
    stage's mbarrier (`full_parity`: that exact load's phase), folds the
    first and the last element of the box into two XOR checksums, and only
    then re-arms the barrier and issues the load of tile j + stages into
    the same stage. So every load is waited on before its buffer is reused.
    At the end C[block] = (xor of first elements, xor of last elements) of
    this CTA's tiles (bit patterns), which the host recomputes. The shared
    reads come from the generic proxy and the refill writes from the async
    proxy, so a fence.proxy.async orders them before each refill.

    `checksum=False` reads nothing inside the loop (waits and refills only);
    after the loop, with every load waited on, C[block] = (first, last)
    element of this CTA's last tile.
    """
    tiles_c, n_tiles, stage_bytes = tiling(rows, cols, box, dtype)
    br, bc = box

    def body(A, C):
        tid = K.thread_id()
        bufs = [K.dynamic_shared((br, bc), dtype, s * stage_bytes) for s in range(stages)]
        ring = K.dynamic_shared((stages, br, bc), dtype, 0)
        full = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
        block = K.block_id()
        count = round_robin_count(block, n_tiles, grid)
        i16 = ir.IntegerType.get_signless(16)

        def coords(j):
            return box_origin(block + j * grid, tiles_c, box)

        def load(s, j, site):
            bar = full.ptr_to([s])
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(f"{site}{s}"))
            tma.apply(load_opcode(), bufs[s], A, box=box, coords=coords(j), mbar=bar,
                      tag=f"{site}{s}")

        with K.if_(tid == 0):
            _init_and_prefill(full, stages, count, load)

            def step(j, accs):
                stage = j % stages
                K.mbarrier_wait(full.ptr_to([stage]), K.full_parity(j, stages))
                out = accs
                if checksum:
                    first = arith.bitcast(i16, ring[stage, 0, 0].value)
                    last = arith.bitcast(i16, ring[stage, br - 1, bc - 1].value)
                    out = [arith.xori(accs[0], first), arith.xori(accs[1], last)]
                with K.if_(j + stages < count):
                    if checksum:
                        K.fence_proxy_async_shared_cta()
                    K.on_stage(stage, stages, lambda s: load(s, j + stages, "re"))
                return out

            if checksum:
                zero = arith.constant(i16, 0)
                acc_first, acc_last = K.for_carried(0, count, [zero, zero], step)
                elem = K.element_type(dtype)
                C[block, 0] = arith.bitcast(elem, acc_first)
                C[block, 1] = arith.bitcast(elem, acc_last)
            else:
                K.for_carried(0, count, [], step)
                last_stage = (count - 1) % stages
                C[block, 0] = ring[last_stage, 0, 0]
                C[block, 1] = ring[last_stage, br - 1, bc - 1]

    return K.KernelDef(body, grid=grid, block=32,
                       params=[("A", K.Tensor((rows, cols), dtype)),
                               ("C", K.Tensor((grid, 2), dtype))], name=name)


def _one_box(box, dtype: str, box_bytes: int):
    """(buffer, mbarrier): one box at the base of dynamic shared memory and
    its barrier after it."""
    buf = K.dynamic_shared(tuple(box), dtype, 0)
    return buf, K.dynamic_shared((1,), "uint64", box_bytes).ptr_to([0])


def _load_and_wait(A, buf, bar, box, coords, tag: str) -> None:
    """One thread: init `bar`, arm it with the load's bytes, load the box of
    A at coords() into `buf` and wait for it."""
    K.mbarrier_init(bar, 1)
    K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
    tma.apply(load_opcode(), buf, A, box=box, coords=coords(), mbar=bar, tag=tag)
    K.mbarrier_wait(bar, 0)


@checked_params
def build_store_only(rows: int, cols: int, box=(64, 128), grid: int = 132,
                     dtype: str = "bfloat16", name: str = "tma_store_only",
                     in_flight: int = 4) -> K.KernelDef:
    """Writes every box of B from one shared buffer (TMA stores only:
    rows * cols * elem bytes moved, plus one box read per CTA).

    One thread loads box `block` of A once (waits on its mbarrier), then
    stores that buffer to each of this CTA's tiles of B, one bulk group per
    store, keeping at most `in_flight` groups reading shared memory
    (`wait_group.read in_flight`), and waits for all of them to complete at
    the end. B's tile t equals A's tile t % grid afterwards.
    """
    tiles_c, n_tiles, stage_bytes = tiling(rows, cols, box, dtype)

    def body(A, B):
        tid = K.thread_id()
        buf, bar = _one_box(box, dtype, stage_bytes)
        block = K.block_id()
        count = round_robin_count(block, n_tiles, grid)

        with K.if_(tid == 0):
            _load_and_wait(A, buf, bar, box, lambda: box_origin(block, tiles_c, box), "src")
            for j in K.range_(0, count):
                tma.apply(store_opcode(), B, buf, box=box,
                          coords=box_origin(block + j * grid, tiles_c, box))
                K.bulk_commit_group()
                K.bulk_wait_group(in_flight, read=True)
            K.bulk_wait_group(0)

    tensor = K.Tensor((rows, cols), dtype)
    return K.KernelDef(body, grid=grid, block=32, params=[("A", tensor), ("B", tensor)],
                       name=name)


@checked_params
def build_copy_one_tile(rows: int, cols: int, box=(64, 128), dtype: str = "bfloat16",
                        name: str = "tma_copy_one_tile") -> K.KernelDef:
    """One box per CTA, grid = the number of boxes (many waves; the block
    scheduler hands out the tiles): thread 0 inits one mbarrier, arms it,
    issues the TMA load, waits, issues the TMA store, commits it and waits
    until it has finished reading shared memory before the CTA exits.
    Shared memory: one box (+ the barrier)."""
    tiles_c, n_tiles, stage_bytes = tiling(rows, cols, box, dtype)

    def body(A, B):
        tid = K.thread_id()
        buf, bar = _one_box(box, dtype, stage_bytes)
        coords = box_origin(K.block_id(), tiles_c, box)
        with K.if_(tid == 0):
            _load_and_wait(A, buf, bar, box, lambda: coords, "box")
            tma.apply(store_opcode(), B, buf, box=box, coords=coords)
            K.bulk_commit_group()
            K.bulk_wait_group(0, read=True)

    tensor = K.Tensor((rows, cols), dtype)
    return K.KernelDef(body, grid=n_tiles, block=32, params=[("A", tensor), ("B", tensor)],
                       name=name)
