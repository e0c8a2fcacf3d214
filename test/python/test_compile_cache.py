"""The compile cache (tile_mlir/cache.py, docs/compile-cache.md): hits in
memory and on disk, the keys' parts, recipes, the CLI, and a process without
MLIR that finds populated recipes and names a miss."""

import json
import os
import subprocess
import sys
import textwrap
import types

import numpy as np
import pytest

from tile_mlir import cache, cli, compiler
from tile_mlir.errors import TileError, TileUsageError
from tile_mlir.kernels import build_copy, build_empty
from tile_mlir.runtime import arrays
from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.testing import runtime_kernels


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TILE_MLIR_CACHE", raising=False)
    for memo in (cache._ir_memory, cache._recipe_memory, cache._modules):
        memo.clear()
    return tmp_path / "cache"


@pytest.fixture
def pipeline_runs(monkeypatch):
    """Counts the pipeline runs (what a hit must avoid)."""
    runs = []
    real = compiler._compile_module

    def counted(*args, **kwargs):
        runs.append(args[2:])
        return real(*args, **kwargs)

    monkeypatch.setattr(compiler, "_compile_module", counted)
    return runs


def test_the_same_kernel_compiles_once(folder, pipeline_runs):
    k = build_copy(256, 256, grid=4)
    first = compiler.compile(k)
    assert compiler.compile(k) is first  # memory
    assert compiler.compile(build_copy(256, 256, grid=4)).ptx == first.ptx  # traced again
    cache._ir_memory.clear()
    again = compiler.compile(build_copy(256, 256, grid=4))  # from the folder
    assert (again.ptx, again.cubin, again.manifest) == (first.ptx, first.cubin,
                                                         first.manifest)
    assert len(pipeline_runs) == 1
    assert len(list((folder / "ir").iterdir())) == 1


def test_what_changes_the_key(folder, pipeline_runs, monkeypatch):
    compiler.compile(build_empty())
    compiler.compile(build_empty(), arch="sm_100a")
    compiler.compile(build_empty(), debug=True)
    compiler.compile(build_empty(name="other"))
    k = build_empty()
    compiler.compile(k)
    k.grid = (2, 1, 1)  # a changed KernelDef is not its old trace
    compiler.compile(k)
    assert len(pipeline_runs) == 5
    tools = dict(cache.toolchain())
    monkeypatch.setattr(cache, "toolchain", lambda: {**tools, "ptxas": "another"})
    compiler.compile(build_empty())
    assert len(pipeline_runs) == 6
    compiler.compile(build_empty(), cache=False)
    assert len(pipeline_runs) == 7


def test_a_cubin_less_entry_is_not_a_cubin(folder, pipeline_runs):
    assert compiler.compile(build_empty(), cubin=False).cubin is None
    assert compiler.compile(build_empty()).cubin is not None
    # The entry with a cubin serves a cubin=False compile too, as that
    # compile makes it: without the cubin.
    assert compiler.compile(build_empty(), cubin=False).cubin is None
    assert len(pipeline_runs) == 2


def test_recipes(folder, pipeline_runs):
    a = cache.compile_recipe(build_copy, rows=256, cols=256, grid=4)
    # A builder named by its function or by its name is the same recipe.
    assert cache.compile_recipe("tile_mlir.kernels.copy.persistent:build_copy", rows=256,
                                cols=256, grid=4) is a
    cache._recipe_memory.clear()
    assert cache.compile_recipe(build_copy, rows=256, cols=256, grid=4).ptx == a.ptx
    assert len(pipeline_runs) == 1
    index = json.loads(next((folder / "recipes").iterdir()).read_text())
    assert index["builder"] == "tile_mlir.kernels.copy.persistent:build_copy"
    assert index["params"] == {"rows": 256, "cols": 256, "grid": 4}
    assert index["arch"] == "sm_90a"
    assert (folder / "ir" / index["ir_key"] / "kernel.cubin").read_bytes() == a.cubin


@pytest.mark.parametrize("builder, params", [
    (lambda: build_empty(), {}),
    (build_copy, {"rows": 256, "cols": 256, "box": np.array([64, 128])}),
    (build_copy, {"rows": 256, "colz": 256}),
    ("tile_mlir.kernels.copy.persistent", {}),
    ("tile_mlir.kernels.copy.persistent:no_such_builder", {}),
])
def test_bad_recipes_are_cache_recipe(folder, builder, params):
    with pytest.raises(TileUsageError) as err:
        cache.compile_recipe(builder, **params)
    assert err.value.rule == "cache-recipe"


