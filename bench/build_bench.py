"""Builds the bandwidth benchmark's kernels into .artifacts/bench (run here,
where MLIR is; carry the folder to the GPU machine and run bench/bandwidth.py)."""

import json
import runpy
import sys
import time
from pathlib import Path

from tile_mlir import compiler
from tile_mlir.kernels import (build_copy, build_copy_dynamic, build_copy_one_tile,
                               build_copy_tma_simt, build_copy_ws, build_empty,
                               build_load_only, build_simt_copy, build_store_only,
                               build_transpose, build_transpose_dynamic,
                               build_transpose_one_tile, build_two_box_load)
from tile_mlir.testing.racecheck import build as build_racecheck

ROOT = Path(__file__).resolve().parents[1]

ROWS = COLS = 32768  # 2 GiB of bf16
# (box, stages, grid, swizzle, l2_promotion, evict_first, view_cols, store_lag): view_cols
# re-views the same contiguous 2 GiB as (ROWS * COLS / view_cols, view_cols),
# so that one box covers whole contiguous rows.
VARIANTS = [
    ((64, 128), 4, 132, 0, 0, False, None, 1), ((64, 128), 4, 264, 0, 0, False, None, 1),
    ((64, 128), 3, 396, 0, 0, False, None, 1), ((128, 128), 3, 132, 0, 0, False, None, 1),
    ((32, 256), 4, 264, 0, 0, False, None, 1), ((128, 64), 4, 264, 3, 0, False, None, 1),
    ((64, 128), 4, 132, 0, 3, False, None, 1), ((64, 128), 4, 132, 0, 2, True, None, 1),
    ((64, 256), 4, 132, 0, 0, False, 256, 1), ((64, 256), 3, 264, 0, 3, False, 256, 1),
    # More stores in flight (store_lag) and bigger boxes.
    ((64, 128), 6, 132, 0, 0, False, None, 2), ((64, 128), 8, 132, 0, 0, False, None, 3),
    ((64, 128), 8, 132, 0, 0, False, None, 5), ((128, 128), 6, 132, 0, 0, False, None, 3),
    ((256, 128), 3, 132, 0, 0, False, None, 2), ((32, 128), 12, 132, 0, 0, False, None, 6),
]

# Warp-specialized copy (tile_mlir.kernels.build_copy_ws: producer warp, consumer
# warp, full/empty mbarriers), (box, stages, grid, store_lag). Grid 264 runs two
# CTAs per SM, so those keep a CTA's shared memory under half the SM's 228 KB
# (128x128 and 64x256 boxes: 3 stages of 32 KB).
WS_VARIANTS = [
    ((64, 128), 4, 132, 1), ((64, 128), 4, 132, 2), ((64, 128), 6, 132, 2),
    ((64, 128), 8, 132, 1), ((64, 128), 8, 132, 3),
    ((128, 128), 4, 132, 1), ((128, 128), 6, 132, 2),
    ((64, 256), 4, 132, 1), ((64, 256), 6, 132, 2),
    ((64, 128), 4, 264, 1), ((64, 128), 6, 264, 2),
    ((128, 128), 3, 264, 1), ((64, 256), 3, 264, 1),
    ((64, 128), 4, 396, 1),  # three CTAs per SM
]
# One direction at a time (tile_mlir.kernels.build_load_only / build_store_only);
# their rows count only the bytes of their own direction.
# (box, stages, grid, checksum) and (box, grid, in_flight).
LOAD_ONLY_VARIANTS = [
    ((64, 128), 4, 132, True), ((64, 128), 4, 132, False), ((64, 128), 8, 132, True),
    ((128, 128), 4, 132, True), ((64, 256), 4, 132, True), ((64, 128), 4, 264, True),
]
STORE_ONLY_VARIANTS = [
    ((64, 128), 132, 4), ((64, 128), 132, 1), ((64, 128), 132, 8),
    ((128, 128), 132, 4), ((64, 256), 132, 4), ((64, 128), 264, 4),
]

