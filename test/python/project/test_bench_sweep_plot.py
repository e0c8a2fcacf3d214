"""bench/sweep_plot.py: the layout sweep's heat map, drawn with Pillow from
a small made-up JSON: the picture's size, the colour of a cell above 1.0
(blue), below (red), failed (dark grey) and not run (light grey), the
legend's scale, and merging runs."""

import importlib.util
import json
from pathlib import Path

import pytest

Image = pytest.importorskip("PIL.Image")

BENCH = Path(__file__).resolve().parents[3] / "bench"
spec = importlib.util.spec_from_file_location("sweep_plot", BENCH / "sweep_plot.py")
SP = importlib.util.module_from_spec(spec)
spec.loader.exec_module(SP)

MIB = 1 << 20


def cell(cls, op, elem, size, ratio, failed=False, copy=None):
    dtype = {1: "uint8", 2: "bfloat16", 4: "float32", 8: "float64"}[elem]
    return {"key": f"{op}|{cls}|{size}|{elem}", "op": op, "class": cls, "elem": elem,
            "dtype": dtype,
            "size": size, "size_name": f"{size // MIB}M", "in_bytes": size,
            "ratio": None if failed else ratio, "failed": failed,
            "goal_ratio": (ratio >= 1.0) if not failed else False,
            "copy_ratio": copy, "goal_copy": None if copy is None else copy >= 0.93}


DOC = {"device": "Test GPU", "date": "2026-01-02", "cells": [
    cell("transpose (1, 0)", "permute", 2, MIB, 1.8),
    cell("transpose (1, 0)", "permute", 2, 256 * MIB, 0.6, copy=0.9),
    cell("(1, 1, 1, 1)", "pad", 2, MIB, 1.0, failed=True),
    cell("(1, 1, 1, 1)", "pad", 4, MIB, 1.2),
]}


def inside(image, box, inset=5):
    """A pixel near the cell's top-left corner, clear of its outline and text."""
    return image.getpixel((box[0] + inset, box[1] + inset))


def test_cells_take_the_colour_of_their_ratio(tmp_path):
    image, layout = SP.render(DOC)
    assert (image.width, image.height) == (layout.width, layout.height)
    # Rows: the permute class then the pad one; columns: 1M and 256M per element size.
    assert [r[1] for r in layout.rows] == ["transpose (1, 0)", "(1, 1, 1, 1)"]
    assert layout.sizes == [MIB, 256 * MIB] and layout.elems == [2, 4]
    r, g, b = inside(image, layout.box("transpose (1, 0)", 2, MIB))
    assert b > r + 60, (r, g, b)        # 1.8: blue
    r, g, b = inside(image, layout.box("transpose (1, 0)", 2, 256 * MIB))
    assert r > b + 60, (r, g, b)        # 0.6: red
    assert inside(image, layout.box("(1, 1, 1, 1)", 2, MIB)) == SP.FAILED
    assert inside(image, layout.box("transpose (1, 0)", 4, MIB)) == SP.MISSING
    # A cell below its goal is outlined: the outline's dark pixels at its edge.
    below = layout.box("transpose (1, 0)", 2, 256 * MIB)
    assert image.getpixel((below[0] + 2, below[1] + 10)) == SP.OUTLINE
    above = layout.box("transpose (1, 0)", 2, MIB)
    assert image.getpixel((above[0] + 2, above[1] + 10)) != SP.OUTLINE


def test_the_scale_is_centred_at_one():
    assert SP.colour(1.0) == SP.WHITE
    assert SP.colour(4.0) == SP.HIGH and SP.colour(100.0) == SP.HIGH
    assert SP.colour(0.25) == SP.LOW and SP.colour(0.0) == SP.LOW
    # Symmetric in log: 2 and 1/2 are as far from white.
    half, double = SP.colour(0.5), SP.colour(2.0)
    assert sum(255 - c for c in half) > 0 and sum(255 - c for c in double) > 0
    assert half[0] > half[2] and double[2] > double[0]


