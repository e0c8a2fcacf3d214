"""The GPU targets compile() builds for (MLIR-free, so the runtime and the
compile cache can name them on a machine without MLIR)."""

ARCHES = ("sm_90a", "sm_100a")
# PTX ISA 8.6: the oldest with shared::cta load destinations and sm_100a; the
# CUDA 13.0 driver and ptxas accept it.
PTX_FEATURES = "+ptx86"
