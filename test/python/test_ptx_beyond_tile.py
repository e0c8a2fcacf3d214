"""The PTX of the forms beyond tile mode: im2col (all four modes), L2
prefetches of a box and of a tensor map, the sm_100 swizzle atoms and the
packed 16U4_ALIGN8B / 16U6_ALIGN16B formats. Each kernel is built with the
Python builder, lowered by tile-to-ptx, its PTX checked for exactly the
instructions written out below (spelled by hand from the PTX ISA), and
assembled by ptxas: the Hopper forms for sm_90a and sm_100a, the rest for
sm_100a only (no Blackwell card here: assembled, not executed)."""

from __future__ import annotations

import collections
import re

import pytest

ir = pytest.importorskip("mlir.ir")

from tile_mlir import compiler, kernel as K, tma  # noqa: E402

POLICY = 0x12F0000000000000
NHWC = (2, 6, 6, 32)
INSTRUCTION = re.compile(
    r"^\s*((?:cp(?:\.reduce)?\.async\.bulk(?:\.prefetch)?\.tensor|prefetch(?:\.param)?"
    r"\.tensormap)\S*)\s+(.*);\s*$", re.M)


def hopper_forms(A, B, C, D):
    """im2col loads (3-D/4-D/5-D, swizzled, strided, multicast, hinted),
    prefetches, im2col_no_offs store and reduction, prefetch.tensormap."""
    from tile_mlir.testing.barriers import compile_only_barrier
    bar = compile_only_barrier()  # initialised and armed
    s4 = K.alloc_shared((32, 32), "float16", align=1024)
    s4w = K.alloc_shared((64, 64), "float16", align=1024)
    s3 = K.alloc_shared((16, 8), "float32", align=1024)
    s5 = K.alloc_shared((64, 16), "uint8", align=1024)
    n = K.block_id()
    corners = dict(pixel_box_lower=(-1, -1), pixel_box_upper=(-1, -1))
    tma.prefetch_tensormap("conv")
    tma.apply("cp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_tx::bytes",
              s4, A, box=(32, 32), coords=(n, 0, 0, 0), offsets=(1, 2), mbar=bar,
              tag="conv", **corners)
    tma.apply("cp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_tx::bytes",
              s4w, B, box=(64, 64), coords=(0, -1, -1, 0), offsets=(0, 0), mbar=bar,
              swizzle=3, element_strides=(1, 2, 2, 1), **corners)
    tma.apply("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
              ".multicast::cluster.L2::cache_hint",
              s3, C, box=(16, 8), coords=(0, -2, 0), offsets=(3,), mbar=bar, cta_mask=3,
              cache_policy=POLICY, pixel_box_lower=(-2,), pixel_box_upper=(-2,))
    tma.apply("cp.async.bulk.tensor.5d.shared::cta.global.im2col.mbarrier::complete_tx::bytes",
              s5, D, box=(64, 16), coords=(0, -1, 0, -1, 16), offsets=(2, 1, 0), mbar=bar,
              pixel_box_lower=(-1, -1, -1), pixel_box_upper=(-1, -1, -1))
    tma.apply("cp.async.bulk.prefetch.tensor.4d.L2.global.im2col", A, box=(32, 32),
              coords=(n, 0, 0, 0), offsets=(1, 2), **corners)
    tma.apply("cp.async.bulk.prefetch.tensor.4d.L2.global.tile.L2::cache_hint", A,
              box=(1, 2, 6, 32), coords=(n, 0, 0, 0), cache_policy=POLICY)
    tma.apply("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group", A, s4,
              box=(32, 32), coords=(0, 1, 0, 0), pixel_box_lower=(0, 0),
              pixel_box_upper=(-1, -2))
    tma.apply("cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.im2col_no_offs.bulk_group",
              A, s4, box=(32, 32), coords=(0, 0, 0, 0), pixel_box_lower=(0, 0),
              pixel_box_upper=(0, 0))


