"""The shared image of one copy, byte by byte, from the emulator.

Each slot's image is laid out by the emulator exactly as a load writes it and
a store reads it (tile_mlir.emulator: `resolve` checks and resolves the
transfer, `axis_coordinates` gives the global coordinate of every image
element, `Image.byte_addresses` the swizzled shared byte of every payload
byte). Nothing here knows the swizzle formula.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import mlir.ir as ir
import numpy as np

from .. import contract, tma
from ..spec import TensorMapSpec
from ..emulator import formats as _formats
from ..emulator import image as _image
from ..emulator import im2col as _im2col
from ..emulator.fields import resolve
from ..emulator.indexing import axis_coordinates
from ..emulator.load import slot_coords
from ..emulator.swizzle import swizzle_period, swizzle_span
from ..errors import TileError
from ..runtime.tensormap import descriptor_layout
from . import im2col as _ex_im2col
from .slots import KIND_NAMES, OUT_OF_BOUNDS, PADDING, PAYLOAD, scatter_slot
from .source import ExplainError, Isolated, Selected, attribute, operand_groups


def _unsupported(message: str) -> ExplainError:
    """A copy (or a case of one) the model does not cover."""
    return ExplainError("explain-supported", message)


def _needs_input(message: str) -> ExplainError:
    """A value the copy's model needs and the input leaves out."""
    return ExplainError("explain-input", message)

# Modes explain can describe: each must be one the emulator models, and
# explain must know the operands that address it (gather4/scatter4: rows).
EXPLAINED_MODES = ("tile", "gather4", "scatter4", "im2col", "im2col_w",
                   "im2col_w_128", "im2col_no_offs")
EXPLAINED_DIRECTIONS = ("load", "store", "reduce", "prefetch")
# Modes the emulator models from the documentation alone (never run here).
UNMEASURED_MODES = ("im2col_w", "im2col_w_128")

# The driver's enumerator names and entry points: the contract's tables.
ENCODE_FUNCTIONS = contract.ENCODE_FUNCTIONS


def enum_name(field_name: str, value: int) -> str:
    """CU_TENSOR_MAP_* name of a spec field's value ("?" if it has none)."""
    return contract.driver_enum_name(field_name, value)


class Unknown:
    """A size or stride only run time knows (prints as '?')."""

    def __mul__(self, other):
        return self

    __rmul__ = __mul__

    def __repr__(self):
        return "?"

    __str__ = __repr__


UNKNOWN = Unknown()


@dataclass(frozen=True)
class TensorMap:
    """The arguments of cuTensorMapEncodeTiled (or, by `encode`,
    cuTensorMapEncodeIm2col / Im2colWide, which take the corners, channels
    and pixels instead of boxDim); arrays are innermost-first as the driver
    takes them. `None`: only run time knows."""
    data_type: int
    rank: int
    global_dim: tuple
    global_strides: tuple      # bytes, for dims 1..rank-1
    box_dim: tuple
    element_strides: tuple
    interleave: int
    swizzle: int
    l2_promotion: int
    oob_fill: int
    spec: TensorMapSpec        # the kernel's tile.tensor_maps entry
    encode: str = "tiled"      # tiled | im2col | im2col_wide
    pixel_box_lower: tuple = ()   # innermost-first (wide: the W corner)
    pixel_box_upper: tuple = ()
    channels_per_pixel: int = 0
    pixels_per_column: int = 0
    wide_mode: int | None = None

    @property
    def data_type_name(self) -> str:
        """The driver's name of `data_type` (CU_TENSOR_MAP_DATA_TYPE_...)."""
        return enum_name("data_type", self.data_type)

    @property
    def function(self) -> str:
        """The driver function that encodes this map (by `encode`)."""
        return ENCODE_FUNCTIONS[self.encode]


