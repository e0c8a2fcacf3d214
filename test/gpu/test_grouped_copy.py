"""The grouped copy on the GPU (tile_mlir.kernels.grouped): one launch copies a
group of ragged 2-D tensors, its CTAs deriving the tensor maps on the
device. Fresh random shapes and bits every run (TILE_GPU_SEED replays),
compared bit for bit; the destinations' surroundings must stay untouched.
A debug build turns a bad runtime replacement into the named DeviceFault.

The kernels come from the compile cache the artifact build populates
(scripts/build_gpu_artifacts.py: tile_mlir.testing.grouped_copy_bench:bench_recipes,
which holds tile_mlir.kernels.grouped.kernel:cache_recipes).
"""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tile_mlir.kernels.grouped.host import (GroupPlan, GroupedCopy, describe_group,  # noqa: E402
                                    group_tables, grouped_copy)
from tile_mlir.runtime import DeviceFault, TileRuntimeError  # noqa: E402

GUARD = 4096  # elements of sentinel before and after each destination


def ragged_shapes(rng, n: int, box=(64, 128)) -> list:
    """Shapes that are box multiples, not, one row, and empty."""
    shapes = []
    for _ in range(n):
        kind = rng.integers(0, 6)
        if kind == 0:
            shapes.append((0, int(8 * rng.integers(1, 40))))          # no rows
        elif kind == 1:
            shapes.append((int(rng.integers(1, 300)), 0))             # no cols
        elif kind == 2:
            shapes.append((1, int(rng.integers(1, 700))))             # one row, any width
        elif kind == 3:
            shapes.append((box[0] * int(rng.integers(1, 6)),          # whole boxes
                           box[1] * int(rng.integers(1, 5))))
        else:
            shapes.append((int(rng.integers(2, 700)), int(8 * rng.integers(1, 160))))
    return shapes


def random_bits(rng, shape, dtype):
    """A CUDA tensor of `dtype` holding fresh random bits."""
    itemsize = torch.empty((), dtype=dtype).element_size()
    raw = rng.integers(0, 256, size=(int(np.prod(shape)) * itemsize,), dtype=np.uint8)
    return torch.from_numpy(raw).cuda().view(dtype).reshape(shape)


SENTINEL = 0xA5


def guarded(shape, dtype, pitch=None):
    """A destination inside a buffer of sentinel bytes: GUARD elements before
    and after it, and `pitch - cols` between its rows. Returns (view, buf, pitch)."""
    rows, cols = shape
    pitch = pitch or cols
    size = torch.empty((), dtype=dtype).element_size()
    elems = GUARD * 2 + rows * pitch
    buf = torch.full((elems * size,), SENTINEL, dtype=torch.uint8,
                     device="cuda").view(dtype)
    view = buf[GUARD:GUARD + rows * pitch].view(rows, pitch)[:, :cols]
    return view, (buf, pitch)


def bits(t):
    """The tensor's bits as a numpy array (bit-exact comparisons)."""
    as_int = {1: torch.int8, 2: torch.int16, 4: torch.int32,
              8: torch.int64}[t.element_size()]
    return t.contiguous().view(as_int).cpu().numpy()


def check_group(srcs, dsts, bufs):
    """Each destination equals its source; every other byte of its buffer is
    still the sentinel."""
    for i, (s, d, (buf, pitch)) in enumerate(zip(srcs, dsts, bufs)):
        rows, cols = s.shape
        expected = np.full(buf.numel() * s.element_size(), SENTINEL, np.uint8).view(
            bits(buf).dtype)
        if rows and cols:
            region = expected[GUARD:GUARD + rows * pitch].reshape(rows, pitch)
            region[:, :cols] = bits(s)
        got = bits(buf)
        if not (got == expected).all():
            bad = np.flatnonzero(got != expected)
            raise AssertionError(f"pair {i} {tuple(s.shape)} pitch {pitch}: "
                                 f"{bad.size} elements differ, first at {bad[0]}; "
                                 + describe_bad(bad, got, expected, rows, cols, pitch))


