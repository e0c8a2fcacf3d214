"""The copy kernels (tile_mlir.kernels: warp-specialized, SIMT and
TMA-load/SIMT-store copies, one-direction kernels) and the racecheck forms
of the contract's example (tile_mlir.testing.racecheck), without a GPU:

* each kernel builds, verifies and compiles for sm_90a (ptxas when found);
  its PTX has the barriers, copies, byte counts and waits the design needs;
* a CPU model of the mbarriers (arrivals, transaction bytes, phases,
  try_wait.parity) and of the copy engine (loads land, stores read shared
  memory, bulk groups finish in any order that `wait_group.read` allows)
  replays the producer / consumer protocol with the kernels' own parity
  functions under random interleavings: no deadlock, no stage refilled
  while a store still reads it, every tile stored once with its own data;
  the load-only ring waits on exactly the load of each tile;
* the benchmark's host checks (bench/bandwidth.py) accept a faithful CPU
  emulation of the one-direction kernels and reject a broken one (needs
  torch and triton; skipped without them).
"""

import random
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("mlir.ir")

from tile_mlir.builder import empty_parity, full_parity  # noqa: E402
from tile_mlir.kernels import (  # noqa: E402
    build_copy, build_copy_dynamic, build_copy_one_tile, build_copy_tma_simt, build_copy_ws,
    build_load_only, build_simt_copy, build_store_only, tile_order)

ROOT = Path(__file__).resolve().parents[4]

ROWS, COLS = 256, 512


def _compile(kernel):
    from tile_mlir import compiler
    return compiler.compile(kernel, "sm_90a", cubin=compiler.find_ptxas() is not None)


@pytest.mark.parametrize("box,stages,lag", [((64, 128), 4, 1), ((32, 256), 3, 2)])
def test_ws_copy_compiles(box, stages, lag):
    art = _compile(build_copy_ws(ROWS, COLS, box=box, stages=stages, grid=3,
                                 store_lag=lag))
    (info,) = art.manifest["kernels"]
    assert info["block"] == [64, 1, 1] and info["grid"] == [3, 1, 1]
    assert len(info["tensor_maps"]) == 2
    ptx = art.ptx
    assert ptx.count("mbarrier.init.shared.b64") == 2 * stages
    tx = box[0] * box[1] * 2
    arms = re.findall(r"mbarrier\.arrive\.expect_tx\.shared\.b64 [^,]+, \[[^\]]+\], %r\d+", ptx)
    # One arm per stage of each dispatch (LLVM may peel a first iteration).
    assert len(arms) >= stages
    assert re.search(rf"mov\.b32\s+%r\d+, {tx};", ptx)
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cta.global") >= stages
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta") >= stages
    assert re.search(r"mbarrier\.arrive\.shared\.b64", ptx)  # the consumer's release
    assert f"cp.async.bulk.wait_group.read \t{lag};" in ptx
    assert "bar.sync" in ptx and "%tid.x" in ptx


@pytest.mark.parametrize("checksum", [True, False])
def test_load_only_compiles(checksum):
    art = _compile(build_load_only(ROWS, COLS, box=(64, 128), stages=3, grid=3,
                                   checksum=checksum))
    (info,) = art.manifest["kernels"]
    assert len(info["tensor_maps"]) == 1  # A only; C is written with st.global
    assert info["params"][1]["shape"] == [3, 2]
    ptx = art.ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" not in ptx
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cta.global") >= 2 * 3  # prologue + refill
    assert re.search(r"mov\.b32\s+%r\d+, 16384;", ptx)
    assert ptx.count("st.global.b16") == 2
    # One fence after each barrier init (kernel.mbarrier_init), and one more
    # before the checksum reads shared memory back.
    assert ptx.count("fence.proxy.async.shared::cta") == 3 + checksum  # 3 stages
    assert ("xor.b" in ptx) == checksum


