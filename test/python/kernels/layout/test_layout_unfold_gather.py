"""The NCHW rows unfold's strided-window forms (geometry/gather.py,
build_unfold_nchw's gather="wide" and hstride): the word arithmetic on
random rows, the CPU model of every variant against NumPy's unfold (the
sweep's "NCHW k3 s2 d2" cells that fit a model's time, and shapes with
padding, strides 2-4 and short segments), the plans, and the kernels
through ptxas."""

import numpy as np
import pytest

from tile_mlir import cache, compiler
from tile_mlir.kernels.layout import unfold as U
from tile_mlir.kernels.layout.geometry.gather import (IntWordOps, StridedGather, piece_offset,
                                                      piece_sizes, piece_words,
                                                      wide_gather_fits)
from tile_mlir.kernels.layout.model import model_unfold_nchw
from tile_mlir.kernels.layout.plan.unfold import plan_unfold, row_stride, unfold_spec
from tile_mlir.testing.layout_sweep import sweep_cells

from layout_bits import bits
from test_layout_models import _unfold_ref

HAVE_PTXAS = compiler.find_ptxas() is not None


def _words(data: bytes) -> list:
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
@pytest.mark.parametrize("sw", [2, 3, 4, 8])
def test_strided_words_pick_every_sw_th_element(elem, sw):
    g = StridedGather(elem, sw)
    rng = np.random.default_rng(elem * 16 + sw)
    row = rng.integers(0, 256, (g.vec * sw * 4 + 64) * elem, dtype=np.uint8).tobytes()
    n = len(row) // elem
    for s in range(0, n - (g.vec - 1) * sw):
        chunks = g.chunk_elements(s)
        assert max(chunks) * elem + 16 <= len(row)
        words = [w for c in chunks for w in _words(row[c * elem:c * elem + 16])]
        got = b"".join(w.to_bytes(4, "little")
                       for w in g.out_words(words, (s - chunks[0]) * elem, IntWordOps))
        want = b"".join(row[(s + e * sw) * elem:(s + e * sw + 1) * elem]
                        for e in range(g.vec))
        assert got == want, s


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
@pytest.mark.parametrize("head", [True, False])
def test_pieces_write_each_byte_once_aligned(elem, head):
    data = bytes(range(100, 116))
    words = _words(data)
    for n in range(elem, 16, elem):
        out, start = {}, (16 - n if head else 0)
        for size in piece_sizes(elem, head):
            if n & size:
                off = piece_offset(n, size, head, lambda x, m: x & m)
                assert (start + off) % size == 0
                pw = piece_words(words, off, size, IntWordOps)
                val = pw[0] | (pw[1] << 32 if size == 8 else 0)
                for k in range(size):
                    assert off + k not in out
                    out[off + k] = (val >> (8 * k)) & 0xFF
        assert out == {k: data[k] for k in range(n)}


def test_wide_gather_only_where_it_reads_fewer_chunks():
    assert wide_gather_fits(1, 2) and wide_gather_fits(2, 2) and wide_gather_fits(4, 2)
    assert wide_gather_fits(8, 2) and wide_gather_fits(1, 8)
    assert not wide_gather_fits(8, 3) and not wide_gather_fits(4, 1)


# (shape, k, p, s, d): stride 2 with dilation 2 (the sweep's class), 3
# with dilation 3 (hstride 3), padding with odd shifts, stride along one
# axis only, segments shorter than a vector.
SHAPES = [((2, 3, 30, 48), 3, 0, 2, 2), ((1, 4, 21, 64), 3, 1, 2, 2),
          ((1, 2, 40, 96), 3, 2, 3, 3), ((2, 2, 18, 80), (3, 2), (1, 1), (2, 3), (2, 1)),
          ((1, 3, 17, 32), 3, 1, (1, 2), 1), ((1, 2, 33, 128), (2, 3), (0, 3), 4, (2, 1)),
          ((1, 2, 12, 16), 3, 0, 2, 2)]


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
@pytest.mark.parametrize("shape,k,p,s,d", SHAPES)
def test_gather_variants_equal_numpy(elem, shape, k, p, s, d):
    if (shape[3] * elem) % 16:
        pytest.skip("rows not whole 16-byte chunks: the simt kernel")
    x = bits(np.random.default_rng(sum(shape) + elem), shape, elem)
    want = _unfold_ref(x, k, p, s, d)
    plan = U.plan_for(shape, elem, k, p, s, d, "NCHW")
    forms = U.gather_variants(plan)
    if plan.kind == "rows":
        assert np.array_equal(model_unfold_nchw(U.kernel_for(plan)[1], x), want)
    for name, (_, params) in forms:
        assert np.array_equal(model_unfold_nchw(params, x), want), name


