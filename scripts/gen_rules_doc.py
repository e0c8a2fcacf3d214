"""Writes docs/rules.md from dialect/include/Tile/Rules.def (the one list).

`--check` exits non-zero when docs/rules.md is out of date.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DEF = ROOT / "dialect" / "include" / "Tile" / "Rules.def"
DOC = ROOT / "docs" / "rules.md"
_ENTRY = re.compile(r'^(TILE_RULE|TILE_HOST_RULE|TILE_RUNTIME_RULE)\((\w+), "([a-z0-9-]+)", "(.*)"\)$')
_DYNAMIC = re.compile(r'^TILE_DYNAMIC_CHECK\((\w+), "(.*)"\)$')


def rules():
    """[(kind, name, text)] in the order of Rules.def."""
    out = []
    for line in RULES_DEF.read_text().splitlines():
        match = _ENTRY.match(line.strip())
        if match:
            out.append((match.group(1), match.group(3), match.group(4)))
    return out


def dynamic_checks():
    """[(name, text)]: verifier rules also checked on runtime values."""
    text = RULES_DEF.read_text()
    names = {m.group(2): m.group(3) for m in map(_ENTRY.match, text.splitlines()) if m}
    return [(names[m.group(1)], m.group(2))
            for m in map(_DYNAMIC.match, text.splitlines()) if m]


def render() -> str:
    static = [(n, t) for k, n, t in rules() if k == "TILE_RULE"]
    host = [(n, t) for k, n, t in rules() if k == "TILE_HOST_RULE"]
    host += dynamic_checks()
    runtime = [(n, t) for k, n, t in rules() if k == "TILE_RUNTIME_RULE"]
    lines = [
        "# Rules of `tile.tma_copy`",
        "",
        "Generated from `dialect/include/Tile/Rules.def` by "
        "`scripts/gen_rules_doc.py`; do not edit by hand.",
        "",
        "Every diagnostic starts with the rule's name in brackets, then names the",
        "field, the value found and what the rule expects, e.g.",
        "`'tile.tma_copy' op [box-extent] box[1] = 300 is outside 1..256`.",
        "From Python the same rejection is a `TileVerifyError` whose `.rule` is the",
        "name. Each static rule has an `expected-error` case in",
        "`test/lit/Dialect/Tile/invalid.mlir` and a valid neighbour in",
        "`valid.mlir`.",
        "",
        "## Decided by the verifier",
        "",
        "| rule | requires |",
        "| --- | --- |",
    ]
    lines += [f"| `{n}` | {t} |" for n, t in static]
    lines += [
        "",
        "## Decided at run time (before a tensor map is encoded)",
        "",
        "These depend on values the IR does not fix: the base address, dynamic",
        "sizes and strides, a shared buffer passed in as an argument. The host",
        "lowering and the Python runtime check them before calling",
        "`cuTensorMapEncode*` and fail with the same rule name.",
        "",
        "| rule | requires |",
        "| --- | --- |",
    ]
    lines += [f"| `{n}` | {t} |" for n, t in host]
    lines += [
        "",
        "## Checked by the Python launcher",
        "",
        "| rule | requires |",
        "| --- | --- |",
    ]
    lines += [f"| `{n}` | {t} |" for n, t in runtime]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        sys.exit(0 if DOC.exists() and DOC.read_text() == text else 1)
    DOC.write_text(text)
