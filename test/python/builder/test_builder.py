"""The Python builder API: apply(), opcode parsing, errors, byte accounting."""

import re
import runpy
import subprocess
from pathlib import Path

import pytest

ir = pytest.importorskip("mlir.ir")

from tile_mlir import _native, kernel as K, tma  # noqa: E402
from tile_mlir.errors import TileVerifyError  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
REDUCE_ADD = "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group"


def build(body, args=(((16, 16), "uint32"),), target=K.DEFAULT_TARGET):
    """Traces `body(*buffers)` as a one-off kernel and returns the module."""
    params = [(f"a{i}", K.Tensor(*a)) for i, a in enumerate(args)]
    return K.KernelDef(body, grid=1, block=32, target=target, params=params,
                       name="k").build()


def mbar():
    """An initialised mbarrier (build() rejects a load on one that is not)."""
    bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
    K.mbarrier_init(bar, 1)
    return bar


def armed(tag: str = "t"):
    """An mbarrier armed with the bytes of the copies tagged `tag`."""
    bar = mbar()
    K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
    return bar


def test_seed_example_builds_and_counts_bytes():
    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    module = seed["tma_load"].build()
    assert module.operation.verify()
    (copy,) = tma.find_copies(module)
    text = str(copy)
    assert text.startswith("tile.tma_copy load tile 2d")
    assert "box = array<i64: 8, 16>" in text
    assert "coord_steps = [array<i64: 8, 0>]" in text
    # Two 8x16 uint32 boxes: 512 bytes each, 1024 a phase.
    assert tma.slot_count(copy) == 2
    assert tma.transaction_bytes(copy) == 2 * 8 * 16 * 4


@pytest.mark.parametrize("opcode, expected", [
    (LOAD, dict(direction="load", mode="tile", rank=2, reduction=None,
                dst_cluster=False, multicast=False, cache_hint=False, cta_group=None)),
    ("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
     ".multicast::cluster.L2::cache_hint",
     dict(direction="load", mode="tile", rank=3, reduction=None, dst_cluster=True,
          multicast=True, cache_hint=True, cta_group=None)),
    ("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes",
     dict(direction="load", mode="gather4", rank=2, reduction=None, dst_cluster=False,
          multicast=False, cache_hint=False, cta_group=None)),
    ("cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group",
     dict(direction="store", mode="scatter4", rank=2, reduction=None, dst_cluster=False,
          multicast=False, cache_hint=False, cta_group=None)),
    ("cp.reduce.async.bulk.tensor.5d.global.shared::cta.xor.tile.bulk_group.L2::cache_hint",
     dict(direction="reduce", mode="tile", rank=5, reduction="xor", dst_cluster=False,
          multicast=False, cache_hint=True, cta_group=None)),
    ("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
     ".cta_group::2",
     dict(direction="load", mode="tile", rank=1, reduction=None, dst_cluster=True,
          multicast=False, cache_hint=False, cta_group=2)),
])
def test_parse_opcode(opcode, expected):
    assert tma.parse_opcode(opcode) == expected


@pytest.mark.parametrize("opcode, part", [
    ("cp.async.bulk.tensor.2d.shared::cta.global.tile.bulk_group", "'bulk_group'"),
    ("cp.async.bulk.tensor.2d.global.shared::cta.tile::gather4.bulk_group", "gather4 is a load/prefetch mode"),
    ("cp.reduce.async.bulk.tensor.2d.global.shared::cta.mul.bulk_group", "'mul'"),
    ("cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes.multicast::cluster",
     "shared::cluster"),
    (LOAD + ".bogus", "'bogus'"),
])
def test_bad_opcode_names_the_part(opcode, part):
    with pytest.raises(TileVerifyError) as err:
        tma.parse_opcode(opcode)
    assert err.value.rule == "opcode-syntax"
    assert part in err.value.message


def test_verifier_error_carries_rule_and_removes_op():
    seen = {}

    def body(A):
        shared = K.alloc_shared((8, 16), "uint32", align=128)
        with pytest.raises(TileVerifyError) as err:
            tma.apply(LOAD, shared, A, box=(8, 300), coords=(0, 0), mbar=mbar())
        seen["err"] = err.value

    module = build(body)
    assert seen["err"].rule == "box-extent"
    assert "box[1] = 300" in seen["err"].message
    assert tma.find_copies(module) == []


