"""The compile cache's folder and its IR level: what compiler.compile looks
up and stores (docs/compile-cache.md). tile_mlir.cache is the cache's public
face (the recipe level, load_kernel, populate, info, clear) and re-exports
these names.

Imports neither MLIR nor the compiled library.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from .artifact import Artifact
from .toolchain import identity

CACHE_DIR_ENV = "TILE_MLIR_CACHE_DIR"
CACHE_ENABLE_ENV = "TILE_MLIR_CACHE"

ir_memory: dict = {}  # IR key -> Artifact

# The tools' identity the IR key hashes. tile_mlir.cache routes it through
# its own `toolchain` name, so what that name holds keys the IR level.
tools: Callable[[], dict] = identity


def cache_dir() -> Path:
    """The cache folder (created on first write)."""
    explicit = os.environ.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tile-mlir"


def disk_enabled() -> bool:
    return os.environ.get(CACHE_ENABLE_ENV, "1") not in ("0", "off", "false", "no")


def digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


def ir_key(text: str, arch: str, debug: bool) -> str:
    return digest({"ir": hashlib.sha256(text.encode()).hexdigest(), "arch": arch,
                   "debug": bool(debug), "toolchain": tools()})


def lookup_ir(key: str, cubin: bool) -> Artifact | None:
    """The artifact compiled under `key` (with a cubin if `cubin`), or None."""
    art = ir_memory.get(key)
    if art is None and disk_enabled():
        folder = cache_dir() / "ir" / key
        if (folder / "manifest.json").exists():
            art = Artifact.load(folder)
            ir_memory[key] = art
    if art is None or (cubin and art.cubin is None):
        return None
    return art


def store_ir(key: str, art: Artifact) -> None:
    ir_memory[key] = art
    if disk_enabled():
        write_artifact(cache_dir() / "ir" / key, art)


# -- atomic writes -------------------------------------------------------------

def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def write_artifact(folder: Path, art: Artifact) -> None:
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".tmp-"))
    art.save(tmp)
    try:
        os.replace(tmp, folder)
    except OSError:  # another process stored it first (or an old cubin-less entry)
        shutil.rmtree(folder, ignore_errors=True)
        try:
            os.replace(tmp, folder)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
