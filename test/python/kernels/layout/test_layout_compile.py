"""The layout kernels build, verify, lower to PTX and assemble with ptxas for
sm_90a: one of each kind (boxes, transposes of every element size and
method, the SIMT transpose through shared memory, gathered rows, pad
boxes/rows/SIMT with every fill, unfold im2col, rows and SIMT), and the
instructions each must contain. The cache recipes of the GPU tests and the
benchmark are JSON and name module-level builders."""

import importlib
import json

import pytest

from tile_mlir import cache, compiler
from tile_mlir.kernels.layout.builders.pad import build_pad_boxes, build_pad_rows, build_pad_simt
from tile_mlir.kernels.layout.builders.pad_vectors import build_pad_vectors
from tile_mlir.kernels.layout.builders.permute_vectors import build_permute_vectors
from tile_mlir.kernels.layout.builders.permute import (build_permute_boxes, build_permute_simt,
                                               build_permute_transpose)
from tile_mlir.kernels.layout.builders.permute_simt_rows import build_permute_simt_rows
from tile_mlir.kernels.layout.builders.permute_simt_tiled import build_permute_simt_tiled
from tile_mlir.kernels.layout.builders.unfold import (build_unfold_nchw, build_unfold_nhwc,
                                              build_unfold_simt)
from tile_mlir.kernels.layout.builders.unfold_taps import build_unfold_nchw_taps

HAVE_PTXAS = compiler.find_ptxas() is not None

