"""The tile geometry of the layout kernels without MLIR: what a tile holds,
where it lies in shared memory, which lane moves what. The builders trace
it into IR; the CPU models (layout/model.py) run it over ints."""
