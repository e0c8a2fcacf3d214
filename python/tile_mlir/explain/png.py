"""PNG drawing of an Explanation (Pillow, the optional `png` extra).

One cell per 16-byte chunk, one row of cells per 128 bytes of shared memory
(as in the text grid), coloured by the global row of the chunk's elements
(or by their global 16-byte chunk column) and labelled with the first
element's coordinates where the label fits. Out-of-bounds chunks are grey,
padding is white.
"""

from __future__ import annotations

import colorsys

from ..contract import CHUNK_BYTES
from ..errors import TileError
from .model import OUT_OF_BOUNDS, PADDING, Explanation
from .source import ExplainError
from .text import LINE_BYTES, check_view, chunk_label, xor_phase

INSTALL_HINT = ("drawing a PNG needs Pillow, which is not installed: "
                "pip install 'tile-mlir[png]' (or: pip install pillow)")

CELL_W, CELL_H = 76, 18
LEFT, PAD = 112, 10
MAX_LINES = 2048


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


def render_png(ex: Explanation, path, *, slot: int | None = None,
               color_by: str = "auto", max_lines: int = MAX_LINES) -> str:
    """Draws the image of `slot` (default: every slot, one under the other)
    to `path`; returns the path. `color_by`: "row" (the chunk's global row),
    "chunk" (its global 16-byte chunk column: shows the swizzle's
    permutation) or "auto" (chunk when swizzled, else row)."""
    if not ex.slots:
        raise ExplainError("explain-supported", "a prefetch moves nothing into "
                           "shared memory: there is no image to draw")
    Image, ImageDraw, ImageFont = _pillow()
    check_view(ex, slot=slot, max_lines=max_lines)
    if color_by == "auto":
        color_by = "chunk" if ex.swizzle else "row"
    if color_by not in ("row", "chunk"):
        raise ExplainError("explain-input", "color_by must be 'auto', 'row' or "
                           f"'chunk', got {color_by!r}")
    slots = ex.slots if slot is None else [ex.slots[slot]]
    font = ImageFont.load_default()

    title = _title(ex, color_by)
    cols = max(1, min(LINE_BYTES, ex.storage_bytes) // CHUNK_BYTES)
    lines_per_slot = _lines_per_slot(slots, max_lines)
    header_h = PAD + 14 * len(title) + PAD
    slot_h = [20 + 14 + n * CELL_H + PAD for n in lines_per_slot]
    legend_h = 14 * 3 + PAD
    width = LEFT + cols * CELL_W + PAD
    height = header_h + sum(slot_h) + legend_h
    img = Image.new("RGB", (max(width, 560), height), "white")
    draw = ImageDraw.Draw(img)

    y = PAD
    for line in title:
        draw.text((PAD, y), line, fill="black", font=font)
        y += 14
    y = header_h
    colors: dict = {}
    for s, nlines in zip(slots, lines_per_slot):
        y = _draw_slot(draw, font, ex, s, nlines, cols, y, colors, color_by)
    for line in _legend(ex):
        draw.text((PAD, y), line, fill="black", font=font)
        y += 14
    _save(img, path)
    return str(path)


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
    draw.text((PAD, y), f"slot {s.index}: coords {tuple(s.coords)}, bytes "
              f"0x{s.offset:04x}..0x{s.offset + s.size - 1:04x}",
              fill="black", font=font)
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


def _draw_cell(draw, font, ex: Explanation, s, b: int, corner: tuple, colors: dict,
               color_by: str) -> None:
    """Draws the 16-byte chunk of slot `s` at byte `b` in the cell whose top
    left corner is `corner`, coloured by its first element's key (a colour
    per key, in `colors`, in the order keys appear)."""
    x0, y0 = corner
    box = (x0, y0, x0 + CELL_W - 1, y0 + CELL_H - 1)
    kinds = s.kind[b:b + CHUNK_BYTES]
    live = [i for i, k in enumerate(kinds) if k != PADDING]
    if not live:
        draw.rectangle(box, fill="white", outline="#bbbbbb")
        draw.text((x0 + 4, y0 + 3), "--", fill="#999999", font=font)
        return
    first = b + live[0]
    if all(k == OUT_OF_BOUNDS for k in kinds if k != PADDING):
        fill = (208, 208, 208)
    else:
        key = _key(ex, s, first, color_by)
        if key not in colors:
            colors[key] = _color(len(colors))
        fill = colors[key]
    draw.rectangle(box, fill=fill, outline="#777777")
    label = chunk_label(s, b, b + CHUNK_BYTES)
    if draw.textlength(label, font=font) <= CELL_W - 6:
        draw.text((x0 + 3, y0 + 3), label, fill="black", font=font)
