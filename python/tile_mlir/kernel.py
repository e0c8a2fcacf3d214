"""Kernel-building help: enough to write the contract's example in Python.

    @kernel(grid=1, block=32)
    def tma_load(A: Tensor((16, 16), "uint32"), Out: Tensor((16, 16), "uint32")):
        lane = lane_id()
        shared = alloc_shared((2, 8, 16), "uint32", align=128)
        ...

The public face of `tile_mlir.builder` (where the code lives, one module a
job): a kernel is traced once into a `gpu.module` holding one `gpu.func`;
`Expr` wraps SSA values so that Python arithmetic, comparisons and indexing
emit arith/memref ops. Control flow is explicit: `with if_(cond):` and
`for i, j in grid(2, 8):` (scf.if / scf.for).
"""

from .builder import *  # noqa: F401,F403
from .builder import __all__  # noqa: F401
