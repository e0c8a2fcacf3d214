"""2-D transpose bandwidth on the GPU: our TMA transpose kernels
(tile_mlir.kernels) vs torch `x.t().contiguous()` and Triton
transposes (tl.load / tl.trans / tl.store with block pointers, and with
TensorDescriptor; a few block shapes each), all in one run on the same
bf16 matrix (16384 x 16384, 512 MiB, from transpose_index.json). Every
result is checked with torch.equal against x.t(). Counts bytes read +
written. Prints a table of TB/s and ratios to torch; writes JSON to --json.

Run on the GPU machine after bench/build_bench.py built .artifacts/bench:
    python bench/transpose.py --json transpose.json
"""

import argparse
import json
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

from tile_mlir import runtime

ROOT = Path(__file__).resolve().parents[1]

try:
    from triton.tools.tensor_descriptor import TensorDescriptor
except ImportError:  # older Triton: block pointers only
    TensorDescriptor = None


@triton.jit
def triton_transpose_blockptr(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(N, 1),
                            offsets=(pid_m * BM, pid_n * BN), block_shape=(BM, BN),
                            order=(1, 0))
    dst = tl.make_block_ptr(y_ptr, shape=(N, M), strides=(M, 1),
                            offsets=(pid_n * BN, pid_m * BM), block_shape=(BN, BM),
                            order=(1, 0))
    tl.store(dst, tl.trans(tl.load(src)))


