"""`pad(x, pad, value=0)`: torch.nn.functional.pad(x, pad, value=value)
(constant mode) on the copy engine or, where they move it faster, the
threads' 16-byte vectors.

    y = pad(x, (1, 1, 1, 1))          # W and H of an NCHW tensor, zeros

`pad` lists (left, right) per axis from the last axis back, as F.pad does;
negative entries crop. x is a CUDA torch tensor, a DLPack array or a CUDA
array interface array of 1-, 2-, 4- or 8-byte elements, of any rank. The result is contiguous, or
channels_last (channels_last_3d) where x is, as F.pad keeps it: such an x
is padded in memory order (N, spatial axes, C). A pad with no positive
amount is F.pad's copy of the cropped view, in the layout of torch's
clone of it; its value is not converted. On the engine's kernels, what lies
outside x is the copy engine's out-of-bounds fill where the value allows
it: zero for a value whose bits are zero, and for NaN on a 2-, 4- or
8-byte float the engine's NaN (bit pattern 0x7FF7 repeated over the
element, a quiet NaN; torch's own NaN is 0x7FC0... for bf16, so a NaN pad
is NaN everywhere torch's is, with these bits, in every path: the
threads write the same NaN). Other values are written by the kernel's
threads.

Unpadded axes merge into the axis before them (plan.pad.canonical_pad);
a kernel of builders/pad.py is compiled per dtype or element size, canonical
rank, box or tile and fill kind, the vector pad (pad_vectors) per element
size, canonical rank and tile; extents, pads and the value are runtime
values. Rows of whole 16-byte vectors shifted by whole vectors (F.pad
(0, 8) on bf16) run on the vector pad (pad_vectors: threads' 16-byte
loads and stores); other aligned shapes and shifts move boxes only; rows
that are not 16-byte aligned (F.pad by 1 on W) load boxes of input rows
and write the output rows with threads; strides that are not 16-byte
multiples, or more than 5 padded axes once merged (even in a contiguous
copy), run on the SIMT kernel.
"""

from __future__ import annotations

import math
import numbers

from ...errors import TileUsageError
from .call import (
    FLAT_LAUNCH,
    PERSISTENT_GRID,
    READER_FENCES,
    aligned,
    as_tensor,
    bits_view,
    counter,
    ctas_fit,
    flat_boxes_fit,
    flat_row_conditions,
    flat_slot_bytes,
    launch,
    persistent_grid,
    rows_launch,
    rows_stage_bytes,
    strided,
    torch_module,
    unique_recipes,
    vector_grid,
)
from . import prepared, torch_ops
from .geometry.addressing import IntDynOps
from .geometry.pad import PadGeometry, RowsGeometry, equal_tile_height
from .grad import apply as grad_apply
from .grad import needs_grad
from .grad import register as register_grad
from .limits import ELEM_DTYPES, SIMT_GRID, SIMT_THREADS
from .permute import call_plan as permute_plan
from .permute import recipes_for as permute_recipes
from .permute import run as permute_run
from .plan.common import (
    contiguous_strides,
    inverse_permutation,
    is_sequence,
    plan_or_dense,
)
from .plan.pad import (
    ENGINE_NAN,
    canonical_pad,
    channels_last_like,
    channels_last_order,
    fill_kind,
    normalize_pad,
    pad_box,
    pad_spec,
    plan_pad,
    reorder_pad,
)

# The builders, by name: resolved (MLIR imported) only where a kernel compiles.
BUILD_PAD_BOXES = "tile_mlir.kernels.layout.builders.pad:build_pad_boxes"
BUILD_PAD_ROWS = "tile_mlir.kernels.layout.builders.pad:build_pad_rows"
BUILD_PAD_SIMT = "tile_mlir.kernels.layout.builders.pad:build_pad_simt"
BUILD_PAD_VECTORS = "tile_mlir.kernels.layout.builders.pad_vectors:build_pad_vectors"
# One vector a thread: on the H100 the smaller a CTA's run of B, the faster
# (one 0.5% above two, two 0.2% above four; docs/decisions.md, "Layout:
# aligned pads and the vector pad").
VECTOR_KERNEL = {"threads": 256, "slots": 1}