@pytest.mark.parametrize("kwargs, rule", [
    (dict(box=(8, 16), coords=(0,)), "coords-count"),
    (dict(box=(8, 16), coords=(0, 0), swizzle=7), "swizzle-range"),
    (dict(box=(8, 16), coords=(0, 0), format="int32"), "format-match"),
    (dict(box=(8, 16), coords=(0, 0), format="bogus"), "format-match"),
    (dict(box=(8, 16), coords=(0, 0), element_strides=(1, 2)), "element-strides-inner"),
    (dict(box=(8, 16), coords=(0, 0), gather4=(0, 1, 2, 3)), "gather4-rows"),
])
def test_apply_rejections(kwargs, rule):
    seen = {}

    def body(A):
        shared = K.alloc_shared((8, 16), "uint32", align=128)
        with pytest.raises(TileVerifyError) as err:
            tma.apply(LOAD, shared, A, mbar=mbar(), **kwargs)
        seen["rule"] = err.value.rule

    build(body)
    assert seen["rule"] == rule


def test_store_and_reduce_take_global_first():
    def body(A):
        shared = K.alloc_shared((8, 16), "float32", align=128)
        tma.apply(STORE, A, shared, box=(8, 16), coords=(8, 0))
        tma.apply(REDUCE_ADD, A, shared, box=(8, 16), coords=(0, 16))

    module = build(body, args=(((64, 64), "float32"),))
    store, reduce = tma.find_copies(module)
    assert str(store).startswith("tile.tma_copy store tile 2d")
    assert str(reduce).startswith("tile.tma_copy reduce add tile 2d")
    assert tma.transaction_bytes(store) == 8 * 16 * 4


def test_mbar_is_required_for_loads():
    seen = {}

    def body(A):
        shared = K.alloc_shared((8, 16), "uint32", align=128)
        with pytest.raises(TileVerifyError) as err:
            tma.apply(LOAD, shared, A, box=(8, 16), coords=(0, 0))
        seen["rule"] = err.value.rule

    build(body)
    assert seen["rule"] == "mbar-required"


def test_swizzle_padded_rows_count_payload_only():
    # float16 box (4, 8): 16-byte rows; swizzle 3 stores each in a 128-byte
    # span, so the shared suffix is (4, 64) and the barrier expects 4*16 bytes.
    def body(A):
        shared = K.alloc_shared((4, 64), "float16", align=1024)
        tma.apply(LOAD, shared, A, box=(4, 8), coords=(0, 0), swizzle=3, mbar=armed(),
                  tag="t")

    module = build(body, args=(((32, 64), "float16"),))
    (copy,) = tma.find_copies(module)
    assert tma.transaction_bytes(copy) == 4 * 16


def test_target_rules_follow_the_gpu_module_target():
    seen = {}

    def body(A):
        shared = K.alloc_shared((4, 32), "uint32", align=128)
        with pytest.raises(TileVerifyError) as err:
            tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4."
                      "mbarrier::complete_tx::bytes", shared, A, box=(1, 32),
                      coords=(0, 0), gather4=(0, 3, 7, 11), mbar=mbar())
        seen["rule"] = err.value.rule

    build(body, args=(((16, 32), "uint32"),))
    assert seen["rule"] == "target-sm100"

    def ok(A):
        shared = K.alloc_shared((4, 32), "uint32", align=128)
        tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4."
                  "mbarrier::complete_tx::bytes", shared, A, box=(1, 32),
                  coords=(0, 0), gather4=(0, 3, 7, 11), mbar=armed(), tag="t")

    module = build(ok, args=(((16, 32), "uint32"),),
                   target='#nvvm.target<chip = "sm_100a", features = "+ptx86">')
    (copy,) = tma.find_copies(module)
    assert tma.transaction_bytes(copy) == 4 * 32 * 4


