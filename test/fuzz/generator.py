"""Seeded generator of random `tile.tma_copy` forms (pure Python, no MLIR:
the contract's tables come from tile_mlir.contract).

Each case is a pure function of `(seed, index)`: `generate(seed, index)`
always returns the same case, so a failure is reproduced from the two numbers
alone (`run_fuzz.py --seed S --case I`).

A case is one `gpu.module` holding one kernel with one `tile.tma_copy` (and,
sometimes, a `tile.tx_bytes` and a `tile.prefetch_tensormap` of the copy's
tag). Three kinds:

* ``valid``: built to satisfy every rule of the contract (direction, mode,
  rank, qualifiers, reduction and dtype, box, coordinates, steps, swizzle
  (0..6) and padded rows, interleave, the packed formats (float4_e2m1fn,
  float4_e2m1fn_align8b, float6_align16b), gather4/scatter4, im2col
  (im2col, im2col_w, im2col_w_128 loads and prefetches, im2col_no_offs
  stores and reductions: offsets, wHalo/wOffset, bounding-box corners),
  L2 prefetches (no shared operand), shared image and alignment, global
  strides and dims, opaque tensor maps, targets and PTX versions). The
  verifier should accept these; a rejection is reported as
  a finding (`valid_rejected`), not as a failure, because it is either a
  generator slip or an over-strict rule worth a look.
* ``mutated``: a valid form with one to three semantic mutations (a field set
  to a wrong, out-of-range, negative or huge value, an operand dropped or
  added, a wrong address space, layout, dtype or target). The IR stays well
  formed, so every rejection must name a rule of Rules.def.
* ``garbage``: the text of a valid or mutated case damaged at the token
  level (truncated, tokens dropped, duplicated or replaced, brackets and
  quotes broken, literals made too large, operands of the wrong type). These
  may also fail with MLIR's own parser messages.

Around the copy: its shared operand is a memref.global, a kernel argument
(declared aligned with memref.assume_alignment), a memref.view of the
dynamic shared memory at a constant or runtime byte offset, one stage of a
ring global (a strided subview) or a workgroup attribution; a multicast
copy's kernel declares its cluster (tile.cluster_size, known_cluster_size or
nvvm.cluster_dim) and may take a constant cta_mask. Kernels are ones a host
can launch (one thread a block): a load's mbarrier is a shared allocation (a
memref.global), initialised for one arrival and armed by an
`mbarrier.arrive.expect_tx` with the copy's bytes, then waited on; some
vary that accounting: the bytes of `tile.tx_bytes`, or a constant computed
here (times a loop's trip count when the copy sits in a constant-trip
`scf.for`), or a run-time count, the expect_tx after the copy, no wait.
Run-time i16 operands (cta_mask, im2col offsets) are i32 parameters
truncated. Mutations misalign views, drop or break the cluster, set mask
bits beyond it, get the expected bytes wrong and leave the barrier
uninitialised or unarmed (named by [barrier-tx-mismatch],
[mbarrier-uninitialized] and [mbarrier-unarmed] when tile-lower-tma runs).
Two forms keep a parameter no host can pass, for the verifier's sake: a
shared memref and an opaque tensor-map pointer as kernel parameters
(compile rejects those kernels with [kernel-param-type]).

The copy is written in the keyword form, as a PTX opcode string (also
mutated PTX strings; `cp.async.bulk.prefetch.tensor...` for prefetches) or in
the generic form (which reaches the opcode checks the custom syntax cannot
express, and a shared operand on a prefetch or none on a load; its
operandSegmentSizes are shared, global, coords, rows, offsets, mbar,
cta_mask, cache_policy). Each case is rendered as textual IR and, when the
form is expressible through `tile_mlir.tma.apply`, as builder call arguments
(values named by their SSA names in the IR, which the driver resolves after
parsing the IR without the copy).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

from tile_mlir import contract

# ---------------------------------------------------------------------------
# The contract's tables (tile_mlir.contract, generated from the C++ tables;
# pure Python). Used only to bias generation towards forms that verify.
_FORMATS = contract.FORMATS
_ELEMENTS = contract.ELEMENT_TYPES

ELEM_BITS = {mlir: _FORMATS[e.default_format].bits for mlir, e in _ELEMENTS.items()}
NATURAL_FORMAT = {mlir: e.default_format for mlir, e in _ELEMENTS.items()}
FORMAT_ALIASES = {  # explicit formats that describe an element type exactly
    mlir: list(e.formats[1:]) for mlir, e in _ELEMENTS.items() if len(e.formats) > 1}
FORMATS = list(_FORMATS)
# Formats the driver fills NaN for (oob_fill 1): float, not packed.
NAN_FILL_FORMATS = {name for name, f in _FORMATS.items() if f.nan_fill}
FORMAT_BITS = {name: f.bits for name, f in _FORMATS.items()}
# The packed sm_100 formats; the padded ones keep 16 elements per 16 bytes
# in shared memory (inner box 128).
PACKED_FORMATS = tuple(name for name, f in _FORMATS.items() if f.packed)
PADDED_FORMATS = tuple(name for name, f in _FORMATS.items() if f.padded_packed)
PACKED_ELEMS = tuple(mlir for mlir, fmt in NATURAL_FORMAT.items()
                     if _FORMATS[fmt].packed)
# Element types with no tensor-map format (dtype-supported).
UNSUPPORTED_ELEMS = ["i1", "i4", "i24", "i128", "index", "f80", "f128", "tf32",
                     "complex<f32>", "vector<4xf32>", "si4"]
# Modes. im2col maps take [pixels_per_column, channels_per_pixel] boxes.
IM2COL_MODES = tuple(m for m, enc in contract.MODE_ENCODE.items() if enc != "tiled")
WIDE_MODES = tuple(m for m, enc in contract.MODE_ENCODE.items() if enc == "im2col_wide")
MODES = contract.MODES
DIRECTIONS = contract.DIRECTIONS
PTX_MODES = {"tile": "tile", "gather4": "tile::gather4",
             "scatter4": "tile::scatter4", "im2col": "im2col",
             "im2col_w": "im2col::w", "im2col_w_128": "im2col::w::128",
             "im2col_no_offs": "im2col_no_offs"}
# Largest per-block shared memory the verifier allows ([shared-size]), and
# the most static shared memory ptxas accepts on sm_90/sm_100.
SHARED_LIMIT = contract.MAX_SHARED_BYTES_PER_BLOCK
# Bytes of the swizzle span (4..6 are the sm_100 128-byte atom variants).
SWIZZLE_SPAN = dict(enumerate(contract.SWIZZLE_SPAN_BYTES))
# The sm_100 swizzles every direction takes, and those only loads take.
SM100_SWIZZLES = [s for s in contract.SM100_SWIZZLES
                  if s not in contract.LOAD_ONLY_SWIZZLES]
LOAD_ONLY_SWIZZLES = list(contract.LOAD_ONLY_SWIZZLES)
REDUCTIONS = list(contract.REDUCTION_OPERATORS)


def _reduction_forms(op: str) -> list:
    """(element type, explicit format or None) pairs reduction `op` accepts:
    its formats, and a signless integer with no format only where the
    operator ignores signedness ([reduction-signedness])."""
    formats = contract.REDUCTIONS[op]
    forms = []
    for mlir, e in _ELEMENTS.items():
        if e.default_format in formats and not (
                e.signless and op in contract.SIGNED_REDUCTIONS):
            forms.append((mlir, None))
        forms += [(mlir, fmt) for fmt in e.formats if fmt in formats]
    return forms


REDUCTION_FORMS = {op: _reduction_forms(op) for op in REDUCTIONS}

# Targets: (chip, features or None) -> (sm, arch-specific, PTX version), as
# Contract.cpp reads them (without +ptxNN: 7.8 for sm_90, 8.0 for sm_90a, 8.6
# for sm_100 and later).
TARGETS = [
    ("sm_90a", "+ptx86"), ("sm_90a", None), ("sm_90a", "+ptx80"),
    ("sm_90a", "+ptx85"), ("sm_90a", "+ptx87"), ("sm_90", "+ptx86"),
    ("sm_90", None), ("sm_100a", None), ("sm_100a", "+ptx86"),
    ("sm_100a", "+ptx88"), ("sm_100", None), ("sm_100f", None),
    ("sm_101a", None), ("sm_103a", "+ptx88"), ("sm_110a", None),
    ("sm_120a", None), ("sm_120a", "+ptx87"), ("sm_120", None),
    ("sm_80", None), ("sm_89", "+ptx86"), ("sm_75", None),
    ("sm_90a", "+ptx86,+foo"), ("sm_100a", "+ptx90"),
]
DC_BLACKWELL = {100, 101, 103, 110}


def target_info(chip: str, features: str | None):
    """(sm, arch_specific, ptx) the verifier derives, or None if ignored."""
    if not chip.startswith("sm_"):
        return None
    rest = chip[3:]
    digits = len(rest) - len(rest.lstrip("0123456789"))
    if digits == 0:
        return None
    sm = int(rest[:digits])
    if sm >= 2 ** 31:
        return None
    suffix = rest[digits:]
    arch = suffix in ("a", "f")
    ptx = 86 if sm >= 100 else (80 if sm >= 90 and arch else 78)
    for feat in (features or "").split(","):
        feat = feat.strip()
        if feat.startswith("+ptx") and feat[4:].isdigit() and int(feat[4:]) < 2 ** 31:
            ptx = int(feat[4:])
    return sm, arch, ptx


I32_MIN, I32_MAX = -2 ** 31, 2 ** 31 - 1
I64_MIN, I64_MAX = -2 ** 63, 2 ** 63 - 1
HUGE_I64 = [2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 40, 2 ** 62,
            I64_MAX, I64_MIN, -2 ** 31, -1, 0, 257, 4096, 65536]
HUGE_I32 = [I32_MAX, I32_MIN, -1, 0, 4, 5, 7, 255, 256, 65536, 2 ** 30,
            -2 ** 30, 4294967295]


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def stride_unit(bits: int, align_bytes: int) -> int:
    """The fewest elements of `bits` bits that fill a multiple of align_bytes."""
    return 8 * align_bytes // math.gcd(bits, 8 * align_bytes)


def _im2col_rank(rank: int) -> int:
    """`rank`, or the largest im2col rank for a mutated one outside them."""
    return rank if rank in contract.IM2COL_RANK_RANGE else contract.IM2COL_RANK_RANGE.max


def corner_range(mode: str, rank: int) -> tuple:
    """Signed range of one im2col corner entry (the W-only forms: one W)."""
    r = contract.IM2COL_CORNER_RANGES[mode, _im2col_rank(rank)]
    return r.min, r.max


def offset_top(rank: int) -> int:
    """The largest im2col offset of a map of `rank` (offsets are unsigned)."""
    return contract.IM2COL_OFFSET_RANGES[_im2col_rank(rank)].max


def spatial_axes(mode: str, rank: int) -> int:
    """Corner entries (and im2col offsets): one per spatial axis, one W."""
    return 1 if mode in WIDE_MODES else max(rank - 2, 0)


# ---------------------------------------------------------------------------
# The form of one case.

@dataclass
class Form:
    # Opcode.
    direction: str = "load"
    mode: str = "tile"
    rank: int = 2
    reduction: str | None = None
    cluster: bool = False
    multicast: bool = False
    cache_hint: bool = False
    cta_group: int | None = None
    style: str = "keyword"            # keyword | ptx | generic
    ptx: str | None = None            # an explicit (maybe mutated) spelling
    keyword_extra: list = field(default_factory=list)  # duplicated qualifiers
    # Element types.
    elem: str = "f32"                 # global (or opaque: shared) element
    shared_elem: str = "f32"
    # Shared operand.
    shared_shape: list = field(default_factory=list)
    shared_space: str | None = "3"
    shared_layout: int | None = None   # row padding of a strided layout
    shared_source: str = "global"     # global | arg | dynamic | alloca | subview | attribution
    shared_align: int | None = 1024
    shared_offset: object = 0         # dynamic: byte offset of the view, int or "?"
    ring_stage: object = 0            # subview: stage of a ring of 4, int or "?"
    shared_assume: int | None = None  # memref.assume_alignment of the operand
    # Global operand.
    global_kind: str = "memref"       # memref | ptr
    global_shape: list = field(default_factory=list)   # None = dynamic
    global_strides: list | None = None                 # None = identity
    global_offset: object = None                       # None, int or "?"
    global_affine: object = None      # None, "perm", "symbol", "mod" or an offset
    global_space: str | None = None
    global_source: str = "arg"        # arg | alloc | device_func
    ptr_space: int = 0
    ptr_source: str = "arg"           # arg | inttoptr
    # Operands.
    coords: list = field(default_factory=list)   # ("const", v) | ("arg",)
    rows: list | None = None                     # list of ints (constants)
    offsets: list | None = None                  # ("const", v) | ("arg",), i16
    has_shared: bool = True           # a prefetch names none
    mbar: bool = True
    cta_mask: bool = False
    cta_mask_value: int | None = None  # a constant mask (else a kernel argument)
    cluster_dims: list | None = None   # the kernel's declared cluster shape
    cluster_attr: str = "tile.cluster_size"
    # Barrier accounting: {"expect": int | "tx" | "arg", "place": "before" |
    # "after", "wait": bool, "loop": trip count (0: none)}; a mutation may
    # add "init": False or "armed": False (a barrier set up wrong).
    barrier: dict | None = None
    # The bytes the load's mbarrier phase receives (None: more than one
    # expect_tx can say): what a barrier with no other accounting is armed
    # with.
    tx_expect: int | None = None
    cache_policy: bool = False
    # Attributes.
    box: list = field(default_factory=list)
    coord_steps: list | None = None
    coord_steps_raw: str | None = None   # a non-array coord_steps, verbatim
    format: str | None = None
    swizzle: int | None = None
    element_strides: list | None = None
    interleave: int | None = None
    l2_promotion: int | None = None
    oob_fill: int | None = None
    pixel_box_lower: list | None = None
    pixel_box_upper: list | None = None
    tag: str | None = None
    # Context.
    targets: list | None = None       # [(chip, features)] or None
    tx_bytes: str | None = None       # None | before | after
    tx_tag: str | None = None
    prefetch_map: str | None = None   # tile.prefetch_tensormap: None | before | after
    prefetch_map_tag: str | None = None
    kernel: bool = True

    # Derived.
    def packed(self) -> bool:
        return self.elem in PACKED_ELEMS or self.format in PACKED_FORMATS


@dataclass
class Case:
    seed: int
    index: int
    kind: str                 # valid | mutated | garbage
    text: str                 # one gpu.module, no split markers
    copy_line: int            # 1-based line of the tile.tma_copy in `text`
    mutations: list
    style: str
    builder: dict | None      # tma.apply arguments, or None
    ptx_ok: bool              # eligible for the PTX/ptxas sample
    # Every kernel parameter is one a host can pass (else compile rejects
    # the kernel with [kernel-param-type]: a shared memref or an opaque
    # tensor-map pointer as a parameter, forms the verifier still judges).
    launchable: bool = True

    def python_call(self) -> str:
        """The builder call as Python source (values by SSA name)."""
        return render_python_call(self.builder) if self.builder else ""


# ---------------------------------------------------------------------------
# Valid construction.

def _pick_targets(rng: random.Random, f: Form) -> list | None:
    need_bw = (f.mode in ("gather4", "scatter4") + WIDE_MODES
               or f.cta_group is not None or f.packed()
               or (f.swizzle or 0) in contract.SM100_SWIZZLES)
    need_arch = f.multicast
    need_ptx86 = f.direction == "load" and not f.cluster
    no_sm100 = (f.interleave or 0) == 1 and (f.swizzle or 0) != 0

    def ok(t):
        info = target_info(*t)
        if info is None:
            return True
        sm, arch, ptx = info
        if sm < 90:
            return False
        if need_bw and not (arch and sm in DC_BLACKWELL):
            return False
        if need_arch and not arch:
            return False
        if need_ptx86 and ptx < 86:
            return False
        if no_sm100 and sm >= 100:
            return False
        return True

    good = [t for t in TARGETS if ok(t)]
    default_ok = ok(("sm_90a", "+ptx86"))
    r = rng.random()
    if (r < 0.06 and default_ok) or not good:
        return None
    if r < 0.14 and len(good) > 1:
        return rng.sample(good, 2)
    return [rng.choice(good)]


def _inner_align_elems(bits: int) -> int:
    """Elements in 16 bytes."""
    return max(1, 128 // bits)


def _bounds(r: contract.Range) -> tuple:
    """(min, max) of a contract range."""
    return r.min, r.max


def _small(rng: random.Random, lo: int, hi: int) -> int:
    """A value in lo..hi biased towards small ones."""
    if rng.random() < 0.7:
        return rng.randint(lo, min(hi, lo + 15))
    return rng.randint(lo, hi)


def _choose(rng: random.Random, weights: dict):
    keys = list(weights)
    return rng.choices(keys, [weights[k] for k in keys])[0]


DIRECTION_WEIGHTS = {"load": 46, "store": 22, "reduce": 17, "prefetch": 15}
MODE_WEIGHTS = {
    "load": {"tile": 68, "gather4": 10, "im2col": 12, "im2col_w": 5,
             "im2col_w_128": 5},
    "store": {"tile": 74, "scatter4": 12, "im2col_no_offs": 14},
    "reduce": {"tile": 84, "im2col_no_offs": 16},
    "prefetch": {"tile": 50, "gather4": 10, "im2col": 20, "im2col_w": 10,
                 "im2col_w_128": 10},
}


def global_extents(f: Form) -> list:
    """The smallest global extent per axis the box needs (im2col: only the
    channels are bounded by the box)."""
    if f.mode in IM2COL_MODES:
        inner = f.box[1] if len(f.box) == 2 else 1
        outer = f.box[0] if f.box else 1
        return [1] + [outer] * max(f.rank - 2, 0) + [inner]
    return list(f.box)


def _im2col_fields(rng: random.Random, f: Form, halo: int):
    """Corners and offsets of a valid im2col form."""
    n = spatial_axes(f.mode, f.rank)
    lo, hi = corner_range(f.mode, f.rank)

    def corner(a, b):
        return rng.choice([0, a, b, rng.randint(a, b),
                           rng.randint(max(a, -3), min(b, 3))])

    if f.mode == "im2col_no_offs":
        f.pixel_box_lower = [corner(0, hi) for _ in range(n)]
        f.pixel_box_upper = [corner(lo, 0) for _ in range(n)]
    else:
        f.pixel_box_lower = [corner(lo, hi) for _ in range(n)]
        f.pixel_box_upper = [corner(lo, hi) for _ in range(n)]
    if f.mode == "im2col":
        top = offset_top(f.rank)
        f.offsets = []
        for _ in range(n):
            r = rng.random()
            if r < 0.3:
                f.offsets.append(("arg",))
            elif r < 0.4 and f.rank == 3:
                # 16-bit offsets are unsigned: a negative i16 is its
                # unsigned value.
                f.offsets.append(("const", rng.randint(-32768, -1)))
            else:
                f.offsets.append(("const", rng.choice(
                    [0, 1, top, rng.randint(0, min(top, 32767))])))
    elif f.mode in WIDE_MODES:
        f.offsets = [("const", halo),
                     ("arg",) if rng.random() < 0.4 else
                     ("const", rng.randint(contract.IM2COL_W_OFFSET_RANGE.min,
                                           contract.IM2COL_W_OFFSET_RANGE.max))]


def _tx_expect(f: Form, copy_bytes: int) -> int | None:
    """The bytes a barrier with no other accounting is armed with: the
    copy's (a multicast: every CTA of the cluster sends its box to all), or
    None past what one expect_tx can say. Draws nothing: the form stays the
    one build_valid chose."""
    tx = copy_bytes * (math.prod(f.cluster_dims) if f.multicast else 1)
    return tx if tx <= contract.MAX_TX_BYTES else None


def build_valid(rng: random.Random) -> Form:
    f = Form()
    f.direction = _choose(rng, DIRECTION_WEIGHTS)
    f.mode = _choose(rng, MODE_WEIGHTS[f.direction])
    im2col = f.mode in IM2COL_MODES
    wide = f.mode in WIDE_MODES
    rows_mode = f.mode in ("gather4", "scatter4")
    stores = f.direction in ("store", "reduce")
    f.has_shared = f.direction != "prefetch"
    # An opaque tensor map. Without a shared operand (a prefetch) the
    # verifier sees bytes unless a format says otherwise.
    opaque = rng.random() < 0.08
    packed = None
    if f.direction != "reduce" and not im2col and rng.random() < 0.12:
        packed = rng.choice(["float4_e2m1fn_align8b", "float6_align16b"] +
                            (["float4_e2m1fn"] * 2 if not stores else []))
    if f.direction == "reduce":
        f.reduction = rng.choice(REDUCTIONS)
        f.elem, f.format = rng.choice(REDUCTION_FORMS[f.reduction])
    elif packed == "float6_align16b":
        f.elem = rng.choice(["f6E2M3FN", "f6E3M2FN"])
        f.format = packed if rng.random() < 0.3 else None
    elif packed == "float4_e2m1fn":
        f.elem = "f4E2M1FN"
        f.format = packed if rng.random() < 0.3 else None
    elif packed:
        f.elem, f.format = "f4E2M1FN", packed
    elif opaque and not f.has_shared:
        # No memref at all: the format names the elements (bytes without one).
        f.elem, f.format = rng.choice([
            ("i8", None), ("ui8", "uint8"), ("i16", "uint16"), ("bf16", "bfloat16"),
            ("f32", "float32"), ("f32", "tfloat32"), ("i32", "int32"),
            ("i64", "uint64"), ("f64", "float64")])
    else:
        f.elem = rng.choice([e for e in ELEM_BITS if e not in PACKED_ELEMS])
        if rng.random() < 0.25:
            f.format = rng.choice([NATURAL_FORMAT[f.elem]] +
                                  FORMAT_ALIASES.get(f.elem, []))
    fmt = f.format or NATURAL_FORMAT[f.elem]
    bits = FORMAT_BITS[fmt]
    padded = packed in PADDED_FORMATS
    elem_bytes = 1 if packed else bits // 8
    f.shared_elem = "i8" if packed else f.elem

    # Load qualifiers.
    if f.direction == "load":
        f.cluster = rng.random() < 0.3
        f.multicast = f.cluster and rng.random() < 0.5
        if rng.random() < 0.15:
            f.cta_group = rng.choice([1, 2])
    f.cache_hint = rng.random() < 0.25

    # Rank, interleave.
    interleave = 0
    if rows_mode:
        f.rank = 2
    elif im2col:
        f.rank = rng.choice(contract.IM2COL_RANK_RANGE.values)
    else:
        f.rank = rng.choices(contract.RANK_RANGE.values, [15, 40, 20, 15, 10])[0]
        if (not packed and f.rank >= contract.INTERLEAVE_RANK_RANGE.min
                and rng.random() < 0.25):
            interleave = rng.choice([1, 2])
            if interleave == 2 and bits > 128:
                interleave = 1

    # Swizzle, box and image.
    box = []
    es = [1] * f.rank
    swz = 0
    halo = 0
    if f.mode == "im2col_w":
        halo = _small(rng, *_bounds(contract.IM2COL_W_HALO_RANGE))
    elif f.mode == "im2col_w_128":
        halo = _small(rng, *_bounds(contract.IM2COL_W_128_HALO_RANGE))
    if interleave:
        slice_elems = (16 if interleave == 1 else 32) * 8 // bits
        if interleave == 2:
            swz = 1
        elif f.cta_group is None and rng.random() < 0.3:
            swz = rng.choice([1, 2, 3])      # sm_90 targets only
        for i in range(f.rank):
            box.append(1 if i == 1 else _small(rng, *_bounds(contract.BOX_EXTENT_RANGE)))
        if rng.random() < 0.3:
            es = [_small(rng, *_bounds(contract.ELEMENT_STRIDE_RANGE)) if i != 1 else 1
                  for i in range(f.rank)]
    else:
        if padded:
            info = _FORMATS[packed]
            swz = rng.choice(info.store_swizzles if f.direction == "store"
                             else info.load_swizzles)
            inner = 128
        else:
            if wide:
                swz = rng.choice(contract.IM2COL_WIDE_SWIZZLES)
            elif rng.random() < 0.25:
                swz = rng.choice(SM100_SWIZZLES +
                                 ([] if stores else LOAD_ONLY_SWIZZLES))
            else:
                swz = rng.choice([0, 0, 1, 2, 3])
            span = SWIZZLE_SPAN[swz]
            extent = (contract.CHANNELS_PER_PIXEL_RANGE if im2col
                      else contract.BOX_EXTENT_RANGE).max
            limit = span if swz else min(extent * bits // 8, 512)
            row_bytes = 16 * _small(rng, 1, limit // 16)
            inner = row_bytes * 8 // bits
        if rows_mode:
            box = [1, inner]
        elif im2col:
            pixels = (128 if f.mode == "im2col_w_128" else
                      _small(rng, *_bounds(contract.PIXELS_PER_COLUMN_RANGE)))
            box = [pixels, inner]
            if rng.random() < 0.3:
                es = [_small(rng, *_bounds(contract.ELEMENT_STRIDE_RANGE))
                      for _ in range(f.rank - 1)] + [1]
        else:
            box = [_small(rng, *_bounds(contract.BOX_EXTENT_RANGE))
                   for _ in range(f.rank - 1)] + [inner]
            if not packed and f.rank > 1 and rng.random() < 0.25:
                es = [_small(rng, *_bounds(contract.ELEMENT_STRIDE_RANGE))
                      for _ in range(f.rank - 1)] + [1]
    span = SWIZZLE_SPAN[swz]

    def image_of(box, halo):
        if rows_mode:
            dims = [4, box[1]]
        elif im2col:
            first = (box[0] + halo if f.mode == "im2col_w" else
                     4 * (32 + halo) if f.mode == "im2col_w_128" else box[0])
            dims = [first, box[1]]
        else:
            dims = [ceil_div(bx, e) for bx, e in zip(box, es)]
            if interleave:
                dims.append(slice_elems)
        payload = dims[-1] * bits // 8
        stored = dims[-1] * elem_bytes if padded else payload
        if span and stored < span:
            stored = span
        rows = 1
        for d in dims[:-1]:
            rows *= d
        return dims, payload, stored, rows

    # Every valid shared image fits one block ([shared-size] rejects more);
    # a prefetch has none, so some prefetches keep a huge box.
    big_ok = not f.has_shared and rng.random() < 0.3
    while True:
        dims, row_payload, row_storage, rows = image_of(box, halo)
        if big_ok or rows * row_storage <= 64 * 1024:
            break
        if im2col:
            if f.mode == "im2col_w" and halo > box[0]:
                halo //= 2
            elif f.mode != "im2col_w_128" and box[0] > 1:
                box[0] = max(1, box[0] // 2)
            elif halo > 0:
                halo //= 2
            else:
                break
            continue
        outer = [i for i in range(len(box) - (0 if interleave else 1))
                 if box[i] > 1 and not (interleave and i == 1)]
        if not outer:
            break
        i = max(outer, key=lambda j: box[j])
        box[i] = max(1, box[i] // 2)
    f.box = box
    f.interleave = interleave if interleave or rng.random() < 0.1 else None
    if swz or rng.random() < 0.1:
        f.swizzle = swz
    if es != [1] * f.rank or rng.random() < 0.1:
        f.element_strides = es
    storage = rows * row_storage
    payload = rows * row_payload
    image = dims[:-1] + [row_storage // elem_bytes]
    if im2col:
        _im2col_fields(rng, f, halo)

    # Repeat axes and steps (a prefetch has no shared slots).
    repeat = []
    axis = 1 if rows_mode else f.rank - 1
    ext = global_extents(f)
    align = 1 if interleave else 128 if padded else _inner_align_elems(bits)
    if f.has_shared and rng.random() < 0.3 and storage % 128 == 0:
        repeat = [rng.randint(1, 4) for _ in range(rng.choice([1, 1, 2]))]
        while storage * math.prod(repeat) > SHARED_LIMIT and max(repeat) > 1:
            repeat[repeat.index(max(repeat))] -= 1  # a valid form fits one block
        f.coord_steps = []
        for _ in repeat:
            step = []
            for i in range(f.rank):
                lo = 0 if f.direction != "load" else -2
                if i == axis:
                    step.append(align * rng.randint(lo, 8))
                else:
                    step.append(rng.choice([0, ext[i], rng.randint(4 * lo, 64)]))
            f.coord_steps.append(step)
    f.shared_shape = repeat + image

    # Shared operand, aligned as the copy needs ([shared-base-alignment]).
    f.shared_source = rng.choices(
        ["global", "arg", "dynamic", "subview", "attribution"], [64, 8, 16, 7, 5])[0]
    f.shared_space = "3" if rng.random() < 0.8 else "#gpu.address_space<workgroup>"
    if f.shared_source in ("dynamic", "attribution"):
        f.shared_space = "#gpu.address_space<workgroup>"
    need = 8 * span if swz else 128
    f.shared_align = rng.choice([need, need, 1024 if need <= 1024 else need, 4096])
    total = storage * math.prod(repeat)
    if f.shared_source == "dynamic":
        if rng.random() < 0.12:
            f.shared_offset = "?"
            f.shared_assume = rng.choice([need, 1024])
        else:
            f.shared_offset = need * rng.choice([0, 0, 1, 2, 3, 8])
            if rng.random() < 0.1:
                f.shared_assume = need
    elif f.shared_source == "subview":
        if rng.random() < 0.15:
            f.ring_stage = "?"
            f.shared_assume = rng.choice([need, 1024])
        else:
            f.ring_stage = rng.randint(0, 3)
            if (f.ring_stage * total) % need:
                f.ring_stage = 0
    elif f.shared_source == "arg":
        f.shared_assume = rng.choice([need, need, 1024, 2 * need])

    # Global operand.
    if opaque:
        f.global_kind = "ptr"
        f.ptr_source = "inttoptr" if rng.random() < 0.3 else "arg"
        f.ptr_space = (4 if f.ptr_source == "inttoptr" and rng.random() < 0.6
                       else rng.choice([0, 0, 1]))
        if packed:
            f.elem, f.format = "i8", packed
    else:
        _build_global(rng, f, bits, interleave, packed, ext)

    # Coordinates.
    # Stores and reductions start at non-negative coordinates.
    neg = 0 if stores else 1
    f.coords = []
    for i in range(f.rank):
        if rng.random() < 0.35:
            f.coords.append(("arg",))
        elif i == axis and padded:
            f.coords.append(("const", 128 * rng.randint(-2 * neg, 8)))
        elif i == axis and not interleave:
            f.coords.append(("const", align * rng.randint(-4 * neg, 64)))
        else:
            f.coords.append(("const", rng.choice(
                [0, 0, rng.randint(-64 * neg, 1024),
                 rng.randint(I32_MIN * neg, I32_MAX)])))
    if rows_mode:
        f.rows = [rng.randint(0, 64) for _ in range(4)]
    f.mbar = f.direction == "load"
    f.cta_mask = f.multicast
    f.cache_policy = f.cache_hint
    if f.multicast:
        # [multicast-cluster], [cta-mask-cluster].
        f.cluster_dims = list(rng.choice([(2, 1, 1), (2, 1, 1), (4, 1, 1), (2, 2, 1),
                                          (8, 1, 1), (1, 1, 1), (16, 1, 1), (2, 1, 2)]))
        f.cluster_attr = rng.choice(["tile.cluster_size"] * 3 +
                                    ["known_cluster_size", "nvvm.cluster_dim"])
        if rng.random() < 0.5:
            ctas = math.prod(f.cluster_dims)
            f.cta_mask_value = rng.choice([(1 << ctas) - 1,
                                           rng.randint(1, (1 << ctas) - 1)])

    # Other knobs.
    if rng.random() < 0.2:
        f.l2_promotion = rng.randint(*_bounds(contract.L2_PROMOTION_RANGE))
    if rng.random() < 0.15:
        f.oob_fill = 1 if (fmt in NAN_FILL_FORMATS and rng.random() < 0.6) else 0
    if rng.random() < 0.2:
        f.tag = rng.choice(["phase", "stage0", "s1", "a_b", "t"])
        slots = 1
        for r in repeat:
            slots *= r
        if rng.random() < 0.5 and slots * payload <= contract.MAX_TX_BYTES:
            f.tx_bytes = rng.choice(["before", "after"])
            f.tx_tag = f.tag
        if rng.random() < 0.35:
            f.prefetch_map = rng.choice(["before", "after"])
            f.prefetch_map_tag = f.tag
    if f.mbar and rng.random() < 0.3:
        # Barrier accounting the analysis can decide ([barrier-tx-mismatch]).
        slots = math.prod(repeat)
        loop = rng.choice([0, 0, 0, 2, 3])
        bytes_ = slots * payload * max(loop, 1)
        if f.tx_bytes and rng.random() < 0.6:
            expect = "tx"
        else:
            expect = bytes_
            if f.multicast and rng.random() < 0.3:
                # Every CTA of the cluster multicasting one box to all.
                expect = bytes_ * math.prod(f.cluster_dims)
        if bytes_ < 2 ** 20:
            f.barrier = {"expect": expect, "place": rng.choice(["before", "after"]),
                         "wait": rng.random() < 0.7, "loop": loop}
    if f.mbar:
        f.tx_expect = _tx_expect(f, math.prod(repeat) * payload)
    f.targets = _pick_targets(rng, f)
    f.style = rng.choices(["keyword", "ptx", "generic"], [50, 35, 15])[0]
    return f


def _build_global(rng, f: Form, bits: int, interleave: int, packed, ext: list):
    padded = packed in PADDED_FORMATS
    stride_align_bytes = 32 if (interleave == 2 or padded) else 16
    align_elems = stride_unit(bits, stride_align_bytes)
    shape = []
    for i in range(f.rank):
        b = ext[i]
        r = rng.random()
        if r < 0.1:
            shape.append(None)
        elif r < 0.15:
            shape.append(b)
        elif r < 0.17:
            shape.append(contract.MAX_GLOBAL_DIM if i < f.rank - 1 else None)
        else:
            shape.append(b + rng.choice([0, b, 3 * b, rng.randint(0, 300)]))
    if interleave:
        shape.append((16 if interleave == 1 else 32) * 8 // bits)
    else:
        inner = shape[-1]
        # Identity strides stay aligned when the inner dim is (a multiple of
        # 128 elements for the padded packed formats, which also need it).
        unit = 128 if padded else align_elems
        if inner is not None:
            inner = ceil_div(inner, unit) * unit
            shape[-1] = inner
    # Keep identity strides below 2^40 bytes: shrink the largest inner dims.
    while True:
        total = 1
        for d in shape[1:]:
            total *= d or 1
        if total * bits // 8 < 2 ** 39:
            break
        cands = [i for i in range(1, min(f.rank, len(shape)))
                 if shape[i] is not None and shape[i] > ext[i]]
        if not cands:
            break
        i = max(cands, key=lambda j: shape[j])
        shape[i] = ext[i]
    # MLIR cannot lay out an identity memref of 2^63 or more elements.
    while True:
        count = 1
        for d in shape:
            count *= d or 1
        big = [i for i in range(f.rank) if shape[i] and shape[i] > ext[i]]
        if count < 2 ** 62 or not big:
            break
        i = max(big, key=lambda j: shape[j])
        shape[i] = ext[i]
    f.global_shape = shape
    if rng.random() < 0.35:
        strides = [1]
        for i in range(len(shape) - 1, 0, -1):
            if interleave and i == len(shape) - 1:
                strides.insert(0, shape[-1])    # the spatial stride: one slice
                continue
            if rng.random() < 0.15:
                strides.insert(0, None)
                continue
            inner_extent = 1
            base = next((s for s in strides if s is not None), 1)
            inner_extent = (shape[i] or 64) * base
            pad = align_elems * rng.choice([0, 0, 1, 4])
            s = ceil_div(inner_extent, align_elems) * align_elems + pad
            if s * bits // 8 >= contract.GLOBAL_STRIDE_BYTES_BOUND:
                s = None
            strides.insert(0, s)
        if rng.random() < 0.08 and not interleave:
            strides[-1] = None      # a dynamic inner stride (runtime rule)
        f.global_strides = strides
        f.global_offset = rng.choice([None, None, 0, 64, "?"])
    f.global_space = rng.choices([None, "1", "0", "#gpu.address_space<global>"],
                                 [80, 10, 5, 5])[0]


# ---------------------------------------------------------------------------
# Mutations: each sets one field to a wrong, out-of-range or random value.

def _arity(f) -> int:
    """The rank for sizing lists (a mutated rank may be huge or negative)."""
    return f.rank if 0 <= f.rank <= 8 else len(f.box)


def _rand_int(rng, lo=-5, hi=300):
    return rng.choice([rng.randint(lo, hi), rng.choice(HUGE_I64)])


def _i32(rng):
    return rng.choice([rng.randint(-8, 16), rng.choice(HUGE_I32)])


def m_rank(rng, f):
    f.rank = rng.choice([0, 6, 7, -1, 3, 1, 2, 4, 5, 2 ** 31 - 1, -2 ** 31])


def m_direction(rng, f):
    f.direction = rng.choice(DIRECTIONS)
    if f.direction == "reduce" and f.reduction is None and rng.random() < 0.7:
        f.reduction = rng.choice(REDUCTIONS)
    if rng.random() < 0.7:   # with the buffers the new direction names
        f.has_shared = f.direction != "prefetch"


def m_mode(rng, f):
    f.mode = rng.choice(MODES)
    if rng.random() < 0.7:   # with the operands the new mode takes
        rows = f.mode in ("gather4", "scatter4")
        f.rows = [rng.randint(0, 64) for _ in range(4)] if rows else None
    if rng.random() < 0.5:
        f.offsets = f.pixel_box_lower = f.pixel_box_upper = None
        if f.mode in IM2COL_MODES and 0 <= f.rank <= 8:
            _im2col_fields(rng, f, rng.choice([0, 0, 2, 31]))


def m_gather_rank(rng, f):
    """gather4/scatter4 at a rank other than 2, otherwise consistent."""
    f.mode = "gather4" if f.direction in ("load", "prefetch") else "scatter4"
    f.rows = [rng.randint(0, 64) for _ in range(4)]
    f.rank = rng.choice([r for r in contract.RANK_RANGE.values if r != 2])
    inner = f.box[-1] if f.box else 32
    f.box = [1] * (f.rank - 1) + [inner]
    f.coords = [("const", 0)] * f.rank
    f.element_strides = None
    f.coord_steps = None
    f.interleave = None


def m_packed_inner_dim(rng, f):
    """A packed type whose inner global dim is no multiple of 128 (or odd),
    its strides kept 32-byte aligned."""
    if f.global_kind != "memref" or not f.global_shape:
        return
    f.elem = rng.choice(PACKED_ELEMS)
    f.shared_elem = "i8"
    if f.elem == "f4E2M1FN" and rng.random() < 0.4:
        f.format = "float4_e2m1fn_align8b"
    unit = stride_unit(ELEM_BITS[f.elem], 32)
    shape = list(f.global_shape)
    shape[-1] = rng.choice([192, 320, 129, 200, 130, 63, 31])
    f.global_shape = shape
    strides = [1]
    for d in reversed(shape[1:]):
        prev = strides[0] if strides[0] is not None else 2 ** 40
        s = -(-prev * (d or 64) // unit) * unit
        strides.insert(0, s if s < 2 ** 62 else None)
    f.global_strides = strides
    f.global_affine = None


def m_reduction(rng, f):
    f.reduction = rng.choice(REDUCTIONS + [None])


def m_cluster(rng, f):
    f.cluster = not f.cluster


def m_multicast(rng, f):
    f.multicast = not f.multicast


def m_cta_group(rng, f):
    f.cta_group = rng.choice([None, 1, 2, 0, 3, -1, 2 ** 31 - 1, -2 ** 31])


def m_cache_hint(rng, f):
    f.cache_hint = not f.cache_hint


def m_mbar(rng, f):
    f.mbar = not f.mbar


def m_cta_mask(rng, f):
    f.cta_mask = not f.cta_mask


def m_cache_policy(rng, f):
    f.cache_policy = not f.cache_policy


def m_rows(rng, f):
    n = rng.choice([0, 1, 3, 4, 5])
    f.rows = [rng.randint(-4, 64) for _ in range(n)] if n else None


def m_box_arity(rng, f):
    n = rng.choice([0, 1, 2, 3, 4, 5, 6, 9])
    f.box = [rng.randint(1, 32) for _ in range(n)]


def m_box_extent(rng, f):
    if f.box:
        f.box[rng.randrange(len(f.box))] = _rand_int(rng, -3, 300)


def m_box_random(rng, f):
    f.box = [rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 256,
                         rng.randint(*_bounds(contract.BOX_EXTENT_RANGE))])
             for _ in f.box]


def m_coords_count(rng, f):
    n = rng.choice([0, 1, 2, 3, 4, 5, 6])
    f.coords = [("const", 0) for _ in range(n)]


def m_inner_coord(rng, f):
    if f.coords:
        i = rng.randrange(len(f.coords))
        f.coords[i] = ("const", rng.choice([1, 3, 8, 17, 33, -5, I32_MAX, I32_MIN,
                                             rng.randint(-1000, 1000)]))


def m_coord_steps(rng, f):
    r = rng.random()
    n = rng.choice([1, 2, 3])
    if r < 0.3:
        f.coord_steps = [[_rand_int(rng, -64, 64) for _ in range(_arity(f))]
                         for _ in range(n)]
    elif r < 0.5:
        f.coord_steps = [[rng.randint(0, 8) for _ in range(rng.choice([0, 1, 2, 3, 6]))]
                         for _ in range(n)]
    elif r < 0.65:
        f.coord_steps = [[rng.choice([1, 3, 5, 7, 2 ** 62 + 1, I64_MAX, I64_MIN])
                          for _ in range(_arity(f))]]
    elif r < 0.8:
        f.coord_steps = None
    else:
        f.coord_steps = None
        f.coord_steps_raw = rng.choice([
            "[1, 2]", "[array<i32: 0, 16>]", "[\"x\"]", "[]",
            "[array<i64>]", "[[0, 16]]", "[array<i64: 0, 16>, unit]"])


def m_repeat_shape(rng, f):
    """Changes the shared shape's repeat prefix (or adds a huge one)."""
    k = len(f.coord_steps or [])
    image = f.shared_shape[k:]
    n = rng.choice([0, 1, 2, 3])
    f.shared_shape = [rng.choice([0, 1, 2, 3, 8, 64]) for _ in range(n)] + image