KERNELS = {
    "boxes": (lambda: build_permute_boxes(2, (1, 0, 2), (32, 1, 256)),
              {"cp.async.bulk.tensor.3d.shared::cta.global": 1, "tensor.3d.global": 1}),
    "boxes_permuted_store": (lambda: build_permute_boxes(2, (1, 0, 2, 3), (2, 1, 16, 256),
                                                         permuted_store=True),
                             {"tensor.4d.shared::cta.global": 1, "tensor.4d.global": 1}),
    "transpose_ldmatrix": (lambda: build_permute_transpose(2, (1, 0), (128, 128)),
                           {"ldmatrix": 1, "stmatrix": 1}),
    "transpose_b32": (lambda: build_permute_transpose(4, (0, 2, 1), (64, 64)),
                      {"ld.shared.b32": 1, "st.shared.b32": 1}),
    "transpose_b8": (lambda: build_permute_transpose(1, (2, 1, 0), (128, 128)),
                     {"ld.shared.b8": 1, "st.shared.b8": 1}),
    "transpose_b64": (lambda: build_permute_transpose(8, (3, 1, 0, 2), (64, 64)),
                      {"ld.shared.b64": 1}),
    "transpose_gather": (lambda: build_permute_transpose(2, (4, 3, 2, 1, 0), (8, 128),
                                                         gather=(8,)),
                         {"tensor.5d.shared::cta.global": 1, "tensor.4d.global": 1}),
    "transpose_one_tile": (lambda: build_permute_transpose(2, (0, 2, 1), (128, 128), grid=0,
                                                           wide_in=True, wide_out=True,
                                                           evict_first="load"),
                           {"ldmatrix": 1, "L2::cache_hint": 1, "%ctaid.x": 1}),
    # The threads load the tile: 16-byte vectors, every load before the
    # first shared write; element loads only where a row can end inside a
    # vector (no wide boxes).
    "transpose_thread_load_wide": (lambda: build_permute_transpose(
        2, (1, 0), (128, 128), grid=0, threads=512, wide_in=True, wide_out=True,
        thread_load=True), {"ld.global.v4": 4, "st.shared.v4": 4, "ldmatrix": 4,
                            "tensor.3d.global.shared::cta": 1}),
    "transpose_thread_load_stores": (lambda: build_permute_transpose(
        4, (0, 2, 1), (64, 64), grid=0, thread_load=True, thread_store=True),
        {"ld.global.v4": 4, "ld.global.b32": 16, "st.global.v4": 4}),
    "permute_simt": (lambda: build_permute_simt(4, (2, 0, 1)), {"ld.global": 1}),
    "permute_simt_tiled": (lambda: build_permute_simt_tiled(2, (0, 2, 1)),
                           {"ld.global.b16": 16, "st.shared.b16": 16, "ld.shared.b16": 16,
                            "bar.sync": 1}),
    "permute_simt_tiled_256x64": (lambda: build_permute_simt_tiled(2, (1, 0), 256, tile_l=64),
                                  {"ld.global.b16": 64, "ld.shared.b16": 64}),
    "permute_simt_tiled_vec_out": (lambda: build_permute_simt_tiled(2, (0, 2, 1), 256, tile_l=64,
                                                                    vec="out"),
                                   {"ld.global.b16": 64, "st.shared.v4.b32": 8,
                                    "ld.shared.v4.b32": 8, "st.global.v4.b32": 8}),
    "permute_simt_tiled_vec_in": (lambda: build_permute_simt_tiled(4, (1, 0), 256, tile_l=64,
                                                                   vec="in"),
                                  {"ld.global.v4.b32": 16, "st.shared.v4.b32": 16,
                                   "ld.shared.v4.b32": 16, "st.global.b32": 64}),
    "permute_simt_tiled_loop": (lambda: build_permute_simt_tiled(4, (0, 2, 1), grid=528),
                                {"ld.global.b32": 16, "bar.sync": 2}),
    "permute_simt_tiled_b64": (lambda: build_permute_simt_tiled(8, (4, 1, 2, 3, 0), tile=32),
                               {"ld.shared.b64": 4, "st.shared.b64": 4}),
    # The row copy: every load issued before the first bounded store.
    "permute_simt_rows": (lambda: build_permute_simt_rows(2, (1, 0, 2), 32, 256),
                          {"ld.global.b16": 32, "st.global.b16": 32}),
    "permute_simt_rows_rank1": (lambda: build_permute_simt_rows(1, (0,), 1, 4096),
                                {"ld.global.b8": 16, "st.global.b8": 16}),
    # 8-byte global elements move as two 4-byte words, as in every kernel.
    "permute_simt_rows_b64": (lambda: build_permute_simt_rows(8, (3, 1, 0, 2, 4), 16, 128, 128),
                              {"ld.global.b32": 32, "st.global.b32": 32}),
    "pad_boxes_zero": (lambda: build_pad_boxes("i16", 3, (1, 32, 128)), {"tensor.3d": 1}),
    "pad_boxes_nan": (lambda: build_pad_boxes("bfloat16", 2, (64, 64), "nan"),
                      {"tensor.2d": 1}),
    "pad_boxes_value": (lambda: build_pad_boxes("i32", 3, (1, 32, 64), "value",
                                                stages=3), {"st.shared": 1}),
    "pad_rows": (lambda: build_pad_rows("i16", 3, 128, 3, 32),
                 {"st.global.v4": 1, "ld.shared.v4": 2}),
    "pad_rows_hinted": (lambda: build_pad_rows("i16", 3, 136, 2, 43, l2_promotion=3,
                                               evict_first=True),
                        {"L2::cache_hint": 1, "st.global.v4": 1}),
    "pad_rows_value": (lambda: build_pad_rows("i8", 4, 64, 2, 16, "value"),
                       {"st.global.v4": 1}),
    # The flat form: its vectors (masked joins where a row ends) and the
    # row form it falls back to.
    "pad_rows_flat": (lambda: build_pad_rows("i16", 3, 136, 2, 43, equal=True, flat=True),
                      {"st.global.v4": 2, "ld.shared.v4": 4}),
    "pad_simt": (lambda: build_pad_simt("i64", 4), {"st.global": 1}),
    # Four vectors a thread; 32-bit divisions (the coordinates are i32).
    "permute_vectors": (lambda: build_permute_vectors(4, (2, 0, 1, 3), slots=2),
                        {"ld.global.v4": 2, "st.global.v4": 2}),
    "pad_vectors": (lambda: build_pad_vectors(2, 3, slots=4),
                    {"ld.global.v4": 4, "st.global.v4": 4, "div.u32": 4}),
    "unfold_nhwc": (lambda: build_unfold_nhwc(2, (3, 3), (1, 1), (1, 1), (1, 1), 128, 64),
                    {".im2col": 1, "tensor.3d.global": 1}),
    "unfold_nchw": (lambda: build_unfold_nchw(2, (3, 3), (1, 1), (1, 1), (1, 1), 128, 2, 32),
                    {"st.global.v4": 1, "ld.shared.v4": 2,
                     "tensor.3d.shared::cta.global": 1}),
    "unfold_taps": (lambda: build_unfold_nchw_taps(2, (3, 3), (1, 1), (1, 1), (1, 1), 32, 128,
                                                            72, 2),
                    {"tensor.4d.global.shared::cta": 9, "tensor.3d.shared::cta.global": 3,
                     "st.shared.v4": 1, "ld.shared.v4": 2}),
    "unfold_simt": (lambda: build_unfold_simt(4, (2, 3), (0, 1), (2, 1), (1, 2), "NHWC"),
                    {"ld.global": 1}),
}


