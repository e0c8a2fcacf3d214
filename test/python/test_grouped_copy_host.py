"""The grouped copy's host side, without a GPU: the tables the kernel reads
(replayed here the way the kernel walks them) cover every tile of every
tensor exactly once, map slots never collide, and bad groups are refused
with the rule they break before anything is launched."""

import itertools

import numpy as np
import pytest

from tile_mlir.grouped_copy import describe_group, plan_tables, store_extent
from tile_mlir.runtime.errors import TileRuntimeError

BOX = (64, 128)


def replay(table, ctas, box):
    """The kernel's walk (kernels/grouped_copy.py, `locate`) in Python:
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
    from tile_mlir.grouped_copy import BUILDER, KERNEL_DTYPES, recipe_params
    from tile_mlir.kernels.grouped_copy import cache_recipes

    def key(params, debug):
        return cache.recipe_key(cache.recipe(BUILDER, params, "sm_90a", debug))

    populated = {key(params, options["debug"]) for _, params, options in cache_recipes()}
    for dtype in KERNEL_DTYPES.values():
        assert key(recipe_params(dtype), False) in populated
    assert key(recipe_params("bfloat16"), True) in populated
