"""Prepared calls: a repeated layout call in a few microseconds.

A call's plan, kernel, tensor maps, scalars and launch shape depend only
on the input's shape, strides, dtype, device and base alignment and on
the op's arguments; only the addresses change from call to call. The first
call with such a key runs the planned path (plan, kernel from the compile
cache, the runtime's checks and encoding) while `call.recording()` notes
each launch and tile counter, and keeps a `Prepared`: the result's layout
and each launch made relocatable (runtime/relocate.py: its own copy of the
parameters, pointer slots and tensor maps rewritten per call from the
input's, the result's and the counter's addresses). A repeated call then
allocates the result, takes the current stream and launches, one C call a
launch.

A call is prepared only where nothing else touched the data: every array
a launch took is a view of the input's or the result's memory, or a tile
counter, and the result is a whole fresh allocation. A call that copied
its input first (an input whose base is not 16-byte aligned, strides the
kernels cannot read, a lazy conjugate) takes the planned path every time,
as do tensors that need a gradient, other array types and tensor
subclasses.
"""

from __future__ import annotations

import struct

from ...runtime.driver import relaunch_on
from ...runtime.errors import CudaError
from ...runtime.relocate import relocatable
from .call import as_tensor, recording, stream_counter, torch_module

# At most this many keys are kept (the oldest dropped first).
MAX_ENTRIES = 4096

# Bases of a relocated launch: the input, the result, the tile counter.
INPUT, RESULT, COUNTER = 0, 1, 2

_entries: dict = {}
_UNPREPARED = "unprepared"   # a key whose calls take the planned path
_state: dict = {}            # torch's tensor type, stream accessor, forward AD
_DOUBLE = struct.Struct("<d").pack   # a float's 8 bytes: sign and NaN payload kept


class _NoKey(Exception):
    """An argument with no exact key (the planned path takes it)."""


def _arg_key(value):
    """A key equal only for arguments the op treats the same: ints, floats
    by their 64 bits (0.0 and -0.0 apart, NaN and -NaN apart: float8 pads
    fill NaN with its sign), strings, None, and tuples or lists of ints; a
    bool never equals an int."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return value
    if kind is float:
        return ("f", _DOUBLE(value))
    if kind is bool:
        return ("b", value)
    if kind is tuple or kind is list:
        for item in value:
            if type(item) is not int:
                raise _NoKey
        return tuple(value)
    raise _NoKey


def _key(op: str, x, args: tuple) -> tuple:
    """The call's key (the module docstring); _NoKey for an argument
    without one."""
    return (op, x.shape, x.stride(), x.dtype, x.get_device(), x.data_ptr() & 15,
            x.is_conj(), x.is_neg(), *map(_arg_key, args))


def _setup() -> dict:
    torch = torch_module()
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    _state.update(tensor=torch.Tensor, torch=torch,
                  stream=raw or (lambda i: torch.cuda.current_stream(i).cuda_stream),
                  forward_ad=torch.autograd.forward_ad,
                  grad_enabled=torch.is_grad_enabled)
    return _state


def call(op: str, x, args: tuple, planned):
    """op(x, *args) through the prepared calls: the result, or None where
    this path does not take the call (the caller then runs its own path).
    `planned(x, *args)` is the op's planned path on a CUDA torch tensor
    without gradient, run (and recorded) on a key's first call."""
    state = _state or _setup()
    if type(x) is not state["tensor"] or x.requires_grad and state["grad_enabled"]() or \
            state["forward_ad"]._current_level >= 0:
        return None
    try:
        key = _key(op, x, args)
    except (_NoKey, RuntimeError):   # RuntimeError: a sparse tensor has no strides
        return None
    entry = _entries.get(key)
    if entry is None:
        if key[4] < 0:   # not a CUDA tensor: the planned path names the rule
            return None
        return _first_call(key, x, args, planned)
    if entry is _UNPREPARED:
        return None
    return entry.run(x, state)


def call_or_plan(op: str, t, args: tuple, planned):
    """op(t, *args) on a CUDA torch tensor without gradient: through the
    prepared calls where they take it, else the planned path."""
    out = call(op, t, args, planned)
    return planned(t, *args) if out is None else out


def repeated(op: str, planned):
    """`planned` through the prepared calls (call_or_plan), as a function of
    (t, *args): the op's form for its torch custom op (grad.register)."""
    return lambda t, *args: call_or_plan(op, t, args, planned)


