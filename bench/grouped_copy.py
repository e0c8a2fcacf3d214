"""Grouped copy: one launch for a group of ragged bf16 tensors against its
peers, all measured in this run (docs/device-tensor-maps.md, docs/performance.md).

Groups: 256 tensors of about 64 x 512 (rows 48..80, cols 448..576) and 256
of about 1024 x 512 (rows 960..1088), fresh random bits, each peer's output
checked bit for bit before it is timed. Peers:

  ours, plan          GroupedCopy.plan(srcs, dsts)(): tables resident, one launch
                      (contiguous pairs copied as flat runs of whole boxes)
  ours, plan, 2-D tiles  the same with each pair tiled in its own rows and
                      columns (flatten=False: part-empty boxes at ragged row ends)
  ours, plan, VARIANT the same with another box, stages, store lag or CTAs per
                      SM (tile_mlir.testing.grouped_copy_bench.BENCH_VARIANTS)
  ours, call          grouped_copy(srcs, dsts): checks + tables + upload + launch
  ours, N launches    one prepared plan per tensor: N launches of our copy
  ours, one tensor    build_copy on one tensor of the group's bytes (the
                      bandwidth the group should reach)
  torch copy_ loop    dst.copy_(src) per pair
  torch _foreach_copy_
  triton              one program per tile, tl.make_tensor_descriptor on the
                      device for source and destination (triton.set_allocator)

Times are CUDA-event averages over back-to-back launches on the current
stream; TB/s counts bytes read plus written. Goals (the issue): >= 3x
_foreach_copy_ on the small group, >= 0.9 of the one-tensor copy's
bandwidth on the large group, not slower than triton on either.

    python bench/grouped_copy.py [--iters 50] [--json out.json]

Needs the GPU, torch and (for its peer) triton; the kernels come from the
compile cache (scripts/build_gpu_artifacts.py populates .artifacts/cache).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("TILE_MLIR_CACHE_DIR", str(Path(os.environ.get(
    "TILE_GPU_ARTIFACTS", ROOT / ".artifacts")) / "cache"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from tile_mlir import cache  # noqa: E402
from tile_mlir.kernels.grouped import GroupedCopy, grouped_copy  # noqa: E402
from tile_mlir.testing.grouped_copy_bench import (BENCH_GROUPS, BENCH_VARIANTS,  # noqa: E402
                                                  bench_reference, bench_shapes)


def timed(fn, iters: int, warmup: int = 3) -> float:
    """Microseconds per call: CUDA events around `iters` calls."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / iters


def random_bits(gen, shape):
    return torch.randint(-32768, 32767, shape, dtype=torch.int16, device="cuda",
                         generator=gen).view(torch.bfloat16)


def same(a, b) -> bool:
    return torch.equal(a.view(torch.int16), b.view(torch.int16))


def same_up_to_nan(a, b) -> bool:
    """Equal bits except where both are NaN: a copy that goes through a
    float conversion (torch's _foreach_copy_ kernel does) canonicalizes NaN
    payloads, and random bits hold NaNs."""
    ai, bi = a.view(torch.int16), b.view(torch.int16)
    both_nan = torch.isnan(a) & torch.isnan(b)
    return bool(((ai == bi) | both_nan).all())


def check_all(srcs, dsts) -> str:
    """'exact', or 'NaN payloads differ' where only NaNs' bits differ;
    raises where any other element differs."""
    verdict = "exact"
    for i, (s, d) in enumerate(zip(srcs, dsts)):
        if same(s, d):
            continue
        if not same_up_to_nan(s, d):
            ai, bi = s.view(torch.int16), d.view(torch.int16)
            bad = torch.nonzero((ai != bi) & ~(torch.isnan(s) & torch.isnan(d)))
            r, c = bad[0].tolist()
            raise AssertionError(f"pair {i} {tuple(s.shape)} differs at {bad.shape[0]} "
                                 f"elements, first ({r}, {c}): expected "
                                 f"{int(ai[r, c]) & 0xffff:#06x} got {int(bi[r, c]) & 0xffff:#06x}")
        verdict = "NaN payloads differ"
    return verdict


