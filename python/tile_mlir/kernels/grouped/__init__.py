"""The grouped copy: dsts[i] = srcs[i] for a group of ragged 2-D tensors in
one launch, its tensor maps derived on the device (docs/device-tensor-maps.md).

  host.py    grouped_copy() / GroupedCopy: checks, per-launch tables, launch
  kernel.py  build_grouped_copy: the kernel (imports MLIR; compiled by recipe)
"""

from .host import GroupedCopy, grouped_copy

__all__ = ["GroupedCopy", "grouped_copy"]
