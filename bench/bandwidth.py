"""Copy bandwidth on the GPU: our TMA copy kernels vs torch.Tensor.copy_ and a
Triton TMA copy (TensorDescriptor; persistent and not, a few block shapes),
all in one run on a 2 GiB bf16 2-D tensor. Counts bytes read + written.
Prints a table of TB/s and ratios to torch; writes JSON to --json.

Run on the GPU machine after bench/build_bench.py built .artifacts/bench.
"""

import argparse
import json
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

ROOT = Path(__file__).resolve().parents[1]
for candidate in (ROOT / "build" / "python_packages", ROOT / "python"):
    if (candidate / "tile_mlir").is_dir():
        sys.path.insert(0, str(candidate))
        break

from tile_mlir import runtime  # noqa: E402


@triton.jit
def triton_copy(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    out_desc.store([m, n], in_desc.load([m, n]))


@triton.jit
def triton_copy_persistent(in_desc, out_desc, M, N, BM: tl.constexpr, BN: tl.constexpr,
                           GRID: tl.constexpr, STAGES: tl.constexpr):
    tiles_n = N // BN
    tiles = (M // BM) * tiles_n
    for t in tl.range(tl.program_id(0), tiles, GRID, num_stages=STAGES):
        m = (t // tiles_n) * BM
        n = (t % tiles_n) * BN
        out_desc.store([m, n], in_desc.load([m, n]))


def bench(fn, reps=20) -> float:
    """Median milliseconds (device events, after warm-up)."""
    return triton.testing.do_bench(fn, warmup=25, rep=reps * 5, return_mode="median")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None)
    parser.add_argument("--artifacts", default=str(ROOT / ".artifacts" / "bench"))
    args = parser.parse_args()
    folder = Path(args.artifacts)
    index = json.loads((folder / "index.json").read_text())
    rows, cols = index["rows"], index["cols"]
    nbytes = 2 * rows * cols * 2  # read + write, bf16

    a = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    b = torch.empty_like(a)
    results = []

    def record(name, ms, ok=True):
        results.append({"name": name, "ms": ms, "tbps": nbytes / ms / 1e9, "exact": ok})

    record("torch copy_", bench(lambda: b.copy_(a)))
    # One direction at a time, scaled to copy-equivalent bytes (2x).
    record("torch read only (a.sum) x2", 2 * bench(lambda: a.sum(dtype=torch.float32)))
    record("torch write only (b.fill_) x2", 2 * bench(lambda: b.fill_(1.0)))

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for bm, bn in ((64, 128), (128, 128), (128, 64), (64, 256)):
        din = TensorDescriptor.from_tensor(a, [bm, bn])
        dout = TensorDescriptor.from_tensor(b, [bm, bn])
        b.zero_()
        grid = (rows // bm, cols // bn)
        triton_copy[grid](din, dout, BM=bm, BN=bn)
        torch.cuda.synchronize()
        record(f"triton tma {bm}x{bn}", bench(lambda: triton_copy[grid](din, dout, BM=bm, BN=bn)),
               bool(torch.equal(a, b)))
        for mult, stages in ((1, 3), (2, 3), (2, 4)):
            g = sms * mult
            b.zero_()
            run = lambda: triton_copy_persistent[(g,)](din, dout, rows, cols, BM=bm, BN=bn,
                                                       GRID=g, STAGES=stages)
            run()
            torch.cuda.synchronize()
            record(f"triton tma persistent {bm}x{bn} g{g} s{stages}", bench(run),
                   bool(torch.equal(a, b)))

    for variant in index["variants"]:
        mod = runtime.load(folder / variant["name"])
        va = a.view(variant["rows"], variant["cols"])
        vb = b.view(variant["rows"], variant["cols"])
        b.zero_()
        mod(va, vb)
        ok = bool(torch.equal(a, b))
        launch = mod.bind(va, vb)  # checked and encoded once, like Triton's reused descriptors
        record(f"tile-mlir {variant['name']}", bench(launch), ok)

    torch_tbps = results[0]["tbps"]
    triton_best = max(r["tbps"] for r in results if r["name"].startswith("triton"))
    print(f"{'kernel':48s} {'ms':>8s} {'TB/s':>6s} {'vs torch':>8s} exact")
    for r in results:
        print(f"{r['name']:48s} {r['ms']:8.3f} {r['tbps']:6.2f} "
              f"{r['tbps'] / torch_tbps:8.3f} {r['exact']}")
    ours = max((r for r in results if r["name"].startswith("tile-mlir")),
               key=lambda r: r["tbps"])
    print(f"\nbest tile-mlir: {ours['name']} {ours['tbps']:.2f} TB/s = "
          f"{ours['tbps'] / torch_tbps:.3f} of torch, {ours['tbps'] / triton_best:.3f} "
          f"of Triton's best ({triton_best:.2f} TB/s)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
