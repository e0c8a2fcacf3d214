"""PNG drawing of an Explanation (Pillow, the optional `png` extra).

One cell per 16-byte chunk, one row of cells per 128 bytes of shared memory
(as in the text grid), coloured by the global row of the chunk's elements
(or by their global 16-byte chunk column) and labelled with the first
element's coordinates where the label fits. Out-of-bounds chunks are grey,
padding is white.

With a wgmma operand (`wgmma=`, the CLI's --wgmma SPEC) the MMA's view is
drawn beside the image: one cell per element (row, k) of the operand, in
the colour of the image cell the element is read from (so a global element
has one colour in both panels), each operand row beside the image's line
of the same number. A cell that receives no element of the image is drawn
apart from the colours: light grey an out-of-bounds fill, white bytes no
load wrote (padding), dark grey past the buffer, a diagonal stroke over part of two
elements; a red bar under a cell marks an element that is not the GEMM's.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

from ..contract import CHUNK_BYTES
from ..emulator import wgmma_view as _op
from ..errors import TileError
from .model import OUT_OF_BOUNDS, PADDING, Explanation
from .source import ExplainError
from .text import LINE_BYTES, check_view, chunk_label, xor_phase
from .wgmma import WgmmaView, parse_spec, wgmma_view
from .wgmma import descriptor_facts, operand_chunk_label

INSTALL_HINT = ("drawing a PNG needs Pillow, which is not installed: "
                "pip install 'tile-mlir[png]' (or: pip install pillow)")

CELL_W, CELL_H = 76, 18
LEFT, PAD = 112, 10
MAX_LINES = 2048
GAP = 30                    # between the image and the MMA's view
ROW_LABEL_W = 36            # the operand's row numbers
OPERAND_CHUNK_W = 80        # 16 bytes of an operand row: 10 pixels a bf16
OOB_FILL = (208, 208, 208)
OUTSIDE_FILL = (96, 96, 96)
WRONG_MARK = (220, 0, 0)


class MissingPillow(TileError, ImportError):
    """[optional-package] Pillow is not installed; the message says how to
    install it."""

    def __init__(self, message: str = INSTALL_HINT):
        super().__init__("optional-package", message)


def check_pillow() -> None:
    """Raises MissingPillow unless Pillow can be imported (the CLI asks
    before it prints anything)."""
    _pillow()


def _pillow():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise MissingPillow() from None
    return Image, ImageDraw, ImageFont


def _save(img, path) -> None:
    """Writes the PNG; a path that cannot be written is [output-path]."""
    try:
        img.save(str(path), format="PNG")
    except OSError as err:
        raise TileError("output-path", f"cannot write the PNG {path}: "
                        f"{err.strerror or err}") from None
    except ValueError as err:  # a NUL byte: no path the system takes
        raise TileError("output-path", f"cannot write the PNG {str(path)!r}: "
                        f"{err}") from None


def _color(index: int) -> tuple:
    """Well separated light colours: golden-ratio steps around the hue circle."""
    hue = (index * 0.6180339887) % 1.0
    r, g, b = colorsys.hsv_to_rgb(hue, 0.42, 0.97)
    return (int(r * 255), int(g * 255), int(b * 255))


def _key(ex: Explanation, slot, b: int, color_by: str):
    element = slot.element[b]
    if color_by == "chunk":
        inner = int(element[-1]) * ex.element_bytes // ex.elements_per_byte
        return inner // CHUNK_BYTES
    return tuple(int(v) for v in element[:-1])


@dataclass(frozen=True)
class Layout:
    """Where render_png draws, in pixels: `size` (width, height), the
    128-byte lines drawn of each slot drawn (`lines`) and the top of each
    one's first line (`slot_tops`), the image's chunk columns (`cols`), the
    height the legend starts at, and with an MMA view the operand grid's
    left edge and top and one element's width (else None, None, 0)."""
    size: tuple
    lines: tuple
    slot_tops: tuple
    cols: int
    legend_y: int
    operand_x: int | None = None
    operand_y: int | None = None
    element_w: int = 0

    def image_cell(self, line: int, chunk: int, slot: int = 0) -> tuple:
        """(x0, y0, x1, y1), corners included, of the image cell of 128-byte
        line `line`, chunk `chunk` of the `slot`-th slot drawn."""
        x0, y0 = LEFT + chunk * CELL_W, self.slot_tops[slot] + line * CELL_H
        return (x0, y0, x0 + CELL_W - 1, y0 + CELL_H - 1)

    def operand_cell(self, row: int, k: int) -> tuple:
        """(x0, y0, x1, y1), corners included, of the MMA view's cell (row, k)."""
        if self.operand_x is None:
            raise ExplainError("explain-input", "this PNG draws no MMA view "
                               "(render_png without wgmma=)")
        x0, y0 = self.operand_x + k * self.element_w, self.operand_y + row * CELL_H
        return (x0, y0, x0 + self.element_w - 1, y0 + CELL_H - 1)


