"""docs/contract.md keeps up with the op it describes.

It names every operand and attribute of `tile.tma_copy` (TileOps.td) and
every enumerator of its enums (TileEnums.td); every rule name it mentions
is a rule of Rules.def (the rule list itself lives in the generated
docs/rules.md, which it links); every pass it mentions exists.
Read from the sources as text: no build needed.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
IR = ROOT / "dialect" / "include" / "Tile" / "IR"


def _tma_copy_arguments():
    td = (IR / "TileOps.td").read_text()
    op = td[td.index("def Tile_TmaCopyOp"):]
    args = op[op.index("let arguments = (ins"):]
    args = args[:args.index(");")]
    return re.findall(r":\$(\w+)", args)


def _enumerators():
    td = (IR / "TileEnums.td").read_text()
    cases = re.findall(r'I32EnumAttrCase<"(\w+)",\s*\d+(?:,\s*"(\w+)")?>', td)
    return [spelled or name for name, spelled in cases]


def _rule_names():
    rules = (ROOT / "dialect" / "include" / "Tile" / "Contract" / "Rules.def").read_text()
    return set(re.findall(r'^TILE_\w*RULE\(\w+,\s*"([^"]+)"', rules, re.M))


def _pass_names():
    td = (ROOT / "passes" / "include" / "Tile" / "Passes.td").read_text()
    return set(re.findall(r'Pass<"([\w-]+)"', td))


def _backticked():
    return set(re.findall(r"`([^`\n]+)`", CONTRACT))


def test_every_operand_and_attribute_is_described():
    args = _tma_copy_arguments()
    assert len(args) > 20, "TileOps.td's argument list was not found"
    words = set(re.findall(r"[\w]+", CONTRACT))
    missing = [a for a in args if a not in words]
    assert not missing, f"docs/contract.md does not describe: {missing}"


def test_every_enumerator_is_named():
    names = _enumerators()
    assert "im2col_no_offs" in names and "xor" in names
    missing = [n for n in names if not re.search(rf"`{re.escape(n)}`", CONTRACT)]
    assert not missing, f"docs/contract.md does not name: {missing}"


def test_named_rules_and_passes_exist():
    rules, passes = _rule_names(), _pass_names()
    assert len(rules) > 100
    unknown = sorted(t for t in _backticked()
                     if re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", t)
                     and t not in rules and t not in passes)
    assert not unknown, f"docs/contract.md names unknown rules or passes: {unknown}"


def test_links_the_rule_list_and_the_decisions():
    assert "(rules.md)" in CONTRACT and "(decisions.md)" in CONTRACT
    decisions = (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8")
    for section in ("Contract: measured behaviour that became rules",
                    "Contract: where the documentation was wrong or silent"):
        assert f"## {section}" in decisions, section
        assert section.replace(" ", "") in CONTRACT.replace(" ", "").replace("\n", "")
