"""The in-place shared-memory transpose of one tile, for elements of 1, 2,
4 and 8 bytes.

A tile holds T_k x T_l elements. The input image is what the TMA loads
wrote: T_l / W boxes of T_k rows of W = span / elem elements (one swizzle
span per row), box m holding columns [m W, m W + W), or with `wide_in` one
3-D box (T_k, T_l / W, W) over the input seen with its innermost axis split
by W: the tile row-major. The output image is what the TMA stores read:
T_k / W boxes of T_l rows of W, box n holding output columns [n W, n W + W),
i.e. input rows (`wide_out`: one 3-D box, row-major). Element (kk, l) (input row
kk, column l) moves to output row l, column kk.

Every extent is a power of two, so an element's logical byte offset is a
concatenation of bit fields of kk and l, and the TMA swizzle (chunk bits
4..6 ^= bits 7..9) is linear over GF(2): an element's physical offset is
the XOR of the offsets of the bits of (kk, l). A thread's elements are
(lane part) ^ (warp part) ^ (instruction part) of (kk, l), so it computes
two base offsets once and XORs a constant per access.

`ScalarTranspose` moves one element per thread and access (ld/st.shared of
1, 2, 4 or 8 bytes); its lane map is chosen so that no access has a bank
conflict (`bank_conflicts` checks it on the CPU). 2-byte elements may use
`tile_mlir.kernels.copy.transpose_plan.Plan`'s ldmatrix.trans / stmatrix maps
instead (method "ldmatrix")."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from math import prod

from ....emulator.swizzle import swizzle_address
from ..limits import SWIZZLE_SPANS

LANES = 32

def transpose_tile_extents(perm, tile, gather=()) -> tuple:
    """A transposing tile's extent along each input axis: tile[0] along the
    tiled gathered axis perm[-1 - len(gather)], the other gathered axes
    whole (`gather`, output order), tile[1] along the innermost, 1 elsewhere."""
    r = len(perm)
    axes = tuple(perm[r - 1 - len(gather):])
    extents = [1] * r
    extents[axes[0]] = int(tile[0])
    for a, g in zip(axes[1:], gather):
        extents[a] = int(g)
    extents[r - 1] = int(tile[1])
    return tuple(extents)



def _log2(n: int) -> int:
    if n < 1 or n & (n - 1):
        raise ValueError(f"{n} is not a power of two")
    return n.bit_length() - 1


@dataclass(frozen=True)
class TileLayout:
    """The shared images of a tile (see the module docstring). `k_fields`
    ((input shift, output shift, bits) per gathered axis) say where the bits
    of the input row index kk land in the output column when several input
    axes make up kk (their order differs between input and output); by
    default the output column is kk."""
    elem: int
    span: int
    t_k: int
    t_l: int
    k_fields: tuple = ()
    wide_in: bool = False    # the input image is one 3-D box: tile rows contiguous
    wide_out: bool = False   # the output image likewise

    def __post_init__(self):
        for v in (self.elem, self.span, self.t_k, self.t_l):
            _log2(v)
        if self.t_k % self.width or self.t_l % self.width:
            raise ValueError(f"tile {self.t_k}x{self.t_l}: extents are multiples of "
                             f"the row width {self.width}")
        if self.k_fields and sum(f[2] for f in self.k_fields) != _log2(self.t_k):
            raise ValueError(f"k_fields {self.k_fields} do not cover {self.t_k} rows")

    def out_column(self, kk: int) -> int:
        if not self.k_fields:
            return kk
        return sum(((kk >> i) & ((1 << b) - 1)) << o for i, o, b in self.k_fields)

    @property
    def width(self) -> int:
        return self.span // self.elem

    @property
    def swizzle(self) -> int:
        return SWIZZLE_SPANS[self.span]

    @property
    def tile_bytes(self) -> int:
        return self.t_k * self.t_l * self.elem

    def in_logical(self, kk: int, l: int) -> int:
        w = self.width
        if self.wide_in:
            return kk * self.t_l * self.elem + l * self.elem
        return (l // w) * self.t_k * self.span + kk * self.span + (l % w) * self.elem

    def out_logical(self, kk: int, l: int) -> int:
        w = self.width
        kk = self.out_column(kk)
        if self.wide_out:
            return l * self.t_k * self.elem + kk * self.elem
        return (kk // w) * self.t_l * self.span + l * self.span + (kk % w) * self.elem

    def in_phys(self, kk: int, l: int) -> int:
        return swizzle_address(self.in_logical(kk, l), self.swizzle)

    def out_phys(self, kk: int, l: int) -> int:
        return swizzle_address(self.out_logical(kk, l), self.swizzle)


def _rank(vectors) -> int:
    basis = []
    for v in vectors:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
    return len(basis)


def _conflict_free(addresses, elem: int) -> bool:
    """One warp access of `elem`-byte words at these byte offsets: every
    bank serves one 4-byte word (lanes reading the same word share it); an
    8-byte access is served per half-warp, each needing 16 distinct 8-byte
    slots of the 128-byte bank row."""
    if elem == 8:
        return all(len({(a >> 3) & 15 for a in half}) == 16
                   for half in (addresses[:16], addresses[16:]))
    words = {a >> 2 for a in addresses}
    return len({w & 31 for w in words}) == len(words)


def bank_conflicts(layout: TileLayout, lane_map) -> tuple[bool, bool]:
    """Whether the reads (input image) and the writes (output image) of one
    warp access under `lane_map` are conflict free. The offsets are linear,
    so one access decides for all (every other is an XOR translate)."""
    reads, writes = [], []
    for lane in range(LANES):
        kk = l = 0
        for b in range(5):
            if lane >> b & 1:
                kk ^= lane_map[b][0]
                l ^= lane_map[b][1]
        reads.append(layout.in_phys(kk, l))
        writes.append(layout.out_phys(kk, l))
    return _conflict_free(reads, layout.elem), _conflict_free(writes, layout.elem)


@lru_cache(maxsize=None)
def find_lane_map(layout: TileLayout, tries: int = 200000) -> tuple:
    """A lane map: for lane bit b, the (kk, l) bits it flips, 5 independent
    vectors, conflict free both ways; a seeded search (the same map every
    time). Falls back to lanes along l (conflict free reads, where the
    search finds nothing)."""
    kb, lb = _log2(layout.t_k), _log2(layout.t_l)
    units = [(1 << i, 0) for i in range(kb)] + [(0, 1 << i) for i in range(lb)]
    rnd = random.Random(2026)
    for _ in range(tries):
        lane_map = []
        for _b in range(5):
            kk = l = 0
            for u in rnd.sample(units, rnd.choice((1, 1, 2))):
                kk ^= u[0]
                l ^= u[1]
            lane_map.append((kk, l))
        if _rank(kk | l << 16 for kk, l in lane_map) < 5:
            continue
        if bank_conflicts(layout, lane_map) == (True, True):
            return tuple(lane_map)
    return tuple((0, 1 << b) if b < lb else (1 << (b - lb), 0) for b in range(5))


@dataclass(frozen=True)
class ScalarTranspose:
    """One element per thread and access: lanes by `find_lane_map`, then
    the warps, then `steps` accesses per thread, over a complement basis of
    the (kk, l) bit space."""
    layout: TileLayout
    threads: int

    def __post_init__(self):
        if self.threads % LANES or self.layout.t_k * self.layout.t_l % self.threads:
            raise ValueError(f"{self.threads} threads do not split a "
                             f"{self.layout.t_k}x{self.layout.t_l} tile")
        _log2(self.threads)

    @property
    def lane_map(self) -> tuple:
        return find_lane_map(self.layout)

    def _complement(self) -> list:
        """Unit vectors completing the lane map to a basis of (kk, l)."""
        kb, lb = _log2(self.layout.t_k), _log2(self.layout.t_l)
        basis = [kk | l << 16 for kk, l in self.lane_map]
        extra = []
        for unit in [1 << i for i in range(kb)] + [1 << (16 + i) for i in range(lb)]:
            if _rank(basis + [unit]) > len(basis):
                basis.append(unit)
                extra.append((unit & 0xFFFF, unit >> 16))
        return extra

    @property
    def warp_basis(self) -> list:
        return self._complement()[:_log2(self.threads // LANES)]

    @property
    def step_basis(self) -> list:
        return self._complement()[_log2(self.threads // LANES):]

    @property
    def steps(self) -> int:
        return self.layout.t_k * self.layout.t_l // self.threads

    def element(self, lane: int, warp: int, step: int) -> tuple:
        """(kk, l) of a thread's access `step` (the CPU model)."""
        kk = l = 0
        for bits, basis in ((lane, self.lane_map), (warp, self.warp_basis),
                            (step, self.step_basis)):
            for b, (vk, vl) in enumerate(basis):
                if bits >> b & 1:
                    kk ^= vk
                    l ^= vl
        return kk, l

    def bases(self, lane, warp, ops, image: str):
        """The physical offset of a thread's access 0 in the `image` ("in"
        or "out"): XOR of its lane and warp bits' offsets (over `ops`)."""
        phys = self.layout.in_phys if image == "in" else self.layout.out_phys
        total = None
        for bits, basis in ((lane, self.lane_map), (warp, self.warp_basis)):
            for b, (vk, vl) in enumerate(basis):
                term = ops.and_(ops.shr(bits, b), 1) * phys(vk, vl)
                total = term if total is None else ops.xor(total, term)
        return total

    def step_offset(self, step: int, image: str) -> int:
        """The XOR constant of access `step` (0 for step 0)."""
        phys = self.layout.in_phys if image == "in" else self.layout.out_phys
        kk, l = self.element(0, 0, step)
        return phys(kk, l)


