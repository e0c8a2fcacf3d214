"""The layout kernels' CPU side imports no MLIR: the models
(kernels/layout/model.py), the tile geometry they share with the builders
(kernels/layout/geometry/), the host planning (kernels/layout/plan/) and
the ops import with the mlir bindings blocked, so the models run where
the bindings are not installed. The geometry is hoisted out of functions
too: no import hides in a function of the model, and the builders and the
geometry import every tile_mlir or mlir module at their top."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

LAYOUT = Path(__file__).resolve().parents[4] / "python" / "tile_mlir" / "kernels" / "layout"

# A finder that refuses mlir and its submodules, ahead of every other.
BLOCK_MLIR = """
import importlib.abc, sys

class NoMlir(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "mlir" or name.startswith("mlir."):
            raise ImportError(f"{name} is blocked")
        return None

sys.meta_path.insert(0, NoMlir())
"""

IMPORTS = BLOCK_MLIR + """
import importlib, pkgutil

def submodules(package):
    pkg = importlib.import_module(package)
    return [package] + [f"{package}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)]

names = (["tile_mlir.kernels.layout.model", "tile_mlir.kernels",
          "tile_mlir.kernels.layout.permute", "tile_mlir.kernels.layout.pad",
          "tile_mlir.kernels.layout.unfold"]
         + submodules("tile_mlir.kernels.layout.geometry")
         + submodules("tile_mlir.kernels.layout.plan"))
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m == "mlir" or m.startswith("mlir."))
assert not loaded, loaded
print(len(names))
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_models_geometry_plans_and_ops_import_without_mlir():
    done = _run(IMPORTS)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 10   # the packages' modules were found


def test_the_block_holds():
    # The builders need MLIR: with the block they must fail to import, or the
    # test above proves nothing.
    done = _run(BLOCK_MLIR + "import tile_mlir.kernels.layout.builders.permute\n")
    assert done.returncode != 0 and "mlir is blocked" in done.stderr, done.stderr


def _imports_in_functions(path: Path) -> list:
    """(line, module) of every import statement inside a function."""
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            if in_function and isinstance(child, ast.Import):
                found.extend((child.lineno, a.name) for a in child.names)
            elif in_function and isinstance(child, ast.ImportFrom):
                found.append((child.lineno, "." * child.level + (child.module or "")))
            visit(child, inner)

    visit(ast.parse(path.read_text()), False)
    return found


def test_the_model_imports_at_its_top():
    assert _imports_in_functions(LAYOUT / "model.py") == []


@pytest.mark.parametrize("path", sorted((LAYOUT / "builders").glob("*.py")) +
                         sorted((LAYOUT / "geometry").glob("*.py")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_builders_and_geometry_import_the_package_and_mlir_at_their_top(path):
    local = [(line, m) for line, m in _imports_in_functions(path)
             if m.startswith(".") or m.split(".")[0] in ("tile_mlir", "mlir")]
    assert local == [], local
