"""The contract's names for the granules, launch limits, swizzle spans and
integer dtypes, checked against the documents that state them (not against
the tables they are read from)."""

import pytest

from tile_mlir import contract
from tile_mlir.errors import TileError


def test_granules():
    # PTX ISA, cp.async.bulk.tensor and "Tensor-map": the copy engine moves
    # 16-byte chunks (boxDim[0] * elementSize a multiple of 16 bytes, global
    # strides multiples of 16); the shared-memory address of a box is
    # 128-byte aligned.
    assert contract.CHUNK_BYTES == 16
    assert contract.SHARED_ALIGN == 128


def test_launch_limits():
    # CUDA C++ Programming Guide, "Compute Capabilities" (9.0, 10.0): 1024
    # threads per block, grid x up to 2^31 - 1, y and z up to 65535, 48 KB of
    # dynamic shared memory before cudaFuncAttributeMaxDynamicSharedMemorySize;
    # thread block clusters of at most 16 blocks (non-portable size).
    assert contract.MAX_THREADS_PER_BLOCK == 1024
    assert contract.MAX_GRID_X == 2 ** 31 - 1 == 2147483647
    assert contract.MAX_GRID_YZ == 65535
    assert contract.DEFAULT_SHARED_BYTES_PER_BLOCK == 48 * 1024
    assert contract.MAX_CLUSTER_CTAS == 16
    # The cluster-shape rule states the same bound.
    assert f"at most {contract.MAX_CLUSTER_CTAS} CTAs" in contract.rule("cluster-shape").text


def test_max_rank():
    # cuTensorMapEncodeTiled: tensorRank is at most 5 (PTX .1d ... .5d).
    assert contract.MAX_RANK == 5 == contract.RANK_RANGE.max


def test_swizzle_spans():
    # PTX ISA "Tensor swizzling modes": a 32B/64B/128B swizzle permutes
    # 16-byte chunks within rows of 32/64/128 bytes; the pattern repeats after
    # eight rows (256, 512, 1024 bytes); the sm_100 atom forms are 128B rows.
    spans = {"none": 0, "32B": 32, "64B": 64, "128B": 128, "128B_ATOM_32B": 128,
             "128B_ATOM_32B_FLIP_8B": 128, "128B_ATOM_64B": 128}
    for s in contract.SWIZZLE_TABLE:
        assert contract.swizzle_span(s.value) == spans[s.name], s.name
        assert s.period_bytes == 8 * spans[s.name], s.name
    assert contract.SPAN_TO_SWIZZLE == {128: 3, 64: 2, 32: 1}
    assert list(contract.SPAN_TO_SWIZZLE) == [128, 64, 32]   # widest first
    for span, value in contract.SPAN_TO_SWIZZLE.items():
        assert contract.span_to_swizzle(span) == value
        assert contract.swizzle_span(value) == span
    assert contract.span_to_swizzle(0) == 0
    for bad in (16, 96, 256, None):
        with pytest.raises(TileError) as e:
            contract.span_to_swizzle(bad)
        assert e.value.rule == "swizzle-range"
    for bad in (-1, 7, True, "3"):
        with pytest.raises(TileError) as e:
            contract.swizzle_span(bad)
        assert e.value.rule == "swizzle-range"


def test_integer_dtypes():
    expected = {1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64"}
    assert contract.UINT_DTYPES == expected
    assert contract.SIGNLESS_DTYPES == {1: "i8", 2: "i16", 4: "i32", 8: "i64"}
    for n, name in expected.items():
        assert contract.dtype_for_bytes(n) == name
        assert contract.dtype_for_bytes(n, signless=True) == f"i{8 * n}"
        assert contract.dtype_bytes(name) == n
        assert contract.dtype_bytes(f"i{8 * n}") == n
    assert contract.dtype_bytes("bfloat16") == 2
    assert contract.dtype_bytes("float64") == 8
    for bad in (0, 3, 16, True):
        with pytest.raises(TileError) as e:
            contract.dtype_for_bytes(bad)
        assert e.value.rule == "dtype-supported"
    for bad in ("float4_e2m1fn", "float6_e2m3fn", "complex64"):
        with pytest.raises(TileError) as e:
            contract.dtype_bytes(bad)
        assert e.value.rule == "dtype-supported"
