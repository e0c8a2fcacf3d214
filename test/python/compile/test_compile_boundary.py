"""The compile boundary: a kernel that could never launch is a named error
before any pipeline runs (and never a process abort), whether it is a
builder KernelDef (checked when constructed) or MLIR text (checked by
compile): kernel names, launch limits, parameter types, shared memory,
registers, and a module with nothing to compile."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ir = pytest.importorskip("mlir.ir")
from mlir.passmanager import PassManager  # noqa: E402

from tile_mlir import cli, compiler, contract, kernel as K, kernel_checks  # noqa: E402
from tile_mlir.errors import TileError, TileUsageError  # noqa: E402
from tile_mlir.toolchain import find_ptxas  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
TARGET = '#nvvm.target<chip = "sm_90a", features = "+ptx86">'
TENSOR = [("A", K.Tensor((16,), "float32"))]


def raised(cls, fn, *args, **kwargs) -> TileError:
    """The error `fn` raises: exactly `cls`, with a rule of Rules.def."""
    with pytest.raises(TileError) as err:
        fn(*args, **kwargs)
    assert type(err.value) is cls, f"{type(err.value).__name__}: {err.value}"
    assert err.value.rule in contract.RULES
    assert str(err.value).startswith(f"[{err.value.rule}] ")
    return err.value


def define(body=lambda A: None, **kw) -> K.KernelDef:
    kw.setdefault("name", "k")
    return K.KernelDef(body, params=TENSOR, **kw)


def module_text(func_attrs: str = "", params: str = "%A: memref<16xf32>",
                func: str = "k", gmod: str = "kernels", body: str = "") -> str:
    attrs = f" attributes {{{func_attrs}}}" if func_attrs else ""
    return (f"gpu.module @{gmod} [{TARGET}] {{\n"
            f"  gpu.func @{func}({params}) kernel{attrs} {{\n{body}    gpu.return\n"
            "  }\n}\n")


# --- [kernel-symbol] ----------------------------------------------------------

BAD_NAMES = ["my-kernel", "my kernel", "", "_", "1k", "k\u00e9", "a.b",
             "k" * (contract.MAX_KERNEL_NAME_CHARS + 1)]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_ptx_does_not_take_is_kernel_symbol_at_construction(name):
    err = raised(TileUsageError, define, name=name)
    assert err.rule == "kernel-symbol"
    assert (repr(name) if len(name) <= 60 else repr(name[:40])[:-1]) in err.message


@pytest.mark.parametrize("name", [3, b"k", ["k"]])
def test_a_name_that_is_not_a_str_is_kernel_symbol(name):
    err = raised(TileUsageError, define, name=name)
    assert err.rule == "kernel-symbol" and repr(name) in err.message


def test_a_lambda_without_a_name_is_kernel_symbol_naming_it():
    err = raised(TileUsageError, K.KernelDef, lambda A: None, params=TENSOR)
    assert err.rule == "kernel-symbol" and "'<lambda>'" in err.message
    assert "name=" in err.message


@pytest.mark.parametrize("name", ["k", "_k", "a$b", "K9_x",
                                  "k" * contract.MAX_KERNEL_NAME_CHARS])
def test_names_ptx_takes_compile(name):
    art = compiler.compile(define(name=name), cubin=False, cache=False)
    assert art.manifest["kernels"][0]["name"] == name
    assert f".entry {name}(" in art.ptx


@pytest.mark.parametrize("func, gmod, shown", [
    ('"my-kernel"', "kernels", "'my-kernel'"),
    ('"<lambda>"', "kernels", "'<lambda>'"),
    ("k", '"my mod"', "'my mod'"),
])
def test_mlir_symbols_are_checked_before_any_pipeline(func, gmod, shown):
    err = raised(TileUsageError, compiler.compile, module_text(func=func, gmod=gmod),
                 cubin=False, cache=False)
    assert err.rule == "kernel-symbol" and shown in err.message


def test_a_bad_symbol_does_not_abort_the_process():
    # Before the check, LLVM's NVPTX back end aborted the process (exit 134:
    # "Symbol name with unsupported characters"); now each is an error.
    script = f"""
