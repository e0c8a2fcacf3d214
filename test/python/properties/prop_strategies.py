"""Hypothesis strategies for the property tests: random and near-valid
inputs for every public entry point, as plain data prop_worker.py decodes.

Most strategies mix the valid value (the contract's example, a field in
its range) with perturbations of it (a value just outside the range, the
wrong type, garbage), so that examples reach past the first argument check
into the verifier, the lowering and ptxas. ("__odd__", kind) stands for an
object that cannot be pickled across (prop_worker._odd); ("__ref__", name)
for a value of the kernel body being traced.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

from tile_mlir import contract

ROOT = Path(__file__).resolve().parents[3]

DTYPES = list(contract.DTYPES)
FORMATS = list(contract.FORMATS)
ARCHES = ["sm_90a", "sm_100a"]
SCALAR_TYPES = ["int32", "uint32", "int64", "uint64", "float32", "float64", "index"]
ODD_KINDS = ["object", "lambda", "np_int32", "np_int64", "np_float", "np_array",
             "np_array_0d", "generator", "range", "set", "bigint_str", "path", "type",
             "exception", "bytearray", "memoryview", "int_subclass", "str_subclass",
             "bad_len", "bad_iter"]
# Element bytes of the builder dtypes (sub-byte ones count as 1).
ITEMSIZE = {d: (8 if "64" in d else 4 if "32" in d else 2 if "16" in d else 1)
            for d in DTYPES}


def weighted(*pairs):
    """one_of with integer weights: ((3, a), (1, b)) tries `a` three times as
    often (one_of itself picks among its distinct branches evenly)."""
    branches = [s for w, s in pairs for _ in range(w)]
    return st.sampled_from(branches).flatmap(lambda s: s)


odd = st.sampled_from(ODD_KINDS).map(lambda k: ("__odd__", k))
huge_ints = st.sampled_from([2**31 - 1, 2**31, 2**32, 2**32 + 1, 2**40, 2**63 - 1, 2**63,
                             2**64, -2**31 - 1, -2**63 - 1, 10**30])
ints = st.one_of(st.integers(-4, 300), huge_ints, st.integers())
scalars = st.one_of(st.none(), st.booleans(), ints, st.floats(), st.text(max_size=12),
                    st.binary(max_size=12), st.complex_numbers(max_magnitude=10), odd)
junk = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
    st.dictionaries(st.text(max_size=5), inner, max_size=3)), max_leaves=8)


def near(valid, wild=junk, odds=3):
    """`valid` `odds` times as often as `wild`."""
    return weighted((odds, valid), (1, wild))


def int_tuple(lo, hi, min_size=1, max_size=3):
    return st.lists(st.integers(lo, hi), min_size=min_size, max_size=max_size).map(tuple)


# -- kernels and their signatures ---------------------------------------------

identifiers = st.from_regex(r"[A-Za-z_][A-Za-z0-9_$]{0,20}", fullmatch=True)
kernel_names = weighted(
    (4, identifiers),
    (2, st.sampled_from(["", "1abc", "a b", "a-b", "a.b", "k\x00", "é", "$x", "main",
                         "a" * 1025, "a" * 1024, "gpu.func", "kernels", "tile"])),
    (1, st.text(max_size=30)), (1, junk))
launch_dims = weighted(
    (3, st.integers(1, 64)), (2, int_tuple(1, 8, 1, 3)),
    (2, st.sampled_from([1024, 1025, 2048, 65535, 65536, 2**31 - 1, 2**31, 0, -1])),
    (2, st.lists(st.sampled_from([1, 2, 16, 64, 65, 1024, 65535, 65536, 2**31, 0, -3]),
                 min_size=1, max_size=4).map(tuple)),
    (1, junk))
cluster_dims = weighted((2, st.none()), (2, int_tuple(1, 4, 1, 3)),
                        (1, st.sampled_from([8, 16, 17, 32, (4, 4), (4, 4, 2), (3,)])),
                        (1, launch_dims))
shape_dims = weighted((6, st.integers(1, 64)), (1, st.none()),
                      (1, st.sampled_from([0, -1, 2**32, 2**33, 2**63, True, 1.0, "4"])))
tensor_specs = st.tuples(
    st.just("Tensor"),
    near(st.lists(shape_dims, min_size=1, max_size=6).map(tuple)),
    near(st.sampled_from(DTYPES), st.one_of(st.text(max_size=8), junk), odds=5),
    near(st.booleans(), junk, odds=6))
scalar_specs = st.tuples(st.just("Scalar"),
                         near(st.sampled_from(SCALAR_TYPES), junk, odds=4))
param_specs = weighted((4, tensor_specs), (1, scalar_specs))
params = weighted(
    (6, st.lists(st.tuples(near(identifiers, kernel_names, odds=6), param_specs),
                 max_size=4)),
    (1, st.lists(junk, max_size=3)), (1, junk))
annotation = weighted(
    (4, param_specs),
    (1, st.sampled_from(["Tensor((16, 16), 'uint32')", "Scalar('int32')", "undefined_name",
                         "Tensor((", "1 +", "int", "Tensor((0,), 'x')", "'str'"])),
    (1, junk))
compile_options = st.fixed_dictionaries(
    {"arch": near(st.sampled_from(ARCHES), st.one_of(st.text(max_size=8), junk, odd)),
     "cubin": near(st.booleans(), junk, odds=8),
     "debug": near(st.booleans(), junk, odds=8)},
    optional={"cache": near(st.booleans(), junk, odds=4)})


@st.composite
def kernel_signatures(draw):
    """KernelDef(...) or @kernel(...) on random names, launch shapes and
    parameters; built, and compiled now and then."""
    spec = {"body": draw(st.sampled_from(["empty", "lane", "seed"]))}
    for key, strategy in (("grid", launch_dims), ("block", launch_dims),
                          ("cluster", cluster_dims), ("name", kernel_names)):
        if draw(st.integers(0, 4)):
            spec[key] = draw(strategy)
    if draw(st.integers(0, 3)) == 0:
        spec["annotations"] = draw(st.lists(st.tuples(identifiers, annotation), max_size=3))
    else:
        spec["params"] = draw(params)
    if spec["body"] == "seed" and draw(st.booleans()):
        spec["params"] = [("A", ("Tensor", (16, 16), "uint32", False)),
                          ("Out", ("Tensor", (16, 16), "uint32", False))]
        spec.pop("annotations", None)
    spec["compile"] = draw(st.one_of(st.none(), compile_options))
    return spec


# -- copies ---------------------------------------------------------------------

MODES = ["tile", "tile::gather4", "tile::scatter4", "im2col", "im2col::w",
         "im2col::w::128", "im2col_no_offs"]
REDUCTIONS = ["add", "min", "max", "inc", "dec", "and", "or", "xor"]


def spell(direction, mode, rank, reduction=None, dst="shared::cta", multicast=False,
          hint=False, cta_group=None) -> str:
    """A PTX opcode spelling from its fields (the PTX ISA's grammar)."""
    tail = ".L2::cache_hint" if hint else ""
    if direction == "load":
        extra = (".multicast::cluster" if multicast else "") + \
                (f".cta_group::{cta_group}" if cta_group else "")
        return (f"cp.async.bulk.tensor.{rank}d.{dst}.global.{mode}"
                f".mbarrier::complete_tx::bytes{extra}{tail}")
    if direction == "store":
        return f"cp.async.bulk.tensor.{rank}d.global.shared::cta.{mode}.bulk_group{tail}"
    if direction == "reduce":
        return (f"cp.reduce.async.bulk.tensor.{rank}d.global.shared::cta.{reduction}"
                f".{mode}.bulk_group{tail}")
    return f"cp.async.bulk.prefetch.tensor.{rank}d.L2.global.{mode}{tail}"


@st.composite
def mutated_opcode(draw, opcode):
    """The spelling with one segment dropped, doubled, swapped or replaced."""
    parts = opcode.split(".")
    i = draw(st.integers(0, len(parts) - 1))
    how = draw(st.sampled_from(["drop", "double", "swap", "replace", "case", "text"]))
    if how == "drop":
        del parts[i]
    elif how == "double":
        parts.insert(i, parts[i])
    elif how == "swap":
        j = draw(st.integers(0, len(parts) - 1))
        parts[i], parts[j] = parts[j], parts[i]
    elif how == "replace":
        parts[i] = draw(st.sampled_from(["9d", "0d", "tile", "im2col", "shared::cluster",
                                         "global", "bulk_group", "L2", "", "::", "x"]))
    elif how == "case":
        parts[i] = parts[i].upper()
    else:
        return draw(st.text(max_size=60))
    return ".".join(parts)


@st.composite
def copy_program(draw):
    """A kernel holding one copy (tma.apply) with its mbarrier protocol: the
    fields mostly in range, some steps dropped or perturbed."""
    direction = draw(weighted((5, st.just("load")), (2, st.just("store")),
                              (1, st.just("reduce")), (1, st.just("prefetch"))))
    mode = draw(weighted((6, st.just("tile")), (1, st.sampled_from(MODES))))
    rank = draw(weighted((6, st.integers(1, 5)), (1, st.integers(-1, 7))))
    dtype = draw(weighted((4, st.sampled_from(["uint32", "bfloat16", "float32", "uint8",
                                               "float16", "int64"])),
                          (1, st.sampled_from(DTYPES))))
    size = ITEMSIZE[dtype]
    r = max(rank, 1)
    inner = (16 // size) * draw(st.integers(1, 4))
    box = [draw(st.integers(1, 8)) for _ in range(r - 1)] + [inner]
    box = draw(near(st.just(box), st.lists(ints, max_size=6)))
    gshape = [draw(st.integers(8, 32)) for _ in range(r - 1)] + [inner * draw(st.integers(1, 4))]
    repeat = draw(weighted((3, st.just([])), (1, int_tuple(1, 3, 1, 2).map(list))))
    base = list(box) if isinstance(box, list) and all(isinstance(b, int) for b in box) \
        else [8, 16]
    shared_shape = draw(near(st.just(repeat + [max(b, 1) for b in base][:6]),
                             st.lists(ints, max_size=6)))
    coords = draw(near(st.just([0] * r), st.lists(weighted(
        (3, st.integers(-16, 64)), (1, ints), (1, st.sampled_from(
            [("__ref__", "lane"), ("__ref__", "index"), ("__ref__", "i64"),
             ("__ref__", "f32")]))), max_size=6)))
    steps_field = None
    if repeat:
        steps_field = draw(near(st.just([[0] * (r - 1) + [inner]] * len(repeat)),
                                st.lists(st.lists(ints, max_size=6), max_size=3)))
    opcode = spell(direction, mode, rank, draw(st.sampled_from(REDUCTIONS)),
                   draw(near(st.just("shared::cta"), st.just("shared::cluster"))),
                   draw(near(st.just(False), st.just(True), odds=8)),
                   draw(near(st.just(False), st.just(True), odds=4)),
                   draw(near(st.none(), st.sampled_from([1, 2, 3]), odds=8)))
    opcode = draw(near(st.just(opcode), st.one_of(mutated_opcode(opcode), junk), odds=6))
    kwargs = {"box": box, "coords": coords}
    optional = {
        "coord_steps": st.just(steps_field) if steps_field is not None else junk,
        "format": st.sampled_from(FORMATS + ["tf32", "nope", ""]),
        "swizzle": weighted((3, st.integers(0, 6)), (1, ints)),
        "element_strides": st.lists(weighted((3, st.integers(1, 8)), (1, ints)), max_size=6),
        "interleave": weighted((3, st.integers(0, 2)), (1, ints)),
        "l2_promotion": weighted((3, st.integers(0, 3)), (1, ints)),
        "oob_fill": weighted((3, st.integers(0, 1)), (1, ints)),
        "cta_mask": weighted((3, st.integers(0, 3)), (1, ints)),
        "cache_policy": weighted((3, st.integers(0, 2**40)), (1, ints)),
        "gather4": st.lists(weighted((3, st.integers(0, 8)), (1, ints)), max_size=5),
        "scatter4": st.lists(weighted((3, st.integers(0, 8)), (1, ints)), max_size=5),
        "pixel_box_lower": st.lists(st.integers(-40, 40), max_size=4),
        "pixel_box_upper": st.lists(st.integers(-40, 40), max_size=4),
        "offsets": st.lists(weighted((3, st.integers(0, 31)), (1, ints)), max_size=4),
        "tag": near(st.sampled_from(["t", "copy"]), junk),
    }
    if steps_field is not None:
        kwargs["coord_steps"] = steps_field
    for key in draw(st.lists(st.sampled_from(sorted(optional)), max_size=3, unique=True)):
        kwargs[key] = draw(near(optional[key], junk, odds=4))
    return _protocol(draw, direction, opcode, kwargs, dtype, gshape, shared_shape, box)


def _protocol(draw, direction, opcode, kwargs, dtype, gshape, shared_shape, box):
    """The steps around one copy: shared buffer, mbarrier init/arm/wait for
    a load, bulk group commit/wait for a store; steps dropped at random."""
    nbytes = ITEMSIZE[dtype]
    for b in (box if isinstance(box, list) else []):
        nbytes *= b if isinstance(b, int) and 0 < b < 4096 else 1
    align = draw(near(st.sampled_from([128, 1024]), st.sampled_from([0, 1, 8, 100, -8, 2**40])))
    bar = ("__ref__", "$2")
    steps = [("alloc_shared", [shared_shape, dtype], {"align": align}, False),
             ("alloc_shared", [[1], "uint64"], {"align": 8}, False),
             ("ptr_to", [("__ref__", "$1"), [0]], {}, False),
             ("mbarrier_init", [bar, draw(near(st.just(1), ints))], {}, True),
             ("mbarrier_arrive_expect_tx", [bar, draw(near(st.just(nbytes), ints))], {}, True),
             ("cta_sync", [], {}, False)]
    smem, glob = ("__ref__", "$0"), ("__ref__", "A")
    if direction == "load":
        operands = [smem, glob]
        kwargs.setdefault("mbar", draw(near(st.just(bar), st.sampled_from(
            [smem, glob, ("__ref__", "i64"), ("__ref__", "lane"), ("__ref__", "$1")]))))
    elif direction == "prefetch":
        operands = [glob]
    else:
        operands = [glob, smem]
    operands = draw(near(st.just(operands), st.lists(st.sampled_from(
        [smem, glob, ("__ref__", "Out"), ("__ref__", "lane"), ("__ref__", "f32")]),
        max_size=3)))
    steps.append(("apply", [opcode, *operands], kwargs, True))
    if direction == "load":
        steps.append(("mbarrier_wait", [bar, draw(near(st.just(0), ints))], {}, False))
    else:
        steps += [("bulk_commit_group", [], {}, True), ("bulk_wait_group", [], {}, True)]
    keep = draw(st.lists(near(st.just(True), st.just(False), odds=12),
                         min_size=len(steps), max_size=len(steps)))
    steps = [s for s, k in zip(steps, keep) if k or s[0] in ("alloc_shared", "ptr_to")]
    gt = ("Tensor", tuple(gshape), dtype, False)
    return {"params": [("A", gt), ("Out", gt)], "steps": steps,
            "block": draw(near(st.just(32), launch_dims)),
            "compile": draw(st.one_of(st.none(), compile_options))}


@st.composite
def builder_programs(draw):
    """Random sequences of builder calls with random arguments: mbarriers,
    shared buffers, pointers, element access, derive."""
    refs = st.sampled_from([("__ref__", n) for n in (
        "A", "Out", "lane", "$0", "$1", "$2", "$3", "i64", "i16", "i1", "f32", "index")])
    arg = weighted((3, ints), (2, refs), (1, junk))
    calls = {
        "alloc_shared": st.tuples(near(st.lists(weighted((4, st.integers(1, 64)), (1, ints)),
                                                min_size=1, max_size=4), junk),
                                  near(st.sampled_from(DTYPES), junk)).map(list),
        "dynamic_shared": st.tuples(st.lists(st.integers(0, 70000), min_size=1, max_size=3),
                                    st.sampled_from(DTYPES), ints).map(list),
        "mbarrier_init": st.tuples(refs, arg).map(list),
        "mbarrier_arrive": st.tuples(refs).map(list),
        "mbarrier_arrive_expect_tx": st.tuples(refs, arg).map(list),
        "mbarrier_wait": st.tuples(refs, arg).map(list),
        "ptr_to": st.tuples(refs, st.lists(arg, max_size=3)).map(list),
        "getitem": st.tuples(refs, st.lists(arg, max_size=3).map(tuple)).map(list),
        "setitem": st.tuples(refs, st.lists(arg, max_size=3).map(tuple), arg).map(list),
        "bulk_wait_group": st.lists(arg, max_size=2),
        "cta_sync": st.just([]), "fence_proxy_async_shared_cta": st.just([]),
        "global_pointer": st.tuples(refs).map(list),
        "base_address": st.tuples(refs).map(list),
        "tx_bytes": st.tuples(near(st.just("t"), junk)).map(list),
        "prefetch_tensormap": st.tuples(near(st.just("t"), junk)).map(list),
    }
    names = draw(st.lists(st.sampled_from(sorted(calls)), min_size=1, max_size=6))
    steps = [(n, draw(calls[n]), {}, draw(st.booleans())) for n in names]
    if draw(st.booleans()):
        steps.insert(0, ("alloc_shared", [[1], "uint64"], {"align": 8}, False))
        steps.insert(1, ("ptr_to", [("__ref__", "$0"), [0]], {}, False))
    gt = ("Tensor", (16, 16), draw(st.sampled_from(["uint32", "bfloat16"])), False)
    return {"params": [("A", gt), ("Out", gt)], "steps": steps,
            "compile": draw(st.one_of(st.none(), compile_options))}


@st.composite
def derive_programs(draw):
    """tensormaps.derive on a template parameter into a global slot, its
    fields in range or not, then maybe a copy through the derived map."""
    box = draw(near(st.just([64, 128]), st.lists(ints, max_size=6)))
    kwargs = {"staging": ("__ref__", "$1"), "address": ("__ref__", "$3"),
              "dims": draw(near(st.just([256, 512]), st.lists(arg_values(), max_size=6))),
              "strides": draw(near(st.just([1024]), st.lists(arg_values(), max_size=5))),
              "box": box}
    optional = {"format": st.sampled_from(FORMATS + ["x"]), "swizzle": ints,
                "element_strides": st.lists(ints, max_size=6), "interleave": ints,
                "l2_promotion": ints, "oob_fill": ints, "new_box": st.lists(ints, max_size=6),
                "new_element_strides": st.lists(ints, max_size=6),
                "new_format": st.sampled_from(FORMATS + ["x"]), "new_swizzle": ints,
                "new_interleave": ints, "new_oob_fill": ints,
                "new_rank": weighted((3, st.integers(1, 5)), (1, ints))}
    for key in draw(st.lists(st.sampled_from(sorted(optional)), max_size=4, unique=True)):
        kwargs[key] = draw(near(optional[key], junk, odds=4))
    for key in ("staging", "address"):
        if draw(st.integers(0, 5)) == 0:
            kwargs[key] = draw(weighted((1, st.none()), (1, arg_values())))
    dest = draw(near(st.just(("__ref__", "$2")), arg_values()))
    steps = [("dynamic_shared", [[64, 128], "bfloat16", 0], {}, False),
             ("dynamic_shared", [[128], "uint8", 65536], {}, False),
             ("global_pointer", [("__ref__", "W")], {}, False),
             ("base_address", [("__ref__", "A")], {}, False),
             ("derive", [("__ref__", "T"), dest], kwargs, True)]
    if steps and draw(st.booleans()):
        steps[1] = ("ptr_to", [("__ref__", "$1"), [0]], {}, False)
        steps.insert(1, ("dynamic_shared", [[128], "uint8", 65536], {}, False))
    params = [("T", ("Tensor", (64, 128), "bfloat16", False)),
              ("A", ("Tensor", (256, 512), "bfloat16", False)),
              ("W", ("Tensor", (1, 128), "uint8", False))]
    return {"params": params, "steps": steps,
            "compile": draw(st.one_of(st.none(), compile_options))}


def arg_values():
    return weighted((3, ints), (1, st.sampled_from(
        [("__ref__", n) for n in ("lane", "i64", "index", "f32", "i16", "A")])), (1, junk))


# Builder helpers by their positional arity (a call with the wrong number
# of arguments is Python's TypeError, before any code of ours runs).
OUTSIDE_ARITY = {"alloc_shared": 2, "mbarrier_init": 2, "mbarrier_arrive": 1,
                 "mbarrier_wait": 2, "cta_sync": 0, "apply": 2, "derive": 2, "tx_bytes": 1,
                 "dynamic_shared": 2, "prefetch_tensormap": 1}


@st.composite
def outside_calls(draw):
    """A builder helper called where no kernel body is being traced."""
    call = draw(st.sampled_from(sorted(OUTSIDE_ARITY)))
    args = [draw(junk) for _ in range(OUTSIDE_ARITY[call])]
    kwargs = {"box": draw(junk), "coords": draw(junk)} if call == "apply" else {}
    return {"call": call, "args": args, "kwargs": kwargs}


# -- MLIR text ---------------------------------------------------------------

def _chunks(path: Path) -> list[str]:
    return [c.strip() + "\n" for c in re.split(r"^// -----$", path.read_text(), flags=re.M)
            if "tile." in c]


def text_corpus() -> list[str]:
    """Real inputs to start from: the lit suite's valid and invalid copies
    (one per `// -----` chunk), the example module."""
    lit = ROOT / "test" / "lit" / "Dialect" / "Tile"
    texts = [(ROOT / "examples" / "swizzle_128b.mlir").read_text()]
    for name in ("valid.mlir", "invalid-box.mlir", "invalid-im2col.mlir", "invalid-shared.mlir",
                 "invalid-barrier.mlir", "tensormap-derive.mlir", "invalid-target.mlir",
                 "parser-robustness.mlir", "invalid-gather4.mlir", "invalid-global.mlir"):
        if (lit / name).exists():
            texts += _chunks(lit / name)
    return texts


CORPUS = text_corpus()
_NUMBER = re.compile(r"(?<![\w#%])-?\d+")


@st.composite
def mutated_text(draw):
    """A corpus text with a few edits: a line dropped, doubled or cut, a
    number replaced, characters inserted."""
    text = draw(st.sampled_from(CORPUS))
    for _ in range(draw(st.integers(0, 3))):
        lines = text.splitlines(keepends=True) or [""]
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "double", "cut", "number", "insert", "truncate"]))
        if how == "drop":
            del lines[i]
        elif how == "double":
            lines.insert(i, lines[i])
        elif how == "cut":
            lines[i] = lines[i][:draw(st.integers(0, max(len(lines[i]) - 1, 0)))] + "\n"
        elif how == "number":
            found = list(_NUMBER.finditer(lines[i]))
            if found:
                m = found[draw(st.integers(0, len(found) - 1))]
                new = str(draw(weighted((2, st.integers(-2, 300)), (1, huge_ints))))
                lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
        elif how == "insert":
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + draw(st.text(max_size=6)) + lines[i][pos:]
        else:
            lines = lines[:i]
        text = "".join(lines)
    return text


