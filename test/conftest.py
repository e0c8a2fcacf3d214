"""Child processes the tests start (the CLI, the fuzz driver, JIT-compiled
host code, fresh interpreters) find tile_mlir where this run does: pytest
puts the built package on sys.path (pyproject's `pythonpath`), and this
hands the same folder on through PYTHONPATH."""

import os
from pathlib import Path

import tile_mlir

_PACKAGE_ROOT = str(Path(tile_mlir.__file__).resolve().parents[1])
_PATHS = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
if _PACKAGE_ROOT not in _PATHS:
    os.environ["PYTHONPATH"] = os.pathsep.join([_PACKAGE_ROOT] + _PATHS)
