"""Every error the Python API raises for bad input is a TileError naming a
rule of Rules.def: the class says who decided (TileVerifyError: a verifier,
TileUsageError: an argument the API does not take, TileRuntimeError: the
runtime, CompileError: a compile stage), `.rule` says which rule."""

import numpy as np
import pytest

ir = pytest.importorskip("mlir.ir")
from mlir.dialects import arith  # noqa: E402

from tile_mlir import compiler, contract, kernel as K, tma  # noqa: E402
from tile_mlir.artifact import Artifact  # noqa: E402
from tile_mlir.errors import (TileError, TileUsageError, TileVerifyError,  # noqa: E402
                              parse_module)
from tile_mlir.launch_shape import dim3  # noqa: E402
from tile_mlir.runtime import arrays, launcher  # noqa: E402
from tile_mlir.runtime.errors import TileRuntimeError  # noqa: E402

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
SCATTER4 = "cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group"
SM100 = '#nvvm.target<chip = "sm_100a", features = "+ptx86">'


def raised(cls, fn, *args, **kwargs) -> TileError:
    """The error `fn` raises: exactly of class `cls`, with a defined rule."""
    with pytest.raises(TileError) as err:
        fn(*args, **kwargs)
    assert type(err.value) is cls, f"{type(err.value).__name__}: {err.value}"
    assert err.value.rule in contract.RULES
    assert str(err.value).startswith(f"[{err.value.rule}] ")
    return err.value


def traced(body, args=(((16, 16), "uint32"),), target=K.DEFAULT_TARGET, **launch):
    params = [(f"a{i}", K.Tensor(*a)) for i, a in enumerate(args)]
    return K.KernelDef(body, target=target, params=params, name="k", **launch)


def in_kernel(fn, **kw):
    """The error `fn(A)` raises inside a kernel body (A: a 16x16 uint32)."""
    seen = {}

    def body(A):
        try:
            fn(A)
        except TileError as err:
            seen["err"] = err

    traced(body, **kw).build()
    assert "err" in seen, "no error raised"
    return seen["err"]


def copy(A, opcode=LOAD, **fields):
    """A load of `fields` on an initialised mbarrier, armed with its bytes
    (build() rejects a load on a barrier that is not)."""
    shared = K.alloc_shared((8, 16), "uint32", align=128)
    bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
    K.mbarrier_init(bar, 1)
    tx = K.mbarrier_arrive_expect_tx(bar, 0)
    args = dict(box=(8, 16), coords=(0, 0), mbar=bar)
    args.update(fields)
    op = tma.apply(opcode, shared, A, **args)
    K.set_tx_bytes(tx, tma.transaction_bytes(op))
    return op


def kernel_error(cls, fn, **kw) -> TileError:
    err = in_kernel(fn, **kw)
    assert type(err) is cls, f"{type(err).__name__}: {err}"
    assert err.rule in contract.RULES
    return err


# --- tma.apply: the copy's own rules are TileVerifyError ---------------------

@pytest.mark.parametrize("opcode, rule", [
    ("garbage", "opcode-syntax"),
    (LOAD.replace("2d", "6d"), "rank-range"),   # well formed but for its rank
    (LOAD.replace("2d", "xd"), "opcode-syntax"),
    (5, "opcode-syntax"),
])
def test_bad_opcodes_are_verify_errors(opcode, rule):
    assert kernel_error(TileVerifyError, lambda A: copy(A, opcode=opcode)).rule == rule
    assert raised(TileVerifyError, tma.parse_opcode, opcode).rule == rule


def test_unknown_format_is_a_verify_error():
    err = kernel_error(TileVerifyError, lambda A: copy(A, format="float7"))
    assert err.rule == "format-match" and "float7" in err.message


@pytest.mark.parametrize("fields", [
    dict(direction="sideways"), dict(mode="tile::gather5"), dict(reduction="mul"),
    dict(rank="2"),
])
def test_format_opcode_of_fields_no_opcode_has(fields):
    assert raised(TileVerifyError, tma.format_opcode, **fields).rule == "opcode-syntax"


@pytest.mark.parametrize("fields, rule", [
    # Ints MLIR would truncate silently are the field's range rule.
    (dict(swizzle=2 ** 40), "swizzle-range"),
    (dict(interleave=2 ** 33), "interleave-range"),
    (dict(l2_promotion=-2 ** 40), "l2-promotion-range"),
    (dict(oob_fill=2 ** 32), "oob-fill-range"),
    (dict(coords=(0, 2 ** 31)), "coord-range"),
    (dict(coords=(-2 ** 31 - 1, 0)), "coord-range"),
    (dict(box=(8, 2 ** 70)), "box-extent"),
    (dict(element_strides=(1, 2 ** 64)), "element-strides-range"),
    (dict(coord_steps=((2 ** 64, 0),)), "coord-range"),
    (dict(gather4=(0, 1, 2, 3), scatter4=(0, 1, 2, 3)), "gather4-rows"),
])
def test_apply_checks_fields_by_the_verifiers_rule(fields, rule):
    assert kernel_error(TileVerifyError, lambda A: copy(A, **fields)).rule == rule


