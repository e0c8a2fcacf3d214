"""Which CUDA stream a launch goes on.

`stream=` names one explicitly (torch.cuda.Stream, cupy Stream, a
cuda-python CUstream, an object with the `__cuda_stream__` protocol, or an
int handle). Without it, a launch goes on the current stream of the library
its device arrays come from (torch first, then cupy), so it is ordered with
the user's other work on that stream, graph capture included; with neither,
the legacy default stream (0)."""

from __future__ import annotations

import functools
import sys

from .errors import TileRuntimeError


def stream_handle(stream) -> int:
    """The CUstream handle (an int) of an explicit `stream=` value."""
    if isinstance(stream, int) and not isinstance(stream, bool):
        if stream < 0:
            raise TileRuntimeError("stream-type", f"stream={stream}: a handle is "
                                   "a non-negative int")
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:  # (version, handle), cuda.core and others
        return int(protocol()[1])
    module = type(stream).__module__
    if module.startswith("torch"):
        handle = getattr(stream, "cuda_stream", None)
        if handle is not None:
            return int(handle)
    if module.startswith("cupy"):
        handle = getattr(stream, "ptr", None)
        if handle is not None:
            return int(handle)
    if type(stream).__name__ == "CUstream":  # cuda-python
        return int(stream)
    raise TileRuntimeError("stream-type", f"stream={stream!r}: expected a "
                           "torch.cuda.Stream, a cupy Stream, a CUstream, an object "
                           "with __cuda_stream__, or an int handle")


def current_stream(libraries: frozenset, device: int = 0) -> int:
    """The current stream of the arrays' library: torch's, else cupy's,
    else 0. `libraries` holds the top-level module names of the arguments."""
    if "torch" in libraries:
        torch = sys.modules["torch"]
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:  # the cheap accessor Triton's launcher uses too
            return int(raw(device))
        return int(torch.cuda.current_stream(device).cuda_stream)
    if "cupy" in libraries:
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):   # cupy's current stream is per device
            return int(cupy.cuda.get_current_stream().ptr)
    return 0


def stream_getter(libraries: frozenset, device: int = 0):
    """A function returning current_stream(libraries) (bound once, so a
    cached launch pays only the library's own call)."""
    if "torch" in libraries:
        raw = getattr(sys.modules["torch"]._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:
            return functools.partial(raw, device)
    if "torch" in libraries or "cupy" in libraries:
        return lambda: current_stream(libraries, device)
    return lambda: 0


__all__ = ["stream_handle", "current_stream", "stream_getter"]