@dataclass
class Slot:
    """One repeat slot's image: for each of its `size` shared bytes (from
    `offset`, the slot's byte offset from the buffer base), what it holds.

    kind[b]    PAYLOAD, OUT_OF_BOUNDS (a load writes the fill there; a store
               drops the element) or PADDING (never written or read)
    element[b] the global coordinates, outer-to-inner, of the element the
               byte belongs to (also for out-of-bounds bytes; packed formats:
               the first element with bits in the byte); zeros for padding.
               im2col: (n, [d, h,] w, c) of the pixel read or written
    byte[b]    the byte within that element (packed: 0), -1 for padding
    pixels     im2col: one explain.im2col.Pixel per shared row, else None
    """
    index: int
    repeat_index: tuple
    coords: tuple
    offset: int
    size: int
    element: np.ndarray
    byte: np.ndarray
    kind: np.ndarray
    pixels: list | None = None

    def at(self, b: int) -> tuple:
        """(kind name, global coords or None, byte within the element)."""
        k = int(self.kind[b])
        if k == PADDING:
            return (KIND_NAMES[k], None, None)
        return (KIND_NAMES[k], tuple(int(v) for v in self.element[b]),
                int(self.byte[b]))

    def count(self, kind: int) -> int:
        """Bytes of this slot of `kind` (PAYLOAD, OUT_OF_BOUNDS or PADDING)."""
        return int(np.count_nonzero(self.kind == kind))


@dataclass
class Explanation:
    """Everything `tile-mlir explain` prints or draws for one copy."""
    origin: str
    op_text: str
    direction: str
    mode: str
    rank: int
    format: str
    element_bits: int
    element_bytes: int              # bytes of one element slot in shared memory
    elements_per_byte: int          # 2 for packed fp4, else 1 (or fewer)
    global_type: str
    global_shape: tuple             # outer-to-inner; None entries: runtime sizes
    box: tuple
    element_strides: tuple
    coords: tuple                   # of slot 0, outer-to-inner
    rows: tuple | None              # gather4/scatter4 row operands
    coord_steps: tuple
    repeat_shape: tuple
    swizzle: int
    swizzle_name: str               # "none", "32B", "64B", "128B", ...
    swizzle_span: int               # bytes, 0 without swizzle
    swizzle_period: int             # bytes after which the pattern repeats
    interleave: int
    l2_promotion: int
    oob_fill: int
    fill_bytes: bytes | None        # the bytes of one filled element (loads)
    multicast: bool
    image_dims: tuple               # logical, outer-to-inner (Ci last with interleave)
    image_shape: tuple              # the shared suffix (row padded to storage)
    row_payload_bytes: int
    row_storage_bytes: int
    payload_bytes: int              # one slot
    storage_bytes: int              # one slot
    transaction_bytes: int          # all slots (= tile.tx_bytes)
    shared_bytes: int               # all slots' storage
    tensor_map: TensorMap | None
    slots: list = field(default_factory=list)     # none for a prefetch
    notes: list = field(default_factory=list)
    # The IR's tile.wgmma_descriptor ops that read this image
    # (explain/descriptors.py; `--wgmma op=N`).
    descriptors: list = field(default_factory=list)
    # im2col: the op's corners (outer-to-inner spatial; W modes: w only) and
    # offsets (im2col: per spatial axis; W modes: (w_halo, w_offset)).
    pixel_box_lower: tuple | None = None
    pixel_box_upper: tuple | None = None
    offsets: tuple | None = None
    # prefetch: what it warms. Tile/gather4: per box axis the global
    # coordinates and whether each is inside the tensor; im2col: the pixels.
    warm_axes: list | None = None
    warm_pixels: list | None = None

    @property
    def im2col(self) -> bool:
        """Whether the copy is an im2col mode."""
        return self.mode in _image.IM2COL_MODES

    @property
    def prefetch(self) -> bool:
        """Whether the copy is a prefetch (no shared image: `slots` is empty)."""
        return self.direction == "prefetch"

    @property
    def slot_count(self) -> int:
        """Repeat slots: instructions the copy issues."""
        return len(self.slots)


