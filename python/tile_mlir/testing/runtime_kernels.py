"""Kernels for the runtime's GPU tests and the launch-overhead benchmark
(scalar parameters, streams, array libraries, the cached call path),
compiled through the compile cache: `cache_recipes()` lists them for
`tile-mlir cache populate tile_mlir.testing.runtime_kernels:cache_recipes`.

* scalar_echo: thread 0 stores each of its seven scalar parameters (int32,
  uint32, int64, uint64, float32, float64, index) into small output
  buffers, so the host reads back exactly the bits the kernel received.
* box_at: one TMA load of a `box` from A at the runtime coordinates
  (row, col) (two int32 scalars) and its TMA store into B at the same
  place; A and B have a runtime row count, so one artifact serves any
  number of rows. The tensor maps come after the scalars in the
  parameter list, which is what the launcher's packing must get right.
"""

from __future__ import annotations

from mlir.dialects import arith

from .. import builder as K
from .. import tma
from ..kernels import build_copy, build_empty, build_two_box_load

THREADS = 32
SCALAR_DTYPES = ("int32", "uint32", "int64", "uint64", "float32", "float64", "index")


def build_scalar_echo() -> K.KernelDef:
    """Out32 = [int32, uint32], Out64 = [int64, uint64, index],
    OutF32 = [float32], OutF64 = [float64] (bit patterns)."""

    def body(Out32, Out64, OutF32, OutF64, a, b, c, d, e, f, g):
        i64 = K.element_type("i64")
        with K.if_(K.thread_id() == 0):
            Out32[0] = a
            Out32[1] = b
            Out64[0] = c
            Out64[1] = d
            Out64[2] = K.Expr(arith.index_cast(i64, g.value))
            OutF32[0] = e
            OutF64[0] = f

    params = [("Out32", K.Tensor((2,), "i32")), ("Out64", K.Tensor((3,), "i64")),
              ("OutF32", K.Tensor((1,), "float32")), ("OutF64", K.Tensor((1,), "float64"))]
    params += [(name, K.Scalar(dtype)) for name, dtype in zip("abcdefg", SCALAR_DTYPES)]
    return K.KernelDef(body, grid=1, block=THREADS, params=params, name="scalar_echo")


def build_box_at(cols: int = 128, box=(16, 64), dtype: str = "float32") -> K.KernelDef:
    """B[row:row+box0, col:col+box1] = A[...], (row, col) int32 scalars; A and
    B are (rows, cols) with rows known at run time."""
    load = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
    store = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"

    def body(A, B, row, col):
        tid = K.thread_id()
        shared = K.alloc_shared(tuple(box), dtype, align=128)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
            K.fence_proxy_async_shared_cta()
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("box"))
            tma.apply(load, shared, A, box=tuple(box), coords=(row, col), mbar=bar,
                      tag="box")
            K.mbarrier_wait(bar, 0)
            tma.apply(store, B, shared, box=tuple(box), coords=(row, col))
            K.bulk_commit_group()
            K.bulk_wait_group(0)

    tensor = K.Tensor((None, cols), dtype)
    return K.KernelDef(body, grid=1, block=THREADS,
                       params=[("A", tensor), ("B", tensor), ("row", K.Scalar("int32")),
                               ("col", K.Scalar("int32"))], name="box_at")


def build_never_populated() -> K.KernelDef:
    """A recipe no populate list names: looking it up where MLIR is absent
    is the named cache miss."""
    return build_scalar_echo()


def cache_recipes() -> list:
    """What test/gpu/test_runtime_calls.py and bench/launch_overhead.py load."""
    return [
        (build_scalar_echo, {}),
        (build_box_at, {"dtype": "float32"}),
        (build_box_at, {"dtype": "bfloat16"}),
        (build_copy, {"rows": 1024, "cols": 1024, "grid": 16}),
        (build_empty, {}),
        (build_two_box_load, {}),
    ]
