"""The layout sweep's cells (tile_mlir.testing.layout_sweep) and their
compile-cache recipes (layout_recipes/sweep.py): sizes, shapes that are not
all powers of two, the alignment each class asks for, result shapes and
bytes worked out here, and every kernel the ops launch for a cell among
the recipes (the ops run on meta tensors with a recording kernel loader)."""

import math

import pytest
from tile_mlir.testing import layout_sweep as S
from tile_mlir.testing.layout_recipes import sweep as SW

CELLS = S.sweep_cells()
GIB = 1 << 30


def test_every_class_runs_at_every_size_and_element_size():
    assert len(S.CLASSES) == 20
    assert len(CELLS) == 20 * 6 * 4
    keys = {c.key for c in CELLS}
    assert len(keys) == len(CELLS)
    for cls in S.CLASSES:
        for elem, dtype in ((1, "uint8"), (2, "bfloat16"), (4, "float32"), (8, "float64")):
            sizes = [c.size for c in CELLS if c.cls == cls.name and c.elem == elem]
            # Largest first: Triton's peers are ranked on a group's first cell.
            assert sizes == [4 * GIB, 256 << 20, 16 << 20, 1 << 20, 64 << 10, 4 << 10]
            assert {c.dtype for c in CELLS if c.elem == elem} == {dtype}


def test_inputs_are_about_their_size():
    for c in CELLS:
        assert c.in_bytes == math.prod(c.shape) * c.elem
        capped = c.op == "unfold" and c.size == 4 * GIB
        low = 0.1 if capped else 0.5
        assert low <= c.in_bytes / c.size <= 2.0, (c.key, c.shape)


