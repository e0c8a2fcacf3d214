"""The package's import graph, read from the source tree (python/tile_mlir)
with `ast`: every import counts, those inside functions too, so a circle
cannot hide behind a function-local import.

- (a) no cycle among modules;
- (b) no cycle among packages, level by level (see `package_cycles`);
- (c) nothing outside tile_mlir.testing imports tile_mlir.testing;
- (d) every function-local import of a tile_mlir module is in DEFERRED with
  its reason (the module it imports needs an optional dependency, ...);
- (e) every importlib.import_module whose module is not a constant (so no
  edge above can name it) is in DYNAMIC with its reason.

How an import statement maps to edges (module -> module):
- `import a.b.c` and `from a.b import c` (c a module) import a.b.c;
  `from a.b import name` (name not a module) imports a.b (its __init__);
- `from . import x` imports the submodule x, or the own package's __init__
  where x is a name it defines;
- an import also runs the __init__ of each package on the way that the
  importer is not inside (cache.py's `from .runtime.driver import f` runs
  runtime/__init__.py), so that is an edge too;
- `importlib.import_module("tile_mlir.x")` with a constant name counts.
"""

from __future__ import annotations

import ast
from collections import defaultdict, deque
from dataclasses import dataclass
from pathlib import Path


ROOT = Path(__file__).resolve().parents[3] / "python"
PACKAGE = "tile_mlir"

# Modules the build generates next to the sources (python/CMakeLists.txt,
# the runtime's C extension): imported, never parsed here. None imports
# another tile_mlir module.
GENERATED = {
    "tile_mlir._contract",               # contract tables, from dialect/include/Tile/Contract
    "tile_mlir._rule_examples",          # the rule examples `tile-mlir rules` prints
    "tile_mlir.dialects._tile_ops_gen",  # the dialect's op classes (mlir-tblgen)
    "tile_mlir.runtime._launch",         # the C launch path (runtime/_launch.c)
}
# Generated, and left out even where a copy sits in the source tree.
SKIPPED_FILES = {Path("tile_mlir/dialects/_tile_ops_gen.py")}

# Function-local imports of tile_mlir modules: (importer, function, imported)
# -> why the import waits for the call. A new one needs an entry here; an
# entry no import matches any more fails too.
MLIR = ("it imports the mlir bindings, an optional dependency: the importer "
        "runs without them")
CLI = ("the CLI runs wherever the package does (GPU machines without MLIR "
       "included) and loads a subcommand's modules when that subcommand runs")
DEFERRED = {
    ("tile_mlir.cache", "compile_recipe", "tile_mlir.compiler"):
        MLIR + "; a recipe found in the cache folder needs no compiler",
    ("tile_mlir.cache", "mlir_available", "tile_mlir._native"):
        "the probe whether MLIR is here: " + MLIR + " (ImportError is the answer)",
    ("tile_mlir.toolchain", "identity", "tile_mlir._native"):
        MLIR + "; only compiling asks for the tools' identity",
    ("tile_mlir.cli", "_compile", "tile_mlir.compiler"): CLI + "; " + MLIR,
    ("tile_mlir.cli", "_load_kernel", "tile_mlir.builder"): CLI + "; " + MLIR,
    ("tile_mlir.cli", "_explain", "tile_mlir.explain"): CLI + "; " + MLIR,
    ("tile_mlir.cli", "_explain", "tile_mlir.explain.png"):
        CLI + "; only --png draws (with Pillow, the optional `png` extra)",
    ("tile_mlir.explain", "render_png", "tile_mlir.explain.png"):
        "the PNG drawing loads when a PNG is drawn (png.py imports Pillow, the "
        "optional `png` extra, itself)",
    ("tile_mlir.kernels.layout.torch_ops", "_library",
     "tile_mlir.kernels.layout.torch_library"):
        "it imports torch (optional) and defines the layout ops' torch custom ops on "
        "import: the ops import torch_ops at no cost, and the first trace (Dynamo runs "
        "an import for real) defines them",
    ("tile_mlir.testing.racecheck", "build_variant", "tile_mlir.builder"):
        MLIR + " (the GPU machine reads VARIANTS; building a form needs MLIR)",
    ("tile_mlir.testing.racecheck", "build_variant", "tile_mlir.tma"):
        MLIR + " (the GPU machine reads VARIANTS; building a form needs MLIR)",
    ("tile_mlir.testing.racecheck", "build", "tile_mlir.compiler"):
        MLIR + " (the GPU machine reads VARIANTS; building a form needs MLIR)",
}

