"""The installed wheel works from outside the repository (scripts/test_wheel.sh:
build with default isolation, install into a fresh venv, run tile-opt and
every tile-mlir subcommand). CI (.ci/run) runs the script itself after the
test suite. A wheel build compiles the whole project, far too slow for every
local test run: set TILE_TEST_WHEEL=1 to run it here (TILE_WHEEL=path reuses
a built wheel)."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.skipif(os.environ.get("TILE_TEST_WHEEL") != "1",
                    reason="a wheel build takes minutes (CI runs scripts/test_wheel.sh): "
                           "set TILE_TEST_WHEEL=1")
def test_installed_wheel_commands(tmp_path):
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "test_wheel.sh"), str(tmp_path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all installed commands work" in proc.stdout