def triton_peer(srcs, dsts, box):
    """A Triton grouped copy with on-device tensor descriptors (one program
    per tile); returns a callable, or raises if Triton is unusable."""
    import triton
    import triton.language as tl

    def alloc(size: int, alignment: int, stream):
        return torch.empty(size, device="cuda", dtype=torch.int8)

    triton.set_allocator(alloc)

    @triton.jit
    def kernel(table, tile_tensor, BR: tl.constexpr, BC: tl.constexpr):
        pid = tl.program_id(0)
        t = tl.load(tile_tensor + pid).to(tl.int64)
        row = table + t * 8
        src = tl.load(row + 0).to(tl.pointer_type(tl.bfloat16))
        dst = tl.load(row + 1).to(tl.pointer_type(tl.bfloat16))
        rows = tl.load(row + 2).to(tl.int32)
        cols = tl.load(row + 3).to(tl.int32)
        src_pitch = tl.load(row + 4)
        dst_pitch = tl.load(row + 5)
        first = tl.load(row + 6)
        per_row = tl.load(row + 7)
        within = pid - first
        r0 = ((within // per_row) * BR).to(tl.int32)
        c0 = ((within % per_row) * BC).to(tl.int32)
        s_desc = tl.make_tensor_descriptor(src, shape=[rows, cols], strides=[src_pitch, 1],
                                           block_shape=[BR, BC])
        d_desc = tl.make_tensor_descriptor(dst, shape=[rows, cols], strides=[dst_pitch, 1],
                                           block_shape=[BR, BC])
        d_desc.store([r0, c0], s_desc.load([r0, c0]))

    br, bc = box
    rows = [s.shape[0] for s in srcs]
    cols = [s.shape[1] for s in srcs]
    per_row = [-(-c // bc) for c in cols]
    tiles = [-(-r // br) * p for r, p in zip(rows, per_row)]
    first = np.concatenate([[0], np.cumsum(tiles)])
    table = torch.tensor([[s.data_ptr(), d.data_ptr(), r, c, s.stride(0), d.stride(0),
                           int(f), p] for s, d, r, c, f, p in
                          zip(srcs, dsts, rows, cols, first[:-1], per_row)],
                         dtype=torch.int64, device="cuda")
    tile_tensor = torch.tensor(np.repeat(np.arange(len(srcs)), tiles), dtype=torch.int32,
                               device="cuda")
    total = int(first[-1])
    return lambda: kernel[(total,)](table, tile_tensor, BR=br, BC=bc)


def measure(name: str, count: int, iters: int, seed: int) -> dict:
    gen = torch.Generator(device="cuda").manual_seed(seed)
    rng = np.random.default_rng(seed)
    shapes = bench_shapes(name, rng)
    srcs = [random_bits(gen, s) for s in shapes]
    dsts = [torch.empty_like(s) for s in srcs]
    nbytes = 2 * sum(s.numel() * s.element_size() for s in srcs)  # read + write
    results = {}

    def run(peer: str, fn, calls: int = iters) -> None:
        # Each peer's check starts from destinations no earlier peer wrote
        # (the plans are bound to these tensors, so they are cleared, not
        # reallocated), with everything queued before finished.
        torch.cuda.synchronize()
        for d in dsts:
            d.view(torch.int16).fill_(0x5A5A)
        torch.cuda.synchronize()
        try:
            fn()
            torch.cuda.synchronize()
            verdict = check_all(srcs, dsts)
            us = timed(fn, calls)
        except Exception as err:  # a peer that cannot run is reported, not fatal
            results[peer] = {"error": f"{type(err).__name__}: {err}"}
            print(f"  {peer:24s} FAILED: {type(err).__name__}: {err}", flush=True)
            return
        results[peer] = {"us": us, "tbps": nbytes / us / 1e6, "check": verdict}
        note = "" if verdict == "exact" else f"  ({verdict})"
        print(f"  {peer:24s} {us:10.1f} us  {nbytes / us / 1e6:6.3f} TB/s{note}", flush=True)

    copy = GroupedCopy("bfloat16")
    plan = copy.plan(srcs, dsts)
    run("ours, plan", plan)
    run("ours, plan, 2-D tiles", GroupedCopy("bfloat16", flatten=False).plan(srcs, dsts))
    for label, (box, stages, lag, per_sm) in BENCH_VARIANTS.items():
        variant = GroupedCopy("bfloat16", box=box, stages=stages, store_lag=lag,
                              grid=per_sm * copy.grid)
        run(f"ours, plan, {label}", variant.plan(srcs, dsts))
    run("ours, call", lambda: grouped_copy(srcs, dsts))
    plans = [copy.plan([s], [d]) for s, d in zip(srcs, dsts)]
    run("ours, N launches", lambda: [p() for p in plans], max(3, iters // 10))
    run("torch copy_ loop", lambda: [d.copy_(s) for s, d in zip(srcs, dsts)],
        max(3, iters // 10))
    run("torch _foreach_copy_", lambda: torch._foreach_copy_(dsts, srcs))
    try:
        peer = triton_peer(srcs, dsts, copy.box)
    except Exception as err:
        results["triton"] = {"error": f"{type(err).__name__}: {err}"}
        print(f"  {'triton':24s} FAILED: {type(err).__name__}: {err}", flush=True)
    else:
        run("triton", peer)
    # One tensor of the group's bytes: the bandwidth a grouped copy aims at.
    params = bench_reference(name)
    module = cache.load_kernel("tile_mlir.kernels.copy.persistent:build_copy", **params)
    a = random_bits(gen, (params["rows"], params["cols"]))
    b = torch.empty_like(a)
    launch = module.bind(a, b)
    launch()
    torch.cuda.synchronize()
    one_bytes = 2 * a.numel() * 2
    ok = same(a, b)
    us = timed(launch, iters)
    results["ours, one tensor"] = {"us": us, "tbps": one_bytes / us / 1e6,
                                   "exact": ok, "shape": [params["rows"], params["cols"]]}
    print(f"  {'ours, one tensor':24s} {us:10.1f} us  {one_bytes / us / 1e6:6.3f} TB/s"
          f"  ({params['rows']} x {params['cols']}, {'exact' if ok else 'NOT EXACT'})")
    return {"tensors": count, "bytes": nbytes, "results": results}


def ratio(results, a: str, b: str, key: str = "tbps"):
    ra, rb = results.get(a, {}), results.get(b, {})
    if key not in ra or key not in rb:
        return None
    return ra[key] / rb[key]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    parser.add_argument("--json")
    parser.add_argument("--doc", default=None,
                        help="rewrite this script's table in that document (docs/performance.md)")
    args = parser.parse_args()
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, seed {args.seed}")
    report = {"device": torch.cuda.get_device_name(), "seed": args.seed, "groups": {}}
    for name, (count, rows, cols) in BENCH_GROUPS.items():
        print(f"{name}: {count} bf16 tensors of about {rows} x {cols}")
        report["groups"][name] = measure(name, count, args.iters, args.seed)
    print("ratios (bandwidth, same run):")
    small = report["groups"]["small"]["results"]
    large = report["groups"]["large"]["results"]
    goals = [
        ("small: ours / _foreach_copy_", ratio(small, "ours, plan", "torch _foreach_copy_"), 3.0),
        ("small: ours / triton", ratio(small, "ours, plan", "triton"), 1.0),
        ("large: ours / one-tensor copy", ratio(large, "ours, plan", "ours, one tensor"), 0.9),
        ("large: ours / triton", ratio(large, "ours, plan", "triton"), 1.0),
        ("small: ours / N launches", ratio(small, "ours, plan", "ours, N launches"), None),
        ("small: ours / copy_ loop", ratio(small, "ours, plan", "torch copy_ loop"), None),
        ("large: ours / _foreach_copy_", ratio(large, "ours, plan", "torch _foreach_copy_"), None),
        ("small: call / plan", ratio(small, "ours, call", "ours, plan"), None),
        ("large: call / plan", ratio(large, "ours, call", "ours, plan"), None),
    ]
    for group, results in (("small", small), ("large", large)):
        plans = {k: v for k, v in results.items() if k.startswith("ours, plan") and "tbps" in v}
        if plans:
            best = max(plans, key=lambda k: plans[k]["tbps"])
            goals.append((f"{group}: best ({best[len('ours, plan'):].strip(', ') or 'default'})"
                          " / one-tensor", ratio(results, best, "ours, one tensor"), None))
    for label, value, goal in goals:
        shown = "n/a" if value is None else f"{value:.2f}x"
        verdict = "" if goal is None or value is None else (
            "  goal >= %.1f: %s" % (goal, "met" if value >= goal else "NOT met"))
        print(f"  {label:32s} {shown}{verdict}")
    report["ratios"] = {label: value for label, value, _ in goals}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    if args.doc:  # bench/perf_doc.py
        import perf_doc
        perf_doc.write(args.doc, "bench/grouped_copy.py", perf_doc.grouped_copy_table(report),
                       torch.cuda.get_device_name())
    return 0


if __name__ == "__main__":
    sys.exit(main())
