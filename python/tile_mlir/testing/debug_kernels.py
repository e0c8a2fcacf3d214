"""Kernels with planted faults for the debug-mode GPU tests (needs MLIR).

Each takes its fault from a runtime value, so the verifier (and any static
barrier accounting) cannot see it and the same artifact also runs correctly:
test/gpu/test_debug_mode.py launches each with the fault, expects the named
TileRuntimeError, then launches it correctly in the same process and
compares bit for bit. scripts/build_gpu_artifacts.py builds them (debug and
release) into debug/<name>/.

* expect_tx: one 32x64 float32 box (8192 bytes) into shared memory; the
  mbarrier's expect_tx bytes are Tx[0] (4096: [barrier-tx-mismatch]).
* no_arrive: the same load, its barrier armed only when Tx[0] > 0: Tx[0] = 0
  leaves it with no arrive at all ([mbarrier-timeout]). (A barrier no code
  arms is [mbarrier-unarmed] at build; a runtime branch hides it.)
* coords: a load from A at (C[0], C[1]) and a store of the box to Out at
  (C[2], C[3]); an innermost C[1] of 3 elements (12 bytes) is
  [inner-coord-alignment], a negative C[2] [store-coords-nonnegative].
* wgmma_rounds (tile_mlir.testing.wgmma_kernels.build_rounds): three
  rounds of TMA loads and wgmmas on one mbarrier, whose phases a slow
  producer keeps open Delay[0] ns; waiting on the wrong barrier (W[0] =
  1) or on a phase already past (Par) lets the MMA read a tile whose phase
  is open ([wgmma-unwaited-copy]).
"""

from math import prod

from .. import builder as K
from .. import tma
from .wgmma_kernels import build_rounds

THREADS = 128
BOX = (32, 64)
DTYPE = "float32"
BOX_BYTES = prod(BOX) * 4  # 8192
COORDS_SHAPE = (64, 128)
LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def _to_global(shared, out, tid):
    for flat in K.range_(tid, prod(BOX), THREADS):
        index = K.unravel(flat, BOX)
        out[index] = shared[index]


def _box_and_barrier():
    """Thread id, a swizzle-aligned box buffer and its mbarrier, initialized
    by thread 0 and visible to the CTA."""
    tid = K.thread_id()
    shared = K.alloc_shared(BOX, DTYPE, align=1024)
    bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
    with K.if_(tid == 0):
        K.mbarrier_init(bar, 1)
    K.cta_sync()
    return tid, shared, bar


def _load_kernel(name: str, arrive: bool) -> K.KernelDef:
    def body(A, Tx, Out):
        tid, shared, bar = _box_and_barrier()
        with K.if_(tid == 0):
            if arrive:
                K.mbarrier_arrive_expect_tx(bar, Tx[0])
            else:
                with K.if_(Tx[0] > 0):
                    K.mbarrier_arrive_expect_tx(bar, Tx[0])
            tma.apply(LOAD, shared, A, box=BOX, coords=(0, 0), mbar=bar)
        K.mbarrier_wait(bar, 0)
        K.cta_sync()
        _to_global(shared, Out, tid)

    params = [("A", K.Tensor(BOX, DTYPE)), ("Tx", K.Tensor((1,), "i32")),
              ("Out", K.Tensor(BOX, DTYPE))]
    return K.KernelDef(body, grid=1, block=THREADS, params=params, name=name)


def build_expect_tx() -> K.KernelDef:
    return _load_kernel("debug_expect_tx", arrive=True)


def build_no_arrive() -> K.KernelDef:
    return _load_kernel("debug_no_arrive", arrive=False)


def build_coords() -> K.KernelDef:
    def body(A, C, Out):
        tid, shared, bar = _box_and_barrier()
        with K.if_(tid == 0):
            K.mbarrier_arrive_expect_tx(bar, BOX_BYTES)
            tma.apply(LOAD, shared, A, box=BOX, coords=(C[0], C[1]), mbar=bar)
        K.mbarrier_wait(bar, 0)
        with K.if_(tid == 0):
            tma.apply(STORE, Out, shared, box=BOX, coords=(C[2], C[3]))
            K.bulk_commit_group()
            K.bulk_wait_group(0)

    params = [("A", K.Tensor(COORDS_SHAPE, DTYPE)), ("C", K.Tensor((4,), "i32")),
              ("Out", K.Tensor(COORDS_SHAPE, DTYPE))]
    return K.KernelDef(body, grid=1, block=THREADS, params=params, name="debug_coords")


# name -> builder; each is built in debug and release form.
KERNELS = {"expect_tx": build_expect_tx, "no_arrive": build_no_arrive,
           "coords": build_coords, "wgmma_rounds": build_rounds}
