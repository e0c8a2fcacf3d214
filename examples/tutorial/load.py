"""Tutorial 1 (docs/tutorial.md): a TMA load.

Each CTA loads one 16 x 32 float32 box of A (100 x 32) into shared memory
with one `tile.tma_copy`, waits for it on an mbarrier, and its threads copy
the box to Out (112 x 32). The last box starts at row 96 and runs past A's
row 99: the copy engine fills those rows with zeros (`oob_fill=0`).

    python examples/tutorial/load.py    # build, compile, and run where a GPU is
"""

import sys

import numpy as np

from tile_mlir import compiler, tma
from tile_mlir.kernel import (Tensor, alloc_shared, block_id, cta_sync, if_, kernel,
                              mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_wait,
                              range_, thread_id, unravel)

ROWS, COLS = 100, 32
BOX = (16, 32)                      # rows x columns: 32 float32 = one 128-byte row
CTAS = -(-ROWS // BOX[0])           # 7 boxes, one per CTA
THREADS = 128
LOAD = tma.format_opcode(direction="load", rank=2)
# cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes


@kernel(grid=CTAS, block=THREADS)
def tma_load(A: Tensor((ROWS, COLS), "float32"),
             Out: Tensor((CTAS * BOX[0], COLS), "float32")):
    tid = thread_id()
    row0 = block_id() * BOX[0]
    tile = alloc_shared(BOX, "float32", align=128)      # a TMA box starts 128-byte aligned
    bar = alloc_shared((1,), "uint64", align=8).ptr_to([0])
    with if_(tid == 0):
        mbarrier_init(bar, 1)       # one arrival per phase: thread 0's, below
    cta_sync()                      # every thread waits on bar: the init comes first
    with if_(tid == 0):
        # Arm the barrier for the bytes of the copies tagged "box" (2048),
        # then issue the copy: loads take (shared, global).
        mbarrier_arrive_expect_tx(bar, tma.tx_bytes("box"))
        tma.apply(LOAD, tile, A, box=BOX, coords=(row0, 0), mbar=bar, oob_fill=0,
                  tag="box")
    mbarrier_wait(bar, 0)           # phase 0 completes once all 2048 bytes landed
    for i in range_(tid, BOX[0] * BOX[1], THREADS):
        r, c = unravel(i, BOX)
        Out[row0 + r, c] = tile[r, c]


def expected(a: np.ndarray) -> np.ndarray:
    """Out: A's rows, then zeros where the last box ran past A."""
    out = np.zeros((CTAS * BOX[0], COLS), np.float32)
    out[:ROWS] = a
    return out


def run(launch, rng) -> None:
    """Runs the kernel (an Artifact or a runtime Module) on random data and
    checks Out bit for bit."""
    a = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    out = np.full((CTAS * BOX[0], COLS), np.nan, np.float32)
    launch(a, out)
    assert np.array_equal(out.view(np.uint32), expected(a).view(np.uint32)), "Out differs"


def main() -> int:
    from tile_mlir.runtime.driver import gpu_available
    from tile_mlir.toolchain import find_ptxas

    module = tma_load.build()       # traced and verified (each copy as it was built)
    copy = tma.find_copies(module)[0]
    print(f"built: {copy}".splitlines()[0])
    print(f"transaction bytes: {tma.transaction_bytes(copy)}")
    has_ptxas = find_ptxas() is not None
    artifact = compiler.compile(tma_load, cubin=has_ptxas)
    print(next(line.strip() for line in artifact.ptx.splitlines()
               if "cp.async.bulk.tensor" in line))
    ok, why = gpu_available()
    if not has_ptxas or not ok:
        print(f"skipped the run: {'no ptxas (no cubin)' if not has_ptxas else why}")
        return 0
    run(artifact, np.random.default_rng())
    print("ran on the GPU: Out matches A bit for bit, rows 100..111 are zeros")
    return 0


if __name__ == "__main__":
    sys.exit(main())
