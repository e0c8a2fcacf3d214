"""Tiny kernels for measuring launch cost (bench/launch_overhead.py)."""

from __future__ import annotations

from ... import builder as K
from ... import tma
from ..common.opcodes import load_opcode
from ..common.params import checked_params


@checked_params
def build_empty(name: str = "empty") -> K.KernelDef:
    """A kernel that does nothing: the raw launch cost."""
    return K.KernelDef(lambda: None, grid=1, block=32, params=[], name=name)


@checked_params
def build_two_box_load(dtype: str = "int32", name: str = "tma_small") -> K.KernelDef:
    """The contract's example (two 8x16 boxes of a 16x16 tensor through one
    mbarrier phase, shared memory copied to Out) on `dtype`: a TMA kernel
    with one tensor map, its transaction bytes from `tma.tx_bytes`."""
    def body(A, Out):
        lane = K.lane_id()
        shared = K.alloc_shared((2, 8, 16), dtype, align=128)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        with K.if_(lane == 0):
            K.mbarrier_init(bar, 1)
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("both"))
        K.cta_sync()
        with K.if_(lane == 0):
            tma.apply(load_opcode(), shared, A, box=(8, 16), coords=(0, 0),
                      coord_steps=((8, 0),), mbar=bar, tag="both")
        K.mbarrier_wait(bar, 0)
        K.cta_sync()
        for g, r in K.grid(2, 8):
            with K.if_(lane < 16):
                Out[g * 8 + r, lane] = shared[g, r, lane]

    tensor = K.Tensor((16, 16), dtype)
    return K.KernelDef(body, grid=1, block=32, params=[("A", tensor), ("Out", tensor)],
                       name=name)
