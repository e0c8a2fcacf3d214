"""Warpgroup MMA (sm_90a `wgmma.mma_async`): the PTX ISA's legal shapes and
type combinations, and the 64-bit shared-memory matrix descriptor.

Pure Python (no MLIR): the builder's `wgmma` checks its arguments here, and
host code computes descriptors here.

    matrix_descriptor(start=0x400, lbo=16, sbo=1024, swizzle=128)

A descriptor names one operand tile in shared memory: its start address,
its leading (LBO) and stride (SBO) byte offsets between 8x16-byte core
matrices, its swizzle (the TMA box's: 0, 32, 64 or 128 bytes) and base
offset. Bits: 0-13 start >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 49-51 base
offset, 62-63 swizzle code (0 none, 1 128B, 2 64B, 3 32B). decode_descriptor
reads the fields back.
"""

from __future__ import annotations

from dataclasses import dataclass

from .contract import RANGES
from .errors import TileUsageError

M = 64  # every wgmma shape is m64
# K per input type: 32 bytes of it.
K_OF = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32, "s8": 32, "u8": 32}
# The accumulator types each input type takes, and the B types beside each A.
ACCUMULATORS = {"f16": ("f16", "f32"), "bf16": ("f32",), "tf32": ("f32",),
                "e4m3": ("f16", "f32"), "e5m2": ("f16", "f32"),
                "s8": ("s32",), "u8": ("s32",)}
_PARTNERS = {"f16": ("f16",), "bf16": ("bf16",), "tf32": ("tf32",),
             "e4m3": ("e4m3", "e5m2"), "e5m2": ("e4m3", "e5m2"),
             "s8": ("s8", "u8"), "u8": ("s8", "u8")}
# The builder's dtype names (tile_mlir.contract.DTYPES) for the PTX types.
ALIASES = {"float16": "f16", "bfloat16": "bf16", "tfloat32": "tf32",
           "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2", "int8": "s8", "uint8": "u8",
           "float32": "f32", "int32": "s32"}
_FLOAT_INPUTS = ("f16", "bf16", "tf32", "e4m3", "e5m2")
_TRANSPOSABLE = ("f16", "bf16")
# Descriptor swizzle codes by swizzle bytes (sm_90's 2-bit field).
SWIZZLE_CODES = {0: 0, 128: 1, 64: 2, 32: 3}

_N = RANGES["wgmma_n"]
_DESC_BYTES = RANGES["matrix_descriptor_bytes"]
_BASE_OFFSET = RANGES["matrix_base_offset"]


def ptx_type(name, what: str, accepted) -> str:
    """The PTX type name of `name` (a PTX name or its builder dtype alias)
    if in `accepted`, else [wgmma-dtype] naming `what`."""
    ptx = ALIASES.get(name, name) if isinstance(name, str) else name
    if ptx not in accepted:
        raise TileUsageError("wgmma-dtype", f"{what} {name!r} is not one of "
                             f"{', '.join(accepted)}")
    return ptx


def legal_n(a_type: str) -> tuple[int, ...]:
    """The N a wgmma with input type `a_type` takes: multiples of 8 from 8
    to 256; for s8/u8, 8, 16, 24 and the multiples of 16 from 32."""
    a_type = ptx_type(a_type, "input type", tuple(K_OF))
    every = tuple(range(_N.min, _N.max + 1, 8))
    if a_type in ("s8", "u8"):
        return tuple(n for n in every if n <= 24 or n % 16 == 0)
    return every


@dataclass(frozen=True)
class Shape:
    """A checked wgmma form: m64nNkK with A, B and accumulator (D) types."""
    n: int
    k: int
    a: str
    b: str
    d: str

    @property
    def instruction(self) -> str:
        """The PTX opcode, e.g. wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16."""
        return (f"wgmma.mma_async.sync.aligned.m{M}n{self.n}k{self.k}"
                f".{self.d}.{self.a}.{self.b}")

    @property
    def registers(self) -> int:
        """32-bit accumulator registers per thread: N/2 (f32, s32) or N/4
        (f16, two halves a register)."""
        return self.n // 4 if self.d == "f16" else self.n // 2


