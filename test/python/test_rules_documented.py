"""Every rule is named once (dialect/include/Tile/Contract/Rules.def), documented
(docs/rules.md) and covered by a test, and every rule name raised anywhere
in the C++ or Python sources is one of them."""

import re
import runpy
from pathlib import Path

from tile_mlir import contract

ROOT = Path(__file__).resolve().parents[2]
RULES_DEF = ROOT / "dialect" / "include" / "Tile" / "Contract" / "Rules.def"
gen = runpy.run_path(str(ROOT / "scripts" / "gen_rules_doc.py"))

_ENTRY = re.compile(
    r'^TILE_(RULE|HOST_RULE|RUNTIME_RULE|PYTHON_RULE|DEVICE_RULE)\((\w+),\s*"([a-z0-9-]+)"',
    re.M)
_DYNAMIC = re.compile(r'^TILE_DYNAMIC_CHECK\((\w+),', re.M)
_DEVICE_CHECK = re.compile(r'^TILE_DEVICE_CHECK\((\w+),', re.M)
_NAME = r"[a-z0-9]+(?:-[a-z0-9]+)+"

# Names the emulator gives to the limits of its model (forms it refuses to
# model because no documentation or measurement says what they do): not
# rules of the contract, and nothing else raises them.
EMULATOR_MODEL_LIMITS = {
    "im2col-n-stride": "an element stride along N (undocumented)",
    "im2col-start": "an im2col start outside the bounding box",
}


def entries():
    """[(macro, Id, name)] of Rules.def, in order."""
    return _ENTRY.findall(RULES_DEF.read_text())


def rule_ids() -> dict:
    return {ident: name for _, ident, name in entries()}


def cpp_sources():
    for pattern in ("dialect/lib/**/*.cpp", "passes/lib/**/*.cpp", "tools/**/*.cpp",
                    "dialect/include/Tile/**/*.h", "passes/include/Tile/**/*.h"):
        yield from ROOT.glob(pattern)


def python_sources():
    for pattern in ("python/tile_mlir/**/*.py", "scripts/*.py", "bench/*.py"):
        yield from ROOT.glob(pattern)


def _test_sources():
    return sorted((ROOT / "test").rglob("*.py"))


def raised() -> dict:
    """Rule name -> the source files that raise it."""
    ids = rule_ids()
    found: dict = {}

    def add(name, path):
        found.setdefault(name, set()).add(str(path.relative_to(ROOT)))

    for path in cpp_sources():
        text = path.read_text()
        for ident in set(re.findall(r"\bRule::(\w+)", text)) - {"ID"}:  # X-macros
            add(ids.get(ident, f"<Rule::{ident}>"), path)
        # A rule spelled as a string literal rather than through ruleName().
        for name in re.findall(rf'"[^"\n]*\[({_NAME})\]', text):
            add(name, path)
    patterns = [
        rf'(?:TileError|TileRuntimeError|TileVerifyError|TileUsageError|ExplainError|'
        rf'\bcls)\(\s*"({_NAME})"',
        rf'super\(\).__init__\(\s*"({_NAME})"',   # a TileError subclass's own rule
        rf'ValueError\(\s*f?"({_NAME}): ',   # the emulator's "rule: message"
        rf'\bcontract\.rule\(\s*"({_NAME})"\)',
    ]
    for path in python_sources():
        text = path.read_text()
        for pattern in patterns:
            for name in re.findall(pattern, text):
                add(name, path)
    return found


def test_rules_doc_is_current():
    assert (ROOT / "docs" / "rules.md").read_text() == gen["render"](), \
        "run scripts/gen_rules_doc.py"


def test_every_rule_is_named_once():
    names = [name for _, _, name in entries()]
    assert len(names) == len(set(names)), "a rule name is defined twice"
    verify_ids = {ident for macro, ident, _ in entries() if macro == "RULE"}
    assert set(_DYNAMIC.findall(RULES_DEF.read_text())) <= verify_ids
    assert set(_DEVICE_CHECK.findall(RULES_DEF.read_text())) <= verify_ids
    # The generated contract holds exactly these rules, in this order.
    assert list(contract.RULES) == names
    kinds = {"RULE": "verify", "HOST_RULE": "host", "RUNTIME_RULE": "runtime",
             "PYTHON_RULE": "python", "DEVICE_RULE": "device"}
    assert [contract.RULES[n].kind for n in names] == \
        [kinds[macro] for macro, _, _ in entries()]


