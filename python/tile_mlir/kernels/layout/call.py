"""Calling the layout kernels on device arrays: torch tensors, and any
array that exports DLPack (cupy, jax, ...) or the CUDA array interface
(numba), which is wrapped as a torch tensor without a copy and handed back
in its own library's type.

Kernels come from the compile cache (`tile_mlir.cache.load_kernel`: one
compile per recipe, a folder carried to machines without MLIR) and run on
the current torch stream without synchronizing. Kernels that claim tiles at
run time share one tile counter per (device, stream): launches on one
stream run one after the other, and each leaves the counter at zero.
"""

from __future__ import annotations

import contextlib
import importlib
import threading

from ...cache import load_kernel
from ...errors import TileUsageError
from ...runtime.arrays import DeviceBuffer
from .limits import ELEM_DTYPES, SHARED_ALIGN, STAGE_ALIGN, STRIDE_ALIGN
from .plan.common import check_elem

# The benchmark variants of the kernels whose threads only read their stages
# (build_pad_rows, build_unfold_nchw): where the stage's proxy fence goes
# (builders.pipeline.all_thread_pipeline's `fence`), by variant name.
READER_FENCES = {"issuer": "issuer fence", "none": "no fence"}

# The most CTAs a persistent layout kernel is built for (the H200's SMs); a
# launch runs min(this, the device's SM count).
PERSISTENT_GRID = 132

_counters: dict = {}
_sm_counts: dict = {}


# Shared memory an H200 SM gives its CTAs (228 KB, 1 KB of it reserved per CTA).
SM_SHARED_BYTES = 233472
CTA_RESERVED_BYTES = 1024


