"""The grouped copy's host side, without a GPU: the tables the kernel reads
(replayed here the way the kernel walks them) cover every tile of every
tensor exactly once, map slots never collide, and bad groups are refused
with the rule they break before anything is launched."""

import itertools

import numpy as np
import pytest

from tile_mlir.kernels.grouped.host import describe_group, plan_tables, store_extent
from tile_mlir.runtime.errors import TileRuntimeError

BOX = (64, 128)


def replay(table, ctas, box):
    """The kernel's walk (kernels/grouped/kernel.py, `locate`) in Python:
    per CTA, each tile's (tensor, row, col, slot)."""
    out = []
    for b, (begin, end, t0, t1) in enumerate(ctas):
        if end <= begin:
            continue
        t, first, following, per_row = t0, table[t0, 6], table[t0 + 1, 6], table[t0, 7]
        for g in range(begin, end):
            while following <= g:
                t, first, following, per_row = (t + 1, following, table[t + 2, 6],
                                                table[t + 1, 7])
            within = g - first
            row, col = within // per_row, within % per_row
            assert t0 <= t <= t1, "a tile outside the CTA's tensors"
            out.append((t, row * box[0], col * box[1], t + b))
    return out


def expected_origins(shapes, box):
    """Every box origin of every tensor, from the shapes alone."""
    found = []
    for t, (rows, cols) in enumerate(shapes):
        if rows and cols:
            found += [(t, r, c) for r, c in itertools.product(
                range(0, rows, box[0]), range(0, cols, box[1]))]
    return sorted(found)


def shapes_of(rng, n):
    kinds = rng.integers(0, 5, n)
    rows = np.where(kinds == 0, 0, np.where(kinds == 1, 1, rng.integers(1, 700, n)))
    cols = np.where(kinds == 2, 0, 8 * rng.integers(1, 150, n))
    return list(zip(rows.tolist(), cols.tolist()))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("grid", [1, 7, 132])
def test_tables_cover_every_tile_once(seed, grid):
    rng = np.random.default_rng(seed)
    shapes = shapes_of(rng, int(rng.integers(1, 60)))
    n = len(shapes)
    rows, cols = zip(*shapes)
    table, ctas, slots = plan_tables(rows, cols, range(0, 16 * n, 16),
                                     range(1 << 20, (1 << 20) + 16 * n, 16),
                                     [16 * c for c in cols], [32 * c for c in cols],
                                     BOX, grid, 2)
    walked = replay(table, ctas, BOX)
    assert sorted((t, r, c) for t, r, c, _ in walked) == expected_origins(shapes, BOX)
    # A CTA's slots are its own: (tensor, CTA) pairs map to distinct slots.
    pairs = {(t, s) for t, _, _, s in walked}
    assert len({s for _, s in pairs}) == len(pairs)
    assert all(0 <= s < slots for _, s in pairs) and slots == n + grid
    # The row: addresses, extents and pitches as given.
    assert (table[:n, 2] == rows).all() and (table[:n, 3] == cols).all()
    assert (table[:n, 0] == np.arange(0, 16 * n, 16)).all()
    assert (table[:n, 5] == 32 * np.array(cols)).all()


def test_an_empty_group_has_no_tiles():
    table, ctas, _ = plan_tables([0, 5], [64, 0], [0, 0], [0, 0], [16, 16], [16, 16],
                                 BOX, 4, 2)
    assert table[-1, 6] == 0 and replay(table, ctas, BOX) == []