# Tile order (tile_mlir.kernels.tile_order): "chunk" gives each CTA one contiguous
# run of tiles (grid 128/256 divide the 131072 tiles); round-robin over a grid
# of many waves gives each CTA a few tiles 2 GiB / (tiles per CTA) apart.
# (builder, box, stages, grid, store_lag, order).
ORDER_VARIANTS = [
    ("copy", (64, 128), 4, 128, 1, "chunk"), ("copy", (64, 128), 4, 256, 1, "chunk"),
    ("copy", (64, 128), 8, 128, 3, "chunk"), ("copy", (128, 128), 4, 128, 1, "chunk"),
    ("copy", (64, 128), 2, 131072, 1, "round_robin"),
    ("copy", (64, 128), 2, 65536, 1, "round_robin"),
    ("copy", (64, 128), 4, 32768, 1, "round_robin"),
    ("copy", (64, 128), 2, 32768, 1, "round_robin"),
    ("copy", (64, 128), 4, 16384, 2, "round_robin"),
    ("copy", (32, 128), 4, 32768, 1, "round_robin"),
    ("ws", (64, 128), 4, 128, 1, "chunk"), ("ws", (64, 128), 6, 256, 2, "chunk"),
    ("ws", (64, 128), 4, 32768, 1, "round_robin"),
    ("copy", (128, 128), 2, 65536, 1, "round_robin"),
    ("copy", (32, 128), 2, 262144, 1, "round_robin"),
    ("ws", (64, 128), 2, 131072, 1, "round_robin"),
]
# Persistent copies that claim tiles at run time (tile_mlir.kernels.build_copy_dynamic:
# an atomic ticket per tile instead of a fixed round-robin share),
# (box, stages, grid, store_lag, swizzle). The 64-column boxes (128-byte rows,
# the transpose's box width) test what a narrow box costs a plain copy.
DYNAMIC_VARIANTS = [
    ((64, 128), 4, 132, 1, 0), ((64, 128), 6, 132, 2, 0), ((64, 128), 4, 264, 1, 0),
    ((64, 128), 3, 396, 1, 0), ((128, 128), 4, 132, 1, 0), ((32, 128), 8, 132, 3, 0),
    ((64, 256), 3, 264, 1, 0), ((64, 128), 8, 132, 3, 0),
    ((128, 64), 4, 132, 1, 0), ((128, 64), 4, 132, 1, 3), ((64, 64), 8, 132, 3, 0),
    ((256, 64), 3, 132, 1, 3),
]
# One box per CTA, grid = number of boxes (tile_mlir.kernels.build_copy_one_tile).
ONE_TILE_BOXES = [(64, 128), (128, 128), (32, 128), (64, 256), (128, 256), (256, 128)]
# Ordinary global accesses. No TMA at all (tile_mlir.kernels.build_simt_copy:
# 16-byte ld/st.global.v4, `unroll` loads in flight per thread), (grid,
# block, unroll, layout); and TMA loads with ordinary stores
# (tile_mlir.kernels.build_copy_tma_simt: a producer lane, consumer warps moving
# the box with ld.shared.v4 / st.global.v4), (box, stages, grid, consumer_warps).
SIMT_VARIANTS = [(1024, 256, 4, "spread"), (2048, 256, 4, "spread"),
                 (4096, 512, 2, "spread"), (131072, 256, 4, "spread"),
                 (65536, 256, 8, "spread"), (262144, 256, 2, "spread"),
                 (131072, 128, 8, "spread"), (131072, 256, 4, "compact"),
                 (1024, 256, 4, "compact")]
TMA_SIMT_VARIANTS = [
    ((64, 128), 4, 132, 4), ((64, 128), 6, 132, 4), ((64, 128), 4, 132, 8),
    ((64, 128), 8, 132, 8), ((64, 128), 4, 264, 4), ((128, 128), 4, 132, 8),
]