def _bool(value, what: str) -> bool:
    if not isinstance(value, bool):
        raise TileUsageError("kernel-value", f"{what} is a bool, got {value!r}")
    return value


def check_shape(n, a_type, b_type, d_type, *, negate_a=False, negate_b=False,
                trans_a=False, trans_b=False, satfinite=False,
                a_in_registers=False) -> Shape:
    """The Shape of a wgmma, or the rule it breaks: [wgmma-dtype] for types
    and for negate (floating-point inputs), transpose (f16/bf16, and not of
    an A in registers) or satfinite (s32) where the types do not allow it;
    [wgmma-shape] for an N outside legal_n(a_type)."""
    a = ptx_type(a_type, "A type", tuple(K_OF))
    b = ptx_type(b_type, f"B type (beside A {a})", _PARTNERS[a])
    d = ptx_type(d_type, f"accumulator type (for {a} inputs)", ACCUMULATORS[a])
    for flag, what in ((negate_a, "negate_a"), (negate_b, "negate_b")):
        if _bool(flag, what) and a not in _FLOAT_INPUTS:
            raise TileUsageError("wgmma-dtype", f"{what}=True negates {a} inputs; "
                                 f"only {', '.join(_FLOAT_INPUTS)} inputs can be negated")
    for flag, what in ((trans_a, "trans_a"), (trans_b, "trans_b")):
        if _bool(flag, what) and a not in _TRANSPOSABLE:
            raise TileUsageError("wgmma-dtype", f"{what}=True transposes {a} inputs; "
                                 "only f16 and bf16 operands can be transposed")
    if trans_a and _bool(a_in_registers, "a_in_registers"):
        raise TileUsageError("wgmma-dtype", "trans_a=True with A in registers: only "
                             "an A in shared memory (a descriptor) can be transposed")
    if _bool(satfinite, "satfinite") and d != "s32":
        raise TileUsageError("wgmma-dtype", f"satfinite=True with a {d} accumulator; "
                             "satfinite is for s32 accumulators")
    legal = legal_n(a)
    if isinstance(n, bool) or not isinstance(n, int) or n not in legal:
        shown = ("8, 16, 24, 32, 48, ..., 256 (multiples of 16 from 32)"
                 if a in ("s8", "u8") else "8, 16, ..., 256 (multiples of 8)")
        raise TileUsageError("wgmma-shape", f"N {n!r} is not a wgmma N for {a} "
                             f"inputs: {shown}")
    return Shape(n=n, k=K_OF[a], a=a, b=b, d=d)