def test_main_writes_the_png_and_merges_runs(tmp_path):
    first = tmp_path / "a.json"
    second = tmp_path / "b.json"
    first.write_text(json.dumps(DOC))
    later = dict(DOC, date="2026-01-03",
                 cells=[cell("transpose (1, 0)", "permute", 2, MIB, 0.5)])
    second.write_text(json.dumps(later))
    out = tmp_path / "sweep.png"
    assert SP.main([str(first), str(second), "--out", str(out)]) == 0
    image = Image.open(out)
    assert image.format == "PNG"
    _, layout = SP.render(SP.merge([DOC, later]))
    assert image.size == (layout.width, layout.height)
    # The later run's cell wins: 0.5 is red.
    r, _, b = inside(image.convert("RGB"), layout.box("transpose (1, 0)", 2, MIB))
    assert r > b + 60
    assert SP.merge([DOC, later])["date"] == "2026-01-02, 2026-01-03"


def test_an_empty_sweep_is_refused(tmp_path, capsys):
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"device": "x", "date": "y", "cells": []}))
    with pytest.raises(SystemExit):
        SP.main([str(empty), "--out", str(tmp_path / "x.png")])
    assert "no cells" in capsys.readouterr().err


def test_the_class_table_counts_each_goal_and_names_the_lowest_cell():
    doc = {"cells": DOC["cells"] + [
        cell("transpose (1, 0)", "permute", 1, 256 * MIB, 0.9978, copy=0.95)]}
    lines = SP.class_table(doc).splitlines()
    assert lines[0].startswith("| op | class | ratio >= 1.0")
    # 1.8, 0.6 and 0.9978: one at the goal; the lowest is 0.6; copy goals:
    # 0.9 below, 0.95 at it, lowest 0.9; 0.9978 would print as 0.99, not 1.00.
    assert lines[2] == ("| permute | transpose (1, 0) | 1/3 | 0.60 (256M bf16) | 1/2 | "
                        "0.90 (256M bf16) |")
    # The failed pad cell has no ratio and counts below the goal.
    assert lines[3] == "| pad | (1, 1, 1, 1) | 1/2 | 1.20 (1M f32) | 0/0 | - |"
    assert SP._down(0.9978) == "0.99"


def test_the_variant_table_names_each_cells_fastest_kernel():
    def timed(c, **ms):
        c["impl"] = {k.replace("__", ":").replace("_", " "): {"ms": v} for k, v in ms.items()}
        return c
    doc = {"cells": [
        timed(cell("transpose (1, 0)", "permute", 2, 16 * MIB, 0.8), ours=0.020,
              ours__default=0.018, ours__g264=0.012, ours__1tile=0.0175, torch=0.030,
              triton=0.014),
        timed(cell("(1, 1, 1, 1)", "pad", 4, 16 * MIB, 0.7), ours=0.025,
              ours__default=0.020, ours__g264=0.0195, triton=0.016),
        timed(cell("(1, 1, 1, 1)", "pad", 2, MIB, 1.2), ours=0.007, torch=0.009),
    ]}
    lines = SP.variant_table(doc).splitlines()
    rows = [line for line in lines if line.startswith("| transpose") or line.startswith("| (1")]
    assert rows == [
        "| transpose (1, 0) 16M bf16 | 20.0 | 18.0 | g264 12.0 | 1.50x | 14.0 | 1.17 |",
        "| (1, 1, 1, 1) 16M f32 | 25.0 | 20.0 | g264 19.5 | 1.03x | 16.0 | 0.82 |",
    ]
    # g264 beat the default by more than 5% in one cell only (1.03x is not).
    assert "- g264: 1 cells (transpose (1, 0) 16M bf16)" in lines
    assert SP.variant_table({"cells": doc["cells"][2:]}).splitlines()[-1] == "- none"