def test_store_only_compiles():
    art = _compile(build_store_only(ROWS, COLS, box=(64, 128), grid=3, in_flight=5))
    ptx = art.ptx
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cta.global") == 1
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta") == 1
    assert "cp.async.bulk.wait_group.read \t5;" in ptx
    assert "cp.async.bulk.wait_group \t0;" in ptx


def test_one_tile_copy_compiles():
    art = _compile(build_copy_one_tile(ROWS, COLS, box=(64, 128)))
    (info,) = art.manifest["kernels"]
    assert info["grid"] == [ROWS * COLS // (64 * 128), 1, 1]
    assert info["dynamic_shared_bytes"] == 64 * 128 * 2 + 8
    ptx = art.ptx
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cta.global") == 1
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta") == 1
    assert "cp.async.bulk.wait_group.read \t0;" in ptx


@pytest.mark.parametrize("stages,lag", [(4, 1), (6, 3)])
def test_dynamic_copy_compiles(stages, lag):
    """Tiles claimed with atom.add on the counter (one per prologue stage,
    one ahead, one per refill), the stage ids kept in shared memory, and the
    count-out between two acq_rel fences with the last CTA's reset."""
    art = _compile(build_copy_dynamic(ROWS, COLS, box=(64, 128), stages=stages, grid=3,
                                      store_lag=lag))
    (info,) = art.manifest["kernels"]
    assert info["grid"] == [3, 1, 1] and len(info["params"]) == 3
    assert info["params"][2]["shape"] == [2]
    ptx = " ".join(art.ptx.split())
    claims = re.findall(r"atom\.global\.add\.u32 %r\d+, \[%rd\d+\], 1;", ptx)
    assert len(claims) >= stages + 2
    assert re.search(r"fence\.acq_rel\.sys; atom(\.global)?\.add\.u32 %r\d+, "
                     r"\[%rd\d+\+4\], 1; fence\.acq_rel\.sys;", ptx)
    # The last CTA out is the launch's: %nctaid.x - 1, not the built grid.
    assert re.search(r"mov\.u32 (%r\d+), %nctaid\.x; add\.s32 (%r\d+), \1, -1;", ptx)
    assert f"cp.async.bulk.wait_group.read {lag};" in ptx
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cta.global") >= stages
    with pytest.raises(ValueError, match="store_lag"):
        build_copy_dynamic(ROWS, COLS, stages=2, store_lag=2)


@pytest.mark.parametrize("builder", ["copy", "ws"])
def test_chunk_order_compiles(builder):
    build = build_copy if builder == "copy" else build_copy_ws
    art = _compile(build(ROWS, COLS, box=(64, 128), stages=3, grid=4, order="chunk"))
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in art.ptx
    with pytest.raises(ValueError, match="divides"):
        build(ROWS, COLS, box=(64, 128), stages=3, grid=3, order="chunk").build()


def test_tile_orders_cover_every_tile_once():
    for order, grid in (("round_robin", 5), ("round_robin", 16), ("chunk", 4)):
        seen = []
        for block in range(grid):
            count, tile_of = tile_order(block, 16, grid, order)
            seen += [tile_of(j) for j in range(count)]
        assert sorted(seen) == list(range(16)), order


def test_simt_copy_compiles():
    art = _compile(build_simt_copy(ROWS, COLS, grid=4, block=64, unroll=4))
    (info,) = art.manifest["kernels"]
    assert info["tensor_maps"] == [] and info["dynamic_shared_bytes"] == 0
    ptx = art.ptx
    assert "cp.async.bulk" not in ptx
    assert ptx.count("ld.global.v4.b32") == 4 and ptx.count("st.global.v4.b32") == 4
    with pytest.raises(ValueError):
        build_simt_copy(ROWS, COLS, grid=3, block=64, unroll=4)  # not whole sweeps


def test_tma_simt_copy_compiles():
    art = _compile(build_copy_tma_simt(ROWS, COLS, box=(64, 128), stages=3, grid=3,
                                       consumer_warps=2))
    (info,) = art.manifest["kernels"]
    assert info["block"] == [96, 1, 1] and len(info["tensor_maps"]) == 1
    ptx = art.ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" not in ptx
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cta.global") >= 3
    # 64 x 128 bf16 = 1024 16-byte vectors over 64 consumer threads: 16 each.
    assert ptx.count("ld.shared.v4.b32") == 16 and ptx.count("st.global.v4.b32") == 16
    assert re.search(r"mbarrier\.init\.shared\.b64\s+\[[^\]]+\], %r\d+;", ptx)
    assert re.search(r"mov\.b32\s+%r\d+, 64;", ptx)  # the "empty" arrival count
    assert re.search(r"mbarrier\.arrive\.shared\.b64", ptx)


def test_racecheck_forms():
    import runpy

    from tile_mlir.testing.racecheck import VARIANTS, build_variant
    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))["tma_load"]
    # Form a, rebuilt by the script, is the example itself.
    assert str(build_variant("a").build()) == str(seed.build())
    # kernel.mbarrier_init fences the async proxy after every init.
    expect = {"a": ["init", "fence.proxy.async", "arrive", "bar"],
              "b": ["init", "fence.proxy.async", "fence.mbarrier_init", "arrive", "bar"],
              "c": ["init", "fence.proxy.async", "fence.proxy.async", "arrive", "bar"],
              "d": ["init", "fence.proxy.async", "bar", "arrive"],
              "e": ["init", "fence.proxy.async", "fence.mbarrier_init", "bar", "arrive"]}
    for form in VARIANTS:
        ptx = _compile(build_variant(form)).ptx
        order = []
        for line in ptx.splitlines():
            line = line.strip()
            for key in ("mbarrier.init", "fence.mbarrier_init", "fence.proxy.async",
                        "mbarrier.arrive.expect_tx", "bar.sync"):
                if line.startswith(key):
                    order.append(key)
        names = {"mbarrier.init": "init", "mbarrier.arrive.expect_tx": "arrive",
                 "bar.sync": "bar"}
        got = [names.get(k, k) for k in order][:len(expect[form])]
        assert got == expect[form], (form, order)


