"""The tile geometry of the layout kernels without MLIR: what a tile holds,
where it lies in shared memory, which lane moves what. The builders trace
it into IR; the CPU models (layout/model.py) run it over ints.

addressing      the ints' ops (IntDynOps) and the address arithmetic every
                kernel shares (digits, boxed_offset, the output-order walk)
permute         the boxes and transposing permutes' tiles, the threads'
                load and store maps of a transposed tile
simt            the SIMT permutes (row copy, tiled transpose)
pad, unfold     the pad and unfold kernels' tiles (and the unfold window)
narrow, taps    the narrow transpose, build_unfold_nchw_taps
vector_tiles    the vector kernels (pad_vectors, permute_vectors)
smem_transpose  the in-place shared-memory transpose's layout and lanes"""
