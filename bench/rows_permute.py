"""Permutations that keep the innermost axis on strides the copy engine
cannot address (tile_mlir.testing.layout_cases SIMT_ROWS_BENCH: the issue
table's (1, 0, 2) and (0, 2, 1, 3) rows with odd rows, rows of 18 bytes,
uint8 and float32), one run: torch's x.permute(dims).contiguous(), the
fastest exact Triton kernel of bench/layout_triton.py, the
one-element-a-thread kernel these shapes ran on before (simt), and the
SIMT row copy with its variants (permute.variants), beside torch copy_ of
the same bytes. Every result is compared bit for bit with torch's. Bytes:
read plus written.

    python bench/build_layout.py       # where MLIR is: .artifacts/layout/cache
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/rows_permute.py
"""

from __future__ import annotations

from tile_mlir.testing.layout_cases import SIMT_ROWS_BENCH


if __name__ == "__main__":
    # The narrow benchmark's rows: the same peers, checks and ratios.
    from narrow_permute import main  # a sibling script: its folder is on sys.path

    main(SIMT_ROWS_BENCH, __doc__)
