"""`tile-mlir explain`: the shared image of one `tile.tma_copy`.

    from tile_mlir.explain import explain, render_text
    ex = explain(open("kernel.mlir").read(), op_index=0, coords=(0, 0))
    print(render_text(ex))
    ex.slots[0].at(128)      # ('payload', (1, 8), 0): global (1, 8), byte 0

For every byte of every repeat slot's image: which global element (and which
byte of it) lies there, or padding, or an out-of-bounds element; the
transaction and storage byte counts; the tensor-map fields as
cuTensorMapEncodeTiled (im2col modes: cuTensorMapEncodeIm2col/Im2colWide)
gets them. im2col images add, per shared row, the pixel it holds
(`Slot.pixels`); a prefetch has no image: it shows the box it warms. The op
is verified first: a rejected op raises TileVerifyError naming the rule, and
is never explained. `wgmma_view(ex, "sbo=1024,...")` reads a wgmma operand
descriptor against the image (explain/wgmma.py). The layout comes from the
emulator (tile_mlir.emulator), the descriptor fields from the
`tile-lower-tma` lowering of the copy. The
input is what compile() takes: a KernelDef, a module or MLIR text.
"""

from __future__ import annotations

import mlir.ir as ir

from ..builder import KernelDef
from ..errors import TileUsageError
from . import model as _model
from . import source as _src
from .model import (OUT_OF_BOUNDS, PADDING, PAYLOAD, Explanation, Slot,
                    TensorMap)
from .source import ExplainError
from .text import render_text
from .descriptors import descriptors_of
from .wgmma import WgmmaView, render_wgmma, wgmma_view


def explain(source, op_index: int = 0, *, name: str | None = None,
            coords=None, rows=None, global_shape=None, offsets=None,
            context=None) -> Explanation:
    """Explains one `tile.tma_copy`.

    `source` is what compile() takes: a KernelDef (built, then its copies
    counted), an `mlir.ir` Module, Operation or OpView (a copy, or an op
    holding copies), or MLIR text (a module, a `// -----`-split file, or op
    lines without a function around them: undefined SSA values become kernel
    arguments). `op_index` picks the copy in program order. `coords` (outer-to-
    inner), `rows` (gather4/scatter4), `offsets` (im2col: one per spatial
    axis, outer-to-inner; im2col_w/im2col_w_128: (w_halo, w_offset)) and
    `global_shape` give values the IR leaves to run time; runtime coordinates
    and offsets are otherwise taken as 0 and runtime sizes as large enough
    (each noted in `Explanation.notes`; an im2col copy needs every size).

    Errors are TileErrors naming their rule: [explain-input] (nothing to
    read, no such copy, a value that does not match the op),
    [explain-supported] (a copy the model does not cover), the verifier's
    rule for a rejected op, and [coord-range], [int-range] or
    [global-dim-range] for a value given outside its type's range."""
    selected = _select(source, op_index, name, context)
    _model.check_supported(selected.op)
    isolated = _src.isolate(selected, coords=coords, rows=rows,
                            global_shape=global_shape, offsets=offsets)
    ex = _model.build(selected, isolated, selected.origin)
    ex.descriptors = descriptors_of(selected.op)
    return ex


def _select(source, op_index, name, context):
    """The copy `op_index` of `source`, verified (see explain())."""
    if isinstance(op_index, bool) or not isinstance(op_index, int):
        raise TileUsageError("explain-input", f"op_index takes an int, got {op_index!r}")
    if name is not None and not isinstance(name, str):
        raise TileUsageError("explain-input", f"name (the input's name in messages) is "
                             f"a str, got {name!r}")
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError as err:
            raise TileUsageError("explain-input", f"{name or '<input>'} is not UTF-8 "
                                 f"text (byte {err.start}: {err.reason})") from None
    if isinstance(source, str):
        return _src.select_from_text(source, op_index, name=name or "<input>",
                                     context=context)
    if isinstance(source, KernelDef):
        module = source.build(context)
        return _src.select_from_op(module.operation, op_index, module=module, where=name,
                                   origin=f"{name + ', ' if name else ''}kernel "
                                   f"{source.name}")
    if isinstance(source, ir.Module):
        return _src.select_from_op(source.operation, op_index, module=source,
                                   origin=name or "python", where=name)
    if isinstance(source, (ir.Operation, ir.OpView)):
        return _src.select_from_op(source, op_index, origin=name or "python",
                                   where=name)
    raise TileUsageError("explain-input", "explain() takes a KernelDef, an "
                         "mlir.ir Module or Operation, or MLIR text, got "
                         f"{type(source).__name__}")


def render_png(ex: Explanation, path, **kwargs):
    """Draws the image to a PNG file (needs Pillow: the `png` extra)."""
    from .png import render_png as draw
    return draw(ex, path, **kwargs)


__all__ = ["explain", "render_text", "render_png", "Explanation", "Slot",
           "TensorMap", "ExplainError", "PAYLOAD", "OUT_OF_BOUNDS", "PADDING",
           "wgmma_view", "render_wgmma", "WgmmaView"]
