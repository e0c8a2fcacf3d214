"""The address arithmetic the layout kernels' geometry is written in, over
an `ops` object: `IntDynOps` here on plain ints (the CPU models), or
builders.ir.DynOps on IR values (the kernels), whose `div`/`mod` also take
runtime divisors. The helpers below (digits, boxed_offset, the output-order
tile walk) take either, so the models run the very maps the kernels emit."""

from __future__ import annotations


class IntDynOps:
    """DynOps' operations on plain ints (the CPU model of a kernel)."""

    @staticmethod
    def div(a, n):
        return a // n

    @staticmethod
    def mod(a, n):
        return a % n

    @staticmethod
    def cdiv(a, n):
        return -(-a // n)

    @staticmethod
    def min(a, b):
        return min(a, b)

    @staticmethod
    def max(a, b):
        return max(a, b)

    @staticmethod
    def ge_select(a, bound: int, x: int):
        return x if a >= bound else 0

    @staticmethod
    def xor(a, b):
        return a ^ b

    @staticmethod
    def shr(a, n):
        return a >> n

    @staticmethod
    def shl(a, n):
        return a << n

    @staticmethod
    def and_(a, m):
        return a & m


def boxed_offset(row, s, wbox: int, nb: int, box_bytes: int, elem: int, ops):
    """Byte offset of element s (>= 0) of row `row` of nb boxes of wbox
    elements side by side, box k's image at k box_bytes. A power-of-two
    width splits s into bit fields; any other width (a multiple of 16
    bytes, boxes fitted to the row) adds box_bytes - wbox elem per box
    boundary at or before s: nb - 1 compares, no division."""
    if wbox & (wbox - 1) == 0:
        log = wbox.bit_length() - 1
        return (ops.shr(s, log) * box_bytes + row * (wbox * elem)
                + ops.and_(s, wbox - 1) * elem)
    out = row * (wbox * elem) + s * elem
    for k in range(1, nb):
        out = out + ops.ge_select(s, k * wbox, box_bytes - wbox * elem)
    return out


def digits(t, radices, ops) -> list:
    """Mixed-radix digits of `t` (the last radix varies fastest)."""
    out = []
    for radix in reversed(radices):
        out.append(ops.mod(t, radix))
        t = ops.div(t, radix)
    return list(reversed(out))


class OutputOrderTiles:
    """The tile walk of the SIMT permutes: tiles numbered over the input
    axes in the output's order, the last fastest. A subclass has `perm`
    and names each input axis's tile extent (1 where the axis is not
    tiled)."""
    perm: tuple

    def tile_extent(self, axis: int) -> int:
        raise NotImplementedError

    def counts(self, dims, ops) -> list:
        return [ops.cdiv(d, self.tile_extent(a)) if self.tile_extent(a) > 1 else d
                for a, d in enumerate(dims)]

    def origin(self, t, counts, ops) -> list:
        """Input coordinates of tile t's first element."""
        coords = [None] * len(self.perm)
        for a in reversed(self.perm):
            coords[a] = ops.mod(t, counts[a]) * self.tile_extent(a)
            t = ops.div(t, counts[a])
        return coords


def product(values, one=1):
    total = one
    for v in values:
        total = total * v
    return total
