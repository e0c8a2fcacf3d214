"""`grouped_copy(srcs, dsts)`: dsts[i] = srcs[i] for a group of 2-D CUDA
tensors of any shapes (empty, one row, not multiples of the box), in one
launch whose CTAs build the tensor maps on the device
(tile_mlir.kernels.grouped.kernel, docs/device-tensor-maps.md).

    from tile_mlir.kernels.grouped import grouped_copy, GroupedCopy
    grouped_copy(srcs, dsts)                  # checks, tables, one launch
    plan = GroupedCopy("bfloat16").plan(srcs, dsts)
    plan()                                    # the same group again: launch only

The arguments are checked first, each with a named rule (TileRuntimeError):
equal-length lists whose i-th entries agree in shape and dtype
([group-pairs]), CUDA arrays ([device-array]) of rank 2 ([global-rank]),
rows contiguous ([global-inner-stride]), row pitches in whole 16 bytes
([global-stride-alignment]) below 2^40 ([global-stride-range]), base
addresses 16-byte aligned ([global-base-alignment]), extents below 2^31
([global-dim-range]: the kernel's coordinates are 32-bit). One compiled
kernel per element size serves every group (the compile cache's recipe,
`tile-mlir cache populate tile_mlir.kernels.grouped.kernel:cache_recipes`
where MLIR is); the per-launch tables and the map slots live in a
runtime-managed workspace (tile_mlir.runtime.workspace).

Needs numpy and cuda-python, not MLIR (where the recipe is in the cache).
"""

from __future__ import annotations

import numpy as np

from ... import cache
from ...contract import CHUNK_BYTES, COORD_RANGE, DTYPES, GLOBAL_STRIDE_BYTES_BOUND
from ...runtime.arrays import device_of, device_view
from ...runtime.driver import check, cuda, device_index, on_device
from ...runtime.errors import TileRuntimeError
from ...runtime.streams import current_stream, stream_handle
from ...runtime.workspace import Workspace, WorkspaceSet

BUILDER = "tile_mlir.kernels.grouped.kernel:build_grouped_copy"
# The kernel's dtype per element size: the copy moves bits, so one kernel
# serves every dtype of a size (its format never converts).
KERNEL_DTYPES = {1: "uint8", 2: "bfloat16", 4: "float32", 8: "uint64"}
TABLE_COLUMNS, CTA_COLUMNS, SLOT_BYTES = 9, 4, 256  # kernels/grouped/kernel.py
# Extents below 2^31: the kernel's coordinates are 32-bit.
MAX_EXTENT = COORD_RANGE.max


