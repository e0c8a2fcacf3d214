"""tile.wgmma_descriptor from the builder (wgmma_tile_descriptor): a kernel
fed by TMA loads compiles to PTX for sm_90a with its wgmmas reading the op's
descriptors; a descriptor at a constant address folds to the value that
tile_mlir.wgmma.matrix_descriptor (independent code, from the ISA) gives
for the same fields; a descriptor that does not read what its copy wrote is
the verifier's [wgmma-copy-mismatch].
"""

from __future__ import annotations

import re

import pytest

ir = pytest.importorskip("mlir.ir")

from mlir.dialects import arith, llvm  # noqa: E402

from tile_mlir import compiler, kernel as K, tma  # noqa: E402
from tile_mlir.builder.values import Pointer  # noqa: E402
from tile_mlir.errors import TileUsageError, TileVerifyError  # noqa: E402
from tile_mlir.toolchain import find_ptxas  # noqa: E402
from tile_mlir.wgmma import matrix_descriptor  # noqa: E402

CUBIN = find_ptxas() is not None
LOAD = tma.format_opcode(direction="load", rank=2)


def compile_ptx(body, params, block=128):
    kd = K.KernelDef(body, grid=1, block=block, params=params, name="k")
    return compiler.compile(kd, cubin=CUBIN, cache=False).ptx


def tma_fed_body(copy_swizzle=3, desc_swizzle=3, k_extent=64, sbo=1024):
    """A (64 x 64 bf16) and B (64 x 64 bf16) loaded with `copy_swizzle`,
    four k16 wgmmas reading them through the op (`desc_swizzle`)."""
    def body(A, B, Out):
        a_tile = K.alloc_shared((64, 64), "bfloat16", align=1024)
        b_tile = K.alloc_shared((64, 64), "bfloat16", align=1024)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        with K.if_(K.thread_id() == 0):
            K.mbarrier_init(bar, 1)
        K.cta_sync()
        with K.if_(K.thread_id() == 0):
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("ab"))
            for tile, src in ((a_tile, A), (b_tile, B)):
                tma.apply(LOAD, tile, src, box=(64, 64), coords=(0, 0), mbar=bar,
                          swizzle=copy_swizzle, tag="ab")
        K.mbarrier_wait(bar, 0)
        acc = K.wgmma_accumulator(64, "f32")
        K.wgmma_fence()
        for step in range(4):
            fields = dict(k=k_extent, lbo=16, sbo=sbo, swizzle=desc_swizzle)
            a = K.wgmma_tile_descriptor(a_tile, step, matrix="a", rows=64, **fields)
            b = K.wgmma_tile_descriptor(b_tile, step, matrix="b", rows=64, **fields)
            acc = K.wgmma(acc, a, b, "bf16", scale_d=step > 0)
        K.wgmma_commit_group()
        (acc,) = K.wgmma_wait_group(0, acc)
        Out[0, 0] = acc.registers()[0]
    return body


PARAMS = [("A", K.Tensor((64, 64), "bfloat16")), ("B", K.Tensor((64, 64), "bfloat16")),
          ("Out", K.Tensor((64, 64), "float32"))]


def test_a_tma_fed_kernel_compiles_to_wgmmas_reading_the_ops_descriptors():
    ptx = compile_ptx(tma_fed_body(), PARAMS)
    assert ".target sm_90a" in ptx
    mmas = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.bf16\.bf16", ptx)
    assert len(mmas) == 4
    assert "tile.wgmma_descriptor" not in ptx
    # Eight descriptors (A and B, four steps), each its start address ORed
    # with the fields' constant: LBO 16, SBO 1024, 128B.
    fields = matrix_descriptor(start=0, lbo=16, sbo=1024, swizzle=128)
    assert len(re.findall(rf"or\.b64\s+%rd\d+, %rd\d+, {fields};", ptx)) == 8


