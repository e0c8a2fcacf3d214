"""Cheap identities of launch arguments, for the call path's cache.

A key holds everything the launcher's checks and the encoded tensor maps
depend on: the address (which, in CUDA's unified address space, also names
the device), the shape, the strides and the dtype (for a scalar: only that
it is a number; its value is checked and packed on every call). Two arguments with equal keys pass or fail the same checks and
encode the same maps, so a cached validated launch is reused for them.

`None` means "no key": numpy arrays (copied per call) and arrays known only
through __dlpack__ (reading one is the full check) take the full path."""

from __future__ import annotations

import numbers

import numpy as np

SCALAR = "scalar"


def _torch_key(t):
    # The address names the device too (one unified address space).
    return (t.data_ptr(), t.shape, t.stride(), t.dtype)


def _cupy_key(a):
    return (a.data.ptr, a.shape, a.strides, a.dtype, a.device.id)


def _interface_key(a):
    info = a.__cuda_array_interface__
    return (info["data"][0], tuple(info["shape"]), info.get("strides"),
            info["typestr"])


def _scalar_key(_):
    return SCALAR


def _no_key(_):
    return None


def _keyer(kind: type):
    module = kind.__module__
    if issubclass(kind, (bool, np.bool_)):
        return _no_key  # rejected by the full path's scalar check
    if issubclass(kind, (numbers.Number, np.generic)):
        return _scalar_key
    if issubclass(kind, np.ndarray):
        return _no_key
    if module.startswith("torch") and hasattr(kind, "data_ptr"):
        return _torch_key
    if module.startswith("cupy") and hasattr(kind, "data"):
        return _cupy_key
    if hasattr(kind, "__cuda_array_interface__"):
        return _interface_key
    return _no_key


_KEYERS: dict = {}


def args_key(args) -> tuple | None:
    """The cache key of a launch's arguments, or None for the full path."""
    try:
        keys = tuple([_KEYERS[type(a)](a) for a in args])
    except KeyError:  # a type seen for the first time
        for a in args:
            if type(a) not in _KEYERS:
                _KEYERS[type(a)] = _keyer(type(a))
        keys = tuple([_KEYERS[type(a)](a) for a in args])
    return None if None in keys else keys


__all__ = ["args_key", "SCALAR"]