# importlib.import_module calls whose module is computed: (importer,
# function) -> what they import and why.
DYNAMIC = {
    ("tile_mlir.cache", "resolve_builder"):
        "the builder a recipe names ('module:function', the caller's module)",
    ("tile_mlir.cache", "resolve_recipes"):
        "the recipe list `tile-mlir cache populate MODULE:FUNCTION` names",
    ("tile_mlir.kernels", "__getattr__"):
        "the package face's lazy names (_LAZY): each builder module imports MLIR, "
        "an optional dependency, so it loads on first use",
    ("tile_mlir.kernels.layout.call", "_converter"):
        "the array library a tensor came from, by its top-level module's name "
        "(third-party, optional)",
}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    function: str | None  # the enclosing function's qualified name; None: module level


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> source file, for every module of the package."""
    found = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        rel = path.relative_to(root)
        if rel in SKIPPED_FILES or "__pycache__" in rel.parts:
            continue
        parts = list(rel.with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def is_package(name: str, files: dict[str, Path]) -> bool:
    return name in files and files[name].name == "__init__.py"


def package_of(name: str, files: dict[str, Path]) -> str:
    """The package (folder) a module lives in: itself for an __init__."""
    return name if is_package(name, files) else name.rpartition(".")[0]


class _Collector(ast.NodeVisitor):
    """The imports of one module, each with its enclosing function."""

    def __init__(self, name: str, files: dict[str, Path], known: set[str]):
        self.name, self.files, self.known = name, files, known
        self.here = package_of(name, files)
        self.scope: list[str] = []
        self.functions: list[str] = []
        self.found: list[Import] = []
        self.unresolved: list[str] = []
        self.dynamic: list[tuple[str, str | None, int]] = []

    # -- scopes ----------------------------------------------------------
    def _nested(self, node, function: bool):
        self.scope.append(node.name)
        if function:
            self.functions.append(".".join(self.scope))
        self.generic_visit(node)
        if function:
            self.functions.pop()
        self.scope.pop()

    def visit_FunctionDef(self, node):
        self._nested(node, True)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._nested(node, False)

    def visit_Lambda(self, node):
        self.scope.append("<lambda>")
        self.functions.append(".".join(self.scope))
        self.generic_visit(node)
        self.functions.pop()
        self.scope.pop()

    # -- imports ---------------------------------------------------------
    def _add(self, target: str, node):
        """An edge to `target` and to each package __init__ on its way that
        this module is not inside (those it is inside ran already)."""
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            step = ".".join(parts[:i])
            inside = (self.here + ".").startswith(step + ".")
            if step != self.name and (step == target or
                                      (is_package(step, self.files) and not inside)):
                self.found.append(Import(self.name, step, node.lineno,
                                         self.functions[-1] if self.functions else None))

    def _resolve(self, target: str, node):
        if target in self.known:
            self._add(target, node)
        else:
            self.unresolved.append(f"{self.name}:{node.lineno} imports {target}, "
                                   "which is neither a source module nor in GENERATED")

    def visit_Import(self, node):
        for alias in node.names:
            if alias.name.split(".")[0] == PACKAGE:
                self._resolve(alias.name, node)

    def visit_ImportFrom(self, node):
        if node.level:
            base = self.here.split(".")
            base = base[:len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        if source.split(".")[0] != PACKAGE:
            return
        submodules = [a.name for a in node.names if f"{source}.{a.name}" in self.known]
        if len(submodules) < len(node.names):
            self._resolve(source, node)  # names that source (or its __init__) defines
        for name in submodules:
            self._resolve(f"{source}.{name}", node)

    def visit_Call(self, node):
        func = node.func
        name = (func.attr if isinstance(func, ast.Attribute) else
                func.id if isinstance(func, ast.Name) else None)
        if name == "import_module":
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                self.dynamic.append((self.name, self.functions[-1] if self.functions
                                     else None, node.lineno))
            elif first.value.split(".")[0] == PACKAGE:
                self._resolve(first.value, node)
        self.generic_visit(node)


def collect(root: Path = ROOT):
    """(imports, imports that name no module, computed imports as
    (importer, function, line), module name -> file)."""
    files = module_files(root)
    known = set(files) | GENERATED
    imports, unresolved, dynamic = [], [], []
    for name, path in files.items():
        collector = _Collector(name, files, known)
        collector.visit(ast.parse(path.read_text(), str(path)))
        imports += [i for i in collector.found if i.imported != name]
        unresolved += collector.unresolved
        dynamic += collector.dynamic
    return imports, unresolved, dynamic, files


IMPORTS, UNRESOLVED, DYNAMIC_FOUND, FILES = collect()


# -- cycles ------------------------------------------------------------------

def cycles(edges, through=None) -> list[list[str]]:
    """A shortest cycle through each strongly connected component of the
    graph `edges` that has one (through its least node, or its least node
    in `through`: a component with none there is left out), sorted."""
    g = defaultdict(set)
    for a, b in edges:
        if a != b:
            g[a].add(b)
    found = []
    for comp in _components(g):
        starts = comp if through is None else comp & set(through)
        if len(comp) < 2 or not starts:
            continue
        start = min(starts)
        previous, queue = {start: None}, deque([start])
        while queue:   # breadth first, back to start
            v = queue.popleft()
            if start in g[v]:
                path = [v]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                found.append(path[::-1] + [start])
                break
            for w in sorted(g[v] & comp):
                if w not in previous:
                    previous[w] = v
                    queue.append(w)
    return sorted(found)


def _components(g: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of `g` (Tarjan's algorithm, with
    an explicit stack)."""
    index, low, stack, on_stack, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        work.append((v, iter(sorted(g.get(v, ())))))

    for root in sorted(set(g) | {b for bs in g.values() for b in bs}):
        if root in index:
            continue
        work = []
        visit(root)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    visit(w)
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = set()
                    while not comp or w != node:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.add(w)
                    comps.append(comp)
    return comps