@pytest.mark.skipif(not HAVE_PTXAS, reason="needs ptxas")
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_layout_kernel_compiles(name):
    build, expected = KERNELS[name]
    kernel = build()
    art = compiler.compile(kernel, "sm_90a")
    assert art.cubin, "ptxas produced no cubin"
    for needle, count in expected.items():
        assert art.ptx.count(needle) >= count, f"{needle} missing from {name}'s PTX"
    (info,) = art.manifest["kernels"]
    if hasattr(kernel, "shared_bytes"):
        assert info["dynamic_shared_bytes"] == kernel.shared_bytes
        assert info["dynamic_shared_bytes"] <= 232448


def test_flat_pad_takes_the_engines_fill_only():
    with pytest.raises(ValueError, match="flat: the copy engine's fill only"):
        compiler.compile(build_pad_rows("i16", 3, 136, 2, 43, "value", flat=True), "sm_90a",
                         cubin=False)


def test_vector_pad_issues_every_load_before_its_first_store():
    # A thread's loads are all in flight at once: the last load comes
    # before the first store, and no division is 64-bit.
    ptx = compiler.compile(build_pad_vectors(2, 3, slots=4), "sm_90a", cubin=False).ptx
    lines = ptx.splitlines()
    loads = [i for i, line in enumerate(lines) if "ld.global.v4" in line]
    stores = [i for i, line in enumerate(lines) if "st.global.v4" in line]
    assert len(loads) == 4 and len(stores) == 4 and max(loads) < min(stores)
    assert "div.u64" not in ptx and "rem.u64" not in ptx


def test_vector_pad_names_a_bad_tile():
    with pytest.raises(ValueError, match=r"threads 48 \(a power of two, 32 to 1024\)"):
        build_pad_vectors(2, 2, threads=48)
    with pytest.raises(ValueError, match=r"threads \* slots at most 65536"):
        build_pad_vectors(2, 2, threads=1024, slots=65)


def test_thread_loads_issue_no_engine_load():
    art = compiler.compile(build_permute_transpose(2, (1, 0), (128, 128), grid=0, threads=512,
                                                   wide_in=True, wide_out=True,
                                                   thread_load=True), "sm_90a", cubin=False)
    assert "cp.async.bulk.tensor.3d.shared::cluster.global" not in art.ptx
    assert "ld.global.b16" not in art.ptx   # wide rows: no vector crosses a row's end
    assert "mbarrier" not in art.ptx


