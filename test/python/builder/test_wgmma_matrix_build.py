"""The wgmma GPU matrix on the CPU (tile_mlir.testing.wgmma_plan and
wgmma_kernels; test/gpu/test_wgmma_matrix.py runs it):

  * every layout of the matrix reads the GEMM: the emulator's wgmma view of
    its loads and descriptors, fed random integers, gives numpy's A @ B.T;
  * every kernel (valid ones checked, planted ones with checks off)
    compiles to PTX with one wgmma of the expected form per K step, and
    ptxas accepts it where ptxas exists;
  * the unchecked build of a valid kernel is the checked one, PTX for PTX,
    so a planted kernel is what the op would emit for its fields;
  * with checks on each plant is rejected naming its rule; the emulator's
    predictions of three plants agree with a model written here by hand.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from tile_mlir.testing import wgmma_plan as P

MATRIX = P.matrix()
PLANTED = P.planted()


def _ids(configs):
    return [c.name for c in configs]


def test_the_matrix_covers_every_type_swizzle_and_major():
    keys = {(c.dtype, c.swizzle, c.major) for c in MATRIX}
    for dtype in ("bf16", "f16", "tf32", "e4m3", "e5m2", "s8", "u8"):
        for swizzle in range(4):
            assert (dtype, swizzle, "k") in keys
            if dtype in ("bf16", "f16"):
                assert (dtype, swizzle, "mn") in keys
    assert {c.n for c in MATRIX if c.dtype == "bf16"} >= {8, 24, 64, 128, 256}
    assert any(c.multicast and c.major == "mn" for c in MATRIX)
    assert len({c.name for c in MATRIX + PLANTED}) == len(MATRIX) + len(PLANTED)


@pytest.mark.parametrize("cfg", MATRIX, ids=_ids(MATRIX))
def test_the_emulated_layout_reads_the_gemm(cfg):
    rng = np.random.default_rng(7)
    a, b = P.inputs(cfg, rng)
    expected = a[:P.M].astype(np.int64) @ b.astype(np.int64).T
    assert np.array_equal(P.predict(cfg, a, b), expected)


@pytest.mark.parametrize("dtype", list(P.TYPES))
def test_host_bits_encode_the_integers(dtype):
    values = np.arange(-4, 5) if dtype != "u8" else np.arange(0, 9)
    bits = P.host_bits(dtype, values)
    if dtype == "e4m3":     # sign, 4 exponent bits (bias 7), 3 mantissa bits
        assert bits.tolist() == [0xC8, 0xC4, 0xC0, 0xB8, 0, 0x38, 0x40, 0x44, 0x48]
    elif dtype == "e5m2":   # bias 15, 2 mantissa bits
        assert bits.tolist() == [0xC4, 0xC2, 0xC0, 0xBC, 0, 0x3C, 0x40, 0x42, 0x44]
    elif dtype == "bf16":
        assert bits.tolist()[4:] == [0, 0x3F80, 0x4000, 0x4040, 0x4080]
    else:
        assert bits.astype(np.int64).tolist() == values.tolist()


def _planted_a_b(name):
    cfg = P.PLANTS[name].config
    a, b = P.inputs(cfg, np.random.default_rng(3))
    return cfg, a, b


def test_k_step_past_row_prediction_matches_a_hand_model():
    # Steps 1..4 of a 128B bf16 tile: steps 1-3 read k 16..63; step 4
    # starts 128 bytes on, which the swizzle reads as the next row's k 0..15
    # (its line's phase is the next row's); A's last row reads B's first,
    # which follows A, and B's last row reads the zeroed window.
    cfg, a, b = _planted_a_b("k_step_past_row")
    a_next = np.vstack([a[1:], b[:1]])
    b_next = np.vstack([b[1:], np.zeros((1, b.shape[1]), b.dtype)])
    expected = a[:, 16:] @ b[:, 16:].T + a_next[:, :16] @ b_next[:, :16].T
    assert np.array_equal(P.predict(cfg, a, b), expected)


def test_sbo_in_bytes_prediction_matches_a_hand_model():
    # 8-row groups 16384 bytes apart: only the first 8 rows of each tile
    # are read where the loads wrote; every other row reads zeros.
    cfg, a, b = _planted_a_b("sbo_in_bytes")
    expected = np.zeros((64, 64), np.int64)
    expected[:8, :8] = a[:8] @ b[:8].T
    assert np.array_equal(P.predict(cfg, a, b), expected)


def test_a_tile_a_line_into_its_image_reads_in_phase_with_base_offset_0():
    # The copy engine swizzles by address from the period's start; so does
    # a descriptor of base offset 0, wherever it starts: one row into A's
    # image it reads A's rows 1..63 and then B's first row (B follows A).
    cfg = P.Config("bf16", 3, "k", 64)
    plant = P.Plant(cfg, None, "", {"desc_shift": 128}, tiles=("a",))
    p = plant.apply(P.plan(cfg))
    a, b = P.inputs(cfg, np.random.default_rng(4))
    shared = P.shared_map(p)
    view = next(P._views(p))
    got = P.W.operand_elements(view, shared)
    assert (got.status == P.W.READ).all()
    rows = got.coords[:, 0, 1]
    assert rows.tolist() == list(range(1, 64)) + [0]
    assert got.coords[:63, 0, 0].tolist() == [0] * 63 and got.coords[63, 0, 0] == 1


def test_multicast_rank_offset_prediction_reads_zeros_in_rank_1():
    # Rank 0 reads B where the multicast wrote it; rank 1's descriptor is
    # 8192 bytes further, in the zeroed window: its products are 0.
    cfg, a, b = _planted_a_b("multicast_rank_offset")
    out = P.predict_all(cfg, a, b)
    assert np.array_equal(out[:64], a[:64] @ b.T)
    assert not out[64:].any()


PREDICTED = [c for c in PLANTED if P.PLANTS[c.plant].predictable]


@pytest.mark.parametrize("cfg", PREDICTED, ids=_ids(PREDICTED))
def test_every_plant_predicts_wrong_elements(cfg):
    a, b = P.inputs(cfg, np.random.default_rng(5))
    wrong = P.predict_all(cfg, a, b) != P.reference(a, b)
    assert wrong.any()


# --- compiling (MLIR) --------------------------------------------------------

def _mlir():
    pytest.importorskip("mlir.ir")
    from tile_mlir import compiler
    from tile_mlir.testing import wgmma_kernels as G
    from tile_mlir.toolchain import find_ptxas
    return compiler, G, find_ptxas() is not None


@pytest.mark.parametrize("cfg", MATRIX + PLANTED, ids=_ids(MATRIX + PLANTED))
def test_every_kernel_compiles_and_assembles(cfg):
    compiler, G, cubin = _mlir()
    art = compiler.compile(G.build(cfg, checks=cfg.plant is None), cubin=cubin,
                           cache=False)
    p = P.plan(cfg)
    read = p.read_dtype     # a plant may read another type than it loads
    acc, kinds = P.TYPES[read][2], f"{read}.{read}"
    k = 32 // P.TYPES[read][1]
    form = rf"wgmma\.mma_async\.sync\.aligned\.m64n{cfg.n}k{k}\.{acc}\.{kinds}"
    assert len(re.findall(form, art.ptx)) == len(p.steps), form
    assert ("multicast::cluster" in art.ptx) == cfg.multicast
    info = art.manifest["kernels"][0]
    assert info["dynamic_shared_bytes"] >= p.window
    if cubin:
        assert art.cubin and info["registers"] > 0


@pytest.mark.parametrize("cfg", [c for c in MATRIX if c.n in (8, 64) or c.multicast][::3],
                         ids=lambda c: c.name)
def test_the_unchecked_build_is_the_checked_kernel(cfg):
    compiler, G, _ = _mlir()
    checked = compiler.compile(G.build(cfg, checks=True), cubin=False, cache=False)
    unchecked = compiler.compile(G.build(cfg, checks=False), cubin=False, cache=False)
    assert checked.ptx == unchecked.ptx


RULED = [p for p in P.PLANTS.values() if p.rule is not None]


@pytest.mark.parametrize("plant", RULED, ids=[p.config.name for p in RULED])
def test_a_plant_with_checks_on_is_rejected_naming_its_rule(plant):
    compiler, G, _ = _mlir()
    from tile_mlir.errors import TileVerifyError
    with pytest.raises(TileVerifyError) as err:
        compiler.compile(G.build(plant.config, checks=True), cubin=False, cache=False)
    assert err.value.rule == plant.rule
    named = {"swizzle_over_unswizzled_copy": "swizzle 0 (none)",
             "core_matrices_over_whole_rows": "inner box rows of 64 bytes",
             "sbo_in_bytes": "sbo 16384", "k_step_past_row": "k_step 4",
             "base_offset_1": "base_offset 1 on a tile 0 bytes into",
             "line_base_offset": "base_offset 1 on a tile 128 bytes into",
             "unwaited_copy": "no mbarrier wait between the load and it",
             "multicast_rank_offset": "computed from the CTA's rank",
             "f16_over_bf16_copy": "f16",
             "a_rows_60": "rows 60",
             "tf32_mn_major": "MN-major",
             "base_offset_1_64b": "base_offset 1 on a tile 0 bytes into",
             "base_offset_1_32b": "base_offset 1 on a tile 0 bytes into"}
    assert named[plant.config.plant] in str(err.value)


def test_every_plant_names_a_rule():
    assert all(p.rule is not None for p in P.PLANTS.values())


def test_the_unwaited_plant_waits_only_after_its_wgmmas():
    compiler, G, _ = _mlir()
    ptx = compiler.compile(G.build(P.PLANTS["unwaited_copy"].config, checks=False),
                           cubin=False, cache=False).ptx
    assert ptx.index("wgmma.mma_async") < ptx.index("mbarrier.try_wait.parity")


def test_the_registers_epilogue_kernel_compiles():
    # A in registers: the A operand is a brace list of four registers, not a
    # descriptor; four k16 steps; the epilogue is four stmatrix.x4 per
    # thread (64 columns) and one TMA store.
    compiler, G, cubin = _mlir()
    art = compiler.compile(G.build_registers_epilogue(), cubin=cubin, cache=False)
    mmas = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.bf16\.bf16 "
                      r"\{[^}]*\}, \{%r\d+, %r\d+, %r\d+, %r\d+\}, %rd\d+", art.ptx)
    assert len(mmas) == 4
    assert len(re.findall(r"stmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16", art.ptx)) == 4
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in art.ptx


def test_the_rounds_kernel_checks_its_reads_in_a_debug_build():
    # Three rounds of A's and B's descriptors (4 steps each): 24 read sites,
    # and the rule among those the manifest can decode; none in release.
    compiler, G, _ = _mlir()
    debug = compiler.compile(G.build_rounds(), cubin=False, cache=False, debug=True)
    entry = debug.manifest["debug"]
    assert "wgmma-unwaited-copy" in entry["rules"]
    reads = [s for s in entry["sites"] if "tile.wgmma_descriptor (read" in s]
    assert len(reads) == 2 * 4 * G.ROUNDS
    release = compiler.compile(G.build_rounds(), cubin=False, cache=False)
    assert "debug" not in release.manifest and "mbarrier.test_wait" not in release.ptx
