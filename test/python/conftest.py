"""The CPU tests run where MLIR is (tile_mlir._native loads MLIR's LLVM into
the process). A triton wheel, which a CUDA build of torch brings along,
carries an LLVM of its own, and loading it beside MLIR's aborts the whole
process; torch's compiler stack imports triton wherever it is installed.
No CPU test uses triton (the torch ops trace with the eager backends), so
where MLIR is importable torch is shown none."""

import importlib.util
import sys

if importlib.util.find_spec("mlir") is not None:
    sys.modules.setdefault("triton", None)
