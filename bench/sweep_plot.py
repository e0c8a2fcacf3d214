"""The layout sweep's heat map: bench/layout_sweep.py's JSON drawn as a PNG
with Pillow alone (no GPU, torch or matplotlib: it runs anywhere).

    python bench/sweep_plot.py sweep.json [more.json ...] --out sweep.png

One panel per element size; in each, a row per op class (grouped by op)
and a column per input size. A cell's colour is ours / max(torch, Triton)
(speed over the faster peer's) on a diverging scale centred at 1.0, from
red (1/4 or less) through white (1.0) to blue (4 or more), in log2; the
ratio is printed in the cell, with "c" and ours / copy_ under it where the
cell moves 64 MiB or more. A dark outline marks a cell below a goal
(ratio < 1, or c < 0.93), "FAIL" on dark grey a cell where ours failed or
was not exact, "-" on light grey a cell not run, "*" an input under half
its column's size (an unfold whose output is capped). Several JSON files
(a sweep run in parts) are merged, the later file's cell winning. The
title names the card and the date of the run.

    python bench/sweep_plot.py sweep.json --table

prints the per-class table of docs/performance.md instead: per op class,
the cells at ratio >= 1.0, the lowest ratio and its cell, the cells at
>= 0.93 of copy_ among those moving 64 MiB or more, and the lowest.

    python bench/sweep_plot.py sweep.json --variants

prints, for a sweep run with --variants, each cell's default kernel, its
fastest variant and the faster peer (us a call), then the variants that
beat the default by more than 5% and where.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

CELL_W, CELL_H = 66, 34
LABEL_PAD, PANEL_GAP, OP_GAP = 8, 18, 8
TITLE_H, HEADER_H, LEGEND_H, MARGIN = 46, 38, 52, 12
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
LOW, HIGH = (202, 0, 32), (5, 80, 176)     # red under 1.0, blue over
FAILED, MISSING, OUTLINE = (64, 64, 64), (222, 222, 222), (0, 0, 0)
SPAN = 2.0   # log2 of the ratio where the colour saturates (1/4 and 4)
DTYPE_NAMES = {1: "uint8", 2: "bfloat16", 4: "float32", 8: "float64"}


def font(size: int):
    """Pillow's own font at `size` pixels (the bitmap one where Pillow
    has no FreeType)."""
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError):   # an older Pillow, or no FreeType
        return ImageFont.load_default()


def colour(ratio: float) -> tuple:
    """The diverging colour of a ratio: white at 1.0, LOW below, HIGH above."""
    t = max(-1.0, min(1.0, math.log2(max(ratio, 1e-9)) / SPAN))
    end = LOW if t < 0 else HIGH
    a = abs(t)
    return tuple(round(w + (e - w) * a) for w, e in zip(WHITE, end))


def merge(docs: list) -> dict:
    """One document of several runs' JSON (the later run's cell wins);
    the device and date of the first, other dates added."""
    cells, dates = {}, []
    for doc in docs:
        dates.append(doc.get("date", "?"))
        for cell in doc.get("cells", []):
            cells[cell["key"]] = cell
    first = docs[0] if docs else {}
    return {"device": first.get("device", "?"), "date": ", ".join(sorted(set(dates))),
            "cells": list(cells.values())}


class Layout:
    """Where each panel, row and column lies."""

    def __init__(self, doc: dict, draw):
        cells = doc["cells"]
        self.cells = {(c["class"], c["elem"], c["size"]): c for c in cells}
        self.rows = []   # (op, class) in the sweep's order
        for c in cells:
            if (c["op"], c["class"]) not in self.rows:
                self.rows.append((c["op"], c["class"]))
        order = {"permute": 0, "pad": 1, "unfold": 2}
        self.rows.sort(key=lambda r: order.get(r[0], 3))   # stable: the sweep's order
        self.sizes = sorted({c["size"] for c in cells})
        self.size_names = {c["size"]: c.get("size_name", str(c["size"])) for c in cells}
        self.elems = sorted({c["elem"] for c in cells})
        label_font = font(13)
        self.label_w = LABEL_PAD * 2 + max(
            [draw.textlength(self.label(r), font=label_font) for r in self.rows] + [80])
        self.panel_w = CELL_W * len(self.sizes)
        self.row_y = {}
        y = TITLE_H + HEADER_H
        for i, row in enumerate(self.rows):
            if i and row[0] != self.rows[i - 1][0]:
                y += OP_GAP
            self.row_y[row[1]] = y
            y += CELL_H
        self.height = y + LEGEND_H + MARGIN
        self.width = int(self.label_w + len(self.elems) * (self.panel_w + PANEL_GAP) + MARGIN)

    @staticmethod
    def label(row) -> str:
        return f"{row[0]} {row[1]}"

    def box(self, cls: str, elem: int, size: int) -> tuple:
        """(x0, y0, x1, y1) of a cell's rectangle."""
        x0 = self.label_w + self.elems.index(elem) * (self.panel_w + PANEL_GAP) + \
            self.sizes.index(size) * CELL_W
        y0 = self.row_y[cls]
        return (int(x0), y0, int(x0) + CELL_W - 1, y0 + CELL_H - 1)


