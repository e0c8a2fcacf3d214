"""`tile-mlir` subcommands (compile, explain, rules, plugin) and the tile-opt
console-script launcher, run in-process through cli.main (and mlir-opt /
tile-opt as subprocesses where the command's point is an external tool)."""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tile_mlir import _launchers, cli, compiler, contract

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "examples" / "seed_tma_load.py"
SWIZZLE = ROOT / "examples" / "swizzle_128b.mlir"
# Subprocesses import the same tile_mlir as this test.
ENV = dict(os.environ, PYTHONPATH=str(Path(cli.__file__).resolve().parents[1]))

# A launchable kernel (its mbarrier in shared memory, initialised, armed with
# the 8 x 256 float32 buffer's 8192 bytes, waited on) but for the box.
BAD_BOX = """
gpu.module @k {
  memref.global "private" @smem : memref<8x256xf32, 3> {alignment = 1024}
  memref.global "private" @bars : memref<1xi64, 3> {alignment = 8}
  gpu.func @box_extent(%A: memref<64x512xf32>) kernel
      attributes {known_block_size = array<i32: 1, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %bytes = arith.constant 8192 : i32
    %s = memref.get_global @smem : memref<8x256xf32, 3>
    %b = memref.get_global @bars : memref<1xi64, 3>
    %bi = memref.extract_aligned_pointer_as_index %b : memref<1xi64, 3> -> index
    %bi64 = arith.index_cast %bi : index to i64
    %bar = llvm.inttoptr %bi64 : i64 to !llvm.ptr<3>
    nvvm.mbarrier.init %bar, %c1 : !llvm.ptr<3>, i32
    nvvm.mbarrier.arrive.expect_tx %bar, %bytes : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 300>} : memref<8x256xf32, 3>, memref<64x512xf32>
    nvvm.mbarrier.try_wait.parity %bar, %c0, %c0 : !llvm.ptr<3>, i32, i32
    gpu.return
  }
}
"""

TWO_KERNELS = '''
from tile_mlir.kernel import Tensor, kernel


@kernel(grid=1, block=32)
def first(A: Tensor((16, 16), "uint32")):
    pass


@kernel(grid=1, block=32, name="second_kernel")
def second(A: Tensor((16, 16), "uint32")):
    pass
'''


def run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


# compile

def test_compile_mlir_file(tmp_path, capsys):
    out = tmp_path / "art"
    rc, text, _ = run(capsys, "compile", SWIZZLE, "-o", out, "--no-cubin")
    assert rc == 0 and "compiled load_tiles for sm_90a" in text
    assert "cp.async.bulk.tensor.2d" in (out / "kernel.ptx").read_text()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["arch"] == "sm_90a"
    assert [k["name"] for k in manifest["kernels"]] == ["load_tiles"]
    assert not (out / "kernel.cubin").exists()


def test_compile_debug_build(tmp_path, capsys):
    out = tmp_path / "dbg"
    rc, text, _ = run(capsys, "compile", SWIZZLE, "-o", out, "--no-cubin", "--debug")
    assert rc == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["debug"]["buffer"] == "__tile_debug_error"
    assert "__tile_debug_error" in (out / "kernel.ptx").read_text()


@pytest.mark.skipif(compiler.find_ptxas() is None, reason="no ptxas")
def test_compile_python_kernel_with_cubin(tmp_path, capsys):
    out = tmp_path / "seed"
    rc, text, _ = run(capsys, "compile", SEED, "-o", out, "--arch", "sm_100a")
    assert rc == 0, text
    assert (out / "kernel.cubin").stat().st_size > 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["arch"] == "sm_100a"
    kernel, = manifest["kernels"]
    assert kernel["name"] == "tma_load" and kernel["grid"] == [1, 1, 1]
    assert "sm_100a" in (out / "kernel.ptx").read_text()


def test_compile_default_output_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, _, _ = run(capsys, "compile", SWIZZLE, "--no-cubin")
    assert rc == 0 and (tmp_path / "swizzle_128b" / "manifest.json").is_file()


