"""`tile_mlir.grouped_copy`: the short import path of the grouped copy (the
host call and its kernel live in tile_mlir.kernels.grouped)."""

from .kernels.grouped.host import *  # noqa: F401,F403
from .kernels.grouped.host import __all__  # noqa: F401