def m_format(rng, f):
    f.format = rng.choice(FORMATS + [None])


def m_swizzle(rng, f):
    swizzles = contract.SWIZZLE_RANGE
    f.swizzle = rng.choice([*swizzles.values, swizzles.max + 1, _i32(rng)])


def m_element_strides(rng, f):
    r = rng.random()
    if r < 0.3:
        f.element_strides = [rng.randint(*_bounds(contract.ELEMENT_STRIDE_RANGE))
                             for _ in range(_arity(f))]
    elif r < 0.6:
        es = list(f.element_strides or [1] * max(_arity(f), 1))
        strides = contract.ELEMENT_STRIDE_RANGE
        es[rng.randrange(len(es))] = rng.choice(
            [strides.min - 1, -1, strides.max + 1, 16, 2, I64_MAX, I64_MIN])
        f.element_strides = es
    else:
        f.element_strides = [1] * rng.choice([0, 1, 3, 6])


def m_interleave(rng, f):
    interleaves = contract.INTERLEAVE_RANGE
    f.interleave = rng.choice([*interleaves.values, interleaves.max + 1, -1, _i32(rng)])


def m_l2(rng, f):
    l2 = contract.L2_PROMOTION_RANGE
    f.l2_promotion = rng.choice([l2.min, l2.max, l2.max + 1, -1, _i32(rng)])


