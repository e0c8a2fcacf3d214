"""The pad row's kernel variants (pad.variants) against its default, at two
sizes: the layout table's F.pad (1, 1, 1, 1) on 64x256x256x256 bf16, and
the same planes on 2x64x256x256, whose input and output (34 MB) stay in
an H100's or H200's L2 between launches, so that the kernel's threads,
not DRAM, set the pace there. Each variant's output is checked bit-exact
against F.pad; the variants run in interleaved rounds (the order reversed
every other round) and each prints its best median against the default's:

    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/pad_variants.py \\
        --variants "producer warp,producer warp batch 2"
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys

import torch
import torch.nn.functional as F

from tile_mlir.kernels.layout_cases import PAD_BENCH
from tile_mlir.kernels.layout_plan import contiguous_strides

PD = importlib.import_module("tile_mlir.kernels.pad")

L2_SHAPE = (2, 64) + tuple(PAD_BENCH[0][2:])   # the table's planes, 34 MB in and out


def median_ms(fn, reps: int) -> float:
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def measure(shape, pad_, names, rounds: int, reps: int) -> dict:
    """{variant: best median ms}; every variant checked bit-exact first."""
    plan = PD.plan_for(shape, contiguous_strides(shape), pad_, 2, "zero")
    kernels = dict(PD.variants(plan, "bfloat16"))
    missing = [n for n in names if n not in kernels]
    if missing:
        raise SystemExit(f"--variants: no variant {missing[0]!r} for {shape}; there are "
                         f"{', '.join(kernels)}")
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
    ref = F.pad(x, pad_).view(torch.int16)
    y = torch.empty(ref.numel(), device="cuda", dtype=x.dtype)
    best: dict = {}
    for r in range(rounds):
        for name in (names if r % 2 == 0 else names[::-1]):
            def run(k=kernels[name]):
                PD.run(plan, x, y, 0, k)
            if r == 0:
                y.fill_(-1)
                run()
                torch.cuda.synchronize()
                if not torch.equal(y.view(ref.shape).view(torch.int16), ref):
                    raise SystemExit(f"variant {name!r} is not F.pad's bits on {shape}")
            t = median_ms(run, reps)
            best[name] = min(best.get(name, t), t)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", required=True,
                        help="comma-separated variant names (pad.variants), besides the default")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    names = ["default"] + [v for v in args.variants.split(",") if v and v != "default"]
    _, pad_ = PAD_BENCH
    print(torch.cuda.get_device_name())
    for shape, reps in ((L2_SHAPE, 200), (PAD_BENCH[0], 15)):
        best = measure(shape, pad_, names, args.rounds, reps)
        nbytes = 2 * torch.Size(shape).numel()      # the table's input-bytes basis
        print(f"F.pad {pad_} on {'x'.join(map(str, shape))} ({nbytes / 2**20:.0f} MiB in)")
        for name in names:
            ms = best[name]
            print(f"  {name:36s} {ms * 1e3:9.1f} us {nbytes / ms / 1e9:6.2f} TB/s "
                  f"{best['default'] / ms:6.3f}x default")
    return 0


if __name__ == "__main__":
    sys.exit(main())
