"""Copy bandwidth on the GPU: our TMA copy kernels vs torch.Tensor.copy_ and a
Triton TMA copy (TensorDescriptor; persistent and not, a few block shapes),
all in one run on a 2 GiB bf16 2-D tensor. Counts bytes read + written.
Prints a table of TB/s and ratios to torch; writes JSON to --json.

Run on the GPU machine after bench/build_bench.py built .artifacts/bench.
"""

import argparse
import json
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

from tile_mlir import runtime

ROOT = Path(__file__).resolve().parents[1]


@triton.jit
def triton_copy(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    out_desc.store([m, n], in_desc.load([m, n]))


@triton.jit
def triton_copy_persistent(in_desc, out_desc, M, N, BM: tl.constexpr, BN: tl.constexpr,
                           GRID: tl.constexpr, STAGES: tl.constexpr):
    tiles_n = N // BN
    tiles = (M // BM) * tiles_n
    for t in tl.range(tl.program_id(0), tiles, GRID, num_stages=STAGES):
        m = (t // tiles_n) * BM
        n = (t % tiles_n) * BN
        out_desc.store([m, n], in_desc.load([m, n]))


HBM_PEAK_TBPS = 4.8  # H200 (HBM3e) datasheet peak: a one-direction row above it is wrong


def bench(fn, reps=20) -> float:
    """Median milliseconds (device events, after warm-up)."""
    return triton.testing.do_bench(fn, warmup=25, rep=reps * 5, return_mode="median")


def _tile_grid(t: torch.Tensor, box) -> torch.Tensor:
    """(tiles_r, tiles_c, br, bc) view of a 2-D tensor: tile t is [t // tiles_c,
    t % tiles_c] (the kernels' row-major tile order)."""
    br, bc = box
    rows, cols = t.shape
    return t.view(rows // br, br, cols // bc, bc).permute(0, 2, 1, 3)


def run_load_only(mod, variant, a):
    """Runs a load-only kernel once and checks what it wrote: per CTA the
    XOR of the bit patterns of the first / last element of each of its tiles
    (checksum) or the first / last element of its last tile (no checksum).
    Returns (ok, bound launch)."""
    import numpy as np
    grid, box = variant["grid"], variant["box"]
    tiles = _tile_grid(a, box)
    n_tiles = tiles.shape[0] * tiles.shape[1]
    first = tiles[:, :, 0, 0].reshape(-1).view(torch.int16).cpu().numpy()
    last = tiles[:, :, -1, -1].reshape(-1).view(torch.int16).cpu().numpy()
    if variant.get("checksum", True):
        pad = (-n_tiles) % grid  # zeros: XOR's identity
        expect = np.stack([np.bitwise_xor.reduce(
            np.concatenate([x, np.zeros(pad, x.dtype)]).reshape(-1, grid), axis=0)
            for x in (first, last)], axis=1)
    else:
        g = np.arange(grid)
        last_tile = g + ((n_tiles - g + grid - 1) // grid - 1) * grid
        expect = np.stack([first[last_tile], last[last_tile]], axis=1)
    c = torch.zeros(grid, 2, device=a.device, dtype=a.dtype)
    mod(a, c)
    got = c.view(torch.int16).cpu().numpy()
    ok = bool(np.array_equal(got, expect))
    if not ok:
        bad = np.nonzero((got != expect).any(axis=1))[0]
        print(f"{variant['name']}: {len(bad)} CTAs' checks differ, first {bad[:8]}")
    return ok, mod.bind(a, c)


def run_store_only(mod, variant, a, b):
    """Runs a store-only kernel once on a zeroed b and checks that b's tile t
    equals a's tile t % grid (every tile written, each from its CTA's one
    shared buffer). Returns (ok, bound launch)."""
    grid, box = variant["grid"], variant["box"]
    b.zero_()
    mod(a, b)  # synchronizes
    src, dst = _tile_grid(a, box), _tile_grid(b, box)
    tiles_c = src.shape[1]
    ok = True
    for g in range(grid):  # the tiles of CTA g against a's tile g
        want = src[g // tiles_c, g % tiles_c]
        flat = torch.arange(g, src.shape[0] * tiles_c, grid, device=a.device)
        got = dst[flat // tiles_c, flat % tiles_c]
        if not torch.equal(got, want.expand_as(got)):
            ok = False
            print(f"{variant['name']}: CTA {g}'s tiles differ from a's tile {g}")
            break
    return ok, mod.bind(a, b)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None)
    parser.add_argument("--artifacts", default=str(ROOT / ".artifacts" / "bench"))
    parser.add_argument("--only", default=None,
                        help="run only our variants whose name contains this")
    parser.add_argument("--doc", default=None,
                        help="rewrite this script's table in that document (docs/performance.md)")
    args = parser.parse_args()
    folder = Path(args.artifacts)
    index = json.loads((folder / "index.json").read_text())
    rows, cols = index["rows"], index["cols"]
    nbytes = 2 * rows * cols * 2  # read + write, bf16

    a = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    b = torch.empty_like(a)
    results = []

    def record(name, ms, ok=True, moved=nbytes):
        """`moved`: the bytes the row counts (copies: read + written)."""
        results.append({"name": name, "ms": ms, "bytes": moved,
                        "tbps": moved / ms / 1e9, "exact": ok})
        print(f"[{len(results)}] {name}: {ms:.3f} ms, {moved / ms / 1e9:.2f} TB/s, "
              f"exact={ok}", flush=True)  # progress (the table follows at the end)

    record("torch copy_", bench(lambda: b.copy_(a)))
    # One direction at a time, scaled to copy-equivalent bytes (2x).
    record("torch read only (a.sum) x2", 2 * bench(lambda: a.sum(dtype=torch.float32)))
    record("torch write only (b.fill_) x2", 2 * bench(lambda: b.fill_(1.0)))

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for bm, bn in ((64, 128), (128, 128), (128, 64), (64, 256)):
        din = TensorDescriptor.from_tensor(a, [bm, bn])
        dout = TensorDescriptor.from_tensor(b, [bm, bn])
        b.zero_()
        grid = (rows // bm, cols // bn)
        triton_copy[grid](din, dout, BM=bm, BN=bn)
        torch.cuda.synchronize()
        record(f"triton tma {bm}x{bn}", bench(lambda: triton_copy[grid](din, dout, BM=bm, BN=bn)),
               bool(torch.equal(a, b)))
        for mult, stages in ((1, 3), (2, 3), (2, 4)):
            g = sms * mult
            b.zero_()
            run = lambda: triton_copy_persistent[(g,)](din, dout, rows, cols, BM=bm, BN=bn,
                                                       GRID=g, STAGES=stages)
            run()
            torch.cuda.synchronize()
            record(f"triton tma persistent {bm}x{bn} g{g} s{stages}", bench(run),
                   bool(torch.equal(a, b)))

    variants = [v for v in index["variants"] if not args.only or args.only in v["name"]]
    for variant in variants:
        kind = variant.get("kind", "copy")
        if kind in ("load_only", "store_only"):
            continue  # below, after the copies
        mod = runtime.load(folder / variant["name"])
        va = a.view(variant["rows"], variant["cols"])
        vb = b.view(variant["rows"], variant["cols"])
        # The dynamic copies' tile counter: zero before the first launch,
        # and each launch must leave it zero for the next.
        extra = [torch.zeros(2, device=a.device, dtype=torch.int32)] \
            if kind == "dynamic" else []
        b.zero_()
        mod(va, vb, *extra)
        ok = bool(torch.equal(a, b)) and all(not e.any() for e in extra)
        launch = mod.bind(va, vb, *extra)  # checked and encoded once, like reused descriptors
        record(f"tile-mlir {variant['name']}", bench(launch), ok)
        if extra:  # after the timed launches too: every one copied and reset
            b.zero_()
            launch()
            torch.cuda.synchronize()
            if not torch.equal(a, b) or extra[0].any():
                results[-1]["exact"] = False

    directions = [v for v in variants if v.get("kind") in ("load_only", "store_only")]
    if directions:
        one_way = rows * cols * a.element_size()
        # torch's one-direction rows again, counting their own bytes only.
        record("torch read only (a.sum) 1x", bench(lambda: a.sum(dtype=torch.float32)),
               moved=one_way)
        record("torch write only (b.fill_) 1x", bench(lambda: b.fill_(1.0)), moved=one_way)
        for variant in directions:
            mod = runtime.load(folder / variant["name"])
            if variant["kind"] == "load_only":
                ok, launch = run_load_only(mod, variant, a)
            else:
                ok, launch = run_store_only(mod, variant, a, b)
            record(f"tile-mlir {variant['name']} 1x", bench(launch), ok, moved=one_way)

    torch_tbps = results[0]["tbps"]
    triton_best = max(r["tbps"] for r in results if r["name"].startswith("triton"))
    print(f"{'kernel':48s} {'ms':>8s} {'TB/s':>6s} {'vs torch':>8s} exact")
    for r in results:
        print(f"{r['name']:48s} {r['ms']:8.3f} {r['tbps']:6.2f} "
              f"{r['tbps'] / torch_tbps:8.3f} {r['exact']}")
    ours = max((r for r in results if r["name"].startswith("tile-mlir")
                and not r["name"].endswith(" 1x")), key=lambda r: r["tbps"])
    print(f"\nbest tile-mlir: {ours['name']} {ours['tbps']:.2f} TB/s = "
          f"{ours['tbps'] / torch_tbps:.3f} of torch, {ours['tbps'] / triton_best:.3f} "
          f"of Triton's best ({triton_best:.2f} TB/s)")
    for prefix, label in (("tile-mlir copy_", "single-thread TMA"),
                          ("tile-mlir ws_", "warp-specialized TMA"),
                          ("tile-mlir dynamic_", "persistent TMA, tiles claimed at run time"),
                          ("tile-mlir tmasimt_", "TMA load + st.global"),
                          ("tile-mlir simt_", "no-TMA ld/st.global.v4")):
        rows_of = [r for r in results if r["name"].startswith(prefix) and r["exact"]]
        if rows_of:
            best = max(rows_of, key=lambda r: r["tbps"])
            print(f"best exact {label}: {best['name']} {best['tbps']:.2f} TB/s = "
                  f"{best['tbps'] / torch_tbps:.3f} of torch")
    inexact = [r["name"] for r in results if not r["exact"]]
    if inexact:
        print(f"NOT EXACT: {', '.join(inexact)}")
    one_way_rows = [r for r in results if r["name"].endswith(" 1x")]
    if one_way_rows:
        print("\none direction (1x rows: TB/s of their own bytes; sanity: bytes / time)")
        for r in one_way_rows:
            rate = r["bytes"] / r["ms"] / 1e9
            flag = "  IMPLAUSIBLE: above the H200's 4.8 TB/s HBM peak" if rate > HBM_PEAK_TBPS \
                else ""
            print(f"  {r['name']:48s} {r['bytes'] / 1e9:7.3f} GB in {r['ms']:7.3f} ms = "
                  f"{rate:5.2f} TB/s  exact={r['exact']}{flag}")
        implied = {}
        for label, read_prefix, write_prefix in (
                ("torch", "torch read only", "torch write only"),
                ("TMA", "tile-mlir loadonly", "tile-mlir storeonly")):
            reads = [r["tbps"] for r in one_way_rows
                     if r["name"].startswith(read_prefix) and r["exact"]]
            writes = [r["tbps"] for r in one_way_rows
                      if r["name"].startswith(write_prefix) and r["exact"]]
            if reads and writes:
                rd, wr = max(reads), max(writes)
                # Reading N and writing N bytes at these rates, one after the other:
                implied[label] = 2 / (1 / rd + 1 / wr)
                print(f"  {label}: best read {rd:.2f}, best write {wr:.2f} TB/s; "
                      f"serialized copy would be {implied[label]:.2f} TB/s (read+write)")
        best_copy = max((r["tbps"] for r in results if r["name"].startswith("tile-mlir")
                         and not r["name"].endswith(" 1x") and r["exact"]), default=0)
        if "TMA" in implied:
            print(f"  best exact tile-mlir copy {best_copy:.2f} TB/s = "
                  f"{best_copy / implied['TMA']:.3f} of the TMA serialized figure")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if args.doc:  # bench/perf_doc.py
        import perf_doc
        perf_doc.write(args.doc, "bench/bandwidth.py", perf_doc.bandwidth_table(results),
                       torch.cuda.get_device_name())
    return 0


if __name__ == "__main__":
    sys.exit(main())