@pytest.mark.parametrize("cell", [c for c in sweep_cells(["unfold"], ["NCHW k3 s2 d2"])
                                  if c.in_bytes <= 64 * 1024], ids=lambda c: c.key)
def test_sweep_cells_gather_variants_equal_numpy(cell):
    a = cell.args
    x = bits(np.random.default_rng(cell.elem), cell.shape, cell.elem)
    want = _unfold_ref(x, a["kernel_size"], a["padding"], a["stride"], a["dilation"])
    plan = U.plan_for(cell.shape, cell.elem, a["kernel_size"], a["padding"], a["stride"],
                      a["dilation"], "NCHW")
    names = [name for name, _ in U.gather_variants(plan)]
    assert names == ["previous default", "element loads" if cell.elem == 1 else "wide gather"]
    assert np.array_equal(model_unfold_nchw(U.kernel_for(plan)[1], x), want)
    for name, (_, params) in U.gather_variants(plan):
        assert np.array_equal(model_unfold_nchw(params, x), want), name


def test_strided_rows_plans():
    spec = unfold_spec((3, 84, 735, 1440), 3, 0, 2, 2)
    assert row_stride(spec) == 2
    assert row_stride(unfold_spec((1, 1, 32, 32), 3, 1, 2, 1)) == 1
    plain = plan_unfold(spec, True, 1)
    strided = plan_unfold(spec, True, 1, hstride=True)
    assert "hstride" not in plain.params and strided.params["hstride"] == 2
    assert strided.params["rows"] == 2 * plain.params["rows"]
    # 4 GiB of float64: the stage of the rows under one output row fits
    # only with every other row skipped; the default stays the simt kernel.
    spec = unfold_spec((3, 90, 784, 1568), 3, 0, 2, 2)
    assert plan_unfold(spec, True, 8).kind == "simt"
    assert plan_unfold(spec, True, 8, hstride=True).kind == "rows"
    # The op's plan loads every other row: the rows kernel, the simt kernel
    # its previous default.
    plan = U.plan_for((3, 90, 784, 1568), 8, 3, 0, 2, 2, "NCHW")
    assert plan.kind == "rows" and plan.params["hstride"] == 2
    kinds = dict(U.variants(plan))
    assert kinds["previous default"][0] == U.BUILD_UNFOLD_SIMT


def test_strided_defaults_and_their_variants():
    # Every s2 d2 cell loads every other row; 1-byte ones gather wide; the
    # previous default (all rows, element loads) is a variant.
    for cell in sweep_cells(["unfold"], ["NCHW k3 s2 d2"]):
        plan = U.plan_for(cell.shape, cell.elem, 3, 0, 2, 2, "NCHW")
        builder, params = U.kernel_for(plan)
        assert builder == U.BUILD_UNFOLD_NCHW and params["hstride"] == 2, cell.key
        assert (params.get("gather") == "wide") == (cell.elem == 1), cell.key
        old = dict(U.variants(plan))["previous default"][1]
        assert "hstride" not in old and "gather" not in old, cell.key
    # Stride 1 (the taps kernel) and NHWC have none.
    assert U.gather_variants(U.plan_for((2, 16, 32, 32), 2, 3, 1, 1, 1, "NCHW")) == []
    assert U.gather_variants(U.plan_for((2, 32, 32, 16), 2, 3, 1, 2, 2, "NHWC")) == []


def test_sweep_recipes_hold_the_gather_variants():
    from tile_mlir.testing.layout_recipes import sweep, unfold as unfold_recipes
    from tile_mlir.kernels.layout.call import recipe_key
    keys = {recipe_key(b, p) for b, p in sweep.cache_recipes(
        sweep_cells(["unfold"], ["NCHW k3 s2 d2"]))}
    for cell in sweep_cells(["unfold"], ["NCHW k3 s2 d2"]):
        plan = U.plan_for(cell.shape, cell.elem, 3, 0, 2, 2, "NCHW")
        for name, (b, p) in U.variants(plan):
            if name in ("default", "previous default", "wide gather", "element loads"):
                assert recipe_key(b, p) in keys, (cell.key, name)
    assert any(p.get("gather") == "wide" for _, p in unfold_recipes.cache_recipes())


