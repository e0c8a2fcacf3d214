"""Device workspace for launches that build tensor maps on the device
(docs/device-tensor-maps.md, "The runtime's workspace").

A kernel that derives its maps (tile.tensormap_derive) writes each one into
128 bytes of global memory and reads small tables the host fills per
launch. `Workspace` owns that memory: one device allocation per set, cut
into named sections that each start on a 256-byte boundary (so every map
slot, 128 bytes, is 128-byte aligned, as the copy engine and
tensormap.replace need), and a pinned host buffer the tables are written to
and copied from asynchronously on the launch's stream.

Sets form a ring per stream: the host fills set k while the launches that
used sets k-1, k-2, ... may still run. Before a set is filled again, the
event recorded after its last launch is waited on, so neither its tables
nor its map slots change under a running kernel. A set grows (reallocates)
when a launch needs more than it holds; sections never move between a
fill and the launch that reads it. One set serves one launch at a time.

Needs only numpy and cuda-python.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from .driver import check, cuda, on_device

ALIGNMENT = 256  # bytes; map slots need 128 (TENSOR_MAP_ALIGN)


def _round_up(n: int, m: int) -> int:
    return -(-n // m) * m


@dataclass(frozen=True)
class DeviceArray:
    """A typed window of device memory, exposed to the launcher through the
    CUDA array interface (contiguous, C order)."""
    ptr: int
    shape: tuple
    typestr: str

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self.shape, "typestr": self.typestr,
                "data": (self.ptr, False), "strides": None, "version": 3}


class WorkspaceSet:
    """One device allocation with named sections, a pinned host image of the
    sections the host fills, and the event of its last launch. Its calls
    run with its device's context current (the caller's `on_device`, once
    per launch), except the frees, which may run from the collector."""

    def __init__(self, ordinal: int = 0):
        self.ordinal = ordinal    # the CUDA device it is allocated on
        self.capacity = 0
        self.device = 0           # the device address
        self.host = 0
        self.sections: dict = {}  # name -> bytes reserved
        self.offsets: dict = {}
        self.event = None
        self.generation = 0       # bumped whenever the memory moves

    def reserve(self, sizes: dict) -> None:
        """Sections of at least `sizes` bytes (name -> bytes, in order). The
        layout stays put while every section fits; a section that outgrows
        it reallocates the set (doubling), which bumps `generation`."""
        need = {name: _round_up(max(int(n), 1), ALIGNMENT) for name, n in sizes.items()}
        fits = list(need) == list(self.sections) and all(
            need[name] <= self.sections[name] for name in need)
        if not fits:
            drv = cuda()
            self.release()
            self.sections = {name: max(n, 2 * self.sections.get(name, 0))
                             for name, n in need.items()}
            at = 0
            for name, n in self.sections.items():
                self.offsets[name] = at
                at += n
            self.capacity = at
            self.device = int(check(drv.cuMemAlloc(at), "cuMemAlloc"))
            check(drv.cuMemsetD8(self.device, 0, at), "cuMemsetD8")
            self.host = int(check(drv.cuMemHostAlloc(at, 0), "cuMemHostAlloc"))
            self.generation += 1
        if self.event is None:
            flags = int(cuda().CUevent_flags.CU_EVENT_DISABLE_TIMING)
            self.event = check(cuda().cuEventCreate(flags), "cuEventCreate")

    def array(self, name: str, shape: tuple, typestr: str) -> DeviceArray:
        return DeviceArray(self.device + self.offsets[name], tuple(shape), typestr)

    def wait(self) -> None:
        """Until the last launch recorded on this set has finished."""
        if self.event is not None:
            check(cuda().cuEventSynchronize(self.event), "cuEventSynchronize")

    def upload(self, name: str, data: np.ndarray, stream: int) -> None:
        """Copies `data` into section `name` on `stream`, through the pinned
        image (the caller waited for the set first)."""
        data = np.ascontiguousarray(data)
        offset = self.offsets[name]
        assert data.nbytes <= self.sections[name], "section overflow"
        ctypes.memmove(self.host + offset, data.ctypes.data, data.nbytes)
        check(cuda().cuMemcpyHtoDAsync(self.device + offset, self.host + offset,
                                       data.nbytes, stream), "cuMemcpyHtoDAsync")

    def record(self, stream: int) -> None:
        check(cuda().cuEventRecord(self.event, stream), "cuEventRecord")

    def release(self) -> None:
        if self.capacity:
            with on_device(self.ordinal):
                self.wait()
                drv = cuda()
                drv.cuMemFree(self.device)
                drv.cuMemFreeHost(self.host)
            self.capacity = self.device = self.host = 0

    def __del__(self):
        try:
            self.release()
            if self.event is not None:
                with on_device(self.ordinal):
                    cuda().cuEventDestroy(self.event)
        except Exception:
            pass


class Workspace:
    """A ring of `depth` WorkspaceSets per stream (on device `ordinal`;
    acquire under its context, as WorkspaceSet's calls)."""

    def __init__(self, depth: int = 4, ordinal: int = 0):
        self.ordinal = ordinal
        self.depth = depth
        self._rings: dict = {}

    def acquire(self, stream: int, sizes: dict) -> WorkspaceSet:
        """The next set of `stream`'s ring, its last launch finished, with
        sections of at least `sizes` bytes."""
        ring, turn = self._rings.setdefault(stream, ([WorkspaceSet(self.ordinal) for _ in
                                                      range(self.depth)], [0]))
        ws = ring[turn[0] % self.depth]
        turn[0] += 1
        ws.wait()
        ws.reserve(sizes)
        return ws


__all__ = ["ALIGNMENT", "DeviceArray", "Workspace", "WorkspaceSet"]
