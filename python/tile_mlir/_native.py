"""Loads libTileMLIR.so into the process that already has the `mlir` bindings.

The library carries the dialect without any MLIR of its own: its MLIR symbols
resolve against libMLIRPythonCAPI.so, which is made global here first. This
keeps exactly one copy of MLIR (and of the dialect) in the process.
"""

from __future__ import annotations

import ctypes
import os
from functools import lru_cache
from pathlib import Path

import mlir
import mlir.ir as ir

_LIB_NAME = "libTileMLIR.so"

# Generic ops named tile.* get their Python classes from tile_mlir.dialects.
from mlir.dialects._ods_common import _cext  # noqa: E402

_cext.globals.append_dialect_search_prefix("tile_mlir.dialects")


def library_path() -> Path:
    return Path(__file__).resolve().parent / "_lib" / _LIB_NAME


def tile_opt_path() -> Path:
    return Path(__file__).resolve().parent / "bin" / "tile-opt"


@lru_cache(maxsize=None)
def _lib() -> ctypes.CDLL:
    path = library_path()
    if not path.exists():
        raise ImportError(
            f"{path} is missing: build the project first (see README.md)")
    mlir_dir = Path(list(mlir.__path__)[0])
    llvm_lib = mlir_dir.parent / "llvm" / "lib" / "libLLVM.so"
    capi = mlir_dir / "_mlir_libs" / "libMLIRPythonCAPI.so"
    mode = os.RTLD_NOW | os.RTLD_GLOBAL
    for dep in (llvm_lib, capi):
        ctypes.CDLL(str(dep), mode=mode)
    lib = ctypes.CDLL(str(path), mode=os.RTLD_NOW | os.RTLD_LOCAL)
    lib.tileRegisterDialect.argtypes = [ctypes.c_void_p]
    lib.tileRegisterDialect.restype = None
    lib.tileRegisterPasses.argtypes = []
    lib.tileRegisterPasses.restype = None
    lib.tileParsePtxOpcode.argtypes = [
        ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_char_p,
        ctypes.c_size_t]
    lib.tileParsePtxOpcode.restype = ctypes.c_int
    lib.tileOutOfRangeOpcodeRank.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int64)]
    lib.tileOutOfRangeOpcodeRank.restype = ctypes.c_int
    lib.tilePrintPtxOpcode.argtypes = [
        ctypes.POINTER(ctypes.c_int), ctypes.c_char_p, ctypes.c_size_t]
    lib.tilePrintPtxOpcode.restype = ctypes.c_int64
    for name in ("tileTransactionBytes", "tileSlotCount"):
        fn = getattr(lib, name)
        fn.argtypes = [ctypes.c_void_p]
        fn.restype = ctypes.c_int64
    lib.tileTensorMapSpecToJSON.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
        ctypes.POINTER(ctypes.c_size_t)]
    lib.tileTensorMapSpecToJSON.restype = ctypes.c_int
    lib.tileTensorMapSpecFromJSON.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t,
        ctypes.POINTER(ctypes.c_size_t)]
    lib.tileTensorMapSpecFromJSON.restype = ctypes.c_int
    lib.tileRegisterPasses()
    return lib


_get_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_capsule_pointer.restype = ctypes.c_void_p
_get_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _capi_pointer(obj, kind: str) -> int:
    capsule = obj._CAPIPtr
    return _get_capsule_pointer(capsule, f"mlir.ir.{kind}._CAPIPtr".encode())


def register_dialect(context: ir.Context) -> None:
    """Registers and loads the `tile` dialect in `context`."""
    _lib().tileRegisterDialect(_capi_pointer(context, "Context"))


def parse_ptx_opcode(opcode: str) -> tuple[int, ...] | str:
    """The opcode's fields (see TileCAPI.cpp), or the error message."""
    out = (ctypes.c_int * 8)()
    err = ctypes.create_string_buffer(512)
    if _lib().tileParsePtxOpcode(opcode.encode(), out, err, len(err)):
        return tuple(out)
    return err.value.decode()


def out_of_range_opcode_rank(opcode: str) -> int | None:
    """The rank of a spelling well formed but for its `.Nd` (the verifier's
    [rank-range] case), else None."""
    rank = ctypes.c_int64()
    if _lib().tileOutOfRangeOpcodeRank(opcode.encode(), ctypes.byref(rank)):
        return rank.value
    return None


def print_ptx_opcode(fields) -> str:
    """The C++ printer's PTX spelling of opcode fields in parse_ptx_opcode's
    layout (8 ints); ValueError for fields out of range."""
    values = (ctypes.c_int * 8)(*fields)
    out = ctypes.create_string_buffer(256)
    length = _lib().tilePrintPtxOpcode(values, out, len(out))
    if length < 0 or length >= len(out):
        raise ValueError(f"no PTX opcode has the fields {tuple(fields)}")
    return out.value.decode()


def transaction_bytes(op: ir.Operation) -> int:
    return _lib().tileTransactionBytes(_capi_pointer(op, "Operation"))


def slot_count(op: ir.Operation) -> int:
    return _lib().tileSlotCount(_capi_pointer(op, "Operation"))


def _text_call(fn, *args) -> tuple[int, str]:
    """Calls a C entry point that writes text (see TileCAPI.cpp copyText),
    growing the buffer until the text fits."""
    size = 4096
    while True:
        out = ctypes.create_string_buffer(size)
        length = ctypes.c_size_t()
        status = fn(*args, out, size, ctypes.byref(length))
        if length.value < size:
            return status, out.value.decode()
        size = length.value + 1


def tensor_map_spec_json(attr: ir.Attribute) -> str:
    """The manifest entry (JSON text) of a #tile.tensor_map_spec, written by
    the one C++ serializer (tensorMapSpecToJSON)."""
    status, text = _text_call(_lib().tileTensorMapSpecToJSON,
                              _capi_pointer(attr, "Attribute"))
    if not status:
        raise TypeError(f"not a #tile.tensor_map_spec: {attr}")
    return text


def tensor_map_spec_attr(context: ir.Context, json_text: str) -> ir.Attribute:
    """The #tile.tensor_map_spec of a manifest entry (JSON text), verified."""
    status, text = _text_call(_lib().tileTensorMapSpecFromJSON,
                              _capi_pointer(context, "Context"),
                              json_text.encode())
    if not status:
        raise ValueError(text)
    return ir.Attribute.parse(text, context)