import tile_mlir.kernel as K
from tile_mlir import compiler
from tile_mlir.errors import TileError
text = {module_text(func='"my-kernel"')!r}
for make in (lambda: compiler.compile(text, cubin=False, cache=False),
             lambda: compiler.compile(K.KernelDef(lambda A: None,
                 params=[("A", K.Tensor((16,), "float32"))], name="my kernel"),
                 cubin=False, cache=False)):
    try:
        make()
    except TileError as err:
        print(err.rule)
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["kernel-symbol", "kernel-symbol"]


# --- launch limits -------------------------------------------------------------

@pytest.mark.parametrize("launch, rule, shown", [
    (dict(block=2048), "block-limit", "2048 threads"),
    (dict(block=(32, 32, 2)), "block-limit", "2048 threads"),
    (dict(block=(1, 1, 128)), "block-limit", "z extent"),
    (dict(grid=(2 ** 31, 1, 1)), "grid-limit", str(2 ** 31)),
    (dict(grid=(1, 65536)), "grid-limit", "65536"),
    (dict(grid=(1, 1, 70000)), "grid-limit", "70000"),
    (dict(grid=32, cluster=(32, 1, 1)), "cluster-limit", "32 CTAs"),
    (dict(grid=(8, 8, 2), cluster=(4, 4, 2)), "cluster-limit", "32 CTAs"),
    (dict(grid=3, cluster=2), "cluster-limit", "extent x 3"),
    (dict(grid=(4, 3), cluster=(2, 2)), "cluster-limit", "extent y 3"),
])
def test_launch_limits_at_construction(launch, rule, shown):
    err = raised(TileUsageError, define, **launch)
    assert err.rule == rule and shown in err.message


def test_launch_shapes_at_the_limits_compile():
    k = define(grid=(contract.MAX_GRID_X, contract.MAX_GRID_YZ, contract.MAX_GRID_YZ),
               block=(contract.MAX_THREADS_PER_BLOCK, 1, 1))
    assert compiler.compile(k, cubin=False, cache=False).manifest["kernels"][0][
        "block"] == [1024, 1, 1]
    define(block=(1, 16, contract.MAX_BLOCK_Z))
    define(grid=(16, 2), cluster=(contract.MAX_CLUSTER_CTAS, 1, 1))


@pytest.mark.parametrize("attrs, rule, shown", [
    ("known_block_size = array<i32: 2048, 1, 1>", "block-limit", "2048 threads"),
    ("known_block_size = array<i32: 1, 1, 65>", "block-limit", "65"),
    ("known_grid_size = array<i32: 1, 65536, 1>", "grid-limit", "65536"),
    ("tile.cluster_size = array<i32: 32, 1, 1>", "cluster-limit", "32 CTAs"),
    ("nvvm.cluster_dim = array<i32: 4, 4, 2>", "cluster-limit", "32 CTAs"),
    ("known_grid_size = array<i32: 3, 1, 1>, tile.cluster_size = array<i32: 2, 1, 1>",
     "cluster-limit", "extent x 3"),
    ("known_block_size = array<i32: 0, 1, 1>", "launch-shape", "known_block_size"),
])
def test_launch_attributes_of_mlir_text(attrs, rule, shown):
    err = raised(TileUsageError, compiler.compile, module_text(attrs), cubin=False,
                 cache=False)
    assert err.rule == rule and shown in err.message


# --- [kernel-param-type] ----------------------------------------------------------

