"""`tile-mlir` given bad inputs: every subcommand answers with one line,
`FILE: error: [rule] message`, and exit status 1 (bad usage: argparse's
message and 2), never a traceback."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tile_mlir import cli

ROOT = Path(__file__).resolve().parents[3]
SWIZZLE = ROOT / "examples" / "swizzle_128b.mlir"
ENV = dict(os.environ, PYTHONPATH=str(Path(cli.__file__).resolve().parents[1]))
ONE_ERROR = re.compile(r"^(?P<where>\S[^\n]*?): error: \[(?P<rule>[a-z0-9-]+)\] \S[^\n]*$")

KERNEL = '''
from tile_mlir.kernel import Tensor, kernel


@kernel(grid=1, block=32)
def k(A: Tensor((16, 16), "uint32")):
{body}
'''


def fails(capsys, *argv, rule, where=None):
    """Runs the command in process: exit 1, nothing on stdout, one error line
    naming `rule` (and `where`, when given); returns the line."""
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert rc == 1, (argv, out, err)
    assert out == "", (argv, out)
    match = ONE_ERROR.match(err.rstrip("\n"))
    assert match, (argv, err)
    assert match["rule"] == rule, (argv, err)
    if where is not None:
        assert match["where"] == str(where), (argv, err)
    return err.strip()


def _output(command, tmp_path):
    """compile's -o (explain writes nothing)."""
    return ["-o", tmp_path / "o"] if command == "compile" else []


def bad_files(tmp_path, suffix):
    """name -> a path that is no readable input of that suffix."""
    folder = tmp_path / f"folder{suffix}"
    folder.mkdir()
    return {"missing": tmp_path / f"missing{suffix}", "folder": folder}


@pytest.mark.parametrize("command,rule", [("compile", "compile-input"),
                                          ("explain", "explain-input")])
@pytest.mark.parametrize("suffix", [".mlir", ".py"])
def test_unreadable_files(tmp_path, capsys, command, rule, suffix):
    for what, path in bad_files(tmp_path, suffix).items():
        line = fails(capsys, command, path, *_output(command, tmp_path), rule=rule,
                     where=path)
        assert f"cannot read {path}" in line, line
        assert ("No such file" if what == "missing" else "directory") in line, line


@pytest.mark.parametrize("command,rule", [("compile", "compile-input"),
                                          ("explain", "explain-input")])
@pytest.mark.parametrize("suffix", [".mlir", ".py"])
def test_non_utf8_files(tmp_path, capsys, command, rule, suffix):
    path = tmp_path / f"garbage{suffix}"
    path.write_bytes(b"gpu.module @k {}\n\xff\xfe" + bytes(range(256)))
    line = fails(capsys, command, path, *_output(command, tmp_path), rule=rule,
                 where=path)
    assert "not UTF-8 text: byte 17 is 0xff" in line


def test_empty_and_garbage_mlir(tmp_path, capsys):
    empty = tmp_path / "empty.mlir"
    empty.write_text("")
    assert "no gpu.module" in fails(capsys, "compile", empty, "-o", tmp_path / "o",
                                    rule="compile-input", where=empty)
    assert "no tile.tma_copy" in fails(capsys, "explain", empty, rule="explain-input",
                                       where=empty)
    garbage = tmp_path / "garbage.mlir"
    garbage.write_text("\x00\x01 }{ not MLIR at all \x7f\n")
    fails(capsys, "compile", garbage, "-o", tmp_path / "o", rule="mlir-syntax")
    fails(capsys, "explain", garbage, rule="explain-input", where=garbage)
    # A copy in text that does not parse.
    broken = tmp_path / "broken.mlir"
    broken.write_text("gpu.module @k {\n  tile.tma_copy load tile 2d %s, %A[\n")
    fails(capsys, "explain", broken, rule="mlir-syntax")


@pytest.mark.parametrize("command,rule", [("compile", "compile-input"),
                                          ("explain", "explain-input")])
def test_python_files_that_fail(tmp_path, capsys, command, rule):
    extra = _output(command, tmp_path)
    cases = {
        "empty": ("", "defines no @kernel", None),
        "no_kernel": ("X = 1\n", "defines no @kernel", None),
        "raises": ("import os\n\nraise RuntimeError('boom')\n",
                   "raised RuntimeError: boom", 3),
        "syntax": ("def f(:\n    pass\n", "raised SyntaxError", 1),
        "exits": ("import sys\nsys.exit(3)\n", "raised SystemExit: 3", 2),
        "imports": ("import no_such_module_here\n",
                    "raised ModuleNotFoundError", 1),
        "nul": ("X = 1\x00\n", "raised", None),
        "body": (KERNEL.format(body="    undefined_name + 1"),
                 "raised NameError: name 'undefined_name' is not defined", 7),
    }
    for name, (source, said, line) in cases.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        where = path if line is None else f"{path}:{line}"
        if name == "nul":
            where = None
        err = fails(capsys, command, path, *extra, rule=rule, where=where)
        assert said in err, (name, err)