def _first_call(key, x, args, planned):
    t, _ = as_tensor(x)   # the op's checks of the array, by rule
    if t is not x:        # resolved first (a lazy conjugate): never prepared
        return planned(t, *args)
    cuda = _state["torch"].cuda
    if cuda.is_available() and cuda.is_current_stream_capturing():
        # Recorded inside a capture, the launches would keep tensors of the
        # graph's memory pool alive (a tile counter the graph zeroes), which
        # cudagraph trees (torch.compile's reduce-overhead) reject; the key
        # is prepared by its first call outside a capture.
        return planned(x, *args)
    with recording() as rec:
        result = planned(x, *args)
    entry = _prepare(x, result, rec)
    if len(_entries) >= MAX_ENTRIES:
        try:
            _entries.pop(next(iter(_entries), None), None)
        except RuntimeError:   # another thread's insert meanwhile: drop none this time
            pass
    _entries[key] = entry if entry is not None else _UNPREPARED
    return result


def _storage(t) -> int:
    return t.untyped_storage().data_ptr()


def _whole(result) -> bool:
    """Whether result is a whole allocation: offset 0, its storage exactly
    the bytes its shape and strides reach (so empty_strided remakes it)."""
    if result.storage_offset() != 0:
        return False
    reach = 0 if result.numel() == 0 else \
        1 + sum((d - 1) * s for d, s in zip(result.shape, result.stride()))
    return result.untyped_storage().nbytes() == reach * result.element_size()


def _prepare(x, result, rec):
    """The Prepared of a recorded first call, or None where it cannot be
    replayed (see the module docstring)."""
    torch = _state["torch"]
    if not isinstance(result, torch.Tensor) or type(result) is not torch.Tensor or \
            not _whole(result) or result.dtype != x.dtype or result.device != x.device:
        return None
    input_storage, result_storage = _storage(x), _storage(result)
    if result.numel() and (result_storage == input_storage or not rec.launches):
        return None   # the input's memory, or written by no recorded launch
    launches = []
    counted = False
    for bound, args in rec.launches:
        sources = {}
        for i, a in enumerate(args):
            if not isinstance(a, torch.Tensor):
                continue
            if any(a is c for c in rec.counters):
                sources[i] = (COUNTER, 0)
                counted = True
            elif _storage(a) == input_storage and _storage(a) != result_storage:
                sources[i] = (INPUT, a.data_ptr() - x.data_ptr())
            elif _storage(a) == result_storage:
                sources[i] = (RESULT, a.data_ptr() - result.data_ptr())
            else:
                return None   # a copy the planned path made
        relocation = relocatable(bound, sources)
        if relocation is None:
            return None
        launches.append(relocation.call)
    return Prepared(tuple(result.shape), result.stride(), x.device, tuple(launches),
                    counted)


class Prepared:
    """A key's replayable call: the result's layout and its launches."""

    __slots__ = ("shape", "strides", "device", "index", "launches", "counted")

    def __init__(self, shape, strides, device, launches, counted: bool):
        self.shape, self.strides, self.device = shape, strides, device
        self.index = device.index or 0
        self.launches, self.counted = launches, counted

    def run(self, x, state):
        out = x.new_empty_strided(self.shape, self.strides)
        if not self.launches:
            return out
        stream = state["stream"](self.index)
        ctr = stream_counter(self.index, stream, self.device) if self.counted else None
        bases = (x.data_ptr(), out.data_ptr(), 0 if ctr is None else ctr.data_ptr())
        for launch in self.launches:
            status = launch(stream, *bases)
            if status:
                self._failed(status, launch, stream, bases)
        return out

    def _failed(self, status, launch, stream, bases) -> None:
        """Another context current (the launch is made under the device's),
        or the driver's error."""
        status = relaunch_on(self.index, status, lambda: launch(stream, *bases))
        if status:
            raise CudaError("cuLaunchKernel", status)


def state(op: str, x, args: tuple) -> str | None:
    """How a repeated call op(x, *args) runs: "prepared" (replayed),
    "planned" (planned every time), or None (not called yet, or not a key
    of this path)."""
    try:
        key = _key(op, x, args)
    except (_NoKey, RuntimeError):
        return None
    entry = _entries.get(key)
    return None if entry is None else "planned" if entry is _UNPREPARED else "prepared"


def clear() -> None:
    """Forgets every prepared call (the next call of each key plans again)."""
    _entries.clear()


__all__ = ["MAX_ENTRIES", "Prepared", "call", "call_or_plan", "clear", "repeated", "state"]
