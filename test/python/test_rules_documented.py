"""Every named rule is documented and has an invalid-side lit test."""

import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
gen = runpy.run_path(str(ROOT / "scripts" / "gen_rules_doc.py"))


def test_rules_doc_is_current():
    assert (ROOT / "docs" / "rules.md").read_text() == gen["render"](), \
        "run scripts/gen_rules_doc.py"


def test_every_static_rule_has_an_expected_error():
    invalid = (ROOT / "test" / "lit" / "Dialect" / "Tile" / "invalid.mlir").read_text()
    tested = set(re.findall(r"expected-error[^{]*\{\{\[([a-z0-9-]+)\]", invalid))
    static = {name for kind, name, _ in gen["rules"]() if kind == "TILE_RULE"}
    assert static, "no rules parsed from Rules.def"
    assert sorted(static - tested) == []


def test_every_rule_in_the_verifier_is_listed():
    # Rule::X used in the C++ must be a Rules.def entry (and vice versa).
    sources = "".join(p.read_text() for p in (ROOT / "dialect" / "lib").glob("*.cpp"))
    used = set(re.findall(r"Rule::(\w+)", sources)) - {"ID"}  # the X-macro
    ids = set(re.findall(r"^TILE_RULE\((\w+),", (ROOT / "dialect" / "include" / "Tile" /
                                                 "Rules.def").read_text(), re.M))
    assert sorted(used - ids) == []
    assert sorted(ids - used) == []
