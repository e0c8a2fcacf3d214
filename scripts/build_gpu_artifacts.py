"""Builds every GPU test kernel into a folder of artifacts (cubin + manifest).

Run where MLIR is installed; carry the folder to the GPU machine and run
`pytest test/gpu` there (see docs/performance.md, "GPU test results").
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
    from tile_mlir.testing.cases import all_cases
    from tile_mlir.testing.gpu_kernels import build_case, build_dynamic_beside_static

    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    seed_artifact = compiler.compile(seed["tma_load"], args.arch)
    seed_artifact.save(out / "seed")
    record_host_encode(seed_artifact, out / "seed", "tma_load", (16, 16), "uint32")
    names = ["seed"]
    failed = []
    # Dynamic shared memory beside static buffers (test/gpu/test_dynamic_shared.py).
    compiler.compile(build_dynamic_beside_static(), args.arch).save(
        out / "dynamic_beside_static")
    names.append("dynamic_beside_static")
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
    build_bench_kernels(out / "bench_kernels", args.arch, compiler)
    build_debug_kernels(out / "debug", args.arch, compiler, seed["tma_load"])
    build_tutorial(out / "tutorial", args.arch, compiler)
    build_wgmma(out / "wgmma", args.arch, compiler)
    populate_cache(out / "cache", args.arch)
    (out / "index.json").write_text(json.dumps({"arch": args.arch, "cases": names}) + "\n")
    print(f"built {len(names)} artifacts into {out}")
    if failed:
        print(f"{len(failed)} cases failed to build: {failed}", file=sys.stderr)
    return 1 if failed else 0


# docs/tutorial.md's kernels (examples/tutorial/*.py), for test/gpu/test_tutorial_kernels.py.
TUTORIAL = ("load", "store", "multicast")


def build_tutorial(folder: Path, arch: str, compiler) -> None:
    """Each tutorial script's @kernel into folder/NAME (run_path does not
    run the script's main)."""
    from tile_mlir.kernel import KernelDef

    for name in TUTORIAL:
        script = runpy.run_path(str(ROOT / "examples" / "tutorial" / f"{name}.py"))
        (kernel,) = [v for v in script.values() if isinstance(v, KernelDef)]
        compiler.compile(kernel, arch).save(folder / name)


# Recipe lists (MODULE:FUNCTION) of the kernels GPU tests and benchmarks load
# through the compile cache (tile_mlir.cache.load_kernel); the GPU machine,
# which has no MLIR, loads them from the carried <out>/cache.
CACHE_RECIPES = (
    "tile_mlir.testing.runtime_kernels:cache_recipes",
    "tile_mlir.testing.grouped_copy_bench:bench_recipes",
)


def build_wgmma(folder: Path, arch: str, compiler) -> None:
    """The warpgroup MMA kernels of test/gpu/test_wgmma_tma.py, and the
    matrix of test/gpu/test_wgmma_matrix.py into folder's sibling
    wgmma_matrix/: every valid kernel checked, the planted mismatches with
    checks off (the verifier rejects them), each with its config.json."""
    import dataclasses

    from tile_mlir.testing import wgmma_plan
    from tile_mlir.testing.wgmma_kernels import (NS, RUNTIME_SCALE_N, SWIZZLED_EPILOGUES,
                                                 build, build_registers_epilogue,
                                                 build_swizzled_epilogue,
                                                 build_wgmma_bf16)

    kernels = [build_wgmma_bf16(n) for n in NS]
    kernels.append(build_wgmma_bf16(RUNTIME_SCALE_N, runtime_scale=True))
    kernels.append(build_registers_epilogue())
    kernels += [build_swizzled_epilogue(dtype, swizzle) for dtype, swizzle in SWIZZLED_EPILOGUES]
    for kd in kernels:
        compiler.compile(kd, arch).save(folder / kd.name)
    matrix = folder.parent / "wgmma_matrix"
    names = []
    for cfg in wgmma_plan.matrix() + wgmma_plan.planted():
        checks = cfg.plant is None
        saved = compiler.compile(build(cfg, checks=checks), arch).save(matrix / cfg.name)
        (saved / "config.json").write_text(json.dumps(
            {**dataclasses.asdict(cfg), "checks": checks}) + "\n")
        names.append(cfg.name)
    (matrix / "index.json").write_text(json.dumps(names, indent=1) + "\n")
    print(f"built {len(names)} wgmma matrix kernels into {matrix}")