@triton.jit
def triton_transpose_desc(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    out_desc.store([n, m], tl.trans(in_desc.load([m, n])))


TRITON_SHAPES = ((32, 32, 4), (64, 64, 4), (64, 64, 8), (128, 64, 4), (64, 128, 4),
                 (128, 128, 8))


def bench(fn, reps=20) -> float:
    """Median milliseconds (device events, after warm-up)."""
    return triton.testing.do_bench(fn, warmup=25, rep=reps * 5, return_mode="median")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", default=None)
    parser.add_argument("--artifacts", default=str(ROOT / ".artifacts" / "bench"))
    parser.add_argument("--only", default=None,
                        help="run only our variants whose name contains this")
    parser.add_argument("--no-triton", action="store_true")
    parser.add_argument("--doc", default=None,
                        help="rewrite this script's table in that document (docs/performance.md)")
    args = parser.parse_args()
    folder = Path(args.artifacts)
    index = json.loads((folder / "transpose_index.json").read_text())
    rows, cols = index["rows"], index["cols"]
    nbytes = 2 * rows * cols * 2  # read + write, bf16

    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(cols, rows, device="cuda", dtype=torch.bfloat16)
    results = []

    def record(name, ms, ok):
        r = {"name": name, "ms": ms, "tbps": nbytes / ms / 1e9, "exact": ok}
        results.append(r)
        print(f"  {name:60s} {ms:8.3f} ms {r['tbps']:6.2f} TB/s exact={ok}", flush=True)

    def check(result) -> bool:
        torch.cuda.synchronize()
        return bool(torch.equal(result, x.t()))

    def fresh():
        out.fill_(float("nan"))  # no stale transpose can pass the check

    print(f"{torch.cuda.get_device_name()}: {rows}x{cols} bf16, "
          f"{nbytes / 2**30:.2f} GiB moved per transpose", flush=True)
    record("torch x.t().contiguous()", bench(lambda: x.t().contiguous()),
           check(x.t().contiguous()))
    fresh()
    out.copy_(x.t())
    record("torch out.copy_(x.t())", bench(lambda: out.copy_(x.t())), check(out))
    plain = torch.empty_like(x)
    copy_ms = bench(lambda: plain.copy_(x))
    copy_ref = {"name": "torch copy_ (no transpose, reference)", "ms": copy_ms,
                "tbps": nbytes / copy_ms / 1e9, "exact": None}
    del plain

    if not args.no_triton:
        for bm, bn, warps in TRITON_SHAPES:
            grid = (rows // bm, cols // bn)
            try:
                fresh()
                triton_transpose_blockptr[grid](x, out, rows, cols, BM=bm, BN=bn,
                                                num_warps=warps)
                ok = check(out)
                record(f"triton block_ptr {bm}x{bn} w{warps}", bench(
                    lambda: triton_transpose_blockptr[grid](x, out, rows, cols, BM=bm,
                                                            BN=bn, num_warps=warps)), ok)
            except Exception as err:  # a shape Triton cannot compile: report, go on
                print(f"  triton block_ptr {bm}x{bn} w{warps}: {type(err).__name__}: "
                      f"{str(err).splitlines()[0] if str(err) else ''}", flush=True)
            if TensorDescriptor is None:
                continue
            try:
                din = TensorDescriptor.from_tensor(x, [bm, bn])
                dout = TensorDescriptor.from_tensor(out, [bn, bm])
                fresh()
                triton_transpose_desc[grid](din, dout, BM=bm, BN=bn, num_warps=warps)
                ok = check(out)
                record(f"triton tma desc {bm}x{bn} w{warps}", bench(
                    lambda: triton_transpose_desc[grid](din, dout, BM=bm, BN=bn,
                                                        num_warps=warps)), ok)
            except Exception as err:
                print(f"  triton tma desc {bm}x{bn} w{warps}: {type(err).__name__}: "
                      f"{str(err).splitlines()[0] if str(err) else ''}", flush=True)

    for variant in index["variants"]:
        if args.only and args.only not in variant["name"]:
            continue
        mod = runtime.load(folder / variant["name"])
        # A 3-D box sees its matrix as (rows, cols / 64, 64): the same bytes.
        xv = x.view(*variant["in_shape"]) if variant.get("in_shape") else x
        ov = out.view(*variant["out_shape"]) if variant.get("out_shape") else out
        if variant.get("check") == "copy":  # a plain copy of x, for reference
            extra = [torch.zeros(2, device=x.device, dtype=torch.int32)] \
                if variant.get("counter") else []
            launch = mod.bind(x, out, *extra)
            fresh()
            launch()
            torch.cuda.synchronize()
            record(f"reference {variant['name']} (copy, no transpose)", bench(launch),
                   None if torch.equal(out, x) else False)
            continue
        # The dynamic kernels' tile counter: zero, and each launch leaves it zero.
        counter = [torch.zeros(2, device=x.device, dtype=torch.int32)] \
            if variant.get("counter") else []
        launch = mod.bind(xv, ov, *counter)  # checked and encoded once, like reused descriptors
        if not variant.get("check", True):  # a traffic-pattern diagnostic
            record(f"diagnostic {variant['name']}", bench(launch), None)
            continue
        fresh()
        mod(xv, ov, *counter)
        ok = check(out) and all(not c.any() for c in counter)
        record(f"tile-mlir {variant['name']}", bench(launch), ok)
        fresh()
        launch()
        if not check(out) or any(c.any() for c in counter):  # the bound launch too
            results[-1]["exact"] = False

    torch_tbps = results[0]["tbps"]
    exact = [r for r in results if r["exact"]]
    triton_runs = [r for r in exact if r["name"].startswith("triton")]
    print(f"\n{'kernel':60s} {'ms':>8s} {'TB/s':>6s} {'vs torch':>8s} exact")
    for r in results + [copy_ref]:
        print(f"{r['name']:60s} {r['ms']:8.3f} {r['tbps']:6.2f} "
              f"{r['tbps'] / torch_tbps:8.3f} {r['exact']}")
    ours = [r for r in exact if r["name"].startswith("tile-mlir")]
    wrong = [r["name"] for r in results if r["exact"] is False]
    if wrong:
        print(f"\nNOT EXACT: {', '.join(wrong)}")
    if ours:
        best = max(ours, key=lambda r: r["tbps"])
        line = (f"\nbest tile-mlir: {best['name']} {best['tbps']:.2f} TB/s = "
                f"{best['tbps'] / torch_tbps:.3f} of torch x.t().contiguous() "
                f"({torch_tbps:.2f} TB/s)")
        if triton_runs:
            tbest = max(triton_runs, key=lambda r: r["tbps"])
            line += (f", {best['tbps'] / tbest['tbps']:.3f} of Triton's best "
                     f"({tbest['name']}, {tbest['tbps']:.2f} TB/s)")
        print(line + f"; plain copy_ moves {copy_ref['tbps']:.2f} TB/s")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "triton": triton.__version__, "rows": rows, "cols": cols,
            "dtype": "bfloat16", "bytes_moved": nbytes,
            "results": results + [copy_ref]}, indent=1))
    if args.doc:  # bench/perf_doc.py
        import perf_doc
        perf_doc.write(args.doc, "bench/transpose.py",
                       perf_doc.transpose_table(results + [copy_ref]),
                       torch.cuda.get_device_name())
    return 0 if not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