def test_module_round_trips_through_tile_opt():
    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    text = str(seed["tma_load"].build())
    out = subprocess.run([str(_native.tile_opt_path())], input=text,
                         capture_output=True, text=True, check=True).stdout
    assert "tile.tma_copy load tile 2d" in out


def test_tx_bytes_sums_tagged_copies():
    def body(A):
        shared = K.alloc_shared((2, 8, 16), "uint32", align=128)
        bar = mbar()
        tx = tma.tx_bytes("phase")
        K.mbarrier_arrive_expect_tx(bar, tx)
        tma.apply(LOAD, shared, A, box=(8, 16), coords=(0, 0), coord_steps=((8, 0),),
                  mbar=bar, tag="phase")

    module = build(body)
    from mlir.passmanager import PassManager
    with module.context:
        PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    # Two 8x16 uint32 boxes: the seed's 1024 bytes a phase.
    assert "arith.constant 1024 : i32" in str(module)
    assert "tile.tx_bytes" not in str(module)


def test_tx_bytes_without_copy_fails_verification():
    def body(A):
        tma.tx_bytes("nothing")

    with pytest.raises(TileVerifyError) as err:
        build(body)
    assert err.value.rule == "tx-bytes-tag"
    assert '"nothing"' in err.value.message


def test_manifest_records_shared_bytes():
    from tile_mlir import compiler
    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))
    info = compiler.compile(seed["tma_load"], cubin=False).kernel("tma_load")
    # (2, 8, 16) uint32 image plus one 8-byte mbarrier; no dynamic memory.
    assert info["static_shared_bytes"] == 2 * 8 * 16 * 4 + 8
    assert info["dynamic_shared_bytes"] == 0
    assert info["grid"] == [1, 1, 1] and info["block"] == [32, 1, 1]


def test_launch_shape_reads_are_the_launch_registers():
    """grid_dim / block_dim / block_id read the launch's own registers (a
    launch may override the built grid), not the built constants."""
    from tile_mlir import compiler

    @K.kernel(grid=7, block=64)
    def shape(A: K.Tensor((4,), "int32"), Out: K.Tensor((4,), "int32")):
        for i in K.range_(K.block_id(), K.grid_dim() * 5, K.block_dim()):
            Out[i % 4] = A[i % 4]
    ptx = compiler.compile(shape, cubin=False).ptx
    assert "%nctaid.x" in ptx and "%ntid.x" in ptx and "%ctaid.x" in ptx
    assert not re.search(r"\b(7|35|64)\b;", ptx)  # no built grid or block baked in


# -- kernel signatures ------------------------------------------------------

def _copy_body(A, B):
    for i in K.range_(0, 16):
        B[i] = A[i]


def test_explicit_signature_names_and_types_the_parameters():
    vec = K.Tensor((16,), "uint32")
    for params in ([("A", vec), ("B", vec)], {"A": vec, "B": vec}):
        kdef = K.KernelDef(_copy_body, grid=2, block=64, params=params, name="copy16")
        assert kdef.name == "copy16" and [n for n, _ in kdef.params] == ["A", "B"]
        text = str(kdef.build())
        assert "gpu.func @copy16(%arg0: memref<16xui32>, %arg1: memref<16xui32>)" in text
    via_decorator = K.kernel(grid=2, block=64, params=[("A", vec), ("B", vec)],
                             name="copy16")(_copy_body)
    assert str(via_decorator.build()) == text
    with pytest.raises(TypeError, match="params"):
        K.KernelDef(_copy_body, params=[("A", (16,))])


def test_string_annotations_are_evaluated_where_the_kernel_is_written():
    """What `from __future__ import annotations` makes of `A: Tensor(...)`:
    module names and closure variables resolve, an unknown one asks for an
    explicit signature."""
    vec = K.Tensor((16,), "uint32")

    def k(A: "K.Tensor((16,), 'uint32')", B: "vec"):
        _copy_body(A, B)
        vec  # noqa: B018 - a closure variable, as the annotation names it

    assert K.kernel()(k).params == [("A", vec), ("B", vec)]

    def bad(A: "NoSuchTensor"):  # noqa: F821
        pass

    with pytest.raises(TypeError, match="params="):
        K.kernel()(bad)
