"""Tensor-map formats: storage dtypes, element sizes, OOB fill patterns.

A format is named as the dialect names it (`uint8` ... `float4_e2m1fn`).
Global arrays hold the format's storage dtype: bfloat16 as np.uint16 bit
patterns, the packed formats as np.uint8 bytes:

  float4_e2m1fn          CU 16U4_ALIGN16B (14), PTX .b4x16_p64: element 2k in
                         the low nibble of byte k; in shared memory each 8
                         bytes (16 nibbles) take a 16-byte block, the upper
                         8 bytes padding. Load only.
  float4_e2m1fn_align8b  CU 16U4_ALIGN8B (13), PTX .b4x16: nibbles as above;
                         shared memory holds them exactly as global memory
                         does (no padding). Loads and stores.
  float6_align16b        CU 16U6_ALIGN16B (15): 16 six-bit values packed in 12
                         bytes, value j of a row in bits [6j, 6j+6) of the
                         row's little-endian bit stream (an assumption: the
                         documentation shows the packing only in figures).
                         Loads (PTX .b6x16_p32) put each 12 bytes in a
                         16-byte block, the upper 4 bytes padding; stores
                         (PTX .b6p2x16) read one value per shared byte (bits
                         0..5, bits 6..7 ignored) and pack them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


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

    @property
    def elem_bytes(self) -> int:
        """Bytes of one shared-image element slot (1 for packed formats: the
        shared buffer is addressed as bytes)."""
        return max(self.bits // 8, 1)

    def packed_row_storage(self, elems: int, direction: str = "load") -> int:
        """Shared bytes of `elems` packed elements (a multiple of 16)."""
        if direction != "load" and self.name == "float6_align16b":
            return elems                      # one value per byte
        return elems // 16 * self.group_slot_bytes

    @property
    def packed(self) -> bool:
        return self.bits < 8

    @property
    def signed(self) -> bool:
        return self.dtype.kind == "i"


def _fmt(name, bits, dtype, is_float=False, nan16=False, cu=None, group=(0, 0)):
    # NaN-request fill: the 16-bit pattern 0x7FF7 repeated over the element
    # (measured on the H200 for f16, bf16, f32, f32_ftz, tf32 and f64).
    fill = (b"\xf7\x7f" * (bits // 16)) if nan16 else None
    return Format(name, bits, np.dtype(dtype), is_float, fill, group[0], group[1], cu)


FORMATS: dict[str, Format] = {f.name: f for f in (
    _fmt("uint8", 8, np.uint8, cu=0),
    _fmt("uint16", 16, np.uint16, cu=1),
    _fmt("uint32", 32, np.uint32, cu=2),
    _fmt("int32", 32, np.int32, cu=3),
    _fmt("uint64", 64, np.uint64, cu=4),
    _fmt("int64", 64, np.int64, cu=5),
    _fmt("float16", 16, np.float16, True, True, cu=6),
    _fmt("float32", 32, np.float32, True, True, cu=7),
    _fmt("float64", 64, np.float64, True, True, cu=8),
    _fmt("bfloat16", 16, np.uint16, True, True, cu=9),
    _fmt("float32_ftz", 32, np.float32, True, True, cu=10),
    _fmt("tfloat32", 32, np.float32, True, True, cu=11),
    _fmt("tfloat32_ftz", 32, np.float32, True, True, cu=12),
    # The packed sm_100 formats. The CUDA driver documents NaN-request fill
    # as unsupported for all three (fields.py rejects it).
    _fmt("float4_e2m1fn", 4, np.uint8, True, False, cu=14, group=(8, 16)),
    _fmt("float4_e2m1fn_align8b", 4, np.uint8, True, False, cu=13, group=(8, 8)),
    _fmt("float6_align16b", 6, np.uint8, True, False, cu=15, group=(12, 16)),
)}

# Spellings the builder API accepts as well.
ALIASES = {"tf32": "tfloat32", "tf32_ftz": "tfloat32_ftz"}


def get_format(name: str) -> Format:
    if not isinstance(name, str):
        raise ValueError(f"format-match: format must be a string, got {name!r}")
    key = ALIASES.get(name, name)
    if key not in FORMATS:
        raise ValueError(f"format-match: unknown format '{name}' "
                         f"(known: {', '.join(FORMATS)})")
    return FORMATS[key]


def natural_format(dtype) -> Format:
    """The format of a numpy dtype when none is given."""
    dtype = np.dtype(dtype)
    name = dtype.name
    if name == "bfloat16":
        return FORMATS["bfloat16"]
    if dtype.itemsize == 1 and (dtype.kind in "ui" or name.startswith("float8")):
        # 8-bit floats have no tensor-map type: they move as bytes.
        return FORMATS["uint8"]
    if dtype.kind in "ui":
        if dtype.itemsize == 2:
            return FORMATS["uint16"]
        if dtype.itemsize == 4:
            return FORMATS["int32" if dtype.kind == "i" else "uint32"]
        if dtype.itemsize == 8:
            return FORMATS["int64" if dtype.kind == "i" else "uint64"]
    if dtype.kind == "f" and dtype.itemsize in (2, 4, 8):
        return FORMATS[{2: "float16", 4: "float32", 8: "float64"}[dtype.itemsize]]
    raise ValueError(f"dtype-supported: numpy dtype {dtype} has no tensor-map "
                     "format")


def _matches(dtype: np.dtype, fmt: Format) -> bool:
    """Whether arrays of `dtype` hold `fmt` elements without reinterpretation.

    numpy integers carry no 'signless' type, so any integer dtype of the
    right size matches either signedness of an integer format.
    """
    if fmt.name == "bfloat16":
        return dtype.name == "bfloat16" or (dtype.kind in "ui" and dtype.itemsize == 2)
    if fmt.name == "uint8":
        return dtype.itemsize == 1 and (dtype.kind in "ui" or dtype.name.startswith("float8"))
    if fmt.packed:
        return dtype.kind in "ui" and dtype.itemsize == 1
    if fmt.is_float:
        return dtype == fmt.dtype
    return dtype.kind in "ui" and dtype.itemsize == fmt.dtype.itemsize


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