def render_png(ex: Explanation, path, *, slot: int | None = None,
               color_by: str = "auto", max_lines: int = MAX_LINES,
               wgmma=None) -> str:
    """Draws the image of `slot` (default: every slot, one under the other)
    to `path`; returns the path. `color_by`: "row" (the chunk's global row),
    "chunk" (its global 16-byte chunk column: shows the swizzle's
    permutation) or "auto" (chunk when swizzled, else row). `wgmma`: a
    --wgmma SPEC (its string or dict) or a WgmmaView of `ex`, whose MMA view
    is drawn beside the image (the module's docstring); a bad SPEC raises
    what wgmma_view raises, before anything is written."""
    _check_image(ex)
    Image, ImageDraw, ImageFont = _pillow()
    slots, color_by, view, font, title, at = _prepare(ex, slot, color_by, max_lines,
                                                      wgmma, ImageFont)
    img = Image.new("RGB", at.size, "white")
    draw = ImageDraw.Draw(img)

    y = PAD
    for line in title:
        draw.text((PAD, y), line, fill="black", font=font)
        y += 14
    colors: dict = {}
    for s, nlines, top in zip(slots, at.lines, at.slot_tops):
        _draw_slot(draw, font, ex, s, nlines, at.cols, top - 34, colors, color_by)
    if view is not None:
        _draw_operand(draw, font, ex, view, at, colors, color_by)
    y = at.legend_y
    for line in _legend(ex) + ([] if view is None else _operand_legend()):
        draw.text((PAD, y), line, fill="black", font=font)
        y += 14
    _save(img, path)
    return str(path)


def layout(ex: Explanation, *, slot: int | None = None, color_by: str = "auto",
           max_lines: int = MAX_LINES, wgmma=None) -> Layout:
    """Where render_png, given the same arguments, draws what (Layout)."""
    _check_image(ex)
    _, _, ImageFont = _pillow()
    return _prepare(ex, slot, color_by, max_lines, wgmma, ImageFont)[-1]


def _check_image(ex: Explanation) -> None:
    if not ex.slots:
        raise ExplainError("explain-supported", "a prefetch moves nothing into "
                           "shared memory: there is no image to draw")


