"""Writes docs/rules.md from the contract's rule table (Rules.def, read
through tile_mlir.contract: run with the built package on PYTHONPATH).

`--check` exits non-zero when docs/rules.md is out of date.
"""

import sys
from pathlib import Path

from tile_mlir import contract

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"


def rules(kind: str | None = None) -> list:
    """Rules.def's rules (contract.RuleInfo) of `kind`, in their order."""
    return [r for r in contract.RULES.values() if kind is None or r.kind == kind]


def _table(rows) -> list:
    return ["| rule | requires |", "| --- | --- |"] + [f"| `{n}` | {t} |" for n, t in rows]


def render() -> str:
    lines = [
        "# Rules of `tile.tma_copy`",
        "",
        "Generated from `dialect/include/Tile/Contract/Rules.def` by "
        "`scripts/gen_rules_doc.py`; do not edit by hand.",
        "",
        "Every diagnostic starts with the rule's name in brackets, then names the",
        "field, the value found and what the rule expects, e.g.",
        "`'tile.tma_copy' op [box-extent] box[1] = 300 is outside 1..256`.",
        "From Python the same rejection is a `TileVerifyError` whose `.rule` is the",
        "name (`TileRuntimeError` for the host and runtime rules). Each static rule",
        "has an `expected-error` case in `test/lit/Dialect/Tile/invalid-*.mlir` (one",
        "file per family of rules) and a valid neighbour in `valid.mlir`;",
        "`test/python/test_rules_documented.py` checks that every rule raised",
        "anywhere is listed here and tested.",
        "",
        "Every error the Python API raises for bad input is a",
        "`tile_mlir.errors.TileError` (a `ValueError`) with one of these names in",
        "`.rule`: `TileVerifyError` (the verifier, or a field `tma.apply` checks",
        "before building the op, by the verifier's rule), `TileRuntimeError` (the",
        "runtime), `TileUsageError` (also a `TypeError`: an argument the API does",
        "not take) and `compiler.CompileError` (also a `RuntimeError`: a failing",
        "compile stage).",
        "",
        "## Decided by the verifier",
        "",
    ]
    lines += _table((r.name, r.text) for r in rules("verify"))
    lines += [
        "",
        "## Decided at run time (before a tensor map is encoded)",
        "",
        "These depend on values the IR does not fix: the base address, dynamic",
        "sizes and strides, a shared buffer passed in as an argument. The host",
        "lowering and the Python runtime check them before calling",
        "`cuTensorMapEncode*` and fail with the same rule name.",
        "",
    ]
    lines += _table([(r.name, r.text) for r in rules("host")] +
                    [(r.name, r.dynamic) for r in rules("verify") if r.dynamic])
    lines += [
        "",
        "## Checked by the Python launcher",
        "",
    ]
    lines += _table((r.name, r.text) for r in rules("runtime"))
    lines += [
        "",
        "## Named by the Python API",
        "",
        "The builder's, `tma.apply`'s and `compile()`'s checks of their arguments",
        "(`TileUsageError`), and names for MLIR's own diagnostics, which carry no",
        "rule: an upstream verifier's rejection is a `TileVerifyError`",
        "[mlir-verifier] naming the op, text that does not parse a",
        "`TileUsageError` [mlir-syntax] with the parser's location.",
        "",
    ]
    lines += _table((r.name, r.text) for r in rules("python"))
    lines += [
        "",
        "## Checked on the device by debug builds",
        "",
        "A kernel compiled with `compile(..., debug=True)` (`tile-lower-tma{debug=true}`)",
        "bounds its mbarrier waits and checks these before each copy issues; a",
        "violation is recorded in the module's error buffer instead of hanging or",
        "trapping, and the runtime raises `TileRuntimeError` with the rule after the",
        "launch (docs/debug-mode.md). A release build checks none of them.",
        "",
    ]
    lines += _table([(r.name, r.text) for r in rules("device")] +
                    [(r.name, r.device) for r in rules("verify") if r.device])
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        sys.exit(0 if DOC.exists() and DOC.read_text() == text else 1)
    DOC.write_text(text)
