"""Tutorial 3 (docs/tutorial.md): a multicast load in a cluster.

A cluster of 2 CTAs: each CTA initialises and arms its own mbarrier, the
cluster synchronises, then CTA 0 issues one multicast load whose `cta_mask`
names both CTAs. The copy engine writes the same 16 x 32 uint32 box into
each CTA's shared memory (at the same offset) and completes each CTA's
barrier (at the same offset). Every CTA waits on its own barrier and copies
its box to Out[rank].

    python examples/tutorial/multicast.py   # build, compile, and run where a GPU is
"""

import sys

import numpy as np

from tile_mlir import compiler, tma
from tile_mlir.kernel import (Tensor, alloc_shared, cluster_ctarank, cluster_sync, if_,
                              fence_mbarrier_init_cluster, kernel,
                              mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_wait,
                              range_, thread_id, unravel)

CLUSTER = 2                         # CTAs per cluster (up to 16 with cta_mask's 16 bits)
BOX = (16, 32)
THREADS = 128
MULTICAST = tma.format_opcode(direction="load", rank=2, dst_cluster=True, multicast=True)
# cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
#   .multicast::cluster


@kernel(grid=CLUSTER, block=THREADS, cluster=CLUSTER)
def tma_multicast(A: Tensor(BOX, "uint32"), Out: Tensor((CLUSTER,) + BOX, "uint32")):
    tid = thread_id()
    rank = cluster_ctarank()
    tile = alloc_shared(BOX, "uint32", align=128)
    bar = alloc_shared((1,), "uint64", align=8).ptr_to([0])
    with if_(tid == 0):             # every CTA: its own barrier, armed for the box
        mbarrier_init(bar, 1)
        mbarrier_arrive_expect_tx(bar, tma.tx_bytes("box"))
    # The issuing CTA's copy completes the other CTAs' barriers: their
    # initialisation must be visible cluster-wide before it is issued.
    fence_mbarrier_init_cluster()
    cluster_sync()
    with if_(tid == 0):
        with if_(rank == 0):        # one CTA issues for all that cta_mask names
            tma.apply(MULTICAST, tile, A, box=BOX, coords=(0, 0), mbar=bar,
                      cta_mask=(1 << CLUSTER) - 1, tag="box")
    mbarrier_wait(bar, 0)           # each CTA: its own barrier's phase 0
    for i in range_(tid, BOX[0] * BOX[1], THREADS):
        r, c = unravel(i, BOX)
        Out[rank, r, c] = tile[r, c]
    cluster_sync()                  # no CTA leaves while the cluster still works


def run(launch, rng) -> None:
    """Runs the kernel (an Artifact or a runtime Module) on random data and
    checks every CTA's box bit for bit."""
    a = rng.integers(0, 2**32, size=BOX, dtype=np.uint32)
    out = np.full((CLUSTER,) + BOX, 0xDEADBEEF, np.uint32)
    launch(a, out)
    for rank in range(CLUSTER):
        assert np.array_equal(out[rank], a), f"CTA {rank}'s box differs from A"


def main() -> int:
    from tile_mlir.runtime.driver import gpu_available
    from tile_mlir.toolchain import find_ptxas

    module = tma_multicast.build()  # traced and verified
    copy = tma.find_copies(module)[0]
    print(f"built: {copy}".splitlines()[0])
    has_ptxas = find_ptxas() is not None
    artifact = compiler.compile(tma_multicast, cubin=has_ptxas)
    print(next(line.strip() for line in artifact.ptx.splitlines()
               if "multicast::cluster" in line))
    ok, why = gpu_available()
    if not has_ptxas or not ok:
        print(f"skipped the run: {'no ptxas (no cubin)' if not has_ptxas else why}")
        return 0
    run(artifact, np.random.default_rng())
    print(f"ran on the GPU: each of the {CLUSTER} CTAs received A bit for bit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