mlir_texts = weighted((3, st.sampled_from(CORPUS)), (6, mutated_text()),
                      (1, st.text(max_size=200)),
                      (1, st.sampled_from(["", "module {}", "gpu.module @k {}",
                                           "module { gpu.module @k { } }", "\x00",
                                           "// -----", "{" * 400, "tile.tma_copy"])))


@st.composite
def compile_calls(draw):
    kernel = draw(weighted((6, mlir_texts), (1, st.just(("__kerneldef__", "seed"))),
                           (1, mlir_texts.map(lambda t: ("__module__", t))), (1, junk)))
    if isinstance(kernel, tuple) and kernel and kernel[0] == "__module__":
        kernel = ("__module__", draw(st.sampled_from(CORPUS)))
    return {"kernel": kernel, "kwargs": draw(compile_options)}


coords_values = weighted((3, st.lists(st.integers(-64, 512), max_size=6)),
                         (1, st.lists(ints, max_size=6)), (1, junk))


@st.composite
def explain_calls(draw):
    source = draw(weighted((5, st.sampled_from(CORPUS)), (4, mlir_texts),
                           (1, st.just(("__kerneldef__", "seed"))),
                           (1, st.binary(max_size=40)), (1, junk)))
    args = [draw(weighted((4, st.just(0)), (2, st.integers(0, 3)), (1, ints), (1, junk)))] \
        if draw(st.integers(0, 2)) == 0 else []
    kwargs = {}
    for key, strategy in (("coords", coords_values), ("global_shape", coords_values),
                          ("rows", coords_values), ("offsets", coords_values),
                          ("name", near(st.text(max_size=8), junk))):
        if draw(st.integers(0, 5)) == 0:
            kwargs[key] = draw(weighted((4, strategy), (1, st.none())))
    render = {}
    for key, strategy in (("slot", near(st.integers(-1, 3), junk)),
                          ("rows", near(int_tuple(-2, 20, 2, 2), junk)),
                          ("elements", st.booleans()),
                          ("max_lines", near(st.integers(-1, 100), junk))):
        if draw(st.integers(0, 3)) == 0:
            render[key] = draw(strategy)
    return {"input": source, "args": args, "kwargs": kwargs, "render": render}


