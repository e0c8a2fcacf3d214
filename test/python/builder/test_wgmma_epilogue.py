"""wgmma_store_accumulator's epilogue images: f32 and f16 accumulators into
bf16 / f16 tiles, unswizzled or in the image of a swizzled TMA store.

Kernels are compiled to PTX for sm_90a (and assembled where ptxas is). The
address test runs the builder's own address map (epilogue_lane_address,
the function the kernel emits, over IntOps) with stmatrix's and the
accumulator fragment's layouts written out from the PTX ISA, and reads the
result back through the emulator's TMA store of the same swizzle: the
global tile must come out as the accumulator.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

ir = pytest.importorskip("mlir.ir")

from tile_mlir import compiler, emulator, kernel as K  # noqa: E402
from tile_mlir.builder import IntOps  # noqa: E402
from tile_mlir.builder.wgmma import epilogue_lane_address, epilogue_tile_shape  # noqa: E402
from tile_mlir.errors import TileUsageError  # noqa: E402
from tile_mlir.toolchain import find_ptxas  # noqa: E402

CUBIN = find_ptxas() is not None
NS = (16, 64, 128, 256)
SPANS = {1: 32, 2: 64, 3: 128}          # the TMA swizzle values' spans, from the driver enum
# (accumulator, tile dtype) pairs the epilogue stores.
PAIRS = [("f32", "bfloat16"), ("f32", "float16"), ("f16", "float16")]
STMATRIX = re.compile(r"stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16\s+\[")


def compile_kernel(body, out=((1,), "i32")):
    kd = K.KernelDef(body, grid=1, block=128, params=[("Out", K.Tensor(*out))], name="k")
    return compiler.compile(kd, cubin=CUBIN, cache=False).ptx


def _tile_shape(n, swizzle):
    """The tile shape, written out: (64, n), or (ceil(n / w), 64, w) for
    w = span / 2 16-bit columns."""
    if swizzle == 0:
        return (64, n)
    w = SPANS[swizzle] // 2
    return (-(-n // w), 64, w)


@pytest.mark.parametrize("acc_type, dtype", PAIRS)
@pytest.mark.parametrize("swizzle", [0, 1, 2, 3])
@pytest.mark.parametrize("n", NS)
def test_epilogue_compiles(acc_type, dtype, swizzle, n):
    """One stmatrix.x4 per 16 columns; f32 rounded to the tile's type, f16
    stored as it is; the swizzled map's XOR only when swizzled."""
    assert epilogue_tile_shape(n, swizzle) == _tile_shape(n, swizzle)
    count = n // 4 if acc_type == "f16" else n // 2

    def body(Out):
        tile = K.dynamic_shared(_tile_shape(n, swizzle), dtype, 0)
        acc = K.Accumulator.from_registers([Out[i].value for i in range(count)], n, acc_type)
        K.wgmma_store_accumulator(acc, tile, swizzle=swizzle)

    ptx = compile_kernel(body, out=((count,), "float32" if acc_type == "f32" else "i32"))
    assert len(STMATRIX.findall(ptx)) == n // 16
    cvt = {"bfloat16": "cvt.rn.bf16.f32", "float16": "cvt.rn.f16.f32"}[dtype]
    assert (cvt in ptx) == (acc_type == "f32")
    assert ("xor.b" in ptx) == (swizzle != 0)


