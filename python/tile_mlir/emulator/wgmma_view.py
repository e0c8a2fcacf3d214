"""The tensor core's view of a shared operand tile: where a wgmma reads.

A wgmma operand in shared memory is named by a matrix descriptor (start,
LBO, SBO, swizzle, base offset: tile_mlir.wgmma) plus what the instruction
says of it: A or B, K- or MN-major (trans-a/trans-b), the element type and
the tile's rows (M = 64 for A, N for B) by K. `operand_addresses` gives the
shared byte address of every element (row, k), following the PTX ISA's
canonical layouts ("Shared Memory Matrix Layout"; e = element bytes, s =
swizzle span, offsets in bytes before the swizzle):

  K-major, no swizzle   8x16-byte core matrices of 128 contiguous bytes:
                        (r % 8) * 16 + (r // 8) * SBO + (k*e // 16) * LBO + k*e % 16
  K-major, swizzle s    rows s bytes apart, K along the swizzled row, 8-row
                        groups SBO apart (LBO unused):
                        (r % 8) * s + (r // 8) * SBO + k*e
  MN-major, no swizzle  core matrices of 8 K-rows x 16 bytes of MN:
                        (r*e % 16) + (r*e // 16) * SBO + (k % 8) * 16 + (k // 8) * LBO
  MN-major, swizzle s   the MN run s bytes long, K-rows s apart, groups of
                        8 K-rows SBO apart, the next s bytes of MN LBO apart:
                        (r*e % s) + (r*e // s) * LBO + (k % 8) * s + (k // 8) * SBO

then the swizzle, on the address start + offset as the copy engine applies
it (emulator/swizzle.py: 16-byte chunk bits XOR 128-byte line bits), its
pattern anchored at an address whose 128-byte line number is the base
offset modulo the swizzle's period (base offset 0: the period's boundary,
where a TMA load's pattern always starts; the PTX ISA gives the base
offset only as "(pattern start >> 7) & 7", unmeasured here).

Composition with the copy's model: `SharedMap` records, for each shared
byte, which byte of which global element the emulator's TMA loads put
there; `operand_elements` reads that map at the operand's addresses (which
global element each (row, k) of the MMA receives) and `check` lists the
(row, k) whose element is not the one a correct GEMM reads there: the
global element (row, k0 + k) of the operand's tile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import contract
from .. import wgmma as _w
from ..errors import TileUsageError
from .fields import check_shared, resolve
from .formats import get_format
from .indexing import axis_coordinates
from .swizzle import swizzle_address

ROLES = ("A", "B")
MAJORS = ("K", "MN")
CORE_ROWS = 8                       # rows of a core matrix
CHUNK = contract.CHUNK_BYTES        # bytes of a core matrix row
LINE = 128                          # the swizzle's line: chunk bits XOR line bits

# What a shared byte holds (SharedMap.kind) and what an operand element
# receives (operand_elements status).
UNWRITTEN, PAYLOAD, FILL = 0, 1, 2
READ, TORN, FILLED, NOT_WRITTEN, OUTSIDE = 0, 1, 2, 3, 4
STATUS_NAMES = {READ: "element", TORN: "not one whole element of its size",
                FILLED: "out-of-bounds fill", NOT_WRITTEN: "bytes no load wrote",
                OUTSIDE: "past the end of the shared buffer"}


@dataclass(frozen=True)
class OperandView:
    """One wgmma operand as the tensor core reads it: `addresses[r, k]` is
    the shared byte address of the first byte of element (r, k) (the
    element's bytes follow it: a swizzle moves whole 16-byte chunks)."""
    role: str
    major: str
    ptx_type: str
    element_bytes: int
    rows: int
    k: int
    descriptor: _w.Descriptor
    addresses: np.ndarray


def _int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TileUsageError("wgmma-shape", f"{what} is an int, got {value!r}")
    return int(value)


def _descriptor(descriptor) -> _w.Descriptor:
    if isinstance(descriptor, _w.Descriptor):
        descriptor.value  # checks every field as matrix_descriptor does
        return descriptor
    if isinstance(descriptor, (int, np.integer)) and not isinstance(descriptor, bool):
        return _w.decode_descriptor(int(descriptor))
    raise TileUsageError("wgmma-descriptor-field", "the descriptor is a "
                         "tile_mlir.wgmma.Descriptor or its 64-bit value, got "
                         f"{type(descriptor).__name__}")


def _shape(role, major, dtype, rows, k) -> tuple:
    """(ptx type, element bytes, rows, k) checked against the ISA's sets."""
    if role not in ROLES:
        raise TileUsageError("wgmma-shape", f"role {role!r} is not 'A' or 'B'")
    if major not in MAJORS:
        raise TileUsageError("wgmma-shape", f"major {major!r} is not 'K' or 'MN'")
    ptx = _w.ptx_type(dtype, f"{role} type", tuple(_w.K_OF))
    if major == "MN" and ptx not in _w._TRANSPOSABLE:
        raise TileUsageError("wgmma-dtype", f"an MN-major {role} of {ptx}: only f16 "
                             "and bf16 operands can be MN-major (transposed)")
    step = _w.K_OF[ptx]
    element_bytes = 32 // step      # one instruction's K is 32 bytes
    if role == "A":
        rows = _w.M if rows is None else _int(rows, "rows (M)")
        if rows != _w.M:
            raise TileUsageError("wgmma-shape", f"rows (M) {rows}: an A tile has "
                                 f"M = {_w.M} rows")
    else:
        legal = _w.legal_n(ptx)
        if rows is None or isinstance(rows, bool) or rows not in legal:
            raise TileUsageError("wgmma-shape", f"rows (N) {rows!r} is not a wgmma N "
                                 f"for {ptx}: {legal[0]}..{legal[-1]} "
                                 f"({len(legal)} values, see tile_mlir.wgmma.legal_n)")
    k = step if k is None else _int(k, "k")
    if k < step or k % step:
        raise TileUsageError("wgmma-shape", f"k {k} is not a positive multiple of "
                             f"{step}, the K of one {ptx} wgmma")
    return ptx, element_bytes, int(rows), k


def canonical_offsets(major: str, swizzle: int, lbo: int, sbo: int, rows: int, k: int,
                      element_bytes: int) -> np.ndarray:
    """Byte offsets from the start, before the swizzle, of each (row, k) in
    the canonical layout of `major` with `swizzle` span bytes (the module's
    table); shape (rows, k)."""
    r = np.arange(rows, dtype=np.int64)[:, None]
    kb = np.arange(k, dtype=np.int64)[None, :] * element_bytes
    e = element_bytes
    if major == "K":
        if swizzle == 0:
            return ((r % CORE_ROWS) * CHUNK + (r // CORE_ROWS) * sbo
                    + (kb // CHUNK) * lbo + kb % CHUNK)
        return (r % CORE_ROWS) * swizzle + (r // CORE_ROWS) * sbo + kb
    kk = kb // e
    rb = r * e
    if swizzle == 0:
        return (rb % CHUNK + (rb // CHUNK) * sbo + (kk % CORE_ROWS) * CHUNK
                + (kk // CORE_ROWS) * lbo)
    return (rb % swizzle + (rb // swizzle) * lbo + (kk % CORE_ROWS) * swizzle
            + (kk // CORE_ROWS) * sbo)


def swizzled(addresses, swizzle: int, base_offset: int = 0):
    """The addresses a wgmma with `swizzle` span bytes and `base_offset`
    reads for unswizzled `addresses`: the copy engine's XOR, its pattern
    anchored at 128-byte line `base_offset` (mod the period)."""
    if swizzle == 0:
        return addresses
    mode = contract.SPAN_TO_SWIZZLE[swizzle]
    shift = base_offset * LINE
    return swizzle_address(np.asarray(addresses, dtype=np.int64) - shift, mode) + shift


def operand_addresses(descriptor, *, role: str = "A", major: str = "K",
                      dtype="bf16", rows=None, k=None) -> OperandView:
    """The shared byte address of each element (row, k) a wgmma reads from
    the operand `descriptor` (a tile_mlir.wgmma.Descriptor or the 64-bit
    value): `role` 'A' (rows = M = 64) or 'B' (rows = N, required), `major`
    'K' or 'MN' (f16/bf16 only), `dtype` a wgmma input type (PTX name or
    builder alias), `k` elements of K (default one instruction's: 32
    bytes). Bad arguments are TileUsageErrors: [wgmma-shape], [wgmma-dtype]
    or [wgmma-descriptor-field]."""
    desc = _descriptor(descriptor)
    ptx, e, rows, k = _shape(role, major, dtype, rows, k)
    off = canonical_offsets(major, desc.swizzle, desc.lbo, desc.sbo, rows, k, e)
    addresses = swizzled(desc.start + off, desc.swizzle, desc.base_offset)
    return OperandView(role, major, ptx, e, rows, k, desc, np.asarray(addresses))


class SharedMap:
    """What each of `size` shared bytes holds: `element[b]` the global
    coordinates (outer-to-inner) of the element whose byte `byte[b]` it is,
    `kind[b]` PAYLOAD, FILL (an out-of-bounds element's fill) or UNWRITTEN,
    `width[b]` the bytes of that element (its format's).
    Byte 0 stands for an address aligned to 1024 bytes, as in the emulator.
    """

    def __init__(self, size: int):
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size must be a positive int of bytes, got {size!r}")
        self.size = size
        self.element = None
        self.byte = np.full(size, -1, dtype=np.int16)
        self.kind = np.full(size, UNWRITTEN, dtype=np.uint8)
        self.width = np.zeros(size, dtype=np.uint8)

    def load(self, offset: int, global_shape, *, box, coords, format,
             swizzle: int = 0, element_strides=None) -> "SharedMap":
        """Records one tile-mode TMA load (the emulator's model; `swizzle`
        the driver's value, 3 = 128B) of a global tensor of `global_shape`
        (outer-to-inner) into the image at byte `offset`. Returns self."""
        garr = _stand_in(global_shape, format)
        t = resolve(garr, direction="load", box=box, coords=coords,
                    element_strides=element_strides, format=format, swizzle=swizzle)
        if t.fmt.packed:
            raise ValueError(f"format {t.fmt.name}: packed formats are not "
                             "wgmma operands here")
        image = t.image
        offset = check_shared(np.empty(self.size, dtype=np.uint8), offset, image,
                              writable=False)
        addresses = np.asarray(image.byte_addresses(offset), dtype=np.int64)
        rows, payload = addresses.shape
        e = t.fmt.elem_bytes
        index = list(np.unravel_index(np.arange(rows), image.dims[:-1]))
        axes = axis_coordinates(t)
        rank = len(axes)
        if self.element is None:
            self.element = np.zeros((self.size, rank), dtype=np.int64)
        elif self.element.shape[1] != rank:
            raise ValueError(f"a rank-{rank} load into a map of rank-"
                             f"{self.element.shape[1]} loads")
        inner = np.arange(payload) // e
        coords = np.zeros((rows, payload, rank), dtype=np.int64)
        valid = np.ones((rows, payload), dtype=bool)
        for a in range(rank):
            idx = (index[a][:, None] if a < rank - 1 else inner[None, :])
            idx = np.broadcast_to(idx, (rows, payload))
            coords[..., a] = axes[a][0][idx]
            valid &= axes[a][1][idx]
        flat = addresses.reshape(-1)
        self.element[flat] = coords.reshape(-1, rank)
        self.byte[flat] = np.broadcast_to((np.arange(payload) % e)[None, :],
                                          (rows, payload)).reshape(-1)
        self.kind[flat] = np.where(valid.reshape(-1), PAYLOAD, FILL)
        self.width[flat] = e
        return self


def _stand_in(global_shape, format):
    """A zero-memory global array of `format` (only its shape matters)."""
    fmt = get_format(format)
    shape = tuple(int(d) for d in global_shape)
    return np.broadcast_to(np.zeros((), dtype=fmt.dtype), shape)


@dataclass(frozen=True)
class OperandElements:
    """What each (row, k) of an operand receives: `status[r, k]` READ (one
    whole element: `coords[r, k]`, outer-to-inner), TORN, FILLED,
    NOT_WRITTEN or OUTSIDE (STATUS_NAMES)."""
    view: OperandView
    coords: np.ndarray
    status: np.ndarray


def operand_elements(view: OperandView, shared: SharedMap) -> OperandElements:
    """The global element each (row, k) of the operand `view` reads from
    the shared bytes `shared` records."""
    if shared.element is None:
        raise ValueError("the shared map holds no load")
    rank = shared.element.shape[1]
    e = view.element_bytes
    first = view.addresses
    status = np.full(first.shape, READ, dtype=np.uint8)
    coords = np.zeros(first.shape + (rank,), dtype=np.int64)
    inside = (first >= 0) & (first + e <= shared.size)
    status[~inside] = OUTSIDE
    safe = np.where(inside, first, 0)
    coords[...] = shared.element[safe]
    for i in range(e):
        b = safe + i
        kind = shared.kind[b]
        same = (np.all(shared.element[b] == coords, axis=-1) & (shared.byte[b] == i)
                & (shared.width[b] == e))
        ok = status == READ
        status[ok & (kind == UNWRITTEN)] = NOT_WRITTEN
        ok = status == READ
        status[ok & (kind == FILL)] = FILLED
        ok = status == READ
        status[ok & ~same] = TORN
    return OperandElements(view, coords, status)


@dataclass(frozen=True)
class Mismatch:
    """A (row, k) of the operand that does not receive the element a GEMM
    reads there: `expected` global coords; `got` the element read (None
    unless status is READ); `status` as in OperandElements."""
    row: int
    k: int
    expected: tuple
    got: tuple | None
    status: int

    @property
    def why(self) -> str:
        if self.status == READ:
            return f"reads {self.got}"
        return STATUS_NAMES[self.status]


def expected_coords(view: OperandView, rank: int, origin=None, row_axis=None,
                    k_axis=None, k0: int = 0) -> np.ndarray:
    """The global coords (rows, k, rank) a GEMM reads at (row, k): `origin`
    (default zeros) plus row along `row_axis` and k0 + k along `k_axis`
    (defaults: K-major, the two inner axes (row, k); MN-major, (k, row))."""
    origin = np.zeros(rank, dtype=np.int64) if origin is None else \
        np.asarray(tuple(int(o) for o in origin), dtype=np.int64)
    if origin.shape != (rank,):
        raise ValueError(f"origin has {origin.size} coords, the loads rank {rank}")
    inner, outer = rank - 1, rank - 2
    if row_axis is None:
        row_axis = outer if view.major == "K" else inner
    if k_axis is None:
        k_axis = inner if view.major == "K" else outer
    out = np.broadcast_to(origin, (view.rows, view.k, rank)).copy()
    out[..., row_axis] += np.arange(view.rows)[:, None]
    out[..., k_axis] += int(k0) + np.arange(view.k)[None, :]
    return out


def check(view: OperandView, shared: SharedMap, *, origin=None, row_axis=None,
          k_axis=None, k0: int = 0) -> list:
    """The Mismatch of every (row, k) of `view` whose element is not the
    global element expected_coords gives (origin, axes, k0 as there), in
    row-major order; empty when the MMA reads the tile it should."""
    got = operand_elements(view, shared)
    want = expected_coords(view, got.coords.shape[-1], origin, row_axis, k_axis, k0)
    wrong = (got.status != READ) | np.any(got.coords != want, axis=-1)
    out = []
    for r, kk in zip(*np.nonzero(wrong)):
        status = int(got.status[r, kk])
        out.append(Mismatch(int(r), int(kk), tuple(int(v) for v in want[r, kk]),
                            tuple(int(v) for v in got.coords[r, kk])
                            if status == READ else None, status))
    return out


__all__ = ["OperandView", "OperandElements", "Mismatch", "SharedMap",
           "canonical_offsets", "swizzled", "operand_addresses",
           "operand_elements", "expected_coords", "check", "STATUS_NAMES",
           "READ", "TORN", "FILLED", "NOT_WRITTEN", "OUTSIDE"]