def test_bad_kernel_flag_and_arch(tmp_path, capsys):
    src = tmp_path / "one.py"
    src.write_text(KERNEL.format(body="    pass"))
    for command, rule in (("compile", "compile-input"), ("explain", "explain-input")):
        err = fails(capsys, command, src, "--kernel", "nope",
                    *_output(command, tmp_path), rule=rule, where=src)
        assert "no @kernel 'nope'" in err and "(it defines: k)" in err
    err = fails(capsys, "compile", SWIZZLE, "--arch", "sm_80", "-o", tmp_path / "o",
                rule="compile-arch", where=SWIZZLE)
    assert "'sm_80'" in err
    fails(capsys, "compile", tmp_path / "k.txt", rule="compile-input")


def test_compile_into_an_unwritable_path(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = blocker / "art"                    # a folder under a file
    err = fails(capsys, "compile", SWIZZLE, "--no-cubin", "-o", out,
                rule="output-path", where=SWIZZLE)
    assert str(out) in err or str(blocker) in err
    assert "Not a directory" in err or "not a directory" in err


def test_rules_unknown_name(capsys):
    err = fails(capsys, "rules", "box-extnt", rule="rule-name", where="tile-mlir rules")
    assert ONE_ERROR.match(err)["rule"] == "rule-name"
    assert "no rule 'box-extnt'" in err and "did you mean: box-extent" in err
    fails(capsys, "rules", "", rule="rule-name")


def test_cache_populate_bad_recipes(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "raising_recipes.py").write_text(
        "def recipes():\n    raise RuntimeError('no recipes today')\n")
    for spec, said in (("no_colon", "expected MODULE:FUNCTION"),
                       ("no_such_module_xyz:f", "no_such_module_xyz"),
                       ("raising_recipes:missing", "missing"),
                       ("raising_recipes:recipes", "RuntimeError: no recipes today")):
        err = fails(capsys, "cache", "populate", spec, rule="cache-recipe",
                    where="tile-mlir cache")
        assert said in err, (spec, err)


def test_usage_errors_exit_2(capsys):
    for argv in (["explain"], ["explain", "x.mlir", "--coords", "a,b"],
                 ["explain", "x.mlir", "--rows", "x"], ["explain", "x.mlir", "--op-index", "x"],
                 ["compile", "x.mlir", "--bogus"], ["cache"], ["cache", "frob"],
                 ["cache", "populate"]):
        with pytest.raises(SystemExit) as exc:
            code = cli.main(argv)
            raise SystemExit(code)
        assert exc.value.code == 2, argv
    capsys.readouterr()


def test_no_traceback_from_a_real_process(tmp_path):
    raising = tmp_path / "raising.py"
    raising.write_text("raise ValueError('at import')\n")
    garbage = tmp_path / "garbage.mlir"
    garbage.write_bytes(bytes(range(256)))
    for argv in (["compile", raising, "-o", tmp_path / "o"], ["explain", raising],
                 ["explain", garbage], ["compile", garbage, "-o", tmp_path / "o"],
                 ["explain", tmp_path], ["rules", "nope"]):
        proc = subprocess.run([sys.executable, "-m", "tile_mlir", *map(str, argv)],
                              capture_output=True, text=True, env=ENV, timeout=120)
        assert proc.returncode == 1, (argv, proc.stderr)
        assert "Traceback" not in proc.stderr, (argv, proc.stderr)
        assert ONE_ERROR.match(proc.stderr.strip()), (argv, proc.stderr)
        assert proc.stdout == ""
    proc = subprocess.run([sys.executable, "-m", "tile_mlir", "explain", "-"],
                          input=b"\xff\x00garbage", capture_output=True, env=ENV,
                          timeout=120)
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert proc.stderr.startswith(b"<stdin>: error: [explain-input] <stdin> is not UTF-8")


@pytest.mark.parametrize("argv, rule", [
    (["explain", "a\x00b.mlir"], "explain-input"),
    (["explain", "a\x00b.py"], "explain-input"),
    (["compile", "a\x00b.mlir", "-o", "out"], "compile-input"),
    (["compile", "a\x00b.py", "-o", "out"], "compile-input"),
])
def test_a_path_with_a_nul_byte_is_the_inputs_rule(capsys, argv, rule):
    # No system call takes such a path (Python's ValueError): named, one line.
    line = fails(capsys, *argv, rule=rule, where=repr(argv[1]))
    assert f"cannot read {argv[1]!r}" in line and "null byte" in line


def test_an_output_path_with_a_nul_byte_is_output_path(tmp_path, capsys):
    out = str(tmp_path / "o\x00ut")
    line = fails(capsys, "compile", SWIZZLE, "--no-cubin", "-o", out, rule="output-path",
                 where=SWIZZLE)
    assert repr(out) in line and "null byte" in line