def rows_stage_bytes(rows_in: int, wbox: int, nb: int, elem: int) -> int:
    """Shared bytes of one stage of a rows kernel: nb boxes of rows_in x wbox
    elements, each 128-byte aligned, the stage rounded to 1024 bytes."""
    box = -(-rows_in * wbox * elem // SHARED_ALIGN) * SHARED_ALIGN
    return -(-nb * box // STAGE_ALIGN) * STAGE_ALIGN


# Each stage's mbarrier (8 bytes) and tile id (4) after the stages
# (builders.pipeline.Stages).
STAGE_BOOKKEEPING_BYTES = 12


def ctas_fit(ctas: int, stages: int, stage_bytes: int, extra: int = 0) -> bool:
    """Whether `ctas` CTAs of `stages` stages (and `extra` bytes each after
    them) fit in one SM's shared memory."""
    per_cta = stages * (stage_bytes + STAGE_BOOKKEEPING_BYTES) + extra + CTA_RESERVED_BYTES
    return ctas * per_cta <= SM_SHARED_BYTES


# The pad rows kernel's flat form (builders.pad.build_pad_rows' `flat`): its
# launch where it is the plan's kernel, and what it needs of the geometry.
FLAT_LAUNCH = {"flat": True, "threads": 256, "grid": 2 * PERSISTENT_GRID}


def flat_slot_bytes(rows: int) -> int:
    """Shared bytes of the flat form's slots after the stages: one 16-byte
    slot a tile row, the first 16-byte aligned (up to 12 bytes skipped)."""
    return 16 * rows + 16


def flat_boxes_fit(wbox: int, elem: int) -> bool:
    """Whether the flat form's read of row r + 1's first columns (through
    the box-0 chunk before its start, up to column 2V - 1) stays in box 0."""
    return wbox >= 2 * (16 // elem)


def flat_row_conditions(out_w, wbox: int, nb: int, elem: int) -> list:
    """The flat form's conditions on the output row's length out_w (an int
    or a kernel value): at least a vector, and no longer than a tile's
    columns (nb wbox - V), so that a tile spans whole rows."""
    vec = 16 // elem
    return [out_w >= vec, out_w <= nb * wbox - vec]


def rows_launch(rows_in: int, wbox: int, nb: int, elem: int, stages: int) -> dict:
    """Threads and grid of a rows kernel (the pad's row form, NCHW unfold):
    three CTAs of 256 threads an SM where their stages fit (the H200 run:
    pad 3.59 TB/s against 3.15 with two CTAs of 512, unfold 1.74 against
    1.72), else two of 512. The pad's flat form launches as FLAT_LAUNCH."""
    if ctas_fit(3, stages, rows_stage_bytes(rows_in, wbox, nb, elem)):
        return {"threads": 256, "grid": 3 * PERSISTENT_GRID}
    return {"threads": 512, "grid": 2 * PERSISTENT_GRID}


def torch_module():
    try:
        import torch  # optional dependency: imported where an op is called
    except ImportError:  # pragma: no cover - torch is how the ops take arrays
        raise TileUsageError("layout-array", "the layout ops take torch tensors "
                             "or DLPack arrays through torch: pip install torch") from None
    return torch


def as_tensor(x, what: str = "x"):
    """(torch CUDA tensor viewing x, a function returning a torch result in
    x's own array type)."""
    torch = torch_module()
    if isinstance(x, torch.Tensor):
        tensor, back = x, (lambda t: t)
    elif hasattr(x, "__dlpack__") or hasattr(x, "__cuda_array_interface__"):
        # DLPack (cupy, jax, ...), or only the CUDA array interface (numba's
        # device arrays, older cupy): torch reads either without a copy, on
        # the device the memory lives on.
        dlpack = hasattr(x, "__dlpack__")
        protocol = "DLPack" if dlpack else "the CUDA array interface"
        try:
            tensor = torch.from_dlpack(x) if dlpack else torch.as_tensor(x)
        except Exception as err:
            raise TileUsageError("layout-array", f"{what}: its {protocol} export "
                                 f"cannot be read by torch ({err})") from None
        back = _converter(type(x).__module__.split(".")[0])
        if back is None:
            raise TileUsageError("layout-array", f"{what}: {type(x).__module__}."
                                 f"{type(x).__name__} exports {protocol}, but no way "
                                 "back to its type is known (torch, cupy, jax, numba, "
                                 "or a library with from_dlpack)")
    else:
        raise TileUsageError("layout-array", f"{what}: expected a torch tensor or an "
                             "array that exports DLPack or the CUDA array interface, "
                             f"got {type(x).__name__}")
    if tensor.layout != torch.strided:
        raise TileUsageError("layout-array", f"{what} is a {tensor.layout} tensor; the "
                             "layout ops read strided (dense) tensors")
    if not tensor.is_cuda:
        raise TileUsageError("layout-array", f"{what} lives on {tensor.device}; the "
                             "layout ops run on a CUDA device")
    check_elem(tensor.element_size(), f"{what} ({tensor.dtype})")
    if tensor.is_conj() or tensor.is_neg():
        # torch's lazy conjugate and negative views: memory holds the
        # unconjugated, unnegated values, so the kernels read resolved ones.
        tensor = tensor.resolve_conj().resolve_neg()
    return tensor, back


def _converter(top: str):
    """The function that turns a torch tensor into the array type of the
    library whose top-level module is `top` (jax arrays live in jaxlib)."""
    if top in ("jax", "jaxlib"):
        import jax.dlpack  # optional dependency: jax arrays only
        return jax.dlpack.from_dlpack
    if top == "numba":
        from numba import cuda as numba_cuda  # optional dependency: numba arrays only
        return numba_cuda.as_cuda_array   # numba reads __cuda_array_interface__
    try:
        module = importlib.import_module(top)
    except ImportError:   # a type whose module cannot be imported by its name
        return None
    return getattr(module, "from_dlpack", None)


def aligned(t):
    """t, or a contiguous copy where its first element is not 16-byte aligned
    (a tensor map's base must be: the runtime's global-base-alignment)."""
    return t if t.data_ptr() % STRIDE_ALIGN == 0 else t.clone(memory_format=torch_module()
                                                    .contiguous_format)


def vector_grid(out, params: dict) -> int:
    """The grid of a vector kernel (pad_vectors, permute_vectors): its tiles
    of threads * slots 16-byte vectors over the contiguous output `out`."""
    vectors = out.numel() * out.element_size() // STRIDE_ALIGN
    return max(1, -(-vectors // (params["threads"] * params["slots"])))


def bits_view(t):
    """`t` reinterpreted as the signless integer type of its element size."""
    torch = torch_module()
    dtype = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[
        t.element_size()]
    return t if t.dtype == dtype else t.view(dtype)


def sm_count(device) -> int:
    index = device.index or 0
    if index not in _sm_counts:
        torch = torch_module()
        _sm_counts[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return _sm_counts[index]


def persistent_grid(device, built: int = PERSISTENT_GRID) -> int:
    """CTAs of a persistent launch: a kernel built for `built` CTAs (a
    multiple of PERSISTENT_GRID: that many CTAs per SM) runs as many per SM
    of this device, never more than it was built for."""
    per_sm = max(1, built // PERSISTENT_GRID)
    return min(built, per_sm * sm_count(device))


def counter(device):
    """The (2,) int32 tile counter of the current stream on `device` (zero
    before a launch; the kernel's last CTA resets it). While the stream is
    captured into a CUDA graph, a new counter that the graph zeroes itself
    (a counter made there would be zeroed only when the graph replays, so
    it is not kept for later launches)."""
    torch = torch_module()
    stream = torch.cuda.current_stream(device)
    key = (device.index or 0, stream.cuda_stream)
    ctr = _counters.get(key)
    if ctr is None:
        if torch.cuda.is_current_stream_capturing():
            ctr = torch.zeros(2, dtype=torch.int32, device=device)
        else:
            ctr = _lasting_counter(torch, device)
            _counters[key] = ctr
    rec = getattr(_recording, "active", None)
    if rec is not None:
        rec.counters.append(ctr)
    return ctr


class _CounterMemory:
    """Two int32 of cuMemAlloc'd memory, seen by torch through the CUDA
    array interface (the tensor keeps this object, so the memory, alive)."""

    def __init__(self, index: int):
        self.buffer = DeviceBuffer(8, index)
        self.__cuda_array_interface__ = {"shape": (2,), "typestr": "<i4",
                                         "data": (self.buffer.ptr, False), "version": 3}


def _lasting_counter(torch, device):
    """A kept counter, allocated outside torch's allocator: torch.compile's
    CUDA graphs (reduce-overhead) run their warm-up calls with allocations
    routed to the graph's private pool, and a tensor of that pool that
    outlives the call is rejected when the graph is recorded."""
    ctr = torch.as_tensor(_CounterMemory(device.index or 0), device=device)
    ctr.zero_()
    return ctr


def stream_counter(index: int, stream: int, device):
    """counter() for the current stream, whose handle is `stream`, of device
    `index` (the prepared calls' lookup: no stream object made)."""
    ctr = _counters.get((index, stream))
    return ctr if ctr is not None else counter(device)


class Recording:
    """What one op call launched (`recording()`): (bound launch, args) of
    each launch, and the tile counters it was given."""

    def __init__(self):
        self.launches, self.counters = [], []


_recording = threading.local()


@contextlib.contextmanager
def recording():
    """Records the launches and counters of the calls made inside (this
    thread's), for kernels.layout.prepared."""
    previous = getattr(_recording, "active", None)
    rec = _recording.active = Recording()
    try:
        yield rec
    finally:
        _recording.active = previous


def recipe_key(builder: str, params: dict) -> tuple:
    """A recipe's identity: its builder and its parameters' text."""
    return builder, repr(sorted(params.items()))


def unique_recipes(entries) -> list:
    """(builder, params) entries without repeats, in first-seen order."""
    seen, out = set(), []
    for builder, params in entries:
        key = recipe_key(builder, params)
        if key not in seen:
            seen.add(key)
            out.append((builder, params))
    return out


_modules: dict = {}


def load(builder: str, params: dict, device: int = 0):
    """The module of a recipe loaded on `device` (the compile cache's,
    remembered here by the recipe's text so a repeated call skips the
    cache's key hashing)."""
    key = (recipe_key(builder, params), device)
    mod = _modules.get(key)
    if mod is None:
        mod = _modules[key] = load_kernel(builder, device=device, **params)
    return mod


def launch(builder, params: dict, args, grid, block=None) -> None:
    """Launches builder(**params)'s kernel on the device of args[0] (every
    layout launch's first argument is its input tensor), on that device's
    current torch stream."""
    mod = load(builder, params, args[0].device.index)
    kwargs = {"grid": (int(grid), 1, 1)}
    if block is not None:
        kwargs["block"] = (int(block), 1, 1)
    rec = getattr(_recording, "active", None)
    if rec is None:
        mod(*args, **kwargs)
        return
    # A recorded launch keeps its bound form: the prepared call relocates
    # it, so its arguments are checked and packed once, not twice.
    bound = mod.bind(*args, **kwargs)
    bound()
    rec.launches.append((bound, args))


def strided(t, shape, strides):
    """A view of t's elements with this shape and these strides (elements)."""
    torch = torch_module()
    return torch.as_strided(t, tuple(shape), tuple(strides), t.storage_offset())


__all__ = ["ELEM_DTYPES", "PERSISTENT_GRID", "aligned", "as_tensor", "bits_view", "counter",
           "launch", "load", "persistent_grid", "sm_count", "strided"]
