"""Launch overhead from Python (GPU machine), in one run: microseconds per
launch, host wall time over back-to-back launches (median of 9 rounds):

  raw cuda-python cuLaunchKernel of an empty kernel (the floor through
  cuda-python), our bind() (checks and maps done once), our plain call
  `mod(x, out)` on torch tensors (the cached call path), the plain call with
  two int32 scalars, a CUDA graph replay of our launches (per launch), and
  Triton's launch with reused TensorDescriptors.

Kernels come from the compile cache ($TILE_MLIR_CACHE_DIR, default
.artifacts/cache; scripts/build_gpu_artifacts.py populates it)."""

import argparse
import ctypes
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("TILE_MLIR_CACHE_DIR", str(ROOT / ".artifacts" / "cache"))

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

from tile_mlir import cache  # noqa: E402
from tile_mlir.runtime import launch as launch_path  # noqa: E402
from tile_mlir.runtime.driver import cuda  # noqa: E402

N = 5000
ROUNDS = 9


def per_launch_us(fn, n=N) -> float:
    """Median over rounds of the mean host time per call of `fn`."""
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
        rounds.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(rounds)


@triton.jit
def triton_tile(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    out_desc.store([0, 0], in_desc.load([0, 0]))


def graph_us(fn, per_graph=100) -> float:
    """Per launch, replaying a CUDA graph of `per_graph` captured calls."""
    fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(per_graph):
            fn()
    return per_launch_us(graph.replay, n=200) / per_graph


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None)
    parser.add_argument("--doc", default=None,
                        help="rewrite this script's table in that document (docs/performance.md)")
    args = parser.parse_args()
    drv = cuda()
    rows = {}
    print("bound launches go through " + (
        "the C extension runtime/_launch" if launch_path.NATIVE_LAUNCH else
        f"cuda-python (runtime/_launch unavailable: {launch_path.NATIVE_LAUNCH_ERROR})"))

    empty = cache.load_kernel("tile_mlir.kernels.copy.launch_cost:build_empty")
    fn = empty.kernels["empty"].function
    params = (ctypes.c_void_p * 1)()
    raw = lambda: drv.cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0,  # noqa: E731
                                     ctypes.addressof(params), 0)
    rows["cuda-python cuLaunchKernel (empty kernel)"] = per_launch_us(raw)

    small = cache.load_kernel("tile_mlir.kernels.copy.launch_cost:build_two_box_load")
    a = torch.randint(-2**31, 2**31 - 1, (16, 16), dtype=torch.int32, device="cuda")
    out = torch.zeros_like(a)
    small(a, out)
    torch.cuda.synchronize()
    assert torch.equal(a, out), "tma_small copied wrongly"
    bound = small.bind(a, out)
    kfn = small.kernels["tma_small"].function
    rows["cuda-python cuLaunchKernel (same TMA kernel, bound params)"] = per_launch_us(
        lambda: drv.cuLaunchKernel(kfn, 1, 1, 1, 32, 1, 1, 0, 0, bound.kernel_params, 0))
    rows["tile-mlir bind() launch"] = per_launch_us(bound)
    rows["tile-mlir call mod(x, out)"] = per_launch_us(lambda: small(a, out))

    box = cache.load_kernel("tile_mlir.testing.runtime_kernels:build_box_at", dtype="float32")
    x = torch.randn(64, 128, device="cuda")
    y = torch.zeros_like(x)
    box(x, y, 16, 64)
    torch.cuda.synchronize()
    assert torch.equal(y[16:32, 64:], x[16:32, 64:]), "box_at copied wrongly"
    rows["tile-mlir call with 2 scalars"] = per_launch_us(lambda: box(x, y, 16, 64))
    rows["tile-mlir call, CUDA graph replay (per launch)"] = graph_us(lambda: small(a, out))

    t_in = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    t_out = torch.empty_like(t_in)
    din = TensorDescriptor.from_tensor(t_in, [16, 16])
    dout = TensorDescriptor.from_tensor(t_out, [16, 16])
    rows["triton launch, reused TensorDescriptors"] = per_launch_us(
        lambda: triton_tile[(1,)](din, dout, BM=16, BN=16))

    base = rows["cuda-python cuLaunchKernel (empty kernel)"]
    same = rows["cuda-python cuLaunchKernel (same TMA kernel, bound params)"]
    triton_us = rows["triton launch, reused TensorDescriptors"]
    print(f"{'launch path':58s} {'us':>7s} {'vs raw':>7s} {'vs triton':>9s}")
    for name, us in rows.items():
        print(f"{name:58s} {us:7.2f} {us / base:7.2f} {us / triton_us:9.3f}")
    call = rows["tile-mlir call mod(x, out)"]
    print(f"goal: call <= 8 us and <= triton/3 ({triton_us / 3:.2f}): "
          f"{'met' if call <= min(8.0, triton_us / 3) else 'NOT met'}; "
          f"bind() <= raw launch of the same kernel (x{rows['tile-mlir bind() launch'] / same:.3f}): "
          f"{'met' if rows['tile-mlir bind() launch'] <= same else 'NOT met'}")
    if args.json:
        rows["native launch"] = launch_path.NATIVE_LAUNCH
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if args.doc:  # bench/perf_doc.py
        import perf_doc
        perf_doc.write(args.doc, "bench/launch_overhead.py", perf_doc.launch_table(rows),
                       torch.cuda.get_device_name())
    return 0


if __name__ == "__main__":
    sys.exit(main())
