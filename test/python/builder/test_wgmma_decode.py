"""decode_descriptor reads a wgmma matrix descriptor's fields back.

Expected values are built here from the PTX ISA's bit layout (start >> 4 in
bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45, base offset in 49-51,
swizzle code in 62-63: 0 none, 1 128B, 2 64B, 3 32B), not by the encoder.
"""

import itertools

import pytest

from tile_mlir import wgmma
from tile_mlir.errors import TileUsageError

CODE = {0: 0, 128: 1, 64: 2, 32: 3}


def by_hand(start, lbo, sbo, swizzle, base):
    return ((start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | base << 49
            | CODE[swizzle] << 62)


@pytest.mark.parametrize("start,lbo,sbo,swizzle,base", [
    (0, 16, 1024, 128, 0), (0x420, 16, 1024, 128, 0), (32, 8192, 1024, 128, 0),
    (0x3FFF0, 0x3FFF0, 0x3FFF0, 32, 7), (128, 128, 256, 0, 0), (512, 16, 512, 64, 3),
])
def test_decode_of_hand_encoded_values(start, lbo, sbo, swizzle, base):
    d = wgmma.decode_descriptor(by_hand(start, lbo, sbo, swizzle, base))
    assert (d.start, d.lbo, d.sbo, d.swizzle, d.base_offset) == (start, lbo, sbo,
                                                                  swizzle, base)


def test_round_trip_both_ways():
    for start, lbo, sbo, swizzle, base in itertools.product(
            (0, 16, 0x1230, 0x3FFF0), (16, 128, 0x3FFF0), (16, 1024, 0x20000),
            (0, 32, 64, 128), (0, 1, 7)):
        value = wgmma.matrix_descriptor(start, lbo, sbo, swizzle, base)
        assert value == by_hand(start, lbo, sbo, swizzle, base)
        d = wgmma.decode_descriptor(value)
        assert d == wgmma.Descriptor(start, lbo, sbo, swizzle, base)
        assert d.value == value


@pytest.mark.parametrize("bit", [14, 15, 30, 31, 46, 47, 48, 52, 61])
def test_a_bit_the_format_leaves_zero_is_named(bit):
    value = by_hand(0, 16, 1024, 128, 0) | 1 << bit
    with pytest.raises(TileUsageError) as err:
        wgmma.decode_descriptor(value)
    assert err.value.rule == "wgmma-descriptor-field"
    assert f"bit(s) {bit}," in str(err.value)


@pytest.mark.parametrize("value", [-1, 1 << 64, 1.0, True, "0x40"])
def test_not_a_64_bit_unsigned_int(value):
    with pytest.raises(TileUsageError) as err:
        wgmma.decode_descriptor(value)
    assert err.value.rule == "wgmma-descriptor-field"
    assert repr(value) in str(err.value)
