"""Narrow transposes (tile_mlir.testing.layout_cases NARROW_BENCH: NCHW <->
NHWC of three channels in uint8, bf16 and float32, and (L, n) <-> (n, L)
matrices of 2-16 columns), one run: torch's x.permute(dims).contiguous(),
the fastest exact Triton kernel of bench/layout_triton.py, the threads'
kernel these shapes ran on before (simt), and the narrow kernel with its
variants (permute.variants), beside torch copy_ of the same bytes. Every
result is compared bit for bit with torch's. Bytes: read plus written.

    python bench/build_layout.py       # where MLIR is: .artifacts/layout/cache
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/narrow_permute.py
"""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path

import torch
import triton

from tile_mlir.testing.layout_cases import NARROW_BENCH

import layout_triton as T  # a sibling script (its folder is first on sys.path)

P = importlib.import_module("tile_mlir.kernels.layout.permute")
DTYPES = {1: torch.uint8, 2: torch.bfloat16, 4: torch.float32}


def bench(fn) -> float:
    """Median milliseconds (device events, after warm-up)."""
    return triton.testing.do_bench(fn, warmup=5, rep=50, return_mode="median")


def row(shape, dims, elem, no_triton: bool) -> dict:
    n = 1
    for d in shape:
        n *= d
    x = torch.randint(0, 256, (n * elem,), dtype=torch.uint8, device="cuda")
    x = x.view(DTYPES[elem]).view(shape)
    ref = x.permute(dims).contiguous()
    nbytes = 2 * x.numel() * elem
    out = torch.empty_like(ref)
    flat_in, flat_out = x.view(-1), torch.empty_like(x.view(-1))
    results = {"copy_": bench(lambda: flat_out.copy_(flat_in)),
               "torch": bench(lambda: x.permute(dims).contiguous())}
    plan = P.plan_for(x.shape, x.stride(), dims, elem)
    candidates = [(f"ours {name}", (lambda k=k: P.run(plan, x, out, k)))
                  for name, k in P.variants(plan)]
    simt = P.simt_plan(plan)
    candidates.append(("ours simt (before)", lambda: P.run(simt, x, out)))
    if not no_triton:
        try:
            candidates += T.permute_variants(x, plan.canonical, out)
        except Exception as err:   # a peer that does not take this shape: say so
            print(f"    triton: {type(err).__name__}: {str(err)[:100]}")
    for name, fn in candidates:
        try:
            out.fill_(0)
            fn()
            torch.cuda.synchronize()
            if not torch.equal(out.view(torch.uint8), ref.view(torch.uint8)):
                print(f"    {name}: NOT EXACT")
                continue
            results[name] = bench(fn)
        except Exception as err:
            print(f"    {name}: {type(err).__name__}: {str(err)[:100]}")
    tbps = {k: nbytes / ms / 1e9 for k, ms in results.items()}
    ours = max((k for k in tbps if k.startswith("ours ") and "simt" not in k), key=tbps.get)
    peers = [k for k in tbps if k.startswith("triton ")]
    triton_best = max(peers, key=tbps.get) if peers else None
    name = f"permute {tuple(shape)} by {dims} ({DTYPES[elem]})".replace("torch.", "")
    print(f"{name:60s} {plan.kind:7s} copy_ {tbps['copy_']:5.2f}  torch {tbps['torch']:5.2f}  "
          f"simt {tbps.get('ours simt (before)', float('nan')):5.2f}  "
          f"triton {tbps[triton_best] if triton_best else float('nan'):5.2f}  "
          f"ours {tbps[ours]:5.2f} TB/s  /copy_ {tbps[ours] / tbps['copy_']:5.3f}  "
          f"/torch {tbps[ours] / tbps['torch']:5.2f}  "
          f"/triton {tbps[ours] / tbps[triton_best] if triton_best else float('nan'):5.3f}  "
          f"({ours}; {triton_best})", flush=True)
    del x, ref, out, flat_in, flat_out
    torch.cuda.empty_cache()
    return {"row": name, "kind": plan.kind, "tbps": tbps, "ours": ours, "triton": triton_best}


def main(cases=NARROW_BENCH, doc: str = __doc__) -> None:
    """Times `cases` ((shape, dims, elem)), one row each."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", default=None)
    parser.add_argument("--no-triton", action="store_true")
    args = parser.parse_args()
    print(torch.cuda.get_device_name(), f"torch {torch.__version__}, triton {triton.__version__}")
    rows = [row(shape, dims, elem, args.no_triton) for shape, dims, elem in cases]
    if args.json:
        Path(args.json).write_text(json.dumps({"device": torch.cuda.get_device_name(),
                                               "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
