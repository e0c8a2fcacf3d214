"""Warpgroups (four consecutive warps, 128 threads): where a thread is in
one, branching by warpgroup role, electing a leader, and moving registers
between warpgroups (`setmaxnreg`).

    with warp_role(0):                  # the producer warpgroup
        setmaxnreg(40, "dec")
        with if_(elect_sync()):
            ...                         # issue the copies
    with warp_role(range(1, 3)):        # two consumer warpgroups
        setmaxnreg(232, "inc")
        ...                             # wgmma

Threads are counted in the block's linear order (x fastest, then y, z), as
the hardware forms warps.
"""

from __future__ import annotations

import contextlib

import mlir.ir as ir
from mlir.dialects import arith, gpu, nvvm

from ..contract import RANGES
from ..errors import TileUsageError
from .control import if_
from .trace import emits_ir
from .values import Expr

WARPGROUP_THREADS = 128
_SETMAXNREG = RANGES["setmaxnreg"]
_ACTIONS = {"inc": nvvm.SetMaxRegisterAction.increase,
            "dec": nvvm.SetMaxRegisterAction.decrease}


@emits_ir
def linear_thread_id() -> Expr:
    """This thread's index in its block (index): x + X * (y + Y * z)."""
    tid = [Expr(gpu.thread_id(getattr(gpu.Dimension, d))) for d in "xyz"]
    dim = [Expr(gpu.block_dim(getattr(gpu.Dimension, d))) for d in "xy"]
    return tid[0] + dim[0] * (tid[1] + dim[1] * tid[2])


@emits_ir
def warpgroup_id() -> Expr:
    """This thread's warpgroup in the block (index): its linear thread id
    over 128."""
    return linear_thread_id() // WARPGROUP_THREADS


@emits_ir
def warp_in_warpgroup() -> Expr:
    """This thread's warp in its warpgroup, 0 to 3 (index)."""
    return linear_thread_id() // 32 % 4


@emits_ir
def thread_in_warpgroup() -> Expr:
    """This thread's index in its warpgroup, 0 to 127 (index)."""
    return linear_thread_id() % WARPGROUP_THREADS


def _role_condition(warpgroups) -> ir.Value:
    """i1: this thread's warpgroup is `warpgroups` (an int, a range with
    step 1, or a sequence of ints)."""
    if isinstance(warpgroups, range) and warpgroups.step == 1 and len(warpgroups):
        wg = warpgroup_id()
        return arith.andi((wg >= warpgroups.start).value, (wg < warpgroups.stop).value)
    members = [warpgroups] if isinstance(warpgroups, int) else warpgroups
    if (isinstance(members, (str, bytes)) or not hasattr(members, "__iter__")
            or not list(members)):
        raise TileUsageError("kernel-value", "warp_role takes a warpgroup index, a "
                             f"range or a sequence of them, got {warpgroups!r}")
    members = list(members)
    for m in members:
        if isinstance(m, bool) or not isinstance(m, int) or m < 0:
            raise TileUsageError("kernel-value", f"a warpgroup index is an int >= 0, "
                                 f"got {m!r} in warp_role({warpgroups!r})")
    wg = warpgroup_id()
    cond = (wg == members[0]).value
    for m in members[1:]:
        cond = arith.ori(cond, (wg == m).value)
    return cond


@emits_ir
@contextlib.contextmanager
def warp_role(warpgroups):
    """`with warp_role(0):` runs its body in the threads of warpgroup 0
    only (scf.if on warpgroup_id()); `warpgroups` is an int, a range (step
    1) or a sequence of ints. Every thread of a warpgroup takes the same
    branch, as the warpgroup's `.aligned` instructions (wgmma, setmaxnreg)
    require."""
    with if_(Expr(_role_condition(warpgroups))):
        yield


@emits_ir
def elect_sync(membermask: int = 0xFFFFFFFF) -> Expr:
    """`elect.sync`: true (an i1) in one active lane of the warp's
    `membermask` lanes, the same lane for each of them; `with
    if_(elect_sync()):` lets one thread of each warp issue."""
    if isinstance(membermask, bool) or not isinstance(membermask, int) \
            or not 0 < membermask <= 0xFFFFFFFF:
        raise TileUsageError("int-range", f"elect_sync membermask {membermask!r} is not "
                             "a non-zero 32-bit lane mask")
    i1 = ir.IntegerType.get_signless(1)
    if membermask == 0xFFFFFFFF:
        return Expr(nvvm.elect_sync(i1))
    mask = arith.constant(ir.IntegerType.get_signless(32), membermask - (1 << 32)
                          if membermask >= 1 << 31 else membermask)
    return Expr(nvvm.elect_sync(i1, membermask=mask))


@emits_ir
def setmaxnreg(count: int, action: str) -> None:
    """`setmaxnreg.{inc,dec}.sync.aligned.u32 count`: every thread of the
    warpgroup raises ("inc") or lowers ("dec") its register limit to
    `count`, a multiple of 8 from 24 to 256 ([setmaxnreg-count]). A
    producer warpgroup gives registers up so consumers can take them; the
    kernel's launch register count bounds what the block holds."""
    if action not in _ACTIONS:
        raise TileUsageError("setmaxnreg-count", f"setmaxnreg action {action!r} is not "
                             "'inc' or 'dec'")
    if (isinstance(count, bool) or not isinstance(count, int) or count % 8
            or not _SETMAXNREG.min <= count <= _SETMAXNREG.max):
        raise TileUsageError("setmaxnreg-count", f"setmaxnreg count {count!r} is not a "
                             f"multiple of 8 from {_SETMAXNREG.min} to {_SETMAXNREG.max}")
    nvvm.setmaxregister(count, _ACTIONS[action])
