"""Warpgroup MMA in the builder: wgmma (every legal type combination and N,
A from a descriptor or registers, scale_d, negate, transpose, satfinite),
its fence / commit / wait, setmaxnreg, elect.sync, warpgroup roles,
stmatrix, and the matrix descriptor helper.

Kernels are compiled to PTX for sm_90a and checked for the instructions
spelled out here by hand from the PTX ISA; where ptxas is installed, it
assembles them too. The legal sets and descriptor values below are written
out from the ISA, not computed by the code under test.
"""

from __future__ import annotations

import re

import pytest

ir = pytest.importorskip("mlir.ir")

from mlir.dialects import arith  # noqa: E402

from tile_mlir import compiler, kernel as K  # noqa: E402
from tile_mlir.errors import TileUsageError  # noqa: E402
from tile_mlir.toolchain import find_ptxas  # noqa: E402
from tile_mlir.wgmma import check_shape, legal_n, matrix_descriptor  # noqa: E402

CUBIN = find_ptxas() is not None
# The PTX ISA's N: multiples of 8 for the floating-point inputs; for s8/u8,
# 8, 16, 24, then multiples of 16.
FLOAT_N = [8 * i for i in range(1, 33)]
INT_N = [8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256]
# (A, B, accumulator, K) of every legal combination.
COMBOS = [("f16", "f16", "f16", 16), ("f16", "f16", "f32", 16), ("bf16", "bf16", "f32", 16),
          ("tf32", "tf32", "f32", 8)] + [
    (a, b, d, 32) for a in ("e4m3", "e5m2") for b in ("e4m3", "e5m2") for d in ("f16", "f32")
] + [(a, b, "s32", 32) for a in ("s8", "u8") for b in ("s8", "u8")]


def compile_kernel(body, block=128, out=((1,), "i64")):
    """PTX of `body(Out)` as a one-CTA kernel (assembled where ptxas is)."""
    kd = K.KernelDef(body, grid=1, block=block, params=[("Out", K.Tensor(*out))], name="k")
    return compiler.compile(kd, cubin=CUBIN, cache=False).ptx


def i64(value: int) -> K.Expr:
    return K.Expr(arith.constant(ir.IntegerType.get_signless(64), value))


def mma_lines(ptx: str) -> list[str]:
    return [line.strip() for line in ptx.splitlines() if "wgmma.mma_async" in line]


def test_legal_n_sets_are_the_isas():
    for a in ("f16", "bf16", "tf32", "e4m3", "e5m2"):
        assert list(legal_n(a)) == FLOAT_N
    for a in ("s8", "u8"):
        assert list(legal_n(a)) == INT_N