FLOAT_NAMES = {"float16": "float16", "bfloat16": "bfloat16", "float32": "float32",
               "float64": "float64"}


def _number(value):
    """value as a Python bool, int or float: real numbers, numpy scalars and
    0-d arrays or tensors, as torch takes them, and None for 0 (F.pad's
    default); [pad-value] otherwise."""
    if value is None:
        return 0
    if hasattr(value, "item") and hasattr(value, "shape"):
        if tuple(value.shape) != ():
            raise TileUsageError("pad-value", f"value is a number, got an array of "
                                 f"shape {tuple(value.shape)}")
        value = value.item()
    if isinstance(value, bool):
        return value
    for kind, convert in ((numbers.Integral, int), (numbers.Real, float)):
        if isinstance(value, kind):
            return convert(value)
    raise TileUsageError("pad-value", f"value is a real number (F.pad takes a float), "
                         f"got {value!r}")


def _as_float(value) -> float:
    """value as the float F.pad takes; [pad-value] past a double's range."""
    number = _number(value)
    try:
        return float(number)
    except OverflowError:
        raise TileUsageError("pad-value", f"value {number!r} is past a double's range "
                             "(F.pad takes a float)") from None


def value_bits(t, value) -> tuple[int, bool]:
    """(the value's bits in t's dtype, as an unsigned int; whether it is NaN).
    The value converts as F.pad converts it: through a float, then torch's
    fill of a one-element tensor of t's dtype, whose range checks (an
    integer dtype's range, a float dtype's largest finite value, infinity in
    the float8 formats without it, zero or a sign in float8_e8m0fnu) raise
    here as [pad-value]."""
    torch = torch_module()
    number = _as_float(value)
    try:
        scalar = torch.nn.functional.pad(torch.zeros((1,), dtype=t.dtype), (1, 0),
                                         value=number)[:1]
    except (RuntimeError, OverflowError, ValueError, TypeError) as err:
        raise TileUsageError("pad-value", f"value {value!r} does not convert to "
                             f"{t.dtype} ({err})") from None
    elem = t.element_size()
    raw = bits_view(scalar).item() & ((1 << (8 * elem)) - 1)
    return raw, math.isnan(number)


def _signed64(bits: int) -> int:
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def kernel_for(plan, dtype_name: str) -> tuple:
    """(builder, params) of a pad plan's kernel; `dtype_name` is t's torch
    dtype name (the NaN fill's maps need the float format)."""
    p = plan.params
    elem = p["elem"]
    if plan.kind == "boxes" and p["vectors"]:
        return BUILD_PAD_VECTORS, {"elem": elem, "rank": p["rank"], **VECTOR_KERNEL}
    dtype = _map_dtype(plan, dtype_name)
    if plan.kind == "boxes":
        return engine_boxes(plan, dtype)
    if plan.kind == "rows":
        params = row_form_params(plan, dtype)
        flat = flat_launch(p, plan.out_shape[-1])
        return BUILD_PAD_ROWS, {**params, **flat} if flat else params
    return BUILD_PAD_SIMT, {"dtype": ELEM_DTYPES[elem], "rank": p["rank"],
                            "grid": SIMT_GRID}


def _map_dtype(plan, dtype_name: str) -> str:
    """The dtype of a plan's tensor maps: the float format for the NaN fill
    (the engine's NaN needs it), else the element size's integer."""
    p = plan.params
    return FLOAT_NAMES[dtype_name] if p["fill"] == "nan" and plan.kind != "simt" \
        else ELEM_DTYPES[p["elem"]]


def engine_boxes(plan, dtype: str) -> tuple:
    """build_pad_boxes for a boxes plan: the copy engine moves the boxes and
    fills what lies outside A (the default where A's rows are not whole
    16-byte vectors)."""
    p = plan.params
    return BUILD_PAD_BOXES, {"dtype": dtype, "rank": p["rank"], "box": list(p["box"]),
                             "fill": p["fill"], "stages": 3 if p["fill"] == "value"
                             else p["stages"], "grid": PERSISTENT_GRID}


