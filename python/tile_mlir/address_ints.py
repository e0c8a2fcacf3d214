"""The int side of the address arithmetic (`tile_mlir.builder.IrOps` is the
IR side): address maps are written over an `ops` object, so the very maps
a kernel emits run on plain ints or NumPy integer arrays in a CPU model.
No MLIR here, so the models run where the bindings are not installed;
`tile_mlir.builder` re-exports IntOps for its users."""

from __future__ import annotations


class IntOps:
    """Python ints / numpy integer arrays (the CPU model)."""

    @staticmethod
    def div(a, n: int):
        """`a // n`."""
        return a // n

    @staticmethod
    def mod(a, n: int):
        """`a % n`."""
        return a % n

    @staticmethod
    def xor(a, b):
        """`a ^ b`."""
        return a ^ b

    @staticmethod
    def shr(a, n: int):
        """`a >> n`."""
        return a >> n

    @staticmethod
    def shl(a, n: int):
        """`a << n`."""
        return a << n

    @staticmethod
    def and_(a, m: int):
        """`a & m`."""
        return a & m