@pytest.mark.parametrize("a, b, d, k", COMBOS)
def test_every_legal_n_of_a_combination_compiles(a, b, d, k):
    ns = INT_N if a in ("s8", "u8") else FLOAT_N

    def body(Out):
        desc = i64(0)
        K.wgmma_fence()
        for n in ns:
            K.wgmma(K.wgmma_accumulator(n, d), desc, desc, a, b)
        K.wgmma_commit_group()
        K.wgmma_wait_group(0)

    lines = mma_lines(compile_kernel(body))
    assert [line.split()[0] for line in lines] == [
        f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.{d}.{a}.{b}" for n in ns]
    # The accumulator's registers: N/2 of f32/s32, N/4 of f16 pairs.
    for n, line in zip(ns, lines):
        registers = re.search(r"\{([^}]*)\}", line).group(1).split(",")
        assert len(registers) == (n // 4 if d == "f16" else n // 2)


def test_bf16_spelling_and_operands():
    def body(Out):
        acc = K.wgmma(K.wgmma_accumulator(128, "float32"), i64(1), i64(2), "bfloat16",
                      scale_d=False, negate_b=True, trans_a=True)
        K.wgmma_commit_group()
        K.wgmma_wait_group(1, acc)

    (line,) = mma_lines(compile_kernel(body))
    # scale-d p, imm-scale-a 1, imm-scale-b -1, imm-trans-a 1, imm-trans-b 0.
    assert line.startswith("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {")
    assert re.search(r"\}, 1, 2, p, 1, +-1, 1, +0;$", line), line  # descriptors 1 and 2


def test_a_in_registers_and_runtime_scale_d():
    def body(Out):
        i32 = ir.IntegerType.get_signless(32)
        regs = [arith.constant(i32, v) for v in range(4)]
        first = K.thread_id() == 0
        K.wgmma_fence()
        K.wgmma(K.wgmma_accumulator(64, "f32"), regs, i64(2), "f16", negate_a=True,
                trans_b=True)
        K.wgmma(K.wgmma_accumulator(32, "s32"), regs, i64(2), "u8", "s8", satfinite=True)
        K.wgmma(K.wgmma_accumulator(16, "f16"), i64(1), i64(2), "e5m2", "e4m3",
                scale_d=first)
        K.wgmma_commit_group()
        K.wgmma_wait_group(0)

    lines = mma_lines(compile_kernel(body))
    reg_a = r"\{%r\d+, %r\d+, %r\d+, %r\d+\}"
    assert re.fullmatch(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16 \{[^}]*\}, "
                        + reg_a + r", %rd\d+, p, -1, 1, 1;", lines[0]), lines[0]
    assert re.fullmatch(r"wgmma\.mma_async\.sync\.aligned\.m64n32k32\.s32\.u8\.s8\.satfinite "
                        r"\{[^}]*\}, " + reg_a + r", %rd\d+, p;", lines[1]), lines[1]
    assert re.fullmatch(r"wgmma\.mma_async\.sync\.aligned\.m64n16k32\.f16\.e5m2\.e4m3 "
                        r"\{[^}]*\}, %rd\d+, %rd\d+, p, 1, 1;", lines[2]), lines[2]


def as_i64(value: K.Expr) -> ir.Value:
    return arith.index_cast(ir.IntegerType.get_signless(64), value.value)


def test_fence_commit_wait_setmaxnreg_elect_and_roles():
    def body(Out):
        K.wgmma_fence()
        K.wgmma_commit_group()
        K.wgmma_wait_group(3)
        with K.warp_role(0):
            K.setmaxnreg(40, "dec")
            with K.if_(K.elect_sync()):
                Out[0] = as_i64(K.warpgroup_id())
        with K.warp_role(range(1, 3)):
            K.setmaxnreg(232, "inc")
        with K.warp_role([1]):
            with K.if_(K.elect_sync(0x0000FFFF)):
                Out[0] = as_i64(K.warp_in_warpgroup() + K.thread_in_warpgroup())

    ptx = compile_kernel(body, block=384)
    for text in ("wgmma.fence.sync.aligned;", "wgmma.commit_group.sync.aligned;",
                 "setmaxnreg.dec.sync.aligned.u32 \t40;",
                 "setmaxnreg.inc.sync.aligned.u32 \t232;"):
        assert text in ptx, text
    assert re.search(r"wgmma\.wait_group\.sync\.aligned\s+3;", ptx)
    assert re.search(r"elect\.sync\s+%r\d+\|%p\d+, -1;", ptx)
    assert re.search(r"elect\.sync\s+%r\d+\|%p\d+, 65535;", ptx)


@pytest.mark.parametrize("count", [1, 2, 4])
@pytest.mark.parametrize("trans", [False, True])
def test_stmatrix_variants(count, trans):
    def body(Out):
        i32 = ir.IntegerType.get_signless(32)
        tile = K.alloc_shared((16, 64), "bfloat16", align=128)
        regs = [arith.constant(i32, v) for v in range(count)]
        K.stmatrix(K.base_address(tile) + K.lane_id() * 16, regs, trans=trans)

    ptx = compile_kernel(body)
    opcode = f"stmatrix.sync.aligned.m8n8.x{count}{'.trans' if trans else ''}.shared.b16"
    assert re.search(re.escape(opcode) + r"\s+\[%r(d)?\d+\], \{[^}]*\};", ptx), opcode


@pytest.mark.parametrize("dtype, cvt", [("bfloat16", "cvt.rn.bf16.f32"),
                                         ("float16", "cvt.rn.f16.f32")])
def test_store_accumulator_is_stmatrix_x4_per_16_columns(dtype, cvt):
    """N = 64: four stmatrix.x4 per thread, 16 columns (32 bytes) apart,
    after rounding each f32 to the tile's 16-bit type."""
    def body(Out):
        tile = K.alloc_shared((64, 64), dtype, align=128)
        acc = K.Accumulator.from_registers([Out[i].value for i in range(32)], 64, "f32")
        K.wgmma_store_accumulator(acc, tile)

    ptx = compile_kernel(body, out=((32,), "float32"))
    stores = re.findall(r"stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16\s+\[(%r[d]?\d+)"
                        r"(\+\d+)?\]", ptx)
    assert len(stores) == 4
    assert len({base for base, _ in stores}) == 1
    assert sorted(int(off or 0) for _, off in stores) == [0, 32, 64, 96]
    assert cvt in ptx


def test_runtime_descriptor_matches_the_isa_layout():
    """A descriptor of shared address 0x400, LBO 16, SBO 1024, 128-byte
    swizzle: start 0x40 (bits 0-13), LBO 1 (16-29), SBO 0x40 (32-45),
    swizzle code 1 (62-63) = 0x4000004000010040; stored as two words."""
    def body(Out):
        Out[0] = K.wgmma_descriptor(K.Expr(arith.constant(ir.IndexType.get(), 0x400)),
                                    lbo=16, sbo=1024, swizzle=128).value

    ptx = compile_kernel(body)
    assert "0x4000004000010040" == hex(0x40000040 << 32 | 0x00010040)
    assert re.search(r"st\.global\.b32\s+\[%rd\d+\+4\], 1073741888;", ptx)  # 0x40000040
    assert re.search(r"st\.global\.b32\s+\[%rd\d+\], 65600;", ptx)  # 0x00010040


@pytest.mark.parametrize("fields, value", [
    # start 0x400 -> 0x40; LBO 16 -> 1 << 16; SBO 1024 -> 0x40 << 32; 128B -> 1 << 62.
    (dict(start=0x400, lbo=16, sbo=1024, swizzle=128), 0x4000004000010040),
    # Every field at its largest: 0x3FFF in each 14-bit field, base offset 7
    # (bits 49-51), 32B -> 3 << 62.
    (dict(start=0x3FFF0, lbo=0x3FFF0, sbo=0x3FFF0, swizzle=32, base_offset=7),
     0xC00E3FFF3FFF3FFF),
    # 64B -> 2 << 62; base offset 3 -> 3 << 49; SBO 512 -> 0x20; LBO 256 -> 0x10.
    (dict(start=0x1230, lbo=256, sbo=512, swizzle=64, base_offset=3), 0x8006002000100123),
    (dict(start=0, lbo=0, sbo=0), 0),
])
def test_matrix_descriptor_bits(fields, value):
    assert matrix_descriptor(**fields) == value


@pytest.mark.parametrize("fields, named", [
    (dict(start=8, lbo=16, sbo=16), "start 8"),
    (dict(start=1 << 18, lbo=16, sbo=16), f"start {1 << 18}"),
    (dict(start=0, lbo=-16, sbo=16), "lbo -16"),
    (dict(start=0, lbo=16, sbo=24), "sbo 24"),
    (dict(start=0, lbo=16, sbo=1 << 18), f"sbo {1 << 18}"),
    (dict(start=0, lbo=16, sbo=16, swizzle=3), "swizzle 3"),
    (dict(start=0, lbo=16, sbo=16, swizzle=16), "swizzle 16"),
    (dict(start=0, lbo=16, sbo=16, swizzle=128, base_offset=8), "base_offset 8"),
    (dict(start=0, lbo=16, sbo=16, base_offset=-1), "base_offset -1"),
    (dict(start="0", lbo=16, sbo=16), "start is an int"),
])
def test_matrix_descriptor_rejects_fields(fields, named):
    with pytest.raises(TileUsageError) as info:
        matrix_descriptor(**fields)
    assert info.value.rule == "wgmma-descriptor-field"
    assert named in str(info.value)


@pytest.mark.parametrize("args, rule, named", [
    (dict(n=64, a_type="bf16", b_type="bf16", d_type="f16"), "wgmma-dtype", "'f16'"),
    (dict(n=64, a_type="tf32", b_type="tf32", d_type="f16"), "wgmma-dtype", "'f16'"),
    (dict(n=64, a_type="s8", b_type="s8", d_type="f32"), "wgmma-dtype", "'f32'"),
    (dict(n=64, a_type="f16", b_type="bf16", d_type="f32"), "wgmma-dtype", "'bf16'"),
    (dict(n=64, a_type="e4m3", b_type="s8", d_type="f32"), "wgmma-dtype", "'s8'"),
    (dict(n=64, a_type="f64", b_type="f64", d_type="f32"), "wgmma-dtype", "'f64'"),
    (dict(n=64, a_type="b1", b_type="b1", d_type="s32"), "wgmma-dtype", "'b1'"),
    (dict(n=40, a_type="s8", b_type="u8", d_type="s32"), "wgmma-shape", "N 40"),
    (dict(n=264, a_type="f16", b_type="f16", d_type="f32"), "wgmma-shape", "N 264"),
    (dict(n=12, a_type="e5m2", b_type="e5m2", d_type="f32"), "wgmma-shape", "N 12"),
    (dict(n=0, a_type="tf32", b_type="tf32", d_type="f32"), "wgmma-shape", "N 0"),
    (dict(n=64, a_type="s8", b_type="s8", d_type="s32", negate_a=True), "wgmma-dtype",
     "negate_a"),
    (dict(n=64, a_type="u8", b_type="u8", d_type="s32", negate_b=True), "wgmma-dtype",
     "negate_b"),
    (dict(n=64, a_type="tf32", b_type="tf32", d_type="f32", trans_a=True), "wgmma-dtype",
     "trans_a"),
    (dict(n=64, a_type="e4m3", b_type="e4m3", d_type="f32", trans_b=True), "wgmma-dtype",
     "trans_b"),
    (dict(n=64, a_type="f16", b_type="f16", d_type="f32", trans_a=True,
          a_in_registers=True), "wgmma-dtype", "trans_a"),
    (dict(n=64, a_type="f16", b_type="f16", d_type="f32", satfinite=True), "wgmma-dtype",
     "satfinite"),
])
def test_illegal_combinations_name_their_rule(args, rule, named):
    with pytest.raises(TileUsageError) as info:
        check_shape(**args)
    assert info.value.rule == rule
    assert named in str(info.value)


def build_raises(body, block=128):
    with pytest.raises(TileUsageError) as info:
        K.KernelDef(body, grid=1, block=block,
                    params=[("Out", K.Tensor((1,), "i64"))], name="k").build()
    return info.value


@pytest.mark.parametrize("call, rule, named", [
    (lambda: K.wgmma(K.wgmma_accumulator(40, "s32"), i64(0), i64(0), "s8"), "wgmma-shape",
     "N 40"),
    (lambda: K.wgmma(K.wgmma_accumulator(64, "f16"), i64(0), i64(0), "bf16"), "wgmma-dtype",
     "'f16'"),
    (lambda: K.wgmma_accumulator(20, "f32"), "wgmma-shape", "N 20"),
    (lambda: K.wgmma_accumulator(64, "f64"), "wgmma-dtype", "'f64'"),
    (lambda: K.wgmma(object(), i64(0), i64(0), "bf16"), "kernel-value", "Accumulator"),
    (lambda: K.wgmma(K.wgmma_accumulator(64), [i64(0)] * 4, i64(0), "bf16"), "kernel-value",
     "four i32"),
    (lambda: K.wgmma(K.wgmma_accumulator(64), i64(0), i64(0), "bf16", scale_d=1),
     "kernel-value", "scale_d"),
    (lambda: K.wgmma(K.wgmma_accumulator(64), i64(0), 1 << 64, "bf16"), "int-range",
     str(1 << 64)),
    (lambda: K.wgmma_wait_group(-1), "int-range", "-1"),
    (lambda: K.setmaxnreg(20, "inc"), "setmaxnreg-count", "count 20"),
    (lambda: K.setmaxnreg(264, "dec"), "setmaxnreg-count", "count 264"),
    (lambda: K.setmaxnreg(100, "inc"), "setmaxnreg-count", "count 100"),
    (lambda: K.setmaxnreg(64, "up"), "setmaxnreg-count", "'up'"),
    (lambda: K.stmatrix(K.lane_id(), [i64(0)] * 3), "stmatrix-shape", "1, 2 or 4"),
    (lambda: K.stmatrix(K.lane_id(), [i64(0)]), "kernel-value", "i32"),
    (lambda: K.elect_sync(0), "int-range", "membermask 0"),
    (lambda: K.wgmma_store_accumulator(K.wgmma_accumulator(64, "f16"),
                                       K.alloc_shared((64, 64), "bfloat16")),
     "wgmma-dtype", "f16"),
    (lambda: K.wgmma_store_accumulator(K.wgmma_accumulator(24),
                                       K.alloc_shared((64, 24), "bfloat16")),
     "wgmma-shape", "N = 24"),
    (lambda: K.wgmma_store_accumulator(K.wgmma_accumulator(64),
                                       K.alloc_shared((64, 32), "bfloat16")),
     "kernel-value", "64 x 64"),
    (lambda: K.wgmma_store_accumulator(K.wgmma_accumulator(64),
                                       K.alloc_shared((64, 64), "float32")),
     "kernel-value", "bf16 or f16"),
    (lambda: K.wgmma_descriptor(K.lane_id(), lbo=16, sbo=1024, swizzle=128, offset=8),
     "wgmma-descriptor-field", "offset 8"),
    (lambda: K.wgmma_descriptor(K.lane_id(), lbo=16, sbo=1000), "wgmma-descriptor-field",
     "sbo 1000"),
])
def test_builder_rejects(call, rule, named):
    def body(Out):
        with K.warp_role(0):
            call()

    err = build_raises(body)
    assert err.rule == rule
    assert named in str(err)


@pytest.mark.parametrize("roles, named", [(-1, "-1"), ("0", "'0'"), ([], "[]")])
def test_warp_role_rejects(roles, named):
    def body(Out):
        with K.warp_role(roles):
            pass

    err = build_raises(body)
    assert err.rule == "kernel-value"
    assert named in str(err)


def test_helpers_outside_a_kernel_are_builder_scope_errors():
    for call in (K.wgmma_fence, K.wgmma_commit_group, lambda: K.setmaxnreg(40, "dec"),
                 K.elect_sync, K.warpgroup_id):
        with pytest.raises(TileUsageError) as info:
            call()
        assert info.value.rule == "builder-scope"
