"""layout_pipeline.producer_warp_pipeline without a GPU: its PTX has the
barriers the protocol needs and one CTA barrier only, and a CPU model of
the protocol (the mbarriers and copy engine of test_copy_kernels), with
the pipeline's own parity functions and tickets claimed from a counter
that several CTAs share, runs under random interleavings: no deadlock, no
stage refilled while a worker still reads it, every tile read by every
worker of the CTA that claimed it with that tile's data, every worker
stopped by the ticket past the end."""

import random
import re

import pytest

pytest.importorskip("mlir.ir")

from tile_mlir.builder import empty_parity, full_parity  # noqa: E402
from tile_mlir.kernels.pad_kernels import build_pad_rows  # noqa: E402

from test_copy_kernels import MBarrier, schedule  # noqa: E402  (the shared CPU model)


class ReaderMachine:
    """The copy engine of one CTA whose threads only read its stages:
    loads land in any order; a load into a stage a worker is reading is
    the race the protocol must exclude."""

    def __init__(self, stages: int):
        self.smem = [None] * stages
        self.loads = []      # (stage, tile, barrier)
        self.reading = [0] * stages

    def load(self, stage, tile, bar):
        assert not any(s == stage for s, _, _ in self.loads), "two loads into one stage"
        self.loads.append((stage, tile, bar))

    def events(self):
        return [("load", i) for i in range(len(self.loads))]

    def fire(self, kind, i):
        stage, tile, bar = self.loads.pop(i)
        assert self.reading[stage] == 0, f"stage {stage} refilled while a worker reads it"
        self.smem[stage] = tile
        bar.complete_tx(1)


class Engines:
    """The copy engines of several CTAs, scheduled as one machine."""

    def __init__(self, machines):
        self.machines = machines

    def events(self):
        return [(c, e) for c, m in enumerate(self.machines) for e in m.events()]

    def fire(self, c, event):
        self.machines[c].fire(*event)


def cta_actors(m, counter, n_tiles, stages, workers, reads, release_late=False):
    """One CTA of producer_warp_pipeline: the producer lane and `workers`
    worker threads (reads[w]: the tiles worker w saw)."""
    full = [MBarrier() for _ in range(stages)]
    empty = [MBarrier(workers) for _ in range(stages)]
    ids = [None] * stages

    def claim():
        counter[0] += 1
        return counter[0] - 1

    def producer():
        j, ticket = 0, claim()
        while ticket < n_tiles:
            s, p = j % stages, empty_parity(j, stages)
            yield lambda: empty[s].try_wait_parity(p)
            ids[s] = ticket
            full[s].arrive(tx=1)
            m.load(s, ticket, full[s])
            yield None
            j, ticket = j + 1, claim()
        s, p = j % stages, empty_parity(j, stages)
        yield lambda: empty[s].try_wait_parity(p)
        ids[s] = ticket
        full[s].arrive()

    def worker(w):
        j = 0
        while True:
            s, p = j % stages, full_parity(j, stages)
            yield lambda: full[s].try_wait_parity(p)
            ticket = ids[s]
            if ticket >= n_tiles:
                return
            if not release_late:
                m.reading[s] += 1
            yield None                      # the reads of the stage take a while
            assert m.smem[s] == ticket, "a worker read another tile's data"
            reads[w].append(ticket)
            if not release_late:
                m.reading[s] -= 1
            empty[s].arrive()
            if release_late:                # a broken worker: reads after its release
                m.reading[s] += 1
                yield None
                assert m.smem[s] == ticket, "a worker read another tile's data"
                m.reading[s] -= 1
            j += 1

    return [producer()] + [worker(w) for w in range(workers)]


def run_model(n_tiles, stages, workers, ctas, seed, release_late=False):
    rng = random.Random(seed)
    counter = [0]
    machines = [ReaderMachine(stages) for _ in range(ctas)]
    reads = [[[] for _ in range(workers)] for _ in range(ctas)]
    actors = []
    for c in range(ctas):
        actors += cta_actors(machines[c], counter, n_tiles, stages, workers, reads[c],
                             release_late)
    schedule(actors, Engines(machines), rng)
    seen = []
    for cta in reads:
        assert all(r == cta[0] for r in cta), "the workers of a CTA saw different tiles"
        assert cta[0] == sorted(cta[0])     # a CTA's tickets only grow
        seen += cta[0]
    assert sorted(seen) == list(range(n_tiles)), "a tile lost or read twice"


@pytest.mark.parametrize("stages", [2, 3, 4])
def test_producer_pipeline_model(stages):
    for ctas in (1, 3):
        for n_tiles in (0, 1, stages, stages + 1, 4 * stages + 3):
            for seed in range(25):
                run_model(n_tiles, stages, 3, ctas, seed)


def test_producer_pipeline_model_catches_an_early_release():
    # A worker that arrives on "empty" before it is done reading: the
    # model must see the refill land under its reads.
    with pytest.raises(AssertionError, match="refilled while a worker reads it|"
                                             "another tile's data"):
        for seed in range(200):
            run_model(12, 2, 2, 1, seed, release_late=True)


def _ptx(**kw):
    from tile_mlir import compiler
    return compiler.compile(build_pad_rows("i16", 3, 136, 2, 43, equal=True, **kw),
                            "sm_90a", cubin=False)


def test_producer_pad_rows_meets_only_at_the_init():
    art = _ptx(pipeline="producer", stages=3)
    ptx = art.ptx
    (info,) = art.manifest["kernels"]
    assert info["block"] == [288, 1, 1]         # 8 worker warps and the producer
    assert ptx.count("mbarrier.init.shared.b64") == 6   # "full" and "empty", 3 stages
    assert len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", ptx)) == 1
    # The workers' release and the producer's end-of-work arrive.
    assert ptx.count("mbarrier.arrive.shared.b64") == 2
    cta = _ptx(stages=3).ptx
    assert len(re.findall(r"\bbar\.sync\b|\bbarrier\.sync\b", cta)) == 2
    assert "mbarrier.arrive.shared.b64" not in cta


@pytest.mark.parametrize("kw,rule", [
    ({"pipeline": "warp"}, "pipeline 'warp': one of cta, producer"),
    ({"pipeline": "producer", "fence": "none"}, "no stage fence"),
    ({"pipeline": "producer", "stages": 1}, "at least two stages")])
def test_producer_pipeline_arguments(kw, rule):
    with pytest.raises(ValueError, match=re.escape(rule)):
        _ptx(**kw)


def test_batched_rows_load_before_they_store():
    # batch=2: each slot's four 16-byte shared loads (two rows) come before
    # the two rows' predicated stores, with no branch between them.
    ptx = _ptx(pipeline="producer", stages=3, batch=2).ptx
    store = "@p st.global.v4.b32"
    assert store in ptx
    runs = []
    for block in re.split(r"\n\$L__BB\d+_\d+:|\bbra\b", ptx):
        if store in block:
            head = block.split(store)[0]
            runs.append(head.count("ld.shared.v4.b32"))
    assert runs and max(runs) >= 4, runs
    plain = _ptx(pipeline="producer", stages=3).ptx
    assert store not in plain


def test_flat_takes_the_engines_fill_only():
    from tile_mlir import compiler
    with pytest.raises(ValueError, match="flat: the copy engine's fill only"):
        compiler.compile(build_pad_rows("i16", 3, 136, 2, 43, "value", flat=True), "sm_90a",
                         cubin=False)


def test_batch_must_be_positive():
    with pytest.raises(ValueError, match="batch 0: at least one row at a time"):
        _ptx(batch=0)