# -- artifacts: runtime.load ----------------------------------------------------

def _json_paths(value, prefix=()):
    """Every key/index path into a JSON value."""
    paths = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            paths += _json_paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            paths += _json_paths(v, prefix + (i,))
    return paths


def _edit(value, path, how, new):
    """`value` (JSON) with the entry at `path` deleted or replaced."""
    import copy
    value = copy.deepcopy(value)
    if not path:
        return new
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    if how == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return value


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
              st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=6)


@st.composite
def artifact_folders(draw, files: dict):
    """The files of a real artifact folder with some of them edited: a
    manifest entry deleted or given another type, a file truncated,
    replaced by random bytes, removed or made a folder."""
    import json
    files = dict(files)
    manifest = json.loads(files["manifest.json"])
    paths = _json_paths(manifest)
    for _ in range(draw(st.integers(0, 3))):
        target = draw(st.sampled_from(sorted(files)))
        how = draw(st.sampled_from(["json-delete", "json-set", "json-set", "truncate",
                                    "bytes", "remove", "dir"]))
        if how.startswith("json") and target == "manifest.json":
            path = draw(st.sampled_from(paths))
            new = draw(json_values)
            try:
                manifest = _edit(manifest, path, "delete" if how == "json-delete" and path
                                 else "set", new)
            except (KeyError, IndexError, TypeError):
                continue
            paths = _json_paths(manifest)
            files[target] = json.dumps(manifest).encode()
        elif how == "truncate" and isinstance(files.get(target), bytes):
            files[target] = files[target][:draw(st.integers(0, len(files[target])))]
        elif how == "bytes":
            files[target] = draw(st.binary(max_size=64))
        elif how == "remove":
            files.pop(target)
        elif how == "dir":
            files[target] = "__dir__"
    return files


