"""bench/finalists.py: which first-pass timings of a bench/layout.py row
run again in its rounds (each side's fastest, and our default always)."""

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location(
    "finalists", Path(__file__).resolve().parents[3] / "bench" / "finalists.py")
FN = importlib.util.module_from_spec(spec)
spec.loader.exec_module(FN)


def run(who, name, tbps, exact=True):
    return {"who": who, "name": name, "tbps": tbps, "exact": exact}


RESULTS = [
    run("torch", "x.permute(dims).contiguous()", 0.6),
    run("triton", "ptr 64x64", 3.9), run("triton", "ptr 128x128", 4.1),
    run("triton", "blockptr 128x128", 4.0), run("triton", "desc 32x32", 4.2, exact=False),
    run("ours", "transpose default", 3.9), run("ours", "transpose 1tile t512", 4.2),
    run("ours", "transpose t512", 4.1), run("ours", "transpose walk (0, 1)", 4.0),
]
TIMED = {(r["who"], r["name"]) for r in RESULTS}
PEERS = [("torch", "x.permute(dims).contiguous()"),
         ("triton", "ptr 128x128"), ("triton", "blockptr 128x128")]


def test_a_slower_default_runs_after_the_fastest():
    assert FN.finalists(RESULTS, TIMED, "transpose default") == PEERS + [
        ("ours", "transpose 1tile t512"), ("ours", "transpose t512"),
        ("ours", "transpose default")]


def test_a_default_among_the_fastest_runs_once():
    assert FN.finalists(RESULTS, TIMED, "transpose t512") == PEERS + [
        ("ours", "transpose 1tile t512"), ("ours", "transpose t512")]


def test_a_default_that_is_not_exact_or_not_timed_stays_out():
    inexact = [dict(r, exact=False) if r["name"] == "transpose default" else r
               for r in RESULTS]
    fastest = PEERS + [("ours", "transpose 1tile t512"), ("ours", "transpose t512")]
    assert FN.finalists(inexact, TIMED, "transpose default") == fastest
    assert FN.finalists(RESULTS, TIMED - {("ours", "transpose default")},
                        "transpose default") == fastest
    assert FN.finalists(RESULTS, TIMED, None) == fastest
