"""Per-GPU defaults of the permute kernels (kernels/layout/tuning.py): which
card takes which tuning, and what each tuning makes the default kernel of
the benchmark's plans (the choices docs/decisions.md "Layout: defaults by
card" measured)."""

from math import isqrt

import pytest

from tile_mlir.kernels.layout import tuning as LT
from tile_mlir.kernels.layout.plan.common import contiguous_strides
from tile_mlir.kernels.layout.permute import (
    BUILD_PERMUTE_VECTORS,
    engine_boxes,
    kernel_for,
    persistent_kernel,
    plan_for,
    recipes_for,
    variants,
)

PERSISTENT_GRID = 132


def plan(shape, dims, elem=2):
    return plan_for(shape, contiguous_strides(shape), dims, elem)


@pytest.mark.parametrize("name,tuning", [
    ("NVIDIA H100 80GB HBM3", LT.FIVE_STACKS), ("NVIDIA H100 PCIe", LT.FIVE_STACKS),
    ("NVIDIA H100 NVL", LT.FIVE_STACKS), ("NVIDIA H200", LT.SIX_STACKS),
    ("NVIDIA H200 NVL", LT.SIX_STACKS),
    # Not measured: the default, whatever their memory.
    ("NVIDIA GH200 480GB", LT.DEFAULT), ("NVIDIA B200", LT.DEFAULT),
    ("NVIDIA A100-SXM4-80GB", LT.DEFAULT), ("", LT.DEFAULT)])
def test_the_product_name_picks_the_tuning(name, tuning):
    assert LT.for_name(name) is tuning


def test_a_device_is_tuned_once_by_its_name(monkeypatch):
    asked = []
    monkeypatch.setattr(LT, "device_name",
                        lambda i: asked.append(i) or "NVIDIA H100 80GB HBM3")
    monkeypatch.setattr(LT, "_by_device", {})
    assert LT.for_device(3) is LT.FIVE_STACKS
    assert LT.for_device(3) is LT.FIVE_STACKS
    assert asked == [3]


def test_the_default_is_the_h200s():
    # Unmeasured cards take the tuning whose kernels the benchmark table's
    # defaults were built for (the H200's).
    assert LT.DEFAULT is LT.SIX_STACKS


def test_plain_transposes_load_by_the_threads_on_five_stacks():
    p = plan((32768, 32768), (1, 0))
    six, five = kernel_for(p, LT.SIX_STACKS)[1], kernel_for(p, LT.FIVE_STACKS)[1]
    assert (six["grid"], six["stages"], six["threads"]) == (0, 1, 512)
    assert not six.get("thread_load") and not six.get("order")
    assert five == {**six, "thread_load": True}


def test_gathered_transposes_walk_the_inputs_order_on_five_stacks():
    p = plan((8, 8, 16, 1024, 1024), (4, 3, 2, 1, 0))
    assert p.params["gather"]
    six, five = kernel_for(p, LT.SIX_STACKS)[1], kernel_for(p, LT.FIVE_STACKS)[1]
    assert (six["grid"], six["stages"], six["threads"]) == (0, 1, 256)
    assert "order" not in six and not six.get("thread_load")
    assert five == {**six, "threads": 512, "order": [0, 1, 2, 3, 4]}


def test_boxes_take_the_tunings_ctas_and_stages():
    p = plan((64, 4096, 32, 128), (0, 2, 1, 3))
    assert p.kind == "boxes"
    six, five = engine_boxes(p, LT.SIX_STACKS)[1], engine_boxes(p, LT.FIVE_STACKS)[1]
    assert (six["grid"], six["stages"]) == (2 * PERSISTENT_GRID, 3)
    assert (five["grid"], five["stages"]) == (PERSISTENT_GRID, 4)


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_boxes_plans_run_the_vector_permute_on_every_card(elem):
    # 256 threads of two 16-byte vectors; the engine's boxes stay a variant.
    for shape, dims in (((64, 4096, 32, 128), (0, 2, 1, 3)), ((96, 80, 512), (1, 0, 2))):
        p = plan(shape, dims, elem)
        assert p.kind == "boxes"
        for t in LT.TUNINGS:
            builder, params = kernel_for(p, t)
            assert builder == BUILD_PERMUTE_VECTORS
            assert (params["threads"], params["slots"], params["elem"]) == (256, 2, elem)
            assert ("engine boxes", engine_boxes(p)) in variants(p, t)


