"""The permute kernels' tile geometry (builders/permute.py traces it, the
CPU model runs it over ints): the tile walk of the boxes and transposing
kernels (`BoxGeometry`, `TransposeGeometry`: which tile lies where in the
input and the output, which boxes move it), and which vectors of a
transposed tile each thread loads (`ThreadLoadMap`) or stores
(`ThreadStoreMap`). Everything is written over an `ops` object: ints
(addressing.IntDynOps) or IR values (builders.ir.DynOps)."""

from __future__ import annotations

from dataclasses import dataclass

from .addressing import digits, product
from .smem_transpose import TileLayout, transpose_tile


@dataclass(frozen=True)
class TiledGeometry:
    """Tiles of `tile[a]` elements along input axis a, numbered row-major
    over the input axes in `order` (slowest first; default the output's
    order, the last output axis fastest, so consecutive tiles write
    neighbouring pieces of the output)."""
    perm: tuple
    tile: tuple
    # (axis, g): the tiles along input axis `axis` are walked g at a time,
    # the blocks slowest (the rest of the walk unchanged inside each), so
    # the tiles in flight cover a smaller region; () walks plainly.
    walk: tuple = ()
    # The input axes from the slowest tile digit to the fastest; () is the
    # output's order. Another order trades which side's runs are long.
    tile_order: tuple = ()

    @property
    def order(self) -> tuple:
        return self.tile_order or self.perm

    def counts(self, dims, ops) -> list:
        return [d if t == 1 else ops.cdiv(d, t) for d, t in zip(dims, self.tile)]

    def n_tiles(self, counts):
        return product(counts)

    def input_origin(self, t, counts, ops) -> tuple:
        radices = [counts[a] for a in self.order]
        u = [None] * len(self.perm)
        if self.walk:
            axis, g = self.walk
            p = self.order.index(axis)
            block_tiles = product(radices[:p] + radices[p + 1:]) * g
            block = ops.div(t, block_tiles)
            # The last block along the axis may hold fewer than g tiles.
            radices[p] = ops.min(radices[p] - block * g, g)
            t = t - block * block_tiles
        for j, digit in enumerate(digits(t, radices, ops)):
            u[self.order[j]] = digit
        if self.walk:
            u[axis] = u[axis] + block * g
        return tuple(x if t == 1 else x * t for x, t in zip(u, self.tile))

    def origin(self, t, counts, ops) -> tuple:
        """(input coordinates, output coordinates) of tile `t`'s first element."""
        coords = self.input_origin(t, counts, ops)
        return coords, tuple(coords[p] for p in self.perm)


class BoxGeometry(TiledGeometry):
    """build_permute_boxes: one box per tile (`tile` is the box)."""