def test_compile_picks_a_kernel_by_variable_or_kernel_name(tmp_path, capsys):
    src = tmp_path / "two.py"
    src.write_text(TWO_KERNELS)
    for name, expected in (("first", "first"), ("second", "second_kernel"),
                           ("second_kernel", "second_kernel")):
        rc, text, err = run(capsys, "compile", src, "-o", tmp_path / name,
                            "--kernel", name, "--no-cubin")
        assert rc == 0, err
        assert f"compiled {expected} " in text


def test_compile_several_kernels_needs_kernel_flag(tmp_path, capsys):
    src = tmp_path / "two.py"
    src.write_text(TWO_KERNELS)
    rc, _, err = run(capsys, "compile", src, "--no-cubin", "-o", tmp_path / "o")
    assert rc == 1
    assert "[compile-input]" in err and "--kernel NAME" in err
    rc, _, err = run(capsys, "compile", src, "--kernel", "third", "-o", tmp_path / "o")
    assert rc == 1 and "[compile-input] no @kernel 'third'" in err


def test_compile_python_file_without_kernel(tmp_path, capsys):
    src = tmp_path / "none.py"
    src.write_text("X = 1\n")
    rc, _, err = run(capsys, "compile", src, "-o", tmp_path / "o")
    assert rc == 1 and "[compile-input]" in err and "no @kernel" in err


def test_compile_rejected_copy_names_the_rule(tmp_path, capsys):
    src = tmp_path / "bad.mlir"
    src.write_text(BAD_BOX)
    rc, _, err = run(capsys, "compile", src, "-o", tmp_path / "o", "--no-cubin")
    assert rc == 1
    assert "error: [box-extent] box[1] = 300 is outside 1..256" in err
    assert not (tmp_path / "o").exists()


def test_compile_bad_arch_and_input(tmp_path, capsys):
    rc, _, err = run(capsys, "compile", SWIZZLE, "--arch", "sm_80", "-o", tmp_path / "o")
    assert rc == 1 and "[compile-arch]" in err
    txt = tmp_path / "k.txt"
    txt.write_text("x")
    rc, _, err = run(capsys, "compile", txt)
    assert rc == 1 and "[compile-input]" in err
    bad = tmp_path / "bad.mlir"
    bad.write_text("gpu.module @k {")
    rc, _, err = run(capsys, "compile", bad, "-o", tmp_path / "o")
    assert rc == 1 and "[mlir-syntax]" in err
    rc, _, err = run(capsys, "compile", SWIZZLE, "--kernel", "x")
    assert rc == 1 and "[compile-input]" in err
    rc, _, err = run(capsys, "compile", "-")
    assert rc == 1 and "[compile-input]" in err and "-o DIR" in err
    rc, _, err = run(capsys, "compile", tmp_path / "missing.mlir")
    assert rc == 1 and "No such file" in err


def test_compile_standard_input(tmp_path, capsys, monkeypatch):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(SWIZZLE.read_text()))
    rc, text, _ = run(capsys, "compile", "-", "-o", tmp_path / "o", "--no-cubin")
    assert rc == 0 and (tmp_path / "o" / "kernel.ptx").is_file()


# explain

def test_explain(capsys):
    rc, text, _ = run(capsys, "explain", SWIZZLE, "--coords", "128,0", "--rows", "0:2")
    assert rc == 0 and "swizzle     128B" in text


def test_explain_rejected_names_the_rule(tmp_path, capsys):
    src = tmp_path / "bad.mlir"
    src.write_text(BAD_BOX)
    rc, _, err = run(capsys, "explain", src)
    assert rc == 1 and "[box-extent]" in err


# rules

def test_rules_lists_every_rule(capsys):
    rc, text, _ = run(capsys, "rules")
    assert rc == 0
    lines = text.splitlines()
    assert len(lines) == len(contract.RULES)
    assert [l.split()[0] for l in lines] == list(contract.RULES)
    rc, text, _ = run(capsys, "rules", "--kind", "runtime")
    assert {l.split()[1] for l in text.splitlines()} == {"runtime"}