HOPPER_EXPECTED = {
    "cp.async.bulk.tensor.4d.shared::cta.global.im2col.mbarrier::complete_tx::bytes": 2,
    "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
    ".multicast::cluster.L2::cache_hint": 1,
    "cp.async.bulk.tensor.5d.shared::cta.global.im2col.mbarrier::complete_tx::bytes": 1,
    "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col": 1,
    "cp.async.bulk.prefetch.tensor.4d.L2.global.tile.L2::cache_hint": 1,
    "cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group": 1,
    "cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.im2col_no_offs.bulk_group": 1,
}
# (coordinates, im2col operands) of each im2col / prefetch instruction.
HOPPER_OPERANDS = {"4d": (4, 2), "3d": (3, 1), "5d": (5, 3)}


def blackwell_forms(A, F4, F6, G):
    """im2col_w / im2col_w_128 (wHalo constant), their prefetch, the swizzle
    atoms, 16U4_ALIGN8B load+store, 16U6_ALIGN16B load+store, an im2col
    load with cta_group::2."""
    from tile_mlir.testing.barriers import compile_only_barrier
    bar = compile_only_barrier()  # initialised and armed
    w = K.alloc_shared((64 + 2, 64), "float16", align=1024)
    w128 = K.alloc_shared((4 * (32 + 4), 64), "float16", align=1024)
    tile = K.alloc_shared((8, 64), "float16", align=1024)
    f4 = K.alloc_shared((8, 64), "i8", align=1024)
    f6 = K.alloc_shared((8, 128), "i8", align=1024)
    wide = dict(pixel_box_lower=(-1,), pixel_box_upper=(-1,))
    tma.apply("cp.async.bulk.tensor.4d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes",
              w, G, box=(64, 64), coords=(0, 1, 0, 0), offsets=(2, 1), mbar=bar, swizzle=3,
              **wide)
    tma.apply("cp.async.bulk.tensor.4d.shared::cta.global.im2col::w::128"
              ".mbarrier::complete_tx::bytes",
              w128, G, box=(128, 64), coords=(0, 1, 0, 0), offsets=(4, 0), mbar=bar,
              swizzle=4, **wide)
    tma.apply("cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w", G, box=(64, 64),
              coords=(0, 1, 0, 0), offsets=(2, 1), swizzle=3, **wide)
    tma.apply("cp.async.bulk.tensor.4d.shared::cluster.global.im2col"
              ".mbarrier::complete_tx::bytes.cta_group::2",
              tile, G, box=(8, 64), coords=(0, 0, 0, 0), offsets=(1, 1), mbar=bar,
              pixel_box_lower=(-1, -1), pixel_box_upper=(-1, -1))
    for sw in (4, 5, 6):
        tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
                  tile, A, box=(8, 64), coords=(0, 0), mbar=bar, swizzle=sw)
    for sw in (4, 6):
        tma.apply("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group", A, tile,
                  box=(8, 64), coords=(0, 0), swizzle=sw)
    tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
              f4, F4, box=(8, 128), coords=(0, 0), mbar=bar, format="float4_e2m1fn_align8b")
    tma.apply("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group", F4, f4,
              box=(8, 128), coords=(0, 128), format="float4_e2m1fn_align8b")
    tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes",
              f6, F6, box=(8, 128), coords=(0, 0), mbar=bar, swizzle=3)
    tma.apply("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group", F6, f6,
              box=(8, 128), coords=(0, 128), swizzle=6)


BLACKWELL_EXPECTED = {
    "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes": 1,
    "cp.async.bulk.tensor.4d.shared::cta.global.im2col::w::128.mbarrier::complete_tx::bytes": 1,
    "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w": 1,
    "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
    ".cta_group::2": 1,
    "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes": 5,
    "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group": 4,
}


def _kernel(name, body, types, arch):
    return K.KernelDef(body, grid=2, block=32, cluster=(2, 1, 1),
                       target=compiler.target_attr(arch), name=name,
                       params=[(f"a{i}", K.Tensor(*t)) for i, t in enumerate(types)])


HOPPER_TYPES = [(NHWC, "float16"), ((2, 5, 7, 64), "float16"), ((3, 20, 8), "float32"),
                ((2, 3, 4, 5, 32), "uint8")]