load_kwargs = st.fixed_dictionaries({}, optional={
    "debug_timeout": near(st.floats(0, 10), junk), "device": near(st.integers(0, 3), junk)})


@st.composite
def runtime_loads(draw, base: dict):
    choice = draw(weighted((6, st.just("files")), (1, st.just("path")), (1, st.just("data"))))
    spec = {"kwargs": draw(load_kwargs)}
    if choice == "files":
        spec["files"] = draw(artifact_folders(base))
        spec["as_str"] = draw(st.booleans())
    elif choice == "path":
        spec["path"] = draw(weighted((2, st.sampled_from(
            ["/nonexistent", "", ".", "/", "/dev/null", "/etc/hostname", str(ROOT / "docs"),
             str(ROOT / "docs" / "rules.md"), "\x00"])), (1, junk)))
    else:
        import json
        manifest = json.loads(base["manifest.json"])
        spec["data"] = (draw(near(st.text(max_size=20), junk)),
                        draw(near(st.binary(max_size=64), junk)),
                        draw(weighted((2, json_values), (2, st.just(manifest)), (1, junk))))
    return spec


# -- the compile cache --------------------------------------------------------

BUILDERS = ["tile_mlir.kernels:build_copy", "tile_mlir.kernels:build_copy_one_tile",
            "tile_mlir.kernels:build_transpose_one_tile"]