def test_no_shape_is_all_powers_of_two():
    for c in CELLS:
        odd_parts = [d // (d & -d) for d in c.shape]
        assert max(odd_parts) > 1, (c.key, c.shape)
    # and most cells have an extent with a factor 3, 5 or 7
    with_357 = [c for c in CELLS if any(d % p == 0 for d in c.shape for p in (3, 5, 7))]
    assert len(with_357) == len(CELLS)


def _rows_aligned(extent: int, elem: int) -> bool:
    return extent * elem % 16 == 0


def test_each_class_has_the_alignment_it_names():
    for c in CELLS:
        if c.op != "permute":
            continue
        inner_in, inner_out = c.shape[-1], c.out_shape[-1]
        if c.cls.startswith("unaligned"):
            assert not _rows_aligned(inner_in, c.elem) and \
                not _rows_aligned(inner_out, c.elem), c.key
        elif c.cls.startswith("narrow"):
            assert c.shape[1] == 3 and _rows_aligned(inner_in, c.elem), c.key
        else:
            assert _rows_aligned(inner_in, c.elem) and _rows_aligned(inner_out, c.elem), c.key
    for c in CELLS:
        if c.op == "unfold" and c.args["layout"] == "NHWC":
            assert _rows_aligned(c.shape[3], c.elem), c.key   # C in 16-byte multiples


def _pad_out(shape, pad):
    out = list(shape)
    for i in range(len(pad) // 2):
        out[-1 - i] += pad[2 * i] + pad[2 * i + 1]
    return tuple(out)


def _unfold_out(shape, k, p, s, d, layout):
    n, c, h, w = shape if layout == "NCHW" else (shape[0], shape[3], shape[1], shape[2])
    oh = (h + 2 * p - d * (k - 1) - 1) // s + 1
    ow = (w + 2 * p - d * (k - 1) - 1) // s + 1
    return (n, c * k * k, oh * ow) if layout == "NCHW" else (n, oh * ow, k * k * c)


def test_result_shapes_and_bytes_moved():
    for c in CELLS:
        n_in = math.prod(c.shape)
        a = c.args
        if c.op == "permute":
            assert c.out_shape == tuple(c.shape[d] for d in a["dims"])
            assert c.moved == 2 * n_in * c.elem
        elif c.op == "pad":
            out = _pad_out(c.shape, a["pad"])
            assert c.out_shape == out
            # Read: the input less what a negative pad crops.
            crop = [0] * 4
            for i, p in enumerate(a["pad"]):
                crop[3 - i // 2] += min(p, 0)
            kept = math.prod(d + k for d, k in zip(c.shape, crop))
            assert c.moved == (kept + math.prod(out)) * c.elem, c.key
        else:
            out = _unfold_out(c.shape, a["kernel_size"], a["padding"], a["stride"],
                              a["dilation"], a["layout"])
            assert c.out_shape == out
            assert c.moved == (n_in + math.prod(out)) * c.elem
            assert math.prod(out) * c.elem <= 8 * GIB, c.key


def test_triton_peers_launch_within_their_grids():
    # Triton's pad and NCHW unfold kernels put the planes (times the taps)
    # on grid axis 1, at most 65535.
    for c in CELLS:
        if c.op == "pad" and not c.channels_last:
            assert c.shape[0] * c.shape[1] <= 65535, c.key
        if c.op == "unfold" and c.args["layout"] == "NCHW":
            assert c.shape[0] * c.shape[1] * 9 <= 65535, c.key


def test_filters_and_sizes():
    assert [S.parse_size(t) for t in ("4k", "64K", "1M", "16M", "256m", "4G")] == \
        list(S.SIZES)
    with pytest.raises(ValueError, match="size '3M'"):
        S.parse_size("3M")
    crop = S.sweep_cells(ops=("pad",), classes=("crop",), sizes=(1 << 20,), elems=(2,))
    assert [c.key for c in crop] == ["pad|crop (-1, -1, -2, -2)|1M|2"]
    assert len(S.sweep_cells(ops=("unfold",))) == 4 * 6 * 4


def test_the_whole_sweep_is_estimated_within_six_minutes():
    assert 60 < S.estimate_seconds(CELLS) < 360
    quick = S.sweep_cells(sizes=S.QUICK_SIZES, elems=S.QUICK_ELEMS)
    assert S.estimate_seconds(quick) < 60


def test_cells_are_json():
    import json
    c = json.loads(json.dumps(CELLS[0].to_json()))
    assert c["key"] == "permute|transpose (1, 0)|4G|1" and c["dtype"] == "uint8"
    assert c["args"] == {"dims": [1, 0]}


def test_every_launched_kernel_is_a_recipe(monkeypatch):
    """The ops' own eager paths on meta tensors, with a kernel loader that
    records each launch, for either card's tuning: what a cell launches on
    the GPU is what bench/build_layout.py compiles."""
    torch = pytest.importorskip("torch")
    from tile_mlir.kernels.layout import call, tuning
    from tile_mlir.kernels.layout import pad as PD
    from tile_mlir.kernels.layout import permute as P
    from tile_mlir.kernels.layout import unfold as U

    launched = []

    class Kernel:
        def __init__(self, key):
            self.key = key

        def __call__(self, *args, **kwargs):
            launched.append(self.key)

    monkeypatch.setattr(call, "load", lambda b, p, device=0: Kernel(call.recipe_key(b, p)))
    monkeypatch.setattr(call, "sm_count", lambda device: 132)
    counter = torch.zeros(2, dtype=torch.int32, device="meta")
    for module in (P, PD, U):
        monkeypatch.setattr(module, "counter", lambda device: counter)
    recipes = {call.recipe_key(b, p) for b, p in SW.cache_recipes()}
    missing = []
    for tune in tuning.TUNINGS:
        monkeypatch.setattr(P, "for_device", lambda device, t=tune: t)
        for c in CELLS:
            x = torch.empty(c.shape, dtype=getattr(torch, c.dtype), device="meta")
            if c.channels_last:
                x = x.contiguous(memory_format=torch.channels_last)
            launched.clear()
            a = c.args
            if c.op == "permute":
                y = P.permute_tensor(x, a["dims"])
            elif c.op == "pad":
                y = PD.pad_tensor(x, a["pad"], 0)
            else:
                y = U.unfold_tensor(x, a["kernel_size"], a["padding"], a["stride"],
                                    a["dilation"], a["layout"])[0]
            assert tuple(y.shape) == c.out_shape, c.key
            assert launched, c.key
            missing += [(c.key, k) for k in launched if k not in recipes]
    assert missing == []


def test_recipes_are_json_and_name_builders():
    import json

    from tile_mlir import cache
    recipes = SW.cache_recipes()
    assert len(recipes) > 100
    for builder, params in recipes:
        assert builder.startswith("tile_mlir.kernels.layout.builders.") and ":build_" in builder
        json.dumps(params)
    entries = cache.resolve_recipes("tile_mlir.testing.layout_recipes.sweep:cache_recipes")
    assert len(entries) == len(recipes)


def test_a_cells_input_strides_are_its_tensors():
    # What bench/layout_sweep.py makes (channels_last: an (N, H, W, C)
    # tensor seen as NCHW) has the strides the variant planning assumes.
    torch = pytest.importorskip("torch")
    from tile_mlir.testing.layout_sweep import sweep_cells
    cells = sweep_cells(sizes=[4096, 65536])
    assert any(c.channels_last for c in cells)
    for c in cells:
        shape = list(c.shape)
        if c.channels_last:
            n, ch, h, w = shape
            x = torch.empty((n, h, w, ch), dtype=torch.uint8).permute(0, 3, 1, 2)
        else:
            x = torch.empty(shape, dtype=torch.uint8)
        assert c.input_strides() == x.stride(), c.key
