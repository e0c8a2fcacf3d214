"""The wgmma GPU matrix as plain data (numpy, no MLIR): every kernel of
tile_mlir.testing.wgmma_kernels described by a `Config`, its shared layout
(`plan`), its inputs and the results a run must give.

A kernel: one CTA of one warpgroup (or a cluster of two, B multicast) loads
A (64 x K) and B (N x K, or their K x 64 / K x N transposes when MN-major)
with TMA into dynamic shared memory, zeroed first, issues one wgmma per
instruction K step (32 bytes of K) and writes the accumulator to Out.

Layouts (e = element bytes, s = the swizzle span, R = the tile's rows):

  K-major, swizzle s    one box of R x s/e: rows s bytes apart, 8-row groups
                        SBO = 8 s apart (LBO unused: 16); a step is 32 bytes
  K-major, none         K in 16-byte chunks, one box slot of R x 16 bytes
                        per chunk: SBO = 128 between 8-row groups, LBO = 16 R
                        between chunks; a step is 2 LBO
  MN-major, swizzle s   K x s/e boxes, one slot per s bytes of MN: K-rows s
                        apart, SBO = 8 s between 8 K-rows, LBO = K s
                        between MN runs; a step is 2 SBO
  MN-major, none        K x 8 boxes (16 bytes of MN): LBO = 128 between
                        8 K-rows, SBO = 16 K between MN chunks; a step is 2 LBO

Planted mismatches (PLANTS) change the descriptor or the copy so the MMA
reads a wrong matrix; built with checks off (the unchecked descriptor
helper) they run, and `predict` gives their result from the emulator's
wgmma view (tile_mlir.emulator.wgmma_view): each operand element the
tensor core reads is the global element the emulated loads put at that
shared address, or 0 where no load wrote (the kernel zeroes its window).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ..emulator import wgmma_view as W
from ..wgmma import Descriptor, k_step_bytes

# PTX input type -> (builder dtype, element bytes, accumulator type).
TYPES = {"bf16": ("bfloat16", 2, "f32"), "f16": ("float16", 2, "f32"),
         "tf32": ("float32", 4, "f32"), "e4m3": ("float8_e4m3fn", 1, "f32"),
         "e5m2": ("float8_e5m2", 1, "f32"), "s8": ("int8", 1, "s32"),
         "u8": ("uint8", 1, "s32")}
SPANS = {0: 0, 1: 32, 2: 64, 3: 128}        # the copy's swizzle value -> bytes
M = 64
THREADS = 128
CLUSTER = 2                                 # CTAs of a multicast kernel
INSTRUCTION_K_BYTES = 32
CHUNK = 16                                  # a core matrix row
NONE_K_BYTES = 64                           # K of an unswizzled K-major tile
MN_K = 32                                   # K of an MN-major tile (2 steps)
PERIOD = 1024                               # tiles start on a 128B swizzle period
PIN_BOX = (8, 64)                           # Plan.pin: 8 rows of 64 bf16, 128B
PIN_BYTES = 8 * 128


@dataclass(frozen=True)
class Config:
    """One kernel: input type (PTX name), the copy's swizzle (0..3), major
    ("k" or "mn", both operands), N, B multicast to a cluster of two, and
    the planted mismatch (a PLANTS key) or None."""
    dtype: str
    swizzle: int
    major: str
    n: int
    multicast: bool = False
    plant: str | None = None

    @property
    def name(self) -> str:
        sw = ("none", "32b", "64b", "128b")[self.swizzle]
        name = f"wgmma_{self.dtype}_{self.major}_{sw}_n{self.n}"
        name += "_multicast" if self.multicast else ""
        return name if self.plant is None else f"plant_{self.plant}"


@dataclass(frozen=True)
class Tile:
    """One operand's shared tile: where (`offset` in the dynamic window),
    how the copy fills it (buffer `shape`, `box`, the slot axis' coord
    step, its swizzle) and the descriptor's fields (bytes)."""
    role: str
    rows: int
    offset: int
    shape: tuple
    box: tuple
    slot_step: tuple | None
    copy_swizzle: int
    desc_swizzle: int
    lbo: int
    sbo: int
    base_offset: int = 0
    desc_shift: int = 0     # bytes the descriptor's start lies past the copy's image

    @property
    def desc_offset(self) -> int:
        """Where the descriptor's tile starts in the window."""
        return self.offset + self.desc_shift

    @property
    def slots(self) -> int:
        """Box slots the copy fills (the leading repeat axis)."""
        return self.shape[0] if len(self.shape) == 3 else 1