@pytest.mark.parametrize("param", [
    "%bar: !llvm.ptr<3>",
    "%s: memref<4xi64, 3>",
    "%s: memref<4xi64, #gpu.address_space<workgroup>>",
    "%v: vector<4xf32>",
    "%h: i16",
    "%x: memref<4xindex>",
])
def test_a_parameter_no_host_can_pass_is_kernel_param_type(param, tmp_path):
    text = module_text(params=f"%A: memref<16xf32>, {param}")
    err = raised(TileUsageError, compiler.compile, text, cubin=False, cache=False)
    assert err.rule == "kernel-param-type"
    assert "parameter 1" in err.message and param.split(": ")[1] in err.message
    # The CLI writes no artifact for it.
    source = tmp_path / "k.mlir"
    source.write_text(text)
    out = tmp_path / "out"
    assert cli.main(["compile", str(source), "--no-cubin", "-o", str(out)]) == 1
    assert not (out / "manifest.json").exists()


def test_parameters_a_host_passes_compile():
    params = ("%A: memref<16xf32>, %B: memref<?x8xbf16, #gpu.address_space<global>>, "
              "%i: i32, %j: i64, %f: f32, %d: f64, %n: index")
    art = compiler.compile(module_text(params=params), cubin=False, cache=False)
    kinds = [p["kind"] for p in art.manifest["kernels"][0]["params"]]
    assert kinds == ["memref", "memref"] + ["scalar"] * 5


# --- [compile-input]: nothing to compile ------------------------------------------

@pytest.mark.parametrize("text, shown", [
    (f"gpu.module @kernels [{TARGET}] {{\n}}", "'kernels'"),
    (f"gpu.module @m [{TARGET}] {{\n  gpu.func @helper() {{\n    gpu.return\n  }}\n}}",
     "'m'"),
    ("module {\n}", "no gpu.module"),
    ("func.func @f() {\n  return\n}", "no gpu.module"),
])
def test_a_module_without_a_kernel_is_compile_input(text, shown):
    err = raised(TileUsageError, compiler.compile, text, cubin=False, cache=False)
    assert err.rule == "compile-input" and shown in err.message


# --- [shared-memory-limit] -----------------------------------------------------