def test_the_cli_populates_and_reports(folder, capsys):
    assert cli.main(["cache", "populate",
                     "tile_mlir.testing.runtime_kernels:cache_recipes"]) == 0
    out = capsys.readouterr().out
    assert f"cached {len(runtime_kernels.cache_recipes())} kernels" in out
    assert cli.main(["cache", "info"]) == 0
    info = capsys.readouterr().out
    assert str(folder) in info and "recipes" in info
    assert cli.main(["cache", "populate", "no_such_module:f"]) == 1
    assert "[cache-recipe]" in capsys.readouterr().err
    assert cli.main(["cache", "clear"]) == 0
    assert not folder.exists()


NO_MLIR = textwrap.dedent("""
    import json, sys
    sys.modules["mlir"] = None  # `import mlir` now raises ImportError
    from tile_mlir import cache
    from tile_mlir.errors import TileError
    from tile_mlir.runtime.errors import TileRuntimeError
    assert not cache.mlir_available()
    for name, params in json.loads(sys.argv[1]):
        art = cache.compile_recipe(name, **params)  # by name: no builder import
        assert art.cubin, name
    try:
        cache.compile_recipe("tile_mlir.kernels.copy.persistent:build_copy", rows=512, cols=512)
    except TileRuntimeError as err:
        print("MISS", err.rule, err.message)
    try:
        cache.compile_recipe("tile_mlir.kernels.copy.persistnt:build_copy")
    except TileError as err:
        print("TYPO", err.rule, err.message)
""")


