"""The main job: the contract's example (examples/seed_tma_load.py) end to end.

build (Python builder) -> verify -> lower (tile-lower-tma) -> PTX -> cubin,
saved into an output folder (--out, default out/seed); then on a GPU: run on
fresh data and check the output equals the input; without one: run the NumPy
emulator on the same copy and say which of GPU, driver, cuda-python is
missing. One line a step; --verbose adds the tile IR, the lowered copies, the
PTX copy instructions and the emulated shared image.
"""

import argparse
import runpy
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arch", default="sm_90a", choices=("sm_90a", "sm_100a"))
    parser.add_argument("--out", type=Path, default=Path("out/seed"),
                        help="folder for kernel.ptx, kernel.cubin and the manifest")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    # Each step's line as it happens, also into a pipe or a CI log.
    sys.stdout.reconfigure(line_buffering=True)

    from tile_mlir import compiler, contract, emulator, tma
    from tile_mlir.runtime.driver import gpu_available

    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    kernel = seed["tma_load"]

    module = kernel.build()  # verifies: a rejected copy raises, naming its rule
    copies = list(tma.find_copies(module))
    verify_rules = sum(1 for r in contract.RULES.values() if r.kind == "verify")
    shape = ", ".join(f"{tma.slot_count(op)} instructions, "
                      f"{tma.transaction_bytes(op)} bytes a phase" for op in copies)
    print(f"verified: {len(copies)} tile.tma_copy ({shape}), {verify_rules} rules checked")
    if args.verbose:
        print(module)

    lowered = str(compiler.lower_to_nvvm(module)).splitlines()
    bulk = [line.strip() for line in lowered if "nvvm.cp.async.bulk.tensor" in line]
    print(f"lowered: tile-lower-tma, {len(bulk)} nvvm.cp.async.bulk.tensor")
    if args.verbose:
        print("\n".join(bulk))

    ptxas = compiler.find_ptxas()
    artifact = compiler.compile(kernel, args.arch, cubin=ptxas is not None)
    ptx_copies = [line.strip() for line in artifact.ptx.splitlines()
                  if "cp.async.bulk.tensor" in line]
    print(f"PTX: {args.arch}, {len(ptx_copies)} cp.async.bulk.tensor")
    if args.verbose:
        print("\n".join(ptx_copies))
    if artifact.cubin is None:
        print("cubin: skipped (no ptxas on PATH or in CUDA_HOME)")
    else:
        print(f"cubin: {len(artifact.cubin)} bytes")
    folder = artifact.save(args.out)
    print(f"output: {folder}")

    ok, why = gpu_available()
    if ok and artifact.cubin is not None:
        from tile_mlir import runtime
        kernel_on_gpu = runtime.load(folder)
        x = np.arange(256, dtype=np.uint32).reshape(16, 16)
        rand = np.random.default_rng().integers(0, 2**32, size=(16, 16), dtype=np.uint32)
        results = []
        for name, data in (("arange(256)", x), ("fresh random", rand)):
            out = np.zeros_like(data)
            kernel_on_gpu(data, out)
            results.append((name, bool(np.array_equal(out, data))))
        same = all(equal for _, equal in results)
        print("GPU check: " + ", ".join(f"{name} {'equal' if equal else 'DIFFERENT'}"
                                        for name, equal in results)
              + f": {'passed' if same else 'FAILED'}")
        return 0 if same else 1

    print(f"GPU check skipped: {why if not ok else 'no cubin (no ptxas)'}")
    seed_input = np.arange(256, dtype=np.uint32).reshape(16, 16)
    shared = np.zeros(2 * 8 * 16 * 4, dtype=np.uint8)
    emulator.load_slots(shared, seed_input, box=(8, 16), coords=(0, 0),
                        coord_steps=[(8, 0)], repeat_shape=(2,))
    image = shared.view(np.uint32).reshape(2, 8, 16)
    if args.verbose:
        np.set_printoptions(linewidth=160)
        print("shared image (repeat, row, col) as uint32, for x = arange(256):")
        print(image)
    same = bool(np.array_equal(image.reshape(16, 16), seed_input))
    print(f"emulator check: shared image equals the input: {'passed' if same else 'FAILED'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
