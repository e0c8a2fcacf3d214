"""bench/layout_sweep.py's control flow on the CPU: the script run on the
4 KiB cells with torch on the CPU, CPU stand-ins for our ops and for
Triton's kernels (correct, wrong and failing ones), and wall-clock
events. What it checks: every cell's record, the bit-for-bit comparison
catching a wrong result and recording an error without stopping the sweep,
Triton's ranking skipping inexact and failing variants and being reused,
the goals, --resume, and the filters."""

import importlib.util
import json
import sys
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

BENCH = Path(__file__).resolve().parents[3] / "bench"


@pytest.fixture(scope="module")
def LS():
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("layout_sweep_bench",
                                                  BENCH / "layout_sweep.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(BENCH))


class Event:
    def record(self):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def elapsed_time(self, other):
        return (other.t - self.t) * 1e3


def unfold_reference(x, k, p, s, d, layout):
    if not x.dtype.is_floating_point:   # the CPU's F.unfold takes no integers either
        return unfold_reference(x.double(), k, p, s, d, layout).to(x.dtype)
    if layout == "NCHW":
        return F.unfold(x, k, dilation=d, padding=p, stride=s)
    n, _, _, c = x.shape
    cols = F.unfold(x.permute(0, 3, 1, 2), k, dilation=d, padding=p, stride=s)
    taps = cols.shape[1] // c
    return cols.view(n, c, taps, -1).permute(0, 3, 2, 1).reshape(n, -1, taps * c)


class Ours:
    """Our ops' stand-ins: right, but for a wrong crop and a failing (0, 2, 1)."""

    @staticmethod
    def permute(x, dims):
        if tuple(dims) == (0, 2, 1):
            raise RuntimeError("no kernel for this one")
        return x.permute(dims).contiguous()

    @staticmethod
    def pad(x, pad):
        y = F.pad(x, pad)
        if all(p < 0 for p in pad):
            y = y.clone()
            y.view(-1)[0] += 1
        return y

    @staticmethod
    def unfold(x, k, padding, stride, dilation, layout):
        return unfold_reference(x, k, padding, stride, dilation, layout)


def _raise():
    raise RuntimeError("triton: out of resources")


class Triton:
    """Triton's stand-ins over the same views the script gives the real
    kernels: a right one, a wrong one and a failing one each."""

    @staticmethod
    def permute_variants(x, canonical, out):
        src = torch.as_strided(x, canonical.shape, canonical.strides, x.storage_offset())
        dst = out.view(canonical.out_shape)
        return [("triton ptr 64x64 w4", _raise),
                ("triton blockptr 128x128 w8", lambda: dst.zero_()),
                ("triton ptr 128x128 w8", lambda: dst.copy_(src.permute(canonical.perm))),
                ("triton ptr 32x256 w8", lambda: dst.copy_(src.permute(canonical.perm)))]

    @staticmethod
    def pad_variants(x3, y3, top, left):
        def right():
            y3.zero_()
            _, h, w = x3.shape
            _, ho, wo = y3.shape
            for i in range(ho):
                si = i - top
                if 0 <= si < h:
                    lo, hi = max(0, left), min(wo, left + w)
                    y3[:, i, lo:hi] = x3[:, si, lo - left:hi - left]
        return [("triton ptr 8x256 w4", right), ("triton blockptr 8x256 w4", _raise),
                ("triton ptr 32x128 w8", lambda: y3.fill_(0))]

    @staticmethod
    def unfold_variants(x, y, spec):
        def right():
            y.copy_(unfold_reference(x, spec.kernel, spec.padding, spec.stride,
                                     spec.dilation, spec.layout))
        return [("triton ptr 1024 w4", right), ("triton ptr 2048 w8", _raise)]


@pytest.fixture
def cpu(LS, monkeypatch):
    for name, value in (("torch", torch), ("F", F), ("T", Triton), ("ours", Ours),
                        ("DEVICE", "cpu"), ("_events", lambda: (Event(), Event())),
                        ("_sync", lambda: None), ("_free", lambda: None),
                        ("_device_name", lambda: "CPU stand-in"),
                        ("_triton_version", lambda: "0"), ("_import_gpu", lambda: None)):
        monkeypatch.setattr(LS, name, value)
    return LS


FAST = ["--batch-ms", "0.02", "--batches", "2"]


def run(LS, tmp_path, *argv):
    path = tmp_path / "sweep.json"
    code = LS.main(["--json", str(path), *FAST, *argv, "--worker"])
    return code, json.loads(path.read_text())


def test_every_cell_is_checked_timed_and_scored(cpu, tmp_path, monkeypatch):
    # Every cell moves "enough" bytes here, so copy_ runs in each.
    monkeypatch.setattr(cpu.S, "COPY_GOAL_BYTES", 0)
    code, doc = run(cpu, tmp_path, "--sizes", "4K", "--elems", "2")
    cells = {c["class"]: c for c in doc["cells"]}
    assert len(cells) == 20 and doc["device"] == "CPU stand-in"
    assert code == 1   # ours is wrong in one cell and fails in another
    crop = cells["crop (-1, -1, -2, -2)"]
    assert crop["failed"] and crop["exact"]["ours"] is False
    assert crop["errors"]["ours"] == f"not exact: 1 of {1 * 10 * 6 * 22} elements differ"
    failing = cells["(0, 2, 1)"]
    assert failing["failed"] and "no kernel for this one" in failing["errors"]["ours"]
    good = [c for c in doc["cells"] if not c["failed"]]
    assert len(good) == 18
    for c in good:
        assert set(c["impl"]) == {"torch", "triton", "ours", "copy"}, c["key"]
        assert c["exact"]["ours"] is True
        ms = [c["impl"][w]["ms"] for w in ("torch", "triton")]
        assert c["ratio"] == pytest.approx(min(ms) / c["impl"]["ours"]["ms"])
        assert c["copy_ratio"] == pytest.approx(c["impl"]["copy"]["ms"] /
                                                c["impl"]["ours"]["ms"])
        assert c["goal_ratio"] == (c["ratio"] >= 1.0)
        assert c["goal_copy"] == (c["copy_ratio"] >= 0.93)
        assert c["impl"]["ours"]["tbps"] == pytest.approx(
            c["moved"] / c["impl"]["ours"]["ms"] / 1e9)


def test_triton_ranking_keeps_the_exact_variants(cpu, tmp_path):
    _, doc = run(cpu, tmp_path, "--sizes", "4K", "--elems", "8",
                    "--triton-shortlist", "3")
    cells = {c["class"]: c for c in doc["cells"]}
    for name in ("transpose (1, 0)", "narrow NCHW->NHWC C=3", "(4, 3, 2, 1, 0)"):
        c = cells[name]
        ranked = [n for n, _ in c["triton_ranking"]]
        # The short list of 3 holds the right 128x128 kernel, the wrong
        # block-pointer one and the failing 64x64 one, not the other right one.
        assert ranked == ["triton ptr 128x128 w8"], name
        assert "triton ptr 32x256 w8" not in c["exact"]
        assert c["errors"]["triton blockptr 128x128 w8"].startswith("not exact")
        assert "out of resources" in c["errors"]["triton ptr 64x64 w4"]
        assert c["impl"]["triton"]["name"] == "triton ptr 128x128 w8"
    for name in ("(1, 1, 1, 1)", "channels_last (1, 1, 1, 1)", "mixed (2, -1, -1, 3)",
                 "W (0, 8)"):
        assert cells[name]["impl"]["triton"]["name"] == "triton ptr 8x256 w4", name
        assert cells[name]["exact"]["triton ptr 8x256 w4"] is True
    for name in ("NCHW k3 p1", "NHWC k3 s2 d2"):
        assert cells[name]["impl"]["triton"]["name"] == "triton ptr 1024 w4"


def test_resume_runs_only_the_missing_cells(cpu, tmp_path):
    args = ["--classes", "transpose (1, 0),W (0, 8)", "--elems", "4", "--triton-shortlist", "3"]
    run(cpu, tmp_path, *args, "--sizes", "4K")
    code, doc = run(cpu, tmp_path, *args, "--sizes", "4K,64K", "--resume")
    assert code == 0
    keys = [c["key"] for c in doc["cells"]]
    # The unaligned transpose's name holds "transpose (1, 0)" too.
    assert sorted(keys) == sorted(f"{op}|{cls}|{size}|4" for op, cls in (
        ("permute", "transpose (1, 0)"), ("permute", "unaligned transpose (1, 0)"),
        ("pad", "W (0, 8)")) for size in ("4K", "64K"))
    by_key = {c["key"]: c for c in doc["cells"]}
    # The 64K cells reuse the ranking their 4K cells made in the first run.
    new = by_key["permute|transpose (1, 0)|64K|4"]
    assert "triton_ranking" not in new and new["impl"]["triton"]["name"] == \
        "triton ptr 128x128 w8"


@pytest.mark.parametrize("argv,message", [
    (["--ops", "permute,transpose"], "--ops"), (["--sizes", "5K"], "size '5K'"),
    (["--elems", "3"], "--elems"), (["--elems", "two"], "--elems"),
    (["--classes", "no such class"], "no cell")])
def test_filters_refuse_unknown_names(cpu, capsys, argv, message):
    with pytest.raises(SystemExit):
        cpu.parse_args(argv)
    assert message in capsys.readouterr().err


def test_quick_is_two_sizes_of_bfloat16(cpu):
    cells = cpu.parse_args(["--quick"]).cells
    assert {c.size for c in cells} == {64 << 10, 16 << 20}
    assert {c.dtype for c in cells} == {"bfloat16"} and len(cells) == 40


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize("k,p,s,d", [(3, 1, 1, 1), (3, 0, 2, 2), (2, 1, 3, 1)])
def test_the_integer_unfold_is_f_unfold(cpu, layout, k, p, s, d):
    # torch's op for uint8 (F.unfold takes no integers): views, the same
    # bits as F.unfold of the values as floats.
    x = torch.randint(0, 256, (2, 3, 9, 11) if layout == "NCHW" else (2, 9, 11, 3),
                      dtype=torch.uint8)
    want = unfold_reference(x.float(), k, p, s, d, layout).to(torch.uint8)
    got = cpu.unfold_by_views(x, k, p, s, d, layout)
    assert got.shape == want.shape and torch.equal(got, want)


def test_a_launch_a_worker_died_in_is_recorded_and_skipped(cpu, tmp_path):
    args = ["--classes", "transpose (1, 0)", "--elems", "4", "--sizes", "4K"]
    key = "permute|transpose (1, 0)|4K|4"
    running = tmp_path / "sweep.json.running"
    # A first worker ran nothing yet and died in ours' launch of the cell.
    (tmp_path / "sweep.json").write_text(json.dumps({"cells": []}))
    running.write_text(json.dumps({"key": key, "who": "ours"}))
    code, doc = run(cpu, tmp_path, *args, "--resume")
    assert not running.exists()
    assert doc["crashed"] == [{"key": key, "who": "ours",
                               "error": doc["crashed"][0]["error"]}]
    cell = {c["key"]: c for c in doc["cells"]}[key]
    assert cell["failed"] and "process died" in cell["errors"]["ours"]
    assert "torch" in cell["impl"] and "triton" in cell["impl"]   # the rest ran
    assert code == 1


def test_the_supervisor_resumes_after_a_dead_worker(LS, tmp_path, monkeypatch):
    calls = []
    running = tmp_path / "sweep.json.running"

    def worker(cmd):
        calls.append(cmd)
        if len(calls) == 1:            # the first worker dies in a launch
            running.write_text(json.dumps({"key": "k", "who": "ours"}))
            return -6
        running.unlink()               # the next one records it and finishes
        return 0
    monkeypatch.setattr(LS.subprocess, "call", worker)
    assert LS.main(["--json", str(tmp_path / "sweep.json"), "--quick"]) == 0
    assert len(calls) == 2
    assert "--worker" in calls[0] and "--resume" not in calls[0]
    assert calls[1][-2:] == ["--worker", "--resume"]


def test_a_crash_is_kept_before_the_next_worker_dies(cpu, tmp_path, monkeypatch):
    key = "permute|transpose (1, 0)|4K|4"
    path, running = tmp_path / "sweep.json", tmp_path / "sweep.json.running"
    path.write_text(json.dumps({"cells": []}))
    running.write_text(json.dumps({"key": key, "who": "triton a"}))

    def dies(cell, sweep):
        raise RuntimeError("an illegal memory access was encountered")
    monkeypatch.setattr(cpu, "run_cell", dies)
    with pytest.raises(RuntimeError):
        cpu.main(["--json", str(path), *FAST, "--classes", "transpose (1, 0)",
                  "--elems", "4", "--sizes", "4K", "--resume", "--worker"])
    assert [d["who"] for d in json.loads(path.read_text())["crashed"]] == ["triton a"]


def test_triton_is_not_run_past_32_bit_offsets(cpu, tmp_path, monkeypatch):
    monkeypatch.setattr(cpu, "TRITON_MAX_ELEMENTS", 1000)
    code, doc = run(cpu, tmp_path, "--classes", "transpose (1, 0)", "--elems", "4",
                    "--sizes", "4K")
    cell = doc["cells"][0]
    assert "triton" not in cell["impl"] and "32 bits" in cell["errors"]["triton"]
    assert cell["ratio"] is not None   # against torch alone
