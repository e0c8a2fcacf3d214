"""pytest imports test modules by basename (rootdir-relative, no packages):
two test files of one name stop the whole collection, so every test
module under test/ has its own."""

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_every_test_module_has_its_own_basename():
    seen = defaultdict(list)
    for path in (ROOT / "test").rglob("test_*.py"):
        seen[path.name].append(str(path.relative_to(ROOT)))
    shared = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not shared, shared
