"""The numpy emulator (tile_mlir.emulator) against hand-computed bytes.

Every expected value here is written out or derived by hand from the
contract and the H200 measurements (docs/decisions.md, "Contract: measured
behaviour that became rules"), never produced by the emulator itself.
Swizzle rule used for the hand computations: the 16-byte chunk index
(address bits 4..6) is XORed with address bits 7..9 (128B), 7..8 (64B) or
7 (32B).
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tile_mlir import emulator as E

ROOT = Path(__file__).resolve().parents[3]
S = 0xA5  # sentinel


def shared(nbytes=1024):
    return np.full(nbytes, S, dtype=np.uint8)


def u32(values):
    return np.array(values, dtype=np.uint32)


def f32_bits(bits):
    return np.array(bits, dtype=np.uint32).view(np.float32)


# --- import hygiene -----------------------------------------------------------

def test_imports_with_numpy_only():
    # The emulator reads the contract tables (pure Python), nothing else.
    allowed = ("tile_mlir.emulator", "tile_mlir.contract", "tile_mlir._contract",
               "tile_mlir.errors")
    code = ("import sys, tile_mlir.emulator\n"
            "bad = [m for m in sys.modules if m == 'mlir' or m.startswith('mlir.')"
            f" or m.startswith('tile_mlir.') and not m.startswith({allowed!r})]\n"
            "assert not bad, bad\n")
    package = Path(E.__file__).resolve().parents[2]   # holds the generated tables
    subprocess.run([sys.executable, "-c", code], check=True,
                   cwd=ROOT, env={"PYTHONPATH": str(package)})


# --- box image model ----------------------------------------------------------

@pytest.mark.parametrize("kwargs, expected", [
    # The seed's box: 8 rows of 64 bytes.
    (dict(box=(8, 16), format="uint32"),
     dict(shape=(8, 16), payload_bytes=512, storage_bytes=512,
          row_payload_bytes=64, row_storage_bytes=64)),
    # 16-byte float16 rows, each in a whole 128-byte span.
    (dict(box=(4, 8), format="float16", swizzle=3),
     dict(shape=(4, 64), payload_bytes=64, storage_bytes=512,
          row_payload_bytes=16, row_storage_bytes=128)),
    # ceil(5/2) = 3 rows.
    (dict(box=(5, 16), element_strides=(2, 1), format="uint32"),
     dict(shape=(3, 16), payload_bytes=192, storage_bytes=192,
          row_payload_bytes=64, row_storage_bytes=64)),
    # float64 16-byte rows in 32-byte spans: 4 element slots a row.
    (dict(box=(3, 2), format="float64", swizzle=1),
     dict(shape=(3, 4), payload_bytes=48, storage_bytes=96,
          row_payload_bytes=16, row_storage_bytes=32)),
    (dict(box=(1, 32), format="uint32", mode="gather4"),
     dict(shape=(4, 32), payload_bytes=512, storage_bytes=512,
          row_payload_bytes=128, row_storage_bytes=128)),
    # The contract's interleave example: uint16, 32B slices, atom (1,1,8,16).
    (dict(box=(1, 1, 8), format="uint16", interleave=2, swizzle=1),
     dict(shape=(1, 1, 8, 16), payload_bytes=256, storage_bytes=256,
          row_payload_bytes=32, row_storage_bytes=32)),
    (dict(box=(2, 1, 4), format="uint32", interleave=1),
     dict(shape=(2, 1, 4, 4), payload_bytes=128, storage_bytes=128,
          row_payload_bytes=16, row_storage_bytes=16)),
    # Packed fp4: 128 nibbles = 64 payload bytes in 8 half-used 16-byte blocks.
    (dict(box=(2, 128), format="float4_e2m1fn"),
     dict(shape=(2, 128), payload_bytes=128, storage_bytes=256,
          row_payload_bytes=64, row_storage_bytes=128)),
])
def test_box_image(kwargs, expected):
    got = E.box_image(**kwargs)
    assert {k: got[k] for k in expected} == expected


def test_box_image_rejects_bad_fields():
    with pytest.raises(ValueError, match="box-extent"):
        E.box_image((8, 300))
    with pytest.raises(ValueError, match="element-strides-range"):
        E.box_image((8, 16), element_strides=(9, 1))
    with pytest.raises(ValueError, match="swizzle-range"):
        E.box_image((8, 16), swizzle=7)
    with pytest.raises(ValueError, match="format-match"):
        E.box_image((8, 16), format="int8")


# --- the contract's example ---------------------------------------------------

def test_seed_example_two_boxes_fill_shared_with_the_array():
    x = np.arange(256, dtype=np.uint32).reshape(16, 16)
    buf = shared(1024 + 128)
    E.load_slots(buf, x, box=(8, 16), coords=(0, 0), coord_steps=((8, 0),),
                 repeat_shape=(2,))
    np.testing.assert_array_equal(buf[:1024].view(np.uint32).reshape(16, 16), x)
    assert (buf[1024:] == S).all()


def test_single_load_at_an_offset():
    x = np.arange(256, dtype=np.uint32).reshape(16, 16)
    buf = shared(1024)
    E.load(buf, 512, x, box=(8, 16), coords=(8, 0))
    assert (buf[:512] == S).all()
    words = buf[512:].view(np.uint32)
    assert words[0] == 128 and words[17] == 145 and words[127] == 255


# --- swizzle ------------------------------------------------------------------

def test_swizzle_address_rule():
    # 128B: address 0x0A0 (chunk 2, bits 7..9 = 1) -> chunk 3 = 0x0B0.
    assert E.swizzle_address(0x0A0, 3) == 0x0B0
    # 128B: 0x3F5 = bits7..9 7, chunk 7 -> chunk 0: 0x385.
    assert E.swizzle_address(0x3F5, 3) == 0x385
    # 64B: bits 7..8 of 0x3F5 = 3, chunk bits 4..5 = 3 -> 0: 0x3C5.
    assert E.swizzle_address(0x3F5, 2) == 0x3C5
    # 32B: bit 7 of 0x085 is 1, bit 4 0 -> 1: 0x095.
    assert E.swizzle_address(0x085, 1) == 0x095
    assert E.swizzle_address(0x085, 0) == 0x085


def test_swizzle_128b_float16_8x64():
    g = np.arange(512).astype(np.float16).reshape(8, 64)   # g[r, c] = 64r + c
    buf = shared(1024)
    E.load(buf, 0, g, box=(8, 64), coords=(0, 0), swizzle=3)
    h = buf.view(np.float16)
    # Element (r, c) at r*128 + ((c // 8) ^ r) * 16 + (2c % 16):
    assert h[0] == 0                  # (0, 0) -> byte 0
    assert h[144 // 2] == 64          # (1, 0): chunk 0^1 = 1 -> 128 + 16
    assert h[420 // 2] == 202         # (3, 10): chunk 1^3 = 2 -> 384 + 32 + 4
    assert h[754 // 2] == 337         # (5, 17): chunk 2^5 = 7 -> 640 + 112 + 2
    assert h[910 // 2] == 511         # (7, 63): chunk 7^7 = 0 -> 896 + 14
    assert h[128 // 2] == 72          # byte 128 is chunk 0 of row 1 = (1, 8)
    assert not (buf == S).all() and sorted(h.tolist()) == list(range(512))


def test_swizzle_phase_continues_at_offset():
    g = np.arange(64).astype(np.float16).reshape(1, 64)
    buf = shared(1024)
    E.load(buf, 3 * 128, g, box=(1, 64), coords=(0, 0), swizzle=3)
    h = buf.view(np.float16)
    # Row at 384: bits 7..9 = 3, so chunk c lands at chunk c ^ 3.
    assert h[(384 + 3 * 16) // 2] == 0      # chunk 0 -> 3
    assert h[(384 + 2 * 16) // 2] == 8      # chunk 1 -> 2
    assert h[(384 + 4 * 16) // 2 + 1] == 57  # chunk 7 -> 4, element 1 of it
    assert (buf[:384] == S).all() and (buf[512:] == S).all()


def test_swizzle_128b_padded_rows_leave_padding_untouched():
    g = np.arange(32).astype(np.float16).reshape(4, 8)   # 16-byte rows
    buf = shared(1024)
    E.load(buf, 0, g, box=(4, 8), coords=(0, 0), swizzle=3)
    expected = np.full(1024, S, dtype=np.uint8)
    # Row r: unswizzled r*128 (chunk 0), swizzled chunk 0 ^ r.
    for r, start in enumerate((0, 144, 288, 432)):
        expected[start:start + 16] = np.frombuffer(g[r].tobytes(), np.uint8)
    np.testing.assert_array_equal(buf, expected)


def test_swizzle_32b_padded_rows():
    g = np.arange(64, dtype=np.uint32).reshape(8, 8)[:, :4].copy()  # 16-byte rows
    buf = shared(512)
    E.load(buf, 0, g, box=(8, 4), coords=(0, 0), swizzle=1)
    words = buf.view(np.uint32)
    # Row r at r*32; rows 4..7 have bit 7 set, so their chunk 0 moves to 16.
    starts = [0, 32, 64, 96, 144, 176, 208, 240]
    for r, start in enumerate(starts):
        np.testing.assert_array_equal(words[start // 4:start // 4 + 4],
                                      [8 * r, 8 * r + 1, 8 * r + 2, 8 * r + 3])
    written = np.zeros(512, bool)
    for start in starts:
        written[start:start + 16] = True
    assert (buf[~written] == S).all()


def test_swizzle_64b_padded_rows():
    g = np.arange(64, dtype=np.uint32).reshape(8, 8)   # 32-byte rows
    buf = shared(1024)
    E.load(buf, 0, g, box=(8, 8), coords=(0, 0), swizzle=2)
    words = buf.view(np.uint32)
    # Row 3 at 192: bits 7..8 = 1, chunks 0,1 -> 1,0.
    np.testing.assert_array_equal(words[208 // 4:208 // 4 + 4], [24, 25, 26, 27])
    np.testing.assert_array_equal(words[192 // 4:192 // 4 + 4], [28, 29, 30, 31])
    # Row 6 at 384: bits 7..8 = 3, chunks 0,1 -> 3,2; chunks 0,1 are padding.
    np.testing.assert_array_equal(words[432 // 4:432 // 4 + 4], [48, 49, 50, 51])
    np.testing.assert_array_equal(words[416 // 4:416 // 4 + 4], [52, 53, 54, 55])
    assert (buf[384:416] == S).all()
    assert (buf[512:] == S).all()


def test_unswizzled_image_reads_back_the_box():
    g = np.arange(16 * 64, dtype=np.uint16).reshape(16, 64)
    buf = shared(2048)
    E.load(buf, 1024, g, box=(8, 64), coords=(4, 0), swizzle=3)
    back = E.unswizzled_image(buf, 1024, box=(8, 64), format="uint16", swizzle=3)
    np.testing.assert_array_equal(back, g[4:12])


# --- element strides ------------------------------------------------------------

def test_element_strides_outer_axis():
    g = np.arange(32, dtype=np.uint32).reshape(8, 4)
    buf = shared(256)
    E.load(buf, 0, g, box=(8, 4), coords=(0, 0), element_strides=(2, 1))
    np.testing.assert_array_equal(buf[:64].view(np.uint32).reshape(4, 4),
                                  [[0, 1, 2, 3], [8, 9, 10, 11],
                                   [16, 17, 18, 19], [24, 25, 26, 27]])
    assert (buf[64:] == S).all()
    # Box 5, stride 2: ceil(5/2) = 3 rows 1, 3, 5.
    buf = shared(256)
    E.load(buf, 0, g, box=(5, 4), coords=(1, 0), element_strides=(2, 1))
    np.testing.assert_array_equal(buf[:48].view(np.uint32).reshape(3, 4),
                                  [[4, 5, 6, 7], [12, 13, 14, 15], [20, 21, 22, 23]])
    assert (buf[48:] == S).all()


def test_element_strides_inner_needs_interleave():
    with pytest.raises(ValueError, match="element-strides-inner"):
        E.load(shared(), 0, np.zeros((8, 8), np.uint32), box=(4, 8), coords=(0, 0),
               element_strides=(1, 2))


# --- out of bounds ---------------------------------------------------------------

def test_oob_zero_fill_negative_and_past_the_end():
    g = np.arange(1, 17, dtype=np.uint32).reshape(4, 4)
    buf = shared(256)
    E.load(buf, 0, g, box=(4, 4), coords=(-1, 2))
    np.testing.assert_array_equal(buf[:64].view(np.uint32).reshape(4, 4),
                                  [[0, 0, 0, 0], [3, 4, 0, 0], [7, 8, 0, 0],
                                   [11, 12, 0, 0]])
    buf = shared(256)
    E.load(buf, 0, g, box=(2, 4), coords=(3, -3))
    np.testing.assert_array_equal(buf[:32].view(np.uint32).reshape(2, 4),
                                  [[0, 0, 0, 13], [0, 0, 0, 0]])


@pytest.mark.parametrize("format, dtype, inner, element", [
    ("float16", np.float16, 8, "f7 7f"),
    ("bfloat16", np.uint16, 8, "f7 7f"),
    ("float32", np.float32, 4, "f7 7f f7 7f"),
    ("float32_ftz", np.float32, 4, "f7 7f f7 7f"),
    ("tfloat32", np.float32, 4, "f7 7f f7 7f"),
    ("tfloat32_ftz", np.float32, 4, "f7 7f f7 7f"),
    ("float64", np.float64, 2, "f7 7f f7 7f f7 7f f7 7f"),
])
def test_oob_nan_fill_patterns(format, dtype, inner, element):
    g = np.zeros((2, inner), dtype=dtype)       # in-bounds bytes are zero
    buf = shared(256)
    E.load(buf, 0, g, box=(2, inner), coords=(1, 0), format=format, oob_fill=1)
    assert (buf[:16] == 0).all()                # row 1 of g
    assert buf[16:32].tobytes() == bytes.fromhex(element) * (16 // len(bytes.fromhex(element)))
    assert (buf[32:] == S).all()
    buf = shared(256)                           # zero fill without the request
    E.load(buf, 0, g, box=(2, inner), coords=(1, 0), format=format)
    assert (buf[16:32] == 0).all()


def test_nan_fill_needs_a_float_format():
    with pytest.raises(ValueError, match="oob-fill-float"):
        E.load(shared(), 0, np.zeros((2, 4), np.uint32), box=(2, 4), coords=(0, 0),
               oob_fill=1)


# --- formats: tf32 and FTZ --------------------------------------------------------

@pytest.mark.parametrize("src, even, away", [
    (0x11111111, 0x11112000, 0x11112000),   # measured on the H200
    (0x3F801000, 0x3F800000, 0x3F802000),   # exact tie, kept bit even
    (0x3F803000, 0x3F804000, 0x3F804000),   # exact tie, kept bit odd
    (0xBF801000, 0xBF800000, 0xBF802000),   # negative tie
    (0x3F800FFF, 0x3F800000, 0x3F800000),   # below half
    (0x3F801001, 0x3F802000, 0x3F802000),   # above half
    (0x7F7FF000, 0x7F800000, 0x7F800000),   # tie at the top rounds to Inf
    (0x7F800000, 0x7F800000, 0x7F800000),   # Inf unchanged
    (0xFF800000, 0xFF800000, 0xFF800000),
    (0x7FC00001, 0x7FC00001, 0x7FC00001),   # NaN payload unchanged
    (0x7F800001, 0x7F800001, 0x7F800001),
    (0x00001001, 0x00002000, 0x00002000),   # denormal rounds (no FTZ)
])
def test_tf32_rounding(src, even, away):
    for rounding, expected in (("nearest_even", even), ("nearest_away", away)):
        g = np.full((1, 4), src, dtype=np.uint32).view(np.float32)
        buf = shared(128)
        E.load(buf, 0, g, box=(1, 4), coords=(0, 0), format="tfloat32",
               tf32_rounding=rounding)
        assert buf[:16].view(np.uint32).tolist() == [expected] * 4, hex(expected)


def test_tf32_is_the_default_rounding_nearest_even():
    g = f32_bits([[0x3F801000, 0x3F803000, 0x11111111, 0]])
    buf = shared(128)
    E.load(buf, 0, g, box=(1, 4), coords=(0, 0), format="tfloat32")
    assert buf[:16].view(np.uint32).tolist() == [0x3F800000, 0x3F804000, 0x11112000, 0]


def test_ftz_formats_flush_denormals_to_signed_zero():
    g = f32_bits([[0x00000001, 0x807FFFFF, 0x00800000, 0x11111111]])
    buf = shared(128)
    E.load(buf, 0, g, box=(1, 4), coords=(0, 0), format="float32_ftz")
    assert buf[:16].view(np.uint32).tolist() == [0, 0x80000000, 0x00800000, 0x11111111]
    E.load(buf, 0, g, box=(1, 4), coords=(0, 0), format="tfloat32_ftz")
    assert buf[:16].view(np.uint32).tolist() == [0, 0x80000000, 0x00800000, 0x11112000]
    E.load(buf, 0, g, box=(1, 4), coords=(0, 0), format="float32")
    assert buf[:16].view(np.uint32).tolist() == [1, 0x807FFFFF, 0x00800000, 0x11111111]


def test_format_never_reinterprets():
    with pytest.raises(ValueError, match="format-match"):
        E.load(shared(), 0, np.zeros((2, 4), np.uint32), box=(2, 4), coords=(0, 0),
               format="float32")
    with pytest.raises(ValueError, match="format-match"):
        E.load(shared(), 0, np.zeros((2, 4), np.float32), box=(2, 4), coords=(0, 0),
               format="uint32")


# --- interleave ---------------------------------------------------------------------

def test_interleave_16b():
    n, c, w, ci = np.meshgrid(np.arange(2), np.arange(3), np.arange(4), np.arange(8),
                              indexing="ij")
    g = (n * 1000 + c * 100 + w * 10 + ci).astype(np.uint16)  # (N, C, W, Ci=8)
    buf = shared(256)
    E.load(buf, 0, g, box=(1, 1, 4), coords=(1, 2, 0), interleave=1)
    np.testing.assert_array_equal(
        buf[:64].view(np.uint16).reshape(4, 8),
        [[1200 + i for i in range(8)], [1210 + i for i in range(8)],
         [1220 + i for i in range(8)], [1230 + i for i in range(8)]])
    assert (buf[64:] == S).all()
    # Spatial positions 4 and 5 are out of bounds: whole slices zero.
    buf = shared(256)
    E.load(buf, 0, g, box=(1, 1, 4), coords=(0, 1, 2), interleave=1)
    np.testing.assert_array_equal(
        buf[:64].view(np.uint16).reshape(4, 8),
        [[120 + i for i in range(8)], [130 + i for i in range(8)], [0] * 8, [0] * 8])
    # An out-of-bounds C slice fills everything.
    buf = shared(256)
    E.load(buf, 0, g, box=(1, 1, 4), coords=(0, 3, 0), interleave=1)
    assert (buf[:64] == 0).all() and (buf[64:] == S).all()


def test_interleave_32b_with_swizzle_32b_and_channel_repeat():
    c, w, ci = np.meshgrid(np.arange(2), np.arange(8), np.arange(16), indexing="ij")
    g = (c * 1000 + w * 16 + ci).astype(np.uint16)[None]    # (1, 2, 8, Ci=16)
    buf = shared(512)
    E.load_slots(buf, g, box=(1, 1, 8), coords=(0, 0, 0), coord_steps=((0, 1, 0),),
                 repeat_shape=(2,), interleave=2, swizzle=1)
    h = buf.view(np.uint16)
    # Slot 0 (C slice 0): row w at 32w; rows 4..7 (bit 7 set) swap their chunks.
    assert h[64 // 2] == 32              # row 2, ci 0, unswizzled
    assert h[160 // 2] == 88             # row 5 at 160: chunk 1 (ci 8) -> chunk 0
    assert h[176 // 2] == 80             # row 5: chunk 0 (ci 0) -> chunk 1
    # Slot 1 (C slice 1) at 256: row 0 at 256 (bit 7 = 0), row 4 at 384 (bit 7 = 1).
    assert h[256 // 2] == 1000
    assert h[(384 + 16) // 2] == 1064
    assert h[384 // 2] == 1072


def test_interleave_rejects_bad_shapes():
    g = np.zeros((1, 2, 8, 16), np.uint16)
    with pytest.raises(ValueError, match="interleave-one-slice"):
        E.load(shared(), 0, g, box=(1, 2, 8), coords=(0, 0, 0), interleave=2, swizzle=1)
    with pytest.raises(ValueError, match="interleave-32b-swizzle"):
        E.load(shared(), 0, g, box=(1, 1, 8), coords=(0, 0, 0), interleave=2)
    with pytest.raises(ValueError, match="interleave-slice"):
        E.load(shared(), 0, g, box=(1, 1, 8), coords=(0, 0, 0), interleave=1)


# --- gather4 -----------------------------------------------------------------------

def test_gather4_rows_and_columns():
    r, c = np.meshgrid(np.arange(16), np.arange(32), indexing="ij")
    g = (r * 100 + c).astype(np.uint32)
    buf = shared(512)
    E.load(buf, 0, g, box=(1, 16), coords=(0, 8), mode="gather4", rows=(0, 3, 7, 11))
    img = buf[:256].view(np.uint32).reshape(4, 16)
    assert img[0].tolist() == list(range(8, 24))
    assert img[1].tolist() == list(range(308, 324))
    assert img[2].tolist() == list(range(708, 724))
    assert img[3].tolist() == list(range(1108, 1124))
    assert (buf[256:] == S).all()


def test_gather4_oob_rows_and_columns_fill():
    r, c = np.meshgrid(np.arange(16), np.arange(32), indexing="ij")
    g = (r * 100 + c + 1).astype(np.uint32)
    buf = shared(512)
    E.load(buf, 0, g, box=(1, 16), coords=(0, 24), mode="gather4",
           rows=(15, 16, -1, 2))
    img = buf[:256].view(np.uint32).reshape(4, 16)
    assert img[0].tolist() == list(range(1525, 1533)) + [0] * 8
    assert img[1].tolist() == [0] * 16
    assert img[2].tolist() == [0] * 16
    assert img[3].tolist() == list(range(225, 233)) + [0] * 8


def test_gather4_rows_are_offset_by_the_row_coordinate():
    # The lowering issues row operand + coords[0] (LowerTmaToNVVM.cpp).
    g = np.repeat(np.arange(16, dtype=np.uint32)[:, None], 4, axis=1)
    buf = shared(128)
    E.load(buf, 0, g, box=(1, 4), coords=(2, 0), mode="gather4", rows=(0, 1, 5, 9))
    assert buf[:64].view(np.uint32).reshape(4, 4)[:, 0].tolist() == [2, 3, 7, 11]


def test_gather4_needs_four_rows_and_a_row_box_of_one():
    g = np.zeros((16, 32), np.uint32)
    with pytest.raises(ValueError, match="gather4-rows"):
        E.load(shared(), 0, g, box=(1, 16), coords=(0, 0), mode="gather4", rows=(0, 1))
    with pytest.raises(ValueError, match="gather4-box"):
        E.load(shared(), 0, g, box=(2, 16), coords=(0, 0), mode="gather4",
               rows=(0, 1, 2, 3))
    with pytest.raises(ValueError, match="mode-direction"):
        E.store(g, shared(), 0, box=(1, 16), coords=(0, 0), mode="gather4",
                rows=(0, 1, 2, 3))


# --- packed fp4 ------------------------------------------------------------------

def fp4_bytes(rows):
    # 64 bytes (128 nibbles) per row, every byte distinct: b[r, k] = 64r + k + 1.
    return (np.arange(rows * 64).reshape(rows, 64) + 1).astype(np.uint8)


def test_fp4_nibble_placement_and_padding():
    g = fp4_bytes(2)
    buf = shared(512)
    E.load(buf, 0, g, box=(2, 128), coords=(0, 0), format="float4_e2m1fn")
    # Payload byte p of row r (elements 2p, 2p+1) at r*128 + (p//8)*16 + p%8.
    assert buf[0] == 1 and buf[7] == 8
    assert buf[16] == 9                 # byte 8 starts block 1
    assert buf[128 + 16 + 1] == 64 + 10  # row 1, byte 9
    assert buf[128 + 7 * 16 + 7] == 128  # row 1, byte 63
    for block in range(16):              # upper halves are padding
        assert (buf[block * 16 + 8:block * 16 + 16] == S).all()
    assert (buf[256:] == S).all()
    back = E.unswizzled_image(buf, 0, box=(2, 128), format="float4_e2m1fn")
    np.testing.assert_array_equal(back, g)


def test_fp4_swizzle_128b():
    g = fp4_bytes(2)
    buf = shared(512)
    E.load(buf, 0, g, box=(2, 128), coords=(0, 0), format="float4_e2m1fn", swizzle=3)
    # Row 1 at 128: blocks swap pairwise (chunk ^ 1).
    assert buf[144] == 65 and buf[128] == 73
    assert (buf[136:144] == S).all() and (buf[152:160] == S).all()
    assert buf[0] == 1 and buf[16] == 9   # row 0 unswizzled


def test_fp4_oob_elements_are_zero_nibbles():
    g = fp4_bytes(1)
    buf = shared(256)
    # Elements 64..191 of a 128-element row: bytes 32..63, then 64 OOB elements.
    E.load(buf, 0, g, box=(1, 128), coords=(0, 64), format="float4_e2m1fn")
    assert buf[:8].tolist() == list(range(33, 41))
    assert buf[48:56].tolist() == list(range(57, 65))
    for block in range(4, 8):
        assert (buf[block * 16:block * 16 + 8] == 0).all()
        assert (buf[block * 16 + 8:block * 16 + 16] == S).all()


def test_fp4_rules():
    g = fp4_bytes(2)
    with pytest.raises(ValueError, match="packed-inner-box"):
        E.load(shared(), 0, g, box=(2, 64), coords=(0, 0), format="float4_e2m1fn")
    with pytest.raises(ValueError, match="packed-swizzle"):
        E.load(shared(), 0, g, box=(2, 128), coords=(0, 0), format="float4_e2m1fn",
               swizzle=2)
    with pytest.raises(ValueError, match="packed-alignment"):
        E.load(shared(), 0, g, box=(2, 128), coords=(0, 32), format="float4_e2m1fn")
    with pytest.raises(ValueError, match="fp4-load-only"):
        E.store(g, shared(), 0, box=(2, 128), coords=(0, 0), format="float4_e2m1fn")
    with pytest.raises(ValueError, match="packed-inner-dim"):
        E.load(shared(), 0, g[:, :32], box=(2, 128), coords=(0, 0),
               format="float4_e2m1fn")


# --- multicast --------------------------------------------------------------------

def test_multicast_writes_the_selected_ctas_only():
    g = np.arange(64, dtype=np.uint32).reshape(4, 16)
    bufs = [shared(512) for _ in range(4)]
    E.load_multicast(bufs, 0b1010, 256, g, box=(4, 16), coords=(0, 0))
    for i in (1, 3):
        np.testing.assert_array_equal(bufs[i][256:].view(np.uint32), np.arange(64))
        assert (bufs[i][:256] == S).all()
    for i in (0, 2):
        assert (bufs[i] == S).all()
    with pytest.raises(ValueError, match="cta-mask"):
        E.load_multicast(bufs, 0b10000, 0, g, box=(4, 16), coords=(0, 0))
    with pytest.raises(ValueError, match="cta-mask"):
        E.load_multicast(bufs, 0, 0, g, box=(4, 16), coords=(0, 0))


# --- stores --------------------------------------------------------------------------

def test_store_drops_out_of_bounds_elements():
    g = np.ones((8, 8), np.uint32)
    buf = shared(128)
    buf[:64] = np.arange(100, 116, dtype=np.uint32).view(np.uint8)
    out = E.store(g, buf, 0, box=(4, 4), coords=(6, -2))
    expected = np.ones((8, 8), np.uint32)
    expected[6, 0:2] = [102, 103]
    expected[7, 0:2] = [106, 107]
    np.testing.assert_array_equal(out, expected)
    assert (g == 1).all()                       # the input is not modified


def test_store_reads_the_swizzled_image():
    g = np.zeros((2, 32), np.uint32)
    buf = np.zeros(256, np.uint8)
    # Row 1 of a 128B-swizzled image: logical chunk 1 (elements 4..7) sits at
    # physical chunk 1 ^ 1 = 0, i.e. bytes 128..143.
    buf[128:144] = np.array([11, 12, 13, 14], np.uint32).view(np.uint8)
    out = E.store(g, buf, 0, box=(2, 32), coords=(0, 0), swizzle=3)
    assert out[1, 4:8].tolist() == [11, 12, 13, 14]
    assert out[1, :4].tolist() == [0, 0, 0, 0]


def test_store_with_outer_element_stride():
    g = np.zeros((6, 4), np.uint32)
    buf = shared(128)
    buf[:48] = np.arange(1, 13, dtype=np.uint32).view(np.uint8)
    out = E.store(g, buf, 0, box=(6, 4), coords=(0, 0), element_strides=(2, 1))
    np.testing.assert_array_equal(out, [[1, 2, 3, 4], [0] * 4, [5, 6, 7, 8], [0] * 4,
                                        [9, 10, 11, 12], [0] * 4])


def test_scatter4():
    g = np.zeros((8, 16), np.uint32)
    buf = shared(512)
    buf[:256] = np.arange(1, 65, dtype=np.uint32).view(np.uint8)   # image (4, 16)
    out = E.store(g, buf, 0, box=(1, 16), coords=(0, 8), mode="scatter4",
                  rows=(1, 5, 9, 3))
    expected = np.zeros((8, 16), np.uint32)
    expected[1, 8:16] = range(1, 9)
    expected[5, 8:16] = range(17, 25)
    expected[3, 8:16] = range(49, 57)           # row 9 and columns 16.. dropped
    np.testing.assert_array_equal(out, expected)


def test_store_slots_in_slot_order():
    g = np.zeros((4, 4), np.uint32)
    buf = shared(256)
    buf[:32] = np.arange(1, 9, dtype=np.uint32).view(np.uint8)
    buf[128:160] = np.arange(11, 19, dtype=np.uint32).view(np.uint8)
    with pytest.raises(ValueError, match="shared-atom-alignment"):
        E.store_slots(g, buf, box=(2, 4), coords=(0, 0), coord_steps=((2, 0),),
                      repeat_shape=(2,))
    buf = shared(512)
    buf[:128] = np.arange(1, 33, dtype=np.uint32).view(np.uint8)
    buf[128:256] = np.arange(101, 133, dtype=np.uint32).view(np.uint8)
    g = np.zeros((4, 32), np.uint32)
    out = E.store_slots(g, buf, box=(1, 32), coords=(1, 0), coord_steps=((2, 0),),
                        repeat_shape=(2,))
    assert out[1].tolist() == list(range(1, 33))
    assert out[3].tolist() == list(range(101, 133))
    assert (out[[0, 2]] == 0).all()


# --- reductions -------------------------------------------------------------------

def reduce(op, old, src, format=None):
    """A (1, n) tile reduction of `src` into `old` through shared memory (rows
    zero-padded to the 16-byte multiple the box needs, then cut back)."""
    old = np.asarray(old)
    n = old.size
    width = -(-old.nbytes // 16) * 16 // old.itemsize
    g = np.zeros((1, width), old.dtype)
    g[0, :n] = old
    src = np.asarray(src, dtype=old.dtype)
    buf = shared(256)
    buf[:src.nbytes] = src.view(np.uint8)
    buf[src.nbytes:width * old.itemsize] = 0
    return E.store(g, buf, 0, box=(1, width), coords=(0, 0), reduction=op,
                   format=format)[0, :n]


def test_reduce_add_integers_wrap():
    assert reduce("add", u32([0xFFFFFFFF, 7, 1, 2]), u32([2, 8, 0, 3])).tolist() == \
        [1, 15, 1, 5]
    assert reduce("add", np.array([0x7FFFFFFF, -5, 0, 1], np.int32),
                  np.array([1, 3, 0, -1], np.int32)).tolist() == [-2**31, -2, 0, 0]
    assert reduce("add", np.array([2**64 - 1, 5], np.uint64),
                  np.array([3, 6], np.uint64)).tolist() == [2, 11]


def test_reduce_add_float32():
    old = f32_bits([0x3FC00000, 0xC0000000, 0x7F61B1E6, 0x00000000, 0x3F800000,
                    0x3F800000])   # 1.5, -2, 3e38, +0, 1, 1
    src = f32_bits([0x40100000, 0x3F000000, 0x7F61B1E6, 0x80000000, 0x33800000,
                    0x34400000])   # 2.25, 0.5, 3e38, -0, 2^-24, 3*2^-24
    assert reduce("add", old, src).view(np.uint32).tolist() == [
        0x40700000,   # 3.75
        0xBFC00000,   # -1.5
        0x7F800000,   # overflow to +Inf
        0x00000000,   # +0 + -0 = +0
        0x3F800000,   # 1 + 2^-24 ties 1|1+2^-23 -> 1 (even)
        0x3F800002]   # 1 + 3*2^-24 ties 1+2^-23|1+2^-22 -> 1+2^-22 (even)


def test_reduce_add_nan_result_is_canonical():
    # Model assumption (not measured): a NaN sum is the type's canonical NaN.
    assert reduce("add", f32_bits([0x7FC00001]), f32_bits([0x3F800000])).view(
        np.uint32).tolist() == [0x7FFFFFFF]
    assert reduce("add", np.array([0x7E01], np.uint16).view(np.float16),
                  np.array([1.0], np.float16)).view(np.uint16).tolist() == [0x7FFF]


def test_reduce_add_float16_rounds_to_nearest_even():
    old = np.array([2048, 2048, 2048, 1.0], np.float16)
    src = np.array([1, 3, 2, 2.0 ** -11], np.float16)
    # 2049 ties 2048|2050 -> 2048 (even); 2051 ties 2050|2052 -> 2052;
    # 1 + 2^-11 ties 1|1+2^-10 -> 1.
    assert reduce("add", old, src).tolist() == [2048, 2052, 2050, 1.0]


def test_reduce_add_bfloat16_exact_sum_to_nearest_even():
    old = np.array([0x3F80, 0x3F81, 0x3F80, 0x4000], np.uint16)
    src = np.array([0x3B80, 0x3B80, 0x3BC0, 0x3F80], np.uint16)
    # 1 + 2^-8 ties 1|1+2^-7 -> 1 (0x3F80); (1+2^-7) + 2^-8 ties -> 1+2^-6
    # (0x3F82); 1 + 1.5*2^-8 -> 1+2^-7 (0x3F81); 2 + 1 = 3 (0x4040).
    assert reduce("add", old, src, format="bfloat16").tolist() == \
        [0x3F80, 0x3F82, 0x3F81, 0x4040]


def test_reduce_min_max_signedness():
    old, src = [1, 0xFFFFFFFF, 5], [2, 0, 5]
    assert reduce("min", u32(old), u32(src)).tolist() == [1, 0, 5]
    assert reduce("max", u32(old), u32(src)).tolist() == [2, 0xFFFFFFFF, 5]
    # The same bits read as int32: 0xFFFFFFFF is -1.
    assert reduce("min", u32(old), u32(src), format="int32").view(np.uint32).tolist() \
        == [1, 0xFFFFFFFF, 5]
    assert reduce("max", u32(old), u32(src), format="int32").tolist() == [2, 0, 5]
    big = np.array([2**63, 1], np.uint64)
    assert reduce("min", big, np.array([1, 2], np.uint64)).tolist() == [1, 1]
    assert reduce("min", big, np.array([1, 2], np.uint64),
                  format="int64").view(np.uint64).tolist() == [2**63, 1]


def test_reduce_min_max_half_floats():
    # old: 1.0, NaN, -0.0, NaN, -2.0; src: 2.0, 3.0, +0.0, NaN, 1.0 (float16 bits)
    old = np.array([0x3C00, 0x7E01, 0x8000, 0x7E01, 0xC000], np.uint16).view(np.float16)
    src = np.array([0x4000, 0x4200, 0x0000, 0xFE00, 0x3C00], np.uint16).view(np.float16)
    assert reduce("min", old, src).view(np.uint16).tolist() == \
        [0x3C00, 0x4200, 0x8000, 0x7FFF, 0xC000]
    assert reduce("max", old, src).view(np.uint16).tolist() == \
        [0x4000, 0x4200, 0x0000, 0x7FFF, 0x3C00]
    bold = np.array([0x3F80, 0xBF80, 0x7FC1], np.uint16)   # 1, -1, NaN (bf16)
    bsrc = np.array([0x4000, 0x3F80, 0x4040], np.uint16)   # 2, 1, 3
    assert reduce("min", bold, bsrc, format="bfloat16").tolist() == [0x3F80, 0xBF80, 0x4040]
    assert reduce("max", bold, bsrc, format="bfloat16").tolist() == [0x4000, 0x3F80, 0x4040]


def test_reduce_inc_dec():
    old, src = [0, 5, 5, 7, 0xFFFFFFFF], [5, 5, 6, 3, 0xFFFFFFFF]
    # inc: old >= src ? 0 : old + 1
    assert reduce("inc", u32(old), u32(src)).tolist() == [1, 0, 6, 0, 0]
    # dec: (old == 0 or old > src) ? src : old - 1
    assert reduce("dec", u32(old), u32(src)).tolist() == [5, 4, 4, 3, 0xFFFFFFFE]
    assert reduce("dec", u32([0, 1]), u32([0, 0])).tolist() == [0, 0]


def test_reduce_bitwise():
    old, src = u32([0b1100, 0xFFFF0000, 0]), u32([0b1010, 0x00FFFF00, 0])
    assert reduce("and", old, src).tolist() == [0b1000, 0x00FF0000, 0]
    assert reduce("or", old, src).tolist() == [0b1110, 0xFFFFFF00, 0]
    assert reduce("xor", old, src).tolist() == [0b0110, 0xFF00FF00, 0]
    o64 = np.array([0xF0F0F0F0F0F0F0F0, 1], np.uint64)
    s64 = np.array([0xFFFFFFFF00000000, 3], np.uint64)
    assert reduce("xor", o64, s64).tolist() == [0x0F0F0F0FF0F0F0F0, 2]


def test_reduction_drops_out_of_bounds_and_accumulates_in_bounds():
    g = np.full((2, 4), 10, np.uint32)
    buf = shared(128)
    buf[:32] = np.arange(1, 9, dtype=np.uint32).view(np.uint8)
    out = E.store(g, buf, 0, box=(2, 4), coords=(1, 0), reduction="add")
    np.testing.assert_array_equal(out, [[10, 10, 10, 10], [11, 12, 13, 14]])


def test_reduction_rules():
    g = np.zeros((2, 4), np.int32)
    with pytest.raises(ValueError, match="reduction-dtype"):
        E.store(g, shared(), 0, box=(2, 4), coords=(0, 0), reduction="inc")
    with pytest.raises(ValueError, match="reduction-dtype"):
        E.store(np.zeros((2, 2), np.float64), shared(), 0, box=(2, 2), coords=(0, 0),
                reduction="add")
    with pytest.raises(ValueError, match="reduction-operator"):
        E.store(g, shared(), 0, box=(2, 4), coords=(0, 0), reduction="mul")
    with pytest.raises(ValueError, match="mode-direction"):
        E.store(np.zeros((8, 4), np.uint32), shared(), 0, box=(1, 4), coords=(0, 0),
                mode="scatter4", rows=(0, 1, 2, 3), reduction="add")


# --- argument checks ------------------------------------------------------------

@pytest.mark.parametrize("kwargs, rule", [
    (dict(box=(2, 3), coords=(0, 0)), "box-inner-bytes"),
    (dict(box=(2, 64), coords=(0, 0), swizzle=3), "swizzle-inner-bytes"),
    (dict(box=(2, 16), coords=(0,)), "coords-count"),
    (dict(box=(2, 16), coords=(0, 0), offset=64), "shared-atom-alignment"),
    (dict(box=(16, 64), coords=(0, 0)), "too small"),
    (dict(box=(2, 16, 1), coords=(0, 0, 0)), "global-rank"),
])
def test_load_argument_checks(kwargs, rule):
    offset = kwargs.pop("offset", 0)
    with pytest.raises(ValueError, match=rule):
        E.load(shared(1024), offset, np.zeros((64, 64), np.uint32), **kwargs)


# --- agreement with the C++ contract model ------------------------------------------

def _native_available():
    try:
        from tile_mlir import _native
    except Exception:
        return False
    return _native.library_path().exists()


LOAD = "cp.async.bulk.tensor.{r}d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
GATHER = ("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4."
          "mbarrier::complete_tx::bytes")
SM100 = '#nvvm.target<chip = "sm_100a", features = "+ptx86">'


@pytest.mark.skipif(not _native_available(),
                    reason="needs tile_mlir._native and a built libTileMLIR.so")
@pytest.mark.parametrize("form", [
    dict(gshape=(16, 16), dtype="uint32", box=(8, 16), steps=((8, 0),), repeat=(2,)),
    dict(gshape=(32, 64), dtype="float16", box=(4, 8), swizzle=3),
    dict(gshape=(32, 64), dtype="float16", box=(8, 64), swizzle=3, steps=((8, 0),),
         repeat=(3,)),
    dict(gshape=(16, 16), dtype="uint32", box=(5, 16), es=(2, 1)),
    dict(gshape=(16, 16), dtype="float64", box=(3, 2), swizzle=1),
    dict(gshape=(16, 128), dtype="uint8", box=(2, 64), swizzle=2),
    dict(gshape=(16, 32), dtype="uint32", box=(1, 32), gather4=True),
    dict(gshape=(2, 4, 8, 16), dtype="uint16", box=(1, 1, 8), interleave=2, swizzle=1,
         steps=((0, 1, 0),), repeat=(3,)),
])
def test_box_image_agrees_with_the_cpp_model(form):
    from tile_mlir import kernel as K, tma

    info = E.box_image(form["box"], form.get("es"), form["dtype"],
                       form.get("swizzle", 0), form.get("interleave", 0),
                       "gather4" if form.get("gather4") else "tile")
    repeat = form.get("repeat", ())
    slots = int(np.prod(repeat)) if repeat else 1
    rank = len(form["box"])

    def body(A):
        sh = K.alloc_shared(tuple(repeat) + info["shape"], form["dtype"], align=1024)
        from tile_mlir.testing.barriers import compile_only_barrier
        bar = compile_only_barrier()  # initialised and armed
        extra = dict(gather4=(0, 3, 7, 11)) if form.get("gather4") else {}
        tma.apply(GATHER if form.get("gather4") else LOAD.format(r=rank), sh, A,
                  box=form["box"], coords=(0,) * rank, coord_steps=form.get("steps"),
                  element_strides=form.get("es"), swizzle=form.get("swizzle", 0),
                  interleave=form.get("interleave", 0), mbar=bar, **extra)

    fn = lambda A: body(A)  # noqa: E731
    fn.__name__ = "k"
    fn.__annotations__ = {"A": K.Tensor(form["gshape"], form["dtype"])}
    target = SM100 if form.get("gather4") else K.DEFAULT_TARGET
    module = K.kernel(grid=1, block=32, target=target)(fn).build()
    (copy,) = tma.find_copies(module)
    assert tma.slot_count(copy) == slots
    assert tma.transaction_bytes(copy) == slots * info["payload_bytes"]
