"""`--rows` of bench/layout.py (and bench/layout_profile.py): the table
rows' names, and which rows to run.

A spec is comma-separated words; a row runs where its name holds one of
them. Row names hold ", " (a permutation's dims), so a comma followed by a
space belongs to the word: `--rows "permute (4, 3,F.pad (1"` names two."""

from __future__ import annotations

import re
from typing import Callable


def words(spec: str | None) -> list[str] | None:
    """The words of a spec; None (every row) for no spec."""
    if spec is None:
        return None
    out = [w.strip() for w in re.split(r",(?! )", spec)]
    if not all(out):
        raise ValueError(f"--rows {spec!r}: an empty word (two commas, or one at an end)")
    return out


def row_filter(spec: str | None) -> Callable[[str], bool]:
    """A predicate on row names: whether the row runs."""
    wanted = words(spec)
    return lambda name: wanted is None or any(w in name for w in wanted)


def permute_row_name(shape, dims) -> str:
    """A permute row's name (a 2-D shape is the transpose row)."""
    kind = "transpose 2-D " if len(shape) == 2 else f"permute {tuple(dims)} "
    return kind + "x".join(map(str, shape))


def pad_row_name(case) -> str:
    """A pad row's name; case is (NCHW shape, pad)."""
    shape, pad_ = case
    return f"F.pad {tuple(pad_)} NCHW " + "x".join(map(str, shape))