def extra_kernels(out: Path) -> list:
    """The warp-specialized, SIMT and TMA-load/SIMT-store copies and the
    load-only / store-only kernels; returns their index entries (with a
    "kind" the benchmark dispatches on)."""
    index = []

    def save(kind, name, kernel, **params):
        start = time.perf_counter()
        artifact = compiler.compile(kernel, "sm_90a")
        artifact.save(out / name)
        (info,) = artifact.manifest["kernels"]
        index.append({"name": name, "kind": kind, "rows": ROWS, "cols": COLS,
                      "shared_bytes": info["dynamic_shared_bytes"], **params,
                      "compile_s": round(time.perf_counter() - start, 3)})

    for box, stages, grid, lag in WS_VARIANTS:
        save("ws", f"ws_{box[0]}x{box[1]}_s{stages}_g{grid}_lag{lag}",
             build_copy_ws(ROWS, COLS, box=box, stages=stages, grid=grid,
                           store_lag=lag, name="tma_copy_ws"),
             box=box, stages=stages, grid=grid, store_lag=lag)
    for builder, box, stages, grid, lag, order in ORDER_VARIANTS:
        build = build_copy if builder == "copy" else build_copy_ws
        save(builder if builder == "ws" else "copy",
             f"{builder}_{box[0]}x{box[1]}_s{stages}_g{grid}_lag{lag}_{order}",
             build(ROWS, COLS, box=box, stages=stages, grid=grid, store_lag=lag,
                   order=order, name=f"tma_{builder}"),
             box=box, stages=stages, grid=grid, store_lag=lag, order=order)
    for box, stages, grid, lag, swizzle in DYNAMIC_VARIANTS:
        save("dynamic",
             f"dynamic_{box[0]}x{box[1]}_s{stages}_g{grid}_lag{lag}_sw{swizzle}",
             build_copy_dynamic(ROWS, COLS, box=box, stages=stages, grid=grid,
                                store_lag=lag, swizzle=swizzle, name="tma_copy_dynamic"),
             box=box, stages=stages, grid=grid, store_lag=lag, swizzle=swizzle)
    for box in ONE_TILE_BOXES:
        save("copy", f"copy_one_tile_{box[0]}x{box[1]}_g{ROWS * COLS // (box[0] * box[1])}",
             build_copy_one_tile(ROWS, COLS, box=box, name="tma_copy_one_tile"), box=box,
             grid=ROWS * COLS // (box[0] * box[1]))
    for grid, block, unroll, layout in SIMT_VARIANTS:
        suffix = "" if layout == "spread" else f"_{layout}"
        save("simt", f"simt_g{grid}_b{block}_u{unroll}{suffix}",
             build_simt_copy(ROWS, COLS, grid=grid, block=block, unroll=unroll,
                             layout=layout, name="simt_copy"),
             grid=grid, block=block, unroll=unroll, layout=layout)
    for box, stages, grid, warps in TMA_SIMT_VARIANTS:
        save("tma_simt", f"tmasimt_{box[0]}x{box[1]}_s{stages}_g{grid}_w{warps}",
             build_copy_tma_simt(ROWS, COLS, box=box, stages=stages, grid=grid,
                                 consumer_warps=warps, name="tma_load_simt_store"),
             box=box, stages=stages, grid=grid, consumer_warps=warps)
    for box, stages, grid, checksum in LOAD_ONLY_VARIANTS:
        save("load_only",
             f"loadonly_{box[0]}x{box[1]}_s{stages}_g{grid}{'' if checksum else '_nosum'}",
             build_load_only(ROWS, COLS, box=box, stages=stages, grid=grid,
                             checksum=checksum, name="tma_load_only"),
             box=box, stages=stages, grid=grid, checksum=checksum)
    for box, grid, in_flight in STORE_ONLY_VARIANTS:
        save("store_only", f"storeonly_{box[0]}x{box[1]}_g{grid}_inflight{in_flight}",
             build_store_only(ROWS, COLS, box=box, grid=grid, in_flight=in_flight,
                              name="tma_store_only"),
             box=box, grid=grid, in_flight=in_flight)
    return index


def small_kernels(out: Path) -> None:
    """An empty kernel (raw launch cost) and the contract's example on int32
    (a TMA kernel with one tensor map) for bench/launch_overhead.py."""
    compiler.compile(build_empty(), "sm_90a").save(out / "empty")
    compiler.compile(build_two_box_load("int32"), "sm_90a").save(out / "tma_small")


TRANSPOSE_N = 16384  # a 16384 x 16384 bf16 matrix: 512 MiB
# (method, tile, stages, out_stages, threads, grid, swizzle, group[, order]) for
# tile_mlir.kernels.build_transpose; grid 65536 = one 64x64 tile per CTA.
TRANSPOSE_VARIANTS = [
    ("ldmatrix", (128, 128), 3, 2, 256, 132, 3, 1, "column"),
    ("ldmatrix", (128, 64), 4, 3, 128, 264, 3, 1, "column"),
    ("ldmatrix", (64, 64), 3, 3, 128, 528, 3, 1, "column"),
    ("ldmatrix", (64, 64), 3, 3, 128, 528, 3, 1),
    ("ldmatrix", (64, 64), 4, 2, 128, 528, 3, 1),
    ("ldmatrix", (64, 64), 3, 3, 128, 528, 3, 16),
    ("ldmatrix", (64, 64), 3, 3, 256, 528, 3, 16),
    ("ldmatrix", (64, 64), 6, 3, 128, 396, 3, 1),
    ("ldmatrix", (128, 64), 4, 3, 128, 264, 3, 1),
    ("ldmatrix", (64, 128), 4, 3, 128, 264, 3, 1),
    ("ldmatrix", (128, 128), 3, 2, 256, 132, 3, 1),
    ("ldmatrix", (128, 128), 3, 2, 256, 132, 3, 8),
    ("ldmatrix", (64, 64), 1, 2, 128, 65536, 3, 1),
    ("ldmatrix", (64, 64), 3, 3, 128, 528, 0, 1),   # unswizzled: bank conflicts
    ("scalar", (64, 64), 3, 3, 256, 528, 3, 1),     # one bf16 per thread and access
]


# One tile per CTA, transposed in place (tile_mlir.kernels.build_transpose_one_tile),
# (tile, threads, group, order, wide, pattern_only); grid = the tile count.
# wide: "" (64-column boxes), "in", "out" or "both" (one 3-D box per tile on
# that side: whole tile rows contiguous). pattern_only: the same TMA traffic
# without the shared-memory transpose (a diagnostic, not checked).
TRANSPOSE_ONE_TILE_VARIANTS = [
    ((64, 64), 64, 1, "row", "", False), ((64, 64), 128, 1, "row", "", False),
    ((64, 64), 128, 8, "row", "", False), ((128, 128), 128, 1, "row", "", False),
    ((128, 128), 256, 1, "row", "", False), ((64, 128), 128, 1, "row", "", False),
    ((128, 64), 128, 1, "row", "", False),
    ((128, 64), 128, 1, "row", "", True), ((128, 128), 256, 1, "row", "", True),
    ((64, 64), 128, 1, "row", "", True),
    ((64, 64), 128, 1, "column", "", False), ((64, 64), 64, 1, "column", "", False),
    ((128, 64), 128, 1, "column", "", False), ((64, 128), 128, 1, "column", "", False),
    ((128, 128), 256, 1, "column", "", False), ((64, 64), 128, 8, "column", "", False),
    ((128, 64), 128, 1, "column", "", True),
    ((128, 128), 256, 1, "column", "out", False), ((128, 128), 256, 1, "column", "in", False),
    ((128, 128), 256, 1, "column", "both", False), ((128, 64), 128, 1, "column", "out", False),
    ((256, 64), 256, 1, "column", "out", False), ((128, 128), 128, 1, "column", "both", False),
    ((128, 128), 256, 1, "column", "both", True), ((128, 128), 256, 1, "row", "both", False),
    ((128, 128), 256, 2, "column", "both", False), ((128, 128), 256, 4, "column", "both", False),
    ((128, 256), 256, 1, "column", "both", False), ((256, 128), 256, 1, "column", "both", False),
    ((128, 128), 512, 1, "column", "both", False),
    ((128, 128), 256, 1, "column", "both", False, 2),
    ((128, 128), 256, 1, "column", "both", False, 3),
    ((128, 128), 512, 1, "column", "both", False, 0, "load"),
    ((128, 128), 512, 1, "column", "both", False, 0, "store"),
    ((128, 128), 512, 1, "column", "both", False, 0, "both"),
    ((128, 128), 1024, 1, "column", "both", False),
    ((128, 256), 512, 1, "column", "both", False),
    ((128, 128), 512, 2, "column", "both", False),
    ((128, 128), 512, 1, "column", "both", True),
]


# Persistent transposes that claim their tiles at run time
# (tile_mlir.kernels.build_transpose_dynamic; column order, wide boxes both
# ways), (tile, stages, store_lag, grid, threads).
TRANSPOSE_DYNAMIC_VARIANTS = [
    ((128, 128), 3, 1, 264, 256), ((128, 128), 3, 1, 264, 512), ((128, 128), 4, 2, 132, 256),
    ((128, 128), 6, 2, 132, 512), ((128, 128), 6, 3, 132, 256), ((128, 64), 4, 2, 264, 128),
    ((128, 64), 6, 3, 132, 256),
]


def transpose_kernels(out: Path) -> None:
    """The transpose benchmark's kernels (bench/transpose.py) into
    out/transpose_*, their parameters into out/transpose_index.json."""
    index = []
    for method, tile, stages, out_stages, threads, grid, swizzle, group, *rest in \
            TRANSPOSE_VARIANTS:
        order = rest[0] if rest else "row"
        name = (f"transpose_{method}_{tile[0]}x{tile[1]}_s{stages}_o{out_stages}"
                f"_t{threads}_g{grid}_sw{swizzle}{f'_grp{group}' if group > 1 else ''}"
                f"{'_col' if order == 'column' else ''}")
        start = time.perf_counter()
        kernel = build_transpose(TRANSPOSE_N, TRANSPOSE_N, tile=tile, stages=stages,
                                 grid=grid, swizzle=swizzle, threads=threads,
                                 out_stages=out_stages, method=method, group=group,
                                 order=order)
        compiler.compile(kernel, "sm_90a").save(out / name)
        index.append({"name": name, "method": method, "tile": tile, "stages": stages,
                      "out_stages": out_stages, "threads": threads, "grid": grid,
                      "swizzle": swizzle, "group": group, "order": order,
                      "shared_bytes": kernel.plan.shared_bytes,
                      "rows": TRANSPOSE_N, "cols": TRANSPOSE_N,
                      "compile_s": round(time.perf_counter() - start, 3)})
    for tile, threads, group, order, wide, pattern_only, *rest in \
            TRANSPOSE_ONE_TILE_VARIANTS:
        l2 = rest[0] if rest else 0
        evict = rest[1] if len(rest) > 1 else ""
        grid = (TRANSPOSE_N // tile[0]) * (TRANSPOSE_N // tile[1])
        name = (f"{'pattern' if pattern_only else 'transpose'}_inplace_{tile[0]}x{tile[1]}"
                f"_t{threads}_g{grid}{f'_grp{group}' if group > 1 else ''}"
                f"{'_col' if order == 'column' else ''}{f'_wide{wide}' if wide else ''}"
                f"{f'_l2{l2}' if l2 else ''}{f'_evict{evict}' if evict else ''}")
        start = time.perf_counter()
        wide_in, wide_out = wide in ("in", "both"), wide in ("out", "both")
        kernel = build_transpose_one_tile(TRANSPOSE_N, TRANSPOSE_N, tile=tile,
                                          threads=threads, group=group, order=order,
                                          wide_in=wide_in, wide_out=wide_out,
                                          l2_promotion=l2, evict_first=evict,
                                          pattern_only=pattern_only)
        w = 64  # the box width (128-byte swizzle span of bf16)
        views = {"in_shape": [TRANSPOSE_N, TRANSPOSE_N // w, w] if wide_in else None,
                 "out_shape": [TRANSPOSE_N, TRANSPOSE_N // w, w] if wide_out else None}
        compiler.compile(kernel, "sm_90a").save(out / name)
        index.append({"name": name, "method": "ldmatrix_inplace", "tile": tile,
                      "check": not pattern_only, "order": order, "l2_promotion": l2,
                      "evict_first": evict,
                      **views,
                      "stages": 1, "threads": threads, "grid": grid, "swizzle": 3,
                      "group": group, "shared_bytes": kernel.shared_bytes,
                      "rows": TRANSPOSE_N, "cols": TRANSPOSE_N,
                      "compile_s": round(time.perf_counter() - start, 3)})
    for tile, stages, lag, grid, threads in TRANSPOSE_DYNAMIC_VARIANTS:
        name = f"transpose_dynamic_{tile[0]}x{tile[1]}_s{stages}_lag{lag}_g{grid}_t{threads}"
        start = time.perf_counter()
        kernel = build_transpose_dynamic(TRANSPOSE_N, TRANSPOSE_N, tile=tile, stages=stages,
                                         store_lag=lag, grid=grid, threads=threads)
        compiler.compile(kernel, "sm_90a").save(out / name)
        w = 64
        index.append({"name": name, "method": "ldmatrix_inplace_dynamic", "tile": tile,
                      "stages": stages, "store_lag": lag, "threads": threads, "grid": grid,
                      "order": "column", "counter": True,
                      "in_shape": [TRANSPOSE_N, TRANSPOSE_N // w, w],
                      "out_shape": [TRANSPOSE_N, TRANSPOSE_N // w, w],
                      "shared_bytes": kernel.shared_bytes,
                      "rows": TRANSPOSE_N, "cols": TRANSPOSE_N,
                      "compile_s": round(time.perf_counter() - start, 3)})
    # Copies of the same matrix (no transpose) with this benchmark's tile
    # shapes: what the copy engine moves at this size when nothing is
    # transposed (checked against the input).
    for box, build in (((128, 128), lambda b: build_copy_one_tile(
            TRANSPOSE_N, TRANSPOSE_N, box=b, name="tma_copy_one_tile")),
            ((64, 128), lambda b: build_copy_one_tile(
                TRANSPOSE_N, TRANSPOSE_N, box=b, name="tma_copy_one_tile")),
            ((64, 128), lambda b: build_copy_dynamic(
                TRANSPOSE_N, TRANSPOSE_N, box=b, stages=4, grid=132, name="tma_copy_dynamic"))):
        kernel = build(box)
        kind = "dynamic" if "dynamic" in kernel.name else "one_tile"
        name = f"copy_{kind}_{box[0]}x{box[1]}"
        compiler.compile(kernel, "sm_90a").save(out / name)
        index.append({"name": name, "check": "copy", "counter": kind == "dynamic",
                      "rows": TRANSPOSE_N, "cols": TRANSPOSE_N})
    (out / "transpose_index.json").write_text(json.dumps(
        {"rows": TRANSPOSE_N, "cols": TRANSPOSE_N, "dtype": "bfloat16",
         "variants": index}, indent=1))
    print(f"built {len(index)} transpose kernels into {out}")


def main() -> int:
    out = ROOT / ".artifacts" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    small_kernels(out)
    index = []
    for box, stages, grid, swizzle, l2, evict, view_cols, lag in VARIANTS:
        rows, cols = (ROWS * COLS // view_cols, view_cols) if view_cols else (ROWS, COLS)
        name = (f"copy_{box[0]}x{box[1]}_s{stages}_g{grid}_sw{swizzle}_l2{l2}"
                f"{'_evict' if evict else ''}{f'_view{view_cols}' if view_cols else ''}"
                f"_lag{lag}")
        start = time.perf_counter()
        kernel = build_copy(rows, cols, box=box, stages=stages, grid=grid,
                            swizzle=swizzle, l2_promotion=l2, evict_first=evict,
                            store_lag=lag, name="tma_copy")
        compiler.compile(kernel, "sm_90a").save(out / name)
        index.append({"name": name, "kind": "copy", "box": box, "stages": stages,
                      "grid": grid,
                      "swizzle": swizzle, "l2_promotion": l2, "evict_first": evict,
                      "store_lag": lag,
                      "rows": rows, "cols": cols,
                      "compile_s": round(time.perf_counter() - start, 3)})
    print(f"built {len(index)} copy kernels into {out}")
    extra = extra_kernels(out)
    kinds = {}
    for v in extra:
        kinds[v["kind"]] = kinds.get(v["kind"], 0) + 1
    print("built " + ", ".join(f"{n} {k}" for k, n in kinds.items()) + " kernels")
    (out / "index.json").write_text(json.dumps({"rows": ROWS, "cols": COLS,
                                                "variants": index + extra}, indent=1))
    transpose_kernels(out)
    # The racecheck forms of the contract's example (scripts/racecheck_seed_variants.py),
    # so one build here prepares the whole GPU batch.
    racecheck = ROOT / ".artifacts" / "racecheck"
    racecheck.mkdir(parents=True, exist_ok=True)
    seed = runpy.run_path(str(ROOT / "examples" / "seed_tma_load.py"))["tma_load"]
    print(f"built {', '.join(build_racecheck(racecheck, seed))} into {racecheck}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
