"""Which of a bench/layout.py row's first-pass timings run again in its
interleaved rounds (torch-free, so the CPU tests check it).

Each side's fastest exact candidates go on, and our default kernel always
does: the table then gives what `permute()`, `pad()` and `unfold()` run
as well as the fastest variant, both from the same rounds."""

from __future__ import annotations

FINALISTS = 2   # per side (torch: its one op)


def finalists(results: list[dict], timed: set, default: str | None) -> list[tuple]:
    """(who, name) of the candidates for the rounds, fastest first per side.

    `results`: the first pass, dicts with who, name, tbps and exact;
    `timed`: the (who, name) whose function can run again; `default`: the
    name of our default kernel, added after our fastest when it is exact
    and timed but not among them."""
    picks = []
    for who in ("torch", "triton", "ours"):
        runs = sorted((r for r in results if r["who"] == who and r["exact"]
                       and (who, r["name"]) in timed), key=lambda r: -r["tbps"])
        names = [r["name"] for r in runs]
        chosen = names[:1 if who == "torch" else FINALISTS]
        if who == "ours" and default in names and default not in chosen:
            chosen.append(default)
        picks += [(who, n) for n in chosen]
    return picks
