"""Launch overhead from Python (GPU machine): microseconds per launch of a
tiny kernel, host wall time over many back-to-back launches, in one run:
raw cuda-python cuLaunchKernel of an empty kernel, our bound TMA launch
(tensor maps cached), our full call (checks + cached maps each time), a
cuda-python cuTensorMapEncodeTiled, and Triton with reused TensorDescriptors."""

import argparse
import ctypes
import json
import sys
import time
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from tile_mlir import runtime
from tile_mlir.runtime.driver import cuda
from tile_mlir.runtime.tensormap import encode
from tile_mlir.spec import TensorMapSpec
from tile_mlir.runtime.arrays import device_view

ROOT = Path(__file__).resolve().parents[1]

N = 20000


def per_launch_us(fn, n=N) -> float:
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / n * 1e6


@triton.jit
def triton_tile(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    out_desc.store([0, 0], in_desc.load([0, 0]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    artifacts = ROOT / ".artifacts" / "bench"
    drv = cuda()
    rows = {}

    empty = runtime.load(artifacts / "empty")
    fn = empty.kernels["empty"].function
    params = (ctypes.c_void_p * 1)()
    raw = lambda: drv.cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, 0, ctypes.addressof(params), 0)
    rows["cuda-python cuLaunchKernel (empty kernel)"] = per_launch_us(raw)

    small = runtime.load(artifacts / "tma_small")
    a = torch.arange(256, dtype=torch.int32, device="cuda").reshape(16, 16)
    out = torch.zeros_like(a)
    small(a, out)
    assert torch.equal(a, out), "tma_small copied wrongly"
    bound = small.bind(a, out)
    rows["tile-mlir bound launch (maps encoded once)"] = per_launch_us(bound)
    rows["tile-mlir full call (checks each time, cached maps)"] = per_launch_us(
        lambda: small(a, out, sync=False), n=5000)
    spec = TensorMapSpec.from_json(small.artifact.kernel()["tensor_maps"][0])
    view = device_view(a, 0)
    rows["cuda-python cuTensorMapEncodeTiled"] = per_launch_us(lambda: encode(spec, view), n=5000)

    t_in = torch.randn(64, 64, device="cuda", dtype=torch.bfloat16)
    t_out = torch.empty_like(t_in)
    din = TensorDescriptor.from_tensor(t_in, [16, 16])
    dout = TensorDescriptor.from_tensor(t_out, [16, 16])
    rows["triton launch, reused TensorDescriptors"] = per_launch_us(
        lambda: triton_tile[(1,)](din, dout, BM=16, BN=16), n=5000)

    base = rows["cuda-python cuLaunchKernel (empty kernel)"]
    print(f"{'launch path':46s} {'us':>7s} {'vs raw':>7s}")
    for name, us in rows.items():
        print(f"{name:46s} {us:7.2f} {us / base:7.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