# -- CPU model of the protocol ----------------------------------------------

class MBarrier:
    def __init__(self, count: int = 1):
        self.count = self.pending = count
        self.tx = 0
        self.phase = 0  # completed phases

    def _complete(self):
        if self.pending == 0 and self.tx == 0:
            self.phase += 1
            self.pending = self.count

    def arrive(self, tx: int = 0):
        self.tx += tx
        self.pending -= 1
        assert self.pending >= 0
        self._complete()

    def complete_tx(self, n: int):
        self.tx -= n
        self._complete()

    def try_wait_parity(self, parity: int) -> bool:
        """True once the phase of this parity (the current one or the one
        before it) has completed."""
        return self.phase % 2 != parity


class Machine:
    """The copy engine of one CTA: pending loads land, pending stores read
    shared memory, in any order (a scheduler picks)."""

    def __init__(self, stages: int, rng: random.Random):
        self.rng = rng
        self.smem = [None] * stages
        self.loads = []    # (stage, tile, barrier)
        self.stores = []   # [group, stage, tile, read_done]
        self.out = {}
        self.group = 0

    def load(self, stage, tile, bar):
        assert not any(s == stage and not done for _, s, _, done in self.stores), \
            f"stage {stage} refilled while a store still reads it"
        assert not any(s == stage for s, _, _ in self.loads), "two loads into one stage"
        self.loads.append((stage, tile, bar))

    def store(self, stage, tile):
        self.stores.append([self.group, stage, tile, False])
        self.group += 1

    def reads_pending_beyond(self, n: int) -> bool:
        """wait_group.read n blocks while a group older than the n newest
        has not finished reading."""
        older = self.stores[:max(0, len(self.stores) - n)]
        return any(not done for _, _, _, done in older)

    def events(self):
        ev = [("load", i) for i in range(len(self.loads))]
        ev += [("read", i) for i, st in enumerate(self.stores) if not st[3]]
        return ev

    def fire(self, kind, i):
        if kind == "load":
            stage, tile, bar = self.loads.pop(i)
            self.smem[stage] = tile
            bar.complete_tx(1)
        else:
            st = self.stores[i]
            st[3] = True
            assert self.smem[st[1]] == st[2], "store read another tile's data"
            assert st[2] not in self.out
            self.out[st[2]] = self.smem[st[1]]