def _tensor_map(spec: TensorMapSpec, global_type, fmt) -> TensorMap:
    """The driver's arguments: fields from the spec; globalDim/globalStrides
    from the memref type through the runtime's own descriptor_layout."""
    mtype = ir.MemRefType(global_type)
    dyn = ir.ShapedType.get_dynamic_size()
    shape = [UNKNOWN if d == dyn else d for d in mtype.shape]
    strides, _ = mtype.get_strides_and_offset()
    dyn_stride = ir.ShapedType.get_dynamic_stride_or_offset()
    strides = [UNKNOWN if s == dyn_stride else s for s in strides]
    itemsize = fmt.dtype.itemsize
    values, nbytes = spec.packing
    if (values, nbytes) != (1, 1):
        # The runtime sees packed elements as bytes (the spec's packing: fp4
        # two a byte, fp6 four in three bytes).
        shape[-1] = UNKNOWN if shape[-1] is UNKNOWN else shape[-1] * nbytes // values
        strides = [s if s is UNKNOWN else s * nbytes // values for s in strides]
        strides[-1] = 1
    view = SimpleNamespace(shape=tuple(shape), strides=tuple(strides),
                           itemsize=itemsize)
    dims, byte_strides = descriptor_layout(spec, view)

    def known(values):
        return tuple(None if v is UNKNOWN else int(v) for v in values)

    return TensorMap(
        data_type=spec.data_type, rank=spec.rank, global_dim=known(dims),
        global_strides=known(byte_strides), box_dim=spec.box,
        element_strides=spec.element_strides,
        interleave=spec.interleave, swizzle=spec.swizzle,
        l2_promotion=spec.l2_promotion, oob_fill=spec.oob_fill,
        spec=spec, encode=spec.encode,
        pixel_box_lower=spec.pixel_box_lower,
        pixel_box_upper=spec.pixel_box_upper,
        channels_per_pixel=spec.channels_per_pixel or 0,
        pixels_per_column=spec.pixels_per_column or 0,
        wide_mode=spec.wide_mode)


def _dummy_global(fmt, logical: tuple) -> np.ndarray:
    """A zero-memory stand-in for the global array (only its shape matters)."""
    storage = list(logical)
    if fmt.packed:
        storage[-1] = storage[-1] * fmt.bits // 8
    try:
        return np.broadcast_to(np.zeros((), dtype=fmt.dtype), tuple(storage))
    except ValueError as err:
        raise _unsupported(f"cannot model a global array of shape {logical}: "
                           f"{err}; give --global-shape") from None


def _logical_shape(fmt, static: tuple, transfer_args: dict, slots: list,
                   notes: list) -> tuple:
    """The global sizes, with runtime ones large enough that every element
    the copy touches at a non-negative coordinate is in bounds."""
    if all(s is not None for s in static):
        return tuple(static)
    # Coordinates do not depend on the sizes: read them at provisional sizes.
    provisional = [s if s is not None else 1 for s in static]
    if fmt.packed and static[-1] is None:
        provisional[-1] = 128
    needed = list(provisional)
    for _, coords in slots:
        t = resolve(_dummy_global(fmt, tuple(provisional)),
                    **dict(transfer_args, coords=coords))
        for axis, (idx, _) in enumerate(axis_coordinates(t)):
            needed[axis] = max(needed[axis], int(idx.max()) + 1)
    shape = []
    for axis, (s, n) in enumerate(zip(static, needed)):
        if s is None:
            if fmt.packed and axis == len(static) - 1:
                n = -(-n // 128) * 128
            shape.append(n)
        else:
            shape.append(s)
    runtime = [str(a) for a, s in enumerate(static) if s is None]
    notes.append(f"global sizes {', '.join(runtime)} (outer-to-inner) are "
                 f"runtime values, taken as {tuple(shape)} here: nothing at a "
                 "non-negative coordinate is out of bounds (set them with "
                 "--global-shape)")
    return tuple(shape)


def _slot_map(t, offset: int, size: int, global_rank: int) -> tuple:
    """(element, byte, kind) of each of the slot's `size` shared bytes."""
    img = t.image
    fmt = img.fmt
    rel = np.asarray(img.byte_addresses(offset), dtype=np.int64) - offset
    rows, payload = rel.shape
    dims = img.dims
    row_idx = (np.unravel_index(np.arange(rows), dims[:-1]) if len(dims) > 1
               else ())
    p = np.arange(payload)
    if fmt.packed and img.row_payload_bytes == img.row_elems:
        # float6_align16b stores: one value per shared byte.
        inner, within = p, np.zeros_like(p)
    elif fmt.packed:
        # The first value with bits in payload byte p of the row's bit stream.
        inner, within = p * 8 // fmt.bits, np.zeros_like(p)
    else:
        inner, within = p // fmt.elem_bytes, p % fmt.elem_bytes
    image_index = [np.broadcast_to(r[:, None], (rows, payload)) for r in row_idx]
    image_index.append(np.broadcast_to(inner[None, :], (rows, payload)))

    axes = axis_coordinates(t)
    coords = np.zeros((rows, payload, global_rank), dtype=np.int64)
    valid = np.ones((rows, payload), dtype=bool)
    for a, idx in enumerate(image_index):
        if a < len(axes):
            global_idx, ok = axes[a]
            coords[..., a] = global_idx[idx]
            valid &= ok[idx]
        else:
            # The interleave slice (Ci) is copied whole.
            coords[..., a] = idx

    return scatter_slot(rel, coords, within, valid, size)


def _swizzle_name(swizzle: int) -> str:
    table = contract.SWIZZLE_TABLE
    return table[swizzle].name if 0 <= swizzle < len(table) else str(swizzle)


def check_supported(op) -> None:
    """Refuses, with a clear message, the copies explain cannot describe
    (before anything is computed for them)."""
    direction = attribute(op, "direction")
    mode = attribute(op, "mode")
    if direction not in EXPLAINED_DIRECTIONS:
        raise _unsupported(f"explain does not support direction {direction} yet "
                           f"(supported: {', '.join(EXPLAINED_DIRECTIONS)})")
    if mode not in EXPLAINED_MODES or mode not in _image.MODES:
        raise _unsupported(f"explain does not support mode {mode} yet "
                           f"(supported: {', '.join(EXPLAINED_MODES)})")
    if direction != "prefetch" and not operand_groups(op).get("shared"):
        raise _unsupported("explain needs a shared buffer: this copy has none")
    if not isinstance(operand_groups(op)["global"][0].type, ir.MemRefType):
        raise _unsupported("explain needs a memref global operand: the fields of "
                           "an opaque tensor map (!llvm.ptr) are not in the IR")


def _emulated_format(spec: TensorMapSpec):
    """The emulator's format for the copy's tensor-map format."""
    try:
        return _formats.get_format(spec.format)
    except ValueError:
        raise _unsupported(f"explain does not support format {spec.format} "
                           "yet (the emulator does not model it)") from None


def _repeat_slots(selected: Selected, isolated: Isolated, coord_steps,
                  prefetch: bool) -> tuple[tuple, list]:
    """The repeat shape (the leading shared dims the coord steps walk) and
    the (slot, coords) of each repeat slot, checked against the op's count."""
    op = isolated.op
    if prefetch:
        repeat_shape = ()
    else:
        shared_type = ir.MemRefType(operand_groups(op)["shared"][0].type)
        repeat_shape = tuple(shared_type.shape[:len(coord_steps)])
    slots = list(slot_coords(isolated.coords, coord_steps, repeat_shape))
    count = tma.slot_count(selected.op)
    if len(slots) != count:
        raise _unsupported(f"internal: {len(slots)} repeat slots from the shared "
                           f"shape, the op issues {count}")
    return repeat_shape, slots


def _mode_args(isolated: Isolated, static: tuple, args: dict, notes: list):
    """Adds the mode's own keywords to the emulator's `args` (im2col's pixel
    box and offsets, or gather4's rows); returns the resolver that takes
    them."""
    op, mode = isolated.op, args["mode"]
    if mode not in _image.IM2COL_MODES:
        args.update(rows=isolated.rows)
        return resolve
    args.update(pixel_box_lower=attribute(op, "pixel_box_lower"),
                pixel_box_upper=attribute(op, "pixel_box_upper"),
                offsets=isolated.offsets)
    if any(s is None for s in static):
        raise _needs_input("an im2col traversal depends on every global size "
                           "(the bounding box ends at dim - 1 + upper): give "
                           "--global-shape")
    if mode in UNMEASURED_MODES:
        notes.append(f"{mode} is modelled from the documentation, not "
                     "measured (sm_100 only; see tile_mlir.emulator.im2col "
                     "for the assumptions)")
    return _im2col.resolve


def _transfers(fmt, static: tuple, args: dict, slots: list, notes: list, resolver,
               im2col: bool) -> tuple[tuple, list]:
    """The logical global shape and each slot's (slot, coords, Transfer), as
    the emulator resolves them on a stand-in global array."""
    try:
        logical = (tuple(static) if im2col else
                   _logical_shape(fmt, static, args, slots, notes))
        dummy = _dummy_global(fmt, logical)
        return logical, [(k, c, resolver(dummy, **dict(args, coords=c)))
                         for k, c in slots]
    except ValueError as err:
        if isinstance(err, TileError):
            raise
        raise _unsupported(f"the emulator does not model this copy: {err}") from None


def _image_slots(transfers: list, repeat_shape: tuple, storage: int, logical: tuple,
                 prefetch: bool, im2col: bool):
    """(slots, warm_axes, warm_pixels): the shared image of each repeat slot,
    or for a prefetch (which writes no shared memory) what it warms."""
    out_slots = []
    warm_axes = warm_pixels = None
    if prefetch:
        t = transfers[0][2]
        if im2col:
            warm_pixels = _ex_im2col.pixels(t, None)
        else:
            warm_axes = [(tuple(int(v) for v in idx), tuple(bool(v) for v in ok))
                         for idx, ok in axis_coordinates(t)]
        return out_slots, warm_axes, warm_pixels
    repeat_indices = list(np.ndindex(*repeat_shape)) if repeat_shape else [()]
    for (k, c, t), multi in zip(transfers, repeat_indices):
        offset = k * storage
        pixels = None
        if im2col:
            element, byte, kind = _ex_im2col.slot_map(t, offset, storage)
            pixels = _ex_im2col.pixels(t, offset)
        else:
            element, byte, kind = _slot_map(t, offset, storage, len(logical))
        out_slots.append(Slot(k, tuple(multi), tuple(c), offset, storage,
                              element, byte, kind, pixels))
    return out_slots, warm_axes, warm_pixels


def _checked_transaction_bytes(selected: Selected, isolated: Isolated, fmt, image,
                               out_slots: list) -> int:
    """The op's transaction bytes, checked against the bytes the image holds."""
    mode = attribute(isolated.op, "mode")
    # The W modes' byte count depends on w_halo: count the isolated copy,
    # whose offsets are the constants explained here.
    tx = tma.transaction_bytes(isolated.op if mode in UNMEASURED_MODES else selected.op)
    modelled = sum(s.count(PAYLOAD) + s.count(OUT_OF_BOUNDS) for s in out_slots)
    image_bytes = image.payload_bytes * len(out_slots)
    if fmt.packed and image.row_payload_bytes == image.row_elems:
        # float6_align16b stores: a value a shared byte, packed in transit.
        modelled = modelled * fmt.bits // 8
        image_bytes = image_bytes * fmt.bits // 8
    if modelled != tx or image_bytes != tx:
        raise _unsupported(f"internal: the image holds {modelled} payload bytes, "
                           f"the op's transaction bytes are {tx}")
    return tx


def _alignment_note(isolated: Isolated, swizzle: int, prefetch: bool) -> str | None:
    """A note where the shared buffer's declared alignment is below the
    swizzle period the picture assumes."""
    alignment = isolated.shared_alignment
    if swizzle and not prefetch and alignment is not None and \
            alignment % swizzle_period(swizzle):
        return (f"the shared buffer is declared {alignment}-"
                f"byte aligned; this picture assumes a base aligned to the "
                f"{swizzle_period(swizzle)}-byte swizzle period (at another "
                "base the hardware starts the XOR pattern at another line)")
    return None


def build(selected: Selected, isolated: Isolated, origin: str) -> Explanation:
    """The Explanation of the verified, isolated copy (see the docstring)."""
    op = isolated.op
    check_supported(op)
    direction = attribute(op, "direction")
    mode = attribute(op, "mode")
    prefetch = direction == "prefetch"
    im2col = mode in _image.IM2COL_MODES
    spec = isolated.spec
    fmt = _emulated_format(spec)

    mtype = ir.MemRefType(isolated.global_type)
    dyn = ir.ShapedType.get_dynamic_size()
    static = tuple(None if d == dyn else d for d in mtype.shape)

    box = attribute(op, "box")
    element_strides = attribute(op, "element_strides")
    coord_steps = attribute(op, "coord_steps", ())
    swizzle = attribute(op, "swizzle", 0)
    interleave = attribute(op, "interleave", 0)
    oob_fill = attribute(op, "oob_fill", 0)
    repeat_shape, slots = _repeat_slots(selected, isolated, coord_steps, prefetch)

    # A prefetch reads as a load of the same box would.
    emulated = "load" if prefetch else direction
    args = dict(direction=emulated, box=box, coords=isolated.coords,
                element_strides=element_strides, format=fmt.name,
                swizzle=swizzle, interleave=interleave,
                oob_fill=oob_fill if direction == "load" else 0, mode=mode)
    notes = list(isolated.notes)
    resolver = _mode_args(isolated, static, args, notes)
    lower, upper = args.get("pixel_box_lower"), args.get("pixel_box_upper")
    logical, transfers = _transfers(fmt, static, args, slots, notes, resolver, im2col)

    image = transfers[0][2].image
    storage = image.storage_bytes
    out_slots, warm_axes, warm_pixels = _image_slots(transfers, repeat_shape, storage,
                                                     logical, prefetch, im2col)
    tx = _checked_transaction_bytes(selected, isolated, fmt, image, out_slots)

    note = _alignment_note(isolated, swizzle, prefetch)
    if note:
        notes.append(note)
    fill = None
    if direction == "load":
        fill = np.asarray(_formats.fill_value(fmt, oob_fill),
                          dtype=fmt.dtype).tobytes()

    return Explanation(
        origin=origin, op_text=selected.line or str(selected.op), direction=direction, mode=mode,
        rank=attribute(op, "rank"), format=fmt.name, element_bits=fmt.bits,
        element_bytes=fmt.elem_bytes,
        elements_per_byte=max(1, 8 // fmt.bits),
        global_type=str(operand_groups(selected.op)["global"][0].type),
        global_shape=tuple(logical) if all(s is not None for s in static) else static,
        box=tuple(box),
        element_strides=tuple(element_strides or
                              (1,) * (len(logical) if im2col else len(box))),
        coords=tuple(isolated.coords), rows=isolated.rows,
        coord_steps=tuple(coord_steps), repeat_shape=repeat_shape,
        swizzle=swizzle, swizzle_name=_swizzle_name(swizzle),
        swizzle_span=swizzle_span(swizzle),
        swizzle_period=swizzle_period(swizzle), interleave=interleave,
        l2_promotion=attribute(op, "l2_promotion", 0), oob_fill=oob_fill,
        fill_bytes=fill, multicast="multicast" in op.attributes,
        image_dims=tuple(image.dims), image_shape=tuple(image.shape),
        row_payload_bytes=image.row_payload_bytes,
        row_storage_bytes=image.row_storage_bytes,
        payload_bytes=0 if prefetch else image.payload_bytes,
        storage_bytes=0 if prefetch else storage,
        transaction_bytes=tx, shared_bytes=storage * len(out_slots),
        tensor_map=_tensor_map(spec, isolated.global_type, fmt),
        slots=out_slots, notes=notes, pixel_box_lower=lower,
        pixel_box_upper=upper, offsets=isolated.offsets,
        warm_axes=warm_axes, warm_pixels=warm_pixels)


__all__ = ["Explanation", "Slot", "TensorMap", "PAYLOAD", "OUT_OF_BOUNDS",
           "PADDING", "build"]