recipe_params = st.dictionaries(
    st.sampled_from(["rows", "cols", "box", "stages", "grid", "swizzle", "dtype", "name",
                     "store_lag", "order", "n", "x"]),
    weighted((3, st.integers(1, 512)), (1, st.sampled_from(
        [(64, 128), [32, 32], "bfloat16", "uint8", "nope", 0, -1, None])), (1, junk)),
    max_size=5)


@st.composite
def cache_calls(draw):
    builder = draw(weighted(
        (3, st.sampled_from(BUILDERS).map(lambda b: ("__builder__", b))),
        (2, st.sampled_from(BUILDERS + ["tile_mlir.kernels:nope", "json:loads", "math:pi",
                                        "os:getcwd", "tile_mlir_no_such_module:f", ":f",
                                        "m:", "a:b:c", "tile_mlir.kernels:<lambda>"])),
        (1, st.just(("__builder__", "nested"))), (1, junk)))
    kwargs = dict(draw(recipe_params))
    if draw(st.booleans()):
        kwargs["arch"] = draw(near(st.sampled_from(ARCHES), junk))
    if draw(st.integers(0, 3)) == 0:
        kwargs["debug"] = draw(near(st.booleans(), junk))
    call = draw(st.sampled_from(["compile_recipe", "load_kernel"]))
    if call == "load_kernel" and draw(st.integers(0, 2)) == 0:
        kwargs["device"] = draw(near(st.integers(0, 2), junk))
    return {"call": call, "builder": builder, "kwargs": kwargs}