def describe_bad(bad, got, expected, rows, cols, pitch, shown: int = 8) -> str:
    """Where the differing elements lie (guard before, data, row padding,
    guard after; rows and cols relative to the pitch) and their values, so a
    failure says what the copy wrote."""
    size = max(rows * pitch, 0)
    zones = {"guard before": 0, "data": 0, "row padding": 0, "guard after": 0}
    details = []
    for k, at in enumerate(bad.tolist()):
        offset = at - GUARD
        if offset < 0:
            zone, where = "guard before", f"{offset}"
        elif offset >= size:
            zone, where = "guard after", f"end+{offset - size}"
        else:
            r, c = divmod(offset, pitch)
            zone = "data" if c < cols else "row padding"
            where = f"row {r} col {c}"
        zones[zone] += 1
        if k < shown:
            mask = (1 << (8 * got.itemsize)) - 1
            details.append(f"{where}: expected {int(expected[at]) & mask:#x} "
                           f"got {int(got[at]) & mask:#x}")
    counts = ", ".join(f"{n} in {zone}" for zone, n in zones.items() if n)
    last = bad[-1] - GUARD
    return f"{counts}; last at offset {last}; " + "; ".join(details)


def make_group(rng, n, dtype, pitched=False):
    shapes = ragged_shapes(rng, n)
    srcs, dsts, bufs = [], [], []
    for rows, cols in shapes:
        if pitched and rows > 1 and cols:
            wide = random_bits(rng, (rows, cols + 8 * int(rng.integers(1, 5))), dtype)
            srcs.append(wide[:, :cols])  # a row pitch wider than the row
        else:
            srcs.append(random_bits(rng, (rows, cols), dtype) if rows * cols else
                        torch.empty((rows, cols), dtype=dtype, device="cuda"))
        pitch = cols + 8 * int(rng.integers(0, 3)) if pitched and rows > 1 else None
        view, buf = guarded((rows, cols), dtype, pitch)
        dsts.append(view)
        bufs.append(buf)
    return srcs, dsts, bufs


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("pitched", [False, True])
def test_ragged_group_is_copied_exactly(rng, dtype, pitched):
    srcs, dsts, bufs = make_group(rng, int(rng.integers(20, 80)), dtype, pitched)
    grouped_copy(srcs, dsts)
    torch.cuda.synchronize()
    check_group(srcs, dsts, bufs)


@pytest.mark.parametrize("pitched", [False, True])
def test_two_d_tiles_without_flattening(rng, pitched):
    # flatten=False tiles every pair in its own rows and columns (the path
    # pitched pairs always take), contiguous pairs included.
    srcs, dsts, bufs = make_group(rng, int(rng.integers(20, 80)), torch.bfloat16, pitched)
    GroupedCopy("bfloat16", flatten=False)(srcs, dsts)
    torch.cuda.synchronize()
    check_group(srcs, dsts, bufs)


def test_many_groups_back_to_back(rng):
    # The workspace's ring: launches queued without waiting, each with its
    # own tables, all exact at the end.
    groups = [make_group(rng, int(rng.integers(1, 40)), torch.bfloat16) for _ in range(9)]
    for srcs, dsts, _ in groups:
        grouped_copy(srcs, dsts)
    torch.cuda.synchronize()
    for srcs, dsts, bufs in groups:
        check_group(srcs, dsts, bufs)


def test_a_plan_relaunches_with_new_data(rng):
    srcs, dsts, bufs = make_group(rng, 50, torch.bfloat16)
    plan = GroupedCopy("bfloat16").plan(srcs, dsts)
    for _ in range(3):
        for s in srcs:
            if s.numel():
                s.copy_(random_bits(rng, tuple(s.shape), s.dtype))
        plan()
        torch.cuda.synchronize()
        check_group(srcs, dsts, bufs)


def test_a_side_stream(rng):
    srcs, dsts, bufs = make_group(rng, 30, torch.bfloat16)
    stream = torch.cuda.Stream()
    torch.cuda.synchronize()
    with torch.cuda.stream(stream):
        grouped_copy(srcs, dsts)
    stream.synchronize()
    check_group(srcs, dsts, bufs)


def test_one_large_and_many_small(rng):
    shapes = [(4096, 1024)] + [(1, 8)] * 200 + [(65, 136)] * 20
    srcs = [random_bits(rng, s, torch.bfloat16) for s in shapes]
    pairs = [guarded(s, torch.bfloat16) for s in shapes]
    grouped_copy(srcs, [d for d, _ in pairs])
    torch.cuda.synchronize()
    check_group(srcs, [d for d, _ in pairs], [b for _, b in pairs])