def test_a_process_without_mlir_uses_the_populated_folder(folder):
    """The portable path (the GPU machine has no MLIR): recipes populated
    here are found by their builders' names in a process that cannot import
    MLIR, and one that was not populated is a named miss."""
    cache.populate("tile_mlir.testing.runtime_kernels:cache_recipes")
    names = [(cache.builder_name(b), p) for b, p in runtime_kernels.cache_recipes()]
    env = dict(os.environ, TILE_MLIR_CACHE_DIR=str(folder))
    proc = subprocess.run([sys.executable, "-c", NO_MLIR, json.dumps(names)],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "MISS compile-cache-miss tile_mlir.kernels.copy.persistent:build_copy(" in proc.stdout
    assert "rows=512" in proc.stdout and str(folder) in proc.stdout
    # A module that does not exist is named, not taken for a miss.
    assert "TYPO cache-recipe" in proc.stdout
    assert "no module named 'tile_mlir.kernels.copy.persistnt'" in proc.stdout


def test_a_device_array_on_another_device_is_named(monkeypatch):
    class Driver:
        CUpointer_attribute = type("A", (), {"CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL": 9})

        def cuPointerGetAttribute(self, attr, ptr):
            return 0, 1

    monkeypatch.setattr(arrays, "cuda", lambda: Driver())
    view = arrays.DeviceView(ptr=0x1000, shape=(4,), strides=(1,), dtype=np.dtype("f4"))
    with pytest.raises(TileRuntimeError) as err:
        arrays.check_device(view, 2)
    assert err.value.rule == "argument-device" and "device 1" in err.value.message


# -- what a user gets wrong, named before the driver is needed ------------------

class NoDriver:
    def cuInit(self, flags):
        raise OSError("libcuda.so.1: cannot open shared object file")


@pytest.fixture
def no_driver(monkeypatch):
    from tile_mlir.runtime import driver
    monkeypatch.setattr(driver, "cuda", lambda: NoDriver())
    monkeypatch.setattr(driver, "_primary", {})


@pytest.mark.parametrize("name, params, named", [
    ("no_such_module_xyz:build", {}, "no module named 'no_such_module_xyz'"),
    ("tile_mlir.no_such_module:build", {}, "no module named 'tile_mlir.no_such_module'"),
    ("tile_mlir.testing.runtime_kernels:build_nothing", {},
     "module 'tile_mlir.testing.runtime_kernels' has no function 'build_nothing'"),
    ("tile_mlir.contract:MAX_GRID_X", {}, "'MAX_GRID_X' is a int, not a function"),
    ("tile_mlir.testing.runtime_kernels:build_box_at", {"colz": 3},
     "unexpected keyword argument 'colz'"),
    ("tile_mlir.testing.runtime_kernels", {}, "'module:function'"),
    ("tile_mlir.testing.runtime_kernels:build_box_at", {"box": {1, 2}}, "not a JSON value"),
])
def test_load_kernel_names_the_recipe_before_the_driver(folder, no_driver, name, params,
                                                        named):
    with pytest.raises(TileUsageError) as err:
        cache.load_kernel(name, **params)
    assert err.value.rule == "cache-recipe" and named in err.value.message


def test_load_kernel_checks_the_arch_before_the_driver(folder, no_driver):
    with pytest.raises(TileUsageError) as err:
        cache.load_kernel("tile_mlir.testing.runtime_kernels:build_box_at", arch="sm_00")
    assert err.value.rule == "compile-arch" and "sm_00" in err.value.message


def test_a_good_recipe_without_a_driver_names_the_driver(folder, no_driver):
    with pytest.raises(TileRuntimeError) as err:
        cache.load_kernel("tile_mlir.testing.runtime_kernels:build_box_at")
    assert err.value.rule == "cuda-driver-missing"
    assert len(list((folder / "recipes").iterdir())) == 1   # compiled meanwhile


def test_a_builder_that_raises_keeps_its_rule(folder):
    # A builder's own rejection is its rule, not a recipe error.
    with pytest.raises(TileError) as err:
        cache.compile_recipe(build_copy, rows=256, cols=256, grid=0)
    assert err.value.rule != "cache-recipe"


@pytest.fixture
def recipe_module(monkeypatch):
    module = types.ModuleType("fake_recipes")
    module.not_a_list = lambda: 7
    module.bad_entry = lambda: [("tile_mlir.kernels:build_empty",)]
    module.bad_params = lambda: [("tile_mlir.kernels:build_empty", [1, 2])]
    module.bad_options = lambda: [("tile_mlir.kernels:build_empty", {}, {"arch": "x"})]
    module.bad_arches = lambda: [("tile_mlir.kernels:build_empty", {}, {"arches": 90})]
    module.CONSTANT = 3
    monkeypatch.setitem(sys.modules, "fake_recipes", module)
    return module


@pytest.mark.parametrize("spec, named", [
    (3, "expected MODULE:FUNCTION"),
    ("fake_recipes", "expected MODULE:FUNCTION"),
    ("no_such_module_xyz:recipes", "no module named 'no_such_module_xyz'"),
    ("fake_recipes:missing", "has no function 'missing'"),
    ("fake_recipes:CONSTANT", "'CONSTANT' is a int, not a function"),
    ("fake_recipes:not_a_list", "returned 7"),
    ("fake_recipes:bad_entry", "each entry is (builder, params)"),
    ("fake_recipes:bad_params", "its params are list"),
    ("fake_recipes:bad_options", "unknown options ['arch']"),
    ("fake_recipes:bad_arches", "arches 90"),
])
def test_populate_names_a_bad_recipe_list(folder, recipe_module, spec, named):
    with pytest.raises(TileUsageError) as err:
        cache.populate(spec)
    assert err.value.rule == "cache-recipe" and named in err.value.message


def test_populate_checks_its_arches(folder, recipe_module):
    with pytest.raises(TileUsageError) as err:
        cache.populate("fake_recipes:bad_entry", arches=[90])
    assert err.value.rule == "cache-recipe" and "arches [90]" in err.value.message


def test_clear_removes_only_the_caches_entries(folder):
    compiler.compile(build_empty())
    folder.joinpath("notes.txt").write_text("mine")
    assert cache.info()["artifacts"] == 1
    cache.clear()
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
    folder.joinpath("notes.txt").unlink()
    cache.clear()
    assert not folder.exists()


def test_a_cache_folder_that_is_a_file_is_output_path(tmp_path, monkeypatch):
    afile = tmp_path / "cachefile"
    afile.write_text("x")
    monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(afile))
    for call in (cache.info, cache.clear):
        with pytest.raises(TileUsageError) as err:
            call()
        assert err.value.rule == "output-path" and str(afile) in err.value.message
    assert afile.read_text() == "x"


def test_a_damaged_recipe_index_is_a_miss(folder, pipeline_runs):
    cache.compile_recipe(build_copy, rows=256, cols=256, grid=4)
    index = next((folder / "recipes").iterdir())
    index.write_text("{")
    cache._recipe_memory.clear()
    cache.compile_recipe(build_copy, rows=256, cols=256, grid=4)   # compiled again
    assert json.loads(index.read_text())["builder"].endswith(":build_copy")
