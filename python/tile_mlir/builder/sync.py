"""Barriers and fences: CTA and cluster barriers, mbarriers, proxy fences
and bulk async-groups."""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import gpu, nvvm

from ..contract import MAX_TX_BYTES
from ..errors import TileUsageError
from .trace import emits_ir
from .values import Expr, Pointer, i32_constant, to_i32

# PTX's mbarrier ranges: an arrive count is 1..2^20-1, a transaction byte
# count 0..2^20-1 (MAX_TX_BYTES). MLIR would wrap a larger int silently.
_ARRIVE_COUNTS = range(1, MAX_TX_BYTES + 1)
_TX_BYTES = range(0, MAX_TX_BYTES + 1)


def _count(value: int, accepted: range, what: str) -> int:
    """`value` if in `accepted`, else [mbarrier-count-range] naming `what`."""
    if value not in accepted:
        raise TileUsageError("mbarrier-count-range", f"{what} {value} is outside "
                             f"{accepted.start}..{accepted.stop - 1}")
    return value


def _barrier(bar) -> ir.Value:
    """An mbarrier operand: a shared Pointer (`buffer.ptr_to([i])`)."""
    if not isinstance(bar, Pointer):
        raise TileUsageError("kernel-value", "an mbarrier is a shared pointer "
                             f"(buffer.ptr_to([i])), got {bar!r}")
    return bar.value


@emits_ir
def cta_sync() -> None:
    """`bar.sync 0`: every thread of the CTA waits here (`__syncthreads()`).
    Orders shared-memory accesses between threads; it does not wait for
    TMA copies (an mbarrier does, for loads; `bulk_wait_group`, for stores)."""
    gpu.barrier()


@emits_ir
def cluster_sync() -> None:
    """All threads of the cluster: barrier.cluster.arrive + wait."""
    nvvm.ClusterArriveOp()
    nvvm.ClusterWaitOp()


@emits_ir
def fence_mbarrier_init_cluster() -> None:
    """Publishes mbarrier initialisation to the cluster (before multicast)."""
    nvvm.FenceMbarrierInitOp()


@emits_ir
def fence_proxy_async_shared_cta() -> None:
    """Makes generic-proxy shared writes visible to the copy engine."""
    nvvm.FenceProxyOp(ir.Attribute.parse("#nvvm.proxy_kind<async.shared>"),
                      space=ir.Attribute.parse("#nvvm.shared_space<cta>"))


@emits_ir
def mbarrier_init(bar: Pointer, count: int) -> None:
    """`mbarrier.init`, then `fence.proxy.async.shared::cta`: the copy engine
    (the async proxy) completes transactions on the barrier, so the
    initialisation is made visible to it before any copy can name it. (It
    also orders the init before the same thread's arrival for
    compute-sanitizer's racecheck, which otherwise reports the pair.)"""
    nvvm.MBarrierInitOp(_barrier(bar), Expr.of(count) if not isinstance(count, int)
                        else i32_constant(_count(count, _ARRIVE_COUNTS,
                                                 "mbarrier_init count")))
    fence_proxy_async_shared_cta()


@emits_ir
def mbarrier_arrive(bar: Pointer) -> None:
    """A plain arrive (count 1, release.cta) on a shared mbarrier."""
    nvvm.MBarrierArriveOp(None, _barrier(bar))


@emits_ir
def mbarrier_arrive_expect_tx(bar: Pointer, tx_bytes) -> ir.Value:
    """Arrive with expected transaction bytes; returns the byte-count value
    (a constant op when `tx_bytes` is an int, so `set_tx_bytes` can fix it
    once the copies it accounts for are built)."""
    tx = (i32_constant(_count(tx_bytes, _TX_BYTES, "mbarrier_arrive_expect_tx bytes"))
          if isinstance(tx_bytes, int) else Expr.of(tx_bytes))
    nvvm.MBarrierArriveExpectTxOp(None, _barrier(bar), tx)
    return tx


def set_tx_bytes(tx: ir.Value, nbytes: int) -> None:
    """Sets the constant made by `mbarrier_arrive_expect_tx(bar, 0)`."""
    if not isinstance(nbytes, int):
        raise TileUsageError("kernel-value", f"set_tx_bytes takes an int, got {nbytes!r}")
    tx.owner.attributes["value"] = ir.IntegerAttr.get(
        ir.IntegerType.get_signless(32), _count(nbytes, _TX_BYTES, "set_tx_bytes bytes"))


@emits_ir
def mbarrier_wait(bar: Pointer, phase) -> None:
    """try_wait.parity on `phase` (an int or an index/i32 value) until the
    phase completes."""
    parity = (i32_constant(phase, "mbarrier_wait phase") if isinstance(phase, int)
              else to_i32(Expr.of(phase)))
    nvvm.MBarrierTryWaitParityOp(_barrier(bar), parity, i32_constant(0x989680))


@emits_ir
def bulk_commit_group() -> None:
    """`cp.async.bulk.commit_group`: closes a bulk async-group holding every
    TMA store and reduction (shared to global) this thread has issued since
    its last commit (TMA loads complete on their mbarrier instead). Issue it
    from the thread that issued the stores, then wait with `bulk_wait_group`."""
    nvvm.CpAsyncBulkCommitGroupOp()


@emits_ir
def bulk_wait_group(n: int = 0, read: bool = False) -> None:
    """`cp.async.bulk.wait_group[.read] n`: waits until at most `n` of this
    thread's most recent committed bulk async-groups are still pending.

    `read=True` waits only until those copies have read their shared source,
    so the buffer can be written again (the pipelined form: `n` = stores
    left in flight). `read=False` waits until their global writes are
    complete. A CTA must not exit while a store still reads its shared
    memory: end with `bulk_wait_group(0)` (or `(0, read=True)`)."""
    if not isinstance(n, int):
        raise TileUsageError("kernel-value", f"bulk_wait_group n is an int, got {n!r}")
    if not 0 <= n < (1 << 31):
        raise TileUsageError("int-range", f"bulk_wait_group n {n} is outside "
                             f"0..{(1 << 31) - 1}")
    nvvm.CpAsyncBulkWaitGroupOp(n, read=read or None)
