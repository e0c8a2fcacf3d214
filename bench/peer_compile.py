"""Triton's cold compile of a 16x16 TMA copy kernel (GPU machine): a fresh
process with an empty cache, import to compiled kernel; median of 3."""

import os
import statistics
import subprocess
import sys
import tempfile

SCRIPT = """
import time
t0 = time.perf_counter()
import torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

@triton.jit
def tile16(in_desc, out_desc):
    out_desc.store([0, 0], in_desc.load([0, 0]))

a = torch.randn(16, 16, device="cuda", dtype=torch.bfloat16)
b = torch.empty_like(a)
tile16[(1,)](TensorDescriptor.from_tensor(a, [16, 16]), TensorDescriptor.from_tensor(b, [16, 16]))
torch.cuda.synchronize()
assert torch.equal(a, b)
print(time.perf_counter() - t0)
"""


def main() -> int:
    times = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as cache:
            script = f"{cache}/tile16.py"  # @triton.jit needs a source file
            with open(script, "w") as f:
                f.write(SCRIPT)
            out = subprocess.run([sys.executable, script], capture_output=True,
                                 text=True, env={**os.environ, "TRITON_CACHE_DIR": cache})
            if out.returncode != 0:
                print(out.stderr[-2000:], file=sys.stderr)
                return 1
            times.append(float(out.stdout.strip().splitlines()[-1]))
    print(f"triton cold compile+launch of a 16x16 TMA kernel: median "
          f"{statistics.median(times) * 1e3:.0f} ms (runs: "
          f"{', '.join(f'{t * 1e3:.0f}' for t in times)} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
