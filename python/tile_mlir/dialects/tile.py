"""The `tile` dialect: generated op classes (`TmaCopyOp`)."""

from ._tile_ops_gen import *  # noqa: F401,F403
from ._tile_ops_gen import _Dialect  # noqa: F401