@pytest.mark.skipif(not HAVE_PTXAS, reason="needs ptxas")
@pytest.mark.parametrize("size", [256 << 20, 4 << 30])
@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_gather_kernels_compile(size, elem):
    (cell,) = sweep_cells(["unfold"], ["NCHW k3 s2 d2"], [size], [elem])
    plan = U.plan_for(cell.shape, elem, 3, 0, 2, 2, "NCHW")
    forms = [("default", U.kernel_for(plan))] + U.gather_variants(plan)
    for name, (builder, params) in forms:
        if builder != U.BUILD_UNFOLD_NCHW:
            continue    # the 4 GiB float64 cell's previous default: the simt kernel
        kernel = cache.resolve_builder(builder)(**params)
        art = compiler.compile(kernel, "sm_90a")
        (info,) = art.manifest["kernels"]
        assert info["dynamic_shared_bytes"] == kernel.shared_bytes
        ctas = params["grid"] // U.PERSISTENT_GRID
        assert info["registers"] * params["threads"] * ctas <= 65536, name
        if params.get("gather") == "wide":
            # Whole chunks (8-byte elements: LLVM loads the selected word
            # pairs); bytes and halves picked by prmt, words by selects.
            assert ("ld.shared.v4" if elem < 8 else "ld.shared.v2") in art.ptx
            assert ("prmt.b32" in art.ptx) == (elem <= 2)
        if params.get("hstride"):
            assert "tensor.3d.shared::cta.global" in art.ptx


def test_an_unfold_launch_is_bounded_by_its_tiles():
    # The persistent unfold kernels (im2col, taps, rows; their variants
    # too) are launched with no more CTAs than tiles: the host's count is
    # every tile origin the kernel walks, covering the output once.
    import itertools

    from tile_mlir.kernels.layout import unfold as U
    from tile_mlir.kernels.layout.geometry.addressing import IntDynOps
    from tile_mlir.kernels.layout.geometry.taps import TapsGeometry
    from tile_mlir.kernels.layout.geometry.unfold import Conv, Im2colGeometry, RowsUnfoldGeometry
    seen = set()
    cases = [((2, 16, 32, 32), 3, 1, 1, 1, "NCHW"), ((2, 32, 32, 16), 3, 1, 1, 1, "NHWC"),
             ((3, 8, 40, 48), 3, 1, 2, 2, "NCHW"), ((1, 20, 20, 16), 3, 0, 2, 1, "NHWC"),
             ((2, 4, 64, 200), 5, 2, 1, 1, "NCHW"), ((4, 6, 33, 70), 3, 1, 2, 1, "NCHW")]
    for (shape, k, p, s, d, layout), elem in itertools.product(cases, (1, 2, 4, 8)):
        plan = U.plan_for(shape, elem, k, p, s, d, layout)
        spec = plan.spec
        for name, (builder, params) in U.variants(plan):
            kind = U._KINDS.get(builder)
            if kind is None:   # the one-element kernel: not persistent
                continue
            conv = Conv.of(params["kernel"], params["padding"], params["stride"],
                           params["dilation"])
            oh, ow = conv.out_hw(spec.h, spec.w, IntDynOps)
            n = U.tile_count(kind, params, spec)
            if kind == "im2col":
                geo = Im2colGeometry(conv, params["pixels"], params["channels"])
                counts = geo.counts(spec.n, spec.c, oh * ow, IntDynOps)
                got = [geo.origin(t, counts, ow, oh * ow, IntDynOps)[2] for t in range(n)]
                want = set(itertools.product(range(0, spec.n * oh * ow, geo.pixels),
                                             range(conv.taps), range(0, spec.c, geo.channels)))
            else:
                geo = TapsGeometry(conv.kernel, conv.padding, conv.dilation, params["elem"],
                                   params["rows"], params["width"], params["hbox"],
                                   params["hnb"]) if kind == "taps" else \
                    RowsUnfoldGeometry(conv, params["elem"], params["wbox"], params["nb"],
                                       params["rows"], params["width"],
                                       params.get("hstride", 1))
                step = geo.width if kind == "taps" else geo.columns
                counts = geo.counts(spec.n * spec.c, oh, ow, IntDynOps)
                got = [tuple(geo.origin(t, counts, IntDynOps)[:3]) for t in range(n)]
                want = set(itertools.product(range(spec.n * spec.c), range(0, oh, geo.rows),
                                             range(0, ow, step)))
            assert len(set(got)) == n and set(got) == want, (shape, layout, elem, name)
            seen.add(kind)
    assert seen == {"im2col", "taps", "rows"}
