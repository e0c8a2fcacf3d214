"""tile_mlir.contract: the generated tables are current, and a few facts
agree with expectations this test states itself.

The expectations below are written from the CUDA driver API's documentation
(cuda.h: CUtensorMapDataType, CUtensorMapSwizzle, ...) and the PTX ISA, on
purpose independently of dialect/include/Tile/Contract/*.def: if a row of the tables
is edited wrongly, the build copies the error everywhere, and only an
independent statement catches it.
"""

import hashlib
from pathlib import Path

import pytest

from tile_mlir import _contract, contract
from tile_mlir.errors import TileError

ROOT = Path(__file__).resolve().parents[2]


def test_generated_module_is_current():
    # The build writes SOURCE_DIGEST as sha256 over "<sha256>  <path>\n" lines.
    listing = "".join(
        f"{hashlib.sha256((ROOT / path).read_bytes()).hexdigest()}  {path}\n"
        for path in _contract.SOURCES)
    assert hashlib.sha256(listing.encode()).hexdigest() == contract.SOURCE_DIGEST, \
        "tile_mlir/_contract.py is stale: rebuild (cmake --build build)"


def test_digest_covers_every_table():
    tables = {str(p.relative_to(ROOT))
              for p in (ROOT / "dialect" / "include" / "Tile" / "Contract").glob("*.def")}
    assert tables and tables <= set(contract.SOURCES)
    assert "dialect/include/Tile/IR/TileEnums.td" in contract.SOURCES


# cuda.h, enum CUtensorMapDataType_enum (independent expectation).
CU_TENSOR_MAP_DATA_TYPES = {
    "UINT8": 0, "UINT16": 1, "UINT32": 2, "INT32": 3, "UINT64": 4, "INT64": 5,
    "FLOAT16": 6, "FLOAT32": 7, "FLOAT64": 8, "BFLOAT16": 9, "FLOAT32_FTZ": 10,
    "TFLOAT32": 11, "TFLOAT32_FTZ": 12, "16U4_ALIGN8B": 13, "16U4_ALIGN16B": 14,
    "16U6_ALIGN16B": 15,
}
# The dialect's format -> (CUtensorMapDataType, bits of one element).
EXPECTED_FORMATS = {
    "uint8": ("UINT8", 8), "uint16": ("UINT16", 16), "uint32": ("UINT32", 32),
    "int32": ("INT32", 32), "uint64": ("UINT64", 64), "int64": ("INT64", 64),
    "float16": ("FLOAT16", 16), "float32": ("FLOAT32", 32),
    "float64": ("FLOAT64", 64), "bfloat16": ("BFLOAT16", 16),
    "float32_ftz": ("FLOAT32_FTZ", 32), "tfloat32": ("TFLOAT32", 32),
    "tfloat32_ftz": ("TFLOAT32_FTZ", 32),
    "float4_e2m1fn": ("16U4_ALIGN16B", 4),
    "float4_e2m1fn_align8b": ("16U4_ALIGN8B", 4),
    "float6_align16b": ("16U6_ALIGN16B", 6),
}


def test_formats_match_the_driver():
    assert list(contract.FORMATS) == list(EXPECTED_FORMATS)  # TableGen order
    for enum, (name, info) in enumerate(contract.FORMATS.items()):
        cu, bits = EXPECTED_FORMATS[name]
        assert info.enum == enum
        assert info.cu_data_type == CU_TENSOR_MAP_DATA_TYPES[cu], name
        assert info.cu_name == "CU_TENSOR_MAP_DATA_TYPE_" + cu, name
        assert info.bits == bits, name


def test_float32_conversions():
    # cuda.h: the *_FTZ data types flush subnormals to zero, the TFLOAT32
    # ones round to tf32 (independent expectation).
    assert {n for n, f in contract.FORMATS.items() if f.flushes_subnormals} == \
        {"float32_ftz", "tfloat32_ftz"}
    assert {n for n, f in contract.FORMATS.items() if f.rounds_tf32} == \
        {"tfloat32", "tfloat32_ftz"}


