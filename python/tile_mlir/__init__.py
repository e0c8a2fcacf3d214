"""tile-mlir: verified bulk tensor copies (TMA) as an MLIR dialect.

Importing the package is cheap and needs neither MLIR nor the compiled
library: `tile_mlir.runtime` and `tile_mlir.emulator` run on a machine that has
only numpy and cuda-python (so do `tile_mlir.contract` and the case lists
of `tile_mlir.testing`). The builder API (`tile_mlir.builder`, re-exported
as `tile_mlir.kernel`, and `tile_mlir.tma`), the library kernels
(`tile_mlir.kernels`) and `tile_mlir.compiler` import the upstream `mlir`
bindings on first use.
"""

__version__ = "0.1.0"