def transpose_tile(perm, tile, span: int, elem: int, gather=(), wide_in: bool = False,
                   wide_out: bool = False) -> tuple:
    """(extent along each input axis, gathered axes, TileLayout) of a
    transposing tile (geometry.permute.TransposeGeometry): the gathered axes
    are the output's innermost after the one the input's innermost lands
    on; their bits make up the tile's rows in the input's order and its
    columns in the output's (`k_fields`, empty where the orders agree)."""
    perm = tuple(perm)
    gather = tuple(int(g) for g in gather)
    axes = perm[len(perm) - 1 - len(gather):]
    extents = transpose_tile_extents(perm, tile, gather)
    logs = {a: extents[a].bit_length() - 1 for a in axes}
    fields = []
    for a in axes:
        in_shift = sum(logs[b] for b in axes if b > a)
        out_shift = sum(logs[b] for b in axes[axes.index(a) + 1:])
        fields.append((in_shift, out_shift, logs[a]))
    identity = all(i == o for i, o, _ in fields)
    layout = TileLayout(elem, span, prod(extents[a] for a in axes), extents[-1],
                        () if identity else tuple(fields), bool(wide_in), bool(wide_out))
    return tuple(extents), axes, layout


def transpose_method(layout: TileLayout, method: str | None) -> str:
    """The in-place transpose of `layout`'s tile: `method`, by default
    ldmatrix for 2-byte elements, else scalar; scalar wherever the
    gathered axes' bits move (`k_fields`: ldmatrix cannot reorder them)."""
    elem = layout.elem
    method = "scalar" if layout.k_fields else method or ("ldmatrix" if elem == 2 else "scalar")
    if method not in ("ldmatrix", "scalar") or (method == "ldmatrix" and elem != 2):
        raise ValueError(f"method {method!r}: 'scalar', or 'ldmatrix' for 2-byte elements")
    return method


LDMATRIX_STEP = 256   # elements an ldmatrix.x4 (four 8 x 8 blocks) moves


def threads_error(layout: TileLayout, threads: int, method: str) -> str | None:
    """Why `threads` cannot share the in-place transpose of `layout`'s tile
    (None where they can): ldmatrix.x4 steps split evenly over the warps,
    at least one each; the scalar transpose's elements over the threads."""
    if method == "ldmatrix":
        steps, warps = layout.t_k * layout.t_l // LDMATRIX_STEP, threads // LANES
        if threads % LANES or steps % warps or not steps // warps:
            return f"{steps} ldmatrix.x4 steps do not split over {warps} warps"
        return None
    try:
        ScalarTranspose(layout, threads)
    except ValueError as err:
        return str(err)
    return None
