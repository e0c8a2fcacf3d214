"""Tiles claimed at run time: persistent CTAs take their next tile from an
atomic counter instead of a fixed share."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, llvm

from ... import builder as K
from ... import tma


class TileClaims:
    """Tiles claimed at run time from a (2,) int32 counter Ctr, for the
    kernels that take their tiles this way (build_copy_dynamic,
    build_transpose_dynamic).

    `claim()` is one relaxed `atom.add` on Ctr[0]: a ticket, a tile when it
    is below the tile count. The ticket of each pipeline stage lives in the
    shared words `ids`. `loop` runs while the ticket of stage j % stages is a
    tile and carries the ticket claimed one tile ahead; a thread's tickets
    only grow, so the first one past the end ends it with no tile left
    unclaimed. `count_out()` makes the last CTA of the launch reset Ctr.
    Ctr must be zero before the first launch; one counter serves one launch
    at a time."""

    def __init__(self, Ctr: K.Buffer, ids: K.Buffer, n_tiles: int):
        self.i32 = ir.IntegerType.get_signless(32)
        self.ptr = K.global_pointer(Ctr)
        self.ids = ids
        self.n = arith.constant(self.i32, n_tiles)

    def prefill(self, tid, bars: K.Buffer, stages: int, start) -> ir.Value:
        """The start of a pipeline whose every thread follows the tickets:
        thread 0 inits the stages' mbarriers (count 1) and starts each stage
        on a claimed ticket (`start(s, ticket, "pro")`) and claims the next
        one ahead; a CTA barrier then makes the inits and the stages' ids
        visible. Returns the ticket claimed ahead (0 in the other threads)."""
        with K.if_(tid == 0):
            for s in range(stages):
                K.mbarrier_init(bars.ptr_to([s]), 1)
            for s in range(stages):
                start(s, self.claim(), "pro")
        (first_ahead,) = K.if_else(tid == 0, [self.i32], lambda: [self.claim()],
                                   lambda: [arith.constant(self.i32, 0)])
        K.cta_sync()
        return first_ahead

    def stage_starter(self, bars: K.Buffer, load):
        """start(s, ticket, site): records stage s's ticket and, for a real
        tile, arms the stage's mbarrier for the bytes of the loads tagged
        `{site}{s}` and issues them (`load(s, ticket, bar, tag)`). Every
        claimed-tile pipeline prefills and refills its stages with it."""

        def start(s: int, ticket: ir.Value, site: str):
            self.record(s, ticket)
            with K.if_(self.is_tile(ticket)):
                tag = f"{site}{s}"
                bar = bars.ptr_to([s])
                K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
                load(s, ticket, bar, tag)

        return start

    def claim(self) -> ir.Value:
        """A fresh ticket (i32): the counter's value before this claim."""
        return K.atomic_add(self.ptr, 1, "monotonic")

    def is_tile(self, ticket: ir.Value) -> K.Expr:
        """Whether `ticket` names a tile (is below the tile count)."""
        return K.Expr(arith.cmpi(arith.CmpIPredicate.ult, ticket, self.n))

    def tile_id(self, stage) -> ir.Value:
        """The ticket recorded for `stage` (an int or index value)."""
        return llvm.load(self.i32, self.ids.ptr_to([stage]).value)

    def record(self, stage: int, ticket: ir.Value) -> None:
        """Stores `ticket` as the ticket of `stage` (read back by `tile_id`)."""
        llvm.store(ticket, self.ids.ptr_to([stage]).value)

    def loop(self, stages: int, first_ahead: ir.Value, body) -> None:
        """scf.while over j = 0, 1, ... while stage j % stages holds a tile;
        body(j, ahead) returns the next ticket claimed ahead."""
        def live(values):
            return self.is_tile(self.tile_id(K.Expr(values[0]) % stages)).value

        def step(values):
            j = K.Expr(values[0])
            ahead = body(j, values[1])
            return [K.Expr.of(j + 1), ahead]

        K.while_carried([ir.IndexType.get(), self.i32], [K.Expr.of(0), first_ahead],
                        live, step)

    def spend_if(self, cond: K.Expr, ahead: ir.Value, use) -> ir.Value:
        """If `cond`: use() the ticket `ahead` and claim the next one;
        returns the ticket ahead afterwards."""
        def spend():
            use()
            return [self.claim()]

        return K.if_else(cond, [self.i32], spend, lambda: [ahead])[0]

    def count_out(self) -> None:
        """One thread per CTA, after its last claim: counts the CTA out on
        Ctr[1]; the last CTA of the grid the launch runs with (a launch may
        override the built grid) resets both words. NVPTX drops the ordering
        of an acq_rel atomicrmw (plain atom.add): explicit fences order this
        CTA's claims before its count-out, and the others' claims before the
        reset."""
        K.fence_acq_rel()
        out = K.atomic_add(K.word_pointer(self.ptr, 1), 1, "monotonic")
        K.fence_acq_rel()
        last = arith.index_cast(self.i32, (K.grid_dim() - 1).value)
        with K.if_(K.Expr(arith.cmpi(arith.CmpIPredicate.eq, out, last))):
            zero = arith.constant(self.i32, 0)
            llvm.store(zero, self.ptr)
            llvm.store(zero, K.word_pointer(self.ptr, 1))