def module_cycles(imports: list[Import]) -> list[str]:
    """(a): cycles among modules, each with the import statements behind
    its steps."""
    def where(a, b):
        lines = sorted({(i.line, i.function) for i in imports
                        if i.importer == a and i.imported == b})
        return ", ".join(f"line {n}" + (f" in {f}()" if f else "") for n, f in lines)
    return [" -> ".join(c) + "".join(f"\n      {a} -> {b}  ({where(a, b)})"
                                     for a, b in zip(c, c[1:]))
            for c in cycles((i.importer, i.imported) for i in imports)]


def package_cycles(imports: list[Import], files: dict[str, Path]) -> list[str]:
    """(b): for each package P, cycles among P's parts, where the parts are
    P's modules and P's subpackages, each subpackage one node with
    everything below it; a cycle counts when it passes through a
    subpackage (one among modules alone is a module cycle, (a)).

    P's __init__ is P's face: it may import its children, and they may
    import it (from outside, importing P's __init__ is importing P: one
    node at the level above). An import between two packages counts at
    the level of their nearest common package. So runtime/ importing
    tile_mlir.errors while tile_mlir.cache imports runtime/ is no cycle
    (errors and cache are two parts of tile_mlir), but runtime/ importing
    tile_mlir.artifact while artifact imports runtime/ is one at the level
    of tile_mlir, even where no module cycle closes. (Collapsing each
    module to its folder instead would make tile_mlir and every subpackage
    a cycle: the subpackages import tile_mlir.errors, and tile_mlir's
    modules import the subpackages.)"""
    found = []
    for package in sorted({package_of(m, files) for m in files}):
        inside = package + "."

        def part(module):
            return inside + module[len(inside):].split(".")[0]
        subpackages = {part(m) for m in files if m.startswith(inside) and
                       package_of(m, files) != package}
        edges = defaultdict(list)
        for i in imports:
            if i.importer.startswith(inside) and i.imported.startswith(inside):
                a, b = part(i.importer), part(i.imported)
                if a != b:
                    edges[a, b].append(f"{i.importer}:{i.line} -> {i.imported}")
        for c in cycles(edges, through=subpackages):
            found.append(f"in {package}: " + " -> ".join(c) + "".join(
                f"\n      {min(edges[a, b])}" for a, b in zip(c, c[1:])))
    return found