def test_rules_show_verifier_rule_with_example_and_fix(capsys):
    rc, text, _ = run(capsys, "rules", "box-extent")
    assert rc == 0
    assert "rule      [box-extent]" in text
    assert "kind      verify" in text
    assert f"requires  {contract.rule('box-extent').text}" in text
    assert "error: [box-extent] box[1] = 300 is outside 1..256" in text
    assert "- tile.tma_copy" in text and "array<i64: 8, 300>" in text
    assert "+ tile.tma_copy" in text and "array<i64: 8, 256>" in text


def test_every_verifier_rule_has_an_example():
    from tile_mlir._rule_examples import EXAMPLES
    verify = {n for n, r in contract.RULES.items() if r.kind == "verify"}
    assert verify <= set(EXAMPLES)
    for name, ex in EXAMPLES.items():
        assert ex["diagnostic"].startswith(f"[{name}] ")


def test_rules_show_non_verifier_rule(capsys):
    rc, text, _ = run(capsys, "rules", "launch-shape")
    assert rc == 0 and "kind      python" in text and "example   none" in text


def test_rules_show_device_rules_and_checks(capsys):
    rc, text, _ = run(capsys, "rules", "mbarrier-timeout")
    assert rc == 0 and "kind      device" in text and "example   none" in text
    rc, text, _ = run(capsys, "rules", "inner-coord-alignment")
    assert rc == 0
    assert f"on device {contract.rule('inner-coord-alignment').device}" in text
    rc, text, _ = run(capsys, "rules", "--kind", "device")
    assert {l.split()[0] for l in text.splitlines()} == {
        n for n, r in contract.RULES.items() if r.kind == "device"}


def test_every_rule_shows(capsys):
    # Every kind of Rules.def has its description.
    for name in contract.RULES:
        rc, text, _ = run(capsys, "rules", name)
        assert rc == 0 and f"rule      [{name}]" in text


def test_rules_unknown_name(capsys):
    rc, _, err = run(capsys, "rules", "box-extnt")
    assert rc == 1 and "no rule 'box-extnt'" in err and "box-extent" in err


# plugin

def test_plugin_prints_a_working_mlir_opt_command(capsys):
    rc, text, _ = run(capsys, "plugin")
    assert rc == 0
    lib = Path(text.splitlines()[0].split(None, 1)[1])
    assert lib.name == "libTileMLIR.so" and lib.is_file()
    command = shlex.split(text.splitlines()[2])
    command[command.index("FILE.mlir")] = str(SWIZZLE)
    proc = subprocess.run(command, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "nvvm.cp.async.bulk.tensor.shared.cluster.global" in proc.stdout
    rc, text, _ = run(capsys, "plugin", "--path")
    assert rc == 0 and Path(text.strip()) == lib


# usage

def test_usage_errors_exit_2(capsys):
    for argv in ([], ["frobnicate"], ["compile"], ["rules", "--kind", "bogus"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        assert exc.value.code == 2
    capsys.readouterr()


def test_python_m_tile_mlir(capsys):
    proc = subprocess.run([sys.executable, "-m", "tile_mlir", "--help"],
                          capture_output=True, text=True, env=ENV)
    assert proc.returncode == 0
    for command in ("compile", "explain", "rules", "plugin"):
        assert command in proc.stdout


# the tile-opt console script

def test_tile_opt_launcher_execs_the_packaged_binary():
    assert _launchers.tile_opt_path().is_file()
    proc = subprocess.run(
        [sys.executable, "-c", "from tile_mlir._launchers import tile_opt; tile_opt()",
         str(SWIZZLE), "--tile-lower-tma"], capture_output=True, text=True, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert "tile.tensor_map_spec" in proc.stdout


def test_a_reader_that_leaves_early_gets_no_traceback():
    # `tile-mlir rules | head -1`: here the reader has left before the first
    # line (the pipe's read end closed before the command starts), so every
    # write fails.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "tile_mlir", "rules"], env=ENV,
                              stdout=write_end, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write_end)
    assert done.stderr == b"", done.stderr.decode()
    assert done.returncode == 141