def test_apply_operand_count_is_shared_operand():
    def two_globals(A):
        tma.apply(LOAD, A, box=(8, 16), coords=(0, 0))

    err = kernel_error(TileVerifyError, two_globals)
    assert err.rule == "shared-operand" and "got 1" in err.message


def test_a_rows_keyword_of_the_other_mode_is_gather4_rows():
    # A valid scatter4 store given its rows as gather4=: the op verifies, the
    # keyword does not match it (and the op is not left behind).
    def body(A):
        shared = K.alloc_shared((4, 64), "bfloat16", align=128)
        tma.apply(SCATTER4, A, shared, box=(1, 64), coords=(0, 0),
                  gather4=(0, 1, 2, 3))

    err = kernel_error(TileVerifyError, body, args=(((16, 64), "bfloat16"),),
                       target=SM100)
    assert err.rule == "gather4-rows" and "gather4= needs" in err.message


# --- tma.apply and the builder: arguments of the wrong kind ------------------

@pytest.mark.parametrize("fields", [
    dict(box=(8, "16")), dict(box=8), dict(swizzle="128B"), dict(element_strides=1),
    dict(coords=(0, 1.5)), dict(coords=0), dict(mbar="bar"), dict(tag=3),
    dict(cta_mask=1.0),
])
def test_apply_arguments_of_the_wrong_kind(fields):
    err = kernel_error(TileUsageError, lambda A: copy(A, **fields))
    assert err.rule == "kernel-value"
    assert isinstance(err, TypeError)


def test_a_float_coordinate_value_is_kernel_value():
    def body(A):
        copy(A, coords=(0, arith.constant(ir.F32Type.get(), 1.0)))

    err = kernel_error(TileUsageError, body)
    assert err.rule == "kernel-value" and "i32 or index" in err.message


@pytest.mark.parametrize("fn, rule", [
    (lambda A: A[0], "kernel-value"),                       # one index of two
    (lambda A: A.ptr_to([0, 0]), "kernel-value"),           # not shared memory
    (lambda A: K.lane_id() + "one", "kernel-value"),
    (lambda A: K.thread_id("w"), "kernel-value"),
    (lambda A: K.mbarrier_init(K.alloc_shared((1,), "uint64"), 1), "kernel-value"),
    (lambda A: K.alloc_shared((0, 4), "uint32"), "kernel-value"),
    (lambda A: K.alloc_shared(("8",), "uint32"), "kernel-value"),
    (lambda A: K.dynamic_shared((-1,), "uint32"), "kernel-value"),
    (lambda A: K.alloc_shared((4,), "uint33"), "dtype-name"),
    (lambda A: K.alloc_shared((4,), "uint32", layout="swizzled"), "shared-layout"),
])
def test_builder_arguments(fn, rule):
    assert kernel_error(TileUsageError, fn).rule == rule


@pytest.mark.parametrize("make", [
    lambda: K.Tensor((16, 0), "uint32"),
    lambda: K.Tensor((16, "16"), "uint32"),
    lambda: K.Tensor((), "uint32"),
    lambda: K.KernelDef(lambda A: None, params=[("A", (16,))]),
    lambda: K.KernelDef(lambda A: None, params=3),
    lambda: K.kernel()(lambda A: None),                    # no annotation
])
def test_kernel_signatures(make):
    assert raised(TileUsageError, make).rule == "kernel-signature"


def test_unknown_dtype_names_the_known_ones():
    err = raised(TileUsageError, K.Tensor, (16,), "float128")
    assert err.rule == "dtype-name" and "bfloat16" in err.message


@pytest.mark.parametrize("fn", [
    K.lane_id, K.cta_sync, lambda: K.if_(1), lambda: K.alloc_shared((4,), "uint32"),
    lambda: K.grid(2, 2), lambda: tma.tx_bytes("t"),
    lambda: tma.apply(LOAD, None, None, box=(8, 16), coords=(0, 0)),
])
def test_builder_helpers_outside_a_kernel(fn):
    assert raised(TileUsageError, fn).rule == "builder-scope"


@pytest.mark.parametrize("shape", [0, -1, "4", (1, 1, 1, 1), (2, 0), (), None])
def test_launch_shapes(shape):
    assert raised(TileUsageError, dim3, shape).rule == "launch-shape"
    assert raised(TileUsageError, K.KernelDef, lambda: None, grid=shape,
                  params=[]).rule == "launch-shape"


def test_launch_shapes_that_hold():
    assert dim3(4) == (4, 1, 1) and dim3((4, 2)) == (4, 2, 1) and dim3([1, 2, 3]) == (1, 2, 3)


