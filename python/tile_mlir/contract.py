"""The contract of the copy engine as data: formats, element types,
reductions, swizzles, enum orders, driver names, limits and every rule.

Every fact is stated once, in the C++ tables the dialect is compiled from
(dialect/include/Tile/Contract/Formats.def, ElementTypes.def, Reductions.def,
DriverEnums.def, Limits.def, Rules.def and the TableGen enums); the
build writes them to
`tile_mlir/_contract.py` (tools/tile-contract-gen) and this module wraps it.
Pure Python: nothing here imports MLIR, so the runtime and the emulator can
use it on a machine without MLIR.

Names for the numbers the rest of the package (and its kernels) use, each
read from the tables rather than restated:

- ``CHUNK_BYTES`` (16): the copy engine's granule: inner box rows, outer
  global strides and inner coordinates are whole 16-byte chunks.
- ``SHARED_ALIGN`` (128): the alignment of a box's shared image (a swizzled
  one: its swizzle period, ``SwizzleInfo.period_bytes``) and of repeat slots.
- ``MAX_RANK`` (5): the most dimensions a tensor map has (``RANK_RANGE.max``).
- ``MAX_THREADS_PER_BLOCK`` (1024), ``MAX_GRID_X`` (2^31 - 1), ``MAX_GRID_YZ``
  (65535), ``MAX_CLUSTER_CTAS`` (16), ``DEFAULT_SHARED_BYTES_PER_BLOCK``
  (48 KB without opting in): launch limits.
- ``swizzle_span(swizzle)`` / ``SWIZZLE_SPAN_BYTES``: bytes of one swizzled
  row (32B -> 32, 64B -> 64, 128B and the sm_100 128B forms -> 128, none
  -> 0); ``span_to_swizzle(span)`` / ``SPAN_TO_SWIZZLE``: the plain swizzle
  of a span (32 -> 1, 64 -> 2, 128 -> 3), widest first.
- ``dtype_for_bytes(n)``: the unsigned integer dtype of n-byte elements
  ("uint8", ..., "uint64"; ``signless=True``: "i8", ..., "i64"), and
  ``dtype_bytes(name)``, the bytes of one element of a dtype.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _contract
from .errors import TileError

SOURCE_DIGEST: str = _contract.SOURCE_DIGEST
# The source files (relative to the repository root) SOURCE_DIGEST covers.
SOURCES: tuple[str, ...] = _contract.SOURCES


@dataclass(frozen=True)
class FormatInfo:
    """One tensor-map format (a row of Formats.def)."""
    name: str                   # "uint8", as the dialect's Format enum names it
    enum: int                   # the dialect's Format value
    cu_data_type: int           # CUtensorMapDataType value
    cu_name: str                # "CU_TENSOR_MAP_DATA_TYPE_UINT8"
    bits: int                   # bits of one element in global memory
    is_float: bool
    signed: bool
    storage: str                # MLIR element type a map known by format holds
    numpy: str                  # numpy dtype of host arrays ("uint16" for bf16)
    packed: bool                # sub-byte elements packed in groups of 16
    padded_packed: bool         # ... each group taking a 16-byte shared slot
    alignment: int              # bytes the base and outer strides are multiples of
    inner_multiple: int         # elements the inner global dimension is a multiple of
    packing: tuple[int, int]    # (values, bytes) of a host array's innermost axis
    group: tuple[int, int]      # (data, slot) bytes of 16 packed elements
    load_only: bool
    nan_fill: bool              # oob_fill 1 fills NaN
    load_swizzles: tuple[int, ...]
    store_swizzles: tuple[int, ...]
    store_unpacked: bool        # stores read one value per shared byte (fp6)
    flushes_subnormals: bool    # the copy flushes subnormal float32 values to zero
    rounds_tf32: bool           # the copy rounds float32 values to tf32

    def allows_swizzle(self, swizzle: int, store: bool = False) -> bool:
        return swizzle in (self.store_swizzles if store else self.load_swizzles)


@dataclass(frozen=True)
class DtypeInfo:
    """One element type with a tensor-map format (a row of ElementTypes.def)."""
    name: str                   # the builder's dtype name ("bfloat16", "i8")
    mlir: str                   # MLIR spelling ("bf16")
    default_format: str | None  # the format it has when none is given
    numpy: str                  # numpy dtype of host arrays
    signless: bool              # a signless integer: either signedness holds it
    formats: tuple[str, ...]    # every format describing it, the default first


@dataclass(frozen=True)
class SwizzleInfo:
    """One CUtensorMapSwizzle (a TILE_SWIZZLE row of DriverEnums.def)."""
    value: int
    cu_name: str                # "CU_TENSOR_MAP_SWIZZLE_128B"
    name: str                   # "128B" ("none" for 0)
    span_bytes: int             # bytes of one swizzled row, 0 for none
    period_bytes: int           # bytes after which the pattern repeats (8 rows)
    load_only: bool             # stores and reductions do not take it
    im2col_wide: bool           # cuTensorMapEncodeIm2colWide takes it
    sm100: bool                 # it needs the data-center sm_100 family


@dataclass(frozen=True)
class Range:
    """An inclusive range of integers, [min, max] (a TILE_RANGE row of
    Limits.def, or a driver enum field's values)."""
    min: int
    max: int

    def __contains__(self, value) -> bool:
        try:
            return self.min <= value <= self.max and value == int(value)
        except (TypeError, ValueError):
            return False

    def __str__(self) -> str:
        return f"{self.min}..{self.max}"   # as diagnostics spell it: "1..256"

    @property
    def values(self) -> range:
        return range(self.min, self.max + 1)


@dataclass(frozen=True)
class RuleInfo:
    """One rule of Rules.def."""
    name: str
    kind: str                   # "verify", "host", "runtime" or "device"
    text: str                   # what the rule requires
    dynamic: str = ""           # verify rules: what the host checks at run time
    device: str = ""            # verify rules: what a debug build checks on the device


FORMATS: dict[str, FormatInfo] = {
    row["name"]: FormatInfo(**row) for row in _contract.FORMATS}
FORMAT_ALIASES: dict[str, str] = dict(_contract.FORMAT_ALIASES)
FORMATS_BY_CU: dict[int, FormatInfo] = {f.cu_data_type: f for f in FORMATS.values()}

ELEMENT_TYPES: dict[str, DtypeInfo] = {
    row["mlir"]: DtypeInfo(**row) for row in _contract.ELEMENT_TYPES}
DTYPES: dict[str, DtypeInfo] = {d.name: d for d in ELEMENT_TYPES.values()}

REDUCTIONS: dict[str, tuple[str, ...]] = dict(_contract.REDUCTIONS)
# Operators whose result depends on signedness (signless integers need a format).
SIGNED_REDUCTIONS: tuple[str, ...] = _contract.SIGNED_REDUCTIONS

DIRECTIONS: tuple[str, ...] = _contract.DIRECTIONS
MODES: tuple[str, ...] = _contract.MODES
REDUCTION_OPERATORS: tuple[str, ...] = _contract.REDUCTION_OPERATORS
ENCODE_KINDS: tuple[str, ...] = _contract.ENCODE_KINDS

# CU_TENSOR_MAP_* enumerator names, indexed by the spec field's value.
DRIVER_ENUMS: dict[str, tuple[str, ...]] = dict(_contract.DRIVER_ENUMS)
SWIZZLES: tuple[str, ...] = DRIVER_ENUMS["swizzle"]
INTERLEAVES: tuple[str, ...] = DRIVER_ENUMS["interleave"]
L2_PROMOTIONS: tuple[str, ...] = DRIVER_ENUMS["l2_promotion"]
OOB_FILLS: tuple[str, ...] = DRIVER_ENUMS["oob_fill"]
WIDE_MODES: tuple[str, ...] = DRIVER_ENUMS["wide_mode"]

# The swizzles' facts, indexed by value, and the sets the rules name.
SWIZZLE_TABLE: tuple[SwizzleInfo, ...] = tuple(
    SwizzleInfo(**row) for row in _contract.SWIZZLE_TABLE)
SWIZZLE_SPAN_BYTES: tuple[int, ...] = tuple(s.span_bytes for s in SWIZZLE_TABLE)
LOAD_ONLY_SWIZZLES: tuple[int, ...] = tuple(s.value for s in SWIZZLE_TABLE if s.load_only)
IM2COL_WIDE_SWIZZLES: tuple[int, ...] = tuple(
    s.value for s in SWIZZLE_TABLE if s.im2col_wide)
SM100_SWIZZLES: tuple[int, ...] = tuple(s.value for s in SWIZZLE_TABLE if s.sm100)
# Span bytes -> the swizzle of that span every supported chip has (the sm_100
# forms share the 128-byte span), widest span first: {128: 3, 64: 2, 32: 1}.
SPAN_TO_SWIZZLE: dict[int, int] = {
    s.span_bytes: s.value
    for s in sorted(SWIZZLE_TABLE, key=lambda s: -s.span_bytes)
    if s.span_bytes and not s.sm100}

ENCODE_FUNCTIONS: dict[str, str] = dict(_contract.ENCODE_FUNCTIONS)
# Mode -> the encode kind of its tensor map ("tile" -> "tiled").
MODE_ENCODE: dict[str, str] = dict(_contract.MODE_ENCODE)

# Limits.def. RANGES: every field range by name, the driver enum fields'
# ("swizzle", "interleave", "l2_promotion", "oob_fill", "wide_mode") too.
RANGES: dict[str, Range] = {name: Range(*r) for name, r in _contract.RANGES.items()}
RANK_RANGE: Range = RANGES["rank"]
# The most dimensions a tensor map (and one copy) addresses.
MAX_RANK: int = RANK_RANGE.max
BOX_EXTENT_RANGE: Range = RANGES["box_extent"]
ELEMENT_STRIDE_RANGE: Range = RANGES["element_stride"]
INTERLEAVE_RANK_RANGE: Range = RANGES["interleave_rank"]
SWIZZLE_RANGE: Range = RANGES["swizzle"]
INTERLEAVE_RANGE: Range = RANGES["interleave"]
L2_PROMOTION_RANGE: Range = RANGES["l2_promotion"]
OOB_FILL_RANGE: Range = RANGES["oob_fill"]
# im2col: ranks, box ([pixels_per_column, channels_per_pixel]), the W-only
# forms' wHalo and wOffset; corner and offset ranges by (mode, rank) and rank.
IM2COL_RANK_RANGE: Range = RANGES["im2col_rank"]
PIXELS_PER_COLUMN_RANGE: Range = RANGES["pixels_per_column"]
CHANNELS_PER_PIXEL_RANGE: Range = RANGES["channels_per_pixel"]
IM2COL_W_HALO_RANGE: Range = RANGES["im2col_w_halo"]
IM2COL_W_128_HALO_RANGE: Range = RANGES["im2col_w_128_halo"]
IM2COL_W_OFFSET_RANGE: Range = RANGES["im2col_w_offset"]
# A copy's tensor coordinates (signed 32-bit in the instruction).
COORD_RANGE: Range = RANGES["coord"]
IM2COL_CORNER_RANGES: dict[tuple[str, int], Range] = {
    key: Range(*r) for key, r in _contract.IM2COL_CORNER_RANGES.items()}
IM2COL_OFFSET_RANGES: dict[int, Range] = {
    rank: Range(*r) for rank, r in _contract.IM2COL_OFFSET_RANGES.items()}

# The most shared memory one block can have (the verifier's [shared-size]
# limit).
MAX_SHARED_BYTES_PER_BLOCK: int = _contract.MAX_SHARED_BYTES_PER_BLOCK
# Global dimensions are 1..MAX_GLOBAL_DIM elements, strides below
# GLOBAL_STRIDE_BYTES_BOUND bytes.
MAX_GLOBAL_DIM: int = _contract.MAX_GLOBAL_DIM
GLOBAL_STRIDE_BYTES_BOUND: int = _contract.GLOBAL_STRIDE_BYTES_BOUND
# The most transaction bytes one mbarrier phase counts (tile.tx_bytes).
MAX_TX_BYTES: int = _contract.MAX_TX_BYTES
# Size and alignment of a CUtensorMap.
TENSOR_MAP_BYTES: int = _contract.TENSOR_MAP_BYTES
TENSOR_MAP_ALIGN: int = _contract.TENSOR_MAP_ALIGN
# The copy engine's 16-byte chunk: inner box rows, outer global strides and
# inner coordinates are whole chunks.
CHUNK_BYTES: int = _contract.CHUNK_BYTES
# A box's shared image starts 128-byte aligned (swizzled: on its period), and
# so do repeat slots.
SHARED_ALIGN: int = _contract.SHARED_ALIGN
# Launch limits: threads per block, a block's z extent, grid extents (x; y and z), CTAs per
# cluster, and the dynamic shared memory a kernel has without opting in.
MAX_THREADS_PER_BLOCK: int = _contract.MAX_THREADS_PER_BLOCK
MAX_BLOCK_Z: int = _contract.MAX_BLOCK_Z
MAX_GRID_X: int = _contract.MAX_GRID_X
MAX_GRID_YZ: int = _contract.MAX_GRID_YZ
MAX_CLUSTER_CTAS: int = _contract.MAX_CLUSTER_CTAS
DEFAULT_SHARED_BYTES_PER_BLOCK: int = _contract.DEFAULT_SHARED_BYTES_PER_BLOCK
# Registers one block's threads share, and the longest kernel name.
REGISTERS_PER_BLOCK: int = _contract.REGISTERS_PER_BLOCK
MAX_KERNEL_NAME_CHARS: int = _contract.MAX_KERNEL_NAME_CHARS

RULES: dict[str, RuleInfo] = {row["name"]: RuleInfo(**row) for row in _contract.RULES}
# A rule's C++ Rule enum value is its position in Rules.def (what a debug
# build's error buffer records).
RULE_NAMES_BY_CODE: tuple[str, ...] = tuple(RULES)


def format_info(name: str) -> FormatInfo:
    """The format `name` (or an alias: "tf32"); [format-match] if unknown."""
    if not isinstance(name, str):
        raise TileError("format-match", f"format must be a string, got {name!r}")
    info = FORMATS.get(FORMAT_ALIASES.get(name, name))
    if info is None:
        raise TileError("format-match", f"unknown format '{name}' "
                        f"(known: {', '.join(sorted([*FORMATS, *FORMAT_ALIASES]))})")
    return info


def rule(name: str) -> RuleInfo:
    """The rule `name`; KeyError if Rules.def has none."""
    return RULES[name]


def driver_enum_name(field: str, value: int) -> str:
    """The CU_TENSOR_MAP_* name of a spec field's value ("?" if none);
    `data_type` names a CUtensorMapDataType."""
    if field == "data_type":
        info = FORMATS_BY_CU.get(value)
        return info.cu_name if info else "?"
    names = DRIVER_ENUMS[field]
    return names[value] if isinstance(value, int) and 0 <= value < len(names) else "?"


def swizzle_span(swizzle: int) -> int:
    """Bytes of one row of `swizzle` (0 without swizzle); [swizzle-range]
    outside the table."""
    if isinstance(swizzle, bool) or swizzle not in SWIZZLE_RANGE:
        raise TileError("swizzle-range", f"swizzle {swizzle!r} is outside "
                        f"{SWIZZLE_RANGE} ({', '.join(s.name for s in SWIZZLE_TABLE)})")
    return SWIZZLE_SPAN_BYTES[int(swizzle)]


def span_to_swizzle(span: int) -> int:
    """The swizzle whose rows are `span` bytes (32, 64 or 128); 0 for 0."""
    if span == 0:
        return 0
    if span not in SPAN_TO_SWIZZLE:
        raise TileError("swizzle-range", f"no swizzle has {span!r}-byte rows "
                        f"(spans: {', '.join(map(str, SPAN_TO_SWIZZLE))})")
    return SPAN_TO_SWIZZLE[span]


def _integer_dtypes(signless: bool) -> dict[int, str]:
    """Bytes -> the unsigned (or signless) integer dtype of that size."""
    out = {}
    for d in ELEMENT_TYPES.values():
        fmt = FORMATS[d.default_format]
        # The unsigned dtypes are named as their formats ("uint8").
        named = d.signless if signless else d.name == fmt.name
        if named and not fmt.is_float and not fmt.signed and fmt.bits % 8 == 0:
            out.setdefault(fmt.bits // 8, d.name)
    return dict(sorted(out.items()))


# Bytes -> integer dtype names: {1: "uint8", 2: "uint16", 4: "uint32", 8:
# "uint64"} and, signless, {1: "i8", ..., 8: "i64"}.
UINT_DTYPES: dict[int, str] = _integer_dtypes(signless=False)
SIGNLESS_DTYPES: dict[int, str] = _integer_dtypes(signless=True)


def dtype_for_bytes(n: int, signless: bool = False) -> str:
    """The unsigned integer dtype of `n`-byte elements ("uint8" for 1), or
    the signless one ("i8"); [dtype-supported] for a size no format has."""
    table = SIGNLESS_DTYPES if signless else UINT_DTYPES
    if isinstance(n, bool) or n not in table:
        raise TileError("dtype-supported", f"no integer format has {n!r}-byte "
                        f"elements (sizes: {', '.join(map(str, table))})")
    return table[n]


def dtype_bytes(name: str) -> int:
    """Bytes of one element of dtype `name` ("bfloat16" -> 2);
    [dtype-supported] for an unknown or sub-byte dtype."""
    info = DTYPES.get(name)
    bits = FORMATS[info.default_format].bits if info else 0
    if not bits or bits % 8:
        raise TileError("dtype-supported", f"dtype {name!r} has no whole-byte "
                        "tensor-map format")
    return bits // 8
