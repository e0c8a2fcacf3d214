"""build_copy's persistent pipeline with tiles claimed at run time."""

from __future__ import annotations

import mlir.ir as ir

from ... import builder as K
from ... import tma
from ...builder import IrOps
from ..common.opcodes import load_opcode, store_opcode
from ..common.params import checked_params
from .claims import TileClaims
from .tiling import box_origin, tiling


@checked_params
def build_copy_dynamic(rows: int, cols: int, box=(64, 128), stages: int = 4,
                       grid: int = 132, dtype: str = "bfloat16", store_lag: int = 1,
                       swizzle: int = 0, name: str = "tma_copy_dynamic") -> K.KernelDef:
    """build_copy's persistent pipeline (one thread: TMA loads on per-stage
    mbarriers, TMA stores drained by `wait_group.read store_lag`), but the
    CTAs claim tiles at run time instead of taking a fixed round-robin share:
    every load's tile is `atom.add` on Ctr[0] (a ticket; tickets >= the tile
    count end the CTA's loop). A CTA that finds its SM slower simply claims
    fewer tiles, which is what the block scheduler does for short CTAs.

    The ticket for the next refill is claimed one tile ahead, so its latency
    overlaps a tile's store. Each stage's tile id is kept in shared memory
    for its store. The loop ends at the first stage whose ticket is past the
    end: a thread's tickets only grow, so no valid ticket is left unclaimed.

    Parameters A, B (rows, cols) and Ctr, (2,) int32, which must be zero
    before the first launch; the kernel leaves it zero: each CTA counts
    itself out on Ctr[1] (acq_rel, so its claims happen before), and the
    last one out (of the grid the launch runs with) resets both words. One
    counter serves one launch at a time (`TileClaims`).
    """
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")
    tiles_c, n_tiles, stage_bytes = tiling(rows, cols, box, dtype)
    br, bc = box

    def body(A, B, Ctr):
        tid = K.thread_id()
        bufs = [K.dynamic_shared((br, bc), dtype, s * stage_bytes) for s in range(stages)]
        bars = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
        claims = TileClaims(Ctr, K.dynamic_shared(
            (stages,), "uint32", stages * stage_bytes + stages * 8), n_tiles)

        def coords(tile: ir.Value):
            return box_origin(IrOps.index(tile), tiles_c, box)

        start = claims.stage_starter(bars, lambda s, tile, bar, tag: tma.apply(
            load_opcode(), bufs[s], A, box=box, coords=coords(tile), mbar=bar, tag=tag,
            swizzle=swizzle))

        def step(j, ahead):
            stage = j % stages
            K.mbarrier_wait(bars.ptr_to([stage]), K.full_parity(j, stages))
            tile = claims.tile_id(stage)
            K.on_stage(stage, stages, lambda s: tma.apply(
                store_opcode(), B, bufs[s], box=box, coords=coords(tile), swizzle=swizzle))
            K.bulk_commit_group()
            K.bulk_wait_group(store_lag, read=True)
            return claims.spend_if(j >= store_lag, ahead, lambda: K.on_stage(
                (j - store_lag) % stages, stages, lambda s: start(s, ahead, "re")))

        with K.if_(tid == 0):
            for s in range(stages):
                K.mbarrier_init(bars.ptr_to([s]), 1)
            for s in range(stages):
                start(s, claims.claim(), "pro")
            claims.loop(stages, claims.claim(), step)
            K.bulk_wait_group(0)
            claims.count_out()

    return K.KernelDef(body, grid=grid, block=32,
                       params=[("A", K.Tensor((rows, cols), dtype)),
                               ("B", K.Tensor((rows, cols), dtype)),
                               ("Ctr", K.Tensor((2,), "int32"))], name=name)
