"""The tools that lower IR to a cubin: where ptxas is, and their identity
(what the compile cache's IR key hashes).

Imports neither MLIR nor the compiled library at module level, so the
compile cache (which runs where MLIR is not) can import it.
"""

from __future__ import annotations

import os
import shutil
from functools import lru_cache
from pathlib import Path

from . import __version__
from .targets import PTX_FEATURES


def find_ptxas() -> str | None:
    """A CUDA toolkit's ptxas (PATH, CUDA_HOME) or the nvidia-cuda-nvcc wheel's."""
    found = shutil.which("ptxas")
    if found:
        return found
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if home and (Path(home) / "bin" / "ptxas").exists():
            return str(Path(home) / "bin" / "ptxas")
    try:
        # Function-local: the nvidia-cuda-nvcc wheel is optional.
        import nvidia.cuda_nvcc as wheel  # type: ignore[import-not-found]
        candidate = Path(list(wheel.__path__)[0]) / "bin" / "ptxas"
        if candidate.exists():
            return str(candidate)
    except ImportError:
        pass
    return None


def _stat_id(path: str | Path | None) -> str | None:
    if path is None:
        return None
    st = Path(path).stat()
    return f"{Path(path).resolve()}:{st.st_size}:{st.st_mtime_ns}"


@lru_cache(maxsize=None)
def identity() -> dict:
    """What lowers IR to a cubin in this process: the compiled library, the
    MLIR bindings and ptxas, by path, size and modification time (a rebuilt
    tool is a new tool). Needs MLIR."""
    # Function-local: the mlir bindings (which _native loads) are an optional
    # dependency, and only compiling asks for the tools' identity.
    from . import _native
    import mlir
    mlir_lib = next(Path(list(mlir.__path__)[0], "_mlir_libs").glob("libMLIRPythonCAPI*"),
                    None)
    return {"tile_mlir": __version__, "library": _stat_id(_native.library_path()),
            "mlir": _stat_id(mlir_lib), "ptxas": _stat_id(find_ptxas()),
            "ptx_features": PTX_FEATURES}