def _fragment(warp, lane, reg):
    """(row, column) of f32 accumulator register `reg` of `lane` in `warp`
    (PTX ISA, wgmma m64nNk16 D fragment)."""
    return (16 * warp + lane // 4 + 8 * ((reg // 2) % 2),
            8 * (reg // 4) + 2 * (lane % 4) + reg % 2)


def _stmatrix_image(n, swizzle, base, size):
    """The shared bytes the epilogue writes, element (r, c) holding r*n + c:
    word m of stmatrix group g is f32 registers 8g + 2m (low) and 8g + 2m + 1
    (an f16 accumulator's register 4g + m holds the same two elements);
    stmatrix stores lane l's word m as row l/4, columns 2(l%4), +1 of matrix
    m, at the address lane 8m + l/4 gives."""
    shared = np.zeros(size, np.uint8)
    halves = shared.view(np.uint16)
    written = np.zeros(size // 2, np.int64)
    for warp in range(4):
        for group in range(n // 16):
            for lane in range(32):
                for m in range(4):
                    at = epilogue_lane_address(base, warp, 8 * m + lane // 4, group, n,
                                               swizzle, IntOps) + 4 * (lane % 4)
                    for half in range(2):
                        r, c = _fragment(warp, lane, 8 * group + 2 * m + half)
                        addr = at + 2 * half
                        assert addr % 2 == 0 and 0 <= addr < size
                        halves[addr // 2] = r * n + c
                        written[addr // 2] += 1
    assert written.max() == 1 and written.sum() == 64 * n, "a byte written twice"
    return shared


@pytest.mark.parametrize("swizzle", [0, 1, 2, 3])
@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("base", [0, 3072])
def test_epilogue_image_is_what_a_tma_store_reads(swizzle, n, base):
    """The emulator's TMA stores (one per w-column block, box 64 x w or the
    columns left, the block's image at base + b * 64 * span) read back the
    accumulator from what the epilogue wrote."""
    expected = np.arange(64 * n, dtype=np.uint16).reshape(64, n)
    size = base + 64 * n * 2 + 64 * 128
    shared = _stmatrix_image(n, swizzle, base, size)
    out = np.zeros((64, n), np.uint16)
    if swizzle == 0:
        out = emulator.store(out, shared, base, box=(64, n), coords=(0, 0))
    else:
        span = SPANS[swizzle]
        w = span // 2
        for block in range(-(-n // w)):
            out = emulator.store(out, shared, base + block * 64 * span,
                                 box=(64, min(w, n - block * w)), coords=(0, block * w),
                                 swizzle=swizzle)
    assert np.array_equal(out, expected), \
        f"first differing (row, col): {np.argwhere(out != expected)[:4].tolist()}"


def test_a_swizzle_mismatch_is_seen():
    """The check can fail: the 128B image read as a 64B store's is wrong."""
    shared = _stmatrix_image(64, 3, 0, 64 * 64 * 2 + 8192)
    out = np.zeros((64, 64), np.uint16)
    out = emulator.store(out, shared, 0, box=(64, 32), coords=(0, 0), swizzle=2)
    assert not np.array_equal(out[:, :32], np.arange(64 * 64).reshape(64, 64)[:, :32])


def build_raises(body) -> TileUsageError:
    kd = K.KernelDef(body, grid=1, block=128, params=[("Out", K.Tensor((1,), "i64"))],
                     name="k")
    with pytest.raises(TileUsageError) as info:
        compiler.compile(kd, cubin=False, cache=False)
    return info.value


def _store(acc_type, n, shape, dtype, swizzle=0, offset=0):
    return lambda: K.wgmma_store_accumulator(
        K.wgmma_accumulator(n, acc_type), K.dynamic_shared(shape, dtype, offset),
        swizzle=swizzle)


@pytest.mark.parametrize("call, rule, named", [
    (_store("f16", 64, (64, 64), "bfloat16"), "wgmma-dtype", "f16 tile only"),
    (_store("f16", 64, (1, 64, 64), "bfloat16", 3), "wgmma-dtype", "f16 tile only"),
    (_store("s32", 64, (64, 64), "float16"), "wgmma-dtype", "got s32"),
    (_store("f32", 48, (64, 48), "float16", 3), "kernel-value", "shared 1 x 64 x 64"),
    (_store("f32", 24, (64, 24), "float16"), "wgmma-shape", "N = 24"),
    (_store("f32", 64, (64, 64), "bfloat16", 4), "kernel-value", "got 4"),
    (_store("f32", 64, (64, 64), "bfloat16", True), "kernel-value", "got True"),
    (_store("f32", 128, (64, 128), "bfloat16", 3), "kernel-value", "shared 2 x 64 x 64"),
    (_store("f32", 128, (2, 64, 64), "bfloat16", 2), "kernel-value", "shared 4 x 64 x 32"),
    (_store("f32", 64, (4, 64, 16), "bfloat16", 0), "kernel-value", "shared 64 x 64"),
    (_store("f32", 64, (1, 64, 64), "float32", 3), "kernel-value", "bf16 or f16"),
    (_store("f32", 64, (1, 64, 64), "bfloat16", 3, 512), "shared-base-alignment",
     "byte 512, not a multiple of the swizzle period 1024"),
    (_store("f32", 64, (2, 64, 32), "bfloat16", 2, 256), "shared-base-alignment",
     "period 512"),
])
def test_epilogue_rejects(call, rule, named):
    err = build_raises(lambda Out: call())
    assert err.rule == rule
    assert named in str(err)


def test_aligned_swizzled_offsets_build():
    """A 64B tile at 512 bytes is on its period: accepted."""
    def body(Out):
        _store("f32", 64, (2, 64, 32), "bfloat16", 2, 512)()
    compile_kernel(body)
