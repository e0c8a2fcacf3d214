"""Compile time on this machine's CPU.

1. Cold compile of the contract's example: Python builder -> verified IR ->
   PTX -> cubin, in a fresh process each time (imports included), median of 5.
2. tile-opt --tile-lower-tma on modules of N tile.tma_copy ops, N from 1,000
   to 20,000: wall time and time per op (linear growth means a flat per-op
   column).
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "build" / "python_packages"

COLD = """
import time, runpy, sys
t0 = time.perf_counter()
from tile_mlir import compiler
seed = runpy.run_path(sys.argv[1])
artifact = compiler.compile(seed["tma_load"], "sm_90a")
assert artifact.cubin
print(time.perf_counter() - t0)
"""


def cold_compile(runs: int = 5) -> list[float]:
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", COLD,
                              str(ROOT / "examples" / "seed_tma_load.py")],
                             capture_output=True, text=True, check=True,
                             env={"PYTHONPATH": str(PKG), "PATH": "/usr/local/bin:/usr/bin:/bin"})
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return times


def module_with(n: int) -> str:
    ops = "\n".join(
        f"    tile.tma_copy load tile 2d %s, %A[%c{i % 8}, %c0] mbar(%bar) "
        f"{{box = array<i64: 8, 16>}} : memref<8x16xf32, 3>, memref<64x64xf32>"
        for i in range(n))
    consts = "\n".join(f"    %c{i} = arith.constant {i * 8} : i32" for i in range(8))
    return f"""gpu.module @k {{
  memref.global "private" @smem : memref<8x16xf32, 3> {{alignment = 1024}}
  gpu.func @many(%A: memref<64x64xf32>, %bar: !llvm.ptr<3>) kernel {{
{consts}
    %s = memref.get_global @smem : memref<8x16xf32, 3>
{ops}
    gpu.return
  }}
}}
"""


def lowering_scaling(sizes) -> list[dict]:
    tile_opt = PKG / "tile_mlir" / "bin" / "tile-opt"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"m{n}.mlir"
            path.write_text(module_with(n))
            best = None
            for _ in range(3):
                start = time.perf_counter()
                subprocess.run([str(tile_opt), str(path), "--tile-lower-tma", "-o",
                                str(Path(tmp) / "out.mlir")], check=True)
                elapsed = time.perf_counter() - start
                best = elapsed if best is None else min(best, elapsed)
            rows.append({"ops": n, "seconds": best, "us_per_op": best / n * 1e6})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None)
    parser.add_argument("--doc", default=None,
                        help="rewrite this script's table in that document (docs/performance.md)")
    args = parser.parse_args()
    cold = cold_compile()
    print(f"cold compile, builder to cubin (seed example): median "
          f"{statistics.median(cold) * 1e3:.0f} ms  (runs: "
          f"{', '.join(f'{t * 1e3:.0f}' for t in cold)} ms)")
    rows = lowering_scaling([1000, 2000, 5000, 10000, 20000])
    print(f"{'ops':>6s} {'tile-lower-tma s':>17s} {'us/op':>7s}")
    for row in rows:
        print(f"{row['ops']:6d} {row['seconds']:17.3f} {row['us_per_op']:7.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"cold_compile_s": cold, "lowering": rows},
                                              indent=1))
    if args.doc:  # bench/perf_doc.py; a CPU benchmark: no card, no driver
        import perf_doc
        perf_doc.write(args.doc, "bench/compile_time.py", perf_doc.compile_table(cold, rows),
                       perf_doc.cpu_name(), driver="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
