"""`permute(x, dims)`: x.permute(dims).contiguous() on the copy engine.

    y = permute(x, (0, 2, 3, 1))      # NCHW -> NHWC, a new contiguous tensor

As with x.permute(dims).contiguous(), the identity permutation of a
contiguous torch tensor returns a view of x, not a copy (under
torch.compile and torch.export the custom op copies: custom ops return no
views of their inputs).

x is a CUDA torch tensor or any array exporting DLPack or the CUDA array
interface (the result comes back in its library's type), of 1-, 2-, 4- or 8-byte elements and any
shape. A permutation of more than 5 axes once size-1 axes are dropped and
axes that stay adjacent merged (plan.permute.canonical_permutation) runs on
the one-element threads' kernel, the rest on the copy engine's. The
kernel (builders/permute.py) is compiled once per element size, canonical
permutation and box or tile and taken from the compile cache; extents are
runtime values. A permuted view of a dense tensor is read in its memory
order; other strides with an innermost stride other than 1 are made
contiguous first. A transpose against an axis too short or unaligned for
the transposing kernel (NCHW <-> NHWC of three channels) runs on the
narrow kernel (permute_narrow); other shapes whose strides are not
multiples of 16 bytes run on the SIMT kernels: transposes through shared
memory (permute_simt_tiled), permutations that keep the innermost axis as
row copies (permute_simt_rows), the rest one element per thread.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from functools import lru_cache
from math import prod

from . import prepared, torch_ops
from .call import (
    CTA_RESERVED_BYTES,
    PERSISTENT_GRID,
    SM_SHARED_BYTES,
    aligned,
    as_tensor,
    bits_view,
    counter,
    ctas_fit,
    launch,
    persistent_grid,
    strided,
    torch_module,
    unique_recipes,
    vector_grid,
)
from .geometry.addressing import IntDynOps
from .geometry.narrow import NarrowGeometry, stage_bytes
from .geometry.simt import SimtTileGeometry
from .geometry.smem_transpose import (
    threads_error,
    transpose_method,
    transpose_tile,
    transpose_tile_extents,
)
from .grad import apply as grad_apply
from .grad import needs_grad
from .grad import register as register_grad
from .limits import (
    ELEM_DTYPES,
    MAX_SHARED_BYTES,
    MAX_THREADS,
    MAX_TILES,
    SIMT_GRID,
    SIMT_THREADS,
    STAGE_ALIGN,
)
from .plan.common import (
    box_tiles,
    contiguous_strides,
    normalize_dims,
    plan_or_dense,
    vectors_fit,
)
from .plan.permute import (
    SIMT_TILES,
    merged_out_view,
    plan_permute,
    simt_permute,
    simt_row_box,
    split_view,
)
from .tuning import DEFAULT as DEFAULT_TUNING
from .tuning import TUNINGS, for_device

# The builders, by name: resolved (MLIR imported) only where a kernel compiles.
BUILD_PERMUTE_BOXES = "tile_mlir.kernels.layout.builders.permute:build_permute_boxes"
BUILD_PERMUTE_SIMT = "tile_mlir.kernels.layout.builders.permute:build_permute_simt"
BUILD_PERMUTE_TRANSPOSE = "tile_mlir.kernels.layout.builders.permute:build_permute_transpose"
BUILD_PERMUTE_NARROW = "tile_mlir.kernels.layout.builders.permute_narrow:build_permute_narrow"
BUILD_PERMUTE_SIMT_TILED = ("tile_mlir.kernels.layout.builders.permute_simt_tiled:"
                            "build_permute_simt_tiled")
BUILD_PERMUTE_SIMT_ROWS = ("tile_mlir.kernels.layout.builders.permute_simt_rows:"
                           "build_permute_simt_rows")
BUILD_PERMUTE_VECTORS = "tile_mlir.kernels.layout.builders.permute_vectors:build_permute_vectors"



def kernel_for(plan, tuning=DEFAULT_TUNING) -> tuple:
    """(builder, params) of a plan's kernel (what the compile cache keys) on
    a device of the given tuning (layout/tuning.py)."""
    p = plan.params
    if plan.kind == "copy":
        return BUILD_PERMUTE_BOXES, {"elem": p["elem"], "perm": list(p["perm"]),
                                     "box": list(p["box"]), "stages": p["stages"],
                                     "grid": PERSISTENT_GRID}
    if plan.kind == "boxes":
        return vector_kernel(plan) or engine_boxes(plan, tuning)
    if plan.kind == "transpose":
        persistent = persistent_kernel(plan)[1]
        return BUILD_PERMUTE_TRANSPOSE, \
            one_tile_form(plan.canonical, persistent, tuning) or \
            few_tiles_form(plan.canonical, persistent) or short_side_first(plan, persistent)
    if plan.kind == "narrow":
        return BUILD_PERMUTE_NARROW, {"elem": p["elem"], "n": p["n"],
                                      "direction": p["direction"], "rows": p["rows"],
                                      "width": p["width"], "split": p["split"],
                                      "group": p["group"],
                                      **narrow_launch(p)}
    if p.get("cols"):   # the row copy: one tile a CTA
        return BUILD_PERMUTE_SIMT_ROWS, {"elem": p["elem"], "perm": list(p["perm"]),
                                         "rows": p["rows"], "cols": p["cols"],
                                         "threads": p["threads"]}
    if p.get("tile"):   # one tile a CTA (grid 0)
        return BUILD_PERMUTE_SIMT_TILED, {"elem": p["elem"], "perm": list(p["perm"]),
                                          "tile": p["tile"], "tile_l": p["tile_l"],
                                          "vec": p["vec"],
                                          "threads": p["threads"],
                                          "grid": 0}
    return BUILD_PERMUTE_SIMT, {"elem": p["elem"], "perm": list(p["perm"]),
                                "grid": SIMT_GRID}


def engine_boxes(plan, tuning=DEFAULT_TUNING) -> tuple:
    """(builder, params) of a boxes plan's copy-engine kernel: the tuning's
    CTAs an SM and stages (on the H200 two of three: (0, 2, 1, 3) 4.17 TB/s
    against 4.00 for one CTA of four)."""
    p = plan.params
    ctas, stages = tuning.boxes
    return BUILD_PERMUTE_BOXES, {"elem": p["elem"], "perm": list(p["perm"]),
                                 "box": list(p["box"]), "stages": stages,
                                 "grid": ctas * PERSISTENT_GRID}


# The vector permute's launch where it is the default: 256 threads of two
# 16-byte vectors each (within 3% of the fastest vector form in every cell
# measured).
VECTOR_DEFAULT = {"threads": 256, "slots": 2}


def vector_kernel(plan) -> tuple | None:
    """The vector permute (threads' 16-byte loads and stores, no copy
    engine) for a boxes plan whose coordinates it reaches, else None. On
    the H100 it beat the engine's boxes 1.42-1.88x at 16 MiB (each
    element size, (1, 0, 2) and (0, 2, 1, 3)) and 1.02-1.22x at 256 MiB,
    and matched them at 2 GiB (docs/decisions.md, "Layout: permute
    boxes")."""
    p = plan.params
    if plan.kind != "boxes" or not vectors_fit(plan.in_view[0], plan.out_view[0], p["elem"]):
        return None
    return BUILD_PERMUTE_VECTORS, {"elem": p["elem"], "perm": list(p["perm"]), **VECTOR_DEFAULT}


# A persistent transpose of other than 2-byte elements with at most this
# many tiles a CTA of its grid runs one tile a CTA instead: at 16 MiB (2-7
# tiles a CTA) one tile a CTA was 1.04-1.48x faster in each of 24 cells
# (1-, 4- and 8-byte elements, every transposing class) on the H100; at
# 256 MiB (63-123 a CTA) it was 0.88-1.04x, so larger calls keep the
# pipeline.
FEW_TILES_PER_CTA = 8


def few_tiles_form(canonical, params) -> dict | None:
    """The one-tile-a-CTA form (one stage, the block scheduler handing out
    the tiles) of a persistent transpose of 1-, 4- or 8-byte elements
    with few tiles for its grid (FEW_TILES_PER_CTA), else None."""
    if params["elem"] == 2:
        return None
    one = {**params, "grid": 0, "stages": 1}
    if transpose_tile_count(canonical, one) > FEW_TILES_PER_CTA * params["grid"] or \
            not threads_fit(one):
        return None
    return one


# A 1-byte transpose whose input rows are this many times shorter than the
# output's walks its tiles in the input's order (along the short rows
# first): NHWC -> NCHW (3, 508032, 144) and (0, 4, 1, 2, 3) (3, 211680,
# 432) of 256 MiB ran 1.27x and 1.24x faster on the H100; where both axes
# are long (7, 5760, 6720) the orders were within 1.5%, and where the
# output's rows are the short ones (NCHW -> NHWC) the output's order (the
# default) was 1.55x faster.
SHORT_SIDE_RATIO = 8


def short_side_first(plan, params) -> dict:
    """A persistent transpose's params, in the input's tile order where its
    elements are bytes, no axes are gathered, and the input's innermost
    axis is SHORT_SIDE_RATIO times shorter than the output's."""
    c = plan.canonical
    if params["elem"] != 1 or params["gather"] or \
            c.shape[-1] * SHORT_SIDE_RATIO > c.shape[c.perm[-1]]:
        return params
    return {**params, "order": list(range(c.rank))}


def previous_default(plan, tuning=DEFAULT_TUNING) -> tuple:
    """kernel_for's kernel before small tiles took more CTAs or fewer
    threads (one_tile_threads, wide_ctas): 512 threads for one-tile
    ldmatrix tiles where they fit, two CTAs an SM for 4- and 8-byte
    transposes. A benchmark variant ("previous default")."""
    builder, params = kernel_for(plan, tuning)
    old = dict(params)
    if plan.kind == "transpose" and params["grid"] == 0 and not params["gather"] and \
            params["elem"] == 2:
        old["threads"] = 512 if threads_fit({**params, "threads": 512}) else \
            plan.params["threads"]
    elif plan.kind == "transpose" and params["elem"] in (4, 8) and \
            params["grid"] > 2 * PERSISTENT_GRID:
        old["grid"] = 2 * PERSISTENT_GRID
    return builder, old


def persistent_kernel(plan) -> tuple:
    """(builder, params) of a transposing plan's persistent kernel: a grid
    of CTAs a few an SM, each claiming tiles at run time through a stage
    pipeline (the default of other than 2-byte elements)."""
    p = plan.params
    return BUILD_PERMUTE_TRANSPOSE, {"elem": p["elem"], "perm": list(p["perm"]),
                                     "tile": list(p["tile"]), "span": p["span"],
                                     "gather": list(p["gather"]), "stages": p["stages"],
                                     "threads": p["threads"], "wide_in": p["wide_in"],
                                     "wide_out": p["wide_out"],
                                     "grid": _transpose_grid(p)}


def one_tile_form(canonical, params, tuning=DEFAULT_TUNING) -> dict | None:
    """The one-tile-a-CTA form of a 2-byte transposing kernel (the block
    scheduler hands out the tiles; one stage), 512 threads for ldmatrix
    tiles: on the H200 as fast as the persistent kernel or up to 1% faster
    on every bf16 transposing row of the benchmark (docs/decisions.md,
    "Layout: one tile a CTA for 2-byte transposes"). Where the tuning says
    so, the threads load ldmatrix tiles, and gathered tiles are walked in
    the input's order by 512 threads. None for other element sizes (their
    small calls: few_tiles_form), where the threads cannot share the tile,
    or where the tiles pass a launch grid's reach."""
    if params["elem"] != 2:
        return None
    one = {**params, "grid": 0, "stages": 1}
    gathered = bool(params["gather"])
    if (not gathered or tuning.gathered_input_order) and \
            threads_fit({**one, "threads": 512}):
        one["threads"] = 512
    if not gathered:
        one["threads"] = one_tile_threads(one)
    if not gathered and tuning.thread_loads:
        one["thread_load"] = True
    if gathered and tuning.gathered_input_order:
        one["order"] = list(range(len(params["perm"])))
    if not threads_fit(one) or transpose_tile_count(canonical, one) >= MAX_TILES:
        return None
    return one


# One tile a CTA, an SM holds at most SM_THREADS threads of CTAs: tiles
# under 16 KB take a thread per ONE_TILE_BYTES_PER_THREAD bytes (not 512
# threads), so that its resident CTAs still hold 64 KB of tiles (a 4 KB
# tile of 256 threads: 8 CTAs, 32 KB).
ONE_TILE_BYTES_PER_THREAD = 32
ONE_TILE_MAX_THREADS = 512


def one_tile_threads(params) -> int:
    """Threads of a one-tile-a-CTA ldmatrix transpose: 512, or for tiles
    under 16 KB one per ONE_TILE_BYTES_PER_THREAD bytes (at least the
    plan's where fewer cannot share the tile)."""
    want = min(ONE_TILE_MAX_THREADS, max(32, _tile_bytes(params) // ONE_TILE_BYTES_PER_THREAD))
    if want >= params["threads"]:
        return params["threads"]
    t = want
    while t < params["threads"] and not threads_fit({**params, "threads": t}):
        t *= 2
    return t


def _tile_bytes(params) -> int:
    t_k = params["tile"][0]
    for g in params["gather"]:
        t_k *= g
    return t_k * params["tile"][1] * params["elem"]


def simt_tiles(canonical, tile: int, tile_l: int | None = None) -> int:
    """Tiles of the SIMT transpose over the canonical input: `tile` along
    the output's innermost axis by `tile_l` (`tile` when None) along the
    input's (each CTA takes one at a time)."""
    k, inner = canonical.perm[-1], canonical.rank - 1
    extent = {k: tile, inner: tile if tile_l is None else tile_l}
    return prod(-(-d // extent[a]) if a in extent else d
                for a, d in enumerate(canonical.shape))


def simt_tiled_slots(params, threads: int) -> int:
    """CTAs of a SIMT transpose of `threads` threads resident at once on
    PERSISTENT_GRID SMs (by threads and shared memory)."""
    geo = SimtTileGeometry(tuple(params["perm"]), params["elem"], params["tile"], threads,
                           params["tile_l"], params["vec"])
    shared = prod(geo.shared_shape) * params["elem"] + CTA_RESERVED_BYTES
    return PERSISTENT_GRID * max(1, min(SM_THREADS // threads, SM_SHARED_BYTES // shared))


def simt_tiled_threads(canonical, params) -> int:
    """The SIMT transpose's threads of the "one wave" variant: 256 for a
    512-thread plan whose tiles would run in two waves of 512 (the second
    part empty) and fit one of 256 (unaligned (3375, 2625) bf16: 588 tiles,
    528 resident at 512 threads, 792 at 256); no faster on the H100
    (19.4 against 18.6 us), so not the default."""
    threads = params["threads"]
    if threads != 512:
        return threads
    tiles = simt_tiles(canonical, params["tile"], params.get("tile_l"))
    wide, narrow = simt_tiled_slots(params, 512), simt_tiled_slots(params, 256)
    if wide < tiles <= min(2 * wide, narrow):
        return 256
    return threads


def simt_row_tiles(canonical, params) -> int:
    """Tiles of the SIMT row copy over the canonical input: `cols` along
    the innermost axis by `rows` along the output's next (its launch
    grid)."""
    return box_tiles(canonical.shape,
                     simt_row_box(canonical.perm, params["rows"], params["cols"]))


def narrow_launch(p) -> dict:
    """Stages, threads and grid of a narrow transpose: a thread per pixel
    group of the tile (at most 256), as many CTAs an SM (up to four) as
    their three stages of shared memory allow (on the H200, three stages
    ran the fastest or within 1.5% of the fastest variant on every row of
    bench/narrow_permute.py)."""
    threads = max(32, min(256, p["rows"]))
    stages = 3
    nbytes = stage_bytes(p["elem"], p["n"], p["rows"], p["width"], p["split"])
    ctas = max([k for k in (1, 2, 3, 4) if ctas_fit(k, stages, nbytes)] or [1])
    return {"stages": stages, "threads": threads, "grid": ctas * PERSISTENT_GRID}


def _transpose_grid(p) -> int:
    """Two CTAs an SM for the scalar (one element per access) transposes
    whose stages leave room for a second CTA: their shared-memory work, not
    the memory, sets their pace ((4, 3, 2, 1, 0) bf16 on the H200: 3.63 TB/s
    against 2.96 with one CTA); one for ldmatrix tiles (two were slower).
    1-byte tiles smaller than 16 KB take more (`byte_ctas`)."""
    scalar = p["elem"] != 2 or bool(p["gather"])
    t_k = p["tile"][0]
    for g in p["gather"]:
        t_k *= g
    tile_bytes = t_k * p["tile"][1] * p["elem"]
    stage_bytes = -(-tile_bytes // STAGE_ALIGN) * STAGE_ALIGN
    if p["elem"] == 1:
        return byte_ctas(tile_bytes, stage_bytes, p["stages"], p["threads"],
                         bool(p["gather"])) * PERSISTENT_GRID
    fits = 2 * (p["stages"] * stage_bytes + CTA_RESERVED_BYTES) <= MAX_SHARED_BYTES
    if p["elem"] in (4, 8) and fits:
        return max(2, wide_ctas(tile_bytes, stage_bytes, p["stages"], p["threads"],
                                bool(p["gather"]))) * PERSISTENT_GRID
    return 2 * PERSISTENT_GRID if scalar and fits else PERSISTENT_GRID


# A 4- or 8-byte transpose of 32 KB tiles keeps two CTAs of three stages in
# flight an SM (WIDE_STAGE_BYTES_SM); smaller tiles (short axes: 8 KB for
# (56, 5, 6, 30, 84) f32 reversed) kept two CTAs of four stages, a third of
# that, with registers, threads and shared memory for five. They take as
# many CTAs as fit within the same stage bytes.
WIDE_STAGE_BYTES_SM = 2 * 3 * 32768


def wide_ctas(tile_bytes: int, stage_bytes: int, stages: int, threads: int,
              gathered: bool = False) -> int:
    """CTAs an SM of a 4- or 8-byte persistent transpose: as many as its
    registers (byte_registers' estimate; ptxas: 42-44 for 8-16 KB tiles of
    256 threads), threads and shared memory allow, within
    WIDE_STAGE_BYTES_SM of stages; at least one."""
    registers = byte_registers(tile_bytes, threads, gathered)
    ctas = min(SM_THREADS // threads, SM_REGISTERS // (threads * registers),
               max(1, WIDE_STAGE_BYTES_SM // (stages * stage_bytes)))
    while ctas > 1 and not ctas_fit(ctas, stages, stage_bytes):
        ctas -= 1
    return max(1, ctas)


# A 1-byte transpose's thread holds its tile_bytes / threads bytes across
# the in-place transpose's barrier, one a register, and about
# BYTE_EXTRA_REGISTERS more, at least BYTE_MIN_REGISTERS (ptxas, sm_90a: 80
# registers for 16 KB tiles of 256 threads, 48 for 8 KB, 32 for 4 KB and
# less; gathered tiles up to BYTE_GATHER_REGISTERS more). Smaller tiles than
# 16 KB run more CTAs an SM, up to the stage bytes two CTAs of 16 KB tiles
# keep in flight (BYTE_STAGE_BYTES_SM), so a short call's persistent grid
# still fills the SMs (a 4 KB tile's 264 CTAs were half of what fits).
BYTE_EXTRA_REGISTERS = 16
BYTE_MIN_REGISTERS = 32
BYTE_GATHER_REGISTERS = 8
BYTE_STAGE_BYTES_SM = 2 * 4 * 16384
SM_REGISTERS = 65536
SM_THREADS = 2048


def byte_registers(tile_bytes: int, threads: int, gathered: bool) -> int:
    """The registers a thread of a 1-byte transposing kernel is allocated
    (a multiple of 8), as estimated above."""
    need = max(BYTE_MIN_REGISTERS, tile_bytes // threads + BYTE_EXTRA_REGISTERS) + \
        (BYTE_GATHER_REGISTERS if gathered else 0)
    return -(-need // 8) * 8


def byte_ctas(tile_bytes: int, stage_bytes: int, stages: int, threads: int,
              gathered: bool = False) -> int:
    """CTAs an SM of a 1-byte transposing kernel (two where two fit, as for
    the other scalar transposes): as many as its registers, threads and
    shared memory allow, within BYTE_STAGE_BYTES_SM of stages."""
    registers = byte_registers(tile_bytes, threads, gathered)
    ctas = min(SM_THREADS // threads, SM_REGISTERS // (threads * registers),
               max(1, BYTE_STAGE_BYTES_SM // (stages * stage_bytes)))
    while ctas > 2 and not ctas_fit(ctas, stages, stage_bytes):
        ctas -= 1
    return max(2, ctas) if ctas_fit(2, stages, stage_bytes) else 1


def transpose_tile_count(canonical, params) -> int:
    """Tiles of a transposing kernel over the canonical input (the launch
    grid of its one-tile-per-CTA form, grid 0): the tiled gathered axis by
    tile[0], the innermost by tile[1], the other gathered axes whole."""
    return prod(transpose_tile_counts(canonical, params))


def transpose_tile_counts(canonical, params) -> list:
    """Tiles of a transposing kernel along each canonical input axis."""
    extents = transpose_tile_extents(canonical.perm, params["tile"], params["gather"])
    return [-(-d // e) for d, e in zip(canonical.shape, extents)]


def plan_for(shape, strides, dims, elem: int, beyond: bool = False):
    return plan_permute(tuple(shape), tuple(strides), dims, elem, PERSISTENT_GRID,
                        beyond=beyond)


def permute(x, dims):
    """x.permute(dims).contiguous(): a new contiguous tensor, but for the
    identity of a contiguous tensor, a view of x (see the module
    docstring); a tensor that requires a gradient gets one (layout/grad.py)."""
    if torch_ops.is_compiling():   # Dynamo / torch.export: the custom op
        return torch_ops.traced("permute", x, dims)
    if _contiguous_identity(x, dims):
        # As .contiguous() does: a view of x, no copy (view_as: the cheapest
        # view torch makes, 0.7 us against permute's 1.0-1.5 on the build
        # machine).
        return x.view_as(x)
    out = prepared.call("permute", x, (dims,), permute_tensor)
    if out is not None:
        return out
    t, back = as_tensor(x)
    if needs_grad(t):
        return grad_apply("permute", t, dims)
    return back(prepared.call_or_plan("permute", t, (dims,), permute_tensor))  # DLPack's view


# The identity of each rank: as a tuple, as a list, and its element types
# (a bool or a float equals an int, but is no axis).
_IDENTITIES = {n: (tuple(range(n)), list(range(n)), (int,) * n) for n in range(1, 9)}
# Tuples found to be identities of ints, by id; each is held, so its id is
# its own while it is here. A tuple written in the caller's code is one
# object every call, so a repeated call skips the element check (0.1 us
# of the 0.9 the whole check took on the build machine).
_SEEN_IDENTITIES: dict = {}
_SEEN_MAX = 64


def _is_identity(dims) -> bool:
    """Whether dims is a tuple or list of the ints 0, 1, ..., n - 1."""
    if _SEEN_IDENTITIES.get(id(dims)) is dims:
        return True
    ids = _IDENTITIES.get(len(dims)) if type(dims) in (tuple, list) else None
    if ids is None or dims != ids[type(dims) is list] or tuple(map(type, dims)) != ids[2]:
        return False
    if type(dims) is tuple:
        if len(_SEEN_IDENTITIES) >= _SEEN_MAX:
            _SEEN_IDENTITIES.clear()
        _SEEN_IDENTITIES[id(dims)] = dims
    return True


def _contiguous_identity(x, dims) -> bool:
    """Whether dims is the identity (of ints) and x a contiguous CUDA torch
    tensor of 1-, 2-, 4- or 8-byte elements: then
    x.permute(dims).contiguous() is a view of x itself (torch copies
    nothing), and so is permute's result. A lazily conjugated or negated x
    stays so in the view, as in torch's. Anything else takes the planned
    path, which names the rule it breaks. (Every call pays for this check:
    about 0.1 us where dims is not an identity.)"""
    if not _is_identity(dims):
        return False
    torch = sys.modules.get("torch")   # x is no tensor where torch is not imported
    return torch is not None and type(x) is torch.Tensor and x.is_cuda and \
        x.layout is torch.strided and x.is_contiguous() and x.dim() == len(dims) and \
        x.element_size() in ELEM_DTYPES


def permute_tensor(t, dims):
    """permute() on a CUDA torch tensor, no gradient."""
    t = aligned(t)
    torch = torch_module()
    dims = normalize_dims(dims, t.dim())
    out = torch.empty([t.shape[d] for d in dims], dtype=t.dtype, device=t.device)
    if out.numel() == 0:
        return out
    plan, dense = call_plan(t.shape, t.stride(), dims, t.element_size())
    run(plan, t.contiguous() if dense else t, out)
    return out


def call_plan(shape, strides, dims, elem: int):
    """(plan, whether the input is made contiguous first): what permute()
    runs for an input of these shape and strides."""
    return plan_or_dense(lambda s, beyond=False: plan_for(shape, s, dims, elem, beyond),
                         shape, strides,
                         lambda plan: bool(plan.in_view[1] and plan.canonical.strides and
                                           plan.canonical.strides[-1] != 1))


def run(plan, t, out, kernel=None) -> None:
    """Launches `plan`'s kernel (or `kernel`: (builder, params) of a variant
    of it) from tensor t into the contiguous `out`."""
    builder, params = kernel or kernel_for(plan, for_device(t.device))
    if params.get("permuted_store"):
        src, dst = _permuted_store_views(plan, t, out)
    else:
        in_view, out_view = plan.in_view, plan.out_view
        if plan.kind == "transpose":   # a variant may move the other box form
            w = params["span"] // params["elem"]
            in_view = _wide(plan.canonical.shape, plan.canonical.strides, params["wide_in"], w)
            out_view = _wide(*merged_out_view(plan.canonical, len(params["gather"]) + 1),
                             params["wide_out"], w)
        src = strided(bits_view(t), *in_view)
        dst = bits_view(out).view(out_view[0])
    if builder == BUILD_PERMUTE_VECTORS:
        launch(builder, params, (src, dst), vector_grid(out, params))
        return
    if plan.kind == "simt":
        if params.get("cols"):
            launch(builder, params, (src, dst), simt_row_tiles(plan.canonical, params))
            return
        n = simt_tiles(plan.canonical, params["tile"], params.get("tile_l")) \
            if params.get("tile") else \
            -(-out.numel() // SIMT_THREADS)
        launch(builder, params, (src, dst), n if params.get("grid") == 0 else
               max(1, min(params["grid"], n)))
        return
    if params["grid"] == 0:   # one tile per CTA
        grid = transpose_tile_count(plan.canonical, params)
    else:
        grid = min(persistent_grid(t.device, params["grid"]),
                   _tiles(plan, params, src.shape))
    launch(builder, params, (src, dst, counter(t.device)), grid)


def _tiles(plan, params, shape) -> int:
    """The tiles of a persistent kernel's launch where the host knows them
    (a CTA without a tile only claims and leaves: a small call launches no
    more CTAs than tiles), else an unbounded count. Any bound of at least
    one is correct: the CTAs claim tiles until none is left. A transpose's
    tiles are over the canonical axes whatever view its boxes take (the
    kernel merges a wide input's split axis back)."""
    if plan.kind == "transpose":
        return max(1, transpose_tile_count(plan.canonical, params))
    if plan.kind == "narrow":
        return max(1, narrow_tile_count(plan, params))
    if builder_box(params) and len(params["box"]) == len(shape):
        return max(1, box_tiles(shape, params["box"]))
    return MAX_TILES


def narrow_tile_count(plan, params) -> int:
    """Tiles of a narrow transpose: its geometry's counts over the planar
    side's extents (the input's view to interleave, the output's to
    deinterleave), as the kernel counts them."""
    geo = NarrowGeometry.of_params(params)
    return prod(geo.counts(list(narrow_planar_shape(plan, params)), IntDynOps))


def narrow_planar_shape(plan, params) -> tuple:
    """The extents of a narrow transpose's planar side as its kernel sees
    them: the input's view (A) to interleave, the output's (B) to
    deinterleave (run() launches A and B of exactly these views)."""
    return tuple(plan.in_view[0] if params["direction"] == "interleave" else plan.out_view[0])


def builder_box(params) -> bool:
    """Whether params are a boxes kernel's whose tiles are its boxes over
    the input view (not the permuted-store form)."""
    return "box" in params and not params.get("permuted_store")


# The permuted-store boxes kernel sees an innermost axis longer than a box
# as (n / VIEW_SPLIT, VIEW_SPLIT), so one box holds whole rows.
VIEW_SPLIT = 256
PERMUTED_STORE_BOX_BYTES = 16384


def _splits_rows(c) -> bool:
    """Whether the permuted-store kernel sees c's rows as (n / VIEW_SPLIT,
    VIEW_SPLIT): rows longer than a box that split evenly, rank to spare."""
    n = c.shape[-1]
    return n > VIEW_SPLIT and n % VIEW_SPLIT == 0 and c.rank + 1 <= 5


def _permuted_store_views(plan, t, out) -> tuple:
    """(A, B) of the permuted-store boxes kernel: the input, and the output
    seen in the input's axis order (strides permuted), both split where
    _splits_rows."""
    c = plan.canonical
    out_strides = contiguous_strides(c.out_shape)
    b_strides = [0] * c.rank
    for j, a in enumerate(c.perm):
        b_strides[a] = out_strides[j]
    a_view, b_view = (c.shape, c.strides), (c.shape, tuple(b_strides))
    if _splits_rows(c):
        a_view, b_view = split_view(a_view, VIEW_SPLIT), split_view(b_view, VIEW_SPLIT)
    return strided(bits_view(t), *a_view), strided(bits_view(out), *b_view)


def permuted_store_variants(plan, params) -> list:
    """(name, params) of the permuted-store form of a boxes plan: boxes of
    16 KB over whole input rows (split by VIEW_SPLIT where longer than a
    box), the rest spread over the output's second-innermost axis k and the
    input's second-innermost axis j, so that both the loads and the stores
    move runs longer than one row. A benchmark variant: the H200 measured
    it no faster than the plain boxes (docs/decisions.md, "Layout: permute
    boxes")."""
    c = plan.canonical
    elem, r, n = params["elem"], c.rank, c.shape[-1]
    split = _splits_rows(c)
    perm = list(c.perm) + ([r] if split else [])
    shape = split_view((c.shape, c.strides), VIEW_SPLIT)[0] if split else c.shape
    base = [1] * len(perm)   # the box's whole rows
    base[-1] = min(n, VIEW_SPLIT)
    if split:
        base[-2] = min(n // VIEW_SPLIT, 256)
    row = elem * prod(base)
    k, j = c.perm[-2], r - 2
    out = []
    for sj in (1, 2, 4, 8, 16):
        sk = PERMUTED_STORE_BOX_BYTES // (row * sj)
        box = list(base)
        box[k], box[j] = sk, box[j] * sj
        if 1 <= sk <= min(256, shape[k]) and sj <= shape[j] and box[j] <= 256 and \
                elem * prod(box) <= PERMUTED_STORE_BOX_BYTES:
            out.append((f"permuted-store box {tuple(box)}",
                        {**params, "perm": perm, "box": box, "stages": 3,
                         "grid": 2 * PERSISTENT_GRID, "permuted_store": True}))
    return out


def _wide(shape, strides, wide: bool, w: int) -> tuple:
    return split_view((tuple(shape), tuple(strides)), w) if wide else \
        (tuple(shape), tuple(strides))


def variants(plan, tuning=DEFAULT_TUNING) -> list:
    """(name, (builder, params)) of the plan's kernel on a device of the
    given tuning ("default") and the variants the benchmark measures beside
    it: more threads, two CTAs per SM, deeper or shallower pipelines, tile
    walks and tile shapes, and the other tunings' defaults; each kernel
    once."""
    out = [("default", kernel_for(plan, tuning)),
           ("previous default", previous_default(plan, tuning))] + _variants(plan) + \
        [(f"{t.name} default", kernel_for(plan, t)) for t in TUNINGS if t != tuning]
    seen, unique = [], []
    for name, kernel in out:
        if kernel not in seen:
            seen.append(kernel)
            unique.append((name, kernel))
    return unique


def vector_variants(plan) -> list:
    """(name, (builder, params)) of the vector permute (permute_vectors:
    threads' 16-byte loads and stores, no copy engine) for a boxes plan
    whose coordinates it reaches: one, two vectors a thread of 256, one of
    512 (vector_kernel's, at other launches)."""
    kernel = vector_kernel(plan)
    if kernel is None:
        return []
    builder, params = kernel
    return [(f"vectors t{t} s{s}", (builder, {**params, "threads": t, "slots": s}))
            for t, s in ((256, 1), (256, 2), (512, 1))]


def _variants(plan) -> list:
    """variants() but the defaults: kernels beside the default tuning's."""
    builder, params = kernel_for(plan)
    out = []
    if plan.kind == "transpose":
        out += _transpose_variants(plan)
    elif plan.kind == "boxes":
        builder, params = engine_boxes(plan)
        out.append(("engine boxes", (builder, params)))
        out.append(("g132 s4", (builder, {**params, "grid": PERSISTENT_GRID, "stages": 4})))
        out.append(("g264 s4", (builder, {**params, "stages": 4})))
        out.append(("g396 s2", (builder, {**params, "grid": 3 * PERSISTENT_GRID,
                                          "stages": 2})))
        out.append(("s6", (builder, {**params, "grid": PERSISTENT_GRID, "stages": 6})))
        out += [(f"order {o}", (builder, {**params, "order": list(o)}))
                for o in order_variants(plan)]
        out += [(name, (builder, p)) for name, p in permuted_store_variants(plan, params)]
        out += vector_variants(plan)
    elif plan.kind == "copy":
        out.append(("g264s3", (builder, {**params, "grid": 2 * PERSISTENT_GRID,
                                         "stages": 3})))
    elif plan.kind == "narrow":
        out += narrow_variants(builder, params)
    elif plan.kind == "simt" and params.get("cols"):
        # Tiles of half and twice the elements (along the rows where the
        # row allows, else across them), and other thread counts.
        out += [(name, (builder, {**params, **form})) for name, form in row_variants(params)]
    elif plan.kind == "simt" and params.get("tile"):
        # The other tile lengths, elements on both sides (a vector plan),
        # twice the threads, and a CTA that loops over tiles (four and eight
        # a SM); the kernel the tiled one replaced,
        # one element a thread, is simt_plan's.
        out += [(f"{t}x{params['tile_l']}", (builder, {**params, "tile": t}))
                for t in SIMT_TILES if t != params["tile"]]
        if params["vec"]:
            out.append(("elements", (builder, {**params, "vec": ""})))
        threads = simt_tiled_threads(plan.canonical, params)
        if threads != params["threads"]:
            out.append(("one wave", (builder, {**params, "threads": threads})))
        other = 256 if params["threads"] == 512 else 512
        out.append((f"t{other}", (builder, {**params, "threads": other})))
        out += [(f"loop g{g}", (builder, {**params, "grid": g}))
                for g in (SIMT_GRID // 2, SIMT_GRID)]
    return out


def _transpose_variants(plan) -> list:
    """variants() of a transposing plan: the persistent kernel and its
    thread counts, grids, stages, walks and orders, and the one-tile-a-CTA
    forms."""
    builder, params = persistent_kernel(plan)
    out = [("persistent", (builder, params))]
    g = params["grid"] // PERSISTENT_GRID
    other = 256 if params["threads"] == 512 else 512
    out.append((f"t{other}", (builder, {**params, "threads": other})))
    if g == 1:
        out.append(("g264", (builder, {**params, "grid": 2 * PERSISTENT_GRID})))
    else:
        out.append(("g132", (builder, {**params, "grid": PERSISTENT_GRID})))
        if g > 2:   # two CTAs an SM: the other scalar transposes' count
            out.append(("g264", (builder, {**params, "grid": 2 * PERSISTENT_GRID})))
        out.append(("g396 s3", (builder, {**params, "grid": 3 * PERSISTENT_GRID,
                                          "stages": 3})))
    out.append(("s4 lag2", (builder, {**params, "stages": params["stages"] + 1,
                                      "store_lag": 2})))
    # One tile per CTA (several CTAs an SM, the block scheduler handing
    # out the tiles): the default of 2-byte elements (one_tile_form).
    one = {**params, "grid": 0, "stages": 1}
    out.append(("1tile", (builder, one)))
    out.append(("1tile t512", (builder, {**one, "threads": 512})))
    out.append(("1tile t512 evict-first load", (builder, {**one, "threads": 512,
                                                         "evict_first": "load"})))
    out.append(("evict-first load", (builder, {**params, "evict_first": "load"})))
    # The threads store the transposed tile, not the copy engine: level
    # with the engine's stores one tile a CTA on the H200 (the persistent
    # form measured 1.4-10% slower: thread_store_forms).
    out += [form for form in thread_store_forms(plan) if form[0].startswith("1tile")]
    # The threads load the tile too, as Triton's pointer kernels do.
    out += thread_load_forms(plan)
    c = plan.canonical
    shallow = plan_permute(c.shape, c.strides, c.perm, params["elem"], PERSISTENT_GRID,
                           deeper=False)
    if shallow.params["gather"] != plan.params["gather"]:
        # The tile of the fewest gathered axes (the earlier default).
        few = persistent_kernel(shallow)[1]
        out.append(("fewer gathered", (builder, few)))
        out.append(("fewer gathered g396 s3", (builder, {**few, "grid": 3 * PERSISTENT_GRID,
                                                         "stages": 3})))
    for base_name, base in (("", params), ("1tile t512 ", {**one, "threads": 512})):
        out += [(f"{base_name}walk {w}", (builder, {**base, "walk": list(w)}))
                for w in walk_variants(plan)]
        out += [(f"{base_name}order {o}", (builder, {**base, "order": list(o)}))
                for o in order_variants(plan)]
        # Tiles of the same bytes, longer on one side: whole 512-byte
        # input rows read (64 x 256), or 512-byte output runs (256 x 64).
        if not plan.params["gather"] and list(params["tile"]) == [128, 128]:
            out += [(f"{base_name}tile {a}x{b}", (builder, {**base, "tile": [a, b]}))
                    for a, b in ((64, 256), (256, 64)) if is_tile({**base, "tile": [a, b]})]
    return [(name, k) for name, k in out if threads_fit(k[1])]


def row_variants(params) -> list:
    """(name, params) of the row copy's benchmark variants: the tile's
    rows halved and doubled, and twice, half and a quarter of the threads
    (more elements each)."""
    rows, cols, threads = params["rows"], params["cols"], params["threads"]
    out = []
    if rows > 1:
        out.append((f"rows {rows // 2}", {"rows": rows // 2,
                                          "threads": min(threads, rows // 2 * cols)}))
    if len(params["perm"]) > 1:
        out.append((f"rows {rows * 2}", {"rows": rows * 2}))
    else:
        out.append((f"cols {cols * 2}", {"cols": cols * 2}))
    if threads * 2 <= min(MAX_THREADS, rows * cols):
        out.append((f"t{threads * 2}", {"threads": threads * 2}))
    out += [(f"t{threads // d}", {"threads": threads // d}) for d in (2, 4)
            if threads // d >= 32]
    return out


def narrow_variants(builder, params) -> list:
    """Other CTA counts and stage depths of a narrow transpose, and tiles of
    half the rows (W halved with them where they are narrower than a box)."""
    elem, n, rows = params["elem"], params["n"], params["rows"]
    out = []
    nbytes = stage_bytes(elem, n, rows, params["width"], params["split"])
    for ctas in (1, 2, 3, 4):
        for stages in (3, 4, 6):
            k = {**params, "grid": ctas * PERSISTENT_GRID, "stages": stages}
            if k != params and ctas_fit(ctas, stages, nbytes) and \
                    ctas * params["threads"] <= 2048:
                out.append((f"g{ctas * PERSISTENT_GRID} s{stages}", (builder, k)))
    half, group = rows // 2, params["group"]
    # Half the rows, where the views stay the same (the split planar rows
    # still divide the tile, the interleaved rows its groups).
    if rows >= 64 and half % group == 0 and (not params["split"] or
                                             half * 16 // elem % params["width"] == 0):
        width = params["width"] if params["split"] else min(params["width"], half * 16 // elem)
        k = {**params, "rows": half, "width": width, "threads": max(32, min(256, half))}
        out.append((f"rows {half}", (builder, k)))
    return out


def simt_plan(plan):
    """The one-element-a-thread SIMT plan of a plan's canonical permutation
    (what the narrow and the tiled SIMT transposes replaced: the
    benchmarks' comparison)."""
    simt = simt_permute(plan.canonical, plan.params["elem"])
    return replace(simt, params={"elem": simt.params["elem"], "perm": simt.params["perm"],
                                 "tile": 0})


WALK_BLOCKS = (1, 4, 16, 64)


def walk_variants(plan) -> list:
    """(axis, g) tile walks of a transposing plan for the benchmark: every
    axis with more than one tile, except the slowest such (blocking it
    changes nothing), in blocks of WALK_BLOCKS tiles fewer than its own."""
    counts = transpose_tile_counts(plan.canonical, plan.params)
    walked = [a for a in plan.params["perm"] if counts[a] > 1][1:]
    return [(a, g) for a in walked for g in WALK_BLOCKS if g < counts[a]]


def order_variants(plan) -> list:
    """Tile orders (TiledGeometry.tile_order) for the benchmark beside the
    output's: the input's own order (consecutive tiles read neighbouring
    pieces of the same input rows), and the output's with the input's
    innermost axis fastest. For a transpose, orders that only move one axis
    to the slowest place are walks (walk_variants) and are left out."""
    perm = tuple(plan.params["perm"])
    walks = plan.kind == "transpose"
    r = len(perm)
    inner_last = tuple(a for a in perm if a != r - 1) + (r - 1,)
    out = []
    for o in (tuple(range(r)), inner_last):
        walk_like = walks and any(o == (a,) + tuple(b for b in perm if b != a) for a in perm)
        if o != perm and not walk_like and o not in out:
            out.append(o)
    return out


def recipes_for(cases) -> list:
    """(builder, params) of every kernel that `cases` ((shape, dims, elem)
    of dense inputs, or (shape, strides, dims, elem)) run, and their
    previous defaults (a benchmark variant), without duplicates."""
    entries = []
    for case in cases:
        shape, dims, elem = case[0], case[-2], case[-1]
        strides = case[1] if len(case) == 4 else contiguous_strides(shape)
        plan, _ = call_plan(shape, strides, dims, elem)
        entries += [kernel_for(plan, t) for t in TUNINGS]
        entries += [previous_default(plan, t) for t in TUNINGS]
    return unique_recipes(entries)


def is_tile(params) -> bool:
    """Whether a transposing kernel's tile extents make a tile (the rules
    of smem_transpose.TileLayout, such as whole rows of the span)."""
    try:
        transpose_tile(params["perm"], params["tile"], params["span"], params["elem"],
                       params["gather"])
    except ValueError:
        return False
    return True


def threads_fit(params) -> bool:
    """Whether a transposing kernel's threads can share its tile's in-place
    transpose (smem_transpose.threads_error): the variants and forms that
    set a thread count of their own keep only such kernels."""
    return _threads_fit(tuple(params["perm"]), tuple(params["tile"]), params["span"],
                        params["elem"], tuple(params["gather"]), params["threads"],
                        params.get("method"))


@lru_cache(maxsize=None)
def _threads_fit(perm, tile, span, elem, gather, threads, method) -> bool:
    # Remembered: kernel_for asks on every permute() call (one_tile_form).
    layout = transpose_tile(perm, tile, span, elem, gather)[2]
    return threads_error(layout, threads, transpose_method(layout, method)) is None


def thread_store_forms(plan) -> list:
    """(name, kernel) of a transposing plan's kernel with the threads
    storing the tile (`thread_store`): persistent, and one tile a CTA of
    512 threads (the benchmark's variant) where its tile allows."""
    builder, params = persistent_kernel(plan)
    forms = [("thread stores", (builder, {**params, "thread_store": True})),
             ("1tile t512 thread stores", (builder, {**params, "grid": 0, "stages": 1,
                                                     "threads": 512, "thread_store": True}))]
    return [(name, k) for name, k in forms if threads_fit(k[1])]


def thread_load_forms(plan) -> list:
    """(name, kernel) of a transposing plan's kernel with the threads
    loading the tile (`thread_load`, one tile a CTA): with the copy
    engine's stores and with the threads' own, at 512 threads, and the
    latter at 256 (the CTA of Triton's fastest transposes), where the tile
    allows."""
    builder, params = persistent_kernel(plan)
    one = {**params, "grid": 0, "stages": 1, "thread_load": True}
    forms = [("1tile t512 thread loads", (builder, {**one, "threads": 512})),
             ("1tile t512 thread loads and stores", (builder, {**one, "threads": 512,
                                                               "thread_store": True})),
             ("1tile t256 thread loads and stores", (builder, {**one, "threads": 256,
                                                               "thread_store": True}))]
    return [(name, k) for name, k in forms if threads_fit(k[1])]


register_grad("permute", permute, permute_tensor, prepared.repeated("permute", permute_tensor))