def test_every_raised_rule_is_defined():
    found = raised()
    unknown = {name: sorted(where) for name, where in found.items()
               if name not in contract.RULES and name not in EMULATOR_MODEL_LIMITS}
    assert unknown == {}
    # The model limits stay limits: neither rules nor stale entries.
    assert not set(EMULATOR_MODEL_LIMITS) & set(contract.RULES)
    assert set(EMULATOR_MODEL_LIMITS) <= set(found)


def test_every_rule_is_raised_somewhere():
    # No rule is only a name: some check raises each one.
    assert sorted(set(contract.RULES) - set(raised())) == []


def test_passes_name_rules_through_rules_def():
    # Diagnostics of the passes spell rule names with ruleName(Rule::X).
    for path in ROOT.glob("passes/lib/**/*.cpp"):
        literals = re.findall(rf'"[^"\n]*\[({_NAME})\]', path.read_text())
        assert literals == [], f"{path.name}: use ruleName(Rule::...) for {literals}"


def test_every_rule_is_documented():
    doc = (ROOT / "docs" / "rules.md").read_text()
    documented = set(re.findall(rf"^\| `({_NAME})` \|", doc, re.M))
    assert sorted(set(contract.RULES) - documented) == []
    assert sorted(set(raised()) - documented - set(EMULATOR_MODEL_LIMITS)) == []


def lit_expected_errors() -> set:
    names = set()
    for path in (ROOT / "test" / "lit").rglob("*.mlir"):
        names |= set(re.findall(rf"expected-error[^{{\n]*\{{\{{[^}}\n]*?\[({_NAME})\]",
                                path.read_text()))
    return names


def python_assertions() -> set:
    """Rule names a test under test/ asserts: `.rule == "name"`,
    `== "name"` on a rule, `match=` naming it, or a parametrized case (the
    name as a string literal in a test that checks `.rule`)."""
    names = set()
    for path in _test_sources():
        if path.name == "test_rules_documented.py":
            continue
        text = path.read_text()
        names |= set(re.findall(rf'==\s*"({_NAME})"', text))
        names |= set(re.findall(rf'match=r?"[^"\n]*?({_NAME})', text))
        if ".rule" in text:
            names |= set(re.findall(rf'"({_NAME})"', text))
    return names


def test_every_rule_is_covered():
    covered = lit_expected_errors() | python_assertions()
    kinds = ("verify", "host", "runtime", "python", "device")
    missing = {kind: [n for n, r in contract.RULES.items()
                      if r.kind == kind and n not in covered] for kind in kinds}
    assert missing == {kind: [] for kind in kinds}


def invalid_cases() -> list:
    """The invalid-*.mlir files: each verifier rule's failing cases, one file
    per family of rules."""
    paths = sorted((ROOT / "test" / "lit" / "Dialect" / "Tile").glob("invalid-*.mlir"))
    assert paths, "no invalid-*.mlir files"
    return paths


def test_every_static_rule_has_an_expected_error():
    invalid = "".join(p.read_text() for p in invalid_cases())
    tested = set(re.findall(r"expected-error[^{]*\{\{\[([a-z0-9-]+)\]", invalid))
    static = {r.name for r in gen["rules"]("verify")}
    assert static, "no rules read from the contract"
    assert sorted(static - tested) == []


def test_every_rule_in_the_verifier_is_listed():
    # Rule::X used in the dialect must be a verifier rule of Rules.def, and
    # every verifier rule is used there.
    sources = "".join(p.read_text() for p in (ROOT / "dialect" / "lib").rglob("*.cpp"))
    used = set(re.findall(r"Rule::(\w+)", sources)) - {"ID"}  # the X-macros
    ids = {ident for macro, ident, _ in entries() if macro == "RULE"}
    assert sorted(ids - used) == []
    assert sorted(used - set(rule_ids())) == []
