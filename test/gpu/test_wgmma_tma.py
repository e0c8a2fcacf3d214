"""A warpgroup MMA fed by the copy engine on the GPU: the kernels of
tile_mlir.testing.wgmma_kernels (TMA loads of bf16 A and B with the
128-byte swizzle, four m64nNk16 wgmmas, the f32 accumulator to global),
built by scripts/build_gpu_artifacts.py into <artifacts>/wgmma/.

Inputs are small integers, exact in bf16, whose products and sums of 64
are exact in f32: the result is compared bit for bit with numpy's matmul
of the same integers.
"""

import numpy as np
import pytest

from tile_mlir import runtime

# The kernels' names (wgmma_kernels.NS and RUNTIME_SCALE_N; that module
# needs MLIR to import): N, and the last one's scale_d decided at run time.
KERNELS = {"wgmma_bf16_n8": 8, "wgmma_bf16_n128": 128, "wgmma_bf16_n256": 256,
           "wgmma_bf16_n64_runtime_scale": 64}


def _bf16_bits(values: np.ndarray) -> np.ndarray:
    """bf16 bit patterns (uint16) of float32 values exact in bf16: the
    float32 word's high half."""
    words = values.astype(np.float32).view(np.uint32)
    assert not np.any(words & 0xFFFF), "a value is not exact in bf16"
    return (words >> 16).astype(np.uint16)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_wgmma_bf16_matches_matmul(artifacts, rng, name):
    n = KERNELS[name]
    folder = artifacts / "wgmma" / name
    if not folder.exists():
        pytest.skip(f"no {folder} (python scripts/build_gpu_artifacts.py)")
    mod = runtime.load(folder)
    a = rng.integers(-4, 5, size=(64, 64)).astype(np.float32)
    b = rng.integers(-4, 5, size=(n, 64)).astype(np.float32)
    out = np.full((64, n), np.nan, np.float32)
    mod(_bf16_bits(a), _bf16_bits(b), out)
    expected = a.astype(np.float64) @ b.astype(np.float64).T
    assert np.array_equal(out, expected.astype(np.float32)), (
        f"first differing (row, col): {np.argwhere(out != expected)[:4].tolist()}")


def test_a_in_registers_and_the_stmatrix_epilogue(artifacts, rng):
    """wgmma_kernels.build_registers_epilogue: A from registers (each
    thread's fragments loaded from global), B by TMA through
    tile.wgmma_descriptor, the accumulator stored with stmatrix and a TMA
    store. Sums of 64 products of -2..2 stay within 256, exact in bf16, so
    Out is the bf16 of the GEMM bit for bit."""
    folder = artifacts / "wgmma" / "wgmma_registers_epilogue"
    if not folder.exists():
        pytest.skip(f"no {folder} (python scripts/build_gpu_artifacts.py)")
    check_epilogue(runtime.load(folder), _bf16_bits, 64, rng)


def check_epilogue(mod, bits, n: int, rng, host=np.uint16) -> None:
    """Three runs of an epilogue kernel (A 64 x 64 in registers, B n x 64,
    Out 64 x n of 16-bit `bits`, passed as `host` arrays: uint16 for bf16,
    which numpy lacks, float16 for f16) on fresh -2..2 inputs, bit for bit."""
    for _ in range(3):
        a = rng.integers(-2, 3, size=(64, 64)).astype(np.float32)
        b = rng.integers(-2, 3, size=(n, 64)).astype(np.float32)
        # A's 16-bit pairs as words: column 2c in the low half, 2c + 1 high.
        a_words = np.ascontiguousarray(bits(a)).view(np.uint32).view(np.int32)
        out = np.full((64, n), 0xFFFF, np.uint16)
        mod(a_words, bits(b).view(host), out.view(host))
        expected = bits(a.astype(np.float64) @ b.astype(np.float64).T)
        assert np.array_equal(out, expected), (
            f"first differing (row, col): {np.argwhere(out != expected)[:4].tolist()}")


# wgmma_kernels.SWIZZLED_EPILOGUES by name: (input and output type, N).
SWIZZLED_EPILOGUES = {f"wgmma_registers_epilogue_{dtype}_swizzle{span}": dtype
                      for dtype in ("bf16", "f16") for span in (128, 64)}


def _f16_bits(values: np.ndarray) -> np.ndarray:
    """f16 bit patterns (uint16) of float32 values exact in f16."""
    half = values.astype(np.float16)
    assert np.array_equal(half.astype(np.float32), values), "a value is not exact in f16"
    return half.view(np.uint16)


@pytest.mark.parametrize("name", sorted(SWIZZLED_EPILOGUES))
def test_the_swizzled_stmatrix_epilogue(artifacts, rng, name):
    """wgmma_kernels.build_swizzled_epilogue: as above with N = 128, the
    accumulator (f32 rounded to bf16, or f16 as it is) stored by stmatrix
    into the swizzled image (128B or 64B) that per-block TMA stores of the
    same swizzle read. Sums of 64 products of -2..2 stay within 256, exact
    in bf16 and f16 (so is every f16 partial sum), so Out is the GEMM bit
    for bit; a misplaced chunk lands in another element."""
    folder = artifacts / "wgmma" / name
    if not folder.exists():
        pytest.skip(f"no {folder} (python scripts/build_gpu_artifacts.py)")
    if SWIZZLED_EPILOGUES[name] == "bf16":
        check_epilogue(runtime.load(folder), _bf16_bits, 128, rng)
    else:
        check_epilogue(runtime.load(folder), _f16_bits, 128, rng, host=np.float16)