def test_static_shared_memory_beyond_the_block_maximum_is_shared_memory_limit():
    # 227 KB (232448 bytes) on sm_90a and sm_100a: ptxas's "too much shared
    # data (0x38c10 bytes, 0x38c00 max)" one 16-byte chunk beyond it.
    nbytes = 227 * 1024 + 16

    def body(A):
        K.alloc_shared((nbytes // 4,), "uint32")

    err = raised(TileUsageError, compiler.compile, define(body), cubin=False, cache=False)
    assert err.rule == "shared-memory-limit"
    assert str(nbytes) in err.message and "232448" in err.message


def test_static_plus_dynamic_beyond_the_opt_in_maximum_is_shared_memory_limit():
    static, dynamic = 32 * 1024, 200 * 1024

    def body(A):
        K.alloc_shared((static // 4,), "uint32")
        K.dynamic_shared((dynamic // 4,), "uint32")

    err = raised(TileUsageError, compiler.compile, define(body), cubin=False, cache=False)
    assert err.rule == "shared-memory-limit" and str(static + dynamic) in err.message


def test_shared_memory_within_the_limits_compiles():
    def body(A):  # 64 KB static (beyond 48 KB: sm_90a takes it) and 163 KB dynamic
        K.alloc_shared((64 * 1024 // 4,), "uint32")
        K.dynamic_shared(((227 - 64) * 1024 // 4,), "uint32")

    info = compiler.compile(define(body), cubin=False, cache=False).manifest["kernels"][0]
    assert info["static_shared_bytes"] + info["dynamic_shared_bytes"] == 227 * 1024


def test_static_shared_memory_of_mlir_text():
    big = "memref<60000xf32, 3>"   # 240000 bytes
    body = f"    %s = memref.get_global @big : {big}\n"
    text = module_text(body=body).replace(
        "  gpu.func", f'  memref.global "private" @big : {big}\n  gpu.func', 1)
    err = raised(TileUsageError, compiler.compile, text, cubin=False, cache=False)
    assert err.rule == "shared-memory-limit" and "240000" in err.message


# --- [register-limit] ---------------------------------------------------------

# `ptxas -v` reports one block per entry function (CUDA 12/13 format).
PTXAS_REPORT = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'small' for 'sm_90a'
ptxas info    : Function properties for small
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 16 registers, used 0 barriers, 380 bytes cmem[0]
ptxas info    : Compiling entry function 'big' for 'sm_90a'
ptxas info    : Function properties for big
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 128 registers, used 1 barriers, 380 bytes cmem[0]
"""


def test_registers_are_read_from_the_ptxas_report():
    assert kernel_checks.registers_of(PTXAS_REPORT) == {"small": 16, "big": 128}


def test_registers_times_threads_beyond_the_register_file_is_register_limit():
    info = {"name": "big", "registers": 128, "block": [1024, 1, 1]}
    err = raised(TileUsageError, kernel_checks.check_registers, info)
    assert err.rule == "register-limit"
    assert "128 registers" in err.message and "131072" in err.message
    kernel_checks.check_registers(dict(info, block=[512, 1, 1]))   # 65536: fits
    kernel_checks.check_registers({"name": "k", "registers": 255})  # block unknown


@pytest.mark.skipif(find_ptxas() is None, reason="needs ptxas")
def test_compile_records_the_registers_ptxas_reports():
    info = compiler.compile(define(lambda A: None, block=64), cache=False).manifest[
        "kernels"][0]
    assert isinstance(info["registers"], int) and 0 < info["registers"] <= 255


# --- the README's example ----------------------------------------------------------

def test_the_swizzle_example_is_a_launchable_kernel(tmp_path):
    source = ROOT / "examples" / "swizzle_128b.mlir"
    art = compiler.compile(source.read_text(), arch="sm_100a", cubin=False, cache=False)
    (info,) = art.manifest["kernels"]
    assert [p["kind"] for p in info["params"]] == ["memref", "scalar"]
    assert info["block"] == [1, 1, 1]
    assert cli.main(["compile", str(source), "--arch", "sm_100a", "--no-cubin",
                     "-o", str(tmp_path / "swizzle")]) == 0
    manifest = json.loads((tmp_path / "swizzle" / "manifest.json").read_text())
    assert manifest["kernels"][0]["name"] == "load_tiles"
    # Its barrier is initialised, armed with the copy's bytes and waited on.
    module = ir.Module.parse(source.read_text(), K.make_context())
    PassManager.parse("builtin.module(tile-check-barriers)",
                      context=module.context).run(module.operation)


def test_a_kernel_changed_after_construction_is_checked_again():
    k = define()
    k.name = "my-kernel"
    err = raised(TileUsageError, compiler.compile, k, cubin=False, cache=False)
    assert err.rule == "kernel-symbol" and "'my-kernel'" in err.message
    k = define()
    k.block = (2048, 1, 1)
    err = raised(TileUsageError, compiler.compile, k, cubin=False, cache=False)
    assert err.rule == "block-limit" and "2048" in err.message


@pytest.mark.parametrize("arch", [np.zeros(2), None, 90, ["sm_90a"], b"sm_90a"])
def test_an_arch_that_is_not_a_name_is_compile_arch(arch):
    # Checked before the input is read: any input shows the arch's error.
    err = raised(TileUsageError, compiler.compile, "module {}", arch=arch)
    assert err.rule == "compile-arch" and repr(arch) in err.message
    assert "sm_90a" in err.message


@pytest.mark.parametrize("switch", ["cubin", "debug", "cache"])
@pytest.mark.parametrize("value", [np.zeros(2), "no", None, 1])
def test_a_switch_that_is_not_a_bool_is_compile_input(switch, value):
    # np.zeros(2) has no truth value; "no" would be true: neither is guessed.
    err = raised(TileUsageError, compiler.compile, define(), **{switch: value})
    assert err.rule == "compile-input" and switch in err.message
    assert repr(value) in err.message