@pytest.mark.parametrize("elem", [1, 4, 8])
def test_other_element_sizes_run_one_tile_a_cta_only_for_few_tiles(elem):
    # At most 8 tiles a CTA of the persistent grid: one tile a CTA, one
    # stage; a tile more than that keeps the persistent kernel.
    per = persistent_kernel(plan((4096, 4096), (1, 0), elem))[1]
    side, grid = per["tile"][0], per["grid"]
    assert per["tile"] == [side, side] and grid > 0
    # Near-square grids of tiles (the input's rows not 8 times shorter than
    # the output's): a x b = 8 grid tiles, then a column of tiles more.
    most = 8 * grid
    b = max(d for d in range(1, isqrt(most) + 1) if most % d == 0)
    a = most // b
    few = plan((a * side, b * side), (1, 0), elem)
    many = plan((a * side, (b + 1) * side), (1, 0), elem)
    for p in (few, many):
        assert persistent_kernel(p)[1]["tile"] == per["tile"]
        assert persistent_kernel(p)[1]["grid"] == grid
    for t in LT.TUNINGS:
        assert kernel_for(few, t)[1] == {**persistent_kernel(few)[1], "grid": 0, "stages": 1}
        assert kernel_for(many, t)[1] == persistent_kernel(many)[1]


def test_byte_transposes_of_short_input_rows_walk_the_inputs_order():
    # 1-byte, no gathered axes, input rows at least 8 times shorter than the
    # output's: the input's tile order; otherwise the output's (no order).
    def persistent_default(shape, dims, elem=1):
        p = plan(shape, dims, elem)
        assert p.kind == "transpose" and not p.params["gather"]
        params = kernel_for(p)[1]
        assert params["grid"] > 0, "a call this large keeps the persistent kernel"
        return params
    assert persistent_default((3, 508032, 144), (0, 2, 1))["order"] == [0, 1, 2]
    assert persistent_default((3, 36864, 4608), (0, 2, 1))["order"] == [0, 1, 2]   # 8 times
    assert "order" not in persistent_default((3, 36864, 4624), (0, 2, 1))   # fewer
    assert "order" not in persistent_default((3, 144, 508032), (0, 2, 1))
    assert "order" not in persistent_default((7, 5760, 6720), (0, 2, 1))
    assert "order" not in persistent_default((3, 508032, 144), (0, 2, 1), 4)


@pytest.mark.parametrize("case", [((32768, 32768), (1, 0)), ((8, 8, 16, 1024, 1024), (4, 3, 2, 1, 0)),
                                  ((64, 4096, 32, 128), (0, 2, 1, 3))])
def test_variants_list_each_kernel_once_with_every_tunings_default(case):
    p = plan(*case)
    for t in LT.TUNINGS:
        listed = variants(p, t)
        kernels = [k for _, k in listed]
        assert listed[0] == ("default", kernel_for(p, t))
        assert len(kernels) == len(set(repr(k) for k in kernels))
        for other in LT.TUNINGS:
            assert kernel_for(p, other) in kernels


def test_the_recipe_lists_hold_every_tunings_kernels():
    cases = [((256, 384), (1, 0), 2), ((3, 8, 16, 64, 64), (4, 3, 2, 1, 0), 2),
             ((4, 64, 8, 128), (0, 2, 1, 3), 2)]
    recipes = recipes_for(cases)
    for shape, dims, elem in cases:
        for t in LT.TUNINGS:
            assert kernel_for(plan(shape, dims, elem), t) in recipes