@pytest.mark.parametrize("dtype", [torch.uint8, torch.bfloat16, torch.float32, torch.float64])
def test_rows_ending_inside_a_16_byte_chunk(rng, dtype):
    # A TMA store writes whole 16-byte chunks: rows whose bytes end inside
    # one (one row, or pitched rows) get their last bytes from the kernel's
    # element stores; the chunk's rest (guard, row padding) stays untouched.
    size = torch.empty((), dtype=dtype).element_size()
    chunk = 16 // size
    srcs, dsts, bufs = [], [], []
    for _ in range(24):
        rows = int(rng.choice([1, 1, int(rng.integers(2, 150))]))
        cols = int(rng.integers(1, 3 * 256 // size))
        pitch = -(-cols // chunk) * chunk + chunk * int(rng.integers(0, 3))
        wide = random_bits(rng, (rows, pitch + chunk * int(rng.integers(0, 2))), dtype)
        srcs.append(wide[:, :cols])
        view, buf = guarded((rows, cols), dtype, pitch)
        dsts.append(view)
        bufs.append(buf)
    grouped_copy(srcs, dsts)
    torch.cuda.synchronize()
    check_group(srcs, dsts, bufs)


def test_bad_group_is_refused_before_launch(rng):
    srcs = [random_bits(rng, (4, 64), torch.bfloat16)]
    with pytest.raises(TileRuntimeError) as err:
        grouped_copy(srcs, [torch.empty((4, 72), dtype=torch.bfloat16, device="cuda")])
    assert err.value.rule == "group-pairs"
    odd = random_bits(rng, (4, 61), torch.bfloat16)
    with pytest.raises(TileRuntimeError) as err:
        grouped_copy([odd], [torch.empty_like(odd)])
    assert err.value.rule == "global-stride-alignment"


def test_debug_build_names_a_bad_runtime_replacement(rng):
    # A table the host's checks would refuse (tensor 0's row pitch 1000
    # bytes), launched through a debug build: the derivation is not
    # published, no copy issues, and the launch raises the rule instead of
    # trapping.
    copy = GroupedCopy("bfloat16", debug=True)
    srcs, dsts, bufs = make_group(rng, 12, torch.bfloat16)
    srcs.insert(0, random_bits(rng, (300, 512), torch.bfloat16))
    out, out_buf = guarded((300, 512), torch.bfloat16)
    dsts.insert(0, out)
    src_views, dst_views, _ = describe_group(srcs, dsts)
    table, ctas, _ = group_tables(src_views, dst_views, copy.box, copy.grid)
    table[0, 4] = 1000
    plan = GroupPlan(copy, table, ctas, frozenset({"torch"}))
    with pytest.raises(DeviceFault) as err:
        plan()
    assert err.value.rule == "global-stride-alignment"
    assert err.value.values["field"] == "new_strides"
    assert err.value.values["value"] == 1000 and err.value.values["bound"] == 16
    assert "tile.tensormap_derive" in err.value.site
    # Nothing was written through the unpublished map.
    assert (out_buf[0].view(torch.uint8).cpu().numpy() == SENTINEL).all()
    # The context is usable: the same debug build copies the good pairs.
    copy(srcs[1:], dsts[1:])
    torch.cuda.synchronize()
    check_group(srcs[1:], dsts[1:], bufs)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
@pytest.mark.parametrize("current", [0, 1])
def test_a_group_on_another_device_copies_there(rng, current):
    """A group on cuda:1 copies on cuda:1 (its own kernel and workspace),
    whichever device is current; a group that spans devices is named."""
    with torch.cuda.device(current):
        for _ in range(2):   # the second time: the kernel and workspace kept
            shapes = [(int(rng.integers(1, 300)), int(8 * rng.integers(1, 80)))
                      for _ in range(6)]
            srcs = [random_bits(rng, s, torch.bfloat16).to("cuda:1") for s in shapes]
            dsts = [torch.full_like(s, 7.0) for s in srcs]
            grouped_copy(srcs, dsts)
            torch.cuda.synchronize(1)
            assert all(torch.equal(s.view(torch.int16), d.view(torch.int16))
                       for s, d in zip(srcs, dsts))
            assert torch.cuda.current_device() == current
        mixed = [srcs[0], srcs[1].to("cuda:0")]
        with pytest.raises(TileRuntimeError) as err:
            grouped_copy(mixed, [torch.empty_like(m) for m in mixed])
        assert err.value.rule == "argument-device"
