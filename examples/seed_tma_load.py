"""The contract's example: two explicit 8x16 uint32 boxes into shared memory.

One elected lane issues two loads at (0, 0) and (8, 0), 512 bytes each; one
mbarrier phase expects 1024 bytes; the kernel copies shared memory to Out.
"""

from tile_mlir.kernel import (Tensor, alloc_shared, cta_sync, grid, if_, kernel,
                              lane_id, mbarrier_arrive_expect_tx, mbarrier_init,
                              mbarrier_wait)
from tile_mlir.tma import apply

OPCODE = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"


@kernel(grid=1, block=32)
def tma_load(A: Tensor((16, 16), "uint32"), Out: Tensor((16, 16), "uint32")):
    lane = lane_id()
    shared = alloc_shared((2, 8, 16), "uint32", layout="default", align=128)
    mbar = alloc_shared((1,), "uint64", layout="default", align=8)
    with if_(lane == 0):
        mbarrier_init(mbar.ptr_to([0]), 1)
        mbarrier_arrive_expect_tx(mbar.ptr_to([0]), 1024)
    cta_sync()
    with if_(lane == 0):
        apply(OPCODE, shared, A, box=(8, 16), coords=(0, 0),
              coord_steps=((8, 0),), mbar=mbar.ptr_to([0]))
    mbarrier_wait(mbar.ptr_to([0]), 0)
    cta_sync()
    for g, r in grid(2, 8):
        with if_(lane < 16):
            Out[g * 8 + r, lane] = shared[g, r, lane]


if __name__ == "__main__":
    print(tma_load.build())
