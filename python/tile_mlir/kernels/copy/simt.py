"""A copy without TMA: 16-byte vector loads and stores per thread (the
SIMT baseline of the bandwidth benchmark)."""

from __future__ import annotations

from ... import builder as K
from ...builder import IrOps
from ..common.params import checked_params
from .tiling import elem_bytes


@checked_params
def build_simt_copy(rows: int, cols: int, grid: int = 1024, block: int = 256,
                    unroll: int = 4, dtype: str = "bfloat16", name: str = "simt_copy",
                    layout: str = "spread") -> K.KernelDef:
    """No TMA: every thread copies 16-byte vectors with ld.global.v4 /
    st.global.v4, `unroll` independent loads before their stores;
    consecutive threads take consecutive vectors (coalesced). The tensor
    must be a whole number of sweeps (grid * block * unroll vectors).
    `layout` "spread": a thread's u-th vector of a sweep is grid * block
    vectors after its (u-1)-th (a CTA touches `unroll` far-apart places);
    "compact": block vectors after it (a CTA copies one contiguous run of
    block * unroll vectors a sweep)."""
    if layout not in ("spread", "compact"):
        raise ValueError(f"unknown layout '{layout}'")
    vec = 16 // elem_bytes(dtype)
    n = rows * cols // vec
    per_sweep = grid * block * unroll
    if cols % vec or n % per_sweep:
        raise ValueError("the tensor must be a whole number of sweeps")
    sweeps = n // per_sweep

    def body(A, B):
        vtype = K.vector_type(dtype)
        step = grid * block if layout == "spread" else block
        base = K.block_id() * (block if layout == "spread" else block * unroll) + \
            K.thread_id()
        for k in K.range_(0, sweeps):
            first = base + k * per_sweep
            spots = []
            for u in range(unroll):
                e = (first + u * step) * vec
                spots.append((IrOps.div(e, cols), IrOps.mod(e, cols)))
            values = [K.vector_load(vtype, A, spot) for spot in spots]
            for value, spot in zip(values, spots):
                K.vector_store(value, B, spot)

    tensor = K.Tensor((rows, cols), dtype)
    return K.KernelDef(body, grid=grid, block=block, params=[("A", tensor), ("B", tensor)],
                       name=name)
