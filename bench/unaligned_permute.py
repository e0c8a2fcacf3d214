"""Transposes whose strides the copy engine cannot address
(tile_mlir.testing.layout_cases SIMT_TILED_BENCH: GPT-2 embedding matrices,
matrices one element off the 16-byte alignment, NCHW -> NHWC of 7 x 7
maps), one run: torch's x.permute(dims).contiguous(), the fastest exact
Triton kernel of bench/layout_triton.py, the one-element-a-thread kernel
these shapes ran on before (simt), and the SIMT transpose through shared
memory with its variants (permute.variants), beside torch copy_ of the same
bytes. Every result is compared bit for bit with torch's. Bytes: read plus
written.

    python bench/build_layout.py       # where MLIR is: .artifacts/layout/cache
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/unaligned_permute.py
"""

from __future__ import annotations

from tile_mlir.testing.layout_cases import SIMT_TILED_BENCH


if __name__ == "__main__":
    # The narrow benchmark's rows: the same peers, checks and ratios.
    from narrow_permute import main  # a sibling script: its folder is on sys.path

    main(SIMT_TILED_BENCH, __doc__)