def draw_cell(draw, box, cell) -> None:
    """One cell: its colour, its numbers, its marks."""
    small, tiny = font(13), font(11)
    x0, y0, x1, y1 = box
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    if cell is None:
        draw.rectangle(box, fill=MISSING)
        draw.text(mid, "-", fill=BLACK, font=small, anchor="mm")
        return
    if cell.get("failed") or cell.get("ratio") is None:
        draw.rectangle(box, fill=FAILED)
        draw.text(mid, "FAIL", fill=WHITE, font=small, anchor="mm")
        return
    ratio = cell["ratio"]
    fill = colour(ratio)
    draw.rectangle(box, fill=fill)
    ink = WHITE if sum(fill) < 380 else BLACK
    mark = "*" if cell.get("in_bytes", cell["size"]) < cell["size"] / 2 else ""
    copy = cell.get("copy_ratio")
    if cell.get("goal_copy") is not None:
        draw.text((mid[0], y0 + 11), f"{ratio:.2f}{mark}", fill=ink, font=small, anchor="mm")
        text = f"c{copy:.2f}" if copy is not None else "c?"
        draw.text((mid[0], y1 - 9), text, fill=ink, font=tiny, anchor="mm")
    else:
        draw.text(mid, f"{ratio:.2f}{mark}", fill=ink, font=small, anchor="mm")
    if cell.get("goal_ratio") is False or cell.get("goal_copy") is False:
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=OUTLINE, width=2)


def draw_frame(draw, layout: Layout, doc: dict) -> None:
    """Title, panel headers, size names, row labels and the colour legend."""
    title, small = font(18), font(13)
    draw.text((MARGIN, 8), f"Layout sweep: ours / max(torch, Triton) on {doc['device']}, "
              f"{doc['date']}", fill=BLACK, font=title)
    draw.text((MARGIN, 30), "c: ours / torch copy_ of the same bytes (cells moving 64 MiB "
              "or more); outlined: below a goal (1.00; c 0.93); *: input under half its "
              "size", fill=BLACK, font=font(11))
    for elem in layout.elems:
        x = layout.box(layout.rows[0][1], elem, layout.sizes[0])[0]
        draw.text((x + layout.panel_w / 2, TITLE_H + 8), DTYPE_NAMES.get(elem, f"{elem} B"),
                  fill=BLACK, font=small, anchor="mm")
        for size in layout.sizes:
            bx = layout.box(layout.rows[0][1], elem, size)[0]
            draw.text((bx + CELL_W / 2, TITLE_H + 26), layout.size_names[size],
                      fill=BLACK, font=small, anchor="mm")
    for row in layout.rows:
        y = layout.row_y[row[1]] + CELL_H / 2
        draw.text((LABEL_PAD, y), layout.label(row), fill=BLACK, font=small, anchor="lm")
    draw_legend(draw, layout)


def draw_legend(draw, layout: Layout) -> None:
    """The colour scale, 1/4 to 4, with its ticks."""
    y0 = layout.height - LEGEND_H - MARGIN + 14
    x0, width = layout.label_w, 320
    for i in range(width):
        ratio = 2 ** (SPAN * (2 * i / (width - 1) - 1))
        draw.line((x0 + i, y0, x0 + i, y0 + 14), fill=colour(ratio))
    for ratio in (0.25, 0.5, 1, 2, 4):
        x = x0 + (math.log2(ratio) / SPAN + 1) / 2 * (width - 1)
        draw.line((x, y0 + 14, x, y0 + 18), fill=BLACK)
        draw.text((x, y0 + 28), f"{ratio:g}", fill=BLACK, font=font(11), anchor="mm")
    draw.text((x0 + width + 12, y0 + 7), "ours / max(torch, Triton): its speed over the "
              "faster peer's", fill=BLACK, font=font(13), anchor="lm")


def render(doc: dict) -> tuple:
    """(the heat map as a PIL image, its Layout) of a sweep's JSON document."""
    if not doc.get("cells"):
        raise ValueError("the sweep's JSON holds no cells")
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    layout = Layout(doc, probe)
    image = Image.new("RGB", (layout.width, layout.height), WHITE)
    draw = ImageDraw.Draw(image)
    draw_frame(draw, layout, doc)
    for _, cls in layout.rows:
        for elem in layout.elems:
            for size in layout.sizes:
                draw_cell(draw, layout.box(cls, elem, size), layout.cells.get((cls, elem, size)))
    return image, layout


