"""A persistent, multi-stage TMA copy kernel written with the Python builder.

One thread per CTA drives the pipeline: it keeps loads in flight (one
mbarrier per stage), and for each tile waits for its load, stores it back
with a TMA store (bulk_group), and refills the stage of the tile `store_lag`
back once `wait_group.read store_lag` says that tile's store has finished
reading shared memory.
CTAs take tiles round-robin (tile = block + k * grid). All shared memory is
dynamic, so the stage buffers start at the 1024-byte-aligned window base.
"""

from tile_mlir import kernel as K
from tile_mlir import tma

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


EVICT_FIRST = 0x12F0000000000000  # createpolicy L2::evict_first (streaming)


def build_copy(rows: int, cols: int, box=(64, 128), stages: int = 4, grid: int = 132,
               swizzle: int = 0, dtype: str = "bfloat16", name: str = "tma_copy",
               l2_promotion: int = 0, evict_first: bool = False, store_lag: int = 1):
    """`store_lag` K: after issuing tile j's store, wait until all but the K
    newest stores finished reading shared memory, then refill tile j-K's
    stage (K stores and stages-1-K loads stay in flight)."""
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")
    br, bc = box
    if rows % br or cols % bc:
        raise ValueError("the tensor must be a whole number of boxes")
    tiles_c = cols // bc
    n_tiles = (rows // br) * tiles_c
    elem = 2 if dtype in ("bfloat16", "float16") else 4
    stage_bytes = br * bc * elem
    hint = ".L2::cache_hint" if evict_first else ""
    policy = {"cache_policy": EVICT_FIRST} if evict_first else {}

    def body(A, B):
        tid = K.thread_id()
        bufs = [K.dynamic_shared((br, bc), dtype, s * stage_bytes) for s in range(stages)]
        bars = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
        block = K.block_id()
        count = (n_tiles - block + (grid - 1)) // grid  # this CTA's tiles

        def coords(j):
            tile = block + j * grid
            return ((tile // tiles_c) * br, (tile % tiles_c) * bc)

        def load(stage_index: int, j, site: str):
            tag = f"{site}{stage_index}"
            bar = bars.ptr_to([stage_index])
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
            tma.apply(LOAD + hint, bufs[stage_index], A, box=box, coords=coords(j),
                      swizzle=swizzle, l2_promotion=l2_promotion, mbar=bar, tag=tag,
                      **policy)

        def on_stage(stage, fn):
            for s in range(stages):
                with K.if_(stage == s):
                    fn(s)

        with K.if_(tid == 0):
            for s in range(stages):
                K.mbarrier_init(bars.ptr_to([s]), 1)
            for s in range(stages):
                with K.if_(count > s):
                    load(s, K.Expr(K.Expr.of(s)), "pro")
            for j in K.range_(0, count):
                stage = j % stages
                K.mbarrier_wait(bars.ptr_to([stage]), (j // stages) % 2)
                on_stage(stage, lambda s: tma.apply(STORE + hint, B, bufs[s], box=box,
                                                    coords=coords(j), swizzle=swizzle,
                                                    l2_promotion=l2_promotion, **policy))
                K.bulk_commit_group()
                K.bulk_wait_group(store_lag, read=True)
                prev = j - store_lag
                with K.if_(j >= store_lag):
                    with K.if_(prev + stages < count):
                        on_stage(prev % stages,
                                 lambda s: load(s, prev + stages, "re"))
            K.bulk_wait_group(0)

    ns = {"body": body}
    exec(f"def {name}(A, B): body(A, B)", ns)
    fn = ns[name]
    fn.__annotations__ = {"A": K.Tensor((rows, cols), dtype),
                          "B": K.Tensor((rows, cols), dtype)}
    return K.kernel(grid=grid, block=32)(fn)