def populate_cache(folder: Path, arch: str) -> None:
    import os
    os.environ["TILE_MLIR_CACHE_DIR"] = str(folder)
    from tile_mlir import cache
    count = sum(cache.populate(spec, arches=(arch,)) for spec in CACHE_RECIPES)
    print(f"cached {count} kernels into {folder}")


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

    import mlir.ir as ir
    from tile_mlir import kernel as K
    from tile_mlir.testing.host_encoder import HostEncoder, aligned_empty

    (spec,) = artifact.kernel(kernel)["tensor_maps"]
    with ir.Context(), ir.Location.unknown():
        memref_type = str(K.Tensor(shape, dtype).memref_type())
    encoder = HostEncoder(spec, memref_type)
    call = encoder(aligned_empty(shape, np.dtype(dtype)))
    recorded = {k: v for k, v in call.items() if k not in ("map", "address")}
    recorded["function"] = encoder.function
    (folder / "host_encode.json").write_text(json.dumps(recorded) + "\n")


# Small instances of the benchmark kernels (tile_mlir.kernels) for
# test/gpu/test_bench_kernels.py: the same builders as bench/build_bench.py,
# on tensors that take milliseconds.
BENCH_COPIES = [  # (rows, cols, box, stages, grid, store_lag)
    (1024, 2048, (64, 128), 4, 8, 1), (512, 1024, (32, 128), 3, 20, 2),
    (1024, 1024, (64, 64), 8, 3, 3),
    (256, 256, (64, 128), 4, 4, 1),  # 8 tiles: fewer than the prologue claims
]
BENCH_TRANSPOSES = [  # (rows, cols, tile, threads, order, wide)
    (512, 768, (128, 128), 512, "column", "both"), (512, 768, (128, 128), 256, "row", "both"),
    (384, 256, (64, 64), 128, "row", ""), (512, 256, (128, 64), 128, "column", "out"),
    (256, 512, (64, 128), 128, "column", "in"),
]
BENCH_DYNAMIC_TRANSPOSES = [  # (rows, cols, tile, stages, store_lag, grid, threads)
    (1024, 768, (128, 128), 3, 1, 5, 256), (512, 1024, (128, 64), 6, 3, 3, 128),
    (256, 256, (128, 128), 3, 1, 3, 256),  # 4 tiles for 3 CTAs of 3 stages
]