# -- layout ops -------------------------------------------------------------------

tensors = weighted(
    (3, st.tuples(st.just("__torch__"), st.lists(st.integers(0, 6), max_size=6).map(tuple),
                  st.sampled_from(["float32", "bfloat16", "int8", "float64", "bool",
                                   "complex64"]))),
    (1, st.sampled_from([("__odd__", "np_array"), ("__odd__", "np_array_u8"),
                         ("__odd__", "np_array_0d")])),
    (1, junk))


@st.composite
def layout_calls(draw):
    op = draw(st.sampled_from(["permute", "pad", "unfold"]))
    second = {"permute": st.lists(st.integers(-6, 6), max_size=6).map(tuple),
              "pad": st.lists(st.integers(-4, 4), max_size=8).map(tuple),
              "unfold": weighted((2, st.integers(-1, 5)), (1, int_tuple(-1, 5, 2, 2)))}[op]
    kwargs = {}
    if op == "pad" and draw(st.booleans()):
        kwargs["value"] = draw(weighted((2, st.floats()), (1, junk)))
    if op == "unfold":
        for key in ("padding", "stride", "dilation", "layout"):
            if draw(st.integers(0, 3)) == 0:
                kwargs[key] = draw(weighted((2, st.integers(-1, 4)), (1, st.sampled_from(
                    ["NCHW", "NHWC", "x"])), (1, junk)))
    return {"op": op, "args": [draw(tensors), draw(near(second, junk))], "kwargs": kwargs}


