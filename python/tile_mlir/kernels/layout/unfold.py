"""`unfold(x, kernel_size, padding=0, stride=1, dilation=1, layout="NCHW")`:
im2col on the copy engine.

    cols = unfold(x, 3, padding=1)                 # F.unfold(x, 3, padding=1)
    cols = unfold(x_nhwc, 3, padding=1, layout="NHWC")

NCHW: x is (N, C, H, W) (or (C, H, W)) and the result is F.unfold's,
(N, C kh kw, L), column blocks ordered (c, i, j). NHWC: x is (N, H, W, C)
(or (H, W, C)) and the result is the channels-last convolution's GEMM
operand (N, L, kh kw C), one row per output position, columns ordered
(i, j, c). L = oh * ow output positions. Padding reads zeros.

NHWC runs on the copy engine's im2col mode (builders.unfold.
build_unfold_nhwc): the pixel column of each filter tap is one load, its
padding the engine's fill. NCHW's innermost axis is W, which im2col mode
cannot shift by a tap (tile-mode innermost coordinates are 16-byte
aligned). With stride 1 and rows of whole 16-byte chunks,
unfold_taps.build_unfold_nchw_taps builds one shared image per column
shift. The aligned shifts are loads; the others are shifted by the threads
from a halo load. Every tap is then one tile store. Other NCHW shapes run
on build_unfold_nchw, which loads the rows under a tile as boxes (the
padding filled by the engine); the threads then write every tap's shifted
window. Shapes outside what these describe run on build_unfold_simt.
Compiled once per element size, layout, kernel, padding, stride, dilation
and tile; extents are runtime values.
"""

from __future__ import annotations

from .call import (
    PERSISTENT_GRID,
    READER_FENCES,
    aligned,
    as_tensor,
    bits_view,
    counter,
    launch,
    persistent_grid,
    rows_launch,
    torch_module,
    unique_recipes,
)
from . import prepared, torch_ops
from .grad import apply as grad_apply
from .grad import needs_grad
from .grad import register as register_grad
from .limits import SIMT_GRID, SIMT_THREADS
from .geometry.addressing import IntDynOps, product
from .geometry.gather import wide_gather_fits
from .geometry.taps import TapsGeometry
from .geometry.unfold import Conv, Im2colGeometry, RowsUnfoldGeometry
from .plan.unfold import plan_unfold, row_stride, unfold_spec

# The builders, by name: resolved (MLIR imported) only where a kernel compiles.
BUILD_UNFOLD_NCHW = "tile_mlir.kernels.layout.builders.unfold:build_unfold_nchw"
BUILD_UNFOLD_TAPS = "tile_mlir.kernels.layout.builders.unfold_taps:build_unfold_nchw_taps"
BUILD_UNFOLD_NHWC = "tile_mlir.kernels.layout.builders.unfold:build_unfold_nhwc"
BUILD_UNFOLD_SIMT = "tile_mlir.kernels.layout.builders.unfold:build_unfold_simt"

_KINDS = {BUILD_UNFOLD_NHWC: "im2col", BUILD_UNFOLD_TAPS: "taps",
          BUILD_UNFOLD_NCHW: "rows"}



def kernel_for(plan) -> tuple:
    p = dict(plan.params)
    common = {k: p[k] for k in ("elem", "kernel", "padding", "stride", "dilation")}
    if plan.kind == "im2col":
        # Two CTAs an SM: 3.72 TB/s on the H200 against 2.91 with one.
        return BUILD_UNFOLD_NHWC, {**common, "pixels": p["pixels"],
                                   "channels": p["channels"], "stages": p["stages"],
                                   "grid": 2 * PERSISTENT_GRID}
    if plan.kind == "taps":
        return BUILD_UNFOLD_TAPS, {**common, "rows": p["rows"], "width": p["width"],
                                   "hbox": p["hbox"], "hnb": p["hnb"],
                                   "stages": p["stages"], "threads": 256,
                                   "grid": 2 * PERSISTENT_GRID}
    if plan.kind == "rows":
        # The threads' copy is latency bound: as many threads an SM as fit.
        (kh, _), (sh, sw), (dh, _) = p["kernel"], p["stride"], p["dilation"]
        g = p.get("hstride", 1)
        rows_in = ((p["rows"] - 1) * sh + (kh - 1) * dh) // g + 1
        # 1-byte windows strided along W gather from whole shared chunks
        # (1.03-1.29x on the H100's NCHW k3 s2 d2 cells; 2-, 4- and 8-byte
        # ones measured slower that way: performance.md "Strided unfold").
        wide = p["elem"] == 1 and wide_gather_fits(1, sw)
        return BUILD_UNFOLD_NCHW, {**common, "wbox": p["wbox"], "nb": p["nb"],
                                   "rows": p["rows"], "width": p["width"],
                                   "stages": p["stages"],
                                   **({"hstride": g} if g > 1 else {}),
                                   **({"gather": "wide"} if wide else {}),
                                   **rows_launch(rows_in, p["wbox"], p["nb"], p["elem"],
                                                 p["stages"])}
    return BUILD_UNFOLD_SIMT, {**common, "layout": plan.spec.layout, "grid": SIMT_GRID}


