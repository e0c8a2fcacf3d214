"""The parameter check every library kernel builder runs first.

A builder's parameters are plain Python values (they also key the compile
cache), so one decorator checks them against the builder's own signature:
the annotation says the kind, the name says the range. What only the
builder can judge (a shape that is not a whole number of boxes, an unknown
order) it raises as a ValueError; the decorator names it [kernel-params]
with the builder's name, so no bad parameter escapes as a bare error.
"""

from __future__ import annotations

import functools
import inspect

from ... import contract
from ...errors import TileError, TileUsageError

# Ints that may be 0; every other int parameter counts or measures something.
_FROM_ZERO = {"swizzle", "l2_promotion", "ids_offset"}
_INT_MAX = 2**31 - 1
# Untyped parameters holding a pair of extents.
_PAIRS = {"box", "tile"}


def _fail(fn, message: str) -> TileUsageError:
    return TileUsageError("kernel-params", f"{fn.__name__}: {message}")


def _check_int(fn, name: str, value) -> None:
    low = 0 if name in _FROM_ZERO else 1
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(fn, f"{name} = {value!r}: expected an int")
    if not low <= value <= _INT_MAX:
        raise _fail(fn, f"{name} = {value} is outside {low}..{_INT_MAX}")


def _check_pair(fn, name: str, value) -> None:
    if value is None and name == "box":  # the builder's default
        return
    if (not isinstance(value, (tuple, list)) or len(value) != 2 or
            any(not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= _INT_MAX
                for v in value)):
        raise _fail(fn, f"{name} = {value!r}: expected two positive ints")


def _check(fn, name: str, annotation, value) -> None:
    if name == "dtype":
        if not isinstance(value, str) or value not in contract.DTYPES:
            raise TileUsageError("dtype-name", f"{fn.__name__}: dtype {value!r} is not a "
                                 "name of tile_mlir.contract.DTYPES")
    elif name in _PAIRS:
        _check_pair(fn, name, value)
    elif annotation in (int, "int"):
        _check_int(fn, name, value)
    elif annotation in (bool, "bool") and not isinstance(value, bool):
        raise _fail(fn, f"{name} = {value!r}: expected a bool")
    elif annotation in (str, "str") and not isinstance(value, str):
        raise _fail(fn, f"{name} = {value!r}: expected a str")


def checked_params(fn):
    """Decorates a library kernel builder: its arguments are checked against
    its signature before it runs, and a ValueError it raises for a value it
    cannot build becomes [kernel-params] naming the builder."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as err:
            raise _fail(fn, str(err)) from None
        bound.apply_defaults()
        for name, value in bound.arguments.items():
            _check(fn, name, signature.parameters[name].annotation, value)
        try:
            return fn(*bound.args, **bound.kwargs)
        except TileError as err:
            if err.rule == "kernel-params":  # from a builder it calls: name both
                raise _fail(fn, err.message) from None
            raise
        except ValueError as err:
            raise _fail(fn, str(err)) from None
    return wrapper
