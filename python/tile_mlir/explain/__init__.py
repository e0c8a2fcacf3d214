"""`tile-mlir explain`: the shared image of one `tile.tma_copy`.

    from tile_mlir.explain import explain, render_text
    ex = explain(open("kernel.mlir").read(), op_index=0)
    print(render_text(ex))
    ex.slots[0].at(128)      # ('payload', (1, 8), 0): global (1, 8), byte 0

For every byte of every repeat slot's image: which global element (and which
byte of it) lies there, or padding, or an out-of-bounds element; the
transaction and storage byte counts; the tensor-map fields as
cuTensorMapEncodeTiled (im2col modes: cuTensorMapEncodeIm2col/Im2colWide)
gets them. im2col images add, per shared row, the pixel it holds
(`Slot.pixels`); a prefetch has no image: it shows the box it warms. The op is verified first: a rejected op
raises TileVerifyError naming the rule, and is never explained. The layout
comes from the emulator (tile_mlir.emulator), the descriptor fields from the
`tile-lower-tma` lowering of the copy.
"""

from __future__ import annotations

from .model import (OUT_OF_BOUNDS, PADDING, PAYLOAD, Explanation, Slot,
                    TensorMap)
from .source import ExplainError
from .text import render_text


def explain(op_or_text, op_index: int = 0, *, name: str | None = None,
            coords=None, rows=None, global_shape=None, offsets=None,
            context=None) -> Explanation:
    """Explains one `tile.tma_copy`.

    `op_or_text`: MLIR text (a module, a `// -----`-split file, or op lines
    without a function around them: undefined SSA values become kernel
    arguments), or an `mlir.ir` Operation/OpView (a copy, or a module holding
    copies). `op_index` picks the copy in program order. `coords` (outer-to-
    inner), `rows` (gather4/scatter4), `offsets` (im2col: one per spatial
    axis, outer-to-inner; im2col_w/im2col_w_128: (w_halo, w_offset)) and
    `global_shape` give values the IR leaves to run time; runtime coordinates
    and offsets are otherwise taken as 0 and runtime sizes as large enough
    (each noted in `Explanation.notes`; an im2col copy needs every size)."""
    from . import model, source

    if isinstance(op_or_text, (str, bytes)):
        text = op_or_text.decode() if isinstance(op_or_text, bytes) else op_or_text
        selected = source.select_from_text(text, op_index, name=name or "<input>",
                                           context=context)
    else:
        selected = source.select_from_op(op_or_text, op_index)
    model.check_supported(selected.op)
    isolated = source.isolate(selected, coords=coords, rows=rows,
                              global_shape=global_shape, offsets=offsets)
    return model.build(selected, isolated, selected.origin)


def render_png(ex: Explanation, path, **kwargs):
    """Draws the image to a PNG file (needs Pillow: the `png` extra)."""
    from .png import render_png as draw
    return draw(ex, path, **kwargs)


__all__ = ["explain", "render_text", "render_png", "Explanation", "Slot",
           "TensorMap", "ExplainError", "PAYLOAD", "OUT_OF_BOUNDS", "PADDING"]
