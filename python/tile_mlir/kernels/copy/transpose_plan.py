"""The geometry of the tiled transpose (`Plan`): tiles, stages, the shared
layout of the input and output boxes, and the per-lane address maps of the
ldmatrix/stmatrix and scalar transposes.

The address maps are plain functions over an `ops` object
(`tile_mlir.builder.IntOps` for ints, `IrOps` in a kernel), so a CPU model
can run the very maps the kernels emit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ... import contract
from ..common.params import checked_params

METHODS = ("ldmatrix", "scalar")
# The transpose moves 16-bit elements: bytes of each signed or unsigned
# 16-bit element type (ElementTypes.def, Formats.def).
ELEM_BYTES = {name: contract.FORMATS[d.default_format].bits // 8
              for name, d in contract.DTYPES.items()
              if not d.signless and contract.FORMATS[d.default_format].bits == 16}
SHARED_LIMIT = contract.MAX_SHARED_BYTES_PER_BLOCK  # bytes one CTA may use


@dataclass(frozen=True)
class Plan:
    """A transpose of a (rows, cols) matrix in (TR, TC) tiles: see make_plan."""
    rows: int
    cols: int
    tile: tuple           # (TR, TC): TR rows x TC cols of `in` per tile
    stages: int           # input stages (loads in flight)
    out_stages: int       # output buffers (stores in flight)
    threads: int
    grid: int
    swizzle: int
    method: str
    dtype: str
    group: int = 1        # tile order: group x group blocks of tiles (1: row-major)
    order: str = "row"    # "row": over the input's tiles row-major; "column": column-major
    wide_in: bool = False   # one 3-D load box per tile (whole tile rows contiguous)
    wide_out: bool = False  # one 3-D store box per tile

    @property
    def elem(self) -> int:
        """Bytes per element."""
        return ELEM_BYTES[self.dtype]

    @property
    def width(self) -> int:
        """Inner extent W of every box (elements): one swizzle span."""
        return (contract.swizzle_span(self.swizzle) if self.swizzle else 128) // self.elem

    @property
    def row_bytes(self) -> int:
        """Bytes of one box row (W elements: one swizzle span)."""
        return self.width * self.elem

    @property
    def tile_bytes(self) -> int:
        """Bytes of one TR x TC tile."""
        return self.tile[0] * self.tile[1] * self.elem

    @property
    def tiles_c(self) -> int:
        """Tiles across the input's columns."""
        return self.cols // self.tile[1]

    @property
    def n_tiles(self) -> int:
        """Tiles of the whole matrix."""
        return (self.rows // self.tile[0]) * self.tiles_c

    def tile_origin(self, t, ops):
        """(i0, j0) of tile `t`: over group x group squares of tiles, then
        inside each square (group 1: plain tiles), so that the tiles in
        flight at once read and write compact regions. Order "row" walks the
        input's tile grid row-major (consecutive tiles read neighbouring
        pieces of the same input rows); "column" walks it column-major
        (consecutive tiles write neighbouring pieces of the same output
        rows)."""
        tr, tc = self.tile
        g = self.group
        minor_tiles = self.tiles_c if self.order == "row" else self.rows // tr
        if g == 1:
            major, minor = ops.div(t, minor_tiles), ops.mod(t, minor_tiles)
        else:
            square, inner = ops.div(t, g * g), ops.mod(t, g * g)
            squares = minor_tiles // g
            major = ops.div(square, squares) * g + ops.div(inner, g)
            minor = ops.mod(square, squares) * g + ops.mod(inner, g)
        ti, tj = (major, minor) if self.order == "row" else (minor, major)
        return ti * tr, tj * tc

    @property
    def warps(self) -> int:
        """Warps per CTA."""
        return self.threads // 32

    @property
    def in_offset(self) -> int:
        """Byte offset of the input stages in dynamic shared memory."""
        return 0

    @property
    def out_offset(self) -> int:
        """Byte offset of the output buffers (after the input stages)."""
        return self.stages * self.tile_bytes

    @property
    def bar_offset(self) -> int:
        """Byte offset of the stages' mbarriers (after the buffers)."""
        return (self.stages + self.out_stages) * self.tile_bytes

    @property
    def shared_bytes(self) -> int:
        """Dynamic shared memory the kernel needs, mbarriers included."""
        return self.bar_offset + 8 * self.stages

    def _box_offset(self, row, col, rows: int, cols: int, wide: bool, ops):
        """Logical byte offset of element (row, col) of a rows x cols tile
        buffer: sub-box col // W holds columns [W k, W k + W) as `rows` rows
        of W; a `wide` buffer (one 3-D box (rows, cols / W, W)) is the tile
        row-major."""
        if wide:
            return row * (cols * self.elem) + col * self.elem
        return (ops.div(col, self.width) * (rows * self.row_bytes) + row * self.row_bytes
                + ops.mod(col, self.width) * self.elem)

    def in_elem(self, r, c, ops):
        """Logical byte offset of in-tile element (r, c) in an input stage."""
        tr, tc = self.tile
        return self._box_offset(r, c, tr, tc, self.wide_in, ops)

    def out_elem(self, c, r, ops):
        """Logical byte offset of out-tile element (c, r) (= in-tile (r, c))
        in an output buffer."""
        tr, tc = self.tile
        return self._box_offset(c, r, tc, tr, self.wide_out, ops)

    # ldmatrix: per warp instruction four 8x8 blocks; lane l gives the address
    # of row l % 8 of block l // 8 (the same lanes give stmatrix's rows).
    @property
    def ld_ops_per_warp(self) -> int:
        """ldmatrix.x4.trans / stmatrix.x4 pairs each warp issues per tile."""
        tr, tc = self.tile
        return (tr // 8) * (tc // 8) // 4 // self.warps

    def ld_lane(self, warp, lane, k: int, ops):
        """(input, output) logical byte offsets of lane `lane` of warp `warp`
        for its k-th ldmatrix.x4.trans / stmatrix.x4 pair."""
        nbc = self.tile[1] // 8
        q = warp + k * self.warps
        block = q * 4 + ops.div(lane, 8)
        row = ops.mod(lane, 8)
        br, bc = ops.div(block, nbc), ops.mod(block, nbc)
        src = self.in_elem(br * 8 + row, bc * 8, ops)      # in rows, chunk bc
        dst = self.out_elem(bc * 8 + row, br * 8, ops)     # out rows, chunk br
        return src, dst

    # scalar: per warp instruction an 8-row x 4-column patch; lane l reads
    # (8 pr + l % 8, 4 pc + l // 8) and writes it transposed.
    @property
    def scalar_ops_per_warp(self) -> int:
        """8-row x 4-column patches each warp moves per tile (method "scalar")."""
        tr, tc = self.tile
        return (tr // 8) * (tc // 4) // self.warps

    def scalar_lane(self, warp, lane, k: int, ops):
        """(input, output) logical byte offsets of lane `lane` of warp `warp`
        for its k-th scalar patch (method "scalar")."""
        npc = self.tile[1] // 4
        p = warp + k * self.warps
        pr, pc = ops.div(p, npc), ops.mod(p, npc)
        r = pr * 8 + ops.mod(lane, 8)
        c = pc * 4 + ops.div(lane, 8)
        return self.in_elem(r, c, ops), self.out_elem(c, r, ops)


@checked_params
def make_plan(rows: int, cols: int, tile=(64, 64), stages: int = 4,
              out_stages: int = 2, threads: int = 128, grid: int = 264,
              swizzle: int = 3, method: str = "ldmatrix",
              dtype: str = "bfloat16", group: int = 1, order: str = "row",
              wide_in: bool = False, wide_out: bool = False) -> Plan:
    """A checked Plan: 16-bit elements, tile extents that are multiples of
    the box width W (one swizzle span) and of 8, a whole number of tiles
    (and of `group` x `group` squares of tiles), ldmatrix/scalar steps that
    split evenly over the warps, and shared memory within the CTA limit."""
    if dtype not in ELEM_BYTES:
        raise ValueError(f"dtype {dtype!r}: the transpose moves 16-bit elements "
                         f"({', '.join(ELEM_BYTES)})")
    if method not in METHODS:
        raise ValueError(f"method {method!r} is not one of {METHODS}")
    if swizzle not in (0, 1, 2, 3):
        raise ValueError("swizzle is 0..3")
    if order not in ("row", "column"):
        raise ValueError(f"order {order!r} is not 'row' or 'column'")
    plan = Plan(rows, cols, tuple(tile), stages, out_stages, threads, grid, swizzle,
                method, dtype, group, order, wide_in, wide_out)
    tr, tc = plan.tile
    w = plan.width
    for extent in (tr, tc):
        if extent % w or extent % 8 or extent not in contract.BOX_EXTENT_RANGE:
            raise ValueError(f"tile {plan.tile}: each extent must be a multiple of "
                             f"{w} (the box width) and of 8, at most "
                             f"{contract.BOX_EXTENT_RANGE.max}")
    if rows % tr or cols % tc:
        raise ValueError(f"the {rows}x{cols} matrix is not a whole number of "
                         f"{tr}x{tc} tiles")
    if group < 1 or (rows // tr) % group or (cols // tc) % group:
        raise ValueError(f"group {group} must divide the tile grid "
                         f"{rows // tr}x{cols // tc}")
    if threads % 32 or threads < 32:
        raise ValueError("threads must be a multiple of 32")
    per = {"ldmatrix": (tr // 8) * (tc // 8) // 4, "scalar": (tr // 8) * (tc // 4)}
    if method == "ldmatrix" and ((tr // 8) * (tc // 8)) % 4:
        raise ValueError("ldmatrix needs a multiple of four 8x8 blocks")
    if per[method] % plan.warps:
        raise ValueError(f"{per[method]} {method} steps per tile do not split over "
                         f"{plan.warps} warps")
    if stages < 1 or out_stages < 2:
        raise ValueError("stages >= 1 and out_stages >= 2")
    if plan.shared_bytes > SHARED_LIMIT:
        raise ValueError(f"{plan.shared_bytes} bytes of shared memory > 227 KiB")
    return plan


