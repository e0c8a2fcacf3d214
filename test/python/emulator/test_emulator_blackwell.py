"""The emulator's sm_100 additions against their documented definitions:
the 128B swizzle atom variants (CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B = 4,
_32B_FLIP_8B = 5, _64B = 6) and the packed formats 16U4_ALIGN8B
(`float4_e2m1fn_align8b`) and 16U6_ALIGN16B (`float6_align16b`).

Expected layouts are built from the PTX ISA's pattern tables (section
"Swizzling Modes"), written out below, and from the driver's description of
the packed types; none is measured (no Blackwell GPU here).
"""

import numpy as np
import pytest

from tile_mlir import emulator as E

S = 0xA5

# PTX ISA tables: for each 128-byte line (mod the table length), the source
# unit stored at each destination position.
ATOM32 = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]]   # 32-byte units
ATOM64 = [[0, 1], [1, 0]]                                           # 64-byte units


def shared(nbytes=2048):
    return np.full(nbytes, S, dtype=np.uint8)


def expected_lines(rows, unit, table, flip=False):
    """Shared bytes of `rows` 128-byte rows (row r byte j = r*128 + j + 1
    mod 256) laid out by the table; with `flip`, odd lines also swap the two
    8-byte halves of every 16-byte chunk."""
    out = np.zeros(rows * 128, np.uint8)
    for r in range(rows):
        src = (np.arange(128) + r * 128 + 1) % 256
        line = np.zeros(128, np.uint8)
        for pos, u in enumerate(table[r % len(table)]):
            line[pos * unit:(pos + 1) * unit] = src[u * unit:(u + 1) * unit]
        if flip and r % 2:
            line = line.reshape(8, 2, 8)[:, ::-1, :].reshape(128)
        out[r * 128:(r + 1) * 128] = line
    return out


def byte_rows(rows):
    return ((np.arange(rows * 128) + 1) % 256).astype(np.uint8).reshape(rows, 128)


# --- swizzle address maps -------------------------------------------------------------

def test_swizzle_addresses_literal():
    # 128B_ATOM_32B: line 1, 32-byte unit 1 -> unit 0; line 3 unit 2 -> unit 1.
    assert E.swizzle_address(0x0A0, 4) == 0x080
    assert E.swizzle_address(0x1C0, 4) == 0x1A0
    assert E.swizzle_address(0x205, 4) == 0x205          # line 4: like line 0
    # ... with the 8-byte flip on odd lines.
    assert E.swizzle_address(0x0A0, 5) == 0x088
    assert E.swizzle_address(0x1C4, 5) == 0x1AC
    assert E.swizzle_address(0x148, 5) == 0x108          # even line: no flip
    # 128B_ATOM_64B: odd lines swap their 64-byte halves.
    assert E.swizzle_address(0x0C0, 6) == 0x080
    assert E.swizzle_address(0x150, 6) == 0x150
    assert E.swizzle_address(0x190, 6) == 0x1D0