def _field(value, what: str) -> int:
    """A descriptor byte field: a multiple of 16 in matrix_descriptor_bytes."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TileUsageError("wgmma-descriptor-field", f"{what} is an int of bytes, "
                             f"got {value!r}")
    if not _DESC_BYTES.min <= value <= _DESC_BYTES.max or value % 16:
        raise TileUsageError("wgmma-descriptor-field", f"{what} {value} is not a "
                             f"multiple of 16 from {_DESC_BYTES.min} to {_DESC_BYTES.max}")
    return value >> 4


def k_step_bytes(major: str, swizzle: int, lbo: int, sbo: int) -> int:
    """Bytes one instruction K step moves a descriptor's start (the rule
    tile.wgmma_descriptor's k_step lowers by): 32 along a swizzled K-major
    row, two core-matrix columns (2 LBO) of an unswizzled K-major tile, two
    8-row groups of K (2 SBO swizzled, 2 LBO not) of an MN-major one.
    `major` is "K" or "MN" (either case), `swizzle` the span in bytes."""
    if major.upper() == "K":
        return 32 if swizzle else 2 * lbo
    return 2 * (sbo if swizzle else lbo)


def descriptor_fields(lbo: int, sbo: int, swizzle: int = 0, base_offset: int = 0) -> int:
    """The descriptor's bits other than the start address (checked as in
    matrix_descriptor): what a kernel ORs a runtime address into."""
    if isinstance(swizzle, bool) or swizzle not in SWIZZLE_CODES:
        raise TileUsageError("wgmma-descriptor-field", f"swizzle {swizzle!r} is not "
                             "0 (none), 32, 64 or 128 bytes")
    if (isinstance(base_offset, bool) or not isinstance(base_offset, int)
            or not _BASE_OFFSET.min <= base_offset <= _BASE_OFFSET.max):
        raise TileUsageError("wgmma-descriptor-field", f"base_offset {base_offset!r} is "
                             f"not an int from {_BASE_OFFSET.min} to {_BASE_OFFSET.max}")
    return ((_field(lbo, "lbo") << 16) | (_field(sbo, "sbo") << 32)
            | (base_offset << 49) | (SWIZZLE_CODES[swizzle] << 62))


def matrix_descriptor(start: int, lbo: int, sbo: int, swizzle: int = 0,
                      base_offset: int = 0) -> int:
    """The 64-bit wgmma matrix descriptor (an unsigned int) of a tile at
    shared address `start`, with leading byte offset `lbo`, stride byte
    offset `sbo`, `swizzle` bytes (0, 32, 64 or 128: the TMA box's swizzle
    span) and `base_offset` (0..7; 0 when the swizzle pattern starts at an
    address aligned to its repeat, 8 rows of the swizzle span).

    `start`, `lbo` and `sbo` are multiples of 16 bytes below 2^18: the
    descriptor keeps 14 bits of each, shifted right by 4. Anything else is
    a TileUsageError [wgmma-descriptor-field] naming the field."""
    return descriptor_fields(lbo, sbo, swizzle, base_offset) | _field(start, "start")


# Bits a descriptor may set: start, LBO, SBO (14 each), base offset (3) and
# swizzle (2); the rest are zero in the sm_90 format.
_USED_BITS = ((0x3FFF << 0) | (0x3FFF << 16) | (0x3FFF << 32) | (0x7 << 49) | (0x3 << 62))
SWIZZLE_OF_CODE = {code: swizzle for swizzle, code in SWIZZLE_CODES.items()}


@dataclass(frozen=True)
class Descriptor:
    """The fields of a wgmma matrix descriptor, in bytes (swizzle: the span,
    0, 32, 64 or 128). `value` encodes them again (matrix_descriptor)."""
    start: int
    lbo: int
    sbo: int
    swizzle: int = 0
    base_offset: int = 0

    @property
    def value(self) -> int:
        """The 64-bit descriptor of these fields."""
        return matrix_descriptor(self.start, self.lbo, self.sbo, self.swizzle,
                                 self.base_offset)


def decode_descriptor(value: int) -> Descriptor:
    """The fields of a 64-bit descriptor (the inverse of matrix_descriptor):
    start, LBO and SBO are the 14-bit fields shifted left by 4. A value that
    is not an unsigned 64-bit int, or sets a bit the format leaves zero, is
    a TileUsageError [wgmma-descriptor-field] naming the bits."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 64:
        raise TileUsageError("wgmma-descriptor-field", "a matrix descriptor is an "
                             f"unsigned 64-bit int, got {value!r}")
    stray = value & ~_USED_BITS
    if stray:
        bits = [b for b in range(64) if stray >> b & 1]
        raise TileUsageError("wgmma-descriptor-field", f"descriptor {value:#018x} sets "
                             f"bit(s) {', '.join(map(str, bits))}, which the format "
                             "leaves zero (used: 0-13, 16-29, 32-45, 49-51, 62-63)")
    return Descriptor(start=(value & 0x3FFF) << 4, lbo=(value >> 16 & 0x3FFF) << 4,
                      sbo=(value >> 32 & 0x3FFF) << 4,
                      swizzle=SWIZZLE_OF_CODE[value >> 62 & 0x3],
                      base_offset=value >> 49 & 0x7)