@dataclass(frozen=True)
class TransposeGeometry(TiledGeometry):
    """build_permute_transpose: a tile is T_k x T_l elements. T_l runs along
    the input's innermost axis; T_k gathers the input axes that are the
    output's innermost, `gather_axes` (output order, m of them): the first
    (the outermost of them in the output) tiled by `tile[a]`, the others
    whole (static extents). The output is seen with those m axes merged
    into one (rank - m + 1 axes). Loads: T_l / W boxes (the gathered axes'
    extents, W along the innermost axis); stores: T_k / W boxes (T_l along
    output axis q, where the input's innermost axis lands, W along the
    merged innermost axis). Tiles are numbered in the output's order (the
    gathered axes fastest), so the tiles in flight write long runs of the
    output and the reads are the scattered side: on the H200 scattered
    writes cost more than scattered reads ((2, 1, 0) 4.03 TB/s against 3.77
    when the innermost input axis walked second fastest)."""
    layout: TileLayout = None
    gather_axes: tuple = ()

    @staticmethod
    def make(perm, tile, span: int, elem: int, gather=(), wide_in: bool = False,
             wide_out: bool = False, walk=(), order=()) -> "TransposeGeometry":
        perm = tuple(perm)
        extents_, axes, layout = transpose_tile(perm, tile, span, elem, gather, wide_in,
                                                wide_out)
        return TransposeGeometry(perm, extents_, tuple(walk), checked_tile_order(perm, order),
                                 layout, axes)

    @property
    def m(self) -> int:
        return len(self.gather_axes)

    @property
    def q(self) -> int:
        return self.perm.index(len(self.perm) - 1)

    def origin(self, t, counts, ops) -> tuple:
        """(input coordinates, coordinates in the merged output view)."""
        coords = self.input_origin(t, counts, ops)
        outer = tuple(coords[p] for p in self.perm[:len(self.perm) - self.m])
        first = self.gather_axes[0]
        scale = self.layout.t_k // self.tile[first]
        return coords, outer + (coords[first] * scale if scale > 1 else coords[first],)

    def load_boxes(self) -> list:
        """(box, inner coordinate step, byte offset in the stage) per load;
        `wide_in`: one box over the input seen as (..., D / W, W), whose
        coordinates end (inner / W, 0)."""
        lay, r = self.layout, len(self.perm)
        box = list(self.tile)
        if lay.wide_in:
            return [(tuple(box[:-1]) + (lay.t_l // lay.width, lay.width), 0, 0)]
        box[r - 1] = lay.width
        return [(tuple(box), m * lay.width, m * lay.t_k * lay.span)
                for m in range(lay.t_l // lay.width)]

    def store_boxes(self) -> list:
        lay = self.layout
        rank = len(self.perm) - self.m + 1
        box = [1] * rank
        if lay.wide_out:
            box[self.q] = lay.t_l
            return [(tuple(box[:-1]) + (lay.t_k // lay.width, lay.width), 0, 0)]
        box[self.q], box[rank - 1] = lay.t_l, lay.width
        return [(tuple(box), n * lay.width, n * lay.t_l * lay.span)
                for n in range(lay.t_k // lay.width)]

    def split(self, coords, wide: bool, ops):
        """Coordinates of a view whose innermost axis is split by W (an int
        coordinate divided in Python, any other by `ops`)."""
        if not wide:
            return coords
        w = self.layout.width
        inner = coords[-1]
        return tuple(coords[:-1]) + (inner // w if isinstance(inner, int)
                                     else ops.div(inner, w), 0)


def checked_tile_order(perm, order) -> tuple:
    """A tile order (TiledGeometry.tile_order) checked against perm."""
    order = tuple(int(a) for a in order)
    if order and sorted(order) != list(range(len(perm))):
        raise ValueError(f"order {order}: not a permutation of the {len(perm)} input axes")
    return order


@dataclass(frozen=True)
class ThreadStoreMap:
    """Which vectors of a transposed tile's output image each thread stores
    (build_permute_transpose's `thread_store`). A vector is 16 bytes, or a
    whole tile row where that is less; a tile row holds `per_row` of them,
    and thread t takes row t // per_row + i * rows_per_step, vector
    t % per_row, at steps i < `steps` (rows past T_l are skipped), so a
    warp's lanes write consecutive vectors of one output row. Written over
    `ops` so the CPU test steps the same map."""
    layout: TileLayout
    threads: int

    @property
    def vec_bytes(self) -> int:
        return min(16, self.layout.t_k * self.layout.elem)

    @property
    def per_row(self) -> int:
        return self.layout.t_k * self.layout.elem // self.vec_bytes

    @property
    def rows_per_step(self) -> int:
        if self.threads % self.per_row:
            raise ValueError(f"{self.threads} threads do not cover whole rows of "
                             f"{self.per_row} vectors")
        return self.threads // self.per_row

    @property
    def steps(self) -> int:
        return -(-self.layout.t_l // self.rows_per_step)

    @property
    def row_bytes(self) -> int:
        """Bytes from one output row of the image to the next, within a box."""
        lay = self.layout
        return lay.t_k * lay.elem if lay.wide_out else lay.span

    def lane(self, tid, ops) -> tuple:
        """(first row, first column) of thread `tid`'s vectors."""
        return ops.div(tid, self.per_row), \
            ops.mod(tid, self.per_row) * (self.vec_bytes // self.layout.elem)

    def image_byte(self, row, col, ops):
        """The logical (unswizzled) byte offset of output element (row, col)
        in the image the TMA stores read: T_k / W boxes of T_l rows of W,
        or with `wide_out` one row-major (T_l, T_k) box."""
        lay = self.layout
        if lay.wide_out:
            return row * self.row_bytes + col * lay.elem
        return (ops.div(col, lay.width) * (lay.t_l * lay.span) + row * lay.span +
                ops.mod(col, lay.width) * lay.elem)


@dataclass(frozen=True)
class ThreadLoadMap:
    """Which 16-byte vectors of a tile's input image each thread loads
    (build_permute_transpose's `thread_load`), and from where: thread t
    takes vectors t + i * threads of the image in byte order (`image_byte`;
    the last step's vectors past the image are loaded again as the image's
    last and not stored), so a warp's lanes read consecutive pieces of the
    tile's input rows. Written over `ops` so the CPU model steps the same
    map."""
    layout: TileLayout
    tile: tuple      # the tile's extent along each input axis
    threads: int

    VECTOR = 16

    @property
    def vectors(self) -> int:
        return self.layout.tile_bytes // self.VECTOR

    @property
    def steps(self) -> int:
        return -(-self.vectors // self.threads)

    @property
    def elements(self) -> int:
        """Elements in a vector."""
        return self.VECTOR // self.layout.elem

    def stored(self, i: int) -> bool:
        """Whether every thread's vector of step i lies inside the image."""
        return (i + 1) * self.threads <= self.vectors

    def image_byte(self, tid, i: int, ops):
        """The logical (unswizzled) image byte of thread tid's i-th vector
        (the image's last vector where step i's lies past it)."""
        byte = (tid + i * self.threads) * self.VECTOR
        return byte if self.stored(i) else ops.min(byte, self.layout.tile_bytes - self.VECTOR)

    def offsets(self, byte, ops) -> tuple:
        """Offsets from the tile's origin along each input axis of the
        element the copy engine's load boxes put at logical image byte
        `byte`: the boxes lie one after another (one row-major box of the
        whole tile with `wide_in`, else T_l / W boxes of W columns), each
        row-major."""
        lay = self.layout
        extents, inner = list(self.tile), 0
        if not lay.wide_in:
            box_bytes = lay.t_k * lay.span
            inner = ops.div(byte, box_bytes) * lay.width
            byte = ops.mod(byte, box_bytes)
            extents[-1] = lay.width
        out = digits(ops.div(byte, lay.elem), extents, ops)
        out[-1] = out[-1] + inner
        return tuple(out)

    def source(self, origin, byte, dims, ops) -> tuple:
        """(outer coordinates, first column) the vector at image byte `byte`
        of the tile at input coordinates `origin` reads from an input of
        extents `dims` (the innermost unsplit): an axis the tile spans is
        clamped to its last index, so every load is in bounds; what such a
        load fetches lands where the output lies past its edge. With
        `wide_in` the rows are whole numbers of W (so of vectors) and the
        column is clamped to the row's last vector; otherwise a vector
        across the row's end is read element by element, each clamped to
        the last column (`columns`)."""
        off = self.offsets(byte, ops)
        at = [o + d if t == 1 else ops.min(o + d, n - 1)
              for o, d, t, n in zip(origin[:-1], off[:-1], self.tile[:-1], dims[:-1])]
        col = origin[-1] + off[-1]
        if self.layout.wide_in:
            col = ops.min(col, dims[-1] - self.elements)
        return at, col

    def columns(self, col, inner, ops) -> list:
        """The columns of a vector at `col` read element by element (rows of
        `inner` elements), each clamped to the last."""
        return [ops.min(col + m, inner - 1) for m in range(self.elements)]
