"""Prints the development requirements named in pyproject.toml.

`--check` exits non-zero when one of them is not installed at that version.
"""

import sys
from importlib import metadata
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python 3.10: pip vendors a TOML reader
    from pip._vendor import tomli as tomllib
try:
    from packaging.requirements import Requirement
except ImportError:  # a fresh venv has pip's vendored copy only
    from pip._vendor.packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def requirements() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    reqs = list(data["build-system"]["requires"])
    reqs += data["project"]["dependencies"]
    reqs += data["project"]["optional-dependencies"]["test"]
    return reqs


def missing(reqs: list[str]) -> list[str]:
    out = []
    for text in reqs:
        req = Requirement(text)
        try:
            version = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            out.append(text)
            continue
        if req.specifier and version not in req.specifier:
            out.append(text)
    return out


if __name__ == "__main__":
    reqs = requirements()
    if "--check" in sys.argv:
        gone = missing(reqs)
        print("\n".join(gone))
        sys.exit(1 if gone else 0)
    print(" ".join(reqs))
