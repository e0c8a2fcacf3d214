"""Builds the bandwidth benchmark's kernels into .artifacts/bench (run here,
where MLIR is; carry the folder to the GPU machine and run bench/bandwidth.py)."""

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from copy_kernel import build_copy  # noqa: E402

from tile_mlir import compiler  # noqa: E402

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

def small_kernels(out: Path) -> None:
    """An empty kernel (raw launch cost) and the contract's example on int32
    (a TMA kernel with one tensor map) for bench/launch_overhead.py."""
    from tile_mlir import kernel as K
    from tile_mlir import tma

    @K.kernel(grid=1, block=32)
    def empty():
        pass

    @K.kernel(grid=1, block=32)
    def tma_small(A: K.Tensor((16, 16), "int32"), Out: K.Tensor((16, 16), "int32")):
        lane = K.lane_id()
        shared = K.alloc_shared((2, 8, 16), "int32", align=128)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        with K.if_(lane == 0):
            K.mbarrier_init(bar, 1)
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("both"))
        K.cta_sync()
        with K.if_(lane == 0):
            tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile."
                      "mbarrier::complete_tx::bytes", shared, A, box=(8, 16),
                      coords=(0, 0), coord_steps=((8, 0),), mbar=bar, tag="both")
        K.mbarrier_wait(bar, 0)
        K.cta_sync()
        for g, r in K.grid(2, 8):
            with K.if_(lane < 16):
                Out[g * 8 + r, lane] = shared[g, r, lane]

    compiler.compile(empty, "sm_90a").save(out / "empty")
    compiler.compile(tma_small, "sm_90a").save(out / "tma_small")


TRANSPOSE_N = 16384  # a 16384 x 16384 bf16 matrix: 512 MiB
# (method, tile, stages, out_stages, threads, grid, swizzle, group) for
# bench/transpose_kernel.py; grid 65536 = one 64x64 tile per CTA.
TRANSPOSE_VARIANTS = [
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


def transpose_kernels(out: Path) -> None:
    """The transpose benchmark's kernels (bench/transpose.py) into
    out/transpose_*, their parameters into out/transpose_index.json."""
    from transpose_kernel import build_transpose

    index = []
    for method, tile, stages, out_stages, threads, grid, swizzle, group in \
            TRANSPOSE_VARIANTS:
        name = (f"transpose_{method}_{tile[0]}x{tile[1]}_s{stages}_o{out_stages}"
                f"_t{threads}_g{grid}_sw{swizzle}{f'_grp{group}' if group > 1 else ''}")
        start = time.perf_counter()
        kernel = build_transpose(TRANSPOSE_N, TRANSPOSE_N, tile=tile, stages=stages,
                                 grid=grid, swizzle=swizzle, threads=threads,
                                 out_stages=out_stages, method=method, group=group)
        compiler.compile(kernel, "sm_90a").save(out / name)
        index.append({"name": name, "method": method, "tile": tile, "stages": stages,
                      "out_stages": out_stages, "threads": threads, "grid": grid,
                      "swizzle": swizzle, "group": group,
                      "shared_bytes": kernel.plan.shared_bytes,
                      "rows": TRANSPOSE_N, "cols": TRANSPOSE_N,
                      "compile_s": round(time.perf_counter() - start, 3)})
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
        index.append({"name": name, "box": box, "stages": stages, "grid": grid,
                      "swizzle": swizzle, "l2_promotion": l2, "evict_first": evict,
                      "store_lag": lag,
                      "rows": rows, "cols": cols,
                      "compile_s": round(time.perf_counter() - start, 3)})
    (out / "index.json").write_text(json.dumps({"rows": ROWS, "cols": COLS,
                                                "variants": index}, indent=1))
    print(f"built {len(index)} copy kernels into {out}")
    transpose_kernels(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