@pytest.mark.parametrize("swizzle", [4, 5, 6])
def test_new_swizzles_are_involutions_within_each_line(swizzle):
    a = np.arange(4096)
    s = E.swizzle_address(a, swizzle)
    np.testing.assert_array_equal(E.swizzle_address(s, swizzle), a)
    np.testing.assert_array_equal(s // 128, a // 128)     # stays in its line
    assert E.swizzle_span(swizzle) == 128 and E.swizzle_period(swizzle) == 1024


def test_swizzle_range():
    with pytest.raises(ValueError, match="swizzle-range"):
        E.swizzle_address(0, 7)
    with pytest.raises(ValueError, match="swizzle-range"):
        E.box_image((8, 16), swizzle=-1)


# --- loads and stores with the atom swizzles -------------------------------------------

@pytest.mark.parametrize("swizzle, unit, table, flip", [
    (4, 32, ATOM32, False),
    (5, 32, ATOM32, True),
    (6, 64, ATOM64, False),
])
def test_load_uint8_rows(swizzle, unit, table, flip):
    g = byte_rows(8)
    buf = shared(1024 + 128)
    E.load(buf, 0, g, box=(8, 128), coords=(0, 0), swizzle=swizzle)
    np.testing.assert_array_equal(buf[:1024], expected_lines(8, unit, table, flip))
    assert (buf[1024:] == S).all()
    back = E.unswizzled_image(buf, 0, box=(8, 128), format="uint8", swizzle=swizzle)
    np.testing.assert_array_equal(back, g)


def test_atom_swizzle_pads_short_rows_to_128_bytes():
    g = np.arange(64, dtype=np.uint32).reshape(4, 16)       # 64-byte rows
    info = E.box_image((4, 16), format="uint32", swizzle=4)
    assert info["shape"] == (4, 32) and info["storage_bytes"] == 512
    buf = shared(512)
    E.load(buf, 0, g, box=(4, 16), coords=(0, 0), swizzle=4)
    # Row 1 at 128: 32-byte units 0, 1 -> positions 1, 0; units 2, 3 padding.
    assert buf[128 + 32:128 + 64].view(np.uint32).tolist() == list(range(16, 24))
    assert buf[128:128 + 32].view(np.uint32).tolist() == list(range(24, 32))
    assert (buf[128 + 64:256] == S).all()


@pytest.mark.parametrize("swizzle", [4, 6])
def test_store_round_trip(swizzle):
    g = np.arange(8 * 32, dtype=np.uint32).reshape(8, 32)
    buf = shared(1024)
    E.load(buf, 0, g, box=(8, 32), coords=(0, 0), swizzle=swizzle)
    out = E.store(np.zeros_like(g), buf, 0, box=(8, 32), coords=(0, 0), swizzle=swizzle)
    np.testing.assert_array_equal(out, g)


def test_flip_swizzle_is_load_only():
    g = np.zeros((8, 32), np.uint32)
    with pytest.raises(ValueError, match="swizzle-load-only"):
        E.store(g, shared(1024), 0, box=(8, 32), coords=(0, 0), swizzle=5)
    with pytest.raises(ValueError, match="swizzle-load-only"):
        E.store(g, shared(1024), 0, box=(8, 32), coords=(0, 0), swizzle=5,
                reduction="add")


# --- 16U4_ALIGN16B (float4_e2m1fn) with the 32B atom ---------------------------------------

def test_fp4_align16b_accepts_128b_atom_32b():
    g = (np.arange(2 * 64).reshape(2, 64) + 1).astype(np.uint8)
    buf = shared(512)
    E.load(buf, 0, g, box=(2, 128), coords=(0, 0), format="float4_e2m1fn", swizzle=4)
    # Row 1 at 128: its 16-byte blocks move by 32-byte unit (block b -> b ^ 2).
    assert buf[160] == 65                # payload byte 0 (block 0 -> block 2)
    assert buf[128] == 64 + 17           # payload byte 16 (block 2 -> block 0)
    assert (buf[136:144] == S).all()     # padding half of a block
    with pytest.raises(ValueError, match="packed-swizzle"):
        E.load(buf, 0, g, box=(2, 128), coords=(0, 0), format="float4_e2m1fn",
               swizzle=6)


# --- 16U4_ALIGN8B (float4_e2m1fn_align8b) ----------------------------------------------------

def test_align8b_load_is_the_global_bytes():
    g = (np.arange(2 * 32).reshape(2, 32) * 7 % 256).astype(np.uint8)   # 64 values a row
    buf = shared(256)
    E.load(buf, 0, g, box=(2, 64), coords=(0, 0), format="float4_e2m1fn_align8b")
    np.testing.assert_array_equal(buf[:64], g.ravel())
    assert (buf[64:] == S).all()
    info = E.box_image((2, 64), format="float4_e2m1fn_align8b")
    assert (info["shape"], info["payload_bytes"], info["storage_bytes"]) == ((2, 32), 64, 64)


def test_align8b_odd_byte_start_and_oob_nibbles():
    g = (np.arange(32) + 0x10).astype(np.uint8).reshape(1, 32)
    buf = shared(256)
    # Values 2..65 of a 64-value row: bytes 1..31, then values 64, 65 (OOB) = 0.
    E.load(buf, 0, g, box=(1, 64), coords=(0, 2), format="float4_e2m1fn_align8b")
    assert buf[:31].tolist() == g[0, 1:].tolist()
    assert buf[31] == 0


def test_align8b_store_and_dropped_values():
    g = np.zeros((2, 32), np.uint8)
    buf = shared(256)
    buf[:32] = np.arange(1, 33, dtype=np.uint8)
    # Values 32..95 of row 1: bytes 16..31 receive shared bytes 0..15, the
    # values past 63 are dropped.
    out = E.store(g, buf, 0, box=(1, 64), coords=(1, 32), format="float4_e2m1fn_align8b")
    assert out[1, 16:].tolist() == list(range(1, 17))
    assert (out[0] == 0).all() and (out[1, :16] == 0).all()


def test_align8b_rules():
    g = np.zeros((2, 32), np.uint8)
    with pytest.raises(ValueError, match="packed-inner-box"):
        E.load(shared(), 0, g, box=(2, 48), coords=(0, 0), format="float4_e2m1fn_align8b")
    with pytest.raises(ValueError, match="packed-alignment"):
        E.load(shared(), 0, g, box=(2, 32), coords=(0, 1), format="float4_e2m1fn_align8b")
    with pytest.raises(ValueError, match="packed-reduce"):
        E.store(g, shared(), 0, box=(2, 32), coords=(0, 0),
                format="float4_e2m1fn_align8b", reduction="add")
    with pytest.raises(ValueError, match="oob-fill-float"):
        E.load(shared(), 0, g, box=(2, 32), coords=(0, 0),
               format="float4_e2m1fn_align8b", oob_fill=1)


# --- 16U6_ALIGN16B (float6_align16b) ---------------------------------------------------------

def fp6_values(n, seed):
    return [(7 * j + seed) % 64 for j in range(n)]


def fp6_pack(values):
    """Little-endian bit stream: value j in bits [6j, 6j + 6)."""
    acc = sum(v << (6 * j) for j, v in enumerate(values))
    return list(acc.to_bytes(len(values) * 6 // 8, "little"))


def test_fp6_packing_helper_matches_the_hand_packing():
    vals = fp6_values(16, 5)
    fmt = E.get_format("float6_align16b")
    assert E.pack(np.array(vals, np.uint8), fmt).tolist() == fp6_pack(vals)
    assert E.unpack(np.array(fp6_pack(vals), np.uint8), fmt).tolist() == vals
    # Four values fill three bytes: 1, 2, 3, 4 -> 0x81, 0x30, 0x10.
    assert fp6_pack([1, 2, 3, 4]) == [0x81, 0x30, 0x10]


def test_fp6_load_puts_12_data_bytes_in_each_16_byte_block():
    rows = [fp6_values(256, 3), fp6_values(256, 11)]
    g = np.array([fp6_pack(r) for r in rows], np.uint8)          # (2, 192)
    buf = shared(512)
    E.load(buf, 0, g, box=(2, 128), coords=(0, 128), format="float6_align16b")
    for r in range(2):
        packed = fp6_pack(rows[r][128:])                        # 96 bytes
        for b in range(8):
            blk = buf[r * 128 + 16 * b:r * 128 + 16 * b + 16]
            assert blk[:12].tolist() == packed[12 * b:12 * b + 12]
            assert (blk[12:] == S).all()
    info = E.box_image((2, 128), format="float6_align16b")
    assert (info["payload_bytes"], info["storage_bytes"], info["shape"]) == \
        (192, 256, (2, 128))


def test_fp6_out_of_bounds_rows_are_zero_values():
    g = np.array([fp6_pack(fp6_values(128, 1))], np.uint8)       # (1, 96)
    buf = shared(512)
    E.load(buf, 0, g, box=(2, 128), coords=(0, 0), format="float6_align16b", swizzle=3)
    # Row 1 is past the tensor: its data bytes read zero, padding untouched.
    row1 = E.unswizzled_image(buf, 0, box=(2, 128), format="float6_align16b", swizzle=3)[1]
    assert (row1 == 0).all()
    assert buf[128 + 0] == 0 and buf[128 + 16 * 1 + 12] == S   # block 0 -> 1 under 128B


def test_fp6_store_packs_one_value_per_shared_byte():
    vals = [fp6_values(128, 2), fp6_values(128, 9)]
    buf = shared(512)
    for r in range(2):
        line = (np.array(vals[r], np.uint8) | 0xC0)               # high bits ignored
        if r % 2:                                                  # swizzle 6 by hand
            line = np.concatenate([line[64:], line[:64]])
        buf[r * 128:(r + 1) * 128] = line
    g = np.zeros((3, 96), np.uint8)
    out = E.store(g, buf, 0, box=(2, 128), coords=(1, 0), format="float6_align16b",
                  swizzle=6)
    assert out[1].tolist() == fp6_pack(vals[0])
    assert out[2].tolist() == fp6_pack(vals[1])
    assert (out[0] == 0).all()
    info = E.box_image((2, 128), format="float6_align16b", direction="store")
    assert (info["payload_bytes"], info["storage_bytes"]) == (256, 256)


def test_fp6_rules():
    g = np.zeros((2, 192), np.uint8)
    kw = dict(box=(2, 128), coords=(0, 0), format="float6_align16b")
    with pytest.raises(ValueError, match="packed-swizzle"):
        E.load(shared(), 0, g, **kw, swizzle=6)                   # 64B atom: stores only
    with pytest.raises(ValueError, match="packed-swizzle"):
        E.store(g, shared(), 0, **kw, swizzle=1)
    with pytest.raises(ValueError, match="packed-inner-box"):
        E.load(shared(), 0, g, **{**kw, "box": (2, 64)})
    with pytest.raises(ValueError, match="packed-inner-dim"):
        E.load(shared(), 0, g[:, :90], **kw)
    with pytest.raises(ValueError, match="packed-alignment"):
        E.load(shared(), 0, g, **{**kw, "coords": (0, 64)})
    with pytest.raises(ValueError, match="packed-reduce"):
        E.store(g, shared(), 0, **kw, reduction="add")
    with pytest.raises(ValueError, match="oob-fill-float"):
        E.load(shared(), 0, g, **kw, oob_fill=1)


def test_format_table():
    assert {n: E.FORMATS[n].cu_value for n in
            ("float4_e2m1fn_align8b", "float4_e2m1fn", "float6_align16b")} == \
        {"float4_e2m1fn_align8b": 13, "float4_e2m1fn": 14, "float6_align16b": 15}
    assert E.get_format("float6_align16b").bits == 6
