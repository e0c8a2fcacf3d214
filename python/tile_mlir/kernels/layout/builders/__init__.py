"""The layout kernels, traced with the builder (these modules import MLIR).
The ops name them by 'module:function' strings, so only a compile imports them."""