def plan_for(shape, elem: int, kernel_size, padding, stride, dilation, layout: str,
             fit: bool = True):
    spec = unfold_spec(tuple(shape), kernel_size, padding, stride, dilation, layout)
    # Row loads at the window's stride along H: a strided or dilated NCHW
    # window reads only those rows (1.11-1.15x at 256 MiB, 2.5x for the 4 GiB
    # float64 cell that no longer needs the simt kernel, on the H100).
    return plan_unfold(spec, True, elem, PERSISTENT_GRID, fit, hstride=True)


def previous_default(plan) -> tuple:
    """The kernel a strided NCHW window ran before row strides and the wide
    gather were defaults (all rows loaded, one shared load an element): a
    benchmark variant."""
    builder, params = kernel_for(plan_unfold(plan.spec, True, plan.params["elem"],
                                             PERSISTENT_GRID))
    params = {k: v for k, v in params.items() if k != "gather"}
    return builder, params


def unfold(x, kernel_size, padding=0, stride=1, dilation=1, layout: str = "NCHW"):
    """im2col of x (see the module docstring); a tensor that requires a
    gradient gets one (layout/grad.py)."""
    if torch_ops.is_compiling():   # Dynamo / torch.export: the custom op
        return torch_ops.traced("unfold", x, kernel_size, padding, stride, dilation, layout)
    args = (kernel_size, padding, stride, dilation, layout)
    out = prepared.call("unfold", x, args, _unfold_result)
    if out is not None:
        return out
    t, back = as_tensor(x)
    if needs_grad(t):
        return grad_apply("unfold", t, *args)
    return back(prepared.call_or_plan("unfold", t, args, _unfold_result))  # DLPack's view


def _unfold_result(t, *args):
    return unfold_tensor(t, *args)[0]


def unfold_tensor(t, kernel_size, padding=0, stride=1, dilation=1, layout: str = "NCHW"):
    """(unfold() on a CUDA torch tensor, no gradient; its UnfoldSpec)."""
    t = aligned(t)
    torch = torch_module()
    plan = plan_for(t.shape, t.element_size(), kernel_size, padding, stride, dilation,
                    layout)
    spec = plan.spec
    out = torch.empty(spec.out_shape(), dtype=t.dtype, device=t.device)
    if t.numel() and out.numel():
        run(plan, t.contiguous(), out)
    return (out if t.dim() == 4 else out[0]), spec


