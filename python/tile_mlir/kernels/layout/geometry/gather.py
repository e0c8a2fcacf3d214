"""A strided window as 16-byte vectors from whole shared chunks
(build_unfold_nchw's `gather="wide"`): output vector element e is source
element s + e sw of a row. The thread reads the 16-byte chunks under the
window (each a conflict-free 16-byte load where lanes take consecutive
vectors), aligns them to s with a word select and funnel shifts, and
picks the strided elements with byte permutes, where one shared load an
element (1-byte elements at stride 2: 16 loads, each an 8-way bank
conflict) made the kernel L1-bound.

Written over a word `ops` object (IntWordOps here for the CPU model,
builders.unfold's IR form in the kernel): words are 32-bit values, byte
offsets index values.

  sel(c, a, b)      a where c else b
  bit(x, m)         whether x & m (m a power of two) is non-zero
  fshr(hi, lo, x)   the low word of (hi:lo) >> 8 (x & 3)
  prmt(a, b, sel)   PTX prmt.b32: byte k of the result is byte sel[k] of
                    the 8 bytes of (b:a)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import STRIDE_ALIGN


class IntWordOps:
    """The word ops on Python ints (the CPU model)."""

    @staticmethod
    def sel(c, a, b):
        return a if c else b

    @staticmethod
    def bit(x, m):
        return bool(x & m)

    @staticmethod
    def fshr(hi, lo, x):
        return ((hi << 32 | lo) >> (8 * (x & 3))) & 0xFFFFFFFF

    @staticmethod
    def prmt(a, b, sel):
        both = b << 32 | a
        return sum(((both >> (8 * s)) & 0xFF) << (8 * k) for k, s in enumerate(sel))


@dataclass(frozen=True)
class StridedGather:
    """The static part of a strided vector: `elem`-byte elements at stride
    `sw` (> 1), V = 16 / elem a vector."""
    elem: int
    sw: int

    @property
    def vec(self) -> int:
        return STRIDE_ALIGN // self.elem

    @property
    def span(self) -> int:
        """Bytes from the first element's start to the last's end."""
        return (self.vec - 1) * self.sw * self.elem + self.elem

    @property
    def chunks(self) -> int:
        """16-byte chunks read: the span from any element-aligned offset
        in the first chunk."""
        return -(-(STRIDE_ALIGN - self.elem + self.span) // STRIDE_ALIGN)

    def chunk_elements(self, s: int) -> list:
        """The element index of each chunk read for a window starting at
        element s (>= 0): the chunks from the one holding s, none past the
        one holding the window's last element, so none lies past the row
        (a chunk past that repeats the last; its bytes are not used)."""
        v = self.vec
        first, last = s // v * v, (s + (self.vec - 1) * self.sw) // v * v
        return [min(first + k * v, last) for k in range(self.chunks)]

    @property
    def swap(self) -> bool:
        """Stride 2: the first two chunks are read in the order bit 3 of the
        first one's index gives (a + b, then a + 1 - b), so that the 8
        lanes of a 16-byte load phase, 2 chunks apart, read 8 distinct bank
        quads (in order, lanes 4 apart share banks: two wavefronts)."""
        return self.sw == 2

    def out_words(self, words: list, rem: object, ops) -> list:
        """The 4 output words of the window from the chunks' words (4 per
        chunk, in order) and rem, the byte offset of its first element in
        the first chunk (a multiple of elem)."""
        n_words = len(words)

        def w(i):
            return words[min(i, n_words - 1)]

        q0 = None if self.elem >= 8 else ops.bit(rem, 4)
        q1 = ops.bit(rem, 8)

        def pick(i):   # words[rem // 4 + i]
            hi = w(i + 2) if q0 is None else ops.sel(q0, w(i + 3), w(i + 2))
            lo = w(i) if q0 is None else ops.sel(q0, w(i + 1), w(i))
            return ops.sel(q1, hi, lo)

        n_stream = -(-self.span // 4)
        if self.elem >= 4:
            # Whole words: out word t is stream word (t's element) sw apart.
            per = self.elem // 4
            return [pick((t // per) * self.sw * per + t % per) for t in range(4)]
        picked = [pick(i) for i in range(n_stream + 1)]
        stream = [ops.fshr(picked[i + 1], picked[i], rem) for i in range(n_stream)]
        out = []
        for t in range(4):
            src = []
            for k in range(4):
                b = 4 * t + k
                e, within = divmod(b, self.elem)
                src.append(e * self.sw * self.elem + within)
            out.append(_gather_bytes(stream, src, ops))
        return out


def wide_gather_fits(elem: int, sw: int) -> bool:
    """Whether the wide gather reads no more shared chunks than the element
    loads it replaces (at stride 2 with 8-byte elements as many, without
    their bank conflicts)."""
    if sw < 2:
        return False
    g = StridedGather(elem, sw)
    return g.chunks <= g.vec


def _gather_bytes(stream: list, src: list, ops):
    """One word whose byte k is byte src[k] of the stream's words, by prmt
    of two words at a time."""
    groups = []
    for s in src:
        if s // 4 not in groups:
            groups.append(s // 4)
    first = groups[:2]
    a = stream[first[0]]
    b = stream[first[1]] if len(first) > 1 else a
    sel = [4 * first.index(s // 4) + s % 4 if s // 4 in first else k
           for k, s in enumerate(src)]
    if len(first) == 1 and sel == [0, 1, 2, 3]:
        out = a
    else:
        out = ops.prmt(a, b, tuple(sel))
    for g in groups[2:]:   # merge the bytes of one more word
        sel = [4 + s % 4 if s // 4 == g else k for k, s in enumerate(src)]
        out = ops.prmt(out, stream[g], tuple(sel))
    return out


def piece_sizes(elem: int, head: bool) -> tuple:
    """The power-of-two stores that write n bytes (a multiple of elem, under
    16) ending at a 16-byte boundary (head: smallest first) or starting at
    one (tail: largest first), each aligned to its size."""
    sizes = tuple(s for s in (1, 2, 4, 8) if s >= elem)
    return sizes if head else sizes[::-1]


def piece_offset(n, size: int, head: bool, ops_and):
    """Where the piece of `size` starts in the n bytes: after the smaller
    pieces (head) or the larger ones (tail)."""
    return ops_and(n, size - 1) if head else ops_and(n, 16 - 2 * size)


def piece_words(words: list, off, size: int, ops) -> list:
    """Bytes [off, off + size) of the 4 words (off dynamic, under 16), in
    the low bytes of one word (size <= 4) or two (size 8)."""
    def w(i):
        return words[min(i, 3)]

    q0, q1 = ops.bit(off, 4), ops.bit(off, 8)

    def pick(i):
        return ops.sel(q1, ops.sel(q0, w(i + 3), w(i + 2)), ops.sel(q0, w(i + 1), w(i)))
    picked = [pick(i) for i in range(3 if size == 8 else 2)]
    out = [ops.fshr(picked[1], picked[0], off)]
    if size == 8:
        out.append(ops.fshr(picked[2], picked[1], off))
    return out
