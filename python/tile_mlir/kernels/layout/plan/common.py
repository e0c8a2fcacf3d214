"""Host-side planning of the layout kernels: what the planning of permute,
pad and unfold (plan/permute.py, plan/pad.py, plan/unfold.py) shares. Each
op's module finds the canonical form of an operation (size-1 axes dropped,
axes that stay adjacent merged), which kernel moves it, and that kernel's
static parameters. Plain Python on shapes and strides (in elements); no
MLIR, no GPU, so the choices are testable on the CPU.

The kernels read every extent at run time; what is static is the element
size, the canonical rank and permutation, and the box or tile extents. A
box may not exceed the dimension it covers (the runtime's
[box-within-dim]), so a dimension smaller than the preferred box picks a
smaller box (the next smaller power of two, or a width fitted to the row:
fitted_boxes): a handful of variants per operation, never one per shape.
"""

from __future__ import annotations

from math import gcd, prod

from ....errors import TileUsageError
from ..limits import (
    BOX_MAX,
    COORD_REACH,
    ELEM_DTYPES,
    STRIDE_ALIGN,
    VECTOR_INDEX_LIMIT,
)


def coords_reach(*shapes) -> bool:
    """Whether the copy engine's coordinates reach every element of tensor
    maps of these shapes (every extent at most COORD_REACH)."""
    return all(int(d) <= COORD_REACH for shape in shapes for d in shape)


# The inner part of a long axis seen as two (split_long_axes, split_long_pad).
SPLIT_MAX = 2 ** 20


def split_factor(*extents) -> int:
    """The largest power of two of at most SPLIT_MAX dividing every extent."""
    g = 0
    for e in extents:
        g = gcd(g, abs(int(e)))
    return min(g & -g, SPLIT_MAX)


def box_tiles(shape, box) -> int:
    """How many boxes `box` tile `shape`."""
    return prod(-(-int(d) // int(b)) for d, b in zip(shape, box))


def pow2_ceil(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def pow2_floor(n: int) -> int:
    return 1 << (int(n).bit_length() - 1) if n >= 1 else 0


def check_elem(itemsize: int, what: str = "the tensor") -> None:
    if itemsize not in ELEM_DTYPES:
        raise TileUsageError("layout-dtype", f"{what} has {itemsize}-byte elements; "
                             "the copy engine moves 1-, 2-, 4- and 8-byte elements")


def aligned(strides_bytes) -> bool:
    return all(s % STRIDE_ALIGN == 0 for s in strides_bytes)


def is_sequence(x) -> bool:
    """Whether x can be read as a sequence: iterable, not a string and not
    a 0-d array or tensor (which iterate by raising)."""
    return not isinstance(x, (str, bytes)) and hasattr(x, "__iter__") and \
        getattr(x, "shape", None) != () and getattr(x, "ndim", None) != 0


def normalize_dims(dims, rank: int) -> tuple:
    """`dims` as a tuple of non-negative axes; [layout-permutation] unless it
    is a permutation of range(rank) (negative axes count from the end)."""
    if is_sequence(dims):
        dims = tuple(dims)   # a generator is read once
    if not isinstance(dims, tuple) or \
            not all(hasattr(d, "__index__") and not isinstance(d, bool) for d in dims):
        raise TileUsageError("layout-permutation", f"dims must be a sequence of ints, "
                             f"got {dims!r}")
    items = [d.__index__() for d in dims]
    in_range = all(-rank <= d < rank for d in items)
    if not in_range or sorted(d % rank for d in items) != list(range(rank)):
        raise TileUsageError("layout-permutation", f"dims {tuple(items)} is not a "
                             f"permutation of the {rank} axes of the tensor")
    return tuple(d % rank for d in items)


def contiguous_strides(shape) -> tuple:
    out, step = [], 1
    for extent in reversed(shape):
        out.append(step)
        step *= extent
    return tuple(reversed(out))


def plan_or_dense(plan_at, shape, strides, needs_dense) -> tuple:
    """(plan, whether the input is made contiguous first): plan_at(strides),
    or plan_at of the contiguous strides where the given ones keep more than
    MAX_RANK axes apart that merge once dense ([layout-rank]) or where
    `needs_dense(plan)` (an innermost stride no tensor map reads). Where
    even the contiguous strides keep more than MAX_RANK axes apart, the
    threads' kernel (plan_at(strides, True)), of the given view or, where
    `needs_dense` says so, of its contiguous copy."""
    dense = contiguous_strides(shape)
    try:
        plan = plan_at(strides)
    except TileUsageError as err:
        if err.rule != "layout-rank":
            raise
        if tuple(strides) != dense:
            try:
                return plan_at(dense), True
            except TileUsageError as again:
                if again.rule != "layout-rank":
                    raise
        plan = plan_at(strides, True)
        if needs_dense(plan):
            return plan_at(dense, True), True
        return plan, False
    if needs_dense(plan):
        return plan_at(dense), True
    return plan, False


def box_extent(dim: int, cap: int) -> int:
    return max(1, min(cap, pow2_floor(dim)))


def inverse_permutation(dims) -> tuple:
    """The permutation that undoes `dims` (non-negative axes)."""
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return tuple(inverse)


def fitted_boxes(elem: int, d_inner: int, need: int) -> tuple | None:
    """(box width, boxes) of the fewest boxes, at most 4, of equal width (a
    multiple of 16 bytes, at most 256 elements and the input row) that hold
    `need` columns with less than 16 bytes a box to spare; None if none do.
    A tile row of 258 output columns plus the shift is 2 x 136 columns where
    power-of-two boxes took 3 x 128 (1.5x the input written to shared
    memory, the third box mostly the engine's fill)."""
    v = STRIDE_ALIGN // elem
    for nb in range(max(1, -(-need // BOX_MAX)), 5):
        wbox = -(-(-(-need // nb)) // v) * v
        if wbox <= min(BOX_MAX, d_inner):
            return wbox, nb
    return None


def vectors_fit(shape, out_shape, elem: int) -> bool:
    """Whether a vector kernel's i32 coordinates reach two tensors: every
    extent, and the output's 16-byte vector count, below
    VECTOR_INDEX_LIMIT."""
    return max(tuple(shape) + tuple(out_shape)) < VECTOR_INDEX_LIMIT and \
        prod(out_shape) * elem // STRIDE_ALIGN < VECTOR_INDEX_LIMIT
