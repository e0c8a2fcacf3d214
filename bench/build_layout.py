"""Compiles every kernel the layout ops' GPU tests (test/gpu/test_layout*.py,
test_narrow_transpose.py, test_simt_transpose.py, test_simt_rows.py) and
benchmarks (bench/layout.py, narrow_permute.py, unaligned_permute.py,
rows_permute.py, layout_sweep.py) run into a compile cache folder, here where MLIR is: the
recipes of tile_mlir.kernels.layout.permute, pad and unfold (`cache_recipes()`),
for sm_90a. Carry the folder (default .artifacts/layout) with
build/python_packages to the GPU machine and run

    TILE_GPU_ARTIFACTS=.artifacts/layout TILE_MLIR_CACHE_DIR=.artifacts/layout/cache \\
        python3 -m pytest -q test/gpu/test_layout*.py test/gpu/test_narrow_transpose.py \\
        test/gpu/test_simt_transpose.py test/gpu/test_simt_rows.py
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/layout.py

The cache's recipe keys include a fingerprint of the package's sources, so
build after the last change to python/tile_mlir, once the CMake build has
copied it into build/python_packages."""

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPECS = tuple(f"tile_mlir.testing.layout_recipes.{op}:cache_recipes"
              for op in ("permute", "pad", "unfold", "sweep", "calls"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / ".artifacts" / "layout"))
    parser.add_argument("--variants", default="",
                        help="compile only these variants (names, or 'all') of the "
                             "sweep cells --ops, --classes, --sizes and --elems select, "
                             "on every tuning, into the cache beside what it holds (no "
                             "index.json; layout_sweep.py --variants times them)")
    parser.add_argument("--ops", default=None)
    parser.add_argument("--classes", default=None)
    parser.add_argument("--sizes", default=None)
    parser.add_argument("--elems", default=None)
    args = parser.parse_args()
    if not args.variants and any((args.ops, args.classes, args.sizes, args.elems)):
        parser.error("--ops, --classes, --sizes and --elems select the cells of --variants")
    out = Path(args.out)
    os.environ["TILE_MLIR_CACHE_DIR"] = str(out / "cache")
    from tile_mlir import cache
    out.mkdir(parents=True, exist_ok=True)
    if args.variants:
        import layout_variants as V  # a sibling script (its folder is first on sys.path)
        try:
            cells = V.select_cells(args)
        except ValueError as err:   # a filter naming nothing the sweep has
            parser.error(str(err))
        return build_variants(args, cache, V, cells)
    counts = {}
    start = time.perf_counter()
    for spec in SPECS:
        t0 = time.perf_counter()
        counts[spec] = cache.populate(spec, arches=("sm_90a",))
        print(f"{spec}: {counts[spec]} kernels in {time.perf_counter() - t0:.1f} s",
              flush=True)
    # test/gpu's conftest runs the GPU tests where its artifact folder has an
    # index.json: this one lists what the cache holds.
    (out / "index.json").write_text(json.dumps({
        "kind": "layout-cache", "cache": "cache", "recipes": counts,
        "package": cache.package_fingerprint(), "seconds": round(
            time.perf_counter() - start, 1)}, indent=1))
    print(f"{sum(counts.values())} kernels in {out / 'cache'}; "
          f"{cache.info()['bytes'] / 2**20:.1f} MiB")
    return 0


def build_variants(args, cache, V, cells) -> int:
    """Compiles the variants (layout_variants `V`) of `cells` into the
    cache, beside what it holds; a variant that does not build is named and
    skipped (the sweep records it as not compiled)."""
    from tile_mlir.kernels.layout.tuning import TUNINGS
    names = [n.strip() for n in args.variants.split(",") if n.strip()]
    kernels = []
    for cell in cells:
        for tuning in TUNINGS:
            cv = V.cell_variants(cell, tuning)
            if cv:
                kernels += [k for _, k in V.chosen(cv.kernels, names) if k not in kernels]
    start, failed = time.perf_counter(), 0
    for builder, params in kernels:
        try:
            cache.compile_recipe(builder, arch="sm_90a", **params)
        except Exception as err:   # a variant the op cannot build
            failed += 1
            print(f"not built: {getattr(builder, '__name__', builder)} {params}: "
                  f"{str(err).splitlines()[0][:200]}", flush=True)
    print(f"{len(kernels) - failed} variant kernels of {len(cells)} cells built, "
          f"{failed} not, in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
