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
    parser.add_argument("--random", type=int, default=0,
                        help="also build this many seeded random cases (differential run)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from tile_mlir import compiler

    sys.path.insert(0, str(ROOT / "test" / "gpu"))
    from gpu_kernels import build_case  # noqa: E402
    from cases import all_cases  # noqa: E402

    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    seed_artifact = compiler.compile(seed["tma_load"], args.arch)
    seed_artifact.save(out / "seed")
    record_host_encode(seed_artifact, out / "seed", "tma_load", (16, 16), "uint32")
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
        if case["name"] in HOST_ENCODE_CASES:
            record_host_encode(artifact, folder, case["name"],
                               tuple(case["gshape"]), case["dtype"])
        names.append(case["name"])
    if args.random:
        failed += build_random(args, out, compiler, build_case)
    (out / "index.json").write_text(json.dumps({"arch": args.arch, "cases": names}) + "\n")
    print(f"built {len(names)} artifacts into {out}")
    if failed:
        print(f"{len(failed)} cases failed to build: {failed}", file=sys.stderr)
    return 1 if failed else 0


# Sweep cases whose tensor map is also encoded by the MLIR host lowering
# (test/gpu/test_host_path.py replays the recorded arguments).
HOST_ENCODE_CASES = ("im2col_nhwc_pad1",)


def record_host_encode(artifact, folder: Path, kernel: str, shape: tuple,
                       dtype: str) -> None:
    """Runs the MLIR host lowering (tile-lower-tma-host, JIT-compiled) for the
    kernel's tensor map over an array of `shape` and `dtype` and records the
    arguments it passes cuTensorMapEncodeTiled (or cuTensorMapEncodeIm2col:
    `function` says which) into host_encode.json;
    test/gpu/test_host_path.py encodes with exactly these on the GPU."""
    import numpy as np

    sys.path.insert(0, str(ROOT / "test" / "python"))
    from test_host_lowering import HostEncoder, aligned_empty  # noqa: E402
    import mlir.ir as ir  # noqa: E402
    from tile_mlir import kernel as K  # noqa: E402

    (spec,) = artifact.kernel(kernel)["tensor_maps"]
    with ir.Context(), ir.Location.unknown():
        memref_type = str(K.Tensor(shape, dtype).memref_type())
    encoder = HostEncoder(spec, memref_type)
    call = encoder(aligned_empty(shape, np.dtype(dtype)))
    recorded = {k: v for k, v in call.items() if k not in ("map", "address")}
    recorded["function"] = encoder.function
    (folder / "host_encode.json").write_text(json.dumps(recorded) + "\n")


def build_random(args, out: Path, compiler, build_case) -> list:
    """Seeded random cases into out/random; a form the verifier rejects is
    counted and replaced (the generator aims at valid forms)."""
    import random

    from random_cases import random_case  # noqa: E402
    from tile_mlir.errors import TileError

    folder = out / "random"
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    built, rejected, failed = [], {}, []
    while len(built) < args.random:
        case = random_case(rng, len(built))
        try:
            artifact = compiler.compile(build_case(case), args.arch)
        except TileError as err:
            rejected[err.rule] = rejected.get(err.rule, 0) + 1
            continue
        except Exception as err:
            failed.append(case["name"])
            print(f"{case['name']}: {type(err).__name__}: {err}", file=sys.stderr)
            continue
        case_dir = artifact.save(folder / case["name"])
        (case_dir / "kernel.ptx").unlink()  # the cubin is what runs; keep the carry small
        (case_dir / "case.json").write_text(json.dumps(case) + "\n")
        built.append(case["name"])
    (folder / "index.json").write_text(json.dumps(
        {"seed": args.seed, "cases": built, "rejected_and_resampled": rejected}) + "\n")
    print(f"built {len(built)} random cases (seed {args.seed}); resampled "
          f"{sum(rejected.values())} rejected forms: {rejected}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
