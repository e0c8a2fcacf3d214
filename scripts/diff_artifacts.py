"""Compares two trees of built artifacts: same PTX, same cubins, same meaning.

    python scripts/diff_artifacts.py OLD NEW

Proves that a change to the compiler or the builders changed nothing they
produce. For every artifact folder (one holding manifest.json) in either
tree: kernel.ptx and kernel.cubin must be byte-identical, and the manifest
must mean the same: every key of the old manifest is present in the new one
with the same value (tensor-map entries compared one by one), so a manifest
may gain fields but never lose or change one. Every other JSON file (index,
case and host-encode records) must be equal, except the builders' compile
timings (`compile_s`), which are measurements. A folder only NEW has (new
artifacts, e.g. the debug builds under debug/) is an addition: listed, not
a difference. Exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


# Measurements recorded beside the artifacts, not part of them.
_TIMINGS = ("compile_s",)


def _without_timings(value):
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k not in _TIMINGS}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


def _covers(old, new, where: str, out: list[str]) -> None:
    """Records in `out` where `new` does not keep everything `old` says."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in old.items():
            if key not in new:
                out.append(f"{where}.{key}: missing")
            else:
                _covers(value, new[key], f"{where}.{key}", out)
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            out.append(f"{where}: {len(old)} entries, now {len(new)}")
        for i, (a, b) in enumerate(zip(old, new)):
            _covers(a, b, f"{where}[{i}]", out)
    elif old != new:
        out.append(f"{where}: {old!r} -> {new!r}")


def _files(root: Path) -> set[Path]:
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file()}


def added_folders(old: Path, new: Path) -> list[Path]:
    """The topmost folders of NEW that OLD lacks."""
    found = []
    for path in sorted(p for p in new.rglob("*") if p.is_dir()):
        rel = path.relative_to(new)
        if not (old / rel).is_dir() and not any(f in rel.parents for f in found):
            found.append(rel)
    return found


def compare(old: Path, new: Path) -> tuple[dict[str, int], list[str]]:
    old_files, new_files = _files(old), _files(new)
    counts = {"ptx": 0, "cubin": 0, "manifest": 0, "json": 0}
    added = added_folders(old, new)
    problems = [f"only in {old}: {p}" for p in sorted(old_files - new_files)]
    problems += [f"only in {new}: {p}" for p in sorted(new_files - old_files)
                 if not any(f in p.parents for f in added)]
    for rel in sorted(old_files & new_files):
        a, b = old / rel, new / rel
        if rel.suffix in (".ptx", ".cubin"):
            counts[rel.suffix[1:]] += 1
            if a.read_bytes() != b.read_bytes():
                problems.append(f"{rel}: differs")
        elif rel.name == "manifest.json":
            counts["manifest"] += 1
            _covers(json.loads(a.read_text()), json.loads(b.read_text()), str(rel),
                    problems)
        elif rel.suffix == ".json":
            counts["json"] += 1
            if (_without_timings(json.loads(a.read_text()))
                    != _without_timings(json.loads(b.read_text()))):
                problems.append(f"{rel}: differs")
    return counts, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    args = parser.parse_args()
    counts, problems = compare(args.old, args.new)
    for line in problems:
        print(line)
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    verdict = "identical" if not problems else f"{len(problems)} differences"
    added = added_folders(args.old, args.new)
    if added:
        verdict += f"; added folders (not compared): {', '.join(map(str, added))}"
    print(f"compared {summary}: {verdict}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
