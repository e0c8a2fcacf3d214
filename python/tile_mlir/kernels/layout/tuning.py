"""Per-GPU defaults of the permute kernels, where cards rank forms differently.

The H100 and the H200 (both 132 SMs, sm_90a) order some kernel forms of the
same plan differently in the benchmark's interleaved rounds (docs/NOTES.md,
"Defaults by memory"): on the H100 the threads' loads lead the plain 2-byte
transposes (on the H200 they were 3.5-5.1% slower), the input's tile order
leads gathered transposes (by 2%; on the H200 the output's order led), and
one CTA of four stages leads the boxes kernel (on the H200 two of three).
The two differ in their memory: five HBM3 stacks (a 5120-bit bus) against
six of HBM3e (6144 bits). So a device takes its choices by its memory bus
width: 5120 bits the H100's, anything else the H200's.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tuning:
    name: str
    thread_loads: bool          # 2-byte ldmatrix transposes: the threads load each tile
    gathered_input_order: bool  # gathered transposes: tiles in the input's order, 512 threads
    boxes: tuple                # (CTAs an SM, stages) of the permute boxes kernel


SIX_STACKS = Tuning("six-stack", thread_loads=False, gathered_input_order=False, boxes=(2, 3))
FIVE_STACKS = Tuning("five-stack", thread_loads=True, gathered_input_order=True, boxes=(1, 4))
TUNINGS = (SIX_STACKS, FIVE_STACKS)
DEFAULT = SIX_STACKS
FIVE_STACK_BUS_BITS = 5120

_by_device: dict = {}


def for_bus_width(bits: int) -> Tuning:
    return FIVE_STACKS if bits == FIVE_STACK_BUS_BITS else SIX_STACKS


def for_device(device) -> Tuning:
    """The tuning of a torch device (or device index), by its memory bus width."""
    index = device if isinstance(device, int) else (device.index or 0)
    if index not in _by_device:
        from ...runtime.driver import memory_bus_width
        _by_device[index] = for_bus_width(memory_bus_width(index))
    return _by_device[index]
