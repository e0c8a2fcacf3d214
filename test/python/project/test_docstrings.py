"""The API reference: every public name it documents has a docstring, and
scripts/gen_reference.py writes it without a warning.

The names are those the reference shows (pdoc's model of each module in
gen_reference.MODULES): a module's `__all__`, else the public names it
defines; of a class, its public methods and properties.
"""

import inspect
import os
import subprocess
import sys
from functools import cached_property
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import gen_reference  # noqa: E402

pdoc_doc = pytest.importorskip("pdoc.doc", reason="pdoc (the `test` extra) is not installed")
pytest.importorskip("mlir.ir", reason="the builder needs MLIR's Python bindings")

_CALLABLE = (property, cached_property, classmethod, staticmethod)


def _is_method(cls, name: str) -> bool:
    """`name` is a function, method or property of `cls` (not a field)."""
    raw = inspect.getattr_static(cls, name, None)
    return inspect.isfunction(raw) or isinstance(raw, _CALLABLE)


def _undocumented(module) -> list[str]:
    missing = []
    for member in module.members.values():
        if member.name.startswith("_"):   # not shown (pdoc's default)
            continue
        if isinstance(member, (pdoc_doc.Function, pdoc_doc.Class)) and not member.docstring:
            missing.append(f"{module.fullname}.{member.name}")
        if not isinstance(member, pdoc_doc.Class):
            continue
        for attr in member.own_members:
            if attr.name.startswith("_") or not _is_method(member.obj, attr.name):
                continue
            if not attr.docstring:
                missing.append(f"{module.fullname}.{member.name}.{attr.name}")
    return missing


@pytest.fixture(scope="module")
def modules():
    return gen_reference.load_modules()


def test_every_module_is_documented(modules):
    assert [m.fullname for m in modules] == gen_reference.MODULES
    assert [m.fullname for m in modules if not m.docstring] == []


def test_every_public_name_has_a_docstring(modules):
    missing = [name for module in modules for name in _undocumented(module)]
    assert missing == [], "public names without a docstring:\n  " + "\n  ".join(missing)


def test_the_check_sees_a_missing_docstring():
    """The walk reports a public function, class and method without one."""
    import types

    fake = types.ModuleType("fake_public")
    src = ("def bare(x):\n    return x\n\n"
           "class Shown:\n    'documented'\n    def quiet(self):\n        pass\n"
           "    @property\n    def size(self):\n        return 1\n")
    exec(compile(src, "<fake>", "exec"), fake.__dict__)
    for obj in (fake.bare, fake.Shown):
        obj.__module__ = "fake_public"
    sys.modules["fake_public"] = fake
    try:
        found = _undocumented(pdoc_doc.Module(fake))
    finally:
        del sys.modules["fake_public"]
    assert sorted(found) == ["fake_public.Shown.quiet", "fake_public.Shown.size",
                             "fake_public.bare"]


def test_generator_writes_every_page(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "build" / "python_packages"), env.get("PYTHONPATH", "")])
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_reference.py"),
                          "--out", str(tmp_path)], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert Path(run.stdout.strip()) == tmp_path / "index.html"
    for name in gen_reference.MODULES:
        page = tmp_path / (name.replace(".", "/") + ".html")
        assert page.is_file(), page
    # A name from each kind of module reaches its page.
    assert "bulk_commit_group" in (tmp_path / "tile_mlir" / "kernel.html").read_text()
    assert "build_copy" in (tmp_path / "tile_mlir" / "kernels.html").read_text()