def stored_bytes(table, ctas, box, elem):
    """Per tensor, how often each (row, byte of the row) is written: the
    kernel's walk with its stores, the TMA store as the copy engine runs it
    (whole 16-byte chunks of a row: up to the map's innermost extent, the
    store extent but at least 1, rounded up to a chunk; none where the tile
    starts at or past the store extent) and the kernel's element stores of
    columns [store extent, cols) in the tile that holds them."""
    written = {}
    for t, row, col, _ in replay(table, ctas, box):
        rows, cols, extent = (int(v) for v in table[t, [2, 3, 8]])
        counts = written.setdefault(t, np.zeros((rows, -(-cols * elem // 16) * 16 + 16), int))
        lines = slice(row, min(row + box[0], rows))
        if col < extent:
            end = min(col + box[1], max(extent, 1)) * elem
            counts[lines, col * elem:-(-end // 16) * 16] += 1
        if extent < cols and extent < col + box[1]:
            counts[lines, extent * elem:cols * elem] += 1
    return written


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_stores_write_each_byte_once_and_nothing_past_a_row(elem):
    # One-row tensors of every width (rows under 16 bytes, ends inside a
    # chunk, on a chunk, a box and a half), pitched tensors whose rows end
    # inside a chunk, and box multiples: each row's bytes exactly once,
    # nothing after them (a row's next chunk is another tensor's or padding).
    rng = np.random.default_rng(elem)
    per_box = 256 // elem
    shapes = ([(1, c) for c in (1, 3, 7, 8, 9, 15, 16, 17, 178, 335, per_box,
                                per_box + 1, 3 * per_box // 2 + 5)] +
              [(int(r), int(c)) for r, c in zip(rng.integers(2, 200, 12),
                                                rng.integers(1, 3 * per_box, 12))] +
              [(64, per_box), (128, 2 * per_box)])
    box = (64, per_box)
    rows, cols = zip(*shapes)
    pitch = [-(-c * elem // 16) * 16 + 32 for c in cols]
    table, ctas, _ = plan_tables(rows, cols, [0] * len(shapes), [0] * len(shapes),
                                 pitch, pitch, box, 5, elem)
    written = stored_bytes(table, ctas, box, elem)
    for t, (r, c) in enumerate(shapes):
        expected = np.zeros_like(written[t])
        expected[:, :c * elem] = 1
        assert (written[t] == expected).all(), (
            f"{(r, c)} of {elem}-byte elements: bytes written "
            f"{np.flatnonzero(written[t][0] != expected[0]).tolist()[:8]} of row 0 differ")


def test_the_store_extent_is_the_row_in_whole_16_byte_chunks():
    assert store_extent([178, 176, 7, 0], 2).tolist() == [176, 176, 0, 0]
    assert store_extent([390, 3], 4).tolist() == [388, 0]
    assert store_extent([17, 15], 1).tolist() == [16, 0]
    assert store_extent([3, 2], 8).tolist() == [2, 2]


class Fake:
    """A device array by the CUDA array interface (address 0: no driver call)."""

    def __init__(self, shape, typestr="<u2", strides=None, ptr=0):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr,
                                         "data": (ptr, False), "strides": strides,
                                         "version": 3}


@pytest.mark.parametrize("srcs, dsts, rule", [
    ([Fake((4, 64))], [Fake((4, 64)), Fake((1, 8))], "group-pairs"),
    ([Fake((4, 64))], [Fake((4, 72))], "group-pairs"),
    ([Fake((4, 64))], [Fake((4, 64), "<f4")], "group-pairs"),
    ((Fake((4, 64)) for _ in range(1)), [Fake((4, 64))], "group-pairs"),
    ([Fake((4, 64, 2))], [Fake((4, 64, 2))], "global-rank"),
    ([Fake((4, 60))], [Fake((4, 60))], "global-stride-alignment"),
    ([Fake((4, 64), strides=(256, 4))], [Fake((4, 64))], "global-inner-stride"),
    ([Fake((4, 64), ptr=8)], [Fake((4, 64))], "global-base-alignment"),
    ([Fake((1 << 31, 8))], [Fake((1 << 31, 8))], "global-dim-range"),
    ([Fake((2, 8), "<c16")], [Fake((2, 8), "<c16")], "argument-dtype"),
    ([np.zeros((2, 8), np.uint16)], [np.zeros((2, 8), np.uint16)], "device-array"),
])
def test_bad_groups_name_their_rule(srcs, dsts, rule):
    with pytest.raises(TileRuntimeError) as err:
        describe_group(srcs, dsts)
    assert err.value.rule == rule


def test_one_row_and_empty_tensors_are_accepted():
    # A one-row tensor's pitch does not matter, an empty tensor is skipped.
    srcs = [Fake((1, 60)), Fake((0, 64)), Fake((3, 64))]
    dsts = [Fake((1, 60)), Fake((0, 64)), Fake((3, 64))]
    src_views, dst_views, size = describe_group(srcs, dsts)
    assert size == 2 and len(src_views) == 3


def test_the_entry_point_asks_for_the_recipes_the_cache_is_filled_with():
    # grouped_copy looks its kernel up by recipe on the GPU machine (no
    # MLIR there): the key must be the one cache_recipes() populates.
    from tile_mlir import cache
    from tile_mlir.kernels.grouped.host import BUILDER, KERNEL_DTYPES, recipe_params
    from tile_mlir.kernels.grouped.kernel import cache_recipes

    def key(params, debug):
        return cache.recipe_key(cache.recipe(BUILDER, params, "sm_90a", debug))

    populated = {key(params, options["debug"]) for _, params, options in cache_recipes()}
    for dtype in KERNEL_DTYPES.values():
        assert key(recipe_params(dtype), False) in populated
    assert key(recipe_params("bfloat16"), True) in populated


def byte_addresses(rows, cols, base, pitch, elem):
    """Every byte address of a (rows, cols) tensor at `base`, rows `pitch`
    bytes apart, as a sorted array (each byte once)."""
    r = np.arange(rows, dtype=np.int64)[:, None] * pitch
    c = np.arange(cols * elem, dtype=np.int64)[None, :]
    return np.sort((base + r + c).reshape(-1))


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_flat_runs_cover_each_pair_byte_for_byte(elem):
    # Contiguous pairs become whole-box rows plus a one-row tail, the others
    # stay as they are: the entries' bytes on each side are the pairs'
    # bytes, each once, every entry a valid map (16-byte aligned base and
    # pitch), and a flat run's rows are exactly one box wide.
    from tile_mlir.kernels.grouped.host import flat_entries
    rng = np.random.default_rng(10 + elem)
    width = 256 // elem
    chunk = 16 // elem
    shapes = [(0, 64), (5, 0), (1, 1), (1, width), (1, 3 * width + 5), (64, width),
              (3, width - chunk)] + [
        (int(r), int(chunk * c)) for r, c in zip(rng.integers(1, 90, 20),
                                                 rng.integers(1, 3 * width // chunk, 20))]
    contiguous = [bool(k) for k in rng.integers(0, 2, len(shapes))]
    rows, cols = zip(*shapes)
    src_base = [1 << 30] + [0] * (len(shapes) - 1)
    dst_base = [1 << 31] + [0] * (len(shapes) - 1)
    src_pitch, dst_pitch = [], []
    for i, ((r, c), flat) in enumerate(zip(shapes, contiguous)):
        dense = max(16, -(-c * elem // 16) * 16)
        src_pitch.append(dense if flat else dense + 16 * int(rng.integers(1, 4)))
        dst_pitch.append(dense if flat else dense + 32)
        if i:
            src_base[i] = src_base[i - 1] + (1 << 22)
            dst_base[i] = dst_base[i - 1] + (1 << 22)
    # A contiguous pair's pitch is its row (cols are whole chunks here).
    for i, (r, c) in enumerate(shapes):
        if contiguous[i] and c:
            src_pitch[i] = dst_pitch[i] = c * elem
    e_rows, e_cols, e_src, e_dst, e_sp, e_dp = flat_entries(
        rows, cols, src_base, dst_base, src_pitch, dst_pitch, contiguous, width, elem)
    assert ((e_src % 16 == 0) & (e_dst % 16 == 0) & (e_sp % 16 == 0) & (e_dp % 16 == 0)).all()
    for side, bases, pitches, e_base, e_pitch in (("src", src_base, src_pitch, e_src, e_sp),
                                                  ("dst", dst_base, dst_pitch, e_dst, e_dp)):
        expected = np.sort(np.concatenate([byte_addresses(r, c, b, p, elem) for (r, c), b, p
                                           in zip(shapes, bases, pitches)]))
        got = np.sort(np.concatenate([byte_addresses(int(r), int(c), int(b), int(p), elem)
                                      for r, c, b, p in zip(e_rows, e_cols, e_base, e_pitch)]))
        assert np.array_equal(got, expected), f"{side}: the entries' bytes differ"
    # Contiguous pairs with a full box row of elements became box-wide rows.
    for (r, c), flat, b in zip(shapes, contiguous, src_base):
        if flat and r * c >= width:
            at = np.flatnonzero(e_src == b)
            assert len(at) == 1 and e_cols[at[0]] == width and e_rows[at[0]] == r * c // width


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_a_flattened_group_writes_each_destination_byte_once(elem):
    # group_tables' entries walked as the kernel walks them, with its stores
    # (stored_bytes): contiguous and pitched pairs of every kind land on
    # exactly their destinations' bytes, once each.
    from types import SimpleNamespace
    from tile_mlir.kernels.grouped.host import group_tables
    rng = np.random.default_rng(20 + elem)
    width = 256 // elem
    chunk = 16 // elem
    box = (64, width)
    srcs, dsts, expected = [], [], []
    for i in range(30):
        rows = int(rng.choice([0, 1, int(rng.integers(2, 150))]))
        cols = int(rng.integers(0, 3 * width)) if rows == 1 else int(chunk * rng.integers(0, 40))
        pitched = rows > 1 and bool(rng.integers(0, 2))
        pitch = max(cols, 1) + (chunk if pitched else 0)
        for side, out in (("src", srcs), ("dst", dsts)):
            base = (i + 1 + (1 << 12) * (side == "dst")) << 24
            out.append(SimpleNamespace(shape=(rows, cols), strides=(pitch, 1), ptr=base,
                                       itemsize=elem))
        expected.append(byte_addresses(rows, cols, dsts[-1].ptr, pitch * elem, elem))
    table, ctas, _ = group_tables(srcs, dsts, box, 7)
    assert len(table) - 1 > len(srcs) // 2  # some pairs became two entries
    got = []
    for t, counts in stored_bytes(table, ctas, box, elem).items():
        r, b = np.nonzero(counts)
        got.append(np.repeat(table[t, 1] + r * table[t, 5] + b, counts[r, b]))
    got = np.sort(np.concatenate(got))
    assert np.array_equal(got, np.sort(np.concatenate(expected)))


def _on_devices(monkeypatch):
    # Where each address lives, as the driver would say: 0x1000... on
    # device 0, 0x2000... on device 1 (no driver on this machine).
    import tile_mlir.kernels.grouped.host as gc
    monkeypatch.setattr(gc, "device_of", lambda view: view.ptr >> 28)
    return gc


def test_a_group_lives_on_one_device(monkeypatch):
    gc = _on_devices(monkeypatch)
    one = [Fake((4, 64), ptr=0x1000_0000 + 0x1000 * i) for i in range(4)]
    assert gc.describe_group_on(one[:2], one[2:])[3] == 1
    empty = [Fake((0, 64))]
    assert gc.describe_group_on(empty, empty)[3] is None   # no memory, no device
    other = Fake((4, 64), ptr=0x0000_1000)
    with pytest.raises(TileRuntimeError) as err:
        gc.describe_group_on(one[:2], [one[2], other])
    assert err.value.rule == "argument-device"
    assert "dsts[1] lives on CUDA device 0 and srcs[0] is on device 1" in str(err.value)
    with pytest.raises(TileRuntimeError) as err:
        gc.describe_group_on(one[:1], one[1:2], device=0)
    assert "this grouped copy runs on device 0" in str(err.value)


def test_an_empty_group_loads_nothing(monkeypatch):
    gc = _on_devices(monkeypatch)
    monkeypatch.setattr(gc, "GroupedCopy", None)   # would be called to load a kernel
    empty = [Fake((0, 64)), Fake((5, 0))]
    gc.grouped_copy(empty, [Fake((0, 64)), Fake((5, 0))])
