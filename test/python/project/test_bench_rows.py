"""bench/row_filter.py: the layout table rows' names, and which rows
`bench/layout.py --rows` runs."""

import importlib.util
from pathlib import Path

import pytest

spec = importlib.util.spec_from_file_location(
    "row_filter", Path(__file__).resolve().parents[3] / "bench" / "row_filter.py")
R = importlib.util.module_from_spec(spec)
spec.loader.exec_module(R)

NAMES = ["transpose 2-D 32768x32768", "permute (0, 2, 1) 64x4096x4096",
         "permute (4, 3, 2, 1, 0) 8x8x16x1024x1024", "F.pad (1, 1, 1, 1) NCHW 64x256x256x256",
         "unfold 3x3 pad 1 NCHW 32x64x128x128"]


@pytest.mark.parametrize("spec,picked", [
    (None, NAMES),
    ("transpose,F.pad", [NAMES[0], NAMES[3]]),
    ("pad", [NAMES[3], NAMES[4]]),   # a word, not a whole name
    ("permute (4, 3", [NAMES[2]]),
    ("transpose 2-D,permute (4, 3,F.pad (1", [NAMES[0], NAMES[2], NAMES[3]]),
    (" unfold ", [NAMES[4]]),
])
def test_rows_are_picked_by_words(spec, picked):
    want = R.row_filter(spec)
    assert [n for n in NAMES if want(n)] == picked


@pytest.mark.parametrize("spec", ["", "a,,b", "pad,"])
def test_an_empty_word_is_refused(spec):
    with pytest.raises(ValueError, match=r"--rows .*: an empty word"):
        R.row_filter(spec)


@pytest.mark.parametrize("make,name", [
    (lambda: R.permute_row_name((32768, 32768), (1, 0)), NAMES[0]),
    (lambda: R.permute_row_name((64, 4096, 4096), [0, 2, 1]), NAMES[1]),
    (lambda: R.permute_row_name((8, 8, 16, 1024, 1024), (4, 3, 2, 1, 0)), NAMES[2]),
    (lambda: R.pad_row_name(((64, 256, 256, 256), (1, 1, 1, 1))), NAMES[3]),
])
def test_row_names(make, name):
    assert make() == name