def _prepare(ex: Explanation, slot, color_by: str, max_lines: int, wgmma, ImageFont):
    """Checks render_png's arguments; (the slots drawn, the colouring, the
    MMA view or None, the font, the title lines, the Layout)."""
    check_view(ex, slot=slot, max_lines=max_lines)
    if color_by == "auto":
        color_by = "chunk" if ex.swizzle else "row"
    if color_by not in ("row", "chunk"):
        raise ExplainError("explain-input", "color_by must be 'auto', 'row' or "
                           f"'chunk', got {color_by!r}")
    view = None if wgmma is None else _operand_view(ex, wgmma)
    slots = ex.slots if slot is None else [ex.slots[slot]]
    font = ImageFont.load_default()

    title = _title(ex, color_by) + ([] if view is None else _operand_title(view))
    cols = max(1, min(LINE_BYTES, ex.storage_bytes) // CHUNK_BYTES)
    lines_per_slot = _lines_per_slot(slots, max_lines)
    header_h = PAD + 14 * len(title) + PAD
    slot_h = [20 + 14 + n * CELL_H + PAD for n in lines_per_slot]
    tops = [header_h + 34 + sum(slot_h[:i]) for i in range(len(slots))]
    legend_h = 14 * 3 + PAD
    width = LEFT + cols * CELL_W + PAD
    height = header_h + sum(slot_h) + legend_h
    if view is None:
        return slots, color_by, None, font, title, Layout(
            (max(width, 560), height), tuple(lines_per_slot), tuple(tops), cols,
            header_h + sum(slot_h))
    # The operand's heading lies level with the slot headings: clear of them.
    headings = max(font.getlength(_slot_heading(s)) for s in slots)
    panel_x = int(max(width, PAD + headings)) + GAP
    element_w = OPERAND_CHUNK_W * view.view.element_bytes // CHUNK_BYTES
    grid_right = panel_x + ROW_LABEL_W + view.view.k * element_w
    panel_h = 20 + 14 + view.view.rows * CELL_H + PAD
    texts = title + _operand_legend() + [_operand_heading(view)]
    width = max(grid_right + PAD, panel_x + int(font.getlength(texts[-1])) + PAD,
                PAD + int(max(font.getlength(t) for t in texts)) + PAD, 560)
    legend_y = header_h + max(sum(slot_h), panel_h)
    height = legend_y + 14 * (3 + len(_operand_legend())) + PAD
    return slots, color_by, view, font, title, Layout(
        (width, height), tuple(lines_per_slot), tuple(tops), cols, legend_y,
        panel_x + ROW_LABEL_W, header_h + 34, element_w)


def _operand_view(ex: Explanation, wgmma) -> WgmmaView:
    """The WgmmaView `wgmma` names: itself, or a SPEC's (string or dict)
    reading of `ex` (its errors are wgmma_view's)."""
    if isinstance(wgmma, WgmmaView):
        return wgmma
    if not isinstance(wgmma, dict):
        wgmma = parse_spec(wgmma)     # a str, or [explain-input] naming the value
    return wgmma_view(ex, wgmma)


def _title(ex: Explanation, color_by: str) -> list[str]:
    return [f"{ex.direction} {ex.mode} {ex.rank}d, {ex.format}, box "
            f"{tuple(ex.box)} at {tuple(ex.coords)}, swizzle {ex.swizzle_name}",
            f"transaction {ex.transaction_bytes} bytes, shared image "
            f"{ex.shared_bytes} bytes ({ex.slot_count} slot"
            f"{'s' if ex.slot_count != 1 else ''}); colour: global "
            f"{'row' if color_by == 'row' else '16-byte chunk column'}"]


def _lines_per_slot(slots, max_lines: int) -> list[int]:
    """The 128-byte lines drawn of each slot: all, until `max_lines` in all."""
    lines_per_slot = []
    budget = max_lines
    for s in slots:
        n = min(-(-s.size // LINE_BYTES), max(budget, 0))
        lines_per_slot.append(n)
        budget -= n
    return lines_per_slot


def _legend(ex: Explanation) -> list[str]:
    return ["cell = 16 bytes of shared memory, labelled with the global "
            "coords of its first element",
            "grey: out of bounds (" +
            ("filled" if ex.direction == "load" else "dropped") +
            "); '*': some elements out of bounds; white '--': padding; "
            "'~': partly padding",
            "row label: line, byte offset" +
            (", XOR phase" if xor_phase(ex, 0) is not None else "")]


def _draw_slot(draw, font, ex: Explanation, s, nlines: int, cols: int, y: int,
               colors: dict, color_by: str) -> int:
    """Draws slot `s` (its heading, chunk numbers and first `nlines` lines)
    from height `y`; returns the height below it."""
    draw.text((PAD, y), _slot_heading(s), fill="black", font=font)
    y += 20
    for c in range(cols):
        draw.text((LEFT + c * CELL_W + 4, y), f"chunk {c}", fill="gray",
                  font=font)
    y += 14
    for line in range(nlines):
        addr = s.offset + line * LINE_BYTES
        tag = f"{line:>3} 0x{addr:04x}"
        phase = xor_phase(ex, addr)
        if phase is not None:
            tag += f" ^{phase}"
        draw.text((PAD, y + 3), tag, fill="black", font=font)
        for c in range(cols):
            b = line * LINE_BYTES + c * CHUNK_BYTES
            if b < s.size:
                _draw_cell(draw, font, ex, s, b, (LEFT + c * CELL_W, y), colors, color_by)
        y += CELL_H
    if nlines < -(-s.size // LINE_BYTES):
        draw.text((PAD, y), f"... {-(-s.size // LINE_BYTES) - nlines} more "
                  "lines not drawn", fill="gray", font=font)
    return y + PAD


def _slot_heading(s) -> str:
    return (f"slot {s.index}: coords {tuple(s.coords)}, bytes "
            f"0x{s.offset:04x}..0x{s.offset + s.size - 1:04x}")


def _fill(ex: Explanation, s, b: int, colors: dict, color_by: str):
    """The fill of the image cell holding byte `b` of slot `s` (its 16-byte
    chunk): None when all of it is padding, grey when all of it is out of
    bounds, else the colour of its first element's key (a colour per key,
    in `colors`, in the order keys appear)."""
    start = b - b % CHUNK_BYTES
    kinds = s.kind[start:start + CHUNK_BYTES]
    live = [i for i, k in enumerate(kinds) if k != PADDING]
    if not live:
        return None
    if all(k == OUT_OF_BOUNDS for k in kinds if k != PADDING):
        return OOB_FILL
    key = _key(ex, s, start + live[0], color_by)
    if key not in colors:
        colors[key] = _color(len(colors))
    return colors[key]


def _draw_cell(draw, font, ex: Explanation, s, b: int, corner: tuple, colors: dict,
               color_by: str) -> None:
    """Draws the 16-byte chunk of slot `s` at byte `b` in the cell whose top
    left corner is `corner`, coloured by _fill."""
    x0, y0 = corner
    box = (x0, y0, x0 + CELL_W - 1, y0 + CELL_H - 1)
    fill = _fill(ex, s, b, colors, color_by)
    if fill is None:
        draw.rectangle(box, fill="white", outline="#bbbbbb")
        draw.text((x0 + 4, y0 + 3), "--", fill="#999999", font=font)
        return
    draw.rectangle(box, fill=fill, outline="#777777")
    label = chunk_label(s, b, b + CHUNK_BYTES)
    if draw.textlength(label, font=font) <= CELL_W - 6:
        draw.text((x0 + 3, y0 + 3), label, fill="black", font=font)


def _operand_title(w: WgmmaView) -> list[str]:
    """The MMA view's lines of the title: the text view's facts of the
    descriptor (wgmma.descriptor_facts) and the verdict."""
    f = descriptor_facts(w)
    total, wrong = f["total"], f["wrong"]
    return [f"MMA's view (right): wgmma {f['operand']}", f"{f['start']}, {f['swizzle']}",
            *([f["source"]] if f["source"] else []),
            (f"{wrong} of {total} elements are not the GEMM's "
             f"({100.0 * wrong / total:.1f}%, underlined red)" if wrong else
             f"all {total} elements are the GEMM's") + "; " + f["reads"]]


def _operand_heading(w: WgmmaView) -> str:
    return f"{w.view.role} operand: cell = element (row, k)"


def _operand_legend() -> list[str]:
    return ["MMA's view: cell = the element (row, k) receives, in the colour of the "
            "image cell it is read from, labelled per 16 bytes ('!': some not the GEMM's)",
            "light grey: out-of-bounds fill; white: bytes no load wrote; dark grey: past "
            "the buffer; diagonal stroke: parts of two elements; red underline: not the GEMM's"]


_STATUS_FILL = {_op.FILLED: OOB_FILL, _op.NOT_WRITTEN: (255, 255, 255),
                _op.OUTSIDE: OUTSIDE_FILL, _op.TORN: (255, 255, 255)}


def _operand_fill(ex: Explanation, w: WgmmaView, r: int, k: int, colors: dict,
                  color_by: str) -> tuple:
    """The fill of the MMA view's cell (r, k): a whole element takes the
    fill of the image cell it is read from; anything else its status's."""
    status = int(w.elements.status[r, k])
    if status != _op.READ:
        return _STATUS_FILL[status]
    address = int(w.view.addresses[r, k])
    s = next(s for s in ex.slots if s.offset <= address < s.offset + s.size)
    return _fill(ex, s, address - s.offset, colors, color_by)


def _draw_operand(draw, font, ex: Explanation, w: WgmmaView, at: Layout, colors: dict,
                  color_by: str) -> None:
    """Draws the MMA's view: its heading and k numbers, then per operand row
    one cell per element (_operand_fill), a label per 16 bytes of K (the
    first element's global coords, as the text view's) and a red bar under
    each element that is not the GEMM's."""
    v = w.view
    per_chunk = CHUNK_BYTES // v.element_bytes
    x = at.operand_x
    draw.text((x - ROW_LABEL_W, at.operand_y - 34), _operand_heading(w), fill="black",
              font=font)
    for c in range(0, v.k, per_chunk):
        draw.text((x + c * at.element_w + 4, at.operand_y - 14), f"k={c}", fill="gray",
                  font=font)
    for r in range(v.rows):
        x0, y0, _, y1 = at.operand_cell(r, 0)
        draw.text((x - ROW_LABEL_W, y0 + 3), f"{r:>3}", fill="black", font=font)
        for k in range(v.k):
            box = at.operand_cell(r, k)
            draw.rectangle(box, fill=_operand_fill(ex, w, r, k, colors, color_by),
                           outline="#bbbbbb")
            if int(w.elements.status[r, k]) == _op.TORN:
                draw.line(box, fill="black")
        for c in range(0, v.k, per_chunk):
            cx0 = at.operand_cell(r, c)[0]
            cx1 = at.operand_cell(r, min(c + per_chunk, v.k) - 1)[2]
            draw.rectangle((cx0, y0, cx1, y1), outline="#777777")
        for k in range(v.k):
            if w.wrong[r, k]:   # a bar, not an outline: the colour stays readable
                x0, _, x1, _ = at.operand_cell(r, k)
                draw.rectangle((x0, y1 - 1, x1, y1), fill=WRONG_MARK)
        for c in range(0, v.k, per_chunk):
            _operand_label(draw, font, w, r, c, per_chunk, at)


def _operand_label(draw, font, w: WgmmaView, r: int, c: int, per_chunk: int,
                   at: Layout) -> None:
    """Labels the 16 bytes of row r from k = c as the text view does."""
    label = operand_chunk_label(w, r, c, c + per_chunk)
    if draw.textlength(label, font=font) <= per_chunk * at.element_w - 6:
        x0, y0 = at.operand_cell(r, c)[:2]
        draw.text((x0 + 3, y0 + 3), label, font=font,
                  fill="white" if w.elements.status[r, c] == _op.OUTSIDE else "black")
