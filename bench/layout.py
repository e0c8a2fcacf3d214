"""Layout operations on the GPU, one run: every row of the layout table
(bf16; 2-D transpose, permutations of rank 3 to 5, F.pad, F.unfold), and
F.pad (0, 8) and (0, 0, 1, 1) (aligned rows widened by 16 bytes, and
padded on H only: the vector pad beside the copy engine's boxes), as
torch does it, as the fastest exact Triton kernel of bench/layout_triton.py
(pointer tiles, block pointers, TensorDescriptor TMA tiles, several block
shapes), and as tile-mlir's ops (tile_mlir.kernels.layout.permute / pad / unfold:
the planned kernel and the variants permute.variants() lists), beside
torch's copy_ of 2 GiB in the same run. Every result is compared bit for
bit with torch's. Bytes: read plus written (pad: twice the input, as the
table counts it; unfold: input plus output).

Where MLIR is, build the kernels into a compile cache first:
    python bench/build_layout.py                     # .artifacts/layout/cache
then on the GPU machine:
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/layout.py --json layout.json
`--rows transpose,pad` runs the rows whose names contain those words
(`--rows "permute (4, 3"`: a comma followed by a space belongs to the word).

A single timing of a 1 ms kernel can land in a slow stretch of the GPU
(10-20% low now and then, the same kernel at full speed a second later), so
after every candidate has run once, each row's two fastest of ours and of
Triton's, our default kernel, torch's op and torch copy_ run again in
`--rounds` interleaved rounds (the order reversed every other round;
bench/finalists.py picks them); a row's table entry is each side's best
median over those rounds, against the copy_ median of the same rounds, and
its `default` column the default kernel's median (what the op runs).
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
import triton

from tile_mlir.kernels import pad as tm_pad, permute as tm_permute, unfold as tm_unfold
from tile_mlir.kernels.layout.call import load as load_kernel
from tile_mlir.kernels.layout.tuning import for_device
from tile_mlir.testing.layout_recipes.permute import previous_transpose_recipe
from tile_mlir.testing.layout_cases import (PAD_BENCH, PAD_OUTER_BENCH, PAD_WIDEN_BENCH,
                                            PERMUTE_BENCH, TRANSPOSE_BENCH, UNFOLD_BENCH)

# Sibling scripts (a script's own folder is first on sys.path).
import finalists as FN    # which candidates run in the rounds
import layout_triton as T  # the Triton peers
import row_filter as R     # --rows

P = importlib.import_module("tile_mlir.kernels.layout.permute")
PD = importlib.import_module("tile_mlir.kernels.layout.pad")
U = importlib.import_module("tile_mlir.kernels.layout.unfold")

GOAL_COPY = 0.93       # permute and pad: of torch copy_'s bandwidth
GOAL_UNFOLD = 3.0      # unfold: of torch
GOAL_TRANSPOSE = 1.02  # the 2-D transpose: of Triton's best


def bench(fn) -> float:
    """Median milliseconds (device events, after warm-up)."""
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


def int_view(t):
    return t.view({1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[
        t.element_size()])


def exact(a, b) -> bool:
    torch.cuda.synchronize()
    return a.shape == b.shape and bool(torch.equal(int_view(a), int_view(b)))


class Row:
    def __init__(self, name, nbytes):
        self.name, self.nbytes, self.results = name, nbytes, []
        self.fns = {}      # (who, name) -> the timed function
        self.rounds = {}   # (who, name) -> TB/s of each round
        self.default = None   # the name of our default kernel's timing

    def record(self, who, name, ms, ok, fn=None):
        """One timing; `fn`, the function timed, for the rounds."""
        if fn is not None:
            self.fns[who, name] = fn
        r = {"who": who, "name": name, "ms": ms, "tbps": self.nbytes / ms / 1e9,
             "exact": ok}
        self.results.append(r)
        print(f"    {who:7s} {name:44s} {ms:8.3f} ms {r['tbps']:6.2f} TB/s exact={ok}",
              flush=True)

    def best(self, who):
        """{'name', 'tbps'} of who's best: the best median of the rounds
        where they ran, else the best single timing of the first pass."""
        medians = [{"name": n, "tbps": statistics.median(v)}
                   for (w, n), v in self.rounds.items() if w == who]
        if medians:
            return max(medians, key=lambda r: r["tbps"])
        runs = [r for r in self.results if r["who"] == who and r["exact"]]
        return max(runs, key=lambda r: r["tbps"]) if runs else None

    def default_tbps(self):
        """Our default kernel's TB/s: its median of the rounds where it ran,
        else its first-pass timing; None if it failed or was not exact."""
        if ("ours", self.default) in self.rounds:
            return statistics.median(self.rounds["ours", self.default])
        runs = [r["tbps"] for r in self.results
                if r["who"] == "ours" and r["name"] == self.default and r["exact"]]
        return runs[0] if runs else None

    def settle(self, rounds: int, copy_fn, copy_bytes: int) -> None:
        """Times the finalists (FN.finalists: each side's fastest exact
        candidates and our default), torch's op and torch copy_ (as who
        "copy") in `rounds` interleaved rounds."""
        if rounds < 1:
            return
        picks = [(who, name, self.fns[who, name], self.nbytes)
                 for who, name in FN.finalists(self.results, set(self.fns), self.default)]
        picks.append(("copy", "torch copy_ (2 GiB bf16)", copy_fn, copy_bytes))
        for k in range(rounds):
            for who, name, fn, nbytes in (picks if k % 2 == 0 else picks[::-1]):
                self.rounds.setdefault((who, name), []).append(nbytes / bench(fn) / 1e9)
        for (who, name), v in self.rounds.items():
            print(f"    rounds  {who:7s} {name:44s} median {statistics.median(v):6.2f} TB/s "
                  f"({' '.join(f'{t:.2f}' for t in v)})", flush=True)


def measure(row, who, name, fn, out, ref, fresh=None):
    """Runs fn once (into `out`, filled with a pattern first), checks it
    against `ref`, times it; failures are reported and skipped."""
    try:
        if fresh is not None:
            fresh()
        fn()
        ok = exact(out, ref)
        row.record(who, name, bench(fn), ok, fn)
    except Exception as err:  # a variant that does not compile or launch: say so
        msg = str(err).splitlines()[0] if str(err) else ""
        print(f"    {who:7s} {name:44s} {type(err).__name__}: {msg[:100]}", flush=True)


def measure_ours(row, kind, variants, run, out, ref, fresh) -> None:
    """Times each of our (name, kernel) variants as "<plan kind> <name>"
    through run(kernel); the one named "default" is what the op runs."""
    for vname, kernel in variants:
        name = f"{kind} {vname}"
        if vname == "default":
            row.default = name
        measure(row, "ours", name, lambda k=kernel: run(k), out, ref, fresh)


def permute_row(shape, dims, args) -> Row:
    n = 1
    for d in shape:
        n *= d
    row = Row(R.permute_row_name(shape, dims), 2 * n * 2)
    print(f"{row.name}: {row.nbytes / 2**30:.2f} GiB moved", flush=True)
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
    ref = x.permute(dims).contiguous()
    torch_fn = (lambda: x.permute(dims).contiguous())
    row.record("torch", "x.permute(dims).contiguous()", bench(torch_fn), True, torch_fn)
    out = torch.empty_like(ref)

    def fresh():
        out.fill_(float("nan"))

    plan = P.plan_for(x.shape, x.stride(), dims, 2)
    if not args.no_triton:
        for vname, fn in T.permute_variants(x, plan.canonical, out):
            measure(row, "triton", vname, fn, out, ref, fresh)
    # The default is what permute() runs on this GPU (layout/tuning.py).
    measure_ours(row, plan.kind, P.variants(plan, for_device(x.device)),
                 lambda k: P.run(plan, x, out, k),
                 out, ref, fresh)
    # The whole op (planning, allocation, launch) once more, for its cost.
    t0 = time.perf_counter()
    y = tm_permute(x, dims)
    torch.cuda.synchronize()
    row.op_call_ms = (time.perf_counter() - t0) * 1e3
    if not exact(y, ref):
        row.record("ours", "permute() call", 1.0, False)
    if len(shape) == 2:
        previous_transpose(row, x, out, ref, fresh)
    row.settle(args.rounds, *args.copy)
    del x, ref, out, y
    torch.cuda.empty_cache()
    return row


def previous_transpose(row, x, out, ref, fresh) -> None:
    """The best transpose of bench/transpose.py (one 128x128 tile per CTA,
    wide boxes, column order; static 32768 x 32768), for comparison."""
    builder, params = previous_transpose_recipe()
    try:
        mod = load_kernel(builder, params)
    except Exception as err:
        print(f"    ours    previous transpose kernel: {type(err).__name__}: {err}")
        return
    rows, cols = x.shape
    xv, ov = x.view(rows, cols // 64, 64), out.view(cols, rows // 64, 64)
    launch = mod.bind(xv, ov)
    measure(row, "ours", "previous: one tile a CTA, wide boxes", launch, out, ref, fresh)


def pad_row(case, args) -> Row:
    shape, pad_ = case
    n = 1
    for d in shape:
        n *= d
    row = Row(R.pad_row_name(case), 2 * n * 2)
    print(f"{row.name}: {row.nbytes / 2**30:.2f} GiB (input-bytes basis)", flush=True)
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
    ref = F.pad(x, pad_)
    torch_fn = (lambda: F.pad(x, pad_))
    row.record("torch", "F.pad", bench(torch_fn), True, torch_fn)
    out = torch.empty_like(ref)

    def fresh():
        out.fill_(float("nan"))

    if not args.no_triton:
        B = shape[0] * shape[1]
        x3 = x.view(B, shape[2], shape[3])
        y3 = out.view(B, ref.shape[2], ref.shape[3])
        top = pad_[2] if len(pad_) > 2 else 0
        for vname, fn in T.pad_variants(x3, y3, top, pad_[0]):
            measure(row, "triton", vname, fn, out, ref, fresh)
    plan = PD.plan_for(x.shape, x.stride(), pad_, 2, "zero")
    measure_ours(row, plan.kind, PD.variants(plan, "bfloat16"),
                 lambda k: PD.run(plan, x, out, 0, k), out, ref, fresh)
    rows = PD.rows_plan(plan)   # aligned rows: the rows kernel beside the boxes
    if rows is not None:
        measure(row, "ours", "rows kernel", lambda: PD.run(rows, x, out, 0), out, ref, fresh)
    y = tm_pad(x, pad_)
    if not exact(y, ref):
        row.record("ours", "pad() call", 1.0, False)
    row.real_bytes = (n + ref.numel()) * 2
    row.settle(args.rounds, *args.copy)
    del x, ref, out, y
    torch.cuda.empty_cache()
    return row


def unfold_row(layout, args) -> Row:
    shape, k, p, s, d = UNFOLD_BENCH
    n, c, h, w = shape
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
    if layout == "NHWC":
        x = x.permute(0, 2, 3, 1).contiguous()
    plan = U.plan_for(x.shape, 2, k, p, s, d, layout)
    spec = plan.spec
    if layout == "NCHW":
        ref = F.unfold(x, k, dilation=d, padding=p, stride=s)
        torch_fn = (lambda: F.unfold(x, k, dilation=d, padding=p, stride=s))
        label = "F.unfold"
    else:
        def torch_fn():
            cols = F.unfold(x.permute(0, 3, 1, 2), k, dilation=d, padding=p, stride=s)
            taps = cols.shape[1] // c
            return cols.view(n, c, taps, -1).permute(0, 3, 2, 1).reshape(n, -1, taps * c)
        ref = torch_fn()
        label = "F.unfold of the NCHW view, reordered to (N, L, kh kw C)"
    row = Row(f"unfold {k}x{k} pad {p} {layout} " + "x".join(map(str, x.shape)),
              (x.numel() + ref.numel()) * 2)
    print(f"{row.name}: {row.nbytes / 2**30:.2f} GiB (input + output)", flush=True)
    row.record("torch", label, bench(torch_fn), True, torch_fn)
    out = torch.empty_like(ref)

    def fresh():
        out.fill_(float("nan"))

    if not args.no_triton:
        for vname, fn in T.unfold_variants(x, out, spec):
            measure(row, "triton", vname, fn, out, ref, fresh)
    measure_ours(row, plan.kind, U.variants(plan), lambda k: U.run(plan, x, out, k),
                 out, ref, fresh)
    y = tm_unfold(x, k, padding=p, stride=s, dilation=d, layout=layout)
    if not exact(y, ref):
        row.record("ours", "unfold() call", 1.0, False)
    row.settle(args.rounds, *args.copy)
    del x, ref, out, y
    torch.cuda.empty_cache()
    return row


def copy_reference() -> tuple:
    """(TB/s of torch copy_ of 2 GiB of bf16, read + written; the copy's
    function and bytes, which every row's rounds time again)."""
    a = torch.randn(TRANSPOSE_BENCH, device="cuda", dtype=torch.bfloat16)
    b = torch.empty_like(a)
    nbytes = 2 * 2 * TRANSPOSE_BENCH[0] * TRANSPOSE_BENCH[1]
    fn = (lambda: b.copy_(a))
    return nbytes / bench(fn) / 1e9, (fn, nbytes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", default=None)
    parser.add_argument("--rows", default=None,
                        help="comma-separated words: run the rows whose names hold "
                             "one (a comma followed by a space is part of a word, as in "
                             "'permute (4, 3')")
    parser.add_argument("--no-triton", action="store_true")
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved rounds of each row's finalists (0: first pass only)")
    parser.add_argument("--doc", default=None,
                        help="rewrite this script's table in that document (docs/performance.md)")
    args = parser.parse_args()
    try:
        want = R.row_filter(args.rows)
    except ValueError as e:
        parser.error(str(e))

    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"triton {triton.__version__}", flush=True)
    copy_tbps, args.copy = copy_reference()
    print(f"torch copy_ (2 GiB bf16): {copy_tbps:.2f} TB/s", flush=True)
    rows = []
    table = [(TRANSPOSE_BENCH, (1, 0))] + PERMUTE_BENCH
    for shape, dims in table:
        if want(R.permute_row_name(shape, dims)):
            rows.append(permute_row(shape, dims, args))
    for case in (PAD_BENCH, PAD_WIDEN_BENCH, PAD_OUTER_BENCH):
        if want(R.pad_row_name(case)) or want("pad"):
            rows.append(pad_row(case, args))
    for layout in ("NCHW", "NHWC"):
        if want(f"unfold {layout}") or want("unfold"):
            rows.append(unfold_row(layout, args))

    print(f"\n{'operation':52s} {'copy_':>6s} {'torch':>6s} {'triton':>6s} {'ours':>6s} "
          f"{'/copy_':>6s} {'/triton':>7s} {'/torch':>6s} {'default':>7s}  goal "
          f"(ours: our fastest kernel; default: what the op runs, of copy_)")
    failed = []
    summary = []
    for row in rows:
        torch_r, triton_r, ours_r = row.best("torch"), row.best("triton"), row.best("ours")
        wrong = [f"{r['who']} {r['name']}" for r in row.results if r["exact"] is False]
        failed += [f"{row.name}: {n}" for n in wrong if n.startswith("ours")]
        peers_wrong = [n for n in wrong if not n.startswith("ours")]
        if peers_wrong:   # a peer's variant that is not exact is left out of its best
            print(f"  ({row.name}: inexact, not counted: {', '.join(peers_wrong)})")
        if ours_r is None:
            print(f"{row.name:52s} no exact result of ours")
            continue
        copy_r = row.best("copy")   # copy_ in this row's rounds, else the first one
        row_copy = copy_r["tbps"] if copy_r else copy_tbps
        vs_copy = ours_r["tbps"] / row_copy
        vs_triton = ours_r["tbps"] / triton_r["tbps"] if triton_r else float("nan")
        vs_torch = ours_r["tbps"] / torch_r["tbps"]
        default_tbps = row.default_tbps()
        default_vs_copy = default_tbps / row_copy if default_tbps is not None else float("nan")
        if row.name.startswith("unfold"):
            goal = vs_torch >= GOAL_UNFOLD
        elif row.name.startswith("transpose"):
            goal = vs_triton >= GOAL_TRANSPOSE and vs_copy >= GOAL_COPY
        else:
            goal = vs_copy >= GOAL_COPY and not vs_triton < 1.0
        print(f"{row.name:52s} {row_copy:6.2f} {torch_r['tbps']:6.2f} "
              f"{triton_r['tbps'] if triton_r else float('nan'):6.2f} {ours_r['tbps']:6.2f} "
              f"{vs_copy:6.3f} {vs_triton:7.3f} {vs_torch:6.2f} {default_vs_copy:7.3f}  "
              f"{'met' if goal else 'NOT MET'}  ({ours_r['name']}; triton: "
              f"{triton_r['name'] if triton_r else '-'})")
        summary.append({"row": row.name, "bytes": row.nbytes, "results": row.results,
                        "rounds": [{"who": w, "name": n, "tbps": v}
                                   for (w, n), v in row.rounds.items()],
                        "ours": ours_r, "triton": triton_r, "torch": torch_r,
                        "default": {"name": row.default, "tbps": default_tbps},
                        "copy_tbps": row_copy, "vs_copy": vs_copy, "vs_triton": vs_triton,
                        "vs_torch": vs_torch,
                        "goal_met": goal, "op_call_ms": getattr(row, "op_call_ms", None)})
    if failed:
        print("\nNOT EXACT: " + "; ".join(failed))
    if args.json:
        Path(args.json).write_text(json.dumps({
            "device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "triton": triton.__version__, "copy_tbps": copy_tbps, "rows": summary},
            indent=1))
    if args.doc and summary:  # bench/perf_doc.py
        import perf_doc
        perf_doc.write(args.doc, "bench/layout.py", perf_doc.layout_table(summary),
                       torch.cuda.get_device_name())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