def imports_of_testing(imports: list[Import]) -> list[str]:
    """(c): imports of tile_mlir.testing from outside it."""
    def in_testing(name):
        return name == "tile_mlir.testing" or name.startswith("tile_mlir.testing.")
    return [f"{i.importer}:{i.line} imports {i.imported}" for i in imports
            if in_testing(i.imported) and not in_testing(i.importer)]


def deferred(imports: list[Import]) -> dict[tuple[str, str, str], list[int]]:
    """Function-local imports: (importer, function, imported) -> lines (an
    import inside a lambda is its function's)."""
    found = defaultdict(list)
    for i in sorted(imports, key=lambda i: (i.importer, i.line, i.imported)):
        if i.function is not None:
            key = (i.importer, i.function.split(".<lambda>")[0], i.imported)
            if i.line not in found[key]:
                found[key].append(i.line)
    return found


def unexplained(imports: list[Import]) -> list[str]:
    """(d): function-local imports with no reason in DEFERRED, and entries
    of DEFERRED no import matches."""
    found = deferred(imports)
    missing = [f"  {a}:{','.join(map(str, lines))} in {f}() imports {b}"
               for (a, f, b), lines in found.items() if (a, f, b) not in DEFERRED]
    stale = [f"  {a}: {f}() -> {b}" for a, f, b in DEFERRED if (a, f, b) not in found]
    return ((["function-local imports of tile_mlir modules with no reason in DEFERRED "
              "(import at module level, or add the reason there: an optional "
              "dependency):"] + missing if missing else []) +
            (["DEFERRED entries no import matches any more:"] + stale if stale else []))


def unexplained_dynamic(dynamic) -> list[str]:
    """(e): computed imports with no reason in DYNAMIC, and stale entries."""
    found = {(a, f) for a, f, _ in dynamic}
    missing = [f"  {a}:{line} in {f}()" for a, f, line in dynamic if (a, f) not in DYNAMIC]
    stale = [f"  {a}: {f}()" for a, f in DYNAMIC if (a, f) not in found]
    return ((["importlib.import_module of a computed name with no reason in DYNAMIC "
              "(a cycle could hide there):"] + missing if missing else []) +
            (["DYNAMIC entries no call matches any more:"] + stale if stale else []))


def report() -> str:
    """What the tests check, as text: `python test/python/project/test_import_graph.py`."""
    parts = [("module cycles (a)", module_cycles(IMPORTS)),
             ("package cycles (b)", package_cycles(IMPORTS, FILES)),
             ("imports of tile_mlir.testing from outside it (c)", imports_of_testing(IMPORTS)),
             ("function-local imports of tile_mlir modules (d)",
              [f"{a}:{','.join(map(str, lines))} {f}() -> {b}: "
               f"{DEFERRED.get((a, f, b), 'NO REASON IN DEFERRED')}"
               for (a, f, b), lines in deferred(IMPORTS).items()]),
             ("imports of computed names (e)",
              [f"{a}:{line} {f}(): {DYNAMIC.get((a, f), 'NO REASON IN DYNAMIC')}"
               for a, f, line in DYNAMIC_FOUND]),
             ("imports that name no module", UNRESOLVED)]
    return "\n".join(f"{title}:\n" + ("\n".join("  " + line for line in lines)
                                       if lines else "  none")
                      for title, lines in parts)


