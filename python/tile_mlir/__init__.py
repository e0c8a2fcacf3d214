"""tile-mlir: verified bulk tensor copies (TMA) as an MLIR dialect.

Importing the package is cheap and needs neither MLIR nor the compiled
library: `tile_mlir.runtime` and `tile_mlir.emulator` run on a machine that has
only numpy and cuda-python. The builder API (`tile_mlir.tma`,
`tile_mlir.kernel`) imports the upstream `mlir` bindings on first use.
"""

__version__ = "0.1.0"