def _down(value: float) -> str:
    """Two decimals rounded down, so a cell below a goal never prints at it."""
    return f"{math.floor(value * 100) / 100:.2f}"


def _cell_name(c: dict) -> str:
    return f"{c.get('size_name', c['size'])} {c['dtype'].replace('float', 'f').replace('uint', 'u')}"


def class_table(doc: dict) -> str:
    """The markdown table of each op class's cells against the two goals
    (a cell without a ratio, failed or not run, counts as below)."""
    rows, order = {}, []
    for c in doc["cells"]:
        key = (c["op"], c["class"])
        if key not in rows:
            rows[key] = []
            order.append(key)
        rows[key].append(c)
    out = ["| op | class | ratio >= 1.0 | lowest ratio (cell) | >= 0.93 of copy_ "
           "| lowest / copy_ (cell) |", "| --- | --- | --- | --- | --- | --- |"]
    for op, name in order:
        cells = rows[(op, name)]
        met = sum(1 for c in cells if c.get("goal_ratio"))
        rated = [c for c in cells if c.get("ratio") is not None]
        low = min(rated, key=lambda c: c["ratio"]) if rated else None
        big = [c for c in cells if c.get("goal_copy") is not None]
        copies = [c for c in big if c.get("copy_ratio") is not None]
        low_copy = min(copies, key=lambda c: c["copy_ratio"]) if copies else None
        lowest = f"{_down(low['ratio'])} ({_cell_name(low)})" if low else "-"
        lowest_copy = (f"{_down(low_copy['copy_ratio'])} ({_cell_name(low_copy)})"
                       if low_copy else "-")
        met_copy = sum(1 for c in big if c.get("goal_copy"))
        out.append(f"| {op} | {name} | {met}/{len(cells)} | {lowest} | "
                   f"{met_copy}/{len(big)} | {lowest_copy} |")
    return "\n".join(out)


def variant_table(doc: dict, margin: float = 0.05) -> str:
    """The markdown table of the cells timed with --variants: our call, the
    default kernel replayed, the fastest variant and its gain over the
    default, the faster peer, and the peer's time over the fastest
    variant's (us a call; above 1 where the variant is faster); then each
    variant that beat the default by more than `margin`, with the cells it
    did."""
    out = ["| cell | ours (call) | default (kernel) | fastest variant | vs default "
           "| faster peer | peer / fastest |", "| --- | --- | --- | --- | --- | --- | --- |"]
    beats: dict = {}
    for c in doc["cells"]:
        impl = c.get("impl", {})
        timed = {k[len("ours:"):]: v["ms"] for k, v in impl.items() if k.startswith("ours:")}
        if not timed:
            continue
        best = min(timed, key=timed.get)
        default = timed.get("default")
        peers = [impl[k]["ms"] for k in ("torch", "triton") if k in impl]
        peer = min(peers) if peers else None
        if default and timed[best] < (1 - margin) * default:
            beats.setdefault(best, []).append(c)

        def us(ms):
            return f"{ms * 1e3:.1f}" if ms else "-"
        out.append(f"| {c['class']} {_cell_name(c)} | {us(impl.get('ours', {}).get('ms'))} "
                   f"| {us(default)} | {best} {us(timed[best])} "
                   f"| {f'{default / timed[best]:.2f}x' if default else '-'} | {us(peer)} "
                   f"| {f'{peer / timed[best]:.2f}' if peer else '-'} |")
    out += ["", f"Variants faster than the default by more than {margin:.0%}:"]
    out += [f"- {name}: {len(cells)} cells ({', '.join(c['class'] + ' ' + _cell_name(c) for c in cells)})"
            for name, cells in sorted(beats.items(), key=lambda kv: -len(kv[1]))] or ["- none"]
    return "\n".join(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="bench/layout_sweep.py's --json files")
    parser.add_argument("--out", default="sweep.png")
    parser.add_argument("--table", action="store_true",
                        help="print the per-class markdown table, draw nothing")
    parser.add_argument("--variants", action="store_true",
                        help="print the --variants table (fastest variant per cell), "
                             "draw nothing")
    args = parser.parse_args(argv)
    docs = [json.loads(Path(p).read_text()) for p in args.json]
    if args.variants:
        print(variant_table(merge(docs)))
        return 0
    if args.table:
        print(class_table(merge(docs)))
        return 0
    try:
        image, _ = render(merge(docs))
    except ValueError as err:
        parser.error(str(err))
    image.save(args.out)
    print(f"{args.out}: {image.width} x {image.height}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