# -- the tests -----------------------------------------------------------------

def test_every_import_resolves():
    assert not UNRESOLVED, "\n".join(UNRESOLVED)


def test_the_graph_is_read():
    # A reader that finds nothing finds no cycle either.
    edges = {(i.importer, i.imported) for i in IMPORTS}
    assert ("tile_mlir.compiler", "tile_mlir.artifact") in edges
    assert ("tile_mlir.runtime.launcher", "tile_mlir.runtime.driver") in edges
    assert ("tile_mlir.contract", "tile_mlir._contract") in edges
    assert ("tile_mlir.cache", "tile_mlir.runtime") in edges  # via runtime.driver
    assert len(FILES) > 50


def test_the_checks_see_what_a_function_hides(tmp_path):
    """A made-up package: the cycles that function-local imports, package
    faces and importlib would hide are found, and nothing else."""
    sources = {
        "__init__.py": "",
        "a.py": "def f():\n    from . import b\n",
        "b.py": "from .a import f\n",
        "c.py": "import importlib\n"
                "def g():\n    return importlib.import_module('tile_mlir.sub.x')\n"
                "def named(name):\n    return importlib.import_module(name)\n",
        "sub/__init__.py": "from .x import h\n",
        "sub/x.py": "from .. import errors\ndef h():\n    from ..c import g\n",
        "errors.py": "",
        "lib.py": "from .testing import helper\n",
        "testing/__init__.py": "from ..errors import *\n",
        "testing/helper.py": "",
    }
    for name, text in sources.items():
        path = tmp_path / PACKAGE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    imports, unresolved, dynamic, files = collect(tmp_path)
    assert not unresolved
    assert [m.split("\n")[0] for m in module_cycles(imports)] == [
        "tile_mlir.a -> tile_mlir.b -> tile_mlir.a",
        "tile_mlir.c -> tile_mlir.sub.x -> tile_mlir.c"]
    # sub/x.py importing tile_mlir.errors is no package cycle; c <-> sub is.
    assert [p.split("\n")[0] for p in package_cycles(imports, files)] == [
        "in tile_mlir: tile_mlir.sub -> tile_mlir.c -> tile_mlir.sub"]
    assert imports_of_testing(imports) == ["tile_mlir.lib:1 imports tile_mlir.testing",
                                        "tile_mlir.lib:1 imports tile_mlir.testing.helper"]
    assert set(deferred(imports)) == {("tile_mlir.a", "f", "tile_mlir.b"),
                                      ("tile_mlir.c", "g", "tile_mlir.sub"),
                                      ("tile_mlir.c", "g", "tile_mlir.sub.x"),
                                      ("tile_mlir.sub.x", "h", "tile_mlir.c")}
    assert dynamic == [("tile_mlir.c", "named", 5)]


def test_no_module_cycle():
    found = module_cycles(IMPORTS)
    assert not found, ("import cycles among modules (function-local imports "
                       "included):\n  " + "\n  ".join(found))


def test_no_package_cycle():
    found = package_cycles(IMPORTS, FILES)
    assert not found, "import cycles among packages:\n  " + "\n  ".join(found)


def test_only_testing_imports_testing():
    found = imports_of_testing(IMPORTS)
    assert not found, "the library imports its test helpers:\n  " + "\n  ".join(found)


def test_every_deferred_import_has_a_reason():
    found = unexplained(IMPORTS)
    assert not found, "\n".join(found)


def test_every_computed_import_has_a_reason():
    found = unexplained_dynamic(DYNAMIC_FOUND)
    assert not found, "\n".join(found)


if __name__ == "__main__":
    print(report())
