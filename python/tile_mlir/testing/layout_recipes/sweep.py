"""The kernels the layout sweep (bench/layout_sweep.py) runs, as compile-cache
recipes: what permute(), pad() and unfold() run for every cell of
tile_mlir.testing.layout_sweep, on either card's tuning."""

from __future__ import annotations

from ...kernels.layout import pad as pad_op
from ...kernels.layout import permute as permute_op
from ...kernels.layout import unfold as unfold_op
from ...kernels.layout.call import unique_recipes
from ...kernels.layout.plan.common import contiguous_strides
from ...kernels.layout.plan.pad import channels_last_order, reorder_pad
from ..layout_sweep import sweep_cells


def pad_case(cell) -> tuple:
    """(shape, strides, pad, elem, fill) of the pad a cell runs: a
    channels_last input is padded in its memory order (N, H, W, C), as a
    dense tensor of that shape."""
    shape, pad_ = tuple(cell.shape), tuple(cell.args["pad"])
    if cell.channels_last:
        order = channels_last_order(len(shape))
        shape, pad_ = tuple(shape[a] for a in order), tuple(reorder_pad(pad_, order))
    return shape, contiguous_strides(shape), pad_, cell.elem, "zero"


def unfold_case(cell) -> tuple:
    """(shape, kernel_size, padding, stride, dilation, layout, elem) of a cell."""
    a = cell.args
    return (tuple(cell.shape), a["kernel_size"], a["padding"], a["stride"], a["dilation"],
            a["layout"], cell.elem)


def cache_recipes(cells=None) -> list:
    """Every kernel the sweep's cells (all of them unless given) run."""
    cells = sweep_cells() if cells is None else cells
    permutes = [(tuple(c.shape), tuple(c.args["dims"]), c.elem) for c in cells
                if c.op == "permute"]
    pads = [pad_case(c) for c in cells if c.op == "pad"]
    unfolds = [unfold_case(c) for c in cells if c.op == "unfold"]
    # The unfolds' strided-window forms too (bench/layout_sweep.py
    # --unfold-variants times them beside the default).
    return unique_recipes(permute_op.recipes_for(permutes) + pad_op.recipes_for(pads) +
                          unfold_op.recipes_for(unfolds, gather=True))
