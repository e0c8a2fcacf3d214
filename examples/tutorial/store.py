"""Tutorial 2 (docs/tutorial.md): a TMA store, with its fence and bulk group.

Each CTA's threads write one 16 x 32 uint32 box into shared memory (from A,
with ordinary loads), then one thread stores the box to B with one
`tile.tma_copy`. The order that makes it correct: the threads' shared
writes, `fence_proxy_async_shared_cta` (the writes become visible to the
copy engine), a CTA barrier, the store, `bulk_commit_group`,
`bulk_wait_group`. The last box runs past B's row 99: the store drops
those rows.

    python examples/tutorial/store.py   # build, compile, and run where a GPU is
"""

import sys

import numpy as np

from tile_mlir import compiler, tma
from tile_mlir.kernel import (Tensor, alloc_shared, block_id, bulk_commit_group,
                              bulk_wait_group, cta_sync, fence_proxy_async_shared_cta,
                              if_, kernel, range_, thread_id, unravel)

ROWS, COLS = 100, 32
BOX = (16, 32)
CTAS = -(-ROWS // BOX[0])           # 7 boxes, one per CTA
THREADS = 128
STORE = tma.format_opcode(direction="store", rank=2)
# cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group


@kernel(grid=CTAS, block=THREADS)
def tma_store(A: Tensor((ROWS, COLS), "uint32"), B: Tensor((ROWS, COLS), "uint32")):
    tid = thread_id()
    row0 = block_id() * BOX[0]
    tile = alloc_shared(BOX, "uint32", align=128)
    for i in range_(tid, BOX[0] * BOX[1], THREADS):
        r, c = unravel(i, BOX)
        with if_(row0 + r < ROWS):  # rows past A's end stay unwritten: never stored
            tile[r, c] = A[row0 + r, c]
    # Shared writes by threads (the generic proxy) are not seen by the copy
    # engine (the async proxy) until each writing thread fences them...
    fence_proxy_async_shared_cta()
    cta_sync()                      # ...and every thread has written and fenced
    with if_(tid == 0):
        # Stores take (global, shared): the destination first, as in PTX.
        tma.apply(STORE, B, tile, box=BOX, coords=(row0, 0))
        bulk_commit_group()         # the stores issued so far form one group
        bulk_wait_group(0)          # wait for it: shared memory is not freed under it


def run(launch, rng) -> None:
    """Runs the kernel (an Artifact or a runtime Module) on random data and
    checks B bit for bit."""
    a = rng.integers(0, 2**32, size=(ROWS, COLS), dtype=np.uint32)
    b = np.full_like(a, 0xDEADBEEF)
    launch(a, b)
    assert np.array_equal(b, a), "B differs from A"


def main() -> int:
    from tile_mlir.runtime.driver import gpu_available
    from tile_mlir.toolchain import find_ptxas

    module = tma_store.build()      # traced and verified
    copy = tma.find_copies(module)[0]
    print(f"built: {copy}".splitlines()[0])
    has_ptxas = find_ptxas() is not None
    artifact = compiler.compile(tma_store, cubin=has_ptxas)
    for line in artifact.ptx.splitlines():
        if "fence.proxy.async" in line or "cp.async.bulk" in line:
            print(line.strip())
    ok, why = gpu_available()
    if not has_ptxas or not ok:
        print(f"skipped the run: {'no ptxas (no cubin)' if not has_ptxas else why}")
        return 0
    run(artifact, np.random.default_rng())
    print("ran on the GPU: B matches A bit for bit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
