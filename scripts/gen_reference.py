"""Writes the API reference (HTML) from the docstrings, with pdoc.

    python scripts/gen_reference.py                 # -> build/docs/reference/index.html
    python scripts/gen_reference.py --out DIR

Run with the built package importable (build/python_packages on PYTHONPATH,
as scripts/run-tests.sh sets it; the builder and the kernels need MLIR).
The reference is generated, never committed. It documents the modules in
MODULES, each by its public face: the names in its `__all__`, else the
public names it defines; a module's submodules are not walked (their
public names are re-exported where users reach them).
test/python/project/test_docstrings.py checks that each of those names has
a docstring, and runs this script.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "build" / "docs" / "reference"

# The user-facing modules: the builder (tile_mlir.kernel re-exports
# tile_mlir.builder's __all__), the copy and tensor-map ops, the compiler and
# what it returns, the runtime, explain, errors and the kernel library.
MODULES = [
    "tile_mlir.kernel", "tile_mlir.tma", "tile_mlir.tensormaps", "tile_mlir.compiler",
    "tile_mlir.artifact", "tile_mlir.runtime", "tile_mlir.explain", "tile_mlir.errors",
    "tile_mlir.kernels",
]


def load_modules() -> list:
    """pdoc's model of each module in MODULES (imports them)."""
    import pdoc.doc

    kernels = importlib.import_module("tile_mlir.kernels")
    # Its builders are imported on first use; pdoc reads the module's
    # namespace, so resolve every exported name first.
    for name in kernels.__all__:
        getattr(kernels, name)
    return [pdoc.doc.Module.from_name(name) for name in MODULES]


def generate(out: Path) -> Path:
    """Writes one page per module, index.html and search.js under `out`;
    returns the index's path."""
    import pdoc.render

    pdoc.render.configure(docformat="markdown", show_source=False,
                          footer_text="tile-mlir reference")
    modules = {module.fullname: module for module in load_modules()}
    out.mkdir(parents=True, exist_ok=True)
    for module in modules.values():
        page = out / f"{module.fullname.replace('.', '/')}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(pdoc.render.html_module(module, modules))
    index = out / "index.html"
    index.write_text(pdoc.render.html_index(modules))
    (out / "search.js").write_text(pdoc.render.search_index(modules))
    return index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"output folder (default: {DEFAULT_OUT.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    try:
        import pdoc  # noqa: F401
    except ImportError:
        print("gen_reference: pdoc is not installed (pip install -e '.[docs]', "
              "or the `test` extra)", file=sys.stderr)
        return 2
    # pdoc warns (and goes on) where the reference would be wrong: a name
    # in __all__ that does not resolve, a module that does not import.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        index = generate(args.out)
    problems = [w for w in caught if issubclass(w.category, UserWarning)]
    for w in problems:
        print(f"gen_reference: {w.message}", file=sys.stderr)
    if problems:
        return 1
    print(index)
    return 0


if __name__ == "__main__":
    sys.exit(main())