def _words(ptx: str) -> tuple[int, int]:
    """The two 32-bit words a kernel stored to Out[0] (low, high)."""
    lo = re.search(r"st\.global\.b32\s+\[%rd\d+\], (-?\d+);", ptx)
    hi = re.search(r"st\.global\.b32\s+\[%rd\d+\+4\], (-?\d+);", ptx)
    assert lo and hi, ptx
    return int(lo.group(1)) & 0xFFFFFFFF, int(hi.group(1)) & 0xFFFFFFFF


@pytest.mark.parametrize("op, start", [
    # K-major 128B bf16 A: a step is 32 bytes; step 2 of 0x400 starts at 0x440.
    (dict(matrix="a", rows=64, k=64, lbo=16, sbo=1024, swizzle=3, step=2,
          dtype="bfloat16"), 0x440),
    # K-major 64B e4m3 B (N 32): a step is 32 bytes; base offset 5.
    (dict(matrix="b", rows=32, k=64, lbo=16, sbo=512, swizzle=2, step=1, base_offset=5,
          dtype="float8_e4m3fn"), 0x420),
    # MN-major 32B f16 B: a step is two 8-row groups of K, 2 x SBO.
    (dict(matrix="b", rows=16, k=32, lbo=256, sbo=512, swizzle=1, major="mn", step=1,
          dtype="float16"), 0x400 + 1024),
    # No swizzle, K-major tf32: a step is two core-matrix columns, 2 x LBO.
    (dict(matrix="a", rows=64, k=16, lbo=1024, sbo=128, swizzle=0, step=1,
          dtype="float32"), 0x400 + 2048),
])
def test_the_descriptor_value_is_matrix_descriptors(op, start):
    op = dict(op)
    step = op.pop("step")
    swizzle_bytes = {0: 0, 1: 32, 2: 64, 3: 128}[op["swizzle"]]

    def body(Out):
        addr = arith.constant(ir.IntegerType.get_signless(64), 0x400)
        ptr = Pointer(llvm.inttoptr(ir.Type.parse("!llvm.ptr<3>"), addr))
        Out[0] = K.wgmma_tile_descriptor(ptr, step, **op).value

    ptx = compile_ptx(body, [("Out", K.Tensor((1,), "i64"))])
    lo, hi = _words(ptx)
    expected = matrix_descriptor(start=start, lbo=op["lbo"], sbo=op["sbo"],
                                 swizzle=swizzle_bytes, base_offset=op.get("base_offset", 0))
    assert hi << 32 | lo == expected


def test_a_descriptor_of_another_swizzle_than_its_copy_is_rejected():
    with pytest.raises(TileVerifyError) as err:
        compile_ptx(tma_fed_body(copy_swizzle=3, desc_swizzle=2, k_extent=32, sbo=512),
                    PARAMS)
    assert err.value.rule == "wgmma-copy-mismatch"
    assert "swizzle b64 (64B)" in str(err.value) and "swizzle 3 (128B)" in str(err.value)


@pytest.mark.parametrize("kwargs, rule, named", [
    (dict(swizzle=7), "wgmma-descriptor-field", "swizzle 7"),
    (dict(lbo=8), "wgmma-descriptor-field", "lbo 8"),
    (dict(matrix="c"), "kernel-value", "'c'"),
    (dict(rows=96), "wgmma-tile-shape", "rows 96"),
    (dict(k=48), "wgmma-swizzle-span", "k 48"),
])
def test_the_op_names_the_rule_of_a_bad_field(kwargs, rule, named):
    fields = dict(matrix="a", rows=64, k=64, lbo=16, sbo=1024, swizzle=3)
    fields.update(kwargs)

    def body(Out):
        tile = K.alloc_shared((64, 64), "bfloat16", align=1024)
        Out[0] = K.wgmma_tile_descriptor(tile, 0, **fields).value

    with pytest.raises((TileUsageError, TileVerifyError)) as err:
        compile_ptx(body, [("Out", K.Tensor((1,), "i64"))])
    assert err.value.rule == rule
    assert named in str(err.value)
