"""The layout ops on axes past the copy engine's coordinates
(tile_mlir.testing.layout_cases LONG_PERMUTES, LONG_PADS: 2-17 GB each;
seen as two axes where they split, else moved by the threads' kernels),
against torch's own op in the same run, each result compared bit for bit.
The kernel each case runs is printed. Bytes: read plus written.

    python bench/build_layout.py       # where MLIR is: .artifacts/layout/cache
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/long_axes.py
"""

from __future__ import annotations

import importlib

import torch
import torch.nn.functional as F
import triton

from tile_mlir.kernels import pad, permute
from tile_mlir.testing.layout_cases import LONG_PADS, LONG_PERMUTES

P = importlib.import_module("tile_mlir.kernels.layout.permute")
PD = importlib.import_module("tile_mlir.kernels.layout.pad")

INTS = {1: torch.uint8, 2: torch.int16}


def bench(fn) -> float:
    """Median milliseconds (device events, after warm-up)."""
    return triton.testing.do_bench(fn, warmup=3, rep=30, return_mode="median")


def row(name, kind, x, ours, theirs) -> None:
    y, want = ours(), theirs()
    torch.cuda.synchronize()
    ok = y.shape == want.shape and bool(torch.equal(y, want))
    nbytes = (x.numel() + want.numel()) * x.element_size()
    t_ours, t_torch = bench(ours), bench(theirs)
    print(f"{name:44s} {kind:6s} torch {nbytes / t_torch / 1e9:5.2f} TB/s  ours "
          f"{nbytes / t_ours / 1e9:5.2f} TB/s  ours/torch {t_torch / t_ours:5.2f}  "
          f"exact={ok}", flush=True)


def main() -> None:
    print(torch.cuda.get_device_name(), f"torch {torch.__version__}")
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    for shape, dims, elem in LONG_PERMUTES:
        x = torch.randint(0, 127, shape, dtype=INTS[elem], device="cuda", generator=gen)
        kind = P.plan_for(shape, x.stride(), dims, elem).kind
        row(f"permute {shape} by {dims}", kind, x, lambda: permute(x, dims),
            lambda: x.permute(dims).contiguous())
        del x
        torch.cuda.empty_cache()
    for shape, pad_, elem, fill in LONG_PADS:
        x = torch.randint(0, 127, shape, dtype=INTS[elem], device="cuda", generator=gen)
        value = {"zero": 0, "value": 3}[fill]
        kind = PD.plan_for(shape, x.stride(), pad_, elem, fill).kind
        row(f"F.pad {shape} by {pad_}", kind, x, lambda: pad(x, pad_, value=value),
            lambda: F.pad(x, pad_, value=value))
        del x
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
