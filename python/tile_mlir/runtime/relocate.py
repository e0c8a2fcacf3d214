"""Launches whose arrays move: a bound launch replayed at new addresses.

A call that allocates its output every time (the layout ops) has the same
shapes, strides, scalars and launch shape on every call with the same
arguments, only other addresses. `relocatable` turns one checked,
encoded launch (a BoundLaunch) into such a launch: it copies the packed
parameters into storage of its own and records, for each array argument,
which base address of the call it sits at and at what byte offset. Each
call then rewrites the pointer slots and the tensor maps' global addresses
(cuTensorMapReplaceAddress: the rest of the map, already checked and
encoded, stays) and launches, in one C call (`_launch.Relocated`).

The caller vouches for what the addresses may be: the same alignment
modulo 16 bytes as the recorded ones and the same extents (the
runtime's checks ran once, on the recorded call).
"""

from __future__ import annotations

import ctypes

from .launch import _launch

# CUtensorMap is 64-byte aligned (its declared alignment); every copy here is.
_ALIGN = 64


class Relocation:
    """The callable relocated launch and what it keeps alive."""

    __slots__ = ("call", "device", "_storage")

    def __init__(self, call, device: int, storage):
        self.call, self.device, self._storage = call, device, storage


def available() -> bool:
    """Whether relocated launches can be made (the C extension loaded)."""
    return _launch is not None and hasattr(_launch, "Relocated")


def relocatable(launch, sources: dict) -> Relocation | None:
    """A Relocation of `launch` (a BoundLaunch without a cluster, its
    scalars packed). `sources` maps every array argument's index to
    (base number, byte offset): a call passes the stream and the bases,
    and argument i sits at bases[base] + offset. None where relocation is
    unavailable (no C extension) or the launch is not relocatable (a
    cluster launch, a host array, a debug artifact)."""
    if not available() or launch.direct is None or launch.must_sync:
        return None
    params = launch.params
    arrays = set(params.pointer_slots) | set(params.map_slots)
    if arrays - set(sources):
        missing = sorted(arrays - set(sources))
        raise ValueError(f"relocatable: no source for array argument(s) {missing}")
    offsets, total = [], 0
    for size in params.sizes:
        offsets.append(total)
        total += -(-size // _ALIGN) * _ALIGN
    storage = ctypes.create_string_buffer(total + _ALIGN)
    start = -(-ctypes.addressof(storage) // _ALIGN) * _ALIGN
    for address, offset, size in zip(params.pointers, offsets, params.sizes):
        ctypes.memmove(start + offset, address, size)
    array = (ctypes.c_void_p * len(offsets))(*[start + o for o in offsets])
    patches = []
    for index, (base, offset) in sources.items():
        for slot in params.pointer_slots.get(index, ()):
            patches.append(("p", start + offsets[slot], base, offset))
        for slot in params.map_slots.get(index, ()):
            patches.append(("m", start + offsets[slot], base, offset))
    kernel = launch.kernel
    call = _launch.Relocated(int(kernel.function), launch.grid, launch.block,
                             kernel.dynamic_shared, ctypes.addressof(array),
                             (storage, array), patches, launch.launcher.context)
    return Relocation(call, launch.device, (storage, array))


__all__ = ["Relocation", "available", "relocatable"]