def schedule(actors, machine, rng, limit=100000):
    """Runs generator actors (yielding a readiness predicate or None) and the
    machine's events in random order until all actors finish."""
    waiting = {a: None for a in actors}
    for _ in range(limit):
        ready = [a for a, pred in waiting.items() if pred is None or pred()]
        events = machine.events()
        if not ready and not events:
            if not waiting:
                return
            raise AssertionError("deadlock")
        pick = rng.randrange(len(ready) + len(events))
        if pick < len(ready):
            actor = ready[pick]
            try:
                waiting[actor] = next(actor)
            except StopIteration:
                del waiting[actor]
        else:
            machine.fire(*events[pick - len(ready)])
    raise AssertionError("did not finish")


def _producer(m, full, empty, count, stages):
    """The warp-specialized producer (ring_and_producer): for tile j it
    waits until stage j % stages is empty, arms "full" and loads."""
    for j in range(count):
        s = j % stages
        p = empty_parity(j, stages)
        yield lambda: empty[s].try_wait_parity(p)
        full[s].arrive(tx=1)
        m.load(s, j, full[s])
        yield None


def ws_protocol(count, stages, lag, seed):
    rng = random.Random(seed)
    m = Machine(stages, rng)
    full = [MBarrier() for _ in range(stages)]
    empty = [MBarrier() for _ in range(stages)]

    def consumer():
        for j in range(count):
            s = j % stages
            p = full_parity(j, stages)
            yield lambda: full[s].try_wait_parity(p)
            assert m.smem[s] == j
            m.store(s, j)
            yield lambda: not m.reads_pending_beyond(lag)
            if j >= lag:
                empty[(j - lag) % stages].arrive()
            yield None
        yield lambda: not m.reads_pending_beyond(0)

    schedule([_producer(m, full, empty, count, stages), consumer()], m, rng)
    assert m.out == {j: j for j in range(count)}


@pytest.mark.parametrize("stages", [2, 3, 4, 6])
def test_ws_protocol_model(stages):
    for lag in range(1, stages):
        for count in (1, stages - 1, stages, stages + 1, 3 * stages + 2):
            for seed in range(40):
                ws_protocol(count, stages, lag, seed)


def test_ws_protocol_model_catches_bad_lag():
    with pytest.raises(AssertionError, match="deadlock"):
        ws_protocol(10, 3, 3, 0)  # lag == stages: the producer never gets a stage


def tma_simt_protocol(count, stages, consumers, seed):
    """build_copy_tma_simt: one producer lane, `consumers` threads that read
    their share of the stage synchronously, then arrive on "empty" (count:
    all of them)."""
    rng = random.Random(seed)
    m = Machine(stages, rng)
    full = [MBarrier() for _ in range(stages)]
    empty = [MBarrier(consumers) for _ in range(stages)]
    reads = {}

    def consumer(c):
        for j in range(count):
            s = j % stages
            p = full_parity(j, stages)
            yield lambda: full[s].try_wait_parity(p)
            reads.setdefault(j, []).append(m.smem[s])
            yield None
            empty[s].arrive()

    schedule([_producer(m, full, empty, count, stages)]
             + [consumer(c) for c in range(consumers)], m, rng)
    assert reads == {j: [j] * consumers for j in range(count)}


@pytest.mark.parametrize("stages", [2, 4])
def test_tma_simt_protocol_model(stages):
    for count in (1, stages + 1, 3 * stages + 1):
        for seed in range(30):
            tma_simt_protocol(count, stages, 3, seed)