def m_oob(rng, f):
    fills = contract.OOB_FILL_RANGE
    f.oob_fill = rng.choice([fills.min, fills.max, fills.max, fills.max + 1, -1, _i32(rng)])


def m_elem(rng, f):
    e = rng.choice(UNSUPPORTED_ELEMS + list(ELEM_BITS))
    f.elem = e
    if rng.random() < 0.6:
        f.shared_elem = e


def m_shared_elem(rng, f):
    f.shared_elem = rng.choice(list(ELEM_BITS) + ["i8", "f32", "i1"])


def m_shared_space(rng, f):
    f.shared_space = rng.choice([None, "0", "1", "5", "#gpu.address_space<global>",
                                 "#gpu.address_space<private>"])
    if f.shared_source == "dynamic":
        f.shared_source = "global"


def m_shared_layout(rng, f):
    f.shared_source = "arg"
    r = rng.random()
    if r < 0.5 and f.shared_shape:
        f.shared_layout = rng.choice([0, 1, 16])   # row padding of a strided layout
    elif f.shared_shape:
        f.shared_shape = list(f.shared_shape)
        f.shared_shape[rng.randrange(len(f.shared_shape))] = None


def m_shared_shape(rng, f):
    if f.shared_shape and rng.random() < 0.7:
        f.shared_shape = list(f.shared_shape)
        i = rng.randrange(len(f.shared_shape))
        d = f.shared_shape[i] or 8
        f.shared_shape[i] = rng.choice([0, 1, 2, 3, d * 2, max(1, d // 2), 1000])
    else:
        f.shared_shape = [rng.randint(1, 16) for _ in range(rng.randint(0, 6))]


def m_shared_align(rng, f):
    f.shared_source = rng.choice(["global", "global", "alloca", "attribution"])
    f.shared_align = rng.choice([None, 1, 16, 64, 128, 256, 512, 1024, 2048])
    if f.shared_source == "attribution":
        f.shared_space = "#gpu.address_space<workgroup>"


def m_shared_view(rng, f):
    """A view, ring stage or argument whose alignment is wrong or unproven."""
    r = rng.random()
    f.shared_assume = None
    if r < 0.45:
        f.shared_source = "dynamic"
        f.shared_space = "#gpu.address_space<workgroup>"
        f.shared_offset = rng.choice([16, 32, 64, 128, 256, 512, 8, 1, "?", 1040, 4096])
        if rng.random() < 0.3:
            f.shared_assume = rng.choice([16, 64, 128, 256, 512, 1024])
    elif r < 0.75:
        f.shared_source = "subview"
        f.ring_stage = rng.choice([1, 2, 3, "?"])
        f.shared_align = rng.choice([None, 16, 128, 1024])
        if rng.random() < 0.3:
            f.shared_assume = rng.choice([16, 128, 1024])
    else:
        f.shared_source = "arg"
        if rng.random() < 0.4:
            f.shared_assume = rng.choice([8, 16, 64, 128, 512])


def m_cluster_shape(rng, f):
    """No cluster, a malformed one, or one too large for the mask."""
    r = rng.random()
    if r < 0.35:
        f.cluster_dims = None
    elif r < 0.6:
        f.cluster_dims = [rng.choice([0, -1, 2]), rng.choice([1, 0]), 1]
        f.cluster_attr = rng.choice(["tile.cluster_size", "known_cluster_size",
                                     "nvvm.cluster_dim"])
    elif r < 0.8:
        f.cluster_dims = rng.choice([[4, 8, 1], [32, 1, 1], [16, 2, 1]])
    else:
        f.cluster_dims = [2, 1]
        f.cluster_attr = rng.choice(["tile.cluster_size", "nvvm.cluster_dim",
                                     "tile.cluster_size:i64"])


def m_cta_mask_value(rng, f):
    """A constant cta_mask with no CTA, or CTAs beyond the cluster."""
    ctas = math.prod(f.cluster_dims) if f.cluster_dims else 2
    ctas = min(max(ctas, 1), 15)   # a malformed cluster may multiply to anything
    f.cta_mask_value = rng.choice([0, 1 << ctas, 0xFFFF, (1 << 16) - 2])


def m_barrier(rng, f):
    """Expected bytes that do not match the copy, or ones the IR does not fix;
    sometimes a barrier never initialised or never armed."""
    if f.barrier is None:
        f.barrier = {"expect": 0, "place": rng.choice(["before", "after"]),
                     "wait": rng.random() < 0.5, "loop": rng.choice([0, 2])}
    b = dict(f.barrier)
    cur = b["expect"] if isinstance(b["expect"], int) else 4096
    b["expect"] = rng.choice([cur // 2, cur * 2, cur + 16, max(cur - 16, 0), 0, 1,
                              "arg", 2 ** 20 - 1])
    if rng.random() < 0.2:
        b["loop"] = rng.choice([0, 2, 4])
    setup = rng.random()
    if setup < 0.15:
        b["init"] = False       # [mbarrier-uninitialized]
    elif setup < 0.3:
        b["armed"] = False      # [mbarrier-unarmed]
    f.barrier = b


def m_global_space(rng, f):
    f.global_space = rng.choice(["3", "5", "2", "#gpu.address_space<workgroup>",
                                 "#gpu.address_space<private>", "1", None])


def m_global_source(rng, f):
    f.global_source = rng.choice(["alloc", "device_func"])


def m_global_rank(rng, f):
    if f.global_kind != "memref":
        return
    n = rng.choice([0, 1, 2, 3, 4, 5, 6])
    f.global_shape = [rng.randint(1, 128) for _ in range(n)]
    f.global_strides = None


def m_global_dim(rng, f):
    if f.global_kind != "memref" or not f.global_shape:
        return
    i = rng.randrange(len(f.global_shape))
    f.global_shape = list(f.global_shape)
    f.global_shape[i] = rng.choice([0, 1, 2, 2 ** 32, 2 ** 32 + 1, 2 ** 40,
                                    2 ** 62, rng.randint(1, 300), None])


def m_global_stride(rng, f):
    if f.global_kind != "memref" or not f.global_shape:
        return
    n = len(f.global_shape)
    strides = list(f.global_strides or [None] * n)
    if len(strides) != n:
        strides = [None] * n
    i = rng.randrange(n)
    strides[i] = rng.choice([1, 2, 3, 5, 17, 0, -16, -1, 2 ** 40, 2 ** 37,
                             2 ** 61, I64_MAX, -2 ** 62, rng.randint(1, 4096)])
    strides = [s if s is not None or rng.random() < 0.5 else 64 for s in strides]
    f.global_strides = strides
    if rng.random() < 0.3:
        f.global_offset = rng.choice([0, 3, "?", 2 ** 40])


def m_global_affine(rng, f):
    f.global_affine = rng.choice(["perm", "symbol", "mod", 0, 0, 16, 3])


def m_ptr(rng, f):
    f.global_kind = "ptr"
    f.ptr_source = rng.choice(["arg", "inttoptr"])
    f.ptr_space = rng.choice([0, 1, 3, 4, 5, 7, 2 ** 20])


def m_target(rng, f):
    f.targets = [rng.choice(TARGETS) for _ in range(rng.choice([1, 1, 2]))]
    if rng.random() < 0.1:
        f.targets = [rng.choice([("sm_", None), ("sm_abc", None),
                                 ("sm_99999999999999999999a", None),
                                 ("gfx90a", None), ("sm_90a", "+ptx99999999999"),
                                 ("sm_90a", "+ptx"), ("sm_100a", "-ptx86"),
                                 ("sm_1000a", None), ("sm_20", None)])]


def m_tag(rng, f):
    r = rng.random()
    if r < 0.4:
        f.tx_tag = rng.choice(["missing", f.tag or "phase", ""])
        f.tx_bytes = rng.choice(["before", "after"])
    elif r < 0.7:
        f.tag = rng.choice(["phase", "", "x y", "ünï", "t" * 300])
        f.tx_tag = f.tag
        f.tx_bytes = rng.choice(["before", "after"])
    else:
        # Many slots: the tagged byte count reaches 2^20.
        f.coord_steps = [[0] * _arity(f)] + (f.coord_steps or [])
        f.shared_shape = [rng.choice([64, 256, 1024, 4096])] + f.shared_shape
        f.tag = f.tag or "big"
        f.tx_tag = f.tag
        f.tx_bytes = rng.choice(["before", "after"])


def m_kernel(rng, f):
    f.kernel = False


def m_packed(rng, f):
    f.elem = rng.choice(PACKED_ELEMS)
    f.shared_elem = rng.choice(["i8", "i8", f.elem, "ui8"])
    if rng.random() < 0.5:
        f.format = rng.choice([None] + list(PACKED_FORMATS))
    if rng.random() < 0.5:
        f.box = list(f.box)
        if f.box:
            f.box[-1] = rng.choice([128, 64, 63, 256, 32])


def m_shared_operand(rng, f):
    """A shared buffer on a prefetch, or none on a load/store/reduce."""
    f.has_shared = not f.has_shared


def m_offsets(rng, f):
    r = rng.random()
    if r < 0.35:
        n = rng.choice([0, 1, 2, 3, 4])
        f.offsets = [("const", rng.randint(0, 40)) for _ in range(n)] or None
    elif r < 0.7 and f.offsets:
        f.offsets = list(f.offsets)
        f.offsets[rng.randrange(len(f.offsets))] = ("const", rng.choice(
            OFFSET_PROBES + [1000, 32767, -1, -32768]))
    else:
        f.offsets = [("arg",) for _ in range(rng.choice([1, 2, 3]))]


# Each rank's corner bounds and the values just outside them, then huge ones.
_CORNERS = [contract.IM2COL_CORNER_RANGES["im2col", rank]
            for rank in contract.IM2COL_RANK_RANGE.values]
CORNER_VALUES = ([v for c in _CORNERS for v in (c.min - 1, c.min)] + [-1, 0, 1] +
                 [v for c in reversed(_CORNERS) for v in (c.max, c.max + 1)] +
                 [I64_MAX, I64_MIN])


# The largest 5-D and 4-D im2col offsets and wHalo values, and one more each.
OFFSET_PROBES = [v for rank in (5, 4) for v in (offset_top(rank), offset_top(rank) + 1)] + \
    [contract.IM2COL_W_HALO_RANGE.max, contract.IM2COL_W_HALO_RANGE.max + 1]
HALO_PROBES = [v for r in (contract.IM2COL_W_128_HALO_RANGE, contract.IM2COL_W_HALO_RANGE)
               for v in (r.max, r.max + 1)]


def m_corners(rng, f):
    name = rng.choice(["pixel_box_lower", "pixel_box_upper"])
    cur = getattr(f, name)
    r = rng.random()
    if r < 0.25:
        setattr(f, name, None)
    elif r < 0.5 or not cur:
        setattr(f, name, [rng.choice(CORNER_VALUES)
                          for _ in range(rng.choice([0, 1, 2, 3, 4]))])
    else:
        cur = list(cur)
        cur[rng.randrange(len(cur))] = rng.choice(CORNER_VALUES)
        setattr(f, name, cur)


def m_halo(rng, f):
    """The W-only forms with a runtime or out-of-range wHalo, or a
    pixels_per_column other than 128 for im2col_w_128."""
    if f.mode not in WIDE_MODES:
        f.mode = rng.choice(WIDE_MODES)
    offs = list(f.offsets or [])
    while len(offs) < 2:
        offs.append(("const", 0))
    r = rng.random()
    if r < 0.4:
        offs[0] = ("arg",)
    elif r < 0.8:
        offs[0] = ("const", rng.choice(HALO_PROBES + [1000, -1, 32767]))
    elif f.box:
        f.box = list(f.box)
        f.box[0] = rng.choice([1, 64, 127, 129, 256])
    f.offsets = offs


def m_im2col_box(rng, f):
    pixels, channels = contract.PIXELS_PER_COLUMN_RANGE, contract.CHANNELS_PER_PIXEL_RANGE
    f.box = [rng.choice([pixels.min - 1, pixels.min, 128, pixels.max, pixels.max + 1,
                         2048, -1, rng.randint(1, 1100)]),
             rng.choice([channels.min - 1, channels.min, 16, channels.max,
                         channels.max + 1, 512, -4])]


def m_prefetch_map(rng, f):
    f.prefetch_map = rng.choice(["before", "after"])
    f.prefetch_map_tag = rng.choice(["missing", f.tag or "phase", ""])


def m_ptx_string(rng, f):
    """A PTX spelling with one part changed, dropped, duplicated or reordered."""
    f.style = "ptx"
    f.ptx = mutate_ptx(rng, ptx_spelling(f, rng))


def m_keyword_dup(rng, f):
    f.style = "keyword"
    f.keyword_extra = [rng.choice(["cluster", "multicast", "cache_hint",
                                   "cta_group(1)", "cta_group(2)"])]


def m_keyword_word(rng, f):
    f.style = "keyword"
    f.keyword_extra = [rng.choice(["@direction:loads", "@direction:stor",
                                   "@direction:LOAD", "@mode:gather", "@mode:im2col",
                                   "@mode:tile::gather4", "@reduction:mul",
                                   "@direction:prefetch", "@direction:prefetches",
                                   "@mode:im2col_w", "@mode:im2col_w_128",
                                   "@mode:im2col_no_offs", "@mode:im2col::w",
                                   "@mode:im2col_w128",
                                   "@reduction:and_", "@rank:0", "@rank:6",
                                   "@rank:-3", "@rank:4294967297",
                                   "@cta:0", "@cta:3", "@cta:-1",
                                   "@cta:9223372036854775807"])]


MUTATIONS = [
    (m_rank, 3), (m_direction, 4), (m_mode, 3), (m_gather_rank, 1),
    (m_packed_inner_dim, 2), (m_reduction, 3),
    (m_cluster, 3), (m_multicast, 3), (m_cta_group, 3), (m_cache_hint, 3),
    (m_mbar, 3), (m_cta_mask, 2), (m_cache_policy, 2), (m_rows, 3),
    (m_box_arity, 3), (m_box_extent, 5), (m_box_random, 5),
    (m_coords_count, 3), (m_inner_coord, 4), (m_coord_steps, 5),
    (m_repeat_shape, 3), (m_format, 5), (m_swizzle, 6),
    (m_element_strides, 5), (m_interleave, 5), (m_l2, 3), (m_oob, 4),
    (m_elem, 5), (m_shared_elem, 3), (m_shared_space, 3), (m_shared_layout, 3),
    (m_shared_shape, 4), (m_shared_align, 3), (m_global_space, 3),
    (m_global_source, 2), (m_global_rank, 3), (m_global_dim, 4),
    (m_global_stride, 5), (m_global_affine, 2), (m_ptr, 2), (m_target, 6), (m_tag, 3),
    (m_kernel, 1), (m_packed, 3), (m_ptx_string, 8), (m_keyword_dup, 3),
    (m_keyword_word, 4), (m_shared_operand, 3), (m_offsets, 4), (m_corners, 4),
    (m_halo, 3), (m_im2col_box, 2), (m_prefetch_map, 2),
    (m_shared_view, 4), (m_cluster_shape, 3), (m_cta_mask_value, 2), (m_barrier, 4),
]


# ---------------------------------------------------------------------------
# Opcode spellings.

def ptx_spelling(f: Form, rng: random.Random | None = None) -> str | None:
    """The PTX spelling of the opcode fields, or None if PTX cannot say it.

    Spelled here, not by the C++ printer (tma.format_opcode): the fuzzer
    checks the C++ parser against it, so it keeps its own, independent
    spelling (with the optional `.tile` sometimes left out)."""
    if not 1 <= f.rank <= 5 or f.cta_group not in (None, 1, 2):
        return None
    if f.mode not in PTX_MODES:
        return None
    mode = "." + PTX_MODES[f.mode]
    if f.mode == "tile" and rng and rng.random() < 0.3:
        mode = ""     # .tile is the default load_mode
    hint = ".L2::cache_hint" if f.cache_hint else ""
    if f.direction == "prefetch":
        if f.reduction is not None or f.cluster or f.multicast or f.cta_group \
                or f.mode in ("scatter4", "im2col_no_offs"):
            return None
        return f"cp.async.bulk.prefetch.tensor.{f.rank}d.L2.global{mode}{hint}"
    if f.direction == "reduce":
        if f.reduction is None or f.mode not in ("tile", "im2col_no_offs") \
                or f.cluster or f.multicast or f.cta_group:
            return None
        return (f"cp.reduce.async.bulk.tensor.{f.rank}d.global.shared::cta."
                f"{f.reduction}{mode}.bulk_group{hint}")
    if f.reduction is not None:
        return None
    if f.direction == "store":
        if f.cluster or f.multicast or f.cta_group or \
                f.mode not in ("tile", "scatter4", "im2col_no_offs"):
            return None
        return f"cp.async.bulk.tensor.{f.rank}d.global.shared::cta{mode}.bulk_group{hint}"
    if f.mode in ("scatter4", "im2col_no_offs") or (f.multicast and not f.cluster):
        return None
    dst = "shared::cluster" if f.cluster else "shared::cta"
    s = (f"cp.async.bulk.tensor.{f.rank}d.{dst}.global{mode}"
         ".mbarrier::complete_tx::bytes")
    if f.multicast:
        s += ".multicast::cluster"
    if f.cta_group:
        s += f".cta_group::{f.cta_group}"
    return s + hint


PTX_PARTS = ["cp", "reduce", "async", "bulk", "tensor", "1d", "2d", "3d", "4d",
             "5d", "0d", "6d", "9d", "shared::cta", "shared::cluster", "global",
             "tile", "tile::gather4", "tile::scatter4", "im2col",
             "im2col::w", "im2col::w::128", "im2col_no_offs", "im2col::w::64",
             "im2col_w", "prefetch", "L2", "mbarrier::complete_tx::bytes",
             "bulk_group",
             "multicast::cluster", "cta_group::1", "cta_group::2",
             "cta_group::3", "L2::cache_hint", "add", "min", "max", "inc",
             "dec", "and", "or", "xor", "mul", "", "foo", "TILE", "2D",
             "shared", "shared::", "::", "d", "1dd", "L2::evict_first"]


def mutate_ptx(rng: random.Random, spelling: str | None) -> str:
    """A damaged spelling; it stays a valid MLIR string literal."""
    base = spelling or ("cp.async.bulk.tensor.2d.shared::cta.global.tile."
                        "mbarrier::complete_tx::bytes")
    parts = base.split(".")
    r = rng.random()
    if r < 0.2:
        parts[rng.randrange(len(parts))] = rng.choice(PTX_PARTS)
    elif r < 0.35:
        del parts[rng.randrange(len(parts))]
    elif r < 0.5:
        i = rng.randrange(len(parts))
        parts.insert(i, parts[i])
    elif r < 0.6:
        i, j = rng.randrange(len(parts)), rng.randrange(len(parts))
        parts[i], parts[j] = parts[j], parts[i]
    elif r < 0.7:
        parts.append(rng.choice(PTX_PARTS))
    elif r < 0.75:
        parts = parts[:rng.randrange(len(parts) + 1)]
    elif r < 0.85:
        s = ".".join(parts)
        i = rng.randrange(len(s) + 1)
        s = s[:i] + rng.choice([".", "..", ":", " ", "x", "Z", "9", "::", "é",
                                "\t"]) + s[i:]
        return s
    elif r < 0.9:
        return rng.choice(["", ".", "cp", "cp.async", "x" * 5000,
                           ".".join(["tile"] * 300), "cp.async.bulk.tensor.",
                           "cp.async.bulk.tensor.99999999999999999999d"])
    else:
        # Correct PTX text of another direction's form.
        parts = rng.choice([
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
            "complete_tx::bytes.cta_group::1.multicast::cluster",
            "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group."
            "multicast::cluster",
            "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile::"
            "scatter4.bulk_group",
            "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::"
            "complete_tx::bytes.L2::cache_hint.L2::cache_hint",
            "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group."
            "cta_group::2",
            "cp.async.bulk.prefetch.tensor.2d.L2.global.tile.mbarrier::"
            "complete_tx::bytes",
            "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col_no_offs",
            "cp.async.bulk.prefetch.tensor.2d.L2.global.tile.multicast::cluster",
            "cp.async.bulk.prefetch.tensor.2d.shared::cta.global.tile",
            "cp.async.bulk.tensor.3d.global.shared::cta.im2col.bulk_group",
            "cp.async.bulk.tensor.3d.shared::cta.global.im2col_no_offs."
            "mbarrier::complete_tx::bytes",
            "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col::w."
            "bulk_group",
            "cp.reduce.async.bulk.prefetch.tensor.2d.L2.global.tile",
        ]).split(".")
    return ".".join(parts)


# ---------------------------------------------------------------------------
# Rendering.

def _mem_space(space):
    return "" if space is None else f", {space}"


def memref_type(shape, elem, layout=None, space=None) -> str:
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    lay = f", {layout}" if layout else ""
    return f"memref<{dims}{elem}{lay}{_mem_space(space)}>"


def global_layout(f: Form) -> str | None:
    if f.global_affine is not None and f.global_shape:
        n = len(f.global_shape)
        ds = [f"d{i}" for i in range(n)]
        head = f"({', '.join(ds)})"
        if f.global_affine == "perm":
            return f"affine_map<{head} -> ({', '.join(reversed(ds))})>"
        if f.global_affine == "symbol":
            terms = [f"{d} * s{i}" for i, d in enumerate(ds[:-1])] + [ds[-1]]
            syms = ", ".join(f"s{i}" for i in range(n - 1))
            return f"affine_map<{head}[{syms}] -> ({' + '.join(terms)})>"
        if f.global_affine == "mod":
            return f"affine_map<{head} -> ({' + '.join(ds[:-1] + [ds[-1] + ' mod 7'])})>"
        # A strided map written out: (d0 * S0 + ... + dn).
        terms, stride = [], 1
        for i in range(n - 1, -1, -1):
            terms.insert(0, ds[i] if stride == 1 else f"{ds[i]} * {stride}")
            stride = min(stride * (f.global_shape[i] or 64), 2 ** 61)
        return f"affine_map<{head} -> ({' + '.join(terms)} + {f.global_affine})>"
    if f.global_strides is None:
        return None
    s = ", ".join("?" if x is None else str(x) for x in f.global_strides)
    off = ""
    if f.global_offset is not None:
        off = f", offset: {f.global_offset}"
    return f"strided<[{s}]{off}>"


def _dense(values) -> str:
    if not values:
        return "array<i64>"
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def _str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def attr_entries(f: Form, generic: bool) -> list:
    """Descriptor attributes as `name = value` strings."""
    out = [f"box = {_dense(f.box)}"]
    if f.coord_steps is not None:
        out.append("coord_steps = [" + ", ".join(_dense(s) for s in f.coord_steps)
                   + "]")
    elif f.coord_steps_raw is not None:
        out.append(f"coord_steps = {f.coord_steps_raw}")
    if f.format is not None:
        out.append(f"format = #tile<format {f.format}>")
    for name in ("swizzle", "interleave", "l2_promotion", "oob_fill"):
        v = getattr(f, name)
        if v is not None:
            out.append(f"{name} = {v} : i32")
    if f.element_strides is not None:
        out.append(f"element_strides = {_dense(f.element_strides)}")
    for name in ("pixel_box_lower", "pixel_box_upper"):
        v = getattr(f, name)
        if v is not None:
            out.append(f"{name} = {_dense(v)}")
    if f.tag is not None:
        out.append(f"tag = {_str(f.tag)}")
    return out


def keyword_opcode(f: Form, rng: random.Random) -> str:
    words = {}
    for extra in f.keyword_extra:
        if extra.startswith("@"):
            key, _, val = extra[1:].partition(":")
            words[key] = val
    direction = words.get("direction", f.direction)
    s = direction
    red = words.get("reduction", f.reduction)
    if f.direction == "reduce" or "reduction" in words:
        s += f" {red or 'add'}"
    s += f" {words.get('mode', f.mode)} {words.get('rank', f.rank)}d"
    quals = []
    if f.cluster:
        quals.append("cluster")
    if f.multicast:
        quals.append("multicast")
    cta = words.get("cta", f.cta_group)
    if cta is not None:
        quals.append(f"cta_group({cta})")
    if f.cache_hint:
        quals.append("cache_hint")
    quals += [e for e in f.keyword_extra if not e.startswith("@")]
    if rng.random() < 0.2:
        rng.shuffle(quals)
    return " ".join([s] + quals)


def _direction_ok_for_keyword(f: Form) -> bool:
    # The keyword form has no spelling for a reduction operator outside reduce.
    return not (f.reduction is not None and f.direction != "reduce")


@dataclass
class _Kernel:
    args: list = field(default_factory=list)        # (name, type)
    defs: list = field(default_factory=list)        # (name, text)
    module_defs: list = field(default_factory=list)  # text lines
    workgroup: list = field(default_factory=list)    # (name, type, attr text)
    foreign: list = field(default_factory=list)      # parameters no host passes

    def arg(self, name, ty, host=True):
        if name not in [a for a, _ in self.args]:
            self.args.append((name, ty))
            if not host:
                self.foreign.append(name)
        return name

    def arg_i16(self, name):
        """A run-time i16 operand: an i32 parameter (what a host passes)
        truncated in the kernel."""
        wide = self.arg(f"{name}_i32", "i32")
        return self.define(name, f"{name} = arith.trunci {wide} : i32 to i16")

    def define(self, name, text):
        if name not in [d for d, _ in self.defs]:
            self.defs.append((name, text))
        return name


def _const(k: _Kernel, value: int, ty: str = "i32") -> str:
    tag = str(value).replace("-", "m")
    name = f"%c{tag}" if ty == "i32" else f"%c{tag}_{ty}"
    return k.define(name, f"{name} = arith.constant {value} : {ty}")


BARRIER_TYPE = "memref<1xi64, 3>"
# The copy engine completes transactions on the barrier: its initialisation
# is made visible to the async proxy first.
FENCE_INIT = ("nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, "
              "space = #nvvm.shared_space<cta>}")


def _barrier(k: _Kernel) -> str:
    """%bar: the kernel's mbarrier, one i64 of a shared memref.global, as
    the pointer the copy and the nvvm ops take (a named allocation, so the
    barrier checks follow it: initialised, armed, its phases' bytes)."""
    if "%bar" not in [d for d, _ in k.defs]:
        k.module_defs.append(f'memref.global "private" @mbar : {BARRIER_TYPE} '
                             "{alignment = 8}")
        k.define("%mbars", f"%mbars = memref.get_global @mbar : {BARRIER_TYPE}")
        k.define("%mbari", "%mbari = memref.extract_aligned_pointer_as_index %mbars : "
                           f"{BARRIER_TYPE} -> index")
        k.define("%mbar64", "%mbar64 = arith.index_cast %mbari : index to i64")
    return k.define("%bar", "%bar = llvm.inttoptr %mbar64 : i64 to !llvm.ptr<3>")


def _barrier_plan(f: Form) -> dict | None:
    """The accounting of the kernel's barrier: the form's own, else (a copy
    on a barrier) init, arm with the copy's bytes, wait."""
    if f.barrier is not None or not f.mbar:
        return f.barrier
    expect = "arg" if f.tx_expect is None else f.tx_expect
    return {"expect": expect, "place": "before", "wait": True, "loop": 0}


def _accounting(f: Form, k: _Kernel, b: dict | None):
    """The kernel's barrier set-up and accounting of plan `b`: (init lines,
    expect_tx lines, where they go ('before'/'after' the copy or None), the
    head of a constant-trip loop around the copy or None, the wait or
    None)."""
    setup, barrier_lines, arrive, loop_head, wait_line = [], [], None, None, None
    if b is None:
        return setup, barrier_lines, arrive, loop_head, wait_line
    bar = _barrier(k)
    if b.get("init", True):
        setup = [f"nvvm.mbarrier.init {bar}, {_const(k, 1)} : !llvm.ptr<3>, i32",
                 FENCE_INIT]
    trips = b["loop"]
    if trips:
        lo, hi, one = (_const(k, v, "index") for v in (0, trips, 1))
        loop_head = f"scf.for %li = {lo} to {hi} step {one} {{"
    if not b.get("armed", True):
        count = ""
    elif b["expect"] == "tx" and f.tx_bytes:
        count = "%tx"
        if trips:
            barrier_lines.append(f"%txn = arith.muli %tx, {_const(k, trips)} : i32")
            count = "%txn"
    elif b["expect"] == "arg" or b["expect"] == "tx":
        count = k.arg("%ntx", "i32")
    else:
        count = _const(k, b["expect"])
    if count:
        barrier_lines.append(f"nvvm.mbarrier.arrive.expect_tx {bar}, {count} : "
                             "!llvm.ptr<3>, i32")
        arrive = b["place"] if not (count.startswith("%tx") and
                                    f.tx_bytes == "after") else "after"
    if b["wait"]:
        zero = _const(k, 0)
        wait_line = f"nvvm.mbarrier.try_wait.parity {bar}, {zero}, {zero} : " \
                    "!llvm.ptr<3>, i32, i32"
    return setup, barrier_lines, arrive, loop_head, wait_line


def _host_memref(f: Form) -> bool:
    """Whether the host passes the global memref parameter: global memory
    of an element type the runtime knows."""
    return (f.global_space in (None, "0", "1", "#gpu.address_space<global>")
            and f.elem in _ELEMENTS)


def render(f: Form, index: int, rng: random.Random):
    """(module text, copy line, builder spec or None, ptx_ok, style,
    launchable)."""
    k = _Kernel()
    ptx_ok = True
    # Global operand.
    if f.global_kind == "memref":
        gtype = memref_type(f.global_shape, f.elem, global_layout(f), f.global_space)
        if f.global_source == "alloc":
            # memref.alloc needs its dynamic sizes and layout symbols: keep
            # this one static.
            shape = [64 if d is None else d for d in f.global_shape]
            layout = global_layout(f)
            if layout and ("?" in layout or "[s0" in layout):
                layout = None
            gtype = memref_type(shape, f.elem, layout, f.global_space)
            k.arg("%x", "i32")
            gname = k.define("%G", f"%G = memref.alloc() : {gtype}")
            ptx_ok = False
        else:
            gname = k.arg("%A", gtype, _host_memref(f))
    else:
        gtype = "!llvm.ptr" if f.ptr_space == 0 else f"!llvm.ptr<{f.ptr_space}>"
        if f.ptr_source == "inttoptr":
            addr = _const(k, 4096, "i64")
            gname = k.define("%map", f"%map = llvm.inttoptr {addr} : i64 to {gtype}")
        else:
            # A tensor map passed by pointer: no host passes one.
            gname = k.arg("%A", gtype, host=False)
        if f.ptr_space not in (0, 1, 4):
            ptx_ok = False
    # Runtime operands.
    mbar = _barrier(k) if f.mbar else None
    mask = None
    if f.cta_mask:
        if f.cta_mask_value is None:
            mask = k.arg_i16("%mask")
        else:
            v = f.cta_mask_value
            mask = _const(k, v - (1 << 16) if v >= 1 << 15 else v, "i16")
    policy = None
    if f.cache_policy:
        policy = (k.arg("%pol", "i64") if rng.random() < 0.7
                  else _const(k, 0x12F0000000000000, "i64"))
    coords = []
    for i, c in enumerate(f.coords):
        if c[0] == "arg":
            coords.append(k.arg(f"%x{i}", "i32"))
        else:
            coords.append(_const(k, c[1]))
    rows = [_const(k, r) for r in (f.rows or [])]
    offsets = []
    for i, o in enumerate(f.offsets or []):
        if o[0] == "arg":
            offsets.append(k.arg_i16(f"%o{i}"))
        else:
            offsets.append(_const(k, o[1], "i16"))
    # Shared operand (none for a prefetch).
    sname = stype = None
    if f.has_shared:
        sname, stype, shared_ptx_ok = _render_shared(f, k)
        ptx_ok = ptx_ok and shared_ptx_ok

    # The copy.
    ptx = None
    style = f.style
    if style == "ptx":
        ptx = f.ptx or ptx_spelling(f, rng)
        if ptx is None:
            style = "keyword"
    if style == "keyword" and not _direction_ok_for_keyword(f):
        style = "generic"
    head = f"{sname}, {gname}" if sname else gname
    operands = f"{head}[{', '.join(coords)}]"
    if rows:
        operands += f" rows[{', '.join(rows)}]"
    if offsets:
        operands += f" offsets[{', '.join(offsets)}]"
    if mbar:
        operands += f" mbar({mbar})"
    if mask:
        operands += f" cta_mask({mask})"
    if policy:
        operands += f" cache_policy({policy})"
    attrs = attr_entries(f, style == "generic")
    if style == "generic":
        props = list(attrs)
        props.append(f"direction = #tile<direction {f.direction}>")
        props.append(f"mode = #tile<mode {f.mode}>")
        props.append(f"rank = {f.rank} : i32")
        if f.reduction:
            red = {"and": "and", "or": "or", "xor": "xor"}.get(f.reduction, f.reduction)
            props.append(f"reduction = #tile<reduction {red}>")
        if f.cluster:
            props.append("dst_cluster")
        if f.multicast:
            props.append("multicast")
        if f.cache_hint:
            props.append("cache_hint")
        if f.cta_group is not None:
            props.append(f"cta_group = {f.cta_group} : i32")
        # shared, global, coords, rows, offsets, mbar, cta_mask, cache_policy
        segs = [1 if sname else 0, 1, len(coords), len(rows), len(offsets),
                1 if mbar else 0, 1 if mask else 0, 1 if policy else 0]
        props.append("operandSegmentSizes = array<i32: %s>" %
                     ", ".join(map(str, segs)))
        rng.shuffle(props)
        vals = ([sname] if sname else []) + [gname] + coords + rows + offsets
        vals += [v for v in (mbar, mask, policy) if v]
        types = ([stype] if sname else []) + [gtype]
        types += ["i32"] * (len(coords) + len(rows)) + ["i16"] * len(offsets)
        types += [t for v, t in ((mbar, "!llvm.ptr<3>"), (mask, "i16"),
                                 (policy, "i64")) if v]
        copy_text = (f'"tile.tma_copy"({", ".join(vals)}) <{{{", ".join(props)}}}> '
                     f': ({", ".join(types)}) -> ()')
    else:
        opcode = _str(ptx) if style == "ptx" else keyword_opcode(f, rng)
        copy_text = (f"tile.tma_copy {opcode} {operands} "
                     f"{{{', '.join(attrs)}}} : {stype + ', ' if sname else ''}{gtype}")

    # Kernel text.
    targets = ""
    if f.targets:
        ts = []
        for chip, feats in f.targets:
            ts.append(f'#nvvm.target<chip = "{chip}"' +
                      (f', features = "{feats}"' if feats else "") + ">")
        targets = f" [{', '.join(ts)}]"
    # Barrier accounting around the copy (not in the builder's skeleton).
    b = _barrier_plan(f)
    setup, barrier_lines, arrive, loop_head, wait_line = _accounting(f, k, b)
    lines = [f"gpu.module @m{index}{targets} {{"]
    lines += [f"  {d}" for d in k.module_defs]
    sig = ", ".join(f"{n}: {t}" for n, t in k.args)
    wg = ""
    if k.workgroup:
        wg = " workgroup(" + ", ".join(f"{n} : {t}{a}" for n, t, a in k.workgroup) + ")"
    kw = " kernel" if f.kernel else ""
    # One thread per block: it initialises the barrier for one arrival.
    fattrs = ["known_block_size = array<i32: 1, 1, 1>"] if f.kernel else []
    if f.cluster_dims is not None:
        name, ty = f.cluster_attr, "i32"
        if name.endswith(":i64"):
            name, ty = name[:-4], "i64"
        dims = ", ".join(map(str, f.cluster_dims))
        fattrs.append(f"{name} = array<{ty}: {dims}>")
    fattrs = f" attributes {{{', '.join(fattrs)}}}" if fattrs else ""
    lines.append(f"  gpu.func @k{index}({sig}){wg}{kw}{fattrs} {{")
    body = [text for _, text in k.defs] + setup
    tx = None
    if f.tx_bytes:
        tx = f"%tx = tile.tx_bytes {_str(f.tx_tag or '')} : i32"
    pmap = None
    pmap_where = f.prefetch_map
    if f.prefetch_map:
        pmap = f"tile.prefetch_tensormap {_str(f.prefetch_map_tag or '')}"
    for extra, where in ((tx, f.tx_bytes), (pmap, pmap_where)):
        if extra and where == "before":
            body.append(extra)
    if arrive == "before":
        body += barrier_lines
    if loop_head:
        body.append(loop_head)
    body.append(copy_text)
    copy_idx = len(body) - 1
    if loop_head:
        body.append("}")
    for extra, where in ((tx, f.tx_bytes), (pmap, pmap_where)):
        if extra and where == "after":
            body.append(extra)
    if arrive == "after":
        body += barrier_lines
    if b is not None and wait_line:
        body.append(wait_line)
        barrier_lines.append(wait_line)
    body.append("gpu.return")
    first_body_line = len(lines) + 1
    lines += [f"    {b}" for b in body]
    lines += ["  }", "}"]
    copy_line = first_body_line + copy_idx
    text = "\n".join(lines) + "\n"
    if not f.kernel:
        ptx_ok = False

    builder = None
    bptx = ptx if style == "ptx" else ptx_spelling(f)
    if (bptx is not None and f.coord_steps_raw is None
            and bptx.startswith("cp.async.bulk.prefetch.") == (sname is None)
            and not (style != "ptx" and f.keyword_extra)):
        # The IR without the copy, tx_bytes and prefetch_tensormap: the
        # driver parses it and inserts the copy with tma.apply before
        # gpu.return.
        skel_body = [b for b in body if b not in (copy_text, tx, pmap, loop_head, "}")
                     and b not in barrier_lines]
        skel = lines[:first_body_line - 1] + [f"    {b}" for b in skel_body] + ["  }", "}"]
        gather = scatter = None
        if rows or f.mode in ("gather4", "scatter4"):
            # rows[] go to gather4= for loads and prefetches, scatter4=
            # otherwise.
            if f.direction in ("load", "prefetch"):
                gather = rows
            else:
                scatter = rows
        builder = {
            "opcode": bptx,
            "shared": sname, "global": gname,
            "box": list(f.box), "coords": coords,
            "coord_steps": f.coord_steps,
            "format": f.format,
            "swizzle": f.swizzle or 0,
            "element_strides": f.element_strides,
            "interleave": f.interleave or 0,
            "l2_promotion": f.l2_promotion or 0,
            "oob_fill": f.oob_fill or 0,
            "mbar": mbar, "cta_mask": mask, "cache_policy": policy,
            "gather4": gather, "scatter4": scatter,
            "offsets": offsets if f.offsets is not None else None,
            "pixel_box_lower": f.pixel_box_lower,
            "pixel_box_upper": f.pixel_box_upper,
            "tag": f.tag,
            "skeleton": "\n".join(skel) + "\n",
            "func": f"k{index}",
            "args": [n for n, _ in k.args] + [n for n, _, _ in k.workgroup],
            "defs": [n for n, t in k.defs],
        }
    return text, copy_line, builder, ptx_ok, style, not k.foreign


def _canonical_strides(shape) -> list:
    strides, prod = [], 1
    for d in reversed(shape):
        strides.insert(0, prod)
        prod *= d
    return strides


def _render_shared(f: Form, k: _Kernel):
    """(SSA name, type, ptx_ok) of the shared operand, defined in `k`."""
    ptx_ok = True
    slayout = None
    if f.shared_layout is not None and f.shared_shape:
        strides = [1]
        for d in reversed(f.shared_shape[1:]):
            strides.insert(0, strides[0] * (d or 8) + f.shared_layout)
        slayout = "strided<[%s]>" % ", ".join(map(str, strides))
    stype = memref_type(f.shared_shape, f.shared_elem, slayout, f.shared_space)
    static = all(d is not None for d in f.shared_shape)
    src = f.shared_source
    if src in ("global", "alloca", "dynamic", "subview", "attribution") and \
            (not static or slayout):
        src = "arg"
    if src in ("dynamic", "attribution") and \
            f.shared_space != "#gpu.address_space<workgroup>":
        src = "global"
    # MLIR lays out a ring with an empty axis with runtime strides.
    if src == "subview" and not all(d and d > 0 for d in f.shared_shape):
        src = "global"
    nbytes = ELEM_BITS.get(f.shared_elem, 0) // 8
    for d in f.shared_shape:
        nbytes *= d or 0
    if src == "global":
        align = f" {{alignment = {f.shared_align}}}" if f.shared_align else ""
        k.module_defs.append(
            f'memref.global "private" @smem : {stype}{align}')
        sname = k.define("%s", f"%s = memref.get_global @smem : {stype}")
    elif src == "alloca":
        align = f" {{alignment = {f.shared_align}}}" if f.shared_align else ""
        sname = k.define("%s", f"%s = memref.alloca(){align} : {stype}")
        ptx_ok = False
    elif src == "dynamic":
        dyn = "memref<?xi8, #gpu.address_space<workgroup>>"
        k.define("%dyn", f"%dyn = gpu.dynamic_shared_memory : {dyn}")
        if f.shared_offset == "?":
            off = k.arg("%voff", "index")
        else:
            off = _const(k, f.shared_offset, "index")
        sname = k.define("%sv", f"%sv = memref.view %dyn[{off}][] : {dyn} to {stype}")
    elif src == "subview":
        # Stage `ring_stage` of a ring of four: a strided view at an offset.
        ring = memref_type([4] + list(f.shared_shape), f.shared_elem, None, f.shared_space)
        align = f" {{alignment = {f.shared_align}}}" if f.shared_align else ""
        k.module_defs.append(f'memref.global "private" @ring : {ring}{align}')
        k.define("%ring", f"%ring = memref.get_global @ring : {ring}")
        count = 1
        for d in f.shared_shape:
            count *= d
        if f.ring_stage == "?":
            stage, offset = k.arg("%stage", "index"), "?"
        else:
            stage, offset = str(f.ring_stage), str(f.ring_stage * count)
        rank = len(f.shared_shape)
        strides = ", ".join(map(str, _canonical_strides(f.shared_shape)))
        stype = memref_type(f.shared_shape, f.shared_elem,
                            f"strided<[{strides}], offset: {offset}>", f.shared_space)
        offs = ", ".join([stage] + ["0"] * rank)
        sizes = ", ".join(map(str, [1] + list(f.shared_shape)))
        ones = ", ".join(["1"] * (rank + 1))
        sname = k.define("%sv", f"%sv = memref.subview %ring[{offs}][{sizes}][{ones}] : "
                                f"{ring} to {stype}")
        nbytes *= 4
    elif src == "attribution":
        attr = f" {{llvm.align = {f.shared_align} : i64}}" if f.shared_align else ""
        k.workgroup.append(("%w", stype, attr))
        sname = "%w"
    else:
        sname = k.arg("%S", stype, host=False)
        ptx_ok = ptx_ok and static and not slayout
    if f.shared_assume is not None:
        sname = k.define("%s", f"%s = memref.assume_alignment {sname}, "
                               f"{f.shared_assume} : {stype}")
    if f.shared_space not in ("3", "#gpu.address_space<workgroup>"):
        ptx_ok = False
    # ptxas refuses more static shared memory than sm_90/sm_100 have.
    if not 0 < nbytes <= SHARED_LIMIT:
        ptx_ok = False

    return sname, stype, ptx_ok


def builder_operands(b: dict) -> list:
    """The buffers in `tma.apply`'s order: `shared, global_` for loads,
    `global_, shared` for stores and reductions, `global_` for a prefetch."""
    opcode = b["opcode"] or ""
    if opcode.startswith("cp.async.bulk.prefetch."):
        return [b["global"]]
    head = opcode.split(".global")[0]
    if ".shared::" in head and not opcode.startswith("cp.reduce"):
        return [b["shared"], b["global"]]
    return [b["global"], b["shared"]]


def render_python_call(b: dict) -> str:
    def v(name):
        return name.lstrip("%") if isinstance(name, str) else repr(name)

    args = [repr(b["opcode"])] + [v(x) for x in builder_operands(b)]
    args += [f"box={tuple(b['box'])!r}",
             f"coords=({', '.join(v(c) for c in b['coords'])}{',' if len(b['coords']) == 1 else ''})"]
    for key in ("pixel_box_lower", "pixel_box_upper"):
        if b.get(key) is not None:
            args.append(f"{key}={tuple(b[key])!r}")
    if b.get("offsets") is not None:
        args.append(f"offsets=({', '.join(v(o) for o in b['offsets'])}"
                    f"{',' if len(b['offsets']) == 1 else ''})")
    for key in ("coord_steps", "format", "element_strides", "tag"):
        if b[key] is not None:
            args.append(f"{key}={b[key]!r}")
    for key in ("swizzle", "interleave", "l2_promotion", "oob_fill"):
        if b[key]:
            args.append(f"{key}={b[key]!r}")
    for key in ("mbar", "cta_mask", "cache_policy"):
        if b[key]:
            args.append(f"{key}={v(b[key])}")
    for key in ("gather4", "scatter4"):
        if b[key] is not None:
            args.append(f"{key}=({', '.join(v(r) for r in b[key])})")
    return "tma.apply(" + ", ".join(args) + ")"


# ---------------------------------------------------------------------------
# Garbage: token-level damage to the copy line (and sometimes its kernel).

GARBAGE_TOKENS = [
    "99999999999999999999", "-99999999999999999999", "0x", "%", "%undef",
    "[", "]", "(", ")", "{", "}", "<", ">", ":", ",", "=", "\"", "@", "#tile<",
    "array<i64:", "i32", "i64", "f32", "memref<8x16xf32,", "tensor<8x16xf32>",
    "!llvm.ptr<3>", "index", "load", "store", "reduce", "tile", "gather4",
    "2d", "cluster", "cta_group(", "rows[", "mbar(", "#tile<format bogus>",
    "#tile<direction sideways>", "unit", "1.5", "-", "...", "\u00e9", "dense<1>",
    "box", "swizzle = 1 : i64", "rank = 7 : i32", "#tile<mode bogus>",
]


def garbage(rng: random.Random, text: str, copy_line: int):
    lines = text.split("\n")
    line = lines[copy_line - 1]
    indent = line[:len(line) - len(line.lstrip())]
    body = line.lstrip()
    r = rng.random()
    toks = body.split(" ")
    kind = ""
    if r < 0.15:
        body = body[:rng.randrange(len(body))]
        kind = "truncate"
    elif r < 0.3 and len(toks) > 2:
        del toks[rng.randrange(1, len(toks))]
        body = " ".join(toks)
        kind = "drop-token"
    elif r < 0.4:
        i = rng.randrange(1, len(toks))
        toks.insert(i, toks[i])
        body = " ".join(toks)
        kind = "dup-token"
    elif r < 0.55:
        toks[rng.randrange(1, len(toks))] = rng.choice(GARBAGE_TOKENS)
        body = " ".join(toks)
        kind = "replace-token"
    elif r < 0.65:
        i = rng.randrange(len(body))
        body = body[:i] + rng.choice("[](){}<>:,=\"%@#!^?*") + body[i:]
        kind = "insert-char"
    elif r < 0.72:
        i = rng.randrange(len(body))
        body = body[:i] + body[i + 1:]
        kind = "delete-char"
    elif r < 0.8:
        nums = list(re.finditer(r"(?<![\w%])-?\d+", body))
        if nums:
            m = rng.choice(nums)
            body = body[:m.start()] + rng.choice(
                ["99999999999999999999", "-99999999999999999999",
                 "18446744073709551616", "4294967296", "9223372036854775808"]) \
                + body[m.end():]
        kind = "huge-literal"
    elif r < 0.86:
        # Wrong operand types in the trailing type list.
        head, sep, tail = body.rpartition(" : ")
        tail = rng.choice(["tensor<8x16xf32>, memref<64x64xf32>",
                           "memref<8x16xf32, 3>, i32", "i32, i32",
                           "memref<8x16xf32, 3>", "memref<8x16xf32, 3>, tensor<4xf32>",
                           "!llvm.ptr<3>, memref<64x64xf32>", "",
                           "memref<8x16xf32, 3>, memref<64x64xf32>, i32"])
        body = head + sep + tail
        kind = "wrong-type"
    elif r < 0.9:
        q = body.find('"')
        if q >= 0:
            body = body[:q + 1] + body[q + 1:].replace('"', "", 1)
        else:
            body = body.replace("tile.tma_copy ", 'tile.tma_copy "cp.async.', 1)
        kind = "unterminated-string"
    elif r < 0.95:
        # An operand of the wrong type, or undefined.
        for old, new in ((" mbar(%bar)", rng.choice([" mbar(%c0)", " mbar(%nope)",
                                                    " mbar()", " mbar(%bar, %bar)"])),
                         ("[%c0", rng.choice(["[%bar", "[%undefined", "[%c0 %c0"])),
                         (" rows[", " rows[%bar, "), ("cta_mask(%mask)", "cta_mask(%c0)")):
            if old in body:
                body = body.replace(old, new, 1)
                break
        else:
            body = body.replace("[", "[%bar, ", 1)
        kind = "wrong-operand"
    else:
        # Truncate the whole module after the copy line.
        lines = lines[:copy_line]
        lines[copy_line - 1] = indent + body
        return "\n".join(lines) + "\n", "truncate-module"
    lines[copy_line - 1] = indent + body
    return "\n".join(lines), kind


# ---------------------------------------------------------------------------
# Entry points.

def case_rng(seed: int, index: int) -> random.Random:
    return random.Random(f"tile-fuzz/{seed}/{index}")


def generate(seed: int, index: int) -> Case:
    rng = case_rng(seed, index)
    r = rng.random()
    kind = "valid" if r < 0.45 else ("mutated" if r < 0.9 else "garbage")
    f = build_valid(rng)
    mutations = []
    if kind != "valid":
        n = rng.choices([1, 2, 3], [70, 20, 10])[0]
        if kind == "garbage":
            n = rng.choice([0, 0, 1])
        fns, weights = zip(*MUTATIONS)
        for fn in rng.choices(fns, weights, k=n):
            fn(rng, f)
            mutations.append(fn.__name__[2:])
    text, copy_line, builder, ptx_ok, style, launchable = render(f, index, rng)
    if kind == "garbage":
        text, how = garbage(rng, text, copy_line)
        mutations.append("garbage:" + how)
        builder = None
        ptx_ok = False
    return Case(seed=seed, index=index, kind=kind, text=text, copy_line=copy_line,
                mutations=mutations, style=style, builder=builder, ptx_ok=ptx_ok,
                launchable=launchable)


def generate_many(seed: int, start: int, count: int):
    for i in range(start, start + count):
        yield generate(seed, i)


if __name__ == "__main__":   # print a few cases
    import sys
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    for c in generate_many(seed, 0, n):
        print(f"// case {c.index} ({c.kind}: {', '.join(c.mutations) or 'none'})")
        print(c.text)
        if c.builder:
            print("// " + c.python_call())
        print("// -----")
