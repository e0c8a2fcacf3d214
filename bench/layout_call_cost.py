"""What a layout call costs on the host: back-to-back calls of the same
op on small tensors (tile_mlir.testing.layout_cases.CALL_CASES), ours
(tile_mlir.kernels.permute / pad / unfold: the prepared path after the
first call) against torch's own op, in one run on one GPU; and the first
call of a new shape (planned and prepared; the kernel already loaded).

Where MLIR is, build the kernels (bench/build_layout.py builds them with
the rest), then on the GPU machine:
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/layout_call_cost.py

Per-call time: wall clock over N back-to-back calls and one synchronize at
the end, the best of five such batches; on these sizes the host's work
sets the pace, so this is what a loop of such calls costs.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import json
import pstats
import sys
import time

import torch
import torch.nn.functional as F

from tile_mlir.kernels import pad, permute, unfold
from tile_mlir.testing.layout_cases import CALL_CASES, CALL_FIRST_EXTENTS

prepared = importlib.import_module("tile_mlir.kernels.layout.prepared")

DTYPES = {1: torch.uint8, 2: torch.bfloat16, 4: torch.float32, 8: torch.float64}


def torch_op(op, args):
    """torch's own op for the call (NHWC unfold: through NCHW, as a user would)."""
    if op == "permute":
        return lambda x: x.permute(args[0]).contiguous()
    if op == "pad":
        return lambda x: F.pad(x, args[0], value=args[1])
    k, p, s, d, layout = args
    if layout == "NCHW":
        return lambda x: F.unfold(x, k, dilation=d, padding=p, stride=s)
    return lambda x: F.unfold(x.permute(0, 3, 1, 2), k, dilation=d, padding=p,
                              stride=s).transpose(1, 2).contiguous()


def ours(op, args):
    fn = {"permute": permute, "pad": pad, "unfold": unfold}[op]
    return lambda x: fn(x, *args)


def planned(op, args):
    """The planned path alone (what every call cost before prepared calls)."""
    if op == "unfold":
        fn = importlib.import_module("tile_mlir.kernels.layout.unfold").unfold_tensor
        return lambda x: fn(x, *args)[0]
    fn = getattr(importlib.import_module(f"tile_mlir.kernels.layout.{op}"), f"{op}_tensor")
    return lambda x: fn(x, *args)


def per_call_us(fn, x, n: int) -> float:
    """Microseconds a call, back to back (best batch of five)."""
    fn(x)
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            fn(x)
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - start) / n * 1e6)
    return best


def first_calls_us(op, shape, args, dtype, count: int = 20) -> float | None:
    """Mean microseconds of a first call (a new leading extent each time: a
    new key, the same kernel)."""
    fn = ours(op, args)
    times = []
    for k in CALL_FIRST_EXTENTS[:count]:
        x = torch.zeros((shape[0] * k, *shape[1:]), dtype=dtype, device="cuda")
        torch.cuda.synchronize()
        start = time.perf_counter()
        try:
            fn(x)
        except Exception as err:   # a kernel not in the cache for that extent: say so
            print(f"    first call {tuple(x.shape)}: {type(err).__name__}: "
                  f"{str(err).splitlines()[0][:120]}")
            return None
        times.append((time.perf_counter() - start) * 1e6)
        torch.cuda.synchronize()
    return sum(times) / len(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=2000, help="calls a batch")
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--profile", metavar="PATH",
                        help="profile the first calls (cProfile): stats to PATH, the "
                        "30 costliest functions (cumulative) printed at the end")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    name = torch.cuda.get_device_name()
    print(f"# {name}, torch {torch.__version__}; us a call, back to back")
    print(f"{'call':58s} {'ours':>8s} {'torch':>8s} {'torch/ours':>10s} "
          f"{'planned':>8s} {'first':>8s} {'path':>9s}")
    rows = []
    for op, shape, op_args, elem in CALL_CASES:
        x = torch.randn(shape, device="cuda").to(DTYPES[elem]) if elem > 1 else \
            torch.randint(0, 255, shape, dtype=torch.uint8, device="cuda")
        mine = per_call_us(ours(op, op_args), x, args.calls)
        theirs = per_call_us(torch_op(op, op_args), x, args.calls)
        path = prepared.state(op, x, op_args)
        if path is None and ours(op, op_args)(x).data_ptr() == x.data_ptr():
            path = "view"   # the identity of a contiguous tensor: no kernel
        plan_us = per_call_us(planned(op, op_args), x, max(50, args.calls // 20))
        if profiler is not None:
            profiler.enable()
        first = first_calls_us(op, shape, op_args, DTYPES[elem])
        if profiler is not None:
            profiler.disable()
        label = f"{op} {shape} {DTYPES[elem]} {op_args}"
        print(f"{label[:58]:58s} {mine:8.2f} {theirs:8.2f} {theirs / mine:10.2f} "
              f"{plan_us:8.1f} {first if first is not None else float('nan'):8.1f} "
              f"{path!s:>9s}",
              flush=True)
        rows.append({"op": op, "shape": shape, "args": repr(op_args), "elem": elem,
                     "ours_us": mine, "torch_us": theirs, "planned_us": plan_us, "first_us": first, "path": path})
    worst = max(r["ours_us"] for r in rows)
    slower = [r for r in rows if r["ours_us"] > r["torch_us"]]
    print(f"# most per call: {worst:.2f} us (goal 10); slower than torch: {len(slower)}")
    if profiler is not None:
        profiler.dump_stats(args.profile)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": name, "torch": torch.__version__, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