def test_packed_formats():
    # CUDA driver API, cuTensorMapEncodeTiled: 16U4_ALIGN16B and 16U6_ALIGN16B
    # need 32-byte aligned addresses/strides and an inner dimension of a
    # multiple of 128; 16U4_ALIGN8B an even one. PTX: .b4x16_p64 places 8
    # data bytes in 16, .b6x16_p32 12 in 16.
    f4, f4a8, f6 = (contract.FORMATS[n] for n in
                    ("float4_e2m1fn", "float4_e2m1fn_align8b", "float6_align16b"))
    assert (f4.alignment, f4.inner_multiple, f4.group, f4.packing) == (32, 128, (8, 16), (2, 1))
    assert (f4a8.alignment, f4a8.inner_multiple, f4a8.group, f4a8.packing) == (16, 2, (8, 8), (2, 1))
    assert (f6.alignment, f6.inner_multiple, f6.group, f6.packing) == (32, 128, (12, 16), (4, 3))
    assert f4.load_only and not f4a8.load_only and not f6.load_only
    assert [n for n, f in contract.FORMATS.items() if f.packed] == \
        ["float4_e2m1fn", "float4_e2m1fn_align8b", "float6_align16b"]
    assert not any(f.nan_fill for f in contract.FORMATS.values() if f.packed)
    unpacked = [f for f in contract.FORMATS.values() if not f.packed]
    assert all(f.alignment == 16 and f.packing == (1, 1) for f in unpacked)


def test_aliases_and_lookup():
    assert contract.FORMAT_ALIASES == {"tf32": "tfloat32", "tf32_ftz": "tfloat32_ftz"}
    assert contract.format_info("tf32") is contract.FORMATS["tfloat32"]
    with pytest.raises(TileError) as err:
        contract.format_info("float8")
    assert err.value.rule == "format-match"


def test_element_types():
    dtypes = contract.DTYPES
    assert dtypes["bfloat16"].mlir == "bf16" and dtypes["bfloat16"].numpy == "uint16"
    assert dtypes["int32"].default_format == "int32"
    assert dtypes["i32"].default_format == "uint32" and dtypes["i32"].signless
    assert dtypes["float8_e4m3fn"].default_format == "uint8"
    assert contract.ELEMENT_TYPES["f32"].formats == \
        ("float32", "float32_ftz", "tfloat32", "tfloat32_ftz")
    assert contract.ELEMENT_TYPES["f4E2M1FN"].formats == \
        ("float4_e2m1fn", "float4_e2m1fn_align8b")


def test_reductions():
    # PTX ISA, cp.reduce.async.bulk.tensor: .add on .u32/.s32/.u64/.f32/.f16/
    # .bf16, .min/.max on .u32/.s32/.u64/.s64/.f16/.bf16, .inc/.dec on .u32,
    # bitwise on .b32/.b64 (INT64 maps trap on the H200: uint64 only).
    assert contract.REDUCTION_OPERATORS == ("add", "min", "max", "inc", "dec",
                                            "and", "or", "xor")
    assert set(contract.REDUCTIONS["add"]) == {"uint32", "int32", "uint64",
                                               "float32", "float16", "bfloat16"}
    assert set(contract.REDUCTIONS["max"]) == {"uint32", "int32", "uint64", "int64",
                                               "float16", "bfloat16"}
    assert contract.REDUCTIONS["dec"] == ("uint32",)
    assert set(contract.REDUCTIONS["xor"]) == {"uint32", "int32", "uint64"}
    assert contract.SIGNED_REDUCTIONS == ("min", "max")


