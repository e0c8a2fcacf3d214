"""The compile-cache recipes of the layout ops' GPU tests and benchmarks,
one module an op: each `cache_recipes()` lists every kernel the tests and
bench/ run for it (`tile-mlir cache populate
tile_mlir.testing.layout_recipes.permute:cache_recipes`; bench/build_layout.py
builds them all). The shapes are tile_mlir.testing.layout_cases'; the
sweep module's are the cells of tile_mlir.testing.layout_sweep
(bench/layout_sweep.py)."""
