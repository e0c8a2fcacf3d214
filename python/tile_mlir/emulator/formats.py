"""Tensor-map formats: storage dtypes, element sizes, OOB fill patterns.

Names, CUtensorMapDataType codes, bits and packing come from the contract
tables (tile_mlir.contract); this module adds what the emulator needs to move
bytes: numpy dtypes and the measured NaN-fill pattern. Global arrays hold the
format's storage dtype: bfloat16 as np.uint16 bit patterns, the packed formats
as np.uint8 bytes:

  float4_e2m1fn          PTX .b4x16_p64: element 2k in the low nibble of
                         byte k; in shared memory each 8 bytes (16 nibbles)
                         take a 16-byte block, the upper 8 bytes padding.
                         Load only.
  float4_e2m1fn_align8b  PTX .b4x16: nibbles as above; shared memory holds
                         them exactly as global memory does (no padding).
                         Loads and stores.
  float6_align16b        16 six-bit values packed in 12 bytes, value j of a
                         row in bits [6j, 6j+6) of the row's little-endian
                         bit stream (an assumption: the documentation shows
                         the packing only in figures). Loads (PTX .b6x16_p32)
                         put each 12 bytes in a 16-byte block, the upper 4
                         bytes padding; stores (PTX .b6p2x16) read one value
                         per shared byte (bits 0..5, bits 6..7 ignored) and
                         pack them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import contract
from ..contract import FormatInfo


@dataclass(frozen=True)
class Format:
    name: str
    bits: int               # bits of one element in global memory
    dtype: np.dtype         # storage dtype of global arrays and of the image
    is_float: bool
    nan_fill: bytes | None  # little-endian bytes of one element under oob_fill=1
    # Packed formats: each 16 elements are `group_data_bytes` bytes of data
    # in global memory and take `group_slot_bytes` bytes of shared memory
    # on loads (the data first, then padding the copy leaves unwritten).
    group_data_bytes: int = 0
    group_slot_bytes: int = 0
    cu_value: int | None = None     # CUtensorMapDataType
    info: FormatInfo | None = field(default=None, compare=False, repr=False)

    @property
    def elem_bytes(self) -> int:
        """Bytes of one shared-image element slot (1 for packed formats: the
        shared buffer is addressed as bytes)."""
        return max(self.bits // 8, 1)

    def packed_row_storage(self, elems: int, direction: str = "load") -> int:
        """Shared bytes of `elems` packed elements (a multiple of 16). A
        float6_align16b store reads one value per byte: 16 bytes per 16
        values, the size of the padded load slot."""
        return elems // 16 * self.group_slot_bytes

    @property
    def packed(self) -> bool:
        return self.bits < 8

    @property
    def signed(self) -> bool:
        return self.dtype.kind == "i"


# NaN-request fill: the 16-bit pattern 0x7FF7 repeated over the element
# (measured on the H200 for f16, bf16, f32, f32_ftz, tf32 and f64).
_NAN_FILL_16 = b"\xf7\x7f"


def _format(info: FormatInfo) -> Format:
    fill = _NAN_FILL_16 * (info.bits // 16) if info.nan_fill else None
    return Format(info.name, info.bits, np.dtype(info.numpy), info.is_float, fill,
                  info.group[0], info.group[1], info.cu_data_type, info)


FORMATS: dict[str, Format] = {name: _format(info)
                              for name, info in contract.FORMATS.items()}

# Spellings the builder API accepts as well.
ALIASES = contract.FORMAT_ALIASES


def get_format(name: str) -> Format:
    if not isinstance(name, str):
        raise ValueError(f"format-match: format must be a string, got {name!r}")
    key = ALIASES.get(name, name)
    if key not in FORMATS:
        raise ValueError(f"format-match: unknown format '{name}' "
                         f"(known: {', '.join(FORMATS)})")
    return FORMATS[key]


def natural_format(dtype) -> Format:
    """The format of a numpy dtype when none is given (numpy and ml_dtypes
    name their dtypes as the builder does: "int8", "bfloat16", "float8_e5m2")."""
    dtype = np.dtype(dtype)
    info = contract.DTYPES.get(dtype.name)
    # A packed format's arrays are bytes, never one value per element.
    if info is None or contract.FORMATS[info.default_format].packed:
        raise ValueError(f"dtype-supported: numpy dtype {dtype} has no tensor-map "
                         "format")
    return FORMATS[info.default_format]


def _matches(dtype: np.dtype, fmt: Format) -> bool:
    """Whether arrays of `dtype` hold `fmt` elements without reinterpretation.

    numpy integers carry no 'signless' type, so any integer dtype of the size
    of an integer storage dtype matches either signedness (bfloat16 and the
    packed formats are stored as unsigned integers too).
    """
    if fmt.dtype.kind in "ui":
        if dtype.kind in "ui" and dtype.itemsize == fmt.dtype.itemsize:
            return True
    info = contract.DTYPES.get(dtype.name)
    return (info is not None and fmt.name in info.formats
            and not contract.FORMATS[info.default_format].packed)


def resolve_format(dtype, format: str | None) -> Format:
    """The format of a transfer over arrays of `dtype` (checked)."""
    dtype = np.dtype(dtype)
    if format is None:
        return natural_format(dtype)
    fmt = get_format(format)
    if not _matches(dtype, fmt):
        raise ValueError(f"format-match: format {fmt.name} does not describe "
                         f"numpy dtype {dtype} (expected storage dtype "
                         f"{fmt.dtype}; formats never reinterpret)")
    return fmt


def storage_view(array: np.ndarray, fmt: Format) -> np.ndarray:
    """`array` viewed as the format's storage dtype (same bytes)."""
    if array.dtype == fmt.dtype:
        return array
    return array.view(fmt.dtype)


def fill_value(fmt: Format, oob_fill: int):
    """The storage-dtype scalar an out-of-bounds element reads as."""
    if oob_fill == 1 and fmt.nan_fill is not None:
        return np.frombuffer(fmt.nan_fill, dtype=fmt.dtype.newbyteorder("<"))[0]
    return fmt.dtype.type(0)