BLACKWELL_TYPES = [((64, 256), "float16"), ((8, 256), "float4_e2m1fn"),
                   ((8, 256), "float6_e2m3fn"), ((2, 8, 128, 64), "float16")]


def _compile(which: str, arch: str):
    body, types = ((hopper_forms, HOPPER_TYPES) if which == "hopper"
                   else (blackwell_forms, BLACKWELL_TYPES))
    return compiler.compile(_kernel(f"k_{which}", body, types, arch), arch, cubin=False)


CASES = [("hopper", "sm_90a"), ("hopper", "sm_100a"), ("blackwell", "sm_100a")]


@pytest.mark.parametrize("which, arch", CASES)
def test_instructions(which, arch):
    artifact = _compile(which, arch)
    found = INSTRUCTION.findall(artifact.ptx)
    got = collections.Counter(spelling for spelling, _ in found)
    expected = HOPPER_EXPECTED if which == "hopper" else BLACKWELL_EXPECTED
    # tile.prefetch_tensormap: the map is a kernel parameter, prefetched from
    # the param space (LLVM 22's NVPTX also emits a generic-address twin).
    prefetches = got.pop("prefetch.param.tensormap", 0)
    got.pop("prefetch.tensormap", None)
    assert prefetches == (1 if which == "hopper" else 0)
    assert got == collections.Counter(expected)
    for spelling, operands in found:
        if ".im2col" not in spelling or "no_offs" in spelling:
            continue
        rank = re.search(r"\.(\d)d\.", spelling).group(1) + "d"
        coords = re.search(r"\{([^}]*)\}", operands).group(1)
        assert len(coords.split(",")) == int(rank[0]), operands
        # The im2col operand vector follows the coordinates (and mbarrier).
        info = re.findall(r"\{([^}]*)\}", operands)[1]
        want = 2 if "::w" in spelling else HOPPER_OPERANDS[rank][1]
        assert len(info.split(",")) == want, operands


@pytest.mark.parametrize("which, arch", CASES)
def test_ptxas_assembles(which, arch):
    ptxas = compiler.find_ptxas()
    if ptxas is None:
        pytest.skip("no ptxas (install a CUDA toolkit or nvidia-cuda-nvcc)")
    cubin = compiler.assemble(_compile(which, arch).ptx, arch, ptxas=ptxas)
    assert cubin[:4] == b"\x7fELF"


def test_im2col_tensor_maps():
    """The manifest's im2col maps carry the cuTensorMapEncodeIm2col(Wide)
    fields innermost-first; the tile prefetch shares nothing with them."""
    maps = _compile("hopper", "sm_90a").manifest["kernels"][0]["tensor_maps"]
    conv = [m for m in maps if m["encode"] == "im2col" and m["source"] == 0
            and m["mode"] == "im2col"]
    assert len(conv) == 1  # the load and its prefetch share one map
    assert conv[0]["pixel_box_lower"] == [-1, -1]
    assert conv[0]["channels_per_pixel"] == 32 and conv[0]["pixels_per_column"] == 32
    strided = [m for m in maps if m["source"] == 1][0]
    assert strided["element_strides"] == [1, 2, 2, 1] and strided["swizzle"] == 3
    five = [m for m in maps if m["source"] == 3][0]
    assert five["rank"] == 5 and len(five["pixel_box_upper"]) == 3
    assert {m["encode"] for m in maps} == {"im2col", "tiled"}
    wide = _compile("blackwell", "sm_100a").manifest["kernels"][0]["tensor_maps"]
    modes = {m["mode"]: m for m in wide if m["encode"] == "im2col_wide"}
    assert modes["im2col_w"]["wide_mode"] == 0 and modes["im2col_w_128"]["wide_mode"] == 1
    assert modes["im2col_w"]["pixel_box_lower"] == [-1]
    packed = {m["format"]: m["data_type"] for m in wide}
    assert packed["float4_e2m1fn_align8b"] == 13 and packed["float6_align16b"] == 15


def test_hopper_rejects_the_blackwell_forms():
    from tile_mlir.errors import TileVerifyError
    with pytest.raises(TileVerifyError) as err:
        _compile("blackwell", "sm_90a")
    assert err.value.rule == "target-sm100"
