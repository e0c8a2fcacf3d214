"""Console-script entry points for the packaged native tools.

pip's console scripts are Python; `tile-opt` is a C++ binary shipped inside
the package (tile_mlir/bin/tile-opt, RPATH relative to the installed mlir and
llvm wheels). The entry point replaces the Python process with it, so its
exit status, signals and standard streams are the binary's own.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def tile_opt_path() -> Path:
    """The packaged tile-opt binary."""
    return _PACKAGE / "bin" / "tile-opt"


def plugin_path() -> Path:
    """libTileMLIR.so: the mlir-opt dialect and pass plugin (and the C API)."""
    return _PACKAGE / "_lib" / "libTileMLIR.so"


def tile_opt() -> None:
    binary = tile_opt_path()
    if not binary.is_file():
        sys.exit(f"tile-opt: {binary} is missing; the tile_mlir package was "
                 "not built with its native tools")
    os.execv(binary, [str(binary), *sys.argv[1:]])
