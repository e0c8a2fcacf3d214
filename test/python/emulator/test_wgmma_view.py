"""The tensor core's view of a TMA-loaded operand (emulator/wgmma_view.py).

Every expectation is computed here by a small model written from the
documents, independent of the code under test:
  * a TMA load puts box element (r, c) at byte offset + r * pitch + c * e
    (pitch: the row's bytes, raised to the swizzle span), then XORs the
    16-byte chunk bits with the 128-byte line bits of the absolute address
    (32B: 1 bit, 64B: 2, 128B: 3; docs/decisions.md, measured on the H200);
  * the tensor core reads (row, k) at the PTX ISA's canonical layout
    ("Shared Memory Matrix Layout": K-major, rows of 8 x 16-byte core
    matrices, LBO along K and SBO between 8-row groups without swizzle,
    rows span bytes apart with one; MN-major, 8 K-rows x 16 bytes of MN,
    SBO along MN and LBO along K without swizzle, LBO between span-wide
    MN runs and SBO between 8-K-row groups with one), then the same XOR
    with the line counted from the base offset's line.
"""

import pytest

from tile_mlir import wgmma
from tile_mlir.emulator import wgmma_view as W
from tile_mlir.errors import TileUsageError

MASK = {0: 0, 32: 1, 64: 3, 128: 7}
DRIVER = {0: 0, 32: 1, 64: 2, 128: 3}     # CU_TENSOR_MAP_SWIZZLE_*


def xor(addr, span, base=0):
    line = addr >> 7
    return addr ^ (((line - base) & MASK[span]) << 4)


def model_load(placed, offset, box, origin, e, span):
    """Box element (r, c) of a 2-D load at global origin + (r, c)."""
    rows, cols = box
    pitch = max(cols * e, span)
    for r in range(rows):
        for c in range(cols):
            placed[xor(offset + r * pitch + c * e, span)] = (origin[0] + r, origin[1] + c)