@dataclass(frozen=True)
class Plan:
    """A Config's shared layout: K, the instruction steps the kernel issues
    (k_step of each wgmma), the A and B tiles, the zeroed window's bytes."""
    config: Config
    k: int
    element_bytes: int
    steps: tuple
    a: Tile
    b: Tile
    window: int
    # Where a descriptor swizzles a tile its copy did not: the offset of a
    # 128B-swizzled load of A's first 8 rows, whose only job is to make
    # tile-align-dynamic-shared start the window on a 1024-byte boundary
    # (it aligns the window for the copies into it, not for descriptors),
    # where the emulator's byte 0 stands.
    pin: int | None = None
    # The kernel waits on the loads' mbarrier before its wgmmas (a plant
    # moves the wait after them).
    wait_before_mma: bool = True
    # Bytes B's descriptor moves per CTA rank of a multicast kernel (a plant:
    # the multicast image sits at one offset in every CTA).
    rank_shift: int = 0
    # The input type the descriptors and wgmmas read (a plant: another type
    # than the copies' format); None: the config's.
    read_type: str | None = None
    # The major-ness the wgmma instruction reads (a plant: tf32 has no
    # transpose, so an MN-major tile is read K-major); None: the config's.
    mma_major: str | None = None

    @property
    def read_dtype(self) -> str:
        """The PTX input type the wgmmas read."""
        return self.read_type or self.config.dtype

    @property
    def instruction_major(self) -> str:
        """The major-ness ("k" or "mn") the wgmma instruction reads."""
        return self.mma_major or self.config.major

    def step_bytes(self, tile: Tile) -> int:
        """Bytes a K step moves the start: tile.wgmma_descriptor's rule."""
        return k_step_bytes(self.config.major, SPANS[tile.desc_swizzle], tile.lbo, tile.sbo)

    def global_shape(self, role: str) -> tuple:
        """The operand's global tensor (K-major: rows x K; MN-major: K x rows)."""
        rows = (M * (CLUSTER if self.config.multicast else 1) if role == "A"
                else self.config.n)
        return (rows, self.k) if self.config.major == "k" else (self.k, rows)


