"""The tile.tma_copy fuzzer, small: test/fuzz/run_fuzz.py on a few thousand
cases (the full run is `python test/fuzz/run_fuzz.py --count 100000`).

The seed changes from run to run (set TILE_FUZZ_SEED to pin it) and is
printed; a failure prints the seed, the case index and the IR, and
`python test/fuzz/run_fuzz.py --seed S --case I` reproduces one case.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "test" / "fuzz" / "run_fuzz.py"
TILE_OPT = ROOT / "build" / "python_packages" / "tile_mlir" / "bin" / "tile-opt"
COUNT = int(os.environ.get("TILE_FUZZ_COUNT", "3000"))


@pytest.fixture(scope="module")
def seed():
    env = os.environ.get("TILE_FUZZ_SEED")
    value = int(env) if env else int.from_bytes(os.urandom(3), "little")
    print(f"\ntile fuzz seed: {value} (TILE_FUZZ_SEED={value} to repeat)")
    return value


def test_generator_is_deterministic_and_pure(seed):
    code = (
        "import sys, generator as G\n"
        f"a = [G.generate({seed}, i).text for i in range(50)]\n"
        f"b = [G.generate({seed}, i).text for i in range(50)]\n"
        "assert a == b\n"
        # Pure: no MLIR, nothing of tile_mlir but its (pure Python) contract.
        "assert not [m for m in sys.modules if m.split('.')[0] == 'mlir' or\n"
        "            m.startswith('tile_mlir.') and m not in\n"
        "            ('tile_mlir.contract', 'tile_mlir._contract', 'tile_mlir.errors')]\n")
    subprocess.run([sys.executable, "-c", code], cwd=DRIVER.parent, check=True)


@pytest.mark.skipif(not TILE_OPT.exists(), reason="tile-opt is not built")
def test_fuzz_small(seed, tmp_path):
    report_path = tmp_path / "fuzz.json"
    proc = subprocess.run(
        [sys.executable, str(DRIVER), "--count", str(COUNT), "--seed", str(seed),
         "--batch", "500", "--json", str(report_path), "--ptx-cap", "6"],
        capture_output=True, text=True, timeout=600)
    print(proc.stdout[-20000:])
    print(proc.stderr[-5000:], file=sys.stderr)
    assert report_path.exists(), f"seed {seed}: driver failed:\n{proc.stderr[-3000:]}"
    report = json.loads(report_path.read_text())
    assert report["total"] == COUNT
    # The driver's own report of the failures (its FAILURE blocks) goes into
    # the assertion, which pytest's summary keeps; a log cut to its tail may
    # lose the output printed above.
    blocks = proc.stdout[proc.stdout.find("FAILURE "):][:6000]
    assert report["failures"] == 0, f"seed {seed}: {report['failures']} failures\n{blocks}"
    assert proc.returncode == 0
    # A good share of the cases verifies, and every accepted one lowers (or is
    # rejected by name by the barrier accounting tile-lower-tma runs first)
    # and round-trips.
    assert report["accepted"] > 0.2 * COUNT
    late = sum(report["lowering_rejected"].values())
    assert report["lowered"] + late == report["accepted"] == report["roundtrip"]
    # Every rejection named a rule (parse errors are counted separately).
    assert report["rejected"] == (sum(report["rejected_per_rule"].values())
                                  + report["parse_errors"])
    assert report["builder"].get("agreed", 0) > 0
