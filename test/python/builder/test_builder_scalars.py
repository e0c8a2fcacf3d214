"""Scalar kernel parameters in the builder: their MLIR types, the manifest
entries the runtime packs from, and the signature errors."""

import re

import pytest

from tile_mlir import builder as K
from tile_mlir import compiler
from tile_mlir.errors import TileUsageError
from tile_mlir.testing.runtime_kernels import build_box_at, build_scalar_echo

MLIR_TYPE = {"int32": "i32", "uint32": "i32", "int64": "i64", "uint64": "i64",
             "float32": "f32", "float64": "f64", "index": "index"}
PTX_PARAM = {"i32": ".u32", "i64": ".u64", "f32": ".f32", "f64": ".f64", "index": ".u64"}


def test_the_manifest_names_each_scalars_builder_type():
    art = compiler.compile(build_scalar_echo(), cubin=False)
    params = art.kernel()["params"]
    assert [p["kind"] for p in params] == ["memref"] * 4 + ["scalar"] * 7
    scalars = params[4:]
    assert [p["dtype"] for p in scalars] == list(MLIR_TYPE)
    assert [p["type"] for p in scalars] == list(MLIR_TYPE.values())
    # One PTX parameter per scalar, of its width, after the four memrefs' 20.
    entry = re.search(r"\.entry scalar_echo\((.*?)\)", art.ptx, re.S).group(1)
    kinds = re.findall(r"\.param (\.\w+)", entry)
    assert len(kinds) == 20 + 7
    assert kinds[20:] == [PTX_PARAM[t] for t in MLIR_TYPE.values()]


def test_scalars_come_before_the_tensor_maps():
    art = compiler.compile(build_box_at(), cubin=False)
    info = art.kernel()
    assert [p["kind"] for p in info["params"]] == ["memref", "memref", "scalar", "scalar"]
    assert sorted(m["param"] for m in info["tensor_maps"]) == [4, 5]


def test_annotations_and_kernel_without_scalars_keep_their_ir():
    @K.kernel(grid=1, block=32)
    def fill(Out: K.Tensor((4,), "i32"), v: K.Scalar("int32")):
        with K.if_(K.thread_id() == 0):
            Out[0] = v
    text = str(fill.build())
    assert 'tile.param_types = ["memref", "int32"]' in text
    plain = K.KernelDef(lambda A: None, params=[("A", K.Tensor((4,), "i32"))], name="p")
    assert "tile.param_types" not in str(plain.build())


def test_a_bad_scalar_type_is_kernel_signature():
    with pytest.raises(TileUsageError) as err:
        K.Scalar("int8")
    assert err.value.rule == "kernel-signature" and "int8" in err.value.message
    with pytest.raises(TileUsageError) as err:
        K.KernelDef(lambda a: None, params=[("a", int)])
    assert err.value.rule == "kernel-signature"


@pytest.mark.parametrize("body, params", [
    (lambda A, Out: None, []),
    (lambda: None, [("A", K.Tensor((4,), "int32"))]),
    (lambda A, *, n: None, [("A", K.Tensor((4,), "int32"))]),
])
def test_a_body_that_cannot_take_its_parameters_is_kernel_signature(body, params):
    # Found when constructed, not as Python's TypeError inside build().
    with pytest.raises(TileUsageError) as err:
        K.KernelDef(body, params=params, name="k")
    assert err.value.rule == "kernel-signature"
    assert f"the {len(params)} parameter(s)" in err.value.message
    assert "<lambda>(" in err.value.message


def test_a_body_taking_any_number_of_parameters_is_kept():
    K.KernelDef(lambda *args: None, params=[("A", K.Tensor((4,), "int32"))],
                name="k").build()


def test_a_body_that_is_not_callable_is_kernel_signature():
    with pytest.raises(TileUsageError) as err:
        K.KernelDef(42, params=[], name="k")
    assert err.value.rule == "kernel-signature" and "42" in err.value.message


@pytest.mark.parametrize("dtype", [{}, [], None, 32])
def test_a_scalar_type_that_is_not_a_name_is_kernel_signature(dtype):
    with pytest.raises(TileUsageError) as err:
        K.Scalar(dtype)
    assert err.value.rule == "kernel-signature" and repr(dtype) in err.value.message


@pytest.mark.parametrize("annotation", ["1 +", "Tensor((", "undefined_name"])
def test_an_annotation_that_does_not_evaluate_is_kernel_signature(annotation):
    scope = {}
    exec(f"def body(A: {annotation!r}):\n    pass\n", scope)
    with pytest.raises(TileUsageError) as err:
        K.KernelDef(scope["body"], name="k")
    assert err.value.rule == "kernel-signature" and "body" in err.value.message