def row_form_params(plan, dtype: str) -> dict:
    """build_pad_rows' parameters for a rows plan, the row form: every tile
    row copied on its own by a warp. The threads' copy is latency bound: as
    many threads an SM as fit."""
    p = plan.params
    return {"dtype": dtype, "rank": p["rank"], "wbox": p["wbox"], "nb": p["nb"],
            "rows": p["rows"], "fill": p["fill"], "stages": p["stages"], "equal": p["equal"],
            **rows_launch(p["rows"], p["wbox"], p["nb"], p["elem"], p["stages"])}


def flat_launch(p: dict, out_w: int) -> dict | None:
    """The flat form's parameters where it applies to a rows plan `p` whose
    output rows are out_w elements (the engine's fill, flat_boxes_fit,
    flat_row_conditions, two CTAs with their slots fitting an SM), else
    None. Two CTAs of 256 an SM: three fit where it takes 80 registers
    (1- and 2-byte elements) and ran no faster on the H100."""
    elem, wbox, nb, rows = p["elem"], p["wbox"], p["nb"], p["rows"]
    if p["fill"] == "value" or not flat_boxes_fit(wbox, elem) or \
            not all(flat_row_conditions(out_w, wbox, nb, elem)):
        return None
    if not ctas_fit(2, p["stages"], rows_stage_bytes(rows, wbox, nb, elem),
                    flat_slot_bytes(rows)):
        return None
    return dict(FLAT_LAUNCH)


def plan_for(shape, strides, pad, elem: int, fill: str, fit: bool = True,
             boxes: bool = True, beyond: bool = False):
    return plan_pad(tuple(shape), tuple(strides), pad, elem, fill, PERSISTENT_GRID, fit, boxes,
                    beyond)


def rows_plan(plan):
    """The rows kernel's plan for a boxes plan's pad (None if it has none):
    the benchmark's comparison on aligned rows."""
    if plan.kind != "boxes":
        return None
    c = plan.canonical
    spec = pad_spec(c.lefts, c.rights)
    rows = plan_for(c.shape, c.strides, spec, plan.params["elem"], plan.params["fill"],
                    boxes=False)
    return rows if rows.kind == "rows" else None


def _fill_of(t, value):
    bits, is_nan = value_bits(t, value)
    elem = t.element_size()
    fill = fill_kind(bits, elem, t.dtype.is_floating_point, is_nan)
    if fill == "nan":
        bits = ENGINE_NAN[elem]
    return bits, fill


def pad(x, pad, value=0):
    """F.pad(x, pad, value=value) (see the module docstring); a tensor that
    requires a gradient gets one (layout/grad.py)."""
    if torch_ops.is_compiling():   # Dynamo / torch.export: the custom op
        return torch_ops.traced("pad", x, pad, value)
    out = prepared.call("pad", x, (pad, value), pad_tensor)
    if out is not None:
        return out
    t, back = as_tensor(x)
    if is_sequence(pad):
        pad = tuple(pad)   # read once: the op reads the spec more than once
    if needs_grad(t):
        return grad_apply("pad", t, pad, value)
    return back(prepared.call_or_plan("pad", t, (pad, value), pad_tensor))  # DLPack's view


def pad_tensor(t, pad, value=0):
    """pad() on a CUDA torch tensor, no gradient."""
    canonical_pad(tuple(t.shape), t.stride(), pad)   # [pad-spec] of F.pad's rules
    lefts, rights = normalize_pad(pad, t.dim())
    if all(p <= 0 for p in lefts + rights):
        _as_float(value)   # nothing is filled: F.pad takes a float, checks no more
        return _crop(t, pad, lefts, rights)
    order = _memory_order(t)
    if order is not None:   # channels_last: padded in memory order, kept so (as F.pad)
        return pad_tensor(t.permute(order), reorder_pad(pad, order),
                          value).permute(inverse_permutation(order))
    t = aligned(t)
    bits, fill = _fill_of(t, value)
    out_shape = [d + l + r for d, l, r in zip(t.shape, lefts, rights)]
    out = torch_module().empty(out_shape, dtype=t.dtype, device=t.device)
    _pad_into(t, pad, bits, fill, out)
    return out


