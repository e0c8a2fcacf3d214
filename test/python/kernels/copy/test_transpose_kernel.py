"""The TMA transpose kernels (tile_mlir.kernels: build_transpose and the
in-place forms), without a GPU.

* it builds, verifies and compiles for sm_90a (ptxas when one is found), and
  the PTX holds the TMA load and store, ldmatrix.trans/stmatrix (or the
  scalar 16-bit shared accesses), the proxy fence and the bulk-group waits;
* a CPU model of one CTA's data path runs the kernel's own lane -> address
  maps on integers: TMA loads and stores by the numpy emulator
  (tile_mlir.emulator), ldmatrix.x4.trans / stmatrix.x4 as the PTX ISA
  defines their fragments; the result must be the exact transpose, also with
  a dynamic-shared base that is 128- but not 1024-byte aligned, and the
  shared accesses of every warp instruction must be free of bank conflicts
  with the 128B swizzle.
"""

import re

import numpy as np
import pytest

pytest.importorskip("mlir.ir")

from tile_mlir import compiler, emulator  # noqa: E402
from tile_mlir.builder import IntOps  # noqa: E402
# The kernels' swizzle is the emulator's map, applied to IR values.
from tile_mlir.emulator.swizzle import swizzle_address  # noqa: E402
from tile_mlir.kernels import (build_transpose, build_transpose_dynamic,  # noqa: E402
                               build_transpose_one_tile, make_plan)

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


@pytest.mark.parametrize("method", ["ldmatrix", "scalar"])
def test_compiles_for_sm90a(method):
    kernel = build_transpose(128, 192, tile=(64, 64), stages=2, grid=2,
                             method=method)
    art = compiler.compile(kernel, "sm_90a", cubin=compiler.find_ptxas() is not None)
    ptx = art.ptx
    assert ptx.count(LOAD) >= 2          # prologue + refill
    assert ptx.count(STORE) >= 1
    assert "mbarrier.try_wait.parity" in ptx
    assert "fence.proxy.async.shared::cta" in ptx
    assert "cp.async.bulk.commit_group" in ptx
    assert "cp.async.bulk.wait_group.read 0" in " ".join(ptx.split())
    if method == "ldmatrix":
        assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in ptx
        assert "stmatrix.sync.aligned.m8n8.x4.shared.b16" in ptx
    else:
        assert "ld.shared.b16" in ptx or "ld.shared.u16" in ptx
        assert "st.shared.b16" in ptx or "st.shared.u16" in ptx
    (info,) = art.manifest["kernels"]
    assert info["block"][0] == 128 and info["grid"][0] == 2
    assert info["dynamic_shared_bytes"] == kernel.plan.shared_bytes
    maps = sorted(info["tensor_maps"], key=lambda m: m["source"])
    assert [m["source"] for m in maps] == [0, 1]
    assert all(m["swizzle"] == 3 for m in maps)
    if art.cubin is not None:
        assert len(art.cubin) > 0


# -- CPU model of the data path -----------------------------------------------

def _ldmatrix_x4_trans(shared, addrs):
    """Registers (lane, matrix) of ldmatrix.m8n8.x4.trans.b16: lanes 8g..8g+7
    give the row addresses of matrix g; .trans hands out the fragment of the
    transposed matrix (lane t: row t // 4, columns 2 (t % 4) and + 1, the
    lower column in the low half)."""
    regs = np.zeros((32, 4), np.uint32)
    for g in range(4):
        m = np.stack([shared[a:a + 16].view(np.uint16) for a in addrs[8 * g:8 * g + 8]])
        mt = m.T.astype(np.uint32)
        for t in range(32):
            r, c = t // 4, 2 * (t % 4)
            regs[t, g] = mt[r, c] | (mt[r, c + 1] << 16)
    return regs


