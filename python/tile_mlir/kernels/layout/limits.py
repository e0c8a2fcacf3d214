"""The numbers the layout ops plan, tile and launch by: the copy engine's
limits as the contract states them, and the kernels' own fixed sizes.
Imported by plan/, geometry/ and builders/ alike, so it imports none of them."""

from __future__ import annotations

from ... import contract

# The kernels move bits: one integer type per element size (the runtime
# accepts either signedness for these signless types).
ELEM_DTYPES = contract.SIGNLESS_DTYPES
MAX_RANK = contract.MAX_RANK
BOX_MAX = contract.BOX_EXTENT_RANGE.max
STRIDE_ALIGN = contract.CHUNK_BYTES   # bytes: outer global strides, inner coords
VECTOR_BYTES = 16                 # a thread's widest load or store (v4.b32)
WARP_LANES = 32
# Span bytes -> swizzle mode, the widest first (the order plans try them in).
SWIZZLE_SPANS = dict(sorted(contract.SPAN_TO_SWIZZLE.items(), reverse=True))
SHARED_ALIGN = contract.SHARED_ALIGN   # a non-swizzled TMA box's shared address
# Tile-mode coordinates are signed 32-bit (contract.COORD_RANGE). The layout
# kernels start boxes anywhere up to an axis's end (the pad's row boxes up
# to COORD_SLACK elements past it), so on an axis longer than COORD_REACH
# some elements would have no coordinate. Such an axis is seen as two where
# it splits (split_long_axes, split_long_pad); otherwise the shape runs on
# the threads' kernels, as do launches of more than MAX_TILES tiles (the
# tile tickets are 32-bit counters).
COORD_SLACK = 4 * BOX_MAX
COORD_REACH = contract.COORD_RANGE.max + 1 - COORD_SLACK
MAX_TILES = 2 ** 31
# The vector kernels' (pad_vectors, permute_vectors) coordinates and vector
# indices are i32: each below this, with room for the last tile's threads
# past B's end.
VECTOR_INDEX_LIMIT = 2 ** 31 - 2 ** 16
VECTOR_TILE_LIMIT = 2 ** 31 - VECTOR_INDEX_LIMIT   # a vector kernel's vectors a CTA
# A launch's most CTAs along x: what the kernels that take one CTA a tile
# (their grid set at launch) declare.
MAX_GRID = contract.MAX_GRID_X
# The SIMT kernels' launch: 256 threads a CTA, at most 1056 CTAs (8 per SM
# of a 132-SM card).
SIMT_THREADS = 256
SIMT_GRID = 1056
# A stage of shared memory may hold swizzled boxes: stages start and end on
# the widest swizzle period (1024 bytes, 128B swizzle).
STAGE_ALIGN = max(s.period_bytes for s in contract.SWIZZLE_TABLE)
MAX_THREADS = contract.MAX_THREADS_PER_BLOCK
MAX_SHARED_BYTES = contract.MAX_SHARED_BYTES_PER_BLOCK