def _crop(t, pad, lefts, rights):
    """A pad with no positive amount, as F.pad returns it: the cropped view
    copied into the layout torch's clone gives it (its strides kept where
    dense, else dense strides in its stride order), the pad kernels moving
    it in that memory order."""
    view = t
    for axis, (left, right) in enumerate(zip(lefts, rights)):
        view = view.narrow(axis, -left, view.shape[axis] + left + right)
    out = torch_module().empty_like(view)   # clone's layout (preserve_format)
    # Its memory order; size-1 axes (the only ties) where the input has
    # them, so the view in that order keeps the input's innermost stride.
    order = tuple(sorted(range(t.dim()),
                         key=lambda a: (-out.stride(a), -t.stride(a), a)))
    _pad_into(aligned(t.permute(order)), reorder_pad(pad, order), 0, "zero",
              out.permute(order))
    return out


def _pad_into(t, pad, bits: int, fill: str, out) -> None:
    """Pads t into `out` (contiguous in memory, of the padded shape)."""
    plan, dense = call_plan(t.shape, t.stride(), pad, t.element_size(), fill)
    if plan.kind == "empty":
        return
    if dense:
        t = t.contiguous()
    if plan.kind == "copy":
        dims = tuple(range(t.dim()))
        copy, dense = permute_plan(t.shape, t.stride(), dims, t.element_size())
        permute_run(copy, t.contiguous() if dense else t, out)
        return
    run(plan, t, out, bits)


def _memory_order(t):
    """The axes of a tensor with channels_last (channels_last_3d) strides in
    memory order, for which F.pad keeps that format; else None."""
    if not channels_last_like(tuple(t.shape), t.stride()):
        return None
    return channels_last_order(t.dim())


def call_plan(shape, strides, pad_, elem: int, fill: str):
    """(plan, whether the input is made contiguous first): what pad() runs."""
    return plan_or_dense(lambda s, beyond=False: plan_for(shape, s, pad_, elem, fill,
                                                          beyond=beyond), shape, strides,
                         lambda plan: bool(plan.kind not in ("empty", "copy") and
                                           plan.in_view[1] and plan.in_view[1][-1] != 1))