def _stmatrix_x4(shared, addrs, regs):
    """stmatrix.m8n8.x4.b16: lane t's register g is row t // 4, columns
    2 (t % 4) and + 1 of matrix g, whose rows lanes 8g..8g+7 address."""
    for g in range(4):
        for t in range(32):
            a = addrs[8 * g + t // 4] + 4 * (t % 4)
            shared[a:a + 4] = np.array([regs[t, g]], np.uint32).view(np.uint8)


def _conflicts(byte_addrs, width):
    """Most distinct 32-bit words in one bank over one shared access."""
    words = {int(a) // 4 + i for a in byte_addrs for i in range(max(1, width // 4))}
    banks = {}
    for w in words:
        banks.setdefault(w % 32, set()).add(w)
    return max(len(v) for v in banks.values())


def _tma_load_tile(plan, shared, addr, a, i0, j0):
    """The kernel's TMA load of in-tile (i0, j0) at shared byte `addr`:
    TC / W boxes of TR x W, or one (TR, TC / W, W) box with `wide_in`."""
    tr, tc = plan.tile
    w, sw = plan.width, plan.swizzle
    if plan.wide_in:
        emulator.load(shared, addr, a.reshape(plan.rows, plan.cols // w, w),
                      box=(tr, tc // w, w), coords=(i0, j0 // w, 0), swizzle=sw,
                      format="bfloat16")
        return
    for k in range(tc // w):
        emulator.load(shared, addr + k * tr * plan.row_bytes, a, box=(tr, w),
                      coords=(i0, j0 + k * w), swizzle=sw, format="bfloat16")


def _tma_store_tile(plan, b, shared, addr, i0, j0):
    """The kernel's TMA store of the transposed tile at shared byte `addr`
    into B (returned): TR / W boxes of TC x W, or one (TC, TR / W, W) box
    with `wide_out`."""
    tr, tc = plan.tile
    w, sw = plan.width, plan.swizzle
    if plan.wide_out:
        b3 = emulator.store(b.reshape(plan.cols, plan.rows // w, w), shared, addr,
                            box=(tc, tr // w, w), coords=(j0, i0 // w, 0),
                            swizzle=sw, format="bfloat16")
        return b3.reshape(plan.cols, plan.rows)
    for m in range(tr // w):
        b = emulator.store(b, shared, addr + m * tc * plan.row_bytes, box=(tc, w),
                           coords=(j0, i0 + m * w), swizzle=sw, format="bfloat16")
    return b


def _ld_step(plan, warp, lanes, k, src_base, dst_base):
    """The swizzled shared addresses (src, dst) the 32 lanes give warp
    `warp`'s k-th ldmatrix.x4.trans / stmatrix.x4 pair, and its worst
    bank-conflict degree (one 8-row phase per matrix)."""
    src, dst = plan.ld_lane(warp, lanes, k, IntOps)
    src = swizzle_address(src_base + src, plan.swizzle, IntOps)
    dst = swizzle_address(dst_base + dst, plan.swizzle, IntOps)
    assert not (src % 16).any() and not (dst % 16).any()
    degree = max(max(_conflicts(src[8 * g:8 * g + 8], 16),
                     _conflicts(dst[8 * g:8 * g + 8], 16)) for g in range(4))
    return src, dst, degree


def _model(plan, a, base=0):
    """B as the kernel leaves it, one tile at a time (stage rotation as the
    persistent loop does it); returns (B, worst bank-conflict degree)."""
    sw = plan.swizzle
    shared = np.full(base + plan.shared_bytes, 0xA5, np.uint8)
    b = np.zeros((plan.cols, plan.rows), np.uint16)
    lanes = np.arange(32)
    worst = 1
    for t in range(plan.n_tiles):
        i0, j0 = plan.tile_origin(t, IntOps)
        in_base = base + plan.in_offset + (t % plan.stages) * plan.tile_bytes
        out_base = base + plan.out_offset + (t % plan.out_stages) * plan.tile_bytes
        _tma_load_tile(plan, shared, in_base, a, i0, j0)
        for warp in range(plan.warps):
            if plan.method == "ldmatrix":
                for k in range(plan.ld_ops_per_warp):
                    src, dst, degree = _ld_step(plan, warp, lanes, k, in_base, out_base)
                    worst = max(worst, degree)
                    _stmatrix_x4(shared, dst, _ldmatrix_x4_trans(shared, src))
            else:
                for k in range(plan.scalar_ops_per_warp):
                    src, dst = plan.scalar_lane(warp, lanes, k, IntOps)
                    src = swizzle_address(in_base + src, sw, IntOps)
                    dst = swizzle_address(out_base + dst, sw, IntOps)
                    worst = max(worst, _conflicts(src, 2), _conflicts(dst, 2))
                    values = [shared[s:s + 2].copy() for s in src]
                    for d, v in zip(dst, values):
                        shared[d:d + 2] = v
        b = _tma_store_tile(plan, b, shared, out_base, i0, j0)
    return b, worst


@pytest.mark.parametrize("method, tile, threads, swizzle, base, group", [
    ("ldmatrix", (64, 64), 128, 3, 0, 1),
    ("ldmatrix", (128, 64), 128, 3, 0, 1),
    ("ldmatrix", (64, 128), 256, 3, 384, 1),   # base 128- not 1024-aligned
    ("ldmatrix", (128, 128), 256, 3, 0, 1),
    ("ldmatrix", (64, 64), 128, 3, 0, 2),      # grouped tile order
    ("ldmatrix", (64, 64), 128, 0, 0, 1),
    ("ldmatrix", (32, 32), 32, 2, 0, 1),
    ("scalar", (64, 64), 256, 3, 0, 1),
    ("scalar", (64, 128), 128, 3, 640, 1),
])
def test_model_transposes_exactly(method, tile, threads, swizzle, base, group):
    rows, cols = 2 * group * tile[0], 3 * group * tile[1]
    plan = make_plan(rows, cols, tile=tile, stages=2, out_stages=2, threads=threads,
                     grid=2, swizzle=swizzle, method=method, group=group)
    a = np.random.default_rng(1).integers(0, 1 << 16, (rows, cols), dtype=np.uint16)
    b, worst = _model(plan, a, base)
    np.testing.assert_array_equal(b, a.T)
    if swizzle == 3:
        assert worst == 1, f"{worst}-way bank conflict"


@pytest.mark.parametrize("group", [1, 2, 4])
def test_tile_order_covers_every_tile_once(group):
    plan = make_plan(8 * 64, 12 * 64, tile=(64, 64), group=group)
    i0, j0 = plan.tile_origin(np.arange(plan.n_tiles), IntOps)
    assert len(set(zip(i0.tolist(), j0.tolist()))) == plan.n_tiles
    assert i0.max() == plan.rows - 64 and j0.max() == plan.cols - 64
    if group > 1:  # the first group**2 tiles form one square
        assert set(i0[:group * group] // 64) == set(range(group))
        assert set(j0[:group * group] // 64) == set(range(group))


def test_rejects_bad_shapes():
    with pytest.raises(ValueError):
        make_plan(100, 128)                      # not whole tiles
    with pytest.raises(ValueError):
        make_plan(128, 128, tile=(96, 64))       # not a multiple of the box width
    with pytest.raises(ValueError):
        make_plan(256, 256, tile=(256, 256), stages=3)   # > 227 KiB
    with pytest.raises(ValueError):
        make_plan(128, 128, out_stages=1)


# -- one tile per CTA, transposed in place -------------------------------------

def _model_one_tile(plan, a, base=0):
    """B as build_transpose_one_tile leaves it: per tile, the TMA load(s)
    into one buffer, every warp's ldmatrix.x4.trans reads (all before the
    CTA barrier), then every warp's stmatrix.x4 writes into the same bytes,
    then the TMA store(s). Returns (B, worst bank-conflict degree)."""
    shared = np.full(base + plan.tile_bytes, 0xA5, np.uint8)
    b = np.zeros((plan.cols, plan.rows), np.uint16)
    lanes = np.arange(32)
    worst = 1
    for t in range(plan.n_tiles):
        i0, j0 = plan.tile_origin(t, IntOps)
        _tma_load_tile(plan, shared, base, a, i0, j0)
        moves = []
        for warp in range(plan.warps):
            for k in range(plan.ld_ops_per_warp):
                src, dst, degree = _ld_step(plan, warp, lanes, k, base, base)
                worst = max(worst, degree)
                moves.append((dst, _ldmatrix_x4_trans(shared, src)))
        for dst, regs in moves:  # after the barrier: every read is done
            _stmatrix_x4(shared, dst, regs)
        b = _tma_store_tile(plan, b, shared, base, i0, j0)
    return b, worst


@pytest.mark.parametrize("tile, threads, order, wide_in, wide_out, base, conflicts", [
    ((64, 64), 64, "row", False, False, 0, 1),
    ((128, 64), 128, "column", False, False, 384, 1),
    ((64, 128), 128, "column", False, False, 0, 1),
    ((128, 128), 256, "column", False, False, 0, 1),
    # One 3-D box per tile: rows of 2 x 128 bytes; the 128B swizzle period
    # (8 chunks of 128 bytes) then spans 4 tile rows, so ldmatrix's 8 rows
    # meet twice per bank: 2-way conflicts, the price of the wide box.
    ((128, 128), 256, "column", False, True, 0, 2),
    ((128, 128), 256, "column", True, True, 0, 2),
    ((64, 128), 128, "row", True, False, 0, 2),
])
def test_one_tile_model_transposes_exactly(tile, threads, order, wide_in, wide_out, base,
                                           conflicts):
    rows, cols = 2 * tile[0], 3 * tile[1]
    plan = make_plan(rows, cols, tile=tile, stages=1, out_stages=2, threads=threads,
                     grid=rows * cols // (tile[0] * tile[1]), order=order,
                     wide_in=wide_in, wide_out=wide_out)
    a = np.random.default_rng(2).integers(0, 1 << 16, (rows, cols), dtype=np.uint16)
    b, worst = _model_one_tile(plan, a, base)
    np.testing.assert_array_equal(b, a.T)
    assert worst == conflicts, f"{worst}-way bank conflict"


@pytest.mark.parametrize("order", ["row", "column"])
@pytest.mark.parametrize("group", [1, 2])
def test_tile_orders_cover_every_tile_once(order, group):
    plan = make_plan(8 * 64, 12 * 64, tile=(64, 64), group=group, order=order)
    i0, j0 = plan.tile_origin(np.arange(plan.n_tiles), IntOps)
    assert len(set(zip(i0.tolist(), j0.tolist()))) == plan.n_tiles
    if order == "column" and group == 1:  # consecutive tiles walk down a column
        assert (j0[:8] == 0).all() and (i0[:8] == np.arange(8) * 64).all()


@pytest.mark.parametrize("wide_in, wide_out", [(False, False), (True, True), (False, True)])
def test_one_tile_compiles(wide_in, wide_out):
    kernel = build_transpose_one_tile(256, 384, tile=(128, 128), threads=256,
                                      order="column", wide_in=wide_in, wide_out=wide_out)
    art = compiler.compile(kernel, "sm_90a", cubin=compiler.find_ptxas() is not None)
    ptx = " ".join(art.ptx.split())
    (info,) = art.manifest["kernels"]
    assert info["grid"] == [2 * 3, 1, 1] and info["dynamic_shared_bytes"] == 128 * 128 * 2 + 8
    assert ptx.count("cp.async.bulk.tensor.3d.shared::cta.global") == (1 if wide_in else 0)
    assert ptx.count("cp.async.bulk.tensor.2d.shared::cta.global") == (0 if wide_in else 2)
    assert ptx.count("cp.async.bulk.tensor.3d.global.shared::cta") == (1 if wide_out else 0)
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta") == (0 if wide_out else 2)
    assert ptx.count("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") == 128 * 128 // 256 // 8
    # In place: a CTA barrier between the last read and the first write.
    last_read = ptx.rindex("ldmatrix.sync")
    first_write = ptx.index("stmatrix.sync")
    assert last_read < first_write and "bar.sync" in ptx[last_read:first_write]
    assert "cp.async.bulk.wait_group.read 0;" in ptx
    maps = {m["source"]: m for m in info["tensor_maps"]}
    assert maps[0]["rank"] == (3 if wide_in else 2) and maps[0]["swizzle"] == 3


def test_dynamic_transpose_compiles_and_checks_its_lag():
    kernel = build_transpose_dynamic(512, 384, tile=(128, 128), stages=4, store_lag=2,
                                     grid=3, threads=256)
    art = compiler.compile(kernel, "sm_90a", cubin=compiler.find_ptxas() is not None)
    ptx = " ".join(art.ptx.split())
    (info,) = art.manifest["kernels"]
    assert info["dynamic_shared_bytes"] == kernel.shared_bytes == 4 * 32768 + 4 * 8 + 4 * 4
    assert len(re.findall(r"atom\.global\.add\.u32", ptx)) >= 4 + 2
    assert "fence.acq_rel.sys;" in ptx and "cp.async.bulk.wait_group.read 2;" in ptx
    assert ptx.count("cp.async.bulk.tensor.3d.shared::cta.global") >= 4
    with pytest.raises(ValueError, match="store_lag"):
        build_transpose_dynamic(512, 384, stages=3, store_lag=2)
