"""Shared memory: static allocations and views of dynamic shared memory."""

from __future__ import annotations

from math import prod
from typing import Sequence

import mlir.ir as ir
from mlir.dialects import gpu, memref

from .. import contract
from ..errors import TileUsageError
from .dtypes import element_type
from .trace import current_trace
from .values import SHARED_SPACE, Buffer, checked_int, index_constant


def _static_shape(shape) -> list[int]:
    """A shared buffer's shape: positive ints ([kernel-value] otherwise), each
    an extent a memref holds (below 2^63, [int-range])."""
    dims = list(shape) if hasattr(shape, "__iter__") else None
    if not dims or not all(isinstance(d, int) and d > 0 for d in dims):
        raise TileUsageError("kernel-value", "a shared buffer's shape is a "
                             f"non-empty sequence of positive ints, got {shape!r}")
    for d in dims:
        checked_int(d, ir.IndexType.get(), f"shared buffer shape {tuple(dims)}: extent")
    return dims


def _check_align(align) -> None:
    """[kernel-value]: a shared buffer's alignment is a power of two no larger
    than a block's shared memory (a larger one cannot be honoured, and LLVM
    aborts on one beyond 2^32)."""
    most = 1 << (contract.MAX_SHARED_BYTES_PER_BLOCK.bit_length() - 1)
    if isinstance(align, bool) or not isinstance(align, int) or align < 1 or \
            align & (align - 1) or align > most:
        raise TileUsageError("kernel-value", f"alloc_shared's align is a power of two "
                             f"from 1 to {most} bytes, got {align!r}")


def alloc_shared(shape: Sequence[int], dtype: str, layout: str = "default",
                 align: int = 16) -> Buffer:
    """A static shared allocation (memref.global in address space 3)."""
    if layout != "default":
        raise TileUsageError("shared-layout", f"layout {layout!r} is not supported "
                             "(only 'default')")
    trace = current_trace("alloc_shared")
    _check_align(align)
    name = f"__tile_smem{trace.shared_count}"
    trace.shared_count += 1
    mtype = ir.MemRefType.get(_static_shape(shape), element_type(dtype),
                              memory_space=ir.IntegerAttr.get(
                                  ir.IntegerType.get_signless(64), SHARED_SPACE))
    with ir.InsertionPoint.at_block_begin(trace.module_body):
        memref.GlobalOp(name, ir.TypeAttr.get(mtype), sym_visibility="private",
                        alignment=align)
    return Buffer(memref.get_global(mtype, name))


def dynamic_shared(shape: Sequence[int], dtype: str, offset: int = 0) -> Buffer:
    """A typed view of dynamic shared memory at byte `offset`. The base is
    1024-byte aligned and after every static buffer (tile-to-ptx declares it
    the PTX dynamic window, aligned as its copies need), so a copy into the
    view needs `offset` to keep its alignment: a multiple of 128 bytes, of the
    swizzle period (1024 for 128B) when swizzled ([shared-base-alignment]).
    The kernel's dynamic size grows to cover it."""
    trace = current_trace("dynamic_shared")
    shape = _static_shape(shape)
    if not isinstance(offset, int) or offset < 0:
        raise TileUsageError("kernel-value", "dynamic_shared's offset is a byte offset, "
                             f"an int >= 0, got {offset!r}")
    elem = element_type(dtype)
    nbytes = prod(shape) * elem.width // 8
    if offset + nbytes > contract.MAX_SHARED_BYTES_PER_BLOCK:
        # No launch could give it; found here, not as an overflowing attribute.
        raise TileUsageError("shared-memory-limit", f"dynamic_shared({tuple(shape)}, "
                             f"{dtype!r}, offset={offset}) ends at byte {offset + nbytes}; "
                             f"a block has at most {contract.MAX_SHARED_BYTES_PER_BLOCK} "
                             "bytes of shared memory")
    trace.dynamic_bytes = max(trace.dynamic_bytes, offset + nbytes)
    workgroup = ir.Attribute.parse("#gpu.address_space<workgroup>")
    raw = gpu.dynamic_shared_memory(
        ir.MemRefType.get([ir.ShapedType.get_dynamic_size()],
                          ir.IntegerType.get_signless(8), memory_space=workgroup))
    view = memref.view(ir.MemRefType.get(list(shape), elem, memory_space=workgroup),
                       raw, index_constant(offset, "dynamic_shared offset"), [])
    return Buffer(view)
