"""The contract's example (examples/seed_tma_load.py) in a few barrier-setup
forms, to see which one compute-sanitizer's racecheck accepts (driver:
scripts/racecheck_seed_variants.py).

Every form inits the mbarrier (lane 0), arms it with 1024 transaction bytes
(lane 0), issues the two 8x16 uint32 TMA loads (lane 0), waits (all lanes)
and copies shared memory to Out; they differ only in what separates the
init from the arrive (see VARIANTS). Importing this module needs no MLIR
(the GPU machine reads VARIANTS); building a form does.
"""

# No `from __future__ import annotations` here: the kernel below annotates
# its parameters with a Tensor imported inside build_variant, which a
# string annotation could not reach.
from pathlib import Path

VARIANTS = {
    "a": "init; arrive.expect_tx; bar.sync (as written)",
    "b": "init; fence.mbarrier_init.release.cluster; arrive.expect_tx; bar.sync",
    "c": "init; fence.proxy.async.shared::cta; arrive.expect_tx; bar.sync",
    "d": "init; bar.sync; arrive.expect_tx",
    "e": "init; fence.mbarrier_init.release.cluster; bar.sync; arrive.expect_tx",
}
OPCODE = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"


def build_variant(form: str):
    """The seed kernel in barrier-setup form `form` (a KernelDef named
    tma_load, like the example's)."""
    from ..builder import (
        Tensor,
        alloc_shared,
        cta_sync,
        fence_mbarrier_init_cluster,
        fence_proxy_async_shared_cta,
        grid,
        if_,
        kernel,
        lane_id,
        mbarrier_arrive_expect_tx,
        mbarrier_init,
        mbarrier_wait,
    )
    from ..tma import apply

    if form not in VARIANTS:
        raise ValueError(f"unknown form '{form}' (known: {', '.join(VARIANTS)})")
    fence = {"b": fence_mbarrier_init_cluster, "c": fence_proxy_async_shared_cta,
             "e": fence_mbarrier_init_cluster}.get(form)
    arrive_after_sync = form in ("d", "e")

    @kernel(grid=1, block=32)
    def tma_load(A: Tensor((16, 16), "uint32"), Out: Tensor((16, 16), "uint32")):
        lane = lane_id()
        shared = alloc_shared((2, 8, 16), "uint32", layout="default", align=128)
        mbar = alloc_shared((1,), "uint64", layout="default", align=8)
        with if_(lane == 0):
            mbarrier_init(mbar.ptr_to([0]), 1)
            if fence is not None:
                fence()
            if not arrive_after_sync:
                mbarrier_arrive_expect_tx(mbar.ptr_to([0]), 1024)
        cta_sync()
        with if_(lane == 0):
            if arrive_after_sync:
                mbarrier_arrive_expect_tx(mbar.ptr_to([0]), 1024)
            apply(OPCODE, shared, A, box=(8, 16), coords=(0, 0),
                  coord_steps=((8, 0),), mbar=mbar.ptr_to([0]))
        mbarrier_wait(mbar.ptr_to([0]), 0)
        cta_sync()
        for g, r in grid(2, 8):
            with if_(lane < 16):
                Out[g * 8 + r, lane] = shared[g, r, lane]

    return tma_load


def build(out: Path, seed, arch: str = "sm_90a") -> list:
    """Compiles every form into out/seed_<form>; form a is `seed`, the
    example's own kernel (so 'as written' is exactly what
    examples/seed_tma_load.py builds)."""
    from ..compiler import compile

    built = []
    for form in VARIANTS:
        kernel = seed if form == "a" else build_variant(form)
        compile(kernel, arch).save(out / f"seed_{form}")
        built.append(f"seed_{form}")
    return built
