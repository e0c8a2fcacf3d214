# lit configuration for tile-mlir: FileCheck and --verify-diagnostics tests.
import os
import sys
from pathlib import Path

import lit.formats

config.name = "tile-mlir"
# PyPI's lit: run RUN lines with lit's internal shell.
config.test_format = lit.formats.ShTest(False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)

repo = Path(__file__).resolve().parents[2]
package = Path(os.environ.get("TILE_MLIR_PACKAGE",
                              repo / "build" / "python_packages" / "tile_mlir"))
config.test_exec_root = str(repo / "build" / "lit")

# The upstream wheels' tools (mlir-opt, FileCheck, ...) sit beside their
# Python packages; the tests themselves import tile_mlir via PYTHONPATH.
import mlir  # noqa: E402
import llvm  # noqa: E402

mlir_bin = Path(list(mlir.__path__)[0]) / "bin"
llvm_bin = Path(list(llvm.__path__)[0]) / "bin"

config.environment["PATH"] = os.pathsep.join(
    [str(package / "bin"), str(mlir_bin), str(llvm_bin),
     config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%tile_lib", str(package / "_lib" / "libTileMLIR.so")))
config.substitutions.append(("%python", sys.executable))
config.environment["PYTHONPATH"] = str(package.parent)
for tool in ("tile-opt", "mlir-opt", "FileCheck", "not", "count"):
    found = [d for d in (package / "bin", mlir_bin, llvm_bin) if (d / tool).exists()]
    if not found:
        lit_config.fatal(f"{tool} not found (build the project first)")