# --- MLIR's own diagnostics ---------------------------------------------------

def test_an_upstream_verifier_is_mlir_verifier_naming_the_op():
    def body(A):  # a float value stored into a uint32 tensor
        A[0, 0] = arith.constant(ir.F32Type.get(), 1.0)

    err = raised(TileVerifyError, traced(body).build)
    assert err.rule == "mlir-verifier"
    assert err.message.startswith("'memref.store' op ")


def test_compile_for_another_target_names_the_rule():
    # Traced for sm_100a, compiled for sm_90a: the tile verifier's rule...
    def body(A):  # swizzle 4 (128B with 32B atoms) is an sm_100 one
        shared = K.alloc_shared((8, 32), "uint32", align=1024)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        K.mbarrier_init(bar, 1)
        K.mbarrier_arrive_expect_tx(bar, 8 * 32 * 4)
        tma.apply(LOAD, shared, A, box=(8, 32), coords=(0, 0), mbar=bar, swizzle=4)

    k = traced(body, args=(((16, 32), "uint32"),), target=SM100)
    k.build()
    err = raised(TileVerifyError, compiler.compile, k, arch="sm_90a", cubin=False)
    assert err.rule == "target-sm100"
    # ... and an upstream op's target check, as [mlir-verifier] naming the op.
    text = f"""gpu.module @k [{SM100}] {{
      gpu.func @f() kernel {{
        nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
        gpu.return
      }}
    }}"""
    err = raised(TileVerifyError, compiler.compile, text, arch="sm_90a", cubin=False)
    assert err.rule == "mlir-verifier"
    assert "'nvvm.tcgen05.fence' op" in err.message and "sm_90a" in err.message


@pytest.mark.parametrize("text, where", [
    ("gpu.module @k {", "line 1:14"),
    ("module {\n  %0 = bogus.op\n}", "line 2:8"),
    ("garbage", "line 1:1"),
])
def test_text_that_does_not_parse_is_mlir_syntax(text, where):
    err = raised(TileUsageError, compiler.compile, text, cubin=False)
    assert err.rule == "mlir-syntax" and where in err.message
    assert raised(TileUsageError, parse_module, text, K.make_context()).rule == \
        "mlir-syntax"


def test_compile_takes_mlir_text():
    k = traced(lambda A: copy(A), args=(((16, 16), "uint32"),))
    from_kernel = compiler.compile(k, cubin=False)
    from_text = compiler.compile(str(k.build()), cubin=False)
    assert from_text.ptx == from_kernel.ptx
    assert from_text.manifest["kernels"][0]["tensor_maps"] == \
        from_kernel.manifest["kernels"][0]["tensor_maps"]


def test_compile_text_with_a_rejected_copy_names_its_rule():
    text = str(traced(lambda A: copy(A)).build()).replace(
        "box = array<i64: 8, 16>", "box = array<i64: 8, 300>")
    assert raised(TileVerifyError, compiler.compile, text, cubin=False).rule == \
        "box-extent"


@pytest.mark.parametrize("kernel", [3, None, b"module {}", "module {}"])
def test_compile_input(kernel):
    assert raised(TileUsageError, compiler.compile, kernel, cubin=False).rule == \
        "compile-input"


def test_compile_arch():
    k = traced(lambda A: copy(A))
    err = raised(TileUsageError, compiler.compile, k, arch="sm_80", cubin=False)
    assert err.rule == "compile-arch" and "sm_90a" in err.message


def test_a_failing_stage_is_compile_stage():
    err = raised(compiler.CompileError, compiler.assemble, "not ptx", "sm_90a",
                 ptxas="/bin/false")
    assert err.rule == "compile-stage"
    assert isinstance(err, RuntimeError)


# --- runtime ------------------------------------------------------------------

def test_an_artifact_without_a_cubin_is_artifact_cubin():
    err = raised(TileRuntimeError, launcher.Module, Artifact(ptx="", cubin=None))
    assert err.rule == "artifact-cubin"


def test_kernel_names():
    module = object.__new__(launcher.Module)
    module.kernels = {"copy": object(), "transpose": object()}
    assert raised(TileRuntimeError, module.__getitem__, "fill").rule == "kernel-name"
    err = raised(TileRuntimeError, module)  # two kernels: which one?
    assert err.rule == "kernel-name" and "copy, transpose" in err.message


def test_dtypes_without_a_host_dtype_are_argument_dtype():
    assert raised(TileRuntimeError, arrays.accepted_dtypes, "index").rule == \
        "argument-dtype"

    class Device:  # a CUDA array interface whose typestr numpy does not know
        __cuda_array_interface__ = {"typestr": "<q9", "shape": (4,), "data": (0, False),
                                    "version": 3}

    assert raised(TileRuntimeError, arrays.device_view, Device(), 2).rule == \
        "argument-dtype"
    assert np.dtype(np.uint32) in arrays.accepted_dtypes("ui32")
