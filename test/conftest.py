"""Child processes the tests start (the CLI, the fuzz driver, JIT-compiled
host code, fresh interpreters) find tile_mlir where this run does: pytest
puts the built package on sys.path (pyproject's `pythonpath`), and this
hands the same folder on through PYTHONPATH."""

import os
from pathlib import Path

try:
    import tile_mlir
except ImportError:  # not built: the tests say so themselves
    tile_mlir = None

if tile_mlir is not None:
    _ROOT = str(Path(tile_mlir.__file__).resolve().parents[1])
    _PATHS = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if _ROOT not in _PATHS:
        os.environ["PYTHONPATH"] = os.pathsep.join([_ROOT] + _PATHS)
