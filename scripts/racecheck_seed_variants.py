"""The contract's example (examples/seed_tma_load.py) in a few barrier-setup
forms, to see which one compute-sanitizer's racecheck accepts.

Every form inits the mbarrier (lane 0), arms it with 1024 transaction bytes
(lane 0), issues the two 8x16 uint32 TMA loads (lane 0), waits (all lanes)
and copies shared memory to Out; they differ only in what separates the
init from the arrive (kernel.mbarrier_init itself now ends with
fence.proxy.async.shared::cta, so every form has that fence after the init;
before it did, racecheck reported 18 warnings on form a and b, none on c-e):

  a  init; arrive.expect_tx; CTA barrier              (the example as written)
  b  init; fence.mbarrier_init.release.cluster; arrive.expect_tx; CTA barrier
  c  init; fence.proxy.async.shared::cta; arrive.expect_tx; CTA barrier
  d  init; CTA barrier; arrive.expect_tx
  e  init; fence.mbarrier_init.release.cluster; CTA barrier; arrive.expect_tx

Here (MLIR installed): `--build` writes .artifacts/racecheck/seed_<form>.
On the GPU machine (cuda-python, the artifacts carried over):

    python3 scripts/racecheck_seed_variants.py --variant a
    compute-sanitizer --tool racecheck --racecheck-report all \\
        python3 scripts/racecheck_seed_variants.py --variant a

runs the form on an arange input and on a random one and prints whether
Out equals the input both times (exit status 1 if not).
"""

import argparse
import runpy
import sys
from pathlib import Path

from tile_mlir.testing.racecheck import VARIANTS, build

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIR = ROOT / ".artifacts" / "racecheck"


def build_all(out: Path) -> list:
    """Every form into out/seed_<form> (form a: the example file itself)."""
    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))["tma_load"]
    return build(out, seed)


def run(form: str, folder: Path, seed: int) -> bool:
    import numpy as np

    from tile_mlir import runtime

    if not (folder / f"seed_{form}").is_dir():
        print(f"variant {form}: no artifact at {folder / f'seed_{form}'} (build it here "
              "with --build or bench/build_bench.py); check FAILED")
        return False
    mod = runtime.load(folder / f"seed_{form}")
    ok = True
    for label, x in (("arange", np.arange(256, dtype="uint32").reshape(16, 16)),
                     ("random", np.random.default_rng(seed).integers(
                         0, 2**32, size=(16, 16), dtype=np.uint32))):
        out = np.full_like(x, 0xDEADBEEF)
        mod(x, out)
        same = bool(np.array_equal(out, x))
        ok &= same
        print(f"variant {form} ({VARIANTS[form]}): {label} input: "
              f"{'output == input' if same else 'OUTPUT DIFFERS'}"
              + ("" if same else f" ({int((out != x).sum())} of 256 words)"))
    print(f"variant {form}: check {'PASSED' if ok else 'FAILED'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", action="append", choices=[*VARIANTS, "all"],
                        help="form(s) to run on the GPU (repeatable; 'all')")
    parser.add_argument("--build", action="store_true",
                        help="compile every form (needs MLIR; no GPU)")
    parser.add_argument("--artifacts", default=str(DEFAULT_DIR))
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    folder = Path(args.artifacts)
    if args.build:
        folder.mkdir(parents=True, exist_ok=True)
        print(f"built {', '.join(build_all(folder))} into {folder}")
    if not args.variant:
        if not args.build:
            parser.error("give --variant X (on the GPU) or --build (here)")
        return 0
    forms = list(VARIANTS) if "all" in args.variant else args.variant
    results = [run(form, folder, args.seed) for form in forms]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