@pytest.mark.parametrize("kwargs,rule", [
    ({"stages": 3}, "one tile a CTA"),
    ({"grid": 0, "evict_first": "load"}, "take no L2 policy")])
def test_thread_loads_reject_what_they_cannot_do(kwargs, rule):
    with pytest.raises(ValueError, match=rule):
        compiler.compile(build_permute_transpose(2, (1, 0), (128, 128), thread_load=True,
                                                 **kwargs), "sm_90a", cubin=False)


@pytest.mark.parametrize("shape,strides,elem", [((40, 40), (40, 1), 2), ((24, 24), (24, 1), 4),
                                                ((24, 24), (24, 1), 8), ((200, 36), (64, 1), 2)])
def test_every_listed_variant_builds(shape, strides, elem):
    # Small tiles, plans of other than 256 threads, rows that end inside a
    # vector: the benchmark's variants and the thread forms list only
    # kernels that build.
    P = importlib.import_module("tile_mlir.kernels.layout.permute")
    plan = P.plan_for(shape, strides, (1, 0), elem)
    assert plan.kind == "transpose"
    kernels = P.variants(plan) + P.thread_store_forms(plan) + P.thread_load_forms(plan)
    for name, (builder, params) in kernels:
        art = compiler.compile(cache.resolve_builder(builder)(**params), "sm_90a", cubin=False)
        assert art.ptx, name


# 1-byte transposes the planner picks: 16 KB tiles (two CTAs an SM), 8 KB
# ones split wide on either side, 4 KB, and tiles that gather axes.
BYTE_TRANSPOSES = [((144, 9, 12, 75, 224), (4, 3, 2, 1, 0)), ((3, 144, 504, 1008), (0, 2, 3, 1)),
                   ((3, 80, 180, 384), (0, 2, 3, 1)), ((3, 180, 384, 80), (0, 3, 1, 2)),
                   ((80, 6, 7, 42, 112), (4, 3, 2, 1, 0)), ((32, 5, 5, 21, 80), (4, 3, 2, 1, 0)),
                   ((16, 3, 3, 14, 32), (4, 3, 2, 1, 0)), ((16, 3, 80), (2, 1, 0)),
                   ((4480, 3840), (1, 0))]


