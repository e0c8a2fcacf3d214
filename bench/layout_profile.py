"""One launch of each layout table row's planned kernel, for a profiler:
the rows of bench/layout.py (bf16, 2 GiB each), our identity copy of the
same bytes and torch copy_ as the streaming references. Each launch runs
once to warm up (module load, tensor maps), then once inside an NVTX range
named "profile", so Nsight Compute reads that launch alone:

    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache ncu --clock-control none \\
        --nvtx --nvtx-include "profile/" --section SpeedOfLight \\
        --section WarpStateStats --section SchedulerStats \\
        python3 bench/layout_profile.py --rows "transpose,F.pad (1"

`--cells "permute|(4, 3, 2, 1, 0)|256M|1;..."` profiles cells of
bench/layout_sweep.py instead: our public call on the cell's input, then
torch copy_ of the same bytes.

Without a profiler it times each launch too (device events, median of
`--reps`), so its printed TB/s say which launches ran in a slow stretch.
"""

from __future__ import annotations

import argparse
import importlib
import math
import statistics
import sys

import torch

from tile_mlir.kernels import pad as tm_pad, permute as tm_permute
from tile_mlir.testing.layout_cases import PAD_BENCH, PERMUTE_BENCH, TRANSPOSE_BENCH
from tile_mlir.kernels.layout.plan.common import contiguous_strides

import row_filter as R  # --rows (a sibling script)

PD = importlib.import_module("tile_mlir.kernels.layout.pad")


def pad_variants(names):
    """(name, make_input, run) of the pad row's benchmark variants `names`
    (pad.variants), each writing into one preallocated output."""
    shape, pad_ = PAD_BENCH
    plan = PD.plan_for(shape, contiguous_strides(shape), pad_, 2, "zero")
    kernels = dict(PD.variants(plan, "bfloat16"))
    out, outs = [], {}

    def runner(kernel):
        def run(x):
            if "y" not in outs:   # run() views it as the plan's output shape
                outs["y"] = torch.empty(math.prod(plan.out_shape), device="cuda",
                                        dtype=x.dtype)
            PD.run(plan, x, outs["y"], 0, kernel)
            return outs["y"]
        return run

    for name in names:
        if name not in kernels:
            raise SystemExit(f"--pad-variants: no variant {name!r}; the pad row's are "
                             f"{', '.join(kernels)}")
        out.append((f"F.pad {pad_} [{name}]",
                    lambda: torch.randn(shape, device="cuda", dtype=torch.bfloat16),
                    runner(kernels[name])))
    return out


def rows():
    """(name, make_input, run) of every profiled row; run None: torch copy_."""
    out = [("torch copy_ 32768x32768", lambda: torch.randn(
        TRANSPOSE_BENCH, device="cuda", dtype=torch.bfloat16), None)]
    # The planned path: the public call returns a view for this identity.
    copy = importlib.import_module("tile_mlir.kernels.layout.permute").permute_tensor
    out.append(("identity permute 32768x32768 (our copy)", out[0][1],
                lambda x: copy(x, (0, 1))))
    for shape, dims in [(TRANSPOSE_BENCH, (1, 0))] + PERMUTE_BENCH:
        out.append((R.permute_row_name(shape, dims),
                    lambda s=shape: torch.randn(s, device="cuda", dtype=torch.bfloat16),
                    lambda x, d=dims: tm_permute(x, d)))
    shape, pad_ = PAD_BENCH
    out.append((R.pad_row_name(PAD_BENCH),
                lambda: torch.randn(shape, device="cuda", dtype=torch.bfloat16),
                lambda x: tm_pad(x, pad_)))
    return out


def timed(fn, reps: int) -> float:
    """Median milliseconds of `reps` launches (device events)."""
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def sweep_cells(keys) -> list:
    """(name, make_input, run, bytes moved) of our call in each sweep cell
    `keys` and of copy_ of the same bytes (bench/layout_sweep.py's)."""
    import layout_sweep as LS   # a sibling script
    from tile_mlir.testing import layout_sweep as S
    LS._import_gpu()
    cells = {c.key: c for c in S.sweep_cells(None, None, None, None)}
    unknown = [k for k in keys if k not in cells]
    if unknown:
        raise SystemExit(f"--cells: no sweep cell {unknown[0]!r} (op|class|size|elem)")
    out = []
    for key in keys:
        cell = cells[key]
        dtype = getattr(torch, cell.dtype)
        out.append((f"ours {key}", lambda c=cell: LS.make_input(c),
                    lambda x, c=cell: LS.ours_fn(c, x)(), cell.moved))
        out.append((f"copy_ {key}", lambda c=cell, t=dtype: torch.empty(
            c.moved // 2 // c.elem, dtype=t, device="cuda"), None, cell.moved))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=None, help="as bench/layout.py --rows")
    parser.add_argument("--pad-variants", default="",
                        help="comma-separated names of the pad row's benchmark variants "
                             "to profile after the rows (pad.variants)")
    parser.add_argument("--cells", default="",
                        help="';'-separated keys of bench/layout_sweep.py's cells "
                             "(op|class|size|elem) to profile instead of the rows: our "
                             "public call on the cell's input, then copy_ of its bytes")
    parser.add_argument("--reps", type=int, default=5,
                        help="timed launches after the profiled one (0: none)")
    args = parser.parse_args()
    keep = R.row_filter(args.rows)
    extra = pad_variants([v for v in args.pad_variants.split(",") if v])
    todo = [(*r, None) for r in rows() if keep(r[0])] + [(*r, None) for r in extra]
    if args.cells:
        todo = sweep_cells([k.strip() for k in args.cells.split(";") if k.strip()])
    for name, make, run, moved in todo:
        x = make()
        if run is None:   # torch copy_ into a preallocated tensor
            y = torch.empty_like(x)
            fn = (lambda: y.copy_(x))
        else:
            fn = (lambda: run(x))
        y = fn()          # the warm-up: module load, tensor maps
        torch.cuda.synchronize()
        # Read plus written; the pad on the table's input-bytes basis.
        nbytes = moved or \
            (x.numel() + (x.numel() if "pad" in name else y.numel())) * x.element_size()
        torch.cuda.nvtx.range_push("profile")
        fn()
        torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        line = f"{name:48s}"
        if args.reps:
            ms = timed(fn, args.reps)
            line += f" {ms:7.3f} ms {nbytes / ms / 1e9:6.2f} TB/s"
        print(line, flush=True)
        del x, y, fn
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
