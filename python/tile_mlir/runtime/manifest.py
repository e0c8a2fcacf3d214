"""An artifact folder read and its manifest checked, before any driver call.

What compile writes (compiler.py, artifact_data.py) is the schema checked
here, in one place: a folder holding manifest.json (and kernel.ptx,
kernel.cubin), the manifest a JSON object with its `version`, `arch`, its
`kernels` (each a name, its parameters, launch shape, shared bytes and
tensor maps) and, for a debug build, its `debug` entry. A path that names no
such folder is [artifact-path]; a manifest that breaks the schema is
[artifact-manifest], naming the field (`kernels[0].params[1].shape`) and
the value found. Needs no MLIR and no driver: a broken artifact is
diagnosed on any machine.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..artifact_data import CUBIN, MANIFEST, MANIFEST_VERSION, PTX, ArtifactData
from ..errors import TileError
from ..launch_shape import check_block, check_cluster, check_grid, dim3
from ..spec import TensorMapSpec
from .errors import TileRuntimeError

_MEMREF_KEYS = ("shape", "element")


def artifact_folder(path) -> Path:
    """`path` as an existing artifact folder, or [artifact-path] naming it."""
    if isinstance(path, (bytes, bytearray)) or not isinstance(path, (str, os.PathLike)):
        raise TileRuntimeError("artifact-path", f"runtime.load takes an artifact (from "
                               f"compile) or the path of its folder (a str or "
                               f"os.PathLike), got {type(path).__name__} {path!r}")
    folder = Path(path)
    if not folder.exists():
        raise TileRuntimeError("artifact-path", f"{str(folder)!r} does not exist "
                               f"(an artifact folder, as compile -o or Artifact.save "
                               "writes it)")
    if not folder.is_dir():
        raise TileRuntimeError("artifact-path", f"{str(folder)!r} is a file, not an "
                               f"artifact folder (the folder holding {MANIFEST})")
    if not (folder / MANIFEST).is_file():
        raise TileRuntimeError("artifact-path", f"{str(folder)!r} holds no {MANIFEST}: "
                               "not an artifact folder (compile -o or Artifact.save "
                               "writes one)")
    return folder


def _read(path: Path, binary: bool = False):
    try:
        return path.read_bytes() if binary else path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise TileRuntimeError("artifact-path", f"{str(path)!r} cannot be read "
                               f"({type(err).__name__}: {err})") from None


def read_artifact(path, cls=ArtifactData) -> ArtifactData:
    """The artifact in folder `path` (a `cls`), its manifest checked."""
    folder = artifact_folder(path)
    text = _read(folder / MANIFEST)
    try:
        manifest = json.loads(text)
    except ValueError as err:   # JSONDecodeError, or a NaN-like constant
        raise TileRuntimeError("artifact-manifest", f"{folder / MANIFEST}: not valid "
                               f"JSON ({err})") from None
    check_manifest(manifest, str(folder / MANIFEST))
    ptx, cubin = folder / PTX, folder / CUBIN
    return cls(ptx=_read(ptx) if ptx.exists() else "",
               cubin=_read(cubin, binary=True) if cubin.exists() else None,
               manifest=manifest)


def _bad(where: str, field: str, value, expected: str) -> TileRuntimeError:
    return TileRuntimeError("artifact-manifest", f"{where}: {field} is {value!r:.120}, "
                            f"expected {expected}")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _need(entry: dict, key: str, kind, where: str, field: str, expected: str):
    if key not in entry:
        raise TileRuntimeError("artifact-manifest", f"{where}: {field} is missing "
                               f"(expected {expected})")
    value = entry[key]
    if not (_is_int(value) if kind is int else isinstance(value, kind)):
        raise _bad(where, field, value, expected)
    return value


def check_manifest(manifest, where: str = "the manifest") -> None:
    """[artifact-manifest] unless `manifest` has the structure compile
    writes; `where` names it (the manifest.json path) in the message."""
    if not isinstance(manifest, dict):
        raise TileRuntimeError("artifact-manifest", f"{where}: holds "
                               f"{type(manifest).__name__} {manifest!r:.60}, expected "
                               "a JSON object (arch, kernels)")
    version = manifest.get("version", MANIFEST_VERSION)
    if version != MANIFEST_VERSION or not _is_int(version):
        raise _bad(where, "version", version, f"{MANIFEST_VERSION} (an artifact "
                   "from another tile-mlir version: compile it again)")
    _need(manifest, "arch", str, where, "arch", "a target name such as 'sm_90a'")
    kernels = _need(manifest, "kernels", list, where, "kernels", "a list of kernels")
    names = set()
    for i, info in enumerate(kernels):
        name = _check_kernel(info, where, f"kernels[{i}]")
        if name in names:
            raise _bad(where, f"kernels[{i}].name", name, "a name no other kernel has")
        names.add(name)
    if "debug" in manifest:
        _check_debug(manifest["debug"], where)


def _check_kernel(info, where: str, field: str) -> str:
    if not isinstance(info, dict):
        raise _bad(where, field, info, "an object (name, params, ...)")
    name = _need(info, "name", str, where, f"{field}.name", "the kernel's name")
    if not name:
        raise _bad(where, f"{field}.name", name, "the kernel's name")
    params = _need(info, "params", list, where, f"{field}.params", "a list of parameters")
    for j, param in enumerate(params):
        _check_param(param, where, f"{field}.params[{j}]")
    shapes = {key: _launch_shape(info[key], where, f"{field}.{key}")
              for key in ("grid", "block", "cluster") if info.get(key) is not None}
    try:   # a kernel without a grid (MLIR text) takes one at the call
        check_block(shapes.get("block", (1, 1, 1)))
        if "grid" in shapes:
            check_grid(shapes["grid"])
        if "cluster" in shapes:
            check_cluster(shapes["cluster"], shapes.get("grid"))
    except TileError as err:
        raise TileRuntimeError("artifact-manifest", f"{where}: {field}'s launch shape "
                               f"breaks [{err.rule}]: {err.message}") from None
    for key in ("static_shared_bytes", "dynamic_shared_bytes"):
        if key in info and not (_is_int(info[key]) and info[key] >= 0):
            raise _bad(where, f"{field}.{key}", info[key], "an int >= 0")
    maps = info.get("tensor_maps", [])
    if not isinstance(maps, list):
        raise _bad(where, f"{field}.tensor_maps", maps, "a list of tensor maps")
    for k, entry in enumerate(maps):
        _check_map(entry, len(params), where, f"{field}.tensor_maps[{k}]")
    return name


def _launch_shape(value, where: str, field: str) -> tuple:
    try:
        return dim3(value)
    except TileError:
        raise _bad(where, field, value, "1 to 3 positive ints") from None


def _check_param(param, where: str, field: str) -> None:
    if not isinstance(param, dict):
        raise _bad(where, field, param, "an object (kind, ...)")
    kind = param.get("kind")
    if kind == "scalar":
        dtype = param.get("dtype", param.get("type"))
        if not isinstance(dtype, str):
            raise _bad(where, f"{field}.dtype", dtype, "a scalar type name")
        return
    if kind != "memref":
        raise _bad(where, f"{field}.kind", kind, "'memref' or 'scalar'")
    shape = _need(param, "shape", list, where, f"{field}.shape",
                  "a list of extents (ints, null where dynamic)")
    if not all(d is None or (_is_int(d) and d >= 0) for d in shape):
        raise _bad(where, f"{field}.shape", shape,
                   "a list of extents (ints >= 0, null where dynamic)")
    _need(param, "element", str, where, f"{field}.element", "an MLIR element type")


def _check_map(entry, params: int, where: str, field: str) -> None:
    try:
        spec = TensorMapSpec.from_json(entry)
    except (ValueError, TypeError, KeyError, AttributeError) as err:
        raise _bad(where, field, entry, f"a tensor map entry ({err})") from None
    if not (_is_int(spec.source) and 0 <= spec.source < params):
        raise _bad(where, f"{field}.source", spec.source,
                   f"the index of one of the kernel's {params} parameters")


_DEBUG_KEYS = {"buffer": str, "words": int, "fields": dict, "rules": dict,
               "kernels": list, "sites": list, "value_words": int, "unknown": int}


def _check_debug(entry, where: str) -> None:
    if not isinstance(entry, dict):
        raise _bad(where, "debug", entry, "an object (the error buffer's layout)")
    for key, kind in _DEBUG_KEYS.items():
        _need(entry, key, kind, where, f"debug.{key}", f"a{'n' if kind is int else ''} "
              f"{kind.__name__}")


__all__ = ["artifact_folder", "check_manifest", "read_artifact"]
