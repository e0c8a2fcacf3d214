"""`tile-mlir explain --png --wgmma`: the MMA's view drawn beside the image.

Pixels are read back from the PNG. Where an element lies in the image is
computed here from the documents, not read from the drawing: a TMA load with
the 128B swizzle puts 16-byte chunk c of image row r at chunk c ^ (r % 8) of
128-byte line r (emulator/swizzle.py, measured). Which element a wgmma cell
receives is the emulator's (tile_mlir.emulator.wgmma_view), checked here
against what a GEMM reads: (row, k0 + k) K-major, (k0 + k, row) MN-major.
Only the cell positions come from png.layout, the geometry render_png
draws with.
"""

import functools
import hashlib
from collections import Counter

import pytest

pytest.importorskip("mlir.ir")
pytest.importorskip("PIL")

from PIL import Image, features  # noqa: E402

from tile_mlir import cli  # noqa: E402
from tile_mlir.errors import TileError  # noqa: E402
from tile_mlir.explain import explain, render_png, wgmma_view  # noqa: E402
from tile_mlir.explain import png  # noqa: E402

import explain_ir  # noqa: E402


# The copies of these tests read a 128 x 128 global tensor.
load_text = functools.partial(explain_ir.load_text, shape=(128, 128))


def draw(tmp_path, ex, name="mma.png", **kwargs):
    """(the decoded PNG, its Layout)."""
    path = tmp_path / name
    render_png(ex, path, **kwargs)
    with Image.open(path) as img:
        pixels = img.convert("RGB")
    return pixels, png.layout(ex, **kwargs)


def colour(img, box):
    """The colour most of a cell's inside has: its edges, its bottom two
    rows (the wrong-element bar) and its label's pixels aside."""
    x0, y0, x1, y1 = box
    seen = Counter(img.getpixel((x, y)) for x in range(x0 + 1, x1)
                   for y in range(y0 + 1, y1 - 1))
    fill, count = seen.most_common(1)[0]
    assert count * 2 > sum(seen.values()), f"no colour fills the cell {box}"
    return fill


