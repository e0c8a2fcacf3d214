"""Shared alignment through dynamic_shared views, the cluster rules of
multicast, static barrier accounting and the dynamic shared memory
declaration, from the Python builder and compile()."""

import pytest

ir = pytest.importorskip("mlir.ir")

from tile_mlir import compiler, kernel as K, tma  # noqa: E402
from tile_mlir.errors import TileVerifyError  # noqa: E402

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
MULTICAST = ("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
             "mbarrier::complete_tx::bytes.multicast::cluster")


def _kernel(body, cluster=None):
    @K.kernel(grid=cluster[0] if cluster else 1, block=32, cluster=cluster)
    def k(A: K.Tensor((64, 64), "uint16")):
        body(A)
    return k


def _bar():
    from tile_mlir.testing.barriers import compile_only_barrier
    return compile_only_barrier()  # initialised and armed


@pytest.mark.parametrize("offset, box, swizzle, message", [
    (128, (8, 64), 3, "the shared buffer starts 128 bytes into gpu.dynamic_shared_memory "
                      "(1024-byte aligned), so it is only 128-byte aligned; expected a "
                      "multiple of 1024 (the whole swizzle period)"),
    (512, (8, 64), 3, "the shared buffer starts 512 bytes into gpu.dynamic_shared_memory "
                      "(1024-byte aligned), so it is only 512-byte aligned; expected a "
                      "multiple of 1024 (the whole swizzle period)"),
    (16, (8, 16), 0, "the shared buffer starts 16 bytes into gpu.dynamic_shared_memory "
                     "(1024-byte aligned), so it is only 16-byte aligned; expected a "
                     "multiple of 128"),
])
def test_misaligned_dynamic_shared_view(offset, box, swizzle, message):
    def body(A):
        view = K.dynamic_shared(box, "uint16", offset)
        with pytest.raises(TileVerifyError) as err:
            tma.apply(LOAD, view, A, box=box, coords=(0, 0), swizzle=swizzle, mbar=_bar())
        assert err.value.rule == "shared-base-alignment"
        assert err.value.message == message
    _kernel(body).build()


def test_aligned_dynamic_shared_views_verify():
    def body(A):
        bar = _bar()
        tma.apply(LOAD, K.dynamic_shared((8, 64), "uint16", 1024), A, box=(8, 64),
                  coords=(0, 0), swizzle=3, mbar=bar)
        tma.apply(LOAD, K.dynamic_shared((8, 16), "uint16", 128), A, box=(8, 16),
                  coords=(0, 0), mbar=bar)
    _kernel(body).build()


def test_multicast_needs_a_cluster():
    def body(A):
        view = K.alloc_shared((8, 64), "uint16", align=1024)
        with pytest.raises(TileVerifyError) as err:
            tma.apply(MULTICAST, view, A, box=(8, 64), coords=(0, 0), mbar=_bar(),
                      cta_mask=0b11)
        assert err.value.rule == "multicast-cluster"
    _kernel(body).build()


def test_cta_mask_within_the_cluster():
    def body(A):
        view = K.alloc_shared((8, 64), "uint16", align=1024)
        bar = _bar()
        with pytest.raises(TileVerifyError) as err:
            tma.apply(MULTICAST, view, A, box=(8, 64), coords=(0, 0), mbar=bar,
                      cta_mask=0b100)
        assert err.value.rule == "cta-mask-cluster"
        assert "selects CTA rank 2, but the cluster has 2 CTAs" in err.value.message
        tma.apply(MULTICAST, view, A, box=(8, 64), coords=(0, 0), mbar=bar, cta_mask=0b11)
    _kernel(body, cluster=(2, 1, 1)).build()


def _expect(expected):
    def body(A):
        tid = K.thread_id()
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        shared = K.alloc_shared((64, 64), "uint16", align=1024)
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
        K.cta_sync()
        with K.if_(tid == 0):
            K.mbarrier_arrive_expect_tx(bar, expected)
            tma.apply(LOAD, shared, A, box=(64, 64), coords=(0, 0), mbar=bar)
        K.mbarrier_wait(bar, 0)
    return _kernel(body)


def test_barrier_accounting_in_compile():
    compiler.compile(_expect(8192), cubin=False)
    with pytest.raises(TileVerifyError) as err:
        compiler.compile(_expect(4096), cubin=False)
    assert err.value.rule == "barrier-tx-mismatch"
    assert err.value.message == (
        "the mbarrier at byte 0 in @__tile_smem0 expects 4096 bytes in this phase, "
        "but the copies that complete on it deliver 8192 bytes (1 copy)")


def test_dynamic_beside_static_gpu_kernel_compiles():
    """The GPU test's kernel (test/gpu/test_dynamic_shared.py): the dynamic
    window is the PTX extern array, 1024-byte aligned; the static buffers are
    separate; its barriers balance."""
    from tile_mlir.testing.gpu_kernels import build_dynamic_beside_static
    artifact = compiler.compile(build_dynamic_beside_static(), cubin=False)
    lines = [line.strip() for line in artifact.ptx.splitlines() if ".shared .align" in line]
    assert ".extern .shared .align 1024 .b8 __dynamic_shmem__0[];" in lines
    assert sum(line.startswith(".shared .align 8 .b8") for line in lines) == 2
    assert artifact.kernel()["dynamic_shared_bytes"] == 8320 + 1024


def test_static_only_kernel_has_no_dynamic_window():
    def body(A):
        tma.apply(LOAD, K.alloc_shared((8, 64), "uint16", align=1024), A, box=(8, 64),
                  coords=(0, 0), swizzle=3, mbar=_bar())
    assert "__dynamic_shmem__" not in compiler.compile(_kernel(body), cubin=False).ptx