def default_box(elem_bytes: int) -> tuple[int, int]:
    """64 rows of 256 bytes (the builder's default_box)."""
    return (64, 256 // elem_bytes)


def recipe_params(dtype: str, box=None, stages: int = 4, store_lag: int = 1) -> dict:
    """The compile-cache recipe (kernels/grouped/kernel.py, recipe_params)."""
    size = {v: k for k, v in KERNEL_DTYPES.items()}[dtype]
    params = {"dtype": dtype, "box": list(box or default_box(size)), "stages": stages}
    if store_lag != 1:  # the default's key stays what it was
        params["store_lag"] = store_lag
    return params


def store_extent(cols, elem_bytes: int):
    """The columns of a row the destination's TMA store covers: the row
    rounded down to whole 16-byte chunks. A TMA store writes whole chunks
    (a row of 178 bf16 would also get bytes 356..367), so the kernel writes
    the rest of the row, [store_extent, cols), element by element."""
    per_chunk = max(1, CHUNK_BYTES // elem_bytes)
    return np.asarray(cols, np.int64) // per_chunk * per_chunk


def plan_tables(rows, cols, src_ptr, dst_ptr, src_pitch, dst_pitch, box, grid: int,
                elem_bytes: int):
    """(Table (N + 1, 9) int64, Ctas (grid, 4) int64, map slots) of a group,
    as the kernel reads them: tiles numbered tensor after tensor, CTA b takes
    the run [b * T // grid, (b + 1) * T // grid) and the tensors it spans;
    CTA b's maps of tensor t are slot t + b (unique: consecutive runs share
    at most their boundary tensor). Column 8 is the destination's store
    extent (store_extent)."""
    rows = np.asarray(rows, np.int64)
    cols = np.asarray(cols, np.int64)
    n = len(rows)
    br, bc = box
    per_row = -(-cols // bc)
    tiles = np.where((rows > 0) & (cols > 0), -(-rows // br) * per_row, 0)
    first = np.zeros(n + 1, np.int64)
    np.cumsum(tiles, out=first[1:])
    total = int(first[-1])
    table = np.zeros((n + 1, TABLE_COLUMNS), np.int64)
    table[:n, 0] = np.asarray(src_ptr, np.uint64).view(np.int64) if n else 0
    table[:n, 1] = np.asarray(dst_ptr, np.uint64).view(np.int64) if n else 0
    table[:n, 2], table[:n, 3] = rows, cols
    table[:n, 4], table[:n, 5] = src_pitch, dst_pitch
    table[:, 6] = first
    table[:n, 7] = per_row
    table[:n, 8] = store_extent(cols, elem_bytes)
    table[n, 7] = 1
    b = np.arange(grid, dtype=np.int64)
    begin, end = b * total // grid, (b + 1) * total // grid
    # The tensor holding tile g: the first t with first[t + 1] > g.
    t0 = np.searchsorted(first[1:], begin, side="right")
    t1 = np.searchsorted(first[1:], end - 1, side="right")
    idle = end <= begin
    t0[idle], t1[idle] = 0, -1
    ctas = np.stack([begin, end, t0, t1], axis=1).astype(np.int64)
    return table, ctas, n + grid


def _dtype_name(obj, view) -> str:
    torch_dtype = getattr(obj, "dtype", None)
    if type(obj).__module__.startswith("torch"):
        return str(torch_dtype).replace("torch.", "")
    return str(view.dtype)


def describe_group(srcs, dsts, device: int | None = None) -> tuple[list, list, int]:
    """The checked device views of the pairs and their element size; every
    array lives on `device` (default: on one device, the first array's)."""
    return describe_group_on(srcs, dsts, device)[:3]


def describe_group_on(srcs, dsts, device: int | None = None) -> tuple:
    """describe_group's views and element size, and the device the arrays
    live on (None for a group with no memory: only empty arrays)."""
    if not isinstance(srcs, (list, tuple)) or not isinstance(dsts, (list, tuple)):
        raise TileRuntimeError("group-pairs", "grouped_copy takes two lists (or tuples) of "
                    f"tensors, got {type(srcs).__name__} and {type(dsts).__name__}")
    if len(srcs) != len(dsts):
        raise TileRuntimeError("group-pairs", f"{len(srcs)} sources but {len(dsts)} "
                    "destinations: the lists pair up")
    src_views, dst_views, size = [], [], None
    for i, (src, dst) in enumerate(zip(srcs, dsts)):
        pair = []
        for side, obj in (("srcs", src), ("dsts", dst)):
            view = device_view(obj, i)
            where = f"{side}[{i}]"
            if view.host is not None:
                raise TileRuntimeError("device-array", f"{where} is a host (numpy) array; "
                            "grouped_copy takes CUDA tensors")
            if len(view.shape) != 2:
                raise TileRuntimeError("global-rank", f"{where} has rank {len(view.shape)}, "
                            "grouped_copy copies 2-D tensors")
            pair.append((view, _dtype_name(obj, view)))
        (sv, sname), (dv, dname) = pair
        if tuple(sv.shape) != tuple(dv.shape) or sname != dname:
            raise TileRuntimeError("group-pairs", f"pair {i}: srcs[{i}] is {tuple(sv.shape)} "
                        f"{sname}, dsts[{i}] is {tuple(dv.shape)} {dname}: a pair "
                        "has one shape and one dtype")
        if size is None:
            size = sv.itemsize
        elif sv.itemsize != size:
            raise TileRuntimeError("group-pairs", f"pair {i} has {sv.itemsize}-byte elements, "
                        f"pair 0 {size}-byte ones: one launch copies one element size")
        for side, view in (("srcs", sv), ("dsts", dv)):
            _check_layout(view, f"{side}[{i}]")
        src_views.append(sv)
        dst_views.append(dv)
    if size is not None and size not in KERNEL_DTYPES:
        raise TileRuntimeError("argument-dtype", f"{size}-byte elements: grouped_copy copies "
                    f"elements of {', '.join(map(str, KERNEL_DTYPES))} bytes")
    return src_views, dst_views, size or 2, _group_device(src_views, dst_views, device)


def _group_device(src_views, dst_views, device: int | None) -> int | None:
    """[argument-device]: the group's arrays (empty ones aside) live on one
    device, `device` where given; which one (None: no array has memory)."""
    first = None   # the array that set the device, where none was given
    for i, (sv, dv) in enumerate(zip(src_views, dst_views)):
        for side, view in (("srcs", sv), ("dsts", dv)):
            if view.ptr == 0:
                continue
            ordinal = device_of(view)
            if device is None:
                device, first = ordinal, f"{side}[{i}]"
            elif ordinal != device:
                where = (f"{first} is on device {device}" if first else
                         f"this grouped copy runs on device {device}")
                raise TileRuntimeError("argument-device", f"{side}[{i}] lives on CUDA "
                                       f"device {ordinal} and {where}: one launch copies "
                                       "on one device")
    return device


def _check_layout(view, where: str) -> None:
    rows, cols = view.shape
    if rows > MAX_EXTENT or cols > MAX_EXTENT:
        raise TileRuntimeError("global-dim-range", f"{where} is {rows} x {cols}: the grouped "
                    "copy's coordinates are 32-bit, extents up to 2^31 - 1")
    if rows == 0 or cols == 0:
        return  # nothing to copy, nothing encoded
    if cols > 1 and view.strides[1] != 1:
        raise TileRuntimeError("global-inner-stride", f"{where}: the innermost stride is "
                    f"{view.strides[1]} elements, expected 1")
    if view.ptr % CHUNK_BYTES:
        raise TileRuntimeError("global-base-alignment", f"{where}: base address "
                    f"{view.ptr:#x} is not 16-byte aligned")
    pitch = view.strides[0] * view.itemsize
    if rows > 1 and pitch % CHUNK_BYTES:
        raise TileRuntimeError("global-stride-alignment", f"{where}: the row pitch is {pitch} "
                    "bytes, not a multiple of 16 (pad the rows)")
    if rows > 1 and not 0 <= pitch < GLOBAL_STRIDE_BYTES_BOUND:
        raise TileRuntimeError("global-stride-range", f"{where}: the row pitch {pitch} bytes "
                    "is not below 2^40")


def _pitch(view) -> int:
    """The row pitch the map gets: the tensor's, or (one row, where it does
    not matter) the row's bytes rounded up to 16 (a valid stride; the
    store's extent, not the pitch, bounds what a one-row store writes)."""
    rows, cols = view.shape
    pitch = view.strides[0] * view.itemsize
    if rows <= 1 or cols == 0:
        return max(CHUNK_BYTES, -(-cols * view.itemsize // CHUNK_BYTES) * CHUNK_BYTES)
    return pitch


def _contiguous(view) -> bool:
    """Whether the view's rows follow one another with no gap (its bytes are
    one run: rows * cols elements from its base)."""
    rows, cols = view.shape
    return rows <= 1 or view.strides[0] == cols


def flat_entries(rows, cols, src_ptr, dst_ptr, src_pitch, dst_pitch, contiguous,
                 width: int, elem_bytes: int):
    """The group as the kernel's entries (rows, cols, src, dst, src pitch,
    dst pitch), each an int64 array. A pair whose source and destination are
    both contiguous is copied as its flat run of E = rows * cols elements:
    E // width rows of `width` (the box's columns, so every box is one
    contiguous 16 KiB run with no part-empty box at a row end), then one row
    of the E % width left. Other pairs stay as they are. Ragged rows (a 520-
    column bf16 row is 4 boxes and 8 columns) otherwise cost a mostly empty
    box per box row, and rows that start off a 128-byte line touch an extra
    line per box row."""
    rows, cols = np.asarray(rows, np.int64), np.asarray(cols, np.int64)
    src = np.asarray(src_ptr, np.uint64).reshape(-1).view(np.int64)
    dst = np.asarray(dst_ptr, np.uint64).reshape(-1).view(np.int64)
    src_pitch = np.asarray(src_pitch, np.int64)
    dst_pitch = np.asarray(dst_pitch, np.int64)
    elems = rows * cols
    bulk, tail = elems // width, elems % width
    flat = np.asarray(contiguous, bool) & (elems > 0) & (bulk <= MAX_EXTENT)
    run = width * elem_bytes
    tail_pitch = np.maximum(16, -(-tail * elem_bytes // 16) * 16)
    # Two candidate entries a pair: the pair itself or its bulk, and its tail.
    first = [np.where(flat, bulk, rows), np.where(flat, width, cols), src, dst,
             np.where(flat, run, src_pitch), np.where(flat, run, dst_pitch)]
    second = [np.ones_like(rows), tail, src + bulk * run, dst + bulk * run,
              tail_pitch, tail_pitch]
    keep = np.stack([~flat | (bulk > 0), flat & (tail > 0)], axis=1).reshape(-1)
    return [np.stack([a, b], axis=1).reshape(-1)[keep] for a, b in zip(first, second)]


def group_tables(src_views, dst_views, box, grid: int, flatten: bool = True):
    """plan_tables of checked views; with `flatten`, contiguous pairs as
    their flat runs (flat_entries)."""
    elem = src_views[0].itemsize if src_views else 2
    entries = ([v.shape[0] for v in src_views], [v.shape[1] for v in src_views],
               [v.ptr for v in src_views], [v.ptr for v in dst_views],
               [_pitch(v) for v in src_views], [_pitch(v) for v in dst_views])
    if flatten:
        contiguous = [_contiguous(s) and _contiguous(d) for s, d in zip(src_views, dst_views)]
        entries = flat_entries(*entries, contiguous, box[1], elem)
    return plan_tables(*entries, box, grid, elem)


def sm_count(device: int = 0) -> int:
    drv = cuda()
    device = check(drv.cuDeviceGet(device), "cuDeviceGet")
    return int(check(drv.cuDeviceGetAttribute(
        drv.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
        "cuDeviceGetAttribute"))


class GroupedCopy:
    """The grouped copy for one element size (dtype names it: any dtype of
    that size copies bit for bit), compiled once (the compile cache) and
    launched with `grid` CTAs (default: one per SM)."""

    def __init__(self, dtype: str = "bfloat16", *, debug: bool = False, box=None,
                 stages: int = 4, store_lag: int = 1, grid: int | None = None, module=None,
                 depth: int = 4, flatten: bool = True, device: int | None = None):
        size = np.dtype(DTYPES[dtype].numpy).itemsize if dtype in DTYPES else None
        if size not in KERNEL_DTYPES:
            raise TileRuntimeError("argument-dtype", f"grouped_copy has no kernel for {dtype!r} "
                        f"(element sizes {', '.join(map(str, KERNEL_DTYPES))})")
        self.elem_bytes = size
        self.kernel_dtype = KERNEL_DTYPES[size]
        self.box = tuple(box or default_box(size))
        self.debug = debug
        self.flatten = flatten  # contiguous pairs as flat runs (flat_entries)
        if module is None:
            module = cache.load_kernel(BUILDER, debug=debug, device=device,
                                       **recipe_params(self.kernel_dtype, self.box, stages,
                                                      store_lag))
        if device is not None and module.device != device_index(device):
            raise TileRuntimeError("device-index", f"device={device!r}, but the module "
                                   f"given is loaded on device {module.device}")
        self.module = module
        self.device = module.device   # the arrays' device, checked per call
        self.kernel = module["grouped_copy"]
        self.grid = grid or sm_count(self.device)
        self.workspace = Workspace(depth, self.device)
        self._bound: dict = {}  # (id of set, generation) -> BoundLaunch

    # -- the workspace's sections ---------------------------------------------
    def _sizes(self, n: int) -> dict:
        return {"template": self.box[0] * self.box[1] * self.elem_bytes,
                "table": (n + 1) * TABLE_COLUMNS * 8,
                "ctas": self.grid * CTA_COLUMNS * 8,
                "work": (n + self.grid) * SLOT_BYTES}

    def _launch_for(self, ws: WorkspaceSet):
        """The bound launch over `ws`'s sections (bound again when it moves):
        the memrefs' extents are the sections' capacities (the kernel reads
        only what the tables name)."""
        key = (id(ws), ws.generation)
        launch = self._bound.get(key)
        if launch is None:
            typestr = {1: "|u1", 2: "<u2", 4: "<f4", 8: "<u8"}[self.elem_bytes]
            rows = ws.sections["table"] // (TABLE_COLUMNS * 8)
            slots = ws.sections["work"] // SLOT_BYTES
            args = (ws.array("template", self.box, typestr),
                    ws.array("table", (rows, TABLE_COLUMNS), "<i8"),
                    ws.array("ctas", (self.grid, CTA_COLUMNS), "<i8"),
                    ws.array("work", (slots, SLOT_BYTES), "|u1"))
            launch = self.kernel.bind(*args, grid=self.grid)
            self._bound = {k: v for k, v in self._bound.items() if k[0] != id(ws)}
            self._bound[key] = launch
        return launch

    def _fill(self, ws: WorkspaceSet, table, ctas, stream: int) -> None:
        ws.upload("table", table, stream)
        ws.upload("ctas", ctas, stream)

    def _run(self, launch, ws: WorkspaceSet, stream: int) -> None:
        if self.debug:
            launch(stream)  # synchronizes and raises the recorded fault
        else:
            launch.launch(stream)
        ws.record(stream)

    def _stream(self, stream, views) -> int:
        if stream is not None:
            return stream_handle(stream)
        return current_stream(frozenset(v.library for v in views), self.device)

    def __call__(self, srcs, dsts, *, stream=None) -> None:
        """Copies dsts[i] = srcs[i] (checked first) in one launch on `stream`
        (default: the tensors' current stream)."""
        self.copy_views(*describe_group(srcs, dsts, self.device), stream=stream)

    def copy_views(self, src_views, dst_views, size: int, *, stream=None) -> None:
        """__call__ for views describe_group checked."""
        self._check_size(size)
        handle = self._stream(stream, src_views + dst_views)
        table, ctas, _ = group_tables(src_views, dst_views, self.box, self.grid, self.flatten)
        if int(table[-1, 6]) == 0:
            return  # nothing to copy
        with on_device(self.device):   # the workspace's driver calls need it
            ws = self.workspace.acquire(handle, self._sizes(len(table) - 1))
            launch = self._launch_for(ws)
            self._fill(ws, table, ctas, handle)
            self._run(launch, ws, handle)

    def _check_size(self, size: int) -> None:
        if size != self.elem_bytes:
            raise TileRuntimeError("group-pairs", f"this grouped copy moves {self.elem_bytes}-byte "
                        f"elements, the group has {size}-byte ones")

    def plan(self, srcs, dsts) -> "GroupPlan":
        """Checks the group and uploads its tables once: the plan launches
        again without either (the tensors must stay where they are)."""
        src_views, dst_views, size = describe_group(srcs, dsts, self.device)
        self._check_size(size)
        table, ctas, _ = group_tables(src_views, dst_views, self.box, self.grid, self.flatten)
        return GroupPlan(self, table, ctas, frozenset(v.library for v in src_views))


class GroupPlan:
    """A checked group with its tables resident on the device (its own
    workspace set); calling it launches the copy on `stream`."""

    def __init__(self, copy: GroupedCopy, table, ctas, libraries):
        self.copy = copy
        self.tiles = int(table[-1, 6])
        self.entries = len(table) - 1  # the kernel's tensors (flat runs and pairs)
        self.libraries = libraries
        self.ws = WorkspaceSet(copy.device)
        with on_device(copy.device):   # the workspace's driver calls need it
            self.ws.reserve(copy._sizes(self.entries))
            self.launch = copy._launch_for(self.ws)
            copy._fill(self.ws, table, ctas, 0)
            check(cuda().cuStreamSynchronize(0), "cuStreamSynchronize")
        self.last_stream = None

    def __call__(self, stream=None) -> None:
        if self.tiles == 0:
            return
        handle = (current_stream(self.libraries, self.copy.device) if stream is None
                  else stream_handle(stream))
        # Launches on one stream run one after the other; on another stream
        # the previous launch must finish before its map slots are rewritten.
        with on_device(self.copy.device):   # the workspace's driver calls need it
            if self.last_stream is not None and handle != self.last_stream:
                self.ws.wait()
            self.last_stream = handle
            self.copy._run(self.launch, self.ws, handle)


_copies: dict = {}


def grouped_copy(srcs, dsts, *, stream=None, debug: bool = False) -> None:
    """dsts[i] = srcs[i] for every pair, one launch (see the module doc)."""
    src_views, dst_views, size, device = describe_group_on(srcs, dsts)
    if device is None:
        return   # nothing to copy: no kernel loaded, no context made
    key = (size, debug, device)
    copy = _copies.get(key)
    if copy is None:
        copy = _copies[key] = GroupedCopy(KERNEL_DTYPES[size], debug=debug, device=device)
    copy.copy_views(src_views, dst_views, size, stream=stream)


__all__ = ["GroupPlan", "GroupedCopy", "describe_group", "flat_entries", "group_tables",
           "grouped_copy", "plan_tables"]