def model_address(major, span, start, lbo, sbo, base, r, k, e):
    if major == "K":
        kb = k * e
        if span == 0:
            off = (r % 8) * 16 + (r // 8) * sbo + (kb // 16) * lbo + kb % 16
        else:
            off = (r % 8) * span + (r // 8) * sbo + kb
    else:
        rb = r * e
        if span == 0:
            off = rb % 16 + (rb // 16) * sbo + (k % 8) * 16 + (k // 8) * lbo
        else:
            off = rb % span + (rb // span) * lbo + (k % 8) * span + (k // 8) * sbo
    return xor(start + off, span, base)


def model_wrong(placed, major, span, start, lbo, sbo, base, rows, k, e, k0, origin=(0, 0)):
    """(row, k) whose first byte holds no element or another one than the
    GEMM's (origin + (row, k0 + k), MN-major: origin + (k0 + k, row))."""
    wrong = []
    for r in range(rows):
        for kk in range(k):
            want = ((origin[0] + r, origin[1] + k0 + kk) if major == "K"
                    else (origin[0] + k0 + kk, origin[1] + r))
            got = placed.get(model_address(major, span, start, lbo, sbo, base, r, kk, e))
            if got != want:
                wrong.append((r, kk))
    return wrong


def emulated(size, loads, e_format="bfloat16"):
    shared = W.SharedMap(size)
    for offset, global_shape, box, coords, span in loads:
        shared.load(offset, global_shape, box=box, coords=coords, format=e_format,
                    swizzle=DRIVER[span])
    return shared


def modelled(loads, e=2):
    placed = {}
    for offset, _, box, coords, span in loads:
        model_load(placed, offset, box, coords, e, span)
    return placed


def wrong_pairs(view, shared, **kw):
    return [(m.row, m.k) for m in W.check(view, shared, **kw)]


@pytest.mark.parametrize("major,span", [(m, s) for m in ("K", "MN")
                                        for s in (0, 32, 64, 128)])
@pytest.mark.parametrize("base", [0, 3])
def test_addresses_follow_the_canonical_layouts(major, span, base):
    lbo, sbo, start = 2048, 512 if span else 256, 0x460
    desc = wgmma.Descriptor(start, lbo, sbo, span, base if span else 0)
    view = W.operand_addresses(desc, role="B", major=major, dtype="bf16", rows=64, k=32)
    for r in range(64):
        for k in range(32):
            want = model_address(major, span, start, lbo, sbo, base if span else 0, r, k, 2)
            assert view.addresses[r, k] == want, (r, k)


def test_the_gpu_kernels_configuration_reads_every_element_right():
    pytest.importorskip("mlir.ir")
    from tile_mlir.testing import wgmma_kernels as G
    assert (G.SWIZZLE_BYTES, G.SBO, G.LBO, G.K_STEP_BYTES) == (128, 1024, 16, 32)
    for n in G.NS + (G.RUNTIME_SCALE_N,):
        b_at = G.M * G.ROW_BYTES      # the B tile follows A's 8192 bytes
        loads = [(0, (G.M, G.K_EXTENT), (G.M, G.K_EXTENT), (0, 0), 128),
                 (b_at, (n, G.K_EXTENT), (n, G.K_EXTENT), (0, 0), 128)]
        shared, placed = emulated(b_at + n * 128, loads), modelled(loads)
        for step in range(G.K_EXTENT // 16):
            for role, at, rows in (("A", 0, 64), ("B", b_at, n)):
                start = at + step * G.K_STEP_BYTES
                value = wgmma.matrix_descriptor(start, G.LBO, G.SBO, G.SWIZZLE_BYTES)
                view = W.operand_addresses(value, role=role, rows=rows if role == "B"
                                           else None)
                assert wrong_pairs(view, shared, k0=16 * step) == []
                assert model_wrong(placed, "K", 128, start, G.LBO, G.SBO, 0, rows, 16,
                                   2, 16 * step) == []


@pytest.mark.parametrize("span,steps", [(64, 2), (32, 1)])
@pytest.mark.parametrize("n", [8, 24, 64])
def test_narrower_swizzles_with_matching_boxes(span, steps, n):
    cols = span // 2
    loads = [(0, (64, 128), (64, cols), (0, 0), span),
             (64 * span, (n, 128), (n, cols), (0, 0), span)]
    shared = emulated(64 * span + n * span, loads)
    for step in range(steps):
        for role, at, rows in (("A", 0, 64), ("B", 64 * span, n)):
            desc = wgmma.Descriptor(at + 32 * step, 16, 8 * span, span)
            view = W.operand_addresses(desc, role=role, rows=rows if role == "B" else None)
            assert wrong_pairs(view, shared, k0=16 * step) == []


def test_no_swizzle_core_matrices_from_16_byte_boxes():
    # A: two boxes of 64 rows x 8 bf16 (one core-matrix column each):
    # 8-row groups 128 bytes apart (SBO), the next K chunk 1024 bytes on (LBO).
    loads = [(0, (64, 64), (64, 8), (0, 0), 0), (1024, (64, 64), (64, 8), (0, 8), 0)]
    shared, placed = emulated(2048, loads), modelled(loads)
    view = W.operand_addresses(wgmma.Descriptor(0, 1024, 128, 0), role="A")
    assert wrong_pairs(view, shared) == []
    assert model_wrong(placed, "K", 0, 0, 1024, 128, 0, 64, 16, 2, 0) == []
    # LBO and SBO swapped: core matrix (group g, chunk j) is read at
    # g * 1024 + j * 128, where (j, g) lies: right only where g == j.
    swapped = W.operand_addresses(wgmma.Descriptor(0, 128, 1024, 0), role="A")
    expect = model_wrong(placed, "K", 0, 0, 128, 1024, 0, 64, 16, 2, 0)
    assert wrong_pairs(swapped, shared) == expect and len(expect) == 64 * 16 - 2 * 64


def test_mn_major_b_from_two_128b_boxes():
    # B stored K x N (N contiguous), N = 128 = two 64-element boxes of the
    # swizzle span: the second MN run LBO = 8192 bytes on; 8-K-row groups
    # SBO = 1024 apart; a K step of 16 rows moves 2048 bytes.
    loads = [(0, (64, 128), (64, 64), (0, 0), 128), (8192, (64, 128), (64, 64), (0, 64), 128)]
    shared, placed = emulated(16384, loads), modelled(loads)
    for step in range(4):
        desc = wgmma.Descriptor(2048 * step, 8192, 1024, 128)
        view = W.operand_addresses(desc, role="B", major="MN", rows=128)
        assert wrong_pairs(view, shared, k0=16 * step) == []
        assert model_wrong(placed, "MN", 128, 2048 * step, 8192, 1024, 0, 128, 16, 2,
                           16 * step) == []


def test_mn_major_no_swizzle_core_matrices():
    # Boxes of 16 K-rows x 8 N (16 bytes a row): core matrices of 8 K-rows
    # x 16 bytes; the next 8 N (SBO) 256 bytes on, the next 8 K-rows (LBO) 128.
    loads = [(0, (16, 16), (16, 8), (0, 0), 0), (256, (16, 16), (16, 8), (0, 8), 0)]
    shared = emulated(512, loads)
    view = W.operand_addresses(wgmma.Descriptor(0, 128, 256, 0), role="B", major="MN",
                               rows=16)
    assert wrong_pairs(view, shared) == []


def test_128b_descriptor_over_an_unswizzled_copy_reads_87_percent_wrong():
    loads = [(0, (64, 64), (64, 64), (0, 0), 0)]
    shared, placed = emulated(8192, loads), modelled(loads)
    for step in range(4):
        view = W.operand_addresses(wgmma.Descriptor(32 * step, 16, 1024, 128), role="A")
        got = wrong_pairs(view, shared, k0=16 * step)
        expect = model_wrong(placed, "K", 128, 32 * step, 16, 1024, 0, 64, 16, 2, 16 * step)
        assert got == expect
        # Only rows whose line phase is 0 (r % 8 == 0) read the right chunk.
        assert len(got) == 56 * 16 and len(got) / (64 * 16) == 0.875
        assert {r for r, _ in got} == {r for r in range(64) if r % 8}


def test_sbo_in_bytes_instead_of_shifted_reads_past_the_tiles():
    loads = [(0, (64, 64), (64, 64), (0, 0), 128), (8192, (64, 64), (64, 64), (0, 0), 128)]
    shared = emulated(16384, loads)
    # The SBO field holds 1024 itself, not 1024 >> 4: the tensor core
    # steps 16384 bytes between 8-row groups.
    value = (0 >> 4) | (16 >> 4) << 16 | 1024 << 32 | 1 << 62
    view = W.operand_addresses(value, role="A")
    assert view.descriptor.sbo == 16384
    wrong = W.check(view, shared)
    assert len(wrong) == 56 * 16
    assert {m.row for m in wrong} == set(range(8, 64))
    assert {m.status for m in wrong} == {W.OUTSIDE}


def test_base_offset_against_a_tma_image_128_bytes_past_the_period():
    # A slot at byte 128: the copy engine's pattern still starts at the
    # 1024-byte boundary, so base offset 0 reads it right and the PTX
    # formula's (128 >> 7) & 7 = 1 shifts every row's phase by one.
    loads = [(128, (64, 64), (64, 64), (0, 0), 128)]
    shared, placed = emulated(128 + 8192, loads), modelled(loads)
    right = W.operand_addresses(wgmma.Descriptor(128, 16, 1024, 128, 0), role="A")
    assert wrong_pairs(right, shared) == []
    shifted = W.operand_addresses(wgmma.Descriptor(128, 16, 1024, 128, 1), role="A")
    got = wrong_pairs(shifted, shared)
    assert got == model_wrong(placed, "K", 128, 128, 16, 1024, 1, 64, 16, 2, 0)
    assert len(got) == 64 * 16


def test_n_rounded_up_to_16_over_a_24_row_tile():
    # B has N = 24 (8 mod 16) rows loaded; a wgmma of N = 32 reads 8 rows
    # no load wrote.
    loads = [(0, (24, 64), (24, 64), (0, 0), 128)]
    shared = emulated(4096, loads)
    view = W.operand_addresses(wgmma.Descriptor(0, 16, 1024, 128), role="B", rows=32)
    wrong = W.check(view, shared)
    assert len(wrong) == 8 * 16 and len(wrong) / (32 * 16) == 0.25
    assert {m.row for m in wrong} == set(range(24, 32))
    assert {m.status for m in wrong} == {W.NOT_WRITTEN}
    exact = W.operand_addresses(wgmma.Descriptor(0, 16, 1024, 128), role="B", rows=24)
    assert W.check(exact, shared) == []


def test_out_of_bounds_fill_and_torn_elements_are_named():
    # The box hangs 8 rows past a 56-row tensor: those rows are the fill.
    shared = emulated(8192, [(0, (56, 64), (64, 64), (0, 0), 128)])
    view = W.operand_addresses(wgmma.Descriptor(0, 16, 1024, 128), role="A")
    wrong = W.check(view, shared)
    assert {m.row for m in wrong} == set(range(56, 64))
    assert {m.status for m in wrong} == {W.FILLED}
    # 4-byte elements read as 2-byte ones: each operand element is half of one.
    shared32 = W.SharedMap(8192).load(0, (64, 32), box=(64, 32), coords=(0, 0),
                                      format="float32", swizzle=3)
    halves = W.check(view, shared32)
    assert len(halves) == 64 * 16
    assert {m.status for m in halves} == {W.TORN}


@pytest.mark.parametrize("kwargs,rule,named", [
    (dict(role="C"), "wgmma-shape", "'C'"),
    (dict(major="N"), "wgmma-shape", "'N'"),
    (dict(major="MN", dtype="e4m3"), "wgmma-dtype", "e4m3"),
    (dict(role="A", rows=128), "wgmma-shape", "128"),
    (dict(role="B", rows=12), "wgmma-shape", "12"),
    (dict(role="B"), "wgmma-shape", "None"),
    (dict(k=24), "wgmma-shape", "24"),
    (dict(dtype="f64"), "wgmma-dtype", "f64"),
])
def test_bad_arguments_name_their_rule(kwargs, rule, named):
    with pytest.raises(TileUsageError) as err:
        W.operand_addresses(wgmma.Descriptor(0, 16, 1024, 128), **kwargs)
    assert err.value.rule == rule
    assert named in str(err.value)


def test_bad_descriptor_names_its_rule():
    with pytest.raises(TileUsageError) as err:
        W.operand_addresses(1 << 14)
    assert err.value.rule == "wgmma-descriptor-field" and "14" in str(err.value)
    with pytest.raises(TileUsageError) as err:
        W.operand_addresses(wgmma.Descriptor(8, 16, 1024, 128))
    assert err.value.rule == "wgmma-descriptor-field" and "start 8" in str(err.value)
