"""What a debug build costs on the copy benchmark's persistent copy
(build_copy_dynamic, 2 GiB of bf16, 64x128 boxes, 4 stages, 132 CTAs), the
release and the debug (compile(..., debug=True)) artifact of the same kernel,
built by scripts/build_gpu_artifacts.py into debug/cost_{release,debug}.

Two numbers per build: the kernel alone (CUDA events around back-to-back
launches, no host work between them; the debug buffer is read once after)
and a launch as the runtime does it (BoundLaunch: a debug launch also
synchronizes and reads the 128-byte error buffer). Both copies are checked
bit for bit. Run on the GPU machine; writes JSON to --json.
"""

import argparse
import json
import sys
from pathlib import Path

import torch

from tile_mlir import runtime

ROOT = Path(__file__).resolve().parents[1]


def kernel_ms(launch, reps: int) -> float:
    """Median of 5 rounds of `reps` back-to-back raw launches, ms per launch."""
    raw = lambda: launch.launcher(0, launch.kernel_params)  # noqa: E731
    for _ in range(3):
        raw()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(5):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(reps):
            raw()
        end.record()
        end.synchronize()
        rounds.append(start.elapsed_time(end) / reps)
    return sorted(rounds)[2]


def runtime_ms(launch, reps: int) -> float:
    """Median wall ms per runtime launch, each followed by a synchronize
    (the debug one's own, or one added for the release one)."""
    import time
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        launch()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t) * 1e3)
    return sorted(times)[len(times) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", default=str(ROOT / ".artifacts" / "debug"))
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--json", default=None)
    parser.add_argument("--doc", default=None,
                        help="rewrite this script's table in that document (docs/performance.md)")
    args = parser.parse_args()
    folder = Path(args.artifacts)
    entries = [e for e in json.loads((folder / "index.json").read_text())
               if e["kind"] == "cost"]
    rows, cols = entries[0]["rows"], entries[0]["cols"]
    a = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    b = torch.empty_like(a)
    ctr = torch.zeros(2, device="cuda", dtype=torch.int32)
    moved = 2 * a.numel() * a.element_size()
    results = []
    for entry in entries:
        mod = runtime.load(folder / entry["name"])
        b.zero_()
        mod(a, b, ctr)
        checks = {"first": bool(torch.equal(a, b)) and not ctr.any()}
        launch = mod.bind(a, b, ctr)
        k = kernel_ms(launch, args.reps)
        fault = mod.debug.take() if mod.debug else None
        checks["no fault"] = fault is None
        if fault is not None:
            print(f"{entry['name']}: {fault}")
        r = runtime_ms(launch, args.reps)
        b.zero_()
        launch()
        torch.cuda.synchronize()
        checks["last"] = bool(torch.equal(a, b)) and not ctr.any()
        exact = all(checks.values())
        if not exact:
            print(f"{entry['name']}: {checks}")
        results.append({"name": entry["name"], "debug": entry["debug"], "kernel_ms": k,
                        "kernel_tbps": moved / k / 1e9, "runtime_launch_ms": r,
                        "exact": exact})
        print(f"{entry['name']:14s} kernel {k:.3f} ms ({moved / k / 1e9:.2f} TB/s), "
              f"runtime launch + sync {r:.3f} ms, exact={exact}", flush=True)
    by = {r["debug"]: r for r in results}
    if True in by and False in by:
        rel, dbg = by[False], by[True]
        print(f"debug / release: kernel {dbg['kernel_ms'] / rel['kernel_ms']:.3f}x, "
              f"runtime launch {dbg['runtime_launch_ms'] / rel['runtime_launch_ms']:.3f}x "
              f"({torch.cuda.get_device_name()})")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    if args.doc:  # bench/perf_doc.py
        import perf_doc
        perf_doc.write(args.doc, "bench/debug_cost.py", perf_doc.debug_cost_table(results),
                       torch.cuda.get_device_name())
    return 0 if all(r["exact"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
