"""Multi-stage pipelines: the mbarrier phase arithmetic and the dispatch of
a runtime stage index to code for a static one.

The phase arithmetic is written once, for ints and for index Exprs alike
(only `+`, `//`, `%`), so a CPU model of the mbarriers can replay a
kernel's protocol with the kernel's own functions."""

from __future__ import annotations

from typing import Callable

from .control import if_


def full_parity(j, stages: int):
    """Parity a consumer waits on for tile j's load: the (j // stages)-th
    completion of stage j % stages's "full" barrier."""
    return (j // stages) % 2


def empty_parity(j, stages: int):
    """Parity the producer waits on before loading tile j into stage
    j % stages: the release of tile j - stages, i.e. completion number
    j // stages - 1 of the stage's "empty" barrier. For the first round
    (j < stages) this is parity 1, the phase before the barrier's first,
    which try_wait.parity treats as already complete: no wait."""
    return (j // stages + 1) % 2


def on_stage(stage, stages: int, fn: Callable[[int], None]) -> None:
    """fn(s) for the static stage index s equal to the runtime `stage` (the
    TMA ops take statically placed shared buffers): one scf.if per stage."""
    for s in range(stages):
        with if_(stage == s):
            fn(s)