# -- the command line ----------------------------------------------------------

SEED_SOURCE = (ROOT / "examples" / "seed_tma_load.py").read_text()
PY_SOURCES = [
    SEED_SOURCE, SEED_SOURCE + "\ntma_load2 = tma_load\n",
    "x = 1\n", "raise ValueError('boom')\n", "import tile_mlir_no_such_module\n",
    "def f(:\n", "from tile_mlir.kernel import kernel\n@kernel(grid=0)\ndef k():\n    pass\n",
    "from tile_mlir.kernel import kernel\n@kernel()\ndef k(A):\n    pass\n",
    "from tile_mlir.kernel import KernelDef\nk = KernelDef(lambda: None, params=[])\n",
    b"\xff\xfe\x00", "",
]


@st.composite
def py_sources(draw):
    """A Python file for `compile`: the example, a line of it dropped or a
    number changed, or one of the broken ones above."""
    text = draw(st.sampled_from(PY_SOURCES))
    if text is SEED_SOURCE and draw(st.booleans()):
        lines = text.splitlines(keepends=True)
        i = draw(st.integers(0, len(lines) - 1))
        found = list(_NUMBER.finditer(lines[i]))
        if found and draw(st.booleans()):
            m = found[draw(st.integers(0, len(found) - 1))]
            lines[i] = (lines[i][:m.start()] + str(draw(weighted(
                (2, st.integers(-2, 2048)), (1, huge_ints)))) + lines[i][m.end():])
        else:
            del lines[i]
        text = "".join(lines)
    return text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text