def build_bench_kernels(folder: Path, arch: str, compiler) -> None:
    from tile_mlir.kernels import (build_copy_dynamic, build_transpose_dynamic,
                                   build_transpose_one_tile)

    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for rows, cols, box, stages, grid, lag in BENCH_COPIES:
        name = f"dynamic_{rows}x{cols}_{box[0]}x{box[1]}_s{stages}_g{grid}_lag{lag}"
        compiler.compile(build_copy_dynamic(rows, cols, box=box, stages=stages, grid=grid,
                                            store_lag=lag), arch).save(folder / name)
        entries.append({"name": name, "kind": "dynamic_copy", "rows": rows, "cols": cols,
                        "box": box, "grid": grid,
                        "tiles": rows * cols // (box[0] * box[1])})
    for rows, cols, tile, threads, order, wide in BENCH_TRANSPOSES:
        name = f"transpose_{rows}x{cols}_{tile[0]}x{tile[1]}_t{threads}_{order}_wide{wide}"
        wide_in, wide_out = wide in ("in", "both"), wide in ("out", "both")
        compiler.compile(build_transpose_one_tile(
            rows, cols, tile=tile, threads=threads, order=order, wide_in=wide_in,
            wide_out=wide_out), arch).save(folder / name)
        entries.append({"name": name, "kind": "transpose", "rows": rows, "cols": cols,
                        "in_shape": [rows, cols // 64, 64] if wide_in else [rows, cols],
                        "out_shape": [cols, rows // 64, 64] if wide_out else [cols, rows]})
    for rows, cols, tile, stages, lag, grid, threads in BENCH_DYNAMIC_TRANSPOSES:
        name = f"transpose_dynamic_{rows}x{cols}_{tile[0]}x{tile[1]}_s{stages}_g{grid}"
        compiler.compile(build_transpose_dynamic(
            rows, cols, tile=tile, stages=stages, store_lag=lag, grid=grid,
            threads=threads), arch).save(folder / name)
        entries.append({"name": name, "kind": "dynamic_transpose", "rows": rows,
                        "cols": cols, "grid": grid,
                        "tiles": rows * cols // (tile[0] * tile[1]),
                        "in_shape": [rows, cols // 64, 64],
                        "out_shape": [cols, rows // 64, 64]})
    (folder / "index.json").write_text(json.dumps(entries, indent=1) + "\n")
    print(f"built {len(entries)} benchmark kernels into {folder}")


# Debug builds (compile(..., debug=True), docs/debug-mode.md) for
# test/gpu/test_debug_mode.py: the planted-fault kernels
# (tile_mlir.testing.debug_kernels), the contract's example, two of the
# pipelined bench copies (no false alarm on ring barriers) and, for the
# cost in docs/performance.md (bench/debug_cost.py), one 2 GiB copy in both forms.
DEBUG_COPIES = [  # (kind, rows, cols, box, stages, grid, store_lag)
    ("dynamic_copy", 1024, 2048, (64, 128), 4, 8, 1),
    ("ws_copy", 1024, 2048, (64, 128), 4, 8, 2),
]
DEBUG_COST = (32768, 32768, (64, 128), 4, 132, 1)  # build_copy_dynamic, bench's shape


def build_debug_kernels(folder: Path, arch: str, compiler, seed) -> None:
    from tile_mlir.kernels import build_copy_dynamic, build_copy_ws
    from tile_mlir.testing.debug_kernels import KERNELS

    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for name, build in KERNELS.items():
        compiler.compile(build(), arch, debug=True).save(folder / name)
        entries.append({"name": name, "kind": name})
    compiler.compile(seed, arch, debug=True).save(folder / "seed")
    entries.append({"name": "seed", "kind": "seed"})
    for kind, rows, cols, box, stages, grid, lag in DEBUG_COPIES:
        name = f"{kind}_{rows}x{cols}_{box[0]}x{box[1]}_s{stages}_g{grid}_lag{lag}"
        build = build_copy_dynamic if kind == "dynamic_copy" else build_copy_ws
        compiler.compile(build(rows, cols, box=box, stages=stages, grid=grid,
                               store_lag=lag), arch, debug=True).save(folder / name)
        entries.append({"name": name, "kind": kind, "rows": rows, "cols": cols})
    rows, cols, box, stages, grid, lag = DEBUG_COST
    for debug in (False, True):
        name = f"cost_{'debug' if debug else 'release'}"
        compiler.compile(build_copy_dynamic(rows, cols, box=box, stages=stages, grid=grid,
                                            store_lag=lag), arch, debug=debug
                         ).save(folder / name)
        entries.append({"name": name, "kind": "cost", "debug": debug, "rows": rows,
                        "cols": cols, "box": box, "stages": stages, "grid": grid,
                        "store_lag": lag})
    (folder / "index.json").write_text(json.dumps(entries, indent=1) + "\n")
    print(f"built {len(entries)} debug-mode kernels into {folder}")


def build_random(args, out: Path, compiler, build_case) -> list:
    """Seeded random cases into out/random; a form the verifier rejects is
    counted and replaced (the generator aims at valid forms)."""
    import random

    from tile_mlir.errors import TileError
    from tile_mlir.testing.random_cases import random_case

    folder = out / "random"
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    built, rejected, failed = [], {}, []
    while len(built) < args.random:
        case = random_case(rng, len(built))
        try:
            artifact = compiler.compile(build_case(case), args.arch)
        except compiler.CompileError as err:  # a failing stage is no rejection
            failed.append(case["name"])
            print(f"{case['name']}: {type(err).__name__}: {err}", file=sys.stderr)
            continue
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
