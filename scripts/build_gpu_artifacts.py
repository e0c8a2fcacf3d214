"""Builds every GPU test kernel into a folder of artifacts (cubin + manifest).

Run where MLIR is installed; carry the folder to the GPU machine and run
`pytest test/gpu` there (see docs/NOTES.md).
"""

import argparse
import json
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / ".artifacts"))
    parser.add_argument("--arch", default="sm_90a")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from tile_mlir import compiler

    sys.path.insert(0, str(ROOT / "test" / "gpu"))
    from gpu_kernels import build_case  # noqa: E402
    from cases import all_cases  # noqa: E402

    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    compiler.compile(seed["tma_load"], args.arch).save(out / "seed")
    names = ["seed"]
    failed = []
    for case in all_cases():
        try:
            artifact = compiler.compile(build_case(case), args.arch)
        except Exception as err:  # report every broken case, not just the first
            failed.append(case["name"])
            print(f"{case['name']}: {type(err).__name__}: {err}", file=sys.stderr)
            continue
        folder = artifact.save(out / case["name"])
        (folder / "case.json").write_text(json.dumps(case, indent=1) + "\n")
        names.append(case["name"])
    (out / "index.json").write_text(json.dumps({"arch": args.arch, "cases": names}) + "\n")
    print(f"built {len(names)} artifacts into {out}")
    if failed:
        print(f"{len(failed)} cases failed to build: {failed}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