def _tile(cfg: Config, role: str, rows: int, offset: int, k: int, e: int) -> Tile:
    """One operand's tile in cfg's layout (the module's table)."""
    swizzle, span = cfg.swizzle, SPANS[cfg.swizzle]
    if cfg.major == "k" and span:
        return Tile(role, rows, offset, (rows, k), (rows, k), None, swizzle, swizzle,
                    CHUNK, 8 * span)
    if cfg.major == "k":
        chunk = CHUNK // e
        return Tile(role, rows, offset, (k // chunk, rows, chunk), (rows, chunk),
                    (0, chunk), 0, 0, CHUNK * rows, 8 * CHUNK)
    run = (span or CHUNK) // e          # MN elements of one box row
    slots = rows // run
    shape = (slots, k, run) if slots > 1 else (k, run)
    step = (0, run) if slots > 1 else None
    if span:
        return Tile(role, rows, offset, shape, (k, run), step, swizzle, swizzle,
                    k * span, 8 * span)
    return Tile(role, rows, offset, shape, (k, run), step, 0, 0, 8 * CHUNK, CHUNK * k)


def _round_up(value: int, to: int) -> int:
    return -(-value // to) * to


def plan(cfg: Config) -> Plan:
    """The shared layout of `cfg` (PLANTS applied), its window sized to
    cover every byte its wgmmas read."""
    e = TYPES[cfg.dtype][1]
    span = SPANS[cfg.swizzle]
    if cfg.major == "k":
        k = (span or NONE_K_BYTES) // e
    else:
        k = MN_K
    a = _tile(cfg, "A", M, 0, k, e)
    b = _tile(cfg, "B", cfg.n, _round_up(M * k * e, PERIOD), k, e)
    steps = tuple(range(k * e // INSTRUCTION_K_BYTES))
    p = Plan(cfg, k, e, steps, a, b, 0)
    if cfg.plant is not None:
        p = PLANTS[cfg.plant].apply(p)
    ranks = CLUSTER if cfg.multicast else 1
    reach = max(int(v.addresses.max()) + e for r in range(ranks) for v in _views(p, r))
    ends = max(t.offset + int(np.prod(t.shape)) * e for t in (p.a, p.b))
    window = _round_up(max(reach, ends), PERIOD)
    pin = None
    if any(t.desc_swizzle != t.copy_swizzle for t in (p.a, p.b)):
        assert (cfg.dtype, cfg.major, k) == ("bf16", "k", 64), "the pin loads bf16 A rows"
        pin, window = window, window + PIN_BYTES
    return dataclasses.replace(p, window=window, pin=pin)


# --- planted mismatches ------------------------------------------------------

@dataclass(frozen=True)
class Plant:
    """A mismatch planted into bf16 K-major kernels of N = 64: `tile`
    changes applied to both tiles, `steps` replaces the k_steps issued;
    `rule` is the verifier's rule that rejects it with checks on (None: no
    rule says it is wrong; the run measures the emulator's model)."""
    config: Config
    rule: str | None
    why: str
    tile: dict
    steps: tuple | None = None
    tiles: tuple = ("a", "b")   # the tiles `tile` changes
    plan: dict = dataclasses.field(default_factory=dict)   # Plan field changes
    # Whether the emulator predicts the result: a race (an MMA before its
    # load completes) reads whatever the copy engine has written so far.
    predictable: bool = True

    def apply(self, p: Plan) -> Plan:
        changes = dict(self.plan)
        for name in self.tiles:
            t = getattr(p, name)
            fields = {key: (value(t, p) if callable(value) else value)
                      for key, value in self.tile.items()}
            changes[name] = dataclasses.replace(t, **fields)
        return dataclasses.replace(p, steps=self.steps or p.steps, **changes)


def _whole_rows(t: Tile, p: Plan) -> tuple:
    """One box of the whole tile: rows of K x e bytes."""
    return (t.rows, p.k)


PLANTS = {
    "swizzle_over_unswizzled_copy": Plant(
        Config("bf16", 3, "k", 64, plant="swizzle_over_unswizzled_copy"),
        "wgmma-copy-mismatch",
        "the descriptor reads 128B-swizzled rows; the copy wrote them unswizzled",
        {"copy_swizzle": 0}),
    "core_matrices_over_whole_rows": Plant(
        Config("bf16", 0, "k", 64, plant="core_matrices_over_whole_rows"),
        "wgmma-copy-mismatch",
        "the descriptor reads 16-byte core-matrix rows; the copy wrote 64-byte rows",
        {"shape": _whole_rows, "box": _whole_rows, "slot_step": None}),
    "sbo_in_bytes": Plant(
        Config("bf16", 3, "k", 64, plant="sbo_in_bytes"),
        "wgmma-swizzle-span",
        "SBO's field holds 1024 (bytes) instead of 1024 >> 4: 8-row groups "
        "16384 bytes apart",
        {"sbo": 16 * 1024}),
    "k_step_past_row": Plant(
        Config("bf16", 3, "k", 64, plant="k_step_past_row"),
        "wgmma-k-step",
        "k_steps 1..4 instead of 0..3: the last starts 128 bytes into a 128-byte row",
        {}, steps=(1, 2, 3, 4)),
    "base_offset_1": Plant(
        Config("bf16", 3, "k", 64, plant="base_offset_1"),
        "wgmma-base-offset",
        "base offset 1 on tiles at a 1024-byte boundary: every row's swizzle "
        "phase moves by one 128-byte line",
        {"base_offset": 1}),
    "line_base_offset": Plant(
        Config("bf16", 3, "k", 64, plant="line_base_offset"),
        "wgmma-base-offset",
        "A's descriptor starts one 128-byte row into its image (rows 1..64) "
        "with base offset 1, as the PTX ISA's formula for a start off the "
        "pattern boundary sets it: every row is read one line out of phase",
        {"desc_shift": 128, "base_offset": 1}, tiles=("a",)),
    "unwaited_copy": Plant(
        Config("bf16", 3, "k", 64, plant="unwaited_copy"),
        "wgmma-unwaited-copy",
        "the wgmmas run before the wait on the loads' mbarrier: they read the "
        "zeroed window while the copy engine still writes it",
        {}, plan={"wait_before_mma": False}, predictable=False),
    "f16_over_bf16_copy": Plant(
        Config("bf16", 3, "k", 64, plant="f16_over_bf16_copy"),
        "wgmma-copy-mismatch",
        "the descriptors and wgmmas read f16; the copies' format is bfloat16: "
        "each bf16 bit pattern is read as an f16 (1.0 as 1.875, 3.0 as 2.125)",
        {}, tiles=(), plan={"read_type": "f16"}),
    "a_rows_60": Plant(
        Config("bf16", 3, "k", 64, plant="a_rows_60"),
        "wgmma-tile-shape",
        "A's tile holds 60 rows (a 60-row box); every wgmma reads M = 64, so "
        "rows 60..63 read the zeroed window",
        {"rows": 60, "shape": lambda t, p: (60, p.k), "box": lambda t, p: (60, p.k)},
        tiles=("a",)),
    "tf32_mn_major": Plant(
        Config("tf32", 3, "mn", 64, plant="tf32_mn_major"),
        "wgmma-tile-dtype",
        "MN-major tf32 tiles: the instruction has no transpose for tf32, so "
        "the tensor core reads the K x MN images as K-major",
        {}, tiles=(), plan={"mma_major": "k"}),
    "base_offset_1_64b": Plant(
        Config("bf16", 2, "k", 64, plant="base_offset_1_64b"),
        "wgmma-base-offset",
        "base offset 1 on A's 64B-swizzled tile at a 1024-byte boundary: "
        "A's rows are read out of phase with B's",
        {"base_offset": 1}, tiles=("a",)),
    "base_offset_1_32b": Plant(
        Config("bf16", 1, "k", 64, plant="base_offset_1_32b"),
        "wgmma-base-offset",
        "base offset 1 on A's 32B-swizzled tile at a 1024-byte boundary: "
        "A's 16-byte chunks are read swapped where B's are not (on both "
        "tiles the swap cancels in the dot products)",
        {"base_offset": 1}, tiles=("a",)),
    "multicast_rank_offset": Plant(
        Config("bf16", 3, "k", 64, multicast=True, plant="multicast_rank_offset"),
        "wgmma-multicast-offset",
        "B's descriptor moves by 8192 bytes per CTA rank; the multicast image "
        "sits at one offset in both CTAs, so rank 1 reads the zeroed window",
        {}, plan={"rank_shift": 8192}),
}


# --- the matrix --------------------------------------------------------------

def matrix() -> list[Config]:
    """The valid kernels: every type x swizzle K-major at N = 8 and 128,
    MN-major f16/bf16 at each swizzle (N = 64; bf16 128B also 128), more N
    for bf16, and multicast forms."""
    out = [Config(t, sw, "k", n) for t in TYPES for sw in SPANS for n in (8, 128)]
    out += [Config(t, sw, "mn", 64) for t in ("bf16", "f16") for sw in SPANS]
    out += [Config("bf16", 3, "mn", 128), Config("bf16", 0, "mn", 8)]
    out += [Config("bf16", 3, "k", n) for n in (24, 64, 256)]
    out += [Config("bf16", 1, "k", 24), Config("bf16", 0, "k", 256)]
    out += [Config("bf16", 3, "k", 128, multicast=True),
            Config("f16", 2, "mn", 64, multicast=True),
            Config("e4m3", 3, "k", 64, multicast=True),
            Config("s8", 0, "k", 32, multicast=True)]
    return out


def planted() -> list[Config]:
    """The planted kernels' configs."""
    return [p.config for p in PLANTS.values()]


# --- inputs and results ------------------------------------------------------

def _minifloat_bits(values: np.ndarray, exponent_bits: int, mantissa_bits: int) -> np.ndarray:
    """Bit patterns of small integers in a sign/exponent/mantissa format
    (e4m3: 4, 3; e5m2: 5, 2); each must be exact."""
    bias = (1 << (exponent_bits - 1)) - 1
    out = np.zeros(values.shape, np.uint8)
    for index, v in np.ndenumerate(values):
        magnitude = abs(int(v))
        if magnitude == 0:
            bits = 0
        else:
            exponent = magnitude.bit_length() - 1
            mantissa = (magnitude - (1 << exponent)) << mantissa_bits
            assert mantissa % (1 << exponent) == 0, f"{v} is not exact"
            bits = (exponent + bias) << mantissa_bits | mantissa >> exponent
        out[index] = bits | (0x80 if v < 0 else 0)
    return out


def host_bits(dtype: str, values: np.ndarray) -> np.ndarray:
    """The array a kernel of input type `dtype` takes for integer `values`."""
    if dtype == "bf16":
        words = values.astype(np.float32).view(np.uint32)
        assert not np.any(words & 0xFFFF)
        return (words >> 16).astype(np.uint16)
    if dtype == "f16":
        return values.astype(np.float16)
    if dtype == "tf32":
        return values.astype(np.float32)
    if dtype in ("e4m3", "e5m2"):
        return _minifloat_bits(values, *((4, 3) if dtype == "e4m3" else (5, 2)))
    return values.astype(np.int8 if dtype == "s8" else np.uint8)


def inputs(cfg: Config, rng) -> tuple[np.ndarray, np.ndarray]:
    """Small integers, A (rows x K) and B (N x K) logically, exact in the
    input type and whose sums of products are exact in the accumulator."""
    p = plan(cfg)
    low, high = (0, 9) if cfg.dtype == "u8" else (-4, 5)
    a_rows = p.global_shape("A")[0 if cfg.major == "k" else 1]
    a = rng.integers(low, high, size=(a_rows, p.k))
    b = rng.integers(low, high, size=(cfg.n, p.k))
    return a, b


def stored(cfg: Config, logical: np.ndarray) -> np.ndarray:
    """The global tensor of a logical operand (rows x K): MN-major is K x rows."""
    return logical if cfg.major == "k" else np.ascontiguousarray(logical.T)


def out_dtype(cfg: Config):
    """Out's host dtype: int32 for an s32 accumulator, else float32."""
    return np.int32 if TYPES[cfg.dtype][2] == "s32" else np.float32


def reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The GEMM: A @ B.T, exactly (int64)."""
    return a.astype(np.int64) @ b.astype(np.int64).T


def _views(p: Plan, rank: int = 0):
    """The emulator's operand views of every wgmma CTA `rank` issues."""
    major = "K" if p.instruction_major == "k" else "MN"
    for step in p.steps:
        for t in (p.a, p.b):
            start = t.desc_offset + rank * (p.rank_shift if t.role == "B" else 0) + \
                step * p.step_bytes(t)
            desc = Descriptor(start, t.lbo, t.sbo, SPANS[t.desc_swizzle], t.base_offset)
            yield W.operand_addresses(desc, role=t.role, major=major, dtype=p.read_dtype,
                                      rows=t.rows if t.role == "B" else None)


def shared_map(p: Plan):
    """The emulator's record of the kernel's loads (CTA rank 0), over a
    3-D stand-in global tensor whose outer coordinate names the operand
    (0: A, 1: B), so a read that strays from one tile into the other is
    seen."""
    shared = W.SharedMap(p.window)
    # Only the layout matters: an unsigned format of the element's size.
    fmt = {1: "uint8", 2: "uint16", 4: "uint32"}[p.element_bytes]
    outer = [max(p.global_shape(r)[0] for r in "AB"), max(p.global_shape(r)[1] for r in "AB")]
    for index, t in enumerate((p.a, p.b)):
        slot_bytes = int(np.prod(t.box)) * p.element_bytes
        for slot in range(t.slots):
            step = t.slot_step or (0, 0)
            shared.load(t.offset + slot * slot_bytes, (2, *outer),
                        box=(1, *t.box), coords=(index, slot * step[0], slot * step[1]),
                        format=fmt, swizzle=t.copy_swizzle)
    if p.pin is not None:
        shared.load(p.pin, (2, *outer), box=(1, *PIN_BOX), coords=(0, 0, 0), format=fmt,
                    swizzle=3)
    return shared


def operand_values(p: Plan, a: np.ndarray, b: np.ndarray, rank: int = 0) -> list:
    """Per wgmma CTA `rank` issues, (A values 64 x k, B values N x k) as the
    emulator says the tensor core reads them; 0 where no load wrote (the
    zeroed window). A torn or out-of-window read cannot be predicted:
    ValueError. (Each CTA loads its own 64 rows of A to the same place.)"""
    shared = shared_map(p)
    cfg = p.config
    tensors = [read_as(cfg.dtype, p.read_dtype, stored(cfg, x))
               for x in (a[rank * M:(rank + 1) * M], b)]
    views = list(_views(p, rank))
    out = []
    for i in range(0, len(views), 2):
        pair = []
        for view in views[i:i + 2]:
            got = W.operand_elements(view, shared)
            bad = (got.status == W.TORN) | (got.status == W.OUTSIDE)
            if np.any(bad):
                raise ValueError(f"{cfg.name}: {int(bad.sum())} reads are torn or "
                                 "outside the window")
            values = np.zeros(view.addresses.shape, tensors[0].dtype)
            read = got.status == W.READ
            for (r, k) in zip(*np.nonzero(read)):
                which, x, y = got.coords[r, k]
                values[r, k] = tensors[which][x, y]
            pair.append(values)
        out.append(tuple(pair))
    return out


def read_as(stored_type: str, read_type: str, values: np.ndarray) -> np.ndarray:
    """Integer `values` stored as `stored_type` and read as `read_type`:
    the integers themselves (int64) when the types agree, else the float64
    values of their bit patterns in the read type."""
    if stored_type == read_type:
        return values.astype(np.int64)
    views = {"f16": np.float16, "bf16": None, "tf32": np.float32}
    bits = host_bits(stored_type, values)
    if read_type == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return bits.view(views[read_type]).astype(np.float64)


def predict(cfg: Config, a: np.ndarray, b: np.ndarray, rank: int = 0) -> np.ndarray:
    """Out (64 x N) of CTA `rank` as the emulator's view predicts it: int64,
    or float64 where the wgmmas read another type than the copies wrote."""
    p = plan(cfg)
    exact = p.read_dtype == cfg.dtype
    total = np.zeros((M, cfg.n), np.int64 if exact else np.float64)
    for a_read, b_read in operand_values(p, a, b, rank):
        total += a_read @ b_read.T
    return total


def predict_all(cfg: Config, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Out of every CTA (64 rows each), as predict gives them."""
    return np.vstack([predict(cfg, a, b, r)
                      for r in range(CLUSTER if cfg.multicast else 1)])
