"""The main job's report: one line a step, the skip reason naming what is
missing, artifacts in the folder it names and nothing left in /tmp."""

import glob
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_main_job_report(tmp_path):
    before = set(glob.glob(os.path.join(tempfile.gettempdir(), "tile-seed-*")))
    out = tmp_path / "seed"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "build" / "python_packages"))
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "main_job.py"),
                          "--out", str(out)], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    steps = [line.split(":")[0] for line in lines]
    assert steps[:5] == ["verified", "lowered", "PTX", "cubin", "output"]
    assert lines[0].startswith("verified: 1 tile.tma_copy (2 instructions, 1024 bytes")
    assert "rules checked" in lines[0]
    assert lines[4] == f"output: {out}"
    assert (out / "kernel.ptx").exists() and (out / "manifest.json").exists()
    if lines[5].startswith("GPU check skipped: "):
        why = lines[5].removeprefix("GPU check skipped: ")
        assert why.startswith(("cuda-python is not installed", "no CUDA driver",
                               "no CUDA GPU", "the CUDA driver", "no cubin"))
        assert lines[6] == "emulator check: shared image equals the input: passed"
    else:
        assert lines[5].startswith("GPU check: ") and lines[5].endswith("passed")
    assert len(lines) <= 7
    after = set(glob.glob(os.path.join(tempfile.gettempdir(), "tile-seed-*")))
    assert after == before