def run(plan, t, out, kernel=None) -> None:
    """Launches the plan's kernel (or `kernel`: (builder, params) of a
    variant) from the contiguous t into `out`."""
    spec = plan.spec
    builder, params = kernel or kernel_for(plan)
    src, dst = bits_view(t), bits_view(out)
    n, c, h, w = spec.n, spec.c, spec.h, spec.w
    kind = _KINDS.get(builder, "simt")  # a variant may be another plan's kernel
    if kind in _KINDS.values():
        grid = min(persistent_grid(t.device, params["grid"]), tile_count(kind, params, spec))
    if kind == "im2col":
        args = (src.view(n, h, w, c), dst.view(n * spec.blocks, spec.taps, c),
                counter(t.device))
        launch(builder, params, args, grid)
    elif kind == "taps":
        oh, ow = spec.out_hw
        args = (src.view(n * c, h, w), dst.view(n * c, spec.taps, oh, ow),
                counter(t.device))
        launch(builder, params, args, grid)
    elif kind == "rows":
        args = (src.view(n * c, h, w), dst.view(-1), counter(t.device))
        launch(builder, params, args, grid)
    else:
        image = (n, c, h, w) if spec.layout == "NCHW" else (n, h, w, c)
        args = (src.view(image), dst.view(spec.out_shape()))
        launch(builder, params, args,
               max(1, min(SIMT_GRID, -(-out.numel() // SIMT_THREADS))))


def tile_count(kind: str, params, spec) -> int:
    """Tiles of a persistent unfold kernel (`kind` of _KINDS) on the image
    of `spec`, as its builder counts them over its A's extents (im2col:
    (N, H, W, C); taps and rows: (N C, H, W)): a launch needs no more CTAs
    (one without a tile only claims and leaves)."""
    n, c, h, w = spec.n, spec.c, spec.h, spec.w
    oh, ow = Conv.of_params(params).out_hw(h, w, IntDynOps)
    if kind == "im2col":
        counts = Im2colGeometry.of_params(params).counts(n, c, oh * ow, IntDynOps)
    elif kind == "taps":
        counts = TapsGeometry.of_params(params, params["elem"]).counts(n * c, oh, ow, IntDynOps)
    else:
        counts = RowsUnfoldGeometry.of_params(params, params["elem"]).counts(
            n * c, oh, ow, IntDynOps)
    return max(1, product(counts))


def variants(plan) -> list:
    """(name, (builder, params)) of the plan's kernel and the variants the
    benchmark measures beside it."""
    builder, params = kernel_for(plan)
    out = [("default", (builder, params))]
    if plan.kind == "im2col":
        out.append(("g132", (builder, {**params, "grid": PERSISTENT_GRID})))
        out.append(("g396 s3", (builder, {**params, "grid": 3 * PERSISTENT_GRID,
                                          "stages": 3})))
        out.append(("g264 s6", (builder, {**params, "stages": params["stages"] + 2})))
    if plan.kind == "taps":
        out.append(("g132", (builder, {**params, "grid": PERSISTENT_GRID})))
        out.append(("g396 t128", (builder, {**params, "grid": 3 * PERSISTENT_GRID,
                                            "threads": 128})))
        out.append(("s4", (builder, {**params, "stages": 4})))
        if params["rows"] > 8:
            out.append(("half rows g396", (builder, {**params, "rows": params["rows"] // 2,
                                                     "grid": 3 * PERSISTENT_GRID})))
        rows_plan = plan_unfold(plan.spec, True, params["elem"], PERSISTENT_GRID,
                                taps=False)
        rows_builder, rows_params = kernel_for(rows_plan)
        out.append(("rows kernel", (rows_builder, rows_params)))
        out += [(f"rows kernel {name}", (rows_builder, {**rows_params, "fence": f}))
                for f, name in READER_FENCES.items()]
    if plan.kind == "rows":
        t256 = {**params, "threads": 256}
        out.append(("t256 g132", (builder, {**t256, "grid": PERSISTENT_GRID})))
        out.append(("t512 g264", (builder, {**params, "threads": 512,
                                            "grid": 2 * PERSISTENT_GRID})))
        out.append(("t256 g396", (builder, {**t256, "grid": 3 * PERSISTENT_GRID})))
        out.append(("t256 g528", (builder, {**t256, "grid": 4 * PERSISTENT_GRID})))
        out.append(("t256 g396 s4", (builder, {**t256, "grid": 3 * PERSISTENT_GRID,
                                               "stages": params["stages"] + 1})))
        out += [(name, (builder, {**params, "fence": f})) for f, name in READER_FENCES.items()]
        if params["rows"] > 8:
            out.append(("half rows t256 g528", (builder, {
                **t256, "rows": params["rows"] // 2, "grid": 4 * PERSISTENT_GRID})))
        spec = plan.spec
        pow2 = plan_unfold(spec, True, params["elem"], PERSISTENT_GRID, fit=False)
        if pow2.kind == "rows" and pow2.params["wbox"] != params["wbox"]:
            _, old = kernel_for(pow2)
            out.append(("pow2 boxes t512 g264", (builder, {**old, "threads": 512,
                                                           "grid": 2 * PERSISTENT_GRID})))
            out.append(("pow2 boxes t256 g396", (builder, {**old, "threads": 256,
                                                           "grid": 3 * PERSISTENT_GRID})))
    out += gather_variants(plan)
    return [v for i, v in enumerate(out) if i == 0 or v[1][1] != params]


def gather_variants(plan) -> list:
    """(name, (builder, params)) of the NCHW rows kernel's other forms for a
    strided or dilated window, beside the plan's kernel (row loads at the
    window's stride along H, and for 1-byte elements the wide gather): the
    previous default (every row loaded, one shared load an element), and
    the default with the wide gather toggled ("element loads" for 1-byte
    elements, "wide gather" for wider ones; where the stride along W is > 1
    and geometry.gather.wide_gather_fits)."""
    spec = plan.spec
    if spec.layout != "NCHW" or plan.kind not in ("rows", "simt"):
        return []
    if row_stride(spec) == 1 and spec.stride[1] == 1:
        return []
    out = [("previous default", previous_default(plan))]
    if plan.kind == "rows" and wide_gather_fits(plan.params["elem"], spec.stride[1]):
        builder, params = kernel_for(plan)
        if params.get("gather") == "wide":
            out.append(("element loads", (builder, {k: v for k, v in params.items()
                                                    if k != "gather"})))
        else:
            out.append(("wide gather", (builder, {**params, "gather": "wide"})))
    return out


def recipes_for(cases, gather: bool = False) -> list:
    """(builder, params) of the kernels `cases` ((shape, kernel_size,
    padding, stride, dilation, layout, elem); shape in the layout's order);
    `gather`: with each plan's gather_variants."""
    out = []
    for shape, k, p, s, d, layout, elem in cases:
        plan = plan_for(shape, elem, k, p, s, d, layout)
        out.append(kernel_for(plan))
        if gather:
            out += [kernel for _, kernel in gather_variants(plan)]
    return unique_recipes(out)


register_grad("unfold", unfold, unfold_tensor,
              prepared.repeated("unfold", _unfold_result))