def test_driver_enums():
    # cuda.h: CUtensorMapSwizzle, CUtensorMapInterleave, CUtensorMapL2promotion,
    # CUtensorMapFloatOOBfill, CUtensorMapIm2ColWideMode.
    assert contract.SWIZZLES[3] == "CU_TENSOR_MAP_SWIZZLE_128B"
    assert contract.SWIZZLES[6] == "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B"
    assert contract.INTERLEAVES == ("CU_TENSOR_MAP_INTERLEAVE_NONE",
                                    "CU_TENSOR_MAP_INTERLEAVE_16B",
                                    "CU_TENSOR_MAP_INTERLEAVE_32B")
    assert contract.L2_PROMOTIONS[3] == "CU_TENSOR_MAP_L2_PROMOTION_L2_256B"
    assert contract.OOB_FILLS[1] == "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA"
    assert contract.WIDE_MODES == ("CU_TENSOR_MAP_IM2COL_WIDE_MODE_W",
                                   "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W128")
    assert contract.ENCODE_FUNCTIONS == {"tiled": "cuTensorMapEncodeTiled",
                                         "im2col": "cuTensorMapEncodeIm2col",
                                         "im2col_wide": "cuTensorMapEncodeIm2colWide"}
    assert contract.MODE_ENCODE["im2col_no_offs"] == "im2col"
    assert contract.MODE_ENCODE["im2col_w_128"] == "im2col_wide"
    assert contract.driver_enum_name("data_type", 15) == \
        "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B"


def test_swizzles():
    # cuda.h, CUtensorMapSwizzle: NONE, 32B, 64B, 128B and the sm_100 128B
    # variants with 32B atoms, 32B atoms flipped per 8B, 64B atoms; PTX ISA
    # "Tensor swizzling modes": the 8-byte flip is for global -> shared only;
    # cuTensorMapEncodeIm2colWide takes 64B, 128B and 128B_ATOM_32B.
    table = contract.SWIZZLE_TABLE
    assert [s.value for s in table] == list(range(7))
    assert [s.cu_name for s in table] == list(contract.SWIZZLES)
    assert [s.name for s in table] == ["none", "32B", "64B", "128B", "128B_ATOM_32B",
                                       "128B_ATOM_32B_FLIP_8B", "128B_ATOM_64B"]
    assert contract.SWIZZLE_SPAN_BYTES == (0, 32, 64, 128, 128, 128, 128)
    assert contract.LOAD_ONLY_SWIZZLES == (5,)
    assert contract.IM2COL_WIDE_SWIZZLES == (2, 3, 4)
    assert contract.SM100_SWIZZLES == (4, 5, 6)


def test_limits():
    # CUDA C++ Programming Guide, compute capabilities 9.0 and 10.0: 227 KB
    # of shared memory per block (opt-in). cuTensorMapEncodeTiled: globalDim
    # entries are 1..2^32, globalStrides below 2^40.
    assert contract.MAX_SHARED_BYTES_PER_BLOCK == 227 * 1024 == 232448
    assert contract.MAX_GLOBAL_DIM == 2 ** 32
    assert contract.GLOBAL_STRIDE_BYTES_BOUND == 2 ** 40
    # cuda.h: a CUtensorMap is CU_TENSOR_MAP_NUM_QWORDS = 16 words of 8 bytes.
    assert contract.TENSOR_MAP_BYTES == 16 * 8
    # PTX ISA, mbarrier: the tx-count of a phase is at most 2^20 - 1.
    assert contract.MAX_TX_BYTES == 2 ** 20 - 1
    # PTX ISA, cp.async.bulk.tensor: tensorCoords are a vector of .s32.
    assert (contract.COORD_RANGE.min, contract.COORD_RANGE.max) == (-2 ** 31, 2 ** 31 - 1)


def _span(r):
    return (r.min, r.max)


def test_descriptor_ranges():
    # cuTensorMapEncodeTiled: tensorRank 1..5 (3..5 interleaved), boxDim
    # entries 1..256, elementStrides 1..8; the PTX opcode spells .1d...5d.
    assert _span(contract.RANK_RANGE) == (1, 5)
    assert _span(contract.INTERLEAVE_RANK_RANGE) == (3, 5)
    assert _span(contract.BOX_EXTENT_RANGE) == (1, 256)
    assert _span(contract.ELEMENT_STRIDE_RANGE) == (1, 8)
    # cuda.h: the CUtensorMapSwizzle, CUtensorMapInterleave,
    # CUtensorMapL2promotion and CUtensorMapFloatOOBfill values.
    assert _span(contract.SWIZZLE_RANGE) == (0, 6)
    assert _span(contract.INTERLEAVE_RANGE) == (0, 2)
    assert _span(contract.L2_PROMOTION_RANGE) == (0, 3)
    assert _span(contract.OOB_FILL_RANGE) == (0, 1)
    # Each driver enum field's range is its DriverEnums.def rows.
    for field, names in contract.DRIVER_ENUMS.items():
        assert contract.RANGES[field].values == range(len(names)), field


