"""The layout sweep cells a command line selects, and the kernel variants
of a cell (permute.variants, pad.variants, unfold.variants), planned from
the cell alone (its shape, input strides and element size:
tile_mlir.testing.layout_sweep.Cell, and the sweep's compile recipes'
pad_case and unfold_case). layout_sweep.py --variants times them on the
GPU; build_layout.py --variants compiles them here. Needs no GPU."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable

import row_filter as R  # a sibling script (its folder is first on sys.path)
from tile_mlir.kernels.layout import pad as D
from tile_mlir.kernels.layout import permute as P
from tile_mlir.kernels.layout import unfold as U
from tile_mlir.testing import layout_sweep as S
from tile_mlir.testing.layout_recipes.sweep import pad_case, unfold_case

ALL = "all"   # --variants: every variant a cell's plan has


def select_cells(args) -> list:
    """The sweep cells the filters of a command line (`args`: --ops,
    --classes, --sizes, --elems, and layout_sweep.py's --quick) leave;
    ValueError for an unknown name."""
    quick = getattr(args, "quick", False)
    ops = args.ops.split(",") if args.ops else None
    if ops and not set(ops) <= set(S.OPS):
        raise ValueError(f"--ops {args.ops!r}: of {', '.join(S.OPS)}")
    sizes = [S.parse_size(z) for z in args.sizes.split(",")] if args.sizes else \
        (S.QUICK_SIZES if quick else None)
    try:
        elems = [int(e) for e in args.elems.split(",")] if args.elems else \
            (S.QUICK_ELEMS if quick else None)
    except ValueError:
        raise ValueError(f"--elems {args.elems!r}: element sizes in bytes") from None
    if elems and not set(elems) <= set(S.ELEMS):
        raise ValueError(f"--elems {args.elems!r}: of {', '.join(map(str, S.ELEMS))}")
    classes = R.words(args.classes)
    cells = S.sweep_cells(ops, classes, sizes, elems)
    if not cells:
        raise ValueError("no cell matches the filters")
    return cells


@dataclass(frozen=True)
class CellVariants:
    """A cell's plan's kernels by variant name, the output's shape, whether
    the input is made contiguous first, and run(src, out, kernel): one
    call's launches of `kernel` from src into out."""
    kernels: dict
    out_shape: tuple
    dense: bool
    run: Callable


def cell_variants(cell, tuning) -> CellVariants | None:
    """The variants of the cell's plan on a card of `tuning` (permutes;
    pads and unfolds have one tuning); None for a pad of a channels_last
    input (its call pads a reordered view) or a pad that is a copy."""
    shape, strides, elem, a = tuple(cell.shape), cell.input_strides(), cell.elem, cell.args
    if cell.op == "permute":
        plan, dense = P.call_plan(shape, strides, tuple(a["dims"]), elem)
        return CellVariants(dict(P.variants(plan, tuning)), tuple(cell.out_shape), dense,
                            lambda src, y, kernel: P.run(plan, src, y, kernel))
    if cell.op == "pad":
        if cell.channels_last:
            return None
        shape, strides, pad_, elem, fill = pad_case(cell)   # as the sweep's recipes
        plan, dense = D.call_plan(shape, strides, pad_, elem, fill)
        if plan.kind in ("empty", "copy"):
            return None
        return CellVariants(dict(D.variants(plan, cell.dtype)), tuple(cell.out_shape),
                            dense, lambda src, y, kernel: D.run(plan, src, y, 0, kernel))
    shape, k, p, s, d, layout, elem = unfold_case(cell)
    plan = U.plan_for(shape, elem, k, p, s, d, layout)
    return CellVariants(dict(U.variants(plan)), tuple(plan.spec.out_shape()), True,
                        lambda src, y, kernel: U.run(plan, src, y, kernel))


def chosen(kernels: dict, names) -> list:
    """(name, kernel) of `names` the kernels have ("all": every one)."""
    wanted = list(kernels) if ALL in names else names
    return [(n, kernels[n]) for n in wanted if n in kernels]
