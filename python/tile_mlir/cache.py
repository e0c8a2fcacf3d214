"""The compile cache: a kernel compiled once is found again in memory and on
disk, instead of running the pipeline and ptxas again (docs/compile-cache.md).

Two keys lead to a compiled artifact:

- the IR key: the kernel's MLIR text, the arch, the PTX features, debug, and
  the identity of the tools that lower it (this package's compiled library,
  the MLIR bindings, ptxas). compiler.compile() looks it up for every
  KernelDef, module or MLIR text it is given.
- the recipe key: a builder function (a module-level function returning a
  KernelDef), its JSON parameters, the arch, debug, and a content
  fingerprint of this package (its Python sources and compiled library).
  load_kernel() looks it up without building any IR, so it works where MLIR
  is not installed: `tile-mlir cache populate` fills the folder where MLIR
  is, and the folder is carried to the GPU machine. A recipe missing there
  is [compile-cache-miss].

This module is the cache's public face: the folder and the IR level live in
ir_cache.py (compiler.compile uses them; their names are re-exported here),
the tools' identity in toolchain.py. It imports neither MLIR nor the
compiled library.

Folder: $TILE_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/tile-mlir, else
~/.cache/tile-mlir. `TILE_MLIR_CACHE=0` turns the disk cache off (memory
only). Entries are written to a temporary name and renamed, so concurrent
processes never read half an entry.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import json
import os
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Callable

from . import ir_cache, runtime
from .artifact import Artifact
from .errors import TileUsageError
from .ir_cache import (CACHE_DIR_ENV, CACHE_ENABLE_ENV, cache_dir,  # noqa: F401
                       disk_enabled, ir_key, lookup_ir, store_ir, write_text)
from .ir_cache import digest as _digest
from .ir_cache import ir_memory as _ir_memory
from .runtime.driver import device_arch, device_index, gpu_available
from .runtime.errors import TileRuntimeError
from .targets import ARCHES
from .toolchain import identity as toolchain

PACKAGE = Path(__file__).resolve().parent

_recipe_memory: dict = {}  # recipe key -> Artifact
_modules: dict = {}        # recipe key -> loaded runtime Module

# The IR key hashes what this module's `toolchain` name holds (see ir_cache.tools).
ir_cache.tools = lambda: toolchain()


# -- fingerprints -------------------------------------------------------------

def _package_files() -> list[tuple[str, os.stat_result]]:
    """(relative path, stat) of the package's .py and .so files, sorted."""
    found = []
    for top, dirs, files in os.walk(PACKAGE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(top, PACKAGE)
        with os.scandir(top) as entries:
            for entry in entries:
                if entry.name.endswith((".py", ".so")) and entry.is_file():
                    found.append((os.path.normpath(os.path.join(rel, entry.name)),
                                  entry.stat()))
    return sorted(found)


@lru_cache(maxsize=None)
def package_fingerprint() -> str:
    """sha256 of this package's Python sources and compiled library: the
    same on every machine the package is copied to. Hashing takes a few ms,
    so the result is remembered in the cache folder by the files' sizes and
    modification times (a process's first lookup pays only the stat calls)."""
    files = _package_files()
    stats = hashlib.sha256("".join(f"{rel}:{st.st_size}:{st.st_mtime_ns};"
                                   for rel, st in files).encode())
    memo = cache_dir() / "fingerprints" / stats.hexdigest()
    if disk_enabled() and memo.exists():
        return memo.read_text().strip()
    content = hashlib.sha256()
    for rel, _ in files:
        content.update(rel.encode() + b"\0")
        content.update((PACKAGE / rel).read_bytes())
    digest = content.hexdigest()
    if disk_enabled():
        write_text(memo, digest)
    return digest


def mlir_available() -> bool:
    """Whether this process can build and compile kernels (MLIR bindings and
    the compiled library import)."""
    try:
        # Loads the compiled library, which imports the mlir bindings: an
        # optional dependency, whose absence is the answer.
        importlib.import_module("tile_mlir._native")
    except ImportError:
        return False
    return True


# -- the recipe level (load_kernel) ------------------------------------------

def _canonical(value, where: str):
    """`value` as plain JSON (tuples become lists), or [cache-recipe]."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_canonical(v, where) for v in value]
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {k: _canonical(v, where) for k, v in value.items()}
    raise TileUsageError("cache-recipe", f"{where}: {value!r} ({type(value).__name__}) "
                         "is not a JSON value (int, float, str, bool, None, lists, "
                         "dicts with str keys)")


def builder_name(builder: Callable | str) -> str:
    """`module:qualname` of a module-level builder function (or that string
    itself), or [cache-recipe]."""
    if isinstance(builder, str):
        module, _, qualname = builder.partition(":")
        if module and qualname and "<" not in qualname:
            return builder
        raise TileUsageError("cache-recipe", f"builder {builder!r}: a builder named "
                             "by a string is 'module:function'")
    module = getattr(builder, "__module__", None)
    qualname = getattr(builder, "__qualname__", "")
    if not callable(builder) or not module or "<" in qualname:
        raise TileUsageError("cache-recipe", f"builder {builder!r}: a cached kernel's "
                             "builder is a module-level function (a lambda or a nested "
                             "function has no name to find it by)")
    return f"{module}:{qualname}"


def missing_module(module: str) -> str | None:
    """The name of `module` (or of the package above it) where no such module
    can be found, else None, found without importing `module` itself (its
    packages are imported: a package that needs MLIR, absent here, says
    nothing either way and counts as found)."""
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError as err:
        if err.name and (module == err.name or module.startswith(err.name + ".")):
            return err.name
        return None
    except Exception:   # a package above it failed to import: not known missing
        return None
    return module if spec is None else None


def _no_module(what: str, module: str, missing: str) -> TileUsageError:
    return TileUsageError("cache-recipe", f"{what}: no module named {missing!r}" +
                          (f" (importing {module!r})" if missing != module else ""))


def resolve_builder(name: str) -> Callable:
    """The function a `module:qualname` names (imports its module), or
    [cache-recipe]: no such module, no such function in it, not callable."""
    module, _, qualname = name.partition(":")
    try:
        obj = importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name and (module == err.name or module.startswith(err.name + ".")):
            raise _no_module(f"builder {name}", module, err.name) from None
        raise TileUsageError("cache-recipe", f"builder {name}: importing {module!r} "
                             f"failed: {err}") from err
    except ImportError as err:
        raise TileUsageError("cache-recipe", f"builder {name}: importing {module!r} "
                             f"failed: {err}") from err
    for part in qualname.split("."):
        if not hasattr(obj, part):
            raise TileUsageError("cache-recipe", f"builder {name}: module {module!r} "
                                 f"has no function {qualname!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise TileUsageError("cache-recipe", f"builder {name}: {qualname!r} is a "
                             f"{type(obj).__name__}, not a function")
    return obj


def _bind(function: Callable, name: str, params: dict) -> None:
    """[cache-recipe] unless `function` takes `params` as keywords."""
    try:
        inspect.signature(function).bind(**params)
    except TypeError as err:
        raise TileUsageError("cache-recipe", f"{name}: {err} (parameters "
                             f"{sorted(params)})") from None
    except ValueError:   # a builtin without a signature: its call will say
        pass


def recipe(builder: Callable | str, params: dict, arch: str, debug: bool) -> dict:
    """The recipe's description (what its key hashes, minus the package):
    the builder's name and its parameters as given (a parameter left at its
    default and the same parameter given its default value are two
    recipes: callers that cache pass the same parameters every time)."""
    if arch not in ARCHES:
        raise TileUsageError("compile-arch", f"unsupported arch {arch!r} "
                             f"(supported: {', '.join(ARCHES)})")
    name = builder_name(builder)
    return {"builder": name, "params": _canonical(dict(params), f"{name} parameters"),
            "arch": arch, "debug": bool(debug)}


def recipe_key(description: dict) -> str:
    return _digest({**description, "package": package_fingerprint()})


def describe(description: dict) -> str:
    params = ", ".join(f"{k}={v!r}" for k, v in sorted(description["params"].items()))
    debug = ", debug" if description["debug"] else ""
    return f"{description['builder']}({params}) for {description['arch']}{debug}"


def lookup_recipe(key: str) -> Artifact | None:
    art = _recipe_memory.get(key)
    if art is not None or not disk_enabled():
        return art
    index = cache_dir() / "recipes" / f"{key}.json"
    if not index.exists():
        return None
    try:
        entry = json.loads(index.read_text())
        folder = cache_dir() / "ir" / entry["ir_key"]
    except (OSError, ValueError, TypeError, KeyError):
        return None   # a damaged index entry: a miss (compiling writes it again)
    if not (folder / "manifest.json").exists():
        return None
    art = Artifact.load(folder)
    _recipe_memory[key] = art
    return art


def compile_recipe(builder: Callable | str, *, arch: str = "sm_90a", debug: bool = False,
                   **params) -> Artifact:
    """The artifact of `builder(**params)` compiled for `arch`: from memory,
    then from the folder, else compiled (where MLIR is) and stored. Without
    MLIR, a recipe not in the folder raises [compile-cache-miss]. `builder`
    is a module-level function or its 'module:function' name: code that
    must run where MLIR is not (a module importing the builder imports
    MLIR) names it by the string, and the function is imported on a miss."""
    description = recipe(builder, params, arch, debug)
    key = recipe_key(description)
    art = lookup_recipe(key)
    if art is not None:
        return art
    if not mlir_available():
        module = description["builder"].partition(":")[0]
        missing = missing_module(module)
        if missing is not None:   # a typo is named, not taken for a cache miss
            raise _no_module(f"builder {description['builder']}", module, missing)
        raise TileRuntimeError(
            "compile-cache-miss", f"{describe(description)} is not in the compile "
            f"cache {cache_dir()} (key {key[:16]}), and this process has no MLIR to "
            "compile it: run `tile-mlir cache populate` for it where MLIR is installed "
            f"and carry the folder (${CACHE_DIR_ENV} names it)")
    # Function-local: the compiler imports the mlir bindings, an optional
    # dependency; a recipe found in the folder needs no compiler.
    from . import compiler
    function = builder if callable(builder) else resolve_builder(description["builder"])
    _bind(function, description["builder"], params)   # parameters it does not take
    kernel = function(**params)
    art, ir = compiler.compile_keyed(kernel, arch=arch, debug=debug)
    _recipe_memory[key] = art
    if disk_enabled():
        write_text(cache_dir() / "recipes" / f"{key}.json",
                    json.dumps({"ir_key": ir, **description}, indent=1))
    return art


def default_arch(device: int = 0) -> str:
    """The arch of CUDA device `device` where one is usable, else sm_90a."""
    ok, _ = gpu_available()
    return device_arch(device) if ok else "sm_90a"


def load_kernel(builder: Callable | str, *, arch: str | None = None, debug: bool = False,
                device: int | None = None, **params):
    """The loaded runtime Module of `builder(**params)` (compiled through the
    cache; loaded once per process, recipe and device). `device` defaults to
    the calling thread's current CUDA device (runtime.load's default), `arch`
    to that device's.

    The recipe is checked before the driver is needed ([cache-recipe],
    [compile-arch]); where the driver is missing, the recipe is compiled
    (or looked up) for `arch` (default sm_90a) first, so its own problems
    (a builder that is not there, parameters it does not take, a cache
    miss) are named before the missing driver is."""
    recipe(builder, params, arch or "sm_90a", debug)
    try:
        device = device_index(device)
    except TileRuntimeError as err:
        if err.rule in ("cuda-python-missing", "cuda-driver-missing"):
            compile_recipe(builder, arch=arch or "sm_90a", debug=debug, **params)
        raise
    arch = arch or default_arch(device)
    description = recipe(builder, params, arch, debug)
    key = (recipe_key(description), device)
    module = _modules.get(key)
    if module is None:
        module = _modules[key] = runtime.load(
            compile_recipe(builder, arch=arch, debug=debug, **params), device=device)
    return module


# -- populate / info / clear (tile-mlir cache) -------------------------------

def resolve_recipes(spec: str) -> list[tuple[Callable, dict, dict]]:
    """`MODULE:FUNC` -> FUNC()'s (builder, params[, options]) entries, each
    returned as (builder, params, options) with options from debug/arch;
    [cache-recipe] for a spec, a function or an entry that is not one."""
    module_name, _, func_name = spec.partition(":") if isinstance(spec, str) else ("", "", "")
    if not module_name or not func_name:
        raise TileUsageError("cache-recipe", f"{spec!r}: expected MODULE:FUNCTION, "
                             "e.g. tile_mlir.testing.runtime_kernels:cache_recipes")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name and (module_name == err.name or module_name.startswith(err.name + ".")):
            raise _no_module(spec, module_name, err.name) from None
        raise TileUsageError("cache-recipe", f"{spec}: importing {module_name!r} "
                             f"failed: {err}") from err
    except ImportError as err:
        raise TileUsageError("cache-recipe", f"{spec}: importing {module_name!r} "
                             f"failed: {err}") from err
    func = getattr(module, func_name, None)
    if not callable(func):
        raise TileUsageError("cache-recipe", f"{spec}: module {module_name!r} has no "
                             f"function {func_name!r}" if func is None else
                             f"{spec}: {func_name!r} is a {type(func).__name__}, not a "
                             "function")
    items = func()
    if isinstance(items, (str, bytes, dict)) or not hasattr(items, "__iter__"):
        raise TileUsageError("cache-recipe", f"{spec}: returned {items!r:.80}, expected "
                             "a list of (builder, params[, options]) entries")
    return [_recipe_entry(spec, item) for item in items]


def _recipe_entry(spec: str, item) -> tuple[Callable | str, dict, dict]:
    """One (builder, params[, options]) entry of a recipe list, checked."""
    if not isinstance(item, (tuple, list)) or len(item) not in (2, 3):
        raise TileUsageError("cache-recipe", f"{spec}: each entry is (builder, "
                             f"params) or (builder, params, options), got {item!r:.80}")
    builder, params = item[0], item[1]
    options = item[2] if len(item) == 3 else {}
    for what, value in (("params", params), ("options", options)):
        if not isinstance(value, dict):
            raise TileUsageError("cache-recipe", f"{spec}: entry {item!r:.80}: its "
                                 f"{what} are {type(value).__name__}, expected a dict")
    unknown = sorted(set(options) - {"arches", "debug"})
    if unknown:
        raise TileUsageError("cache-recipe", f"{spec}: entry {item!r:.80}: unknown "
                             f"options {unknown} (known: arches, debug)")
    if "arches" in options:
        options = dict(options, arches=_arches(options["arches"], spec))
    return builder, dict(params), dict(options)


def _arches(arches, where: str) -> tuple[str, ...]:
    """An arch or a list of them as a tuple ([cache-recipe] otherwise; each
    arch is checked against the targets by recipe())."""
    if isinstance(arches, str):
        return (arches,)
    if isinstance(arches, (list, tuple)) and arches and \
            all(isinstance(a, str) for a in arches):
        return tuple(arches)
    raise TileUsageError("cache-recipe", f"{where}: arches {arches!r} is not an arch "
                         "name or a list of them")


def populate(spec: str, arches=("sm_90a",), debug: bool = False,
             progress: Callable[[str], None] | None = None) -> int:
    """Compiles every recipe `spec` names into the folder; returns how many."""
    arches = _arches(arches, "populate")
    count = 0
    for builder, params, options in resolve_recipes(spec):
        for arch in options.get("arches", arches):
            compile_recipe(builder, arch=arch, debug=options.get("debug", debug), **params)
            count += 1
            if progress:
                progress(describe(recipe(builder, params, arch,
                                         options.get("debug", debug))))
    return count


# What the cache writes in its folder (ir_cache.py, this module); clear()
# removes these and nothing else.
_ENTRIES = ("ir", "recipes", "fingerprints")


def _folder() -> Path:
    """The cache folder; [output-path] where that path is a file."""
    folder = cache_dir()
    if folder.exists() and not folder.is_dir():
        raise TileUsageError("output-path", f"the compile cache folder {str(folder)!r} "
                             f"(${CACHE_DIR_ENV}, else ~/.cache/tile-mlir) is a file, "
                             "not a folder")
    return folder


def info() -> dict:
    """The cache folder, whether the disk cache is on, and what it holds."""
    folder = _folder()
    files = [p for name in _ENTRIES for p in (folder / name).rglob("*")]
    return {"folder": str(folder), "enabled": disk_enabled(),
            "artifacts": len(list((folder / "ir").glob("*"))),
            "recipes": len(list((folder / "recipes").glob("*.json"))),
            "bytes": sum(_size(p) for p in files)}


def _size(path: Path) -> int:
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:   # removed meanwhile by another process
        return 0


def clear() -> None:
    """Forgets every compiled kernel: in memory, and the cache's own entries
    in its folder (the folder goes too where nothing else is in it; a
    $TILE_MLIR_CACHE_DIR that holds other files keeps them)."""
    _ir_memory.clear()
    _recipe_memory.clear()
    _modules.clear()
    folder = _folder()
    if not folder.exists():
        return
    for name in _ENTRIES:
        shutil.rmtree(folder / name, ignore_errors=True)
    for tmp in folder.glob(".tmp-*"):   # an interrupted write
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.unlink(missing_ok=True)
    try:
        folder.rmdir()
    except OSError:   # other files: not the cache's to remove
        pass