@pytest.mark.skipif(not HAVE_PTXAS, reason="needs ptxas")
@pytest.mark.parametrize("shape,dims", BYTE_TRANSPOSES)
def test_byte_transposes_fit_their_ctas_an_sm(shape, dims):
    # Each thread holds its bytes of the tile in registers across the
    # in-place transpose, its addresses rebuilt per tile: the registers
    # ptxas allocates stay within the launch's estimate, so the CTAs an SM
    # the persistent grid counts on are all resident.
    P = importlib.import_module("tile_mlir.kernels.layout.permute")
    plan = P.plan_for(shape, P.contiguous_strides(shape), dims, 1)
    assert plan.kind == "transpose"
    builder, params = P.persistent_kernel(plan)   # small calls: one tile a CTA
    kernel = cache.resolve_builder(builder)(**params)
    (info,) = compiler.compile(kernel, "sm_90a").manifest["kernels"]
    allocated = -(-info["registers"] // 8) * 8
    lay = kernel.geometry.layout
    estimate = P.byte_registers(lay.tile_bytes, params["threads"], bool(params["gather"]))
    ctas = params["grid"] // P.PERSISTENT_GRID
    assert allocated <= estimate, (info["registers"], estimate)
    assert allocated * params["threads"] * ctas <= P.SM_REGISTERS
    assert ctas >= 2 and info["registers"] <= 128


@pytest.mark.parametrize("op,case", [
    ("permute", ((1025, 4), (0, 1), 4)), ("permute", ((3, 1000, 6), (0, 1, 2), 2)),
    ("permute", ((33, 1, 16, 33), (0, 1, 2, 3), 1)),
    ("pad", ((3,), (4, 2), 4, "zero")), ("pad", ((1, 17), (-16, 6), 2, "zero")),
    ("pad", ((1, 17), (-16, 6), 2, "value"))])
def test_planned_kernels_pass_the_verifier(op, case):
    # Plans whose boxes once broke the contract (a 1024-row copy box, an
    # 8-byte pad box): their kernels build and verify.
    module = importlib.import_module(f"tile_mlir.kernels.layout.{op}")
    for builder, params in module.recipes_for([case]):
        art = compiler.compile(cache.resolve_builder(builder)(**params), "sm_90a",
                               cubin=False)
        assert art.ptx


def test_every_tensor_map_is_encoded_from_runtime_extents():
    art = compiler.compile(build_permute_boxes(4, (0, 2, 1, 3), (1, 64, 1, 64)), "sm_90a",
                           cubin=False)
    (info,) = art.manifest["kernels"]
    assert [p["shape"] for p in info["params"][:2]] == [[None] * 4] * 2


@pytest.mark.parametrize("op", ["permute", "pad", "unfold"])
def test_cache_recipes_are_json_and_name_builders(op):
    module = importlib.import_module(f"tile_mlir.testing.layout_recipes.{op}")
    recipes = module.cache_recipes()
    assert recipes
    for builder, params in recipes:
        assert builder.startswith("tile_mlir.kernels.") and ":build_" in builder
        assert callable(cache.resolve_builder(builder))
        json.dumps(params)
    # What the cache populates resolves the same entries.
    entries = cache.resolve_recipes(f"tile_mlir.testing.layout_recipes.{op}:cache_recipes")
    assert len(entries) == len(recipes)


def test_the_ops_import_without_the_builders():
    # The GPU machine has no MLIR: the op modules must not import it.
    import subprocess
    import sys
    code = ("import sys; sys.modules['mlir'] = None; "
            "from tile_mlir.kernels import permute, pad, unfold; "
            "import tile_mlir.testing.layout_cases")
    subprocess.run([sys.executable, "-c", code], check=True)


# Small tiles that launch more CTAs an SM than two, or fewer threads a
# tile: (shape, dims, elem) -> the CTAs an SM the launch counts on.
SMALL_TILE_LAUNCHES = [(((56, 6, 7, 36, 96), (4, 3, 2, 1, 0), 2), 16),
                       (((56, 5, 6, 30, 84), (4, 3, 2, 1, 0), 4), 5),
                       (((42, 5, 6, 24, 70), (4, 3, 2, 1, 0), 8), 3),
                       (((2, 60, 96, 192), (0, 2, 3, 1), 8), 3)]


@pytest.mark.skipif(not HAVE_PTXAS, reason="needs ptxas")
@pytest.mark.parametrize("case,ctas", SMALL_TILE_LAUNCHES)
def test_small_tile_launches_fit_their_ctas_an_sm(case, ctas):
    # The registers ptxas allocates (in units of 8 a thread), the threads
    # and the shared memory of `ctas` CTAs fit one SM.
    P = importlib.import_module("tile_mlir.kernels.layout.permute")
    shape, dims, elem = case
    plan = P.plan_for(shape, P.contiguous_strides(shape), dims, elem)
    builder, params = P.kernel_for(plan)
    if params.get("grid"):
        assert params["grid"] == ctas * P.PERSISTENT_GRID
    (info,) = compiler.compile(cache.resolve_builder(builder)(**params),
                               "sm_90a").manifest["kernels"]
    threads = params["threads"]
    shared = info["dynamic_shared_bytes"] + info.get("static_shared_bytes", 0)
    assert -(-info["registers"] // 8) * 8 * threads * ctas <= P.SM_REGISTERS
    assert threads * ctas <= P.SM_THREADS
    assert ctas * (shared + P.CTA_RESERVED_BYTES) <= P.SM_SHARED_BYTES