def load_only_protocol(count, stages, seed):
    rng = random.Random(seed)
    m = Machine(stages, rng)
    full = [MBarrier() for _ in range(stages)]
    seen = []

    def thread():
        for s in range(min(stages, count)):
            full[s].arrive(tx=1)
            m.load(s, s, full[s])
        for j in range(count):
            s = j % stages
            p = full_parity(j, stages)
            yield lambda: full[s].try_wait_parity(p)
            seen.append(m.smem[s])
            assert not any(st == s for st, _, _ in m.loads)
            if j + stages < count:
                full[s].arrive(tx=1)
                m.load(s, j + stages, full[s])
            yield None

    schedule([thread()], m, rng)
    assert seen == list(range(count))
    assert not m.loads  # every load landed and was waited on


@pytest.mark.parametrize("stages", [1, 2, 4, 8])
def test_load_only_ring_model(stages):
    for count in (1, stages, stages + 1, 5 * stages + 3):
        for seed in range(40):
            load_only_protocol(count, stages, seed)


def test_parities_are_the_phase_counts():
    for stages in (2, 4, 8):
        for j in range(50):
            assert full_parity(j, stages) == (j // stages) & 1
            assert empty_parity(j, stages) == ((j // stages) - 1) & 1


# -- the benchmark's host checks --------------------------------------------

class FakeModule:
    """Emulates the one-direction kernels on CPU tensors."""

    def __init__(self, variant, broken=False):
        self.variant, self.broken = variant, broken

    def bind(self, *args):
        return lambda: None

    def __call__(self, a, out):
        import torch
        v = self.variant
        grid, (br, bc) = v["grid"], v["box"]
        tiles_c = a.shape[1] // bc
        n = (a.shape[0] // br) * tiles_c

        def tile(t, x):
            r, c = (t // tiles_c) * br, (t % tiles_c) * bc
            return x[r:r + br, c:c + bc]

        for g in range(grid):
            mine = list(range(g, n, grid))
            if self.broken and g == grid - 1:
                mine = mine[:-1]
            if v["kind"] == "store_only":
                for t in mine:
                    tile(t, out).copy_(tile(g, a))
            elif v.get("checksum", True):
                acc = [0, 0]
                for t in mine:
                    bits = tile(t, a).contiguous().view(torch.int16)
                    acc[0] ^= int(bits[0, 0])
                    acc[1] ^= int(bits[-1, -1])
                out.view(torch.int16)[g] = torch.tensor(acc, dtype=torch.int16)
            else:
                out[g, 0] = tile(mine[-1], a)[0, 0]
                out[g, 1] = tile(mine[-1], a)[-1, -1]


def host_checks() -> None:
    """The benchmark's host checks on CPU tensors: each accepts the faithful
    emulation and rejects the broken one."""
    import runpy

    import torch

    bandwidth = runpy.run_path(str(ROOT / "bench" / "bandwidth.py"))
    a = torch.randn(128, 512, dtype=torch.bfloat16)
    b = torch.empty_like(a)
    for kind, checksum in (("load_only", True), ("load_only", False), ("store_only", None)):
        variant = {"name": kind, "kind": kind, "grid": 5, "box": [32, 64]}
        if checksum is not None:
            variant["checksum"] = checksum
        run = bandwidth["run_load_only"] if kind == "load_only" else \
            (lambda mod, v, a: bandwidth["run_store_only"](mod, v, a, b))
        assert run(FakeModule(variant), variant, a)[0], (kind, checksum)
        assert not run(FakeModule(variant, broken=True), variant, a)[0], (kind, checksum)


def test_bandwidth_host_checks():
    """In a fresh process: triton's own LLVM does not coexist with an MLIR
    context this process may already have made."""
    import importlib.util
    import subprocess
    for module in ("torch", "triton"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}")
    code = (f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r})"
            "['host_checks'](); print('ok')")
    proc = subprocess.run([sys.executable, "-c", code],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), \
        proc.stdout[-2000:] + proc.stderr[-2000:]