def swizzled_place(line, inner, element_bytes=2):
    """(line, chunk) of the image cell holding inner element `inner` of
    image row `line` in a 128B-swizzled image of 128-byte rows."""
    return line, (inner * element_bytes // 16) ^ (line % 8)


CELLS = [(0, 0), (1, 0), (1, 9), (3, 5), (5, 14), (7, 15), (10, 8), (63, 3)]


@pytest.mark.parametrize("color_by", ["auto", "row"])
@pytest.mark.parametrize("spec,major,k0", [
    ("sbo=1024", "K", 0),
    ("sbo=1024,step=3", "K", 48),
    ("role=B,major=MN,sbo=1024,step=1", "MN", 16),
])
def test_an_mma_cell_has_the_colour_of_the_element_it_reads(tmp_path, color_by, spec,
                                                             major, k0):
    origin = (32, 64)
    ex = explain(load_text(coords=origin))
    w = wgmma_view(ex, spec)
    img, at = draw(tmp_path, ex, wgmma=spec, color_by=color_by)
    colours = set()
    for r, k in CELLS:
        row, inner = (r, k0 + k) if major == "K" else (k0 + k, r)
        assert tuple(w.elements.coords[r, k]) == (origin[0] + row, origin[1] + inner)
        line, chunk = swizzled_place(row, inner)
        # The image cell found is the one explain says holds the element.
        kind, coords, _ = ex.slots[0].at(line * 128 + chunk * 16 + inner % 8 * 2)
        assert kind == "payload" and coords == (origin[0] + row, origin[1] + inner)
        mine = colour(img, at.operand_cell(r, k))
        assert mine == colour(img, at.image_cell(line, chunk)), (r, k)
        assert mine not in (png.OOB_FILL, png.OUTSIDE_FILL, (255, 255, 255))
        colours.add(mine)
    # Rows (or chunk columns) of more than one colour: a test that can tell.
    assert len(colours) >= 2


def test_a_descriptor_that_mismatches_the_image_reads_other_colours(tmp_path):
    # Base offset 1 reads every row one line out of the copy's phase: row r's
    # chunk j is read at chunk j ^ ((r - 1) % 8) of line r, where the copy
    # put the image's chunk j ^ ((r - 1) % 8) ^ (r % 8), never j: another
    # chunk column, another colour.
    ex = explain(load_text())
    right, right_at = draw(tmp_path, ex, "right.png", wgmma="sbo=1024")
    wrong, wrong_at = draw(tmp_path, ex, "wrong.png", wgmma="sbo=1024,base=1")
    w = wgmma_view(ex, "sbo=1024,base=1")
    assert len(w.mismatches) == 64 * 16
    for r, k in CELLS:
        box = wrong_at.operand_cell(r, k)
        got = colour(wrong, box)
        assert got != colour(right, right_at.operand_cell(r, k)), (r, k)
        row, inner = (int(v) for v in w.elements.coords[r, k])
        assert row == r and inner // 8 != k // 8
        assert got == colour(wrong, wrong_at.image_cell(*swizzled_place(row, inner)))
        # A red bar under the wrong element, none under the right one.
        x0, _, x1, y1 = box
        assert wrong.getpixel(((x0 + x1) // 2, y1)) == png.WRONG_MARK
        assert right.getpixel(((x0 + x1) // 2, y1)) != png.WRONG_MARK


def test_a_wrong_element_in_the_right_row_is_marked(tmp_path):
    # A 128B descriptor over an unswizzled copy: row r reads its own row
    # (the same colour under row colouring) but chunk j ^ (r % 8): wrong
    # unless r % 8 == 0; only the bar tells.
    ex = explain(load_text(swizzle=0))
    img, at = draw(tmp_path, ex, wgmma="sbo=1024,swizzle=128")
    for r in range(16):
        for k in (0, 9):
            x0, _, x1, y1 = at.operand_cell(r, k)
            marked = img.getpixel(((x0 + x1) // 2, y1)) == png.WRONG_MARK
            assert marked == (r % 8 != 0), (r, k)
            assert colour(img, at.operand_cell(r, k)) == colour(img, at.image_cell(r, 0))


def test_cells_that_read_no_element_are_drawn_apart(tmp_path):
    # 8 rows of 8 f32 (32 bytes) under the 128B swizzle: each row padded to
    # 128 bytes. A tf32 K step of 1 reads bytes 32..63 of rows 0..7
    # (padding, no load wrote them) and rows 8.. past the 1024-byte buffer.
    ex = explain(load_text(shape=(64, 64), box=(8, 8), dtype="f32",
                           shared="memref<8x32xf32, 3>"))
    img, at = draw(tmp_path, ex, wgmma="type=tf32,sbo=1024,step=1", color_by="row")
    palette = {colour(img, at.image_cell(line, line % 8)) for line in range(8)}
    assert len(palette) == 8
    for r, k in [(0, 0), (3, 5), (7, 7)]:
        assert colour(img, at.operand_cell(r, k)) == (255, 255, 255)
    for r, k in [(8, 0), (40, 3), (63, 7)]:
        assert colour(img, at.operand_cell(r, k)) == png.OUTSIDE_FILL
    assert png.OUTSIDE_FILL not in palette and (255, 255, 255) not in palette
    # Step 0 reads the payload: the image's colours.
    img, at = draw(tmp_path, ex, "step0.png", wgmma="type=tf32,sbo=1024", color_by="row")
    for r in range(8):
        want = colour(img, at.image_cell(*swizzled_place(r, 2, element_bytes=4)))
        assert colour(img, at.operand_cell(r, 2)) == want


def test_out_of_bounds_fill_is_the_images_grey(tmp_path):
    # Global rows 128.. do not exist: the load fills image rows 40..63.
    ex = explain(load_text(coords=(88, 0)))
    img, at = draw(tmp_path, ex, wgmma="sbo=1024")
    assert colour(img, at.image_cell(45, 2)) == png.OOB_FILL
    for r, k in [(40, 0), (45, 9), (63, 15)]:
        assert colour(img, at.operand_cell(r, k)) == png.OOB_FILL
    assert colour(img, at.operand_cell(39, 0)) != png.OOB_FILL


def test_a_second_slot_is_read_in_its_own_colours(tmp_path):
    # SBO 8192: 8-row groups a whole 64x64 image apart; rows 8..15 read
    # slot 1 (image rows 0..7 of coords (64, 64)), rows 16.. past the buffer.
    ex = explain(load_text(steps=(64, 64)))
    img, at = draw(tmp_path, ex, wgmma="sbo=8192,role=B", color_by="row")
    w = wgmma_view(ex, "sbo=8192,role=B")
    for r in (8, 11, 15):
        assert tuple(w.elements.coords[r, 0]) == (64 + r - 8, 64)
        assert colour(img, at.operand_cell(r, 0)) == \
            colour(img, at.image_cell(r - 8, 0, slot=1))
        assert colour(img, at.operand_cell(r, 0)) != colour(img, at.operand_cell(r - 8, 0))
    assert colour(img, at.operand_cell(16, 0)) == png.OUTSIDE_FILL


# Pixels of PNGs drawn before the MMA's view existed (sha256 of the RGB
# bytes), with the Pillow and FreeType that drew them: text is drawn by the
# font, so other versions draw other pixels.
BEFORE = ("13.0.0", "2.14.3", {
    "auto": "50fd4afc7a156b899d4d227f0fd259080ff85b488031ff67c05818c9dad5c610",
    "row": "ebfd861275077af2343449ff79e61538217f0a816e5e684ed08a18b6e238932b",
    "chunk3": "b848ea67508dabf1a2f4b26f22940f4984dc521a6a614f78d9d46de2191990d7",
})


def test_without_wgmma_the_png_is_unchanged(tmp_path):
    ex = explain(load_text(coords=(0, 0)))
    plain, plain_at = draw(tmp_path, ex, "plain.png")
    # The picture is the image's alone, as wide as it always was.
    assert plain_at.operand_x is None and plain.size == (730, plain_at.legend_y + 52)
    with pytest.raises(TileError, match="no MMA view"):
        plain_at.operand_cell(0, 0)
    if (Image.__version__, features.version("freetype2")) == BEFORE[:2]:
        digests = {"auto": plain,
                   "row": draw(tmp_path, ex, "row.png", color_by="row")[0],
                   "chunk3": draw(tmp_path, ex, "c.png", color_by="chunk", max_lines=3)[0]}
        for name, img in digests.items():
            assert hashlib.sha256(img.tobytes()).hexdigest() == BEFORE[2][name], name
    # With the MMA's view, the image part is drawn as it was, only lower
    # (the title's added lines) and with the view to its right.
    mma, mma_at = draw(tmp_path, ex, wgmma="sbo=1024")
    drop = mma_at.slot_tops[0] - plain_at.slot_tops[0]
    assert drop >= 3 * 14 and mma_at.operand_x > 730
    top, bottom = plain_at.slot_tops[0] - 34, plain_at.legend_y
    assert mma.crop((0, top + drop, 730, bottom + drop)).tobytes() == \
        plain.crop((0, top, 730, bottom)).tobytes()


def test_the_cli_draws_what_the_api_draws(tmp_path, capsys):
    text = load_text(coords=(64, 0))
    src = tmp_path / "copy.mlir"
    src.write_text(text)
    spec = "role=A,major=K,sbo=1024,step=1"
    out = tmp_path / "cli.png"
    assert cli.main(["explain", str(src), "--png", str(out), "--wgmma", spec]) == 0
    printed = capsys.readouterr().out
    assert "wgmma view  A operand" in printed and printed.endswith(f"wrote {out}\n")
    render_png(explain(text), tmp_path / "api.png", wgmma=spec)
    assert out.read_bytes() == (tmp_path / "api.png").read_bytes()
    render_png(explain(text), tmp_path / "plain.png")
    assert out.read_bytes() != (tmp_path / "plain.png").read_bytes()
    # A WgmmaView given instead of its SPEC draws the same.
    ex = explain(text)
    render_png(ex, tmp_path / "view.png", wgmma=wgmma_view(ex, spec))
    assert (tmp_path / "view.png").read_bytes() == out.read_bytes()


@pytest.mark.parametrize("spec,rule,named", [
    ("sbo=1024,bogus=1", "explain-input", "'bogus=1'"),
    ("lbo=16", "explain-input", "sbo="),
    ("sbo=1000", "wgmma-descriptor-field", "sbo 1000"),
    ("sbo=1024,role=B,n=12", "wgmma-shape", "12"),
])
def test_a_bad_spec_is_the_text_views_error(tmp_path, capsys, spec, rule, named):
    text = load_text()
    src = tmp_path / "copy.mlir"
    src.write_text(text)
    out = tmp_path / "x.png"
    assert cli.main(["explain", str(src), "--png", str(out), "--wgmma", spec]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert f"error: [{rule}]" in captured.err and named in captured.err
    assert not out.exists()
    ex = explain(text)
    with pytest.raises(TileError) as from_text:
        wgmma_view(ex, spec)
    with pytest.raises(TileError) as from_png:
        render_png(ex, out, wgmma=spec)
    assert (from_png.value.rule, str(from_png.value)) == \
        (from_text.value.rule, str(from_text.value)) == (rule, str(from_text.value))
    assert not out.exists()


def test_a_spec_that_is_no_spec_is_named(tmp_path):
    with pytest.raises(TileError) as raised:
        render_png(explain(load_text()), tmp_path / "x.png", wgmma=5)
    assert raised.value.rule == "explain-input" and "key=value" in str(raised.value)
    assert not (tmp_path / "x.png").exists()