def test_im2col_ranges():
    # cuTensorMapEncodeIm2col: a 3-D to 5-D tensor, pixelsPerColumn 1..1024,
    # channelsPerPixel 1..256, pixel-box corners signed 16-bit (3-D), 8-bit
    # (4-D), 5-bit (5-D). PTX ISA, im2col mode: the im2col offsets are
    # unsigned of the same widths. cuTensorMapEncodeIm2colWide and PTX
    # im2col::w/::w::128: one signed 16-bit W corner at every rank, wHalo
    # 0..511 (im2col::w) or 0..31 (im2col::w::128), wOffset 0..31.
    assert _span(contract.IM2COL_RANK_RANGE) == (3, 5)
    assert _span(contract.PIXELS_PER_COLUMN_RANGE) == (1, 1024)
    assert _span(contract.CHANNELS_PER_PIXEL_RANGE) == (1, 256)
    widths = {3: 16, 4: 8, 5: 5}
    for rank, bits in widths.items():
        for mode in ("im2col", "im2col_no_offs"):
            assert _span(contract.IM2COL_CORNER_RANGES[mode, rank]) == \
                (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
        for mode in ("im2col_w", "im2col_w_128"):
            assert _span(contract.IM2COL_CORNER_RANGES[mode, rank]) == (-2 ** 15, 2 ** 15 - 1)
        assert _span(contract.IM2COL_OFFSET_RANGES[rank]) == (0, 2 ** bits - 1)
    assert _span(contract.IM2COL_W_HALO_RANGE) == (0, 511)
    assert _span(contract.IM2COL_W_128_HALO_RANGE) == (0, 31)
    assert _span(contract.IM2COL_W_OFFSET_RANGE) == (0, 31)


def test_rule_texts_state_the_limits():
    # Rules.def spells these limits in prose (docs/rules.md): it must say
    # the values Limits.def and DriverEnums.def hold.
    stated = {
        "rank-range": [contract.RANK_RANGE],
        "box-extent": [contract.BOX_EXTENT_RANGE],
        "element-strides-range": [contract.ELEMENT_STRIDE_RANGE],
        "interleave-rank": [contract.INTERLEAVE_RANK_RANGE],
        "swizzle-range": [contract.SWIZZLE_RANGE],
        "interleave-range": [contract.INTERLEAVE_RANGE],
        "l2-promotion-range": [contract.L2_PROMOTION_RANGE],
        "im2col-box": [contract.PIXELS_PER_COLUMN_RANGE, contract.CHANNELS_PER_PIXEL_RANGE],
        "im2col-w-halo": [contract.IM2COL_W_HALO_RANGE, contract.IM2COL_W_128_HALO_RANGE],
        "im2col-offset-range": [contract.IM2COL_W_OFFSET_RANGE],
    }
    for name, ranges in stated.items():
        for r in ranges:
            assert str(r) in contract.rule(name).text, (name, str(r))
    assert f"{contract.MAX_SHARED_BYTES_PER_BLOCK // 1024} KB" in \
        contract.rule("shared-size").text


def test_range():
    r = contract.BOX_EXTENT_RANGE
    assert str(r) == "1..256" and r.values == range(1, 257)
    assert 1 in r and 256 in r and 0 not in r and 257 not in r
    assert 2.0 in r and 2.5 not in r and None not in r and "3" not in r


def test_rules():
    assert contract.rule("box-extent").kind == "verify"
    assert contract.rule("global-base-alignment").kind == "host"
    assert contract.rule("argument-count").kind == "runtime"
    assert contract.rule("global-inner-stride").dynamic
    with pytest.raises(KeyError):
        contract.rule("no-such-rule")


def test_no_mlir_import():
    import subprocess
    import sys
    code = ("import sys, tile_mlir.contract; "
            "sys.exit(1 if any(m == 'mlir' or m.startswith('mlir.') "
            "for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
