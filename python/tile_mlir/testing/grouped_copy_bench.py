"""The grouped copy's benchmark data (bench/grouped_copy.py): its groups,
its variants of the bf16 kernel, and the compile-cache recipes it runs
(`tile-mlir cache populate tile_mlir.testing.grouped_copy_bench:bench_recipes`)."""

from __future__ import annotations

from ..kernels.grouped.kernel import cache_recipes, recipe_params

# The benchmark's groups (bench/grouped_copy.py): (tensors, rows, cols)
# about which the shapes vary, and the one-tensor copy of the same bytes it
# compares with (a compile-cache recipe of kernels.copy.build_copy).
BENCH_GROUPS = {"small": (256, 64, 512), "large": (256, 1024, 512)}
# The benchmark's variants of the bf16 grouped copy beside the default
# (name: box, stages, store lag, CTAs per SM): more bytes in flight per SM
# (ragged widths leave the last box of a row part empty), two CTAs an SM,
# 128-byte box rows (less of a box past a row end).
BENCH_VARIANTS = {
    "6 stages, lag 2": ((64, 128), 6, 2, 1),
    "8 stages, lag 2": ((64, 128), 8, 2, 1),
    "8 stages, lag 4": ((64, 128), 8, 4, 1),
    "2 CTAs/SM": ((64, 128), 4, 1, 2),
    "2 CTAs/SM, 6 stages": ((64, 128), 6, 2, 2),
    "box 128x64, 6 stages": ((128, 64), 6, 2, 1),
    "box 32x256, 6 stages": ((32, 256), 6, 2, 1),
}


def bench_shapes(name: str, rng) -> list:
    """The group's ragged shapes: rows within a sixteenth of the nominal
    rows (at least 16) either way, cols +-64 in multiples of 8."""
    count, rows, cols = BENCH_GROUPS[name]
    spread = max(16, rows // 16)
    r = rng.integers(rows - spread, rows + spread + 1, count)
    c = 8 * rng.integers((cols - 64) // 8, (cols + 64) // 8 + 1, count)
    return list(zip(r.tolist(), c.tolist()))


def bench_reference(name: str) -> dict:
    """build_copy's parameters for one tensor of the group's nominal bytes."""
    count, rows, cols = BENCH_GROUPS[name]
    return {"rows": count * rows, "cols": cols}


def bench_recipes() -> list:
    """The benchmark's kernels (bench/grouped_copy.py): the grouped copy and
    the one-tensor copy of each group's bytes."""
    name = "tile_mlir.kernels.grouped.kernel:build_grouped_copy"
    recipes = cache_recipes()
    for box, stages, lag, _ in BENCH_VARIANTS.values():
        entry = (name, recipe_params("bfloat16", box, stages, lag), {"debug": False})
        if entry not in recipes:  # a variant may differ only in its grid
            recipes.append(entry)
    return recipes + [("tile_mlir.kernels.copy.persistent:build_copy", bench_reference(name),
                               {"debug": False}) for name in BENCH_GROUPS]
