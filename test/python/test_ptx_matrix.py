"""The PTX of every form: builder -> verifier -> tile-to-ptx -> ptxas.

A matrix of copies (directions x modes x ranks 1-5 x swizzle 0-3 x interleave
0/1/2 x multicast x cache hint x cta_group x every reduction on each of its
formats x element strides x tf32/ftz/oob fill/l2 promotion x repeat axes x
packed fp4) is built with the Python builder, grouped into a few kernels, and
compiled once per arch. For each kernel the PTX must hold exactly the expected
instructions: the full `cp.async.bulk.tensor.Nd...` /
`cp.reduce.async.bulk.tensor.Nd...` spelling (dimension, direction spaces,
mode, completion, multicast, L2 cache hint, cta_group, reduction operator),
one per repeat slot, each with its coordinate count; the manifest must hold
one tensor map per distinct descriptor with the fields the copy asked for.
ptxas then assembles the PTX for sm_90a (every form Hopper has) and sm_100a
(every form: gather4/scatter4, cta_group and packed fp4 too).

A sweep over dtype x swizzle x inner box bytes x direction x rank checks the
rule that matters most here: an op the verifier accepts never makes the
lowering (or ptxas) fail.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import itertools
import math
import re
from dataclasses import dataclass, field

import pytest

ir = pytest.importorskip("mlir.ir")


from tile_mlir import compiler, kernel as K, tma  # noqa: E402
from tile_mlir.errors import TileVerifyError  # noqa: E402

HOPPER, BLACKWELL = "sm_90a", "sm_100a"
ARCHES = (HOPPER, BLACKWELL)

# Independent expectations, written out here rather than read from
# tile_mlir.contract: the manifests and the accepted forms are checked
# against them.
# Bits of each builder dtype (fp4 is packed: two per byte).
BITS = {
    "uint8": 8, "uint16": 16, "uint32": 32, "int32": 32, "uint64": 64,
    "int64": 64, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64,
    "float8_e4m3fn": 8, "float8_e5m2": 8, "float4_e2m1fn": 4,
}
# CUtensorMapDataType of the storage dtype / of an explicit format.
DATA_TYPE = {
    "uint8": 0, "uint16": 1, "uint32": 2, "int32": 3, "uint64": 4, "int64": 5,
    "float16": 6, "float32": 7, "float64": 8, "bfloat16": 9, "float32_ftz": 10,
    "tf32": 11, "tf32_ftz": 12, "float8_e4m3fn": 0, "float8_e5m2": 0,
    "float4_e2m1fn": 14,
}
REDUCTION_FORMATS = {
    "add": ("uint32", "int32", "uint64", "float32", "float16", "bfloat16"),
    "min": ("uint32", "int32", "uint64", "int64", "float16", "bfloat16"),
    "max": ("uint32", "int32", "uint64", "int64", "float16", "bfloat16"),
    "inc": ("uint32",),
    "dec": ("uint32",),
    # Bitwise on an INT64 map traps on the H200 (measured): uint64 only.
    "and": ("uint32", "int32", "uint64"),
    "or": ("uint32", "int32", "uint64"),
    "xor": ("uint32", "int32", "uint64"),
}
INSTRUCTION = re.compile(
    r"^\s*(cp(?:\.reduce)?\.async\.bulk\.tensor\.\S+)\s+(.*);\s*$", re.M)


# --------------------------------------------------------------------------
# Forms


def opcode(direction="load", rank=2, mode="tile", dst="cta", multicast=False,
           cta_group=None, hint=False, reduction=None) -> str:
    """The PTX spelling given to apply() (the C++ printer's, PTX ISA
    qualifier order)."""
    return tma.format_opcode(direction=direction, mode=mode, rank=rank,
                             reduction=reduction, dst_cluster=dst == "cluster",
                             multicast=multicast, cta_group=cta_group, cache_hint=hint)


def expected_instruction(fields: dict) -> str:
    """The spelling the PTX must contain for an op with these fields.

    Spelled here, not by the C++ printer: this is the expectation the
    printed PTX is checked against, so it is kept independent of it.

    Loads, stores and reductions go through the NVVM ops, whose NVPTX printer
    orders a load's qualifiers multicast, L2::cache_hint, cta_group. A
    cta_group load into shared::cta has no NVVM op and is issued as inline
    PTX in the PTX ISA order (cta_group, then L2::cache_hint).
    """
    rank, hint = fields["rank"], fields["cache_hint"]
    mode = {"tile": "tile", "gather4": "tile::gather4",
            "scatter4": "tile::scatter4"}[fields["mode"]]
    tail = ".L2::cache_hint" if hint else ""
    if fields["direction"] == "reduce":
        return (f"cp.reduce.async.bulk.tensor.{rank}d.global.shared::cta."
                f"{fields['reduction']}.tile.bulk_group{tail}")
    if fields["direction"] == "store":
        return f"cp.async.bulk.tensor.{rank}d.global.shared::cta.{mode}.bulk_group{tail}"
    dst = "shared::cluster" if fields["dst_cluster"] else "shared::cta"
    s = f"cp.async.bulk.tensor.{rank}d.{dst}.global.{mode}.mbarrier::complete_tx::bytes"
    group = fields["cta_group"]
    if group and not fields["dst_cluster"]:
        return s + f".cta_group::{group}" + tail
    s += ".multicast::cluster" if fields["multicast"] else ""
    return s + tail + (f".cta_group::{group}" if group else "")


@dataclass(frozen=True)
class Form:
    """One tile.tma_copy: the opcode, its operands' shapes and its fields."""
    name: str
    op: str
    dtype: str
    box: tuple
    gshape: tuple = None            # global shape (default: derived from box)
    steps: tuple = ()               # coord_steps; repeat extents in `repeat`
    repeat: tuple = ()
    swizzle: int = 0
    interleave: int = 0
    element_strides: tuple = None
    format: str = None
    oob_fill: int = 0
    l2_promotion: int = 0
    runtime_coords: bool = False

    @functools.cached_property
    def fields(self) -> dict:
        return tma.parse_opcode(self.op)

    @property
    def fp4(self) -> bool:
        return self.dtype == "float4_e2m1fn"

    @property
    def slots(self) -> int:
        return math.prod(self.repeat)

    def image(self) -> tuple:
        """The shared image of one slot (the contract's model, in shared
        elements): ceil(box/element_strides), plus the interleave slice; a
        row shorter than the swizzle span is stored in the whole span."""
        bits = BITS[self.dtype]
        elem_bytes = 1 if self.fp4 else bits // 8
        if self.fields["mode"] != "tile":
            dims = [4, self.box[1]]
        else:
            es = self.element_strides or (1,) * len(self.box)
            dims = [-(-b // s) for b, s in zip(self.box, es)]
        if self.interleave:
            dims.append((8 << self.interleave) * 8 // bits)
        row = dims[-1] * (elem_bytes * 8 if self.fp4 else bits) // 8
        span = (16 << self.swizzle) if self.swizzle else 0
        dims[-1] = max(row, span) // elem_bytes
        return tuple(dims)

    def global_shape(self) -> tuple:
        if self.gshape:
            return self.gshape
        if self.interleave:
            # (N, C_slices, *spatial, Ci): Ci is one 16/32-byte slice.
            ci = (8 << self.interleave) * 8 // BITS[self.dtype]
            return tuple(max(2 * b, 4) for b in self.box) + (ci,)
        inner = max(2 * self.box[-1], 1024 // BITS[self.dtype], 128 if self.fp4 else 0)
        return tuple(max(2 * b, 4) for b in self.box[:-1]) + (inner,)

    def spec(self) -> dict:
        """The tensor-map fields this copy asks for (innermost-first)."""
        fmt = self.format or self.dtype
        es = self.element_strides or (1,) * len(self.box)
        box = (self.box[1], 1) if self.fields["mode"] != "tile" else self.box[::-1]
        return {
            "mode": self.fields["mode"], "rank": len(self.box),
            "global_rank": len(self.global_shape()),
            "data_type": DATA_TYPE[fmt], "elem_bits": BITS[self.dtype],
            "box": list(box), "element_strides": list(es[::-1]),
            "swizzle": self.swizzle, "interleave": self.interleave,
            "oob_fill": self.oob_fill, "l2_promotion": self.l2_promotion,
        }


def load(rank=2, dtype="float32", box=None, dst="cta", multicast=False,
         cta_group=None, hint=False, name=None, **kw) -> Form:
    box = box or ((1,) * (rank - 2) + (8, 16))[-rank:]
    op = opcode("load", rank, dst=dst, multicast=multicast, cta_group=cta_group,
                hint=hint)
    return Form(name or f"load{rank}d", op, dtype, tuple(box), **kw)


def store(rank=2, dtype="float32", box=None, hint=False, name=None, **kw) -> Form:
    box = box or ((1,) * (rank - 2) + (8, 16))[-rank:]
    return Form(name or f"store{rank}d", opcode("store", rank, hint=hint), dtype,
                tuple(box), **kw)


def reduce(red, dtype, rank=2, box=None, hint=False, name=None, **kw) -> Form:
    box = box or ((1,) * (rank - 2) + (8, 16 * 32 // max(BITS[dtype], 32)))[-rank:]
    return Form(name or f"reduce-{red}-{dtype}-{rank}d",
                opcode("reduce", rank, hint=hint, reduction=red), dtype,
                tuple(box), **kw)


def gather4(width=32, dtype="float32", dst="cta", multicast=False, cta_group=None,
            hint=False, **kw) -> Form:
    op = opcode("load", 2, mode="gather4", dst=dst, multicast=multicast,
                cta_group=cta_group, hint=hint)
    return Form(f"gather4-{dst}-{multicast}-{cta_group}-{hint}-{dtype}", op, dtype,
                (1, width), gshape=(64, max(2 * width, 128)), **kw)


def scatter4(width=32, dtype="float32", hint=False, **kw) -> Form:
    op = opcode("store", 2, mode="scatter4", hint=hint)
    return Form(f"scatter4-{hint}-{dtype}", op, dtype, (1, width),
                gshape=(64, max(2 * width, 128)), **kw)


# --------------------------------------------------------------------------
# The matrix: kernels of forms, by the arches that have them.


def _common_groups() -> dict[str, list[Form]]:
    """Forms Hopper and Blackwell both have."""
    groups = {}
    # Every direction/destination at every rank.
    groups["ranks"] = [
        f(rank=r, runtime_coords=(r % 2 == 0), name=f"{kind}-{r}d")
        for r in range(1, 6)
        for kind, f in (("load-cta", load),
                        ("load-cluster", functools.partial(load, dst="cluster")),
                        ("store", store),
                        ("reduce-add", functools.partial(reduce, "add", "float32")))
    ]
    # Multicast (always into shared::cluster) and the L2 cache hint, on every
    # direction, at ranks 1, 3 and 5.
    groups["multicast_hint"] = [
        f(rank=r)
        for r in (1, 3, 5)
        for f in (functools.partial(load, dst="cluster", multicast=True),
                  functools.partial(load, dst="cluster", multicast=True, hint=True),
                  functools.partial(load, hint=True),
                  functools.partial(load, dst="cluster", hint=True),
                  functools.partial(store, hint=True),
                  functools.partial(reduce, "add", "float32", hint=True))
    ]
    # Every reduction operator on each format it is defined for.
    groups["reductions"] = [
        reduce(red, dtype, rank=1 + i % 5, hint=(i % 3 == 0))
        for i, (red, dtype) in enumerate(
            (r, d) for r, ds in REDUCTION_FORMATS.items() for d in ds)
    ]
    # Swizzle 0..3: rows that fill the span, and shorter (padded) rows; with
    # repeat axes so the slot stride is the padded image.
    groups["swizzle"] = [
        load(box=(8, 8), swizzle=1, name="sw1-full"),
        load(box=(8, 16), swizzle=2, name="sw2-full"),
        load(box=(8, 32), swizzle=3, name="sw3-full"),
        store(box=(8, 32), swizzle=3, name="sw3-store"),
        reduce("add", "float32", box=(8, 16), swizzle=2, name="sw2-reduce"),
        load(dtype="float16", box=(4, 8), swizzle=3, steps=((4, 0),), repeat=(2,),
             name="sw3-padded-rep"),
        load(dtype="float16", box=(8, 8), swizzle=1, steps=((8, 0), (0, 8)),
             repeat=(2, 3), name="sw1-padded-rep2"),
        store(dtype="uint8", box=(16, 32), swizzle=2, name="sw2-u8-padded"),
        load(rank=3, dtype="bfloat16", box=(2, 8, 64), swizzle=3, name="sw3-3d"),
        load(rank=5, dtype="float64", box=(1, 1, 2, 8, 8), swizzle=2, name="sw2-5d"),
        load(rank=4, dtype="uint8", box=(1, 2, 4, 32), swizzle=1, dst="cluster",
             name="sw1-4d-cluster"),
    ]
    # Interleave 16B (swizzle 0 here; swizzled ones are Hopper-only) and 32B
    # (swizzle 1) at ranks 3..5, loads and stores, channel slices by repeat.
    groups["interleave"] = [
        f(rank=r, dtype=dt, box=(1, 1) + (4,) * (r - 2), interleave=il,
          swizzle=1 if il == 2 else 0, name=f"il{il}-{r}d-{dt}-{f.__name__}")
        for il in (1, 2)
        for r in (3, 4, 5)
        for dt, f in (("uint16", load), ("float32", store))
    ] + [
        load(rank=3, dtype="uint16", box=(1, 1, 8), interleave=2, swizzle=1,
             steps=((0, 1, 0),), repeat=(3,), name="il2-channels"),
        load(rank=3, dtype="uint8", box=(1, 1, 8), interleave=1,
             element_strides=(1, 1, 2), name="il1-inner-stride"),
        load(rank=4, dtype="float16", box=(2, 1, 3, 8), interleave=1,
             element_strides=(2, 1, 3, 2), name="il1-strides"),
    ]
    # Element strides, formats (tf32 rounds, ftz), OOB NaN fill, L2
    # promotion, other dtypes, repeat axes.
    groups["descriptor_fields"] = [
        load(box=(8, 16), element_strides=(2, 1), name="es-2-1"),
        load(rank=3, box=(7, 9, 16), element_strides=(3, 8, 1), name="es-3-8-1"),
        load(rank=5, box=(2, 3, 4, 5, 16), element_strides=(2, 2, 3, 4, 1),
             name="es-5d"),
        store(rank=3, box=(4, 8, 16), element_strides=(1, 2, 1), name="es-store"),
        load(format="tf32", name="tf32"),
        load(format="tf32_ftz", oob_fill=1, name="tf32-ftz-nan"),
        load(format="float32_ftz", name="f32-ftz"),
        load(oob_fill=1, l2_promotion=3, name="f32-nan-l2-256"),
        load(dtype="float16", oob_fill=1, l2_promotion=1, name="f16-nan-l2-64"),
        load(dtype="bfloat16", oob_fill=1, l2_promotion=2, name="bf16-nan-l2-128"),
        load(dtype="float64", box=(8, 8), oob_fill=1, name="f64-nan"),
        load(dtype="float8_e4m3fn", box=(8, 16), name="fp8-bytes"),
        store(dtype="float8_e5m2", box=(8, 32), name="fp8-store"),
        load(dtype="int64", box=(4, 8), name="i64"),
        load(dtype="uint64", box=(4, 2), dst="cluster", name="u64"),
        load(dtype="int32", box=(8, 4), steps=((8, 0),), repeat=(4,), name="rep4"),
        store(dtype="uint32", box=(8, 16), steps=((8, 0), (0, 16)), repeat=(2, 2),
              name="rep2x2-store"),
        reduce("xor", "uint64", box=(8, 2), steps=((0, 2), (8, 0)), repeat=(2, 3),
               name="rep2x3-reduce"),
        load(rank=1, dtype="uint8", box=(256,), name="box-256"),
    ]
    return groups


def _hopper_only_groups() -> dict[str, list[Form]]:
    """Interleave 16B with swizzle 1/2/3: valid on Hopper; B200 can trap."""
    return {"interleave_swizzled": [
        f(rank=r, dtype="uint16", box=(1, 1) + (4,) * (r - 2), interleave=1,
          swizzle=sw, name=f"il1-sw{sw}-{r}d-{f.__name__}")
        for sw in (1, 2, 3) for r in (3, 5) for f in (load, store)
    ]}


def _blackwell_only_groups() -> dict[str, list[Form]]:
    """gather4/scatter4, cta_group and packed fp4 (sm_100a)."""
    groups = {}
    groups["gather_scatter"] = [
        gather4(),
        gather4(dst="cluster"),
        gather4(dst="cluster", multicast=True, hint=True),
        gather4(hint=True),
        gather4(dtype="float16", width=64, swizzle=3),
        gather4(dtype="uint8", width=32, steps=((4, 32),), repeat=(2,)),
        gather4(cta_group=1),
        gather4(dst="cluster", multicast=True, cta_group=2, hint=True),
        scatter4(),
        scatter4(hint=True),
        scatter4(dtype="bfloat16", width=64, swizzle=3),
        scatter4(dtype="uint32", steps=((8, 0),), repeat=(2,)),
    ]
    groups["cta_group"] = [
        load(rank=r, dst=dst, multicast=mc, cta_group=g, hint=hint,
             name=f"cg{g}-{r}d-{dst}-{mc}-{hint}")
        for g in (1, 2)
        for r, dst, mc, hint in ((1, "cta", False, False), (2, "cta", False, True),
                                 (3, "cluster", False, False),
                                 (4, "cluster", True, False),
                                 (5, "cluster", True, True))
    ]
    groups["packed_fp4"] = [
        load(dtype="float4_e2m1fn", box=(8, 128), name="fp4"),
        load(dtype="float4_e2m1fn", box=(8, 128), swizzle=3, name="fp4-sw3"),
        load(dtype="float4_e2m1fn", box=(8, 128), format="float4_e2m1fn",
             steps=((8, 0),), repeat=(2,), name="fp4-rep"),
        load(rank=3, dtype="float4_e2m1fn", box=(2, 4, 128), dst="cluster",
             multicast=True, hint=True, name="fp4-3d-mc"),
        gather4(dtype="float4_e2m1fn", width=128),
    ]
    return groups


def groups_for(arch: str) -> dict[str, list[Form]]:
    groups = dict(_common_groups())
    groups.update(_hopper_only_groups() if arch == HOPPER else _blackwell_only_groups())
    return groups


# --------------------------------------------------------------------------
# Building and compiling kernels


def issue(form: Form, shared, global_, mbar, runtime):
    """apply() for `form`; raises TileVerifyError when rejected."""
    f = form.fields
    rank = len(form.box)
    coords = [runtime if form.runtime_coords and i == 0 else 0 for i in range(rank)]
    kw = dict(box=form.box, coords=coords, swizzle=form.swizzle,
              interleave=form.interleave, oob_fill=form.oob_fill,
              l2_promotion=form.l2_promotion)
    if form.steps:
        kw["coord_steps"] = form.steps
    if form.element_strides:
        kw["element_strides"] = form.element_strides
    if form.format:
        kw["format"] = form.format
    if f["direction"] == "load":
        kw["mbar"] = mbar
    if f["multicast"]:
        kw["cta_mask"] = 0b11
    if f["cache_hint"]:
        kw["cache_policy"] = 0x12F0000000000000
    if f["mode"] == "gather4":
        kw["gather4"] = (runtime, 3, 7, 11)
    elif f["mode"] == "scatter4":
        kw["scatter4"] = (0, 3, 7, runtime)
    if f["direction"] == "load":
        return tma.apply(form.op, shared, global_, **kw)
    return tma.apply(form.op, global_, shared, **kw)


@dataclass
class Built:
    kernel: K.KernelDef
    accepted: list = field(default_factory=list)
    rejected: list = field(default_factory=list)


def make_kernel(name: str, forms: list[Form], arch: str) -> Built:
    """One kernel issuing every form (shared buffers and globals are shared
    between forms of equal shape). Forms the verifier rejects are recorded."""
    gspecs = list(dict.fromkeys((f.global_shape(), f.dtype) for f in forms))
    built = Built(None)

    def body(*globals_):
        built.accepted.clear()
        built.rejected.clear()
        by_spec = dict(zip(gspecs, globals_))
        from tile_mlir.testing.barriers import compile_only_barrier
        mbar = compile_only_barrier()  # initialised and armed
        runtime = K.block_id("x")
        buffers = {}
        for form in forms:
            shape = form.repeat + form.image()
            key = (shape, form.dtype)
            if key not in buffers:
                buffers[key] = K.alloc_shared(shape, "i8" if form.fp4 else form.dtype,
                                               align=1024)
            try:
                op = issue(form, buffers[key], by_spec[(form.global_shape(), form.dtype)],
                           mbar, runtime)
            except TileVerifyError as err:
                built.rejected.append((form, err))
                continue
            assert tma.slot_count(op) == form.slots
            built.accepted.append(form)

    # Multicast needs a declared cluster ([multicast-cluster]).
    cluster = (2, 1, 1) if any(".multicast::cluster" in f.op for f in forms) else None
    built.kernel = K.KernelDef(
        body, grid=2 if cluster else 1, block=32, cluster=cluster,
        target=compiler.target_attr(arch), name=name,
        params=[(f"a{i}", K.Tensor(*spec)) for i, spec in enumerate(gspecs)])
    return built


@functools.lru_cache(maxsize=None)
def compiled(group: str, arch: str):
    """(forms, Artifact) of one group on one arch, compiled once."""
    forms = groups_for(arch)[group]
    built = make_kernel(f"k_{group}", forms, arch)
    try:
        artifact = compiler.compile(built.kernel, arch, cubin=False)
    except compiler.CompileError as err:  # pragma: no cover - the failure itself
        pytest.fail(f"verified forms failed to lower for {arch}: {err}")
    assert not built.rejected, [(f.name, str(e)) for f, e in built.rejected]
    assert built.accepted == forms
    return forms, artifact


def instructions(ptx: str) -> list[tuple[str, str]]:
    return INSTRUCTION.findall(ptx)


def _cases():
    return [(g, a) for a in ARCHES for g in groups_for(a)]


# --------------------------------------------------------------------------
# Tests


@pytest.mark.parametrize("group, arch", _cases())
def test_ptx_spelling_and_count(group, arch):
    forms, artifact = compiled(group, arch)
    want = collections.Counter()
    for form in forms:
        want[expected_instruction(form.fields)] += form.slots
    found = instructions(artifact.ptx)
    got = collections.Counter(spelling for spelling, _ in found)
    assert got == want
    # Each instruction names its tensor map and rank (gather/scatter: 5)
    # coordinates: [map, {c0, ...}].
    for spelling, operands in found:
        rank = int(re.search(r"\.(\d)d\.", spelling).group(1))
        coords = re.search(r"\[[^\]{]+,\s*\{([^}]*)\}\s*\]", operands).group(1)
        n = 5 if "tile::gather4" in spelling or "tile::scatter4" in spelling else rank
        assert len([c for c in coords.split(",") if c.strip()]) == n, operands
    assert f".target {arch}" in artifact.ptx


@pytest.mark.parametrize("group, arch", _cases())
def test_tensor_maps_in_manifest(group, arch):
    forms, artifact = compiled(group, arch)
    (kernel,) = artifact.manifest["kernels"]
    maps = kernel["tensor_maps"]
    # One map per distinct descriptor, each a by-value 128-byte parameter.
    keys = {(tuple(sorted((k, str(v)) for k, v in f.spec().items())),
             f.global_shape(), f.dtype) for f in forms}
    assert len(maps) == len(keys)
    assert all(m["bytes"] == 128 for m in maps)
    assert len({m["param"] for m in maps}) == len(maps)
    for form in forms:
        want = form.spec()
        assert any(all(m[k] == v for k, v in want.items()) for m in maps), \
            (form.name, want, maps)


@pytest.mark.parametrize("group, arch", _cases())
def test_ptxas_assembles(group, arch):
    ptxas = compiler.find_ptxas()
    if ptxas is None:
        pytest.skip("no ptxas (install a CUDA toolkit or nvidia-cuda-nvcc)")
    _, artifact = compiled(group, arch)
    cubin = compiler.assemble(artifact.ptx, arch, ptxas=ptxas)
    assert cubin[:4] == b"\x7fELF"


def test_matrix_covers_the_forms():
    """The matrix really spans the axes it claims."""
    every = [f for a in ARCHES for fs in groups_for(a).values() for f in fs]
    spellings = {expected_instruction(f.fields) for f in every}
    assert {int(re.search(r"\.(\d)d\.", s).group(1)) for s in spellings} == {1, 2, 3, 4, 5}
    assert {f.swizzle for f in every} == {0, 1, 2, 3}
    assert {f.interleave for f in every} == {0, 1, 2}
    assert {f.fields["reduction"] for f in every} - {None} == set(REDUCTION_FORMATS)
    assert {(f.fields["reduction"], f.dtype) for f in every if f.fields["reduction"]} >= {
        (r, d) for r, ds in REDUCTION_FORMATS.items() for d in ds}
    for qualifier in (".multicast::cluster", ".L2::cache_hint", ".cta_group::1",
                      ".cta_group::2", "tile::gather4", "tile::scatter4",
                      "shared::cluster.global", "shared::cta.global"):
        assert any(qualifier in s for s in spellings), qualifier
    assert {f.format for f in every} >= {"tf32", "tf32_ftz", "float32_ftz"}
    assert {f.oob_fill for f in every} == {0, 1}
    assert {f.l2_promotion for f in every} == {0, 1, 2, 3}
    assert any(f.element_strides for f in every)
    assert any(f.fp4 for f in every)
    assert any(len(f.repeat) == 2 for f in every)


@pytest.mark.parametrize("swizzle", [1, 2, 3])
@pytest.mark.parametrize("direction", ["load", "store"])
def test_b200_rejects_interleave16_with_swizzle(swizzle, direction):
    """On sm_100a interleave 1 (16B) with swizzle 1/2/3 can trap: the verifier
    rejects it (the same form is assembled for sm_90a above)."""
    form = (load if direction == "load" else store)(
        rank=3, dtype="uint16", box=(1, 1, 4), interleave=1, swizzle=swizzle)
    built = make_kernel("k_b200", [form], BLACKWELL)
    built.kernel.build(K.make_context())
    assert built.accepted == []
    ((_, err),) = built.rejected
    assert err.rule == "target-b200-interleave-swizzle"
    assert f"swizzle {swizzle}" in err.message
    # The unswizzled form is fine on B200.
    ok = make_kernel("k_b200_ok", [dataclasses.replace(form, swizzle=0)], BLACKWELL)
    ok.kernel.build(K.make_context())
    assert ok.rejected == [] and len(ok.accepted) == 1


# --------------------------------------------------------------------------
# Sweep: whatever the verifier accepts lowers and assembles.

SWEEP_DTYPES = ("uint8", "uint16", "uint32", "int32", "uint64", "int64", "float16",
                "bfloat16", "float32", "float64", "float8_e4m3fn")


def _sweep_forms() -> list[Form]:
    forms = []
    for dtype, swizzle, inner_bytes, rank, kind in itertools.product(
            SWEEP_DTYPES, (0, 1, 2, 3), (16, 32, 64, 128, 256), (1, 2, 5),
            ("load", "cluster", "store", "reduce")):
        inner = inner_bytes * 8 // BITS[dtype]
        if inner > 256:
            continue
        box = ((1,) * (rank - 2) + (4, inner))[-rank:] if rank > 1 else (inner,)
        name = f"sweep-{dtype}-sw{swizzle}-{inner_bytes}B-{rank}d-{kind}"
        if kind == "reduce":
            form = reduce("add", dtype, rank=rank, box=box, name=name, swizzle=swizzle)
        elif kind == "store":
            form = store(rank=rank, dtype=dtype, box=box, name=name, swizzle=swizzle)
        else:
            form = load(rank=rank, dtype=dtype, box=box, name=name, swizzle=swizzle,
                        dst="cta" if kind == "load" else "cluster")
        forms.append(form)
    return forms


@functools.lru_cache(maxsize=None)
def _sweep(arch: str):
    """The accepted sweep forms of `arch`, compiled in kernels of 48 copies."""
    accepted, rejected, artifacts = [], [], []
    forms = _sweep_forms()
    for i in range(0, len(forms), 48):
        chunk = forms[i:i + 48]
        probe = make_kernel(f"k_sweep{i // 48}", chunk, arch)
        probe.kernel.build(K.make_context())
        rejected += probe.rejected
        ok = list(probe.accepted)
        if not ok:
            continue
        built = make_kernel(f"k_sweep{i // 48}", ok, arch)
        try:
            artifacts.append((ok, compiler.compile(built.kernel, arch, cubin=False)))
        except compiler.CompileError as err:
            pytest.fail(f"a verified op failed to lower on {arch}: {err}")
        accepted += ok
    return accepted, rejected, artifacts


@pytest.mark.parametrize("arch", ARCHES)
def test_sweep_verified_ops_lower(arch):
    accepted, rejected, artifacts = _sweep(arch)
    # The sweep exercises both sides of the verifier.
    assert len(accepted) > 300 and len(rejected) > 100
    # Rejections name only the rules that the sweep's axes can break.
    assert {err.rule for _, err in rejected} <= {
        "swizzle-inner-bytes", "box-inner-bytes", "reduction-dtype"}
    for forms, artifact in artifacts:
        want = collections.Counter(expected_instruction(f.fields) for f in forms)
        got = collections.Counter(s for s, _ in instructions(artifact.ptx))
        assert got == want


@pytest.mark.parametrize("arch", ARCHES)
def test_sweep_ptxas_assembles(arch):
    ptxas = compiler.find_ptxas()
    if ptxas is None:
        pytest.skip("no ptxas (install a CUDA toolkit or nvidia-cuda-nvcc)")
    for _, artifact in _sweep(arch)[2]:
        compiler.assemble(artifact.ptx, arch, ptxas=ptxas)
