"""The main job: the contract's example (examples/seed_tma_load.py) end to end.

Builds the kernel with the Python builder, verifies it, and prints the
verified `tile` IR with the byte accounting of its copy.
"""

import argparse
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.parse_args()
    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    kernel = seed["tma_load"]

    from tile_mlir import tma

    module = kernel.build()
    copies = tma.find_copies(module)
    print("== verified tile IR ==")
    print(module)
    for op in copies:
        print(f"tile.tma_copy: {tma.slot_count(op)} instructions, "
              f"{tma.transaction_bytes(op)} bytes a phase")
    return 0


if __name__ == "__main__":
    sys.exit(main())
