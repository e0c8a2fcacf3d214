"""Per-GPU defaults of the permute kernels, where cards rank forms differently.

The H100 and the H200 (both 132 SMs, sm_90a) order some kernel forms of the
same plan differently in the benchmark's interleaved rounds
(docs/decisions.md, "Layout: defaults by card"): on the H100 the threads'
loads lead the plain 2-byte transposes (on the H200 they were 3.5-5.1%
slower), the input's tile order leads gathered transposes (by 2%; on the
H200 the output's order led), and one CTA of four stages leads the boxes
kernel (on the H200 two of three).
A device takes the tuning measured on its product: the driver's device
name names the H100 or the H200 (a word of its own, so the GH200 is
neither); any other card, not measured, takes DEFAULT. The name, unlike a
memory property such as the bus width (reported as 6016 bits by an H200
whose stacks add to 6144), is what the measurements were made on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...runtime.driver import device_name


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
# (pattern of the driver's device name, tuning): the cards measured.
MEASURED = ((re.compile(r"\bH100\b"), FIVE_STACKS), (re.compile(r"\bH200\b"), SIX_STACKS))

_by_device: dict = {}


def for_name(name: str) -> Tuning:
    """The tuning of a card by its product name; DEFAULT for cards not measured."""
    for pattern, tuning in MEASURED:
        if pattern.search(name):
            return tuning
    return DEFAULT


def for_device(device) -> Tuning:
    """The tuning of a torch device (or device index), by its product name."""
    index = device if isinstance(device, int) else (device.index or 0)
    if index not in _by_device:
        _by_device[index] = for_name(device_name(index))
    return _by_device[index]
