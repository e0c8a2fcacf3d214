"""An mbarrier for test kernels that are built to be compiled or inspected
(PTX spelling, tensor maps, box images), never launched.

The static barrier checks reject a kernel whose load completes on an
mbarrier it never initialises ([mbarrier-uninitialized]) or never arms
with transaction bytes ([mbarrier-unarmed]): launched, it would hang. A
kernel that issues loads only to be compiled still needs a barrier set up
that way; `compile_only_barrier` gives one. It arms the barrier with a
byte count read at run time (the block index), so the byte accounting
([barrier-tx-mismatch]) does not judge it: such a kernel is not a model of
a correct phase, and a kernel meant to run arms with its loads' bytes
(`tma.tx_bytes`).
"""

from __future__ import annotations

from .. import builder as K
from ..builder.values import Expr, to_i32


def compile_only_barrier():
    """An 8-byte shared mbarrier, initialised (one arrival) and armed with a
    run-time byte count; returns its pointer (a `mbar=` operand)."""
    bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
    K.mbarrier_init(bar, 1)
    K.mbarrier_arrive_expect_tx(bar, to_i32(Expr.of(K.block_id())))
    return bar
