"""`permute(x, dims)`: x.permute(dims).contiguous() on the copy engine.

    y = permute(x, (0, 2, 3, 1))      # NCHW -> NHWC, a new contiguous tensor

x is a CUDA torch tensor or any array exporting DLPack (the result comes
back in its library's type), of 1-, 2-, 4- or 8-byte elements and any
shape whose permutation has at most 5 axes once size-1 axes are dropped and
axes that stay adjacent merged (layout_plan.canonical_permutation). The
kernel (permute_kernels) is compiled once per element size, canonical
permutation and box or tile and taken from the compile cache; extents are
runtime values. A permuted view of a dense tensor is read in its memory
order; other strides with an innermost stride other than 1 are made
contiguous first; shapes whose strides are not multiples of 16 bytes run
on the SIMT kernel.
"""

from __future__ import annotations

from .layout_call import (PERSISTENT_GRID, as_tensor, bits_view, counter, launch,
                          persistent_grid, strided, torch_module)
from .layout_plan import contiguous_strides, normalize_dims, plan_permute

# The builders, by name: resolved (MLIR imported) only where a kernel compiles.
BUILD_PERMUTE_BOXES = "tile_mlir.kernels.permute_kernels:build_permute_boxes"
BUILD_PERMUTE_SIMT = "tile_mlir.kernels.permute_kernels:build_permute_simt"
BUILD_PERMUTE_TRANSPOSE = "tile_mlir.kernels.permute_kernels:build_permute_transpose"

SIMT_GRID = 1056  # the SIMT kernels' most CTAs (8 per SM of an H200)
SIMT_THREADS = 256


def kernel_for(plan) -> tuple:
    """(builder, params) of a plan's kernel (what the compile cache keys)."""
    p = plan.params
    if plan.kind in ("boxes", "copy"):
        return BUILD_PERMUTE_BOXES, {"elem": p["elem"], "perm": list(p["perm"]),
                                     "box": list(p["box"]), "stages": p["stages"],
                                     "grid": PERSISTENT_GRID}
    if plan.kind == "transpose":
        return BUILD_PERMUTE_TRANSPOSE, {"elem": p["elem"], "perm": list(p["perm"]),
                                         "tile": list(p["tile"]), "span": p["span"],
                                         "gather": list(p["gather"]), "stages": p["stages"],
                                         "threads": p["threads"],
                                         "grid": PERSISTENT_GRID}
    return BUILD_PERMUTE_SIMT, {"elem": p["elem"], "perm": list(p["perm"]),
                                "grid": SIMT_GRID}


def plan_for(shape, strides, dims, elem: int):
    return plan_permute(tuple(shape), tuple(strides), dims, elem, PERSISTENT_GRID)


def permute(x, dims):
    """x.permute(dims) as a new contiguous tensor (see the module docstring)."""
    t, back = as_tensor(x)
    torch = torch_module()
    dims = normalize_dims(dims, t.dim())
    out = torch.empty([t.shape[d] for d in dims], dtype=t.dtype, device=t.device)
    if out.numel() == 0:
        return back(out)
    plan = plan_for(t.shape, t.stride(), dims, t.element_size())
    if plan.in_view[1] and plan.in_view[1][-1] != 1:
        t = t.contiguous()   # an innermost stride other than 1: no map reads it
        plan = plan_for(t.shape, contiguous_strides(t.shape), dims, t.element_size())
    run(plan, t, out)
    return back(out)


def run(plan, t, out) -> None:
    """Launches `plan`'s kernel from tensor t into the contiguous `out`."""
    src = strided(bits_view(t), *plan.in_view)
    dst = bits_view(out).view(plan.out_view[0])
    builder, params = kernel_for(plan)
    if plan.kind == "simt":
        n = out.numel()
        grid = max(1, min(SIMT_GRID, -(-n // SIMT_THREADS)))
        launch(builder, params, (src, dst), grid)
        return
    launch(builder, params, (src, dst, counter(t.device)), persistent_grid(t.device))


def recipes_for(cases) -> list:
    """(builder, params) of every kernel that `cases` ((shape, dims, elem),
    dense inputs) run, without duplicates."""
    seen, out = set(), []
    for shape, dims, elem in cases:
        plan = plan_for(shape, contiguous_strides(shape), dims, elem)
        builder, params = kernel_for(plan)
        key = (builder, repr(sorted(params.items())))
        if key not in seen:
            seen.add(key)
            out.append((builder, params))
    return out


def cache_recipes() -> list:
    """Every permute kernel the GPU tests and the benchmark run
    (`tile-mlir cache populate tile_mlir.kernels.permute:cache_recipes`)."""
    from .layout_cases import PERMUTE_BENCH, permute_test_cases
    return recipes_for(list(permute_test_cases()) + [(s, d, 2) for s, d in PERMUTE_BENCH])
