"""Every repository path the documentation names exists.

The Markdown files (README.md, docs/, ...) are checked for
* relative links, `[text](path)`, resolved from the linking file's folder;
* paths that start with a top-level folder of the repository
  (`docs/rules.md`, dialect/include/Tile/IR/TileOps.td, `scripts/...`),
  backticked or not, resolved from the repository root.
Source comments name paths the same way; they are checked by the second
rule too. A glob (`bench/*.py`) is checked for at least one match.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Folders the build, the virtual environment and tools make at the root:
# never part of the repository, so never a documented path's first part.
_GENERATED = {"build", "out"}
_SKIP_DIRS = {"__pycache__", "build"}


def _ignored_roots():
    names = set(_GENERATED)
    ignore = ROOT / ".gitignore"
    if ignore.exists():
        for line in ignore.read_text().splitlines():
            line = line.strip()
            if line.startswith("/") and line.endswith("/"):
                names.add(line.strip("/"))
    return names


def top_level_folders():
    ignored = _ignored_roots()
    return sorted(p.name for p in ROOT.iterdir()
                  if p.is_dir() and not p.name.startswith(".")
                  and p.name not in ignored)


def _walk(suffixes):
    folders = [ROOT / name for name in top_level_folders()]
    found = [p for p in ROOT.iterdir() if p.is_file() and p.suffix in suffixes]
    for folder in folders:
        for path in folder.rglob("*"):
            rel = path.relative_to(ROOT).parts
            if any(part in _SKIP_DIRS or part.startswith(".") for part in rel):
                continue
            if path.is_file() and path.suffix in suffixes:
                found.append(path)
    return sorted(found)


def markdown_files():
    return _walk({".md"})


def source_files():
    return _walk({".py", ".cpp", ".h", ".td", ".def", ".sh", ".txt",
                  ".cmake", ".toml", ".mlir"})


_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _path_pattern():
    tops = "|".join(re.escape(t) for t in top_level_folders())
    # A path starts at a word boundary that is not inside another path or a
    # URL (no letter, '.', '/' or '-' before it) and runs over path
    # characters; trailing punctuation of the sentence is not part of it.
    return re.compile(r"(?<![\w./\-])((?:%s)/[\w.*/\-]*[\w*/])" % tops)


def named_paths(text):
    """Paths starting with a top-level folder, in the order they appear."""
    return [m.group(1) for m in _path_pattern().finditer(text)]


def _exists(rel):
    if "*" in rel:
        return any(ROOT.glob(rel))
    return (ROOT / rel).exists()


def _rel(path):
    return str(path.relative_to(ROOT))


def test_top_level_folders_found():
    tops = top_level_folders()
    for name in ("docs", "dialect", "python", "scripts", "test"):
        assert name in tops
    assert "build" not in tops


def test_contract_and_license_exist():
    # README and the code comments speak of "the contract"; it is this file.
    assert (ROOT / "docs" / "contract.md").is_file()
    assert "Apache License" in (ROOT / "LICENSE").read_text()


def test_path_pattern():
    text = ("see `docs/rules.md`, dialect/include/Tile/IR/TileOps.td. "
            "and (scripts/main_job.py); not https://x.org/docs/a.md "
            "nor build/python_packages nor mlir/python/x")
    assert named_paths(text) == ["docs/rules.md",
                                 "dialect/include/Tile/IR/TileOps.td",
                                 "scripts/main_job.py"]


@pytest.mark.parametrize("md", markdown_files(), ids=_rel)
def test_markdown_links_resolve(md):
    broken = []
    for target in _LINK.findall(md.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL or an anchor in the same file
        path = target.split("#", 1)[0]
        if path and not (md.parent / path).exists():
            broken.append(target)
    assert not broken, f"{_rel(md)} links to missing files: {broken}"


@pytest.mark.parametrize("md", markdown_files(), ids=_rel)
def test_markdown_paths_exist(md):
    missing = sorted({p for p in named_paths(md.read_text(encoding="utf-8"))
                      if not _exists(p)})
    assert not missing, f"{_rel(md)} names missing paths: {missing}"


def test_source_comment_paths_exist():
    missing = {}
    for src in source_files():
        try:
            text = src.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for p in named_paths(text):
            if not _exists(p):
                missing.setdefault(_rel(src), set()).add(p)
    assert not missing, f"paths named in sources do not exist: {missing}"
