"""A warpgroup MMA fed by the copy engine, for test/gpu/test_wgmma_tma.py.

One CTA of one warpgroup: TMA loads A (64 x 64 bf16) and B (N x 64 bf16,
K-major: B's rows are the columns of the K x N operand), each row 128
bytes, with the 128-byte swizzle, into 1024-byte aligned shared tiles. The
warpgroup then issues four m64nNk16 wgmmas (K = 64 = 4 x 16), their
descriptors (from `wgmma_descriptor`) stepping 32 bytes along the swizzled
rows, and writes the f32 accumulator to Out (64 x N): Out = A @ B.T.

The descriptors of a K-major tile with the 128-byte swizzle: the stride
byte offset is 1024 (8 rows of 128 bytes, one swizzle period, between
8-row core-matrix groups); the leading byte offset is not used by this
layout (16, the smallest value, by convention).
"""

from __future__ import annotations

from .. import builder as K
from .. import tma

THREADS = 128
M, K_EXTENT = 64, 64
ROW_BYTES = 128                 # 64 bf16: one swizzle span
SWIZZLE_128B = 3                # the tensor map's CU_TENSOR_MAP_SWIZZLE_128B
SWIZZLE_BYTES = 128             # the descriptor's swizzle, in bytes
SBO = 8 * ROW_BYTES             # one swizzle period: 8 rows
LBO = 16
K_STEP_BYTES = 16 * 2           # k16 of bf16
# N of the kernels test/gpu/test_wgmma_tma.py runs: the smallest, a middle and
# the largest; and N of the one whose scale_d is decided at run time (the
# inline-PTX form of the instruction).
NS = (8, 128, 256)
RUNTIME_SCALE_N = 64
LOAD = tma.format_opcode(direction="load", rank=2)


def build_wgmma_bf16(n: int, runtime_scale: bool = False) -> K.KernelDef:
    """Out (64 x n, f32) = A (64 x 64, bf16) @ B (n x 64, bf16).T with TMA
    loads and four bf16 wgmmas of one warpgroup. `runtime_scale`: each
    wgmma's scale_d is an i1 computed at run time (block 0: false for the
    first step, true after), not a constant."""

    def body(A, B, Out):
        tid = K.thread_id()
        a_tile = K.alloc_shared((M, K_EXTENT), "bfloat16", align=1024)
        b_tile = K.alloc_shared((n, K_EXTENT), "bfloat16", align=1024)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
        K.cta_sync()
        with K.if_(tid == 0):
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("ab"))
            tma.apply(LOAD, a_tile, A, box=(M, K_EXTENT), coords=(0, 0), mbar=bar,
                      swizzle=SWIZZLE_128B, tag="ab")
            tma.apply(LOAD, b_tile, B, box=(n, K_EXTENT), coords=(0, 0), mbar=bar,
                      swizzle=SWIZZLE_128B, tag="ab")
        K.mbarrier_wait(bar, 0)
        acc = K.wgmma_accumulator(n, "f32")
        K.wgmma_fence()
        for k in range(K_EXTENT // 16):
            fields = dict(lbo=LBO, sbo=SBO, swizzle=SWIZZLE_BYTES, offset=k * K_STEP_BYTES)
            scale = k > 0
            if runtime_scale:
                scale = (K.block_id() == 0) if k > 0 else (K.block_id() != 0)
            acc = K.wgmma(acc, K.wgmma_descriptor(a_tile, **fields),
                          K.wgmma_descriptor(b_tile, **fields), "bf16", scale_d=scale)
        K.wgmma_commit_group()
        (acc,) = K.wgmma_wait_group(0, acc)
        registers = acc.registers()
        for i in range(acc.size):
            row, col = acc.coords(i)
            Out[row, col] = registers[i]

    name = f"wgmma_bf16_n{n}" + ("_runtime_scale" if runtime_scale else "")
    return K.KernelDef(body, grid=1, block=THREADS, name=name, params=[
        ("A", K.Tensor((M, K_EXTENT), "bfloat16")),
        ("B", K.Tensor((n, K_EXTENT), "bfloat16")),
        ("Out", K.Tensor((M, n), "float32"))])
