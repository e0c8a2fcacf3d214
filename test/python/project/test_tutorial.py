"""docs/tutorial.md's scripts (examples/tutorial/*.py) build, verify and
compile as written, and the tutorial's text matches them.

Each script runs as a user runs it (`python examples/tutorial/load.py`, ...):
it builds and compiles its kernel (a cubin where ptxas is found) and, with
no GPU here, says what it skipped. test/gpu/test_tutorial_kernels.py runs them on
a GPU.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TUTORIAL = ROOT / "docs" / "tutorial.md"
SCRIPTS = ("load", "store", "multicast")

pytest.importorskip("mlir.ir", reason="the builder needs MLIR's Python bindings")


def _run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "build" / "python_packages"), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


# What each script's PTX must hold: the instruction the tutorial teaches.
PTX_LINES = {
    "load": ["cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"],
    "store": ["fence.proxy.async.shared::cta;",
              "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group",
              "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group"],
    "multicast": ["cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                  ".mbarrier::complete_tx::bytes.multicast::cluster"],
}


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_builds_and_compiles(name):
    run = _run(str(ROOT / "examples" / "tutorial" / f"{name}.py"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("built: tile.tma_copy ")
    for text in PTX_LINES[name]:
        assert any(text in line for line in lines), (text, run.stdout)
    # Here: no GPU (or no ptxas), so the run is reported as skipped; on a
    # GPU machine the script runs and says so.
    assert re.search(r"^(skipped the run: .+|ran on the GPU: .+)$", lines[-1]), lines[-1]


def _explain_block() -> tuple[str, list[str]]:
    """The tutorial's explain command and the output lines it shows."""
    text = TUTORIAL.read_text()
    m = re.search(r"```sh\n(tile-mlir explain [^\n]+)\n```\n.*?```\n(.*?)```", text, re.S)
    assert m, "docs/tutorial.md shows no tile-mlir explain command with its output"
    return m.group(1), m.group(2).splitlines()


def test_explain_output_is_what_the_tutorial_shows():
    """The command as the tutorial writes it; each line it shows appears in
    the real output, in order (`...`: lines left out)."""
    command, shown = _explain_block()
    assert "--coords 96,0" in command
    run = _run("-m", "tile_mlir", *command.split()[1:])
    assert run.returncode == 0, run.stderr
    actual = run.stdout.splitlines()
    pos = 0
    for line in shown:
        if line == "...":
            continue
        assert line in actual[pos:], f"not in the output (after line {pos}): {line!r}"
        pos = actual.index(line, pos) + 1


def test_explain_marks_the_rows_past_the_tensor():
    """Rows 100..111 of the last box are out of bounds (filled): marked *."""
    run = _run("-m", "tile_mlir", "explain", "examples/tutorial/load.py",
               "--coords", "96,0")
    assert run.returncode == 0, run.stderr
    cells = {line.split("|")[0].split()[0]: line.split("|")[1].split()
             for line in run.stdout.splitlines() if re.match(r"\s+\d+\s+0x", line)}
    assert len(cells) == 16
    for row in range(16):
        marked = [c.endswith("*") for c in cells[str(row)]]
        assert marked == [96 + row >= 100] * 8, (row, cells[str(row)])


def test_tutorial_names_every_script():
    text = TUTORIAL.read_text()
    for name in SCRIPTS:
        assert f"examples/tutorial/{name}.py" in text