# "\x00" in a path: no system call takes it (test_cli_main only: no process
# can be given such an argument).
FILE_ARGS = ["input.mlir", "kernel.py", "-", "missing.mlir", "notes.txt", "", ".",
             "folder", "/dev/null", "/proc/nope.mlir", "in\x00put.mlir", "k\x00.py"]
OUT_ARGS = ["out", "out/deeper/still", "input.mlir", "/proc/prop-out", "/dev/null/x", "",
            "folder", "o\x00ut"]
int_text = weighted((3, st.integers(-3, 40).map(str)), (1, st.text(max_size=5)),
                    (1, huge_ints.map(str)))
csv_text = weighted((3, st.lists(st.integers(-5, 300), max_size=6).map(
    lambda v: ",".join(map(str, v)))), (1, st.text(max_size=8)),
    (1, st.lists(huge_ints, max_size=3).map(lambda v: ",".join(map(str, v)))))


def _options(draw, table):
    argv = []
    for flag in draw(st.lists(st.sampled_from(sorted(table)), max_size=4, unique=True)):
        value = table[flag]
        argv += [flag] if value is None else [flag, draw(value)]
    return argv


@st.composite
def cli_specs(draw):
    """`tile-mlir` argv for a subcommand (or garbage), with the files it
    names and standard input."""
    command = draw(weighted((4, st.just("explain")), (4, st.just("compile")),
                            (1, st.just("rules")), (1, st.just("plugin")),
                            (1, st.just("cache")), (1, st.just("junk"))))
    file_arg = draw(weighted((4, st.just("kernel.py" if command == "compile" and
                                         draw(st.booleans()) else "input.mlir")),
                             (2, st.sampled_from(FILE_ARGS)), (1, st.text(max_size=10))))
    if command == "explain":
        argv = ["explain", file_arg] + _options(draw, {
            "--op-index": int_text, "--slot": int_text, "--rows": st.sampled_from(
                ["0:4", "2", "5:", ":3", "a:b", "-1:2", "9999999999:"]),
            "--elements": None,
            "--png": st.sampled_from(["x.png", "/proc/x.png", "folder", "x\x00.png"]),
            "--color-by": st.sampled_from(["auto", "row", "chunk", "x"]),
            "--coords": csv_text, "--offsets": csv_text, "--gather-rows": csv_text,
            "--global-shape": csv_text, "--max-lines": int_text})
    elif command == "compile":
        argv = ["compile", file_arg] + _options(draw, {
            "--arch": near(st.sampled_from(ARCHES), st.text(max_size=8)),
            "-o": st.sampled_from(OUT_ARGS), "--kernel": near(
                st.sampled_from(["tma_load", "tma_load2"]), st.text(max_size=6)),
            "--no-cubin": None, "--debug": None})
    elif command == "rules":
        argv = ["rules"] + draw(st.lists(near(st.sampled_from(
            ["box-extent", "mbarrier-timeout", "global-base-alignment", "launch-shape",
             "nope", "--kind", "verify", "host", "python", "device", "x"]),
            st.text(max_size=8)), max_size=3))
    elif command == "plugin":
        argv = ["plugin"] + _options(draw, {"--path": None, "--pipeline": st.text(max_size=20)})
    elif command == "cache":
        argv = ["cache", draw(near(st.sampled_from(["info", "clear", "populate"]),
                                   st.text(max_size=6)))]
        argv += draw(st.lists(st.sampled_from(
            ["json:loads", "math:pi", "builtins:list", "tile_mlir_no_such_module:f",
             "tile_mlir.testing.runtime_kernels:cache_recipes", "nocolon", "--debug",
             "--arch", "sm_90a", "sm_100a", "sm_80"]), max_size=3))
    else:
        argv = draw(st.lists(st.text(max_size=10), max_size=4))
    files = {}
    if draw(st.integers(0, 6)):
        files["input.mlir"] = draw(mlir_texts).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 2)):
        files["kernel.py"] = draw(py_sources())
    if draw(st.booleans()):
        files["notes.txt"] = draw(st.binary(max_size=30))
    stdin = draw(weighted((2, st.just("")), (2, mlir_texts))).encode("utf-8", "surrogatepass")
    return {"argv": argv, "files": files, "stdin": stdin}