def run(plan, t, out, bits: int, kernel=None) -> None:
    """Launches the plan's kernel (or `kernel`: (builder, params) of a
    variant of it) from t into `out`."""
    c = plan.canonical
    builder, params = kernel or kernel_for(plan, str(t.dtype).replace("torch.", ""))
    nan_maps = params.get("dtype") in FLOAT_NAMES
    src_t = t if nan_maps else bits_view(t)
    dst_t = out if nan_maps else bits_view(out)
    lefts, rights = list(c.lefts), list(c.rights)
    shape, strides = list(plan.in_view[0]), list(plan.in_view[1])
    value = [_signed64(bits)]
    if plan.kind == "rows":
        if c.rank == 1:   # one row: its (unused) outer stride a 16-byte multiple
            per16 = 16 // t.element_size()
            shape, strides = [1] + shape, [-(-shape[0] // per16) * per16] + strides
            lefts, rights = [0] + lefts, [0] + rights
        src = strided(src_t, shape, strides)
        args = (src, dst_t.view(-1), counter(t.device), *lefts, *rights)
        if params["fill"] == "value":
            args += tuple(value)
        out_dims = [d + left + right for d, left, right in zip(shape, lefts, rights)]
        launch(builder, params, args, min(persistent_grid(t.device, params["grid"]),
                                          rows_tile_count(params, plan, out_dims)))
        return
    src = strided(src_t, shape, strides)
    dst = dst_t.view(plan.out_shape)
    if builder == BUILD_PAD_VECTORS:   # whole_vectors: B is whole vectors
        launch(builder, params, (src, dst, *lefts, *value), vector_grid(out, params))
        return
    if plan.kind == "boxes":
        args = (src, dst, counter(t.device), *lefts)
        if params["fill"] == "value":
            args += tuple(value)
        launch(builder, params, args, min(persistent_grid(t.device, params["grid"]),
                                          boxes_tile_count(params, plan.out_shape)))
        return
    n = out.numel()
    launch(builder, params, (src, dst, *lefts, *value),
           max(1, min(SIMT_GRID, -(-n // SIMT_THREADS))))


# A persistent pad launches no more CTAs than its tiles (a CTA without one
# only claims and leaves): the tile counts its kernel computes.

def rows_tile_count(params, plan, out_dims) -> int:
    """Tiles of build_pad_rows over output extents `out_dims` (A's extents
    plus the pads, as the kernel adds them)."""
    geo = RowsGeometry.of_params(params, len(out_dims), plan.params["elem"])
    return max(1, math.prod(geo.counts(out_dims, IntDynOps)))


def boxes_tile_count(params, out_shape) -> int:
    """Tiles of build_pad_boxes: its boxes over B (the output's shape)."""
    return max(1, math.prod(PadGeometry(tuple(params["box"])).counts(list(out_shape),
                                                                      IntDynOps)))


def variants(plan, dtype_name: str) -> list:
    """(name, (builder, params)) of the plan's kernel and the variants the
    benchmark measures beside it."""
    builder, params = kernel_for(plan, dtype_name)
    out = [("default", (builder, params))]
    if plan.kind == "boxes":
        engine = engine_boxes(plan, _map_dtype(plan, dtype_name))
        if builder == BUILD_PAD_VECTORS:
            out += [("engine boxes", engine)]
            out += [(f"vectors t{t} s{k}", (builder, {**params, "threads": t, "slots": k}))
                    for t, k in ((256, 2), (256, 4), (128, 1), (128, 2), (512, 1))]
        c = plan.canonical
        eb, ep = engine
        pow2 = list(pad_box(c.shape, c.out_shape, plan.params["elem"], even=False))
        out.append(("power-of-two box", (eb, {**ep, "box": pow2})))
        out.append(("g264", (eb, {**ep, "grid": 2 * PERSISTENT_GRID})))
        out.append((f"s{ep['stages'] + 1}", (eb, {**ep, "stages": ep["stages"] + 1})))
    if plan.kind == "rows":
        row_form = row_form_params(plan, params["dtype"])
        if params.get("flat"):
            out.append(("row form", (builder, row_form)))
        out += _rows_variants(plan, builder, row_form)
    return [v for i, v in enumerate(out) if i == 0 or v[1][1] != params]


def _rows_variants(plan, builder, params) -> list:
    """The rows kernel's variants beside its row form `params`: other CTA
    shapes and stage counts, tiles of a static height (the earlier
    default's 32 rows, whose last tile of a 258-row plane is 2 rows; 43 and
    129, which split 258 evenly but only 258), the box as high as the
    tiles, L2 promotion and evict_first loads, the stage's proxy fence in
    thread 0 alone or none, the flat form at other launch shapes,
    power-of-two boxes."""
    elem, wbox, nb = plan.params["elem"], params["wbox"], params["nb"]
    h_in, h_out = plan.canonical.shape[-2], plan.out_shape[-2]
    G = PERSISTENT_GRID

    def fits(k) -> bool:
        slots = flat_slot_bytes(k["rows"]) if k.get("flat") else 0
        return k["rows"] <= min(256, h_in) and ctas_fit(
            k["grid"] // G, k["stages"], rows_stage_bytes(k["rows"], k["wbox"], k["nb"], elem),
            slots)

    def shape(threads, ctas, stages, **extra):
        return {**params, "threads": threads, "grid": ctas * G, "stages": stages, **extra}

    s = params["stages"]
    cands = [("t512 g264", shape(512, 2, s)), ("t256 g528", shape(256, 4, s)),
             ("t256 g396 s3", shape(256, 3, s + 1)), ("t128 g792", shape(128, 6, s)),
             ("half rows t256 g528", shape(256, 4, s, rows=max(1, params["rows"] // 2))),
             ("static r32 t256 g396 s3", shape(256, 3, 3, rows=32, equal=False))]
    for tiles, threads, ctas, stages in ((6, 512, 2, 2), (2, 1024, 1, 3)):
        rows = -(-h_out // tiles)
        cands.append((f"static r{rows} t{threads} g{ctas * G} s{stages}",
                      shape(threads, ctas, stages, rows=rows, equal=False)))
    # The default's CTAs, its box as high as its tiles (no unused box rows).
    tile_rows = equal_tile_height(h_out, params["rows"], lambda a, n: -(-a // n))
    cands.append((f"box r{tile_rows} t256 g{3 * G} s{s}", shape(256, 3, s, rows=tile_rows)))
    cands += [("l2-256B", {**params, "l2_promotion": 3}),
              ("evict-first", {**params, "evict_first": True})]
    # The stage's proxy fence in thread 0 alone, or none (all_thread_pipeline).
    cands += [(name, {**params, "fence": f}) for f, name in READER_FENCES.items()]
    cands += [(f"{name} t512 g264", shape(512, 2, s, fence=f))
              for f, name in READER_FENCES.items()]
    # The tile's output as one run of aligned vectors (the engine's fill only).
    if params["fill"] != "value":
        cands += [("flat t256 g264", shape(256, 2, s, flat=True)),
                  ("flat t256 g396", shape(256, 3, s, flat=True)),
                  (f"flat box r{tile_rows} t256 g{2 * G}",
                   shape(256, 2, s, rows=tile_rows, flat=True)),
                  (f"flat t256 g264 s{s + 2}", shape(256, 2, s + 2, flat=True))]
    c = plan.canonical
    spec = pad_spec(c.lefts, c.rights)
    pow2 = plan_for(c.shape, c.strides, spec, elem, params["fill"], fit=False)
    if pow2.kind == "rows" and pow2.params["wbox"] != wbox:
        old = row_form_params(pow2, params["dtype"])
        cands += [("pow2 boxes t512 g264", {**old, "threads": 512, "grid": 2 * G}),
                  ("pow2 boxes t256 g396", {**old, "threads": 256, "grid": 3 * G})]
    return [(name, (builder, k)) for name, k in cands if fits(k)]


TORCH_DTYPES = {(1, False): "uint8", (2, False): "int16", (4, False): "int32",
                 (8, False): "int64", (2, True): "bfloat16", (4, True): "float32",
                 (8, True): "float64"}


def recipes_for(cases) -> list:
    """(builder, params) of the kernels `cases` ((shape, pad, elem, fill) of
    dense inputs, or (shape, strides, pad, elem, fill); NaN fills on
    bfloat16/float32/float64) run."""
    out = []
    for case in cases:
        shape, pad_, elem, fill = case[0], case[-3], case[-2], case[-1]
        strides = case[1] if len(case) == 5 else contiguous_strides(shape)
        lefts, rights = normalize_pad(pad_, len(shape))
        if all(p <= 0 for p in lefts + rights):
            # A crop (_crop): moved in the memory order of torch's clone of
            # the view, its strides decreasing (for views with no stride-0
            # axis: torch orders those its own way, so their crops' kernels
            # are compiled where they run).
            order = sorted(range(len(shape)), key=lambda a: (-strides[a], a))
            shape, strides = [shape[a] for a in order], [strides[a] for a in order]
            pad_, fill = reorder_pad(pad_, order), "zero"
        plan, dense = call_plan(shape, strides, pad_, elem, fill)
        if plan.kind == "empty":
            continue
        if plan.kind == "copy":
            view = contiguous_strides(shape) if dense else strides
            entries = permute_recipes([(shape, view, tuple(range(len(shape))), elem)])
        else:
            entries = [kernel_for(plan, TORCH_DTYPES[elem, fill == "nan"])]
        out += entries
    return unique_recipes(out)


def rows_forms(plan, dtype_name: str) -> list:
    """(name, (builder, params)) of a rows plan's kernel in both forms: the
    row form, and the flat form (build_pad_rows' `flat`; the engine's fill
    only) at its launch shape; none for other plans."""
    if plan.kind != "rows":
        return []
    builder, params = kernel_for(plan, dtype_name)
    row_form = row_form_params(plan, params["dtype"])
    out = [("row form", (builder, row_form))]
    if params["fill"] != "value":
        out.append(("flat form", (builder, {**row_form, **FLAT_LAUNCH})))
    return out


def boxes_forms(plan, dtype_name: str) -> list:
    """(name, (builder, params)) of a boxes plan's kernels: the vector pad
    where its rows are whole vectors, and the copy engine's boxes; none for
    other plans."""
    if plan.kind != "boxes":
        return []
    engine = [("engine boxes", engine_boxes(plan, _map_dtype(plan, dtype_name)))]
    if not plan.params["vectors"]:
        return engine
    return [("vectors", kernel_for(plan, dtype_name))] + engine


register_grad("pad", pad, pad_tensor, prepared.repeated("pad", pad_tensor))
