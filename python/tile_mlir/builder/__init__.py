"""The kernel builder: Python functions traced into `gpu.func` kernels.

    @kernel(grid=1, block=32)
    def tma_load(A: Tensor((16, 16), "uint32"), Out: Tensor((16, 16), "uint32")):
        lane = lane_id()
        shared = alloc_shared((2, 8, 16), "uint32", align=128)
        ...

or, with the signature given explicitly (for kernels built by a function),
`KernelDef(body, grid=..., block=..., params=[("A", Tensor(...)), ...], name=...)`.

`Expr` wraps SSA values so that Python arithmetic, comparisons and indexing
emit arith/memref ops. Control flow is explicit: `with if_(cond):`,
`for i in range_(a, b):`, `for i, j in grid(2, 8):`, `for_carried` and
`while_carried` (loops with carried values).

Modules, one job each: values (Expr, Buffer, Pointer), dtypes, tensor
(parameter types), memory (shared allocations), threads (ids), sync
(barriers, mbarriers, fences, bulk groups), control (scf), pointers,
atomics, matrix (ldmatrix/stmatrix), vector (16-byte loads/stores),
address_ops (address maps over ints or IR), pipeline (stage dispatch and
mbarrier phase arithmetic), warpgroup (warpgroup ids and roles,
elect.sync, setmaxnreg), wgmma (warpgroup MMA, its accumulators and matrix
descriptors), definition (KernelDef, kernel).
"""

from .address_ops import IntOps, IrOps
from .atomics import atomic_add, fence_acq_rel
from .control import for_carried, grid, if_, if_else, range_, unravel, while_carried
from .definition import DEFAULT_TARGET, KernelDef, kernel, make_context, signature_params
from .dtypes import element_type
from .matrix import ldmatrix_x4_trans, stmatrix, stmatrix_x4
from .memory import alloc_shared, dynamic_shared
from .pipeline import empty_parity, full_parity, on_stage
from .pointers import (base_address, global_pointer, load_shared_b16, shared_pointer,
                       store_shared_b16, word_pointer)
from .sync import (bulk_commit_group, bulk_wait_group, cluster_sync, cta_sync,
                   fence_mbarrier_init_cluster, fence_proxy_async_shared_cta,
                   mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_init,
                   mbarrier_wait, set_tx_bytes)
from .scalar import Scalar
from .tensor import Tensor
from .threads import block_dim, block_id, cluster_ctarank, grid_dim, lane_id, thread_id
from .values import Buffer, Expr, Pointer
from .vector import vector_load, vector_store, vector_type
from .warpgroup import (elect_sync, linear_thread_id, setmaxnreg, thread_in_warpgroup,
                        warp_in_warpgroup, warp_role, warpgroup_id)
from .wgmma import (Accumulator, wgmma, wgmma_accumulator, wgmma_commit_group,
                    wgmma_descriptor, wgmma_fence, wgmma_store_accumulator,
                    wgmma_tile_descriptor, wgmma_wait_group)
from ..wgmma import matrix_descriptor

__all__ = [
    "Accumulator", "DEFAULT_TARGET", "Buffer", "Expr", "IntOps", "IrOps", "KernelDef",
    "Pointer", "Scalar", "Tensor", "alloc_shared", "atomic_add", "base_address", "block_dim",
    "block_id", "bulk_commit_group", "bulk_wait_group", "cluster_ctarank",
    "cluster_sync", "cta_sync", "dynamic_shared", "elect_sync", "element_type",
    "empty_parity",
    "fence_acq_rel", "fence_mbarrier_init_cluster", "fence_proxy_async_shared_cta",
    "for_carried", "full_parity", "global_pointer", "grid", "grid_dim", "if_",
    "if_else", "kernel", "lane_id", "ldmatrix_x4_trans", "linear_thread_id",
    "load_shared_b16",
    "make_context", "matrix_descriptor", "mbarrier_arrive", "mbarrier_arrive_expect_tx", "mbarrier_init",
    "mbarrier_wait", "on_stage", "range_", "set_tx_bytes", "shared_pointer",
    "setmaxnreg", "signature_params", "stmatrix", "stmatrix_x4", "store_shared_b16",
    "thread_id", "thread_in_warpgroup", "unravel", "vector_load", "vector_store",
    "vector_type", "warp_in_warpgroup", "warp_role", "warpgroup_id", "wgmma",
    "wgmma_accumulator", "wgmma_commit_group", "wgmma_descriptor", "wgmma_fence",
    "wgmma_store_accumulator",
    "wgmma_tile_descriptor", "wgmma_wait_group", "while_carried", "word_pointer",
]
