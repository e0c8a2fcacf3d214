"""The installed C++ package serves a downstream CMake project.

`cmake --install build --prefix P` (the build tree scripts/setup.sh made),
the prefix then moved (nothing may point back into the tree or the old
prefix); test/downstream configured against P and the mlir wheel's CMake
folder only, built, and its tool run: tile.tma_copy lowered by tile-to-nvvm
to NVVM bulk tensor copies (FileCheck), the very IR tile-opt prints, and the
verifier's rule named for a bad copy. Also: the config's Python fallback
for MLIR, and the version file (pyproject.toml's version, same major.minor).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
BUILD = ROOT / "build"
DOWNSTREAM = ROOT / "test" / "downstream"


def _cache_of(build):
    text = (Path(build) / "CMakeCache.txt").read_text()
    return dict(re.findall(r"^([A-Za-z0-9_]+):[A-Z]+=(.*)$", text, re.M))


def _cache():
    """The main build's cache: its cmake, ninja, compiler and MLIR_DIR."""
    if not (BUILD / "CMakeCache.txt").exists():
        pytest.skip("build/ is not configured (bash scripts/setup.sh)")
    return _cache_of(BUILD)


def _run(cmd, **kwargs):
    env = dict(os.environ)
    # Only what the command line names: no prefix path from the caller.
    for var in ("CMAKE_PREFIX_PATH", "MLIR_DIR", "LLVM_DIR", "TileMLIR_DIR"):
        env.pop(var, None)
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                          env=env, **kwargs)


def _ok(cmd, **kwargs):
    proc = _run(cmd, **kwargs)
    assert proc.returncode == 0, (f"{' '.join(map(str, cmd))} exited {proc.returncode}\n"
                                  f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}")
    return proc


def _configure(src, build, *defs):
    cache = _cache()
    return _run([cache["CMAKE_COMMAND"], "-S", src, "-B", build, "-G", "Ninja",
                 f"-DCMAKE_MAKE_PROGRAM={cache['CMAKE_MAKE_PROGRAM']}",
                 "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF", *defs])


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    cache = _cache()
    stage = tmp_path_factory.mktemp("install") / "stage"
    _ok([cache["CMAKE_COMMAND"], "--install", BUILD, "--prefix", stage])
    # A relocatable package works wherever it is unpacked.
    moved = stage.parent / "prefix"
    stage.rename(moved)
    return moved


@pytest.fixture(scope="module")
def tool(prefix, tmp_path_factory):
    cache = _cache()
    build = tmp_path_factory.mktemp("downstream")
    proc = _configure(DOWNSTREAM, build, "-DCMAKE_BUILD_TYPE=Release",
                      f"-DCMAKE_CXX_COMPILER={cache['CMAKE_CXX_COMPILER']}",
                      f"-DCMAKE_PREFIX_PATH={prefix};{cache['MLIR_DIR']}")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    found = _cache_of(build)
    assert Path(found["TileMLIR_DIR"]) == prefix / "lib" / "cmake" / "TileMLIR"
    assert Path(found["MLIR_DIR"]).resolve() == Path(cache["MLIR_DIR"]).resolve()
    _ok([cache["CMAKE_COMMAND"], "--build", build])
    return build / "tile-downstream-lower"


def _filecheck():
    import llvm
    for base in llvm.__path__:
        candidate = Path(base) / "bin" / "FileCheck"
        if candidate.exists():
            return candidate
    pytest.fail("the llvm wheel has no FileCheck")


def test_package_layout(prefix):
    cmake_dir = prefix / "lib" / "cmake" / "TileMLIR"
    for name in ("TileMLIRConfig.cmake", "TileMLIRConfigVersion.cmake",
                 "TileMLIRTargets.cmake"):
        assert (cmake_dir / name).is_file(), name
    for lib in ("libTileDialect.a", "libTilePasses.a"):
        assert (prefix / "lib" / lib).stat().st_size > 0, lib
    include = prefix / "include"
    for header in ("Tile/IR/TileDialect.h", "Tile/IR/TileOps.h", "Tile/IR/TileOps.h.inc",
                   "Tile/Passes.h", "Tile/Passes.h.inc", "Tile/Contract/Rules.def"):
        assert (include / header).is_file(), header
    # Every tile include of an installed header resolves inside the prefix.
    unresolved = []
    for path in include.rglob("*"):
        if path.suffix in (".h", ".inc", ".def") and path.is_file():
            for inc in re.findall(r'#include "(Tile/[^"]+)"', path.read_text()):
                if not (include / inc).is_file():
                    unresolved.append(f"{path.relative_to(include)}: {inc}")
    assert not unresolved, unresolved
    # Relocatable: no absolute path into the source tree, the build tree or
    # the venv's wheels (found on the consumer's machine instead).
    wheels = Path(_cache()["MLIR_DIR"]).parents[3]  # site-packages of the mlir wheel
    for path in cmake_dir.iterdir():
        text = path.read_text()
        for folder in (ROOT, wheels, wheels.resolve()):
            assert str(folder) not in text, f"{path.name} names {folder}"


def test_downstream_lowers_tma_copy(tool):
    source = DOWNSTREAM / "tma_copy.mlir"
    proc = _ok([tool, source])
    assert "tile.tma_copy" in source.read_text()
    check = subprocess.run([_filecheck(), source, "--implicit-check-not=tile.tma_copy"],
                           input=proc.stdout, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr[-4000:]
    # The same passes as the project's own driver.
    tile_opt = BUILD / "python_packages" / "tile_mlir" / "bin" / "tile-opt"
    reference = _ok([tile_opt, source, "--tile-to-nvvm"])
    assert proc.stdout.strip() == reference.stdout.strip()


def test_downstream_runs_a_named_pass(tool):
    proc = _ok([tool, DOWNSTREAM / "tma_copy.mlir", "tile-lower-tma"])
    assert "nvvm.cp.async.bulk.tensor.shared.cluster.global" in proc.stdout
    assert "tile.tma_copy" not in proc.stdout
    assert "gpu.func @copy_tile" in proc.stdout  # the gpu lowering did not run


def test_downstream_verifier_names_the_rule(tool):
    proc = _run([tool, DOWNSTREAM / "invalid_box.mlir"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "[box-extent] box[1] = 300 is outside 1..256" in proc.stderr
    assert proc.stdout == ""


def test_downstream_rejects_unknown_pass(tool):
    proc = _run([tool, DOWNSTREAM / "tma_copy.mlir", "tile-no-such-pass"])
    assert proc.returncode == 2
    assert "'tile-no-such-pass' does not refer to a registered pass" in proc.stderr


def _find_project(tmp_path, body):
    """A project of no language that only finds the package (fast)."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(probe LANGUAGES NONE)\n" + body)
    return src


def _pyproject_version():
    m = re.search(r'^version = "([0-9.]+)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    return m.group(1)


def test_mlir_found_through_python(prefix, tmp_path):
    """No MLIR on the prefix path: the config asks the interpreter that has
    the mlir wheel, as the project's own CMakeLists.txt does."""
    src = _find_project(tmp_path, "find_package(TileMLIR REQUIRED CONFIG)\n")
    proc = _configure(src, tmp_path / "b", f"-DCMAKE_PREFIX_PATH={prefix}",
                      f"-DPython3_EXECUTABLE={sys.executable}")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    found = _cache_of(tmp_path / "b")
    assert Path(found["MLIR_DIR"]).resolve() == Path(_cache()["MLIR_DIR"]).resolve()
    assert Path(found["LLVM_DIR"]).resolve() == Path(_cache()["LLVM_DIR"]).resolve()


def test_missing_mlir_fails_configure(prefix, tmp_path):
    src = _find_project(tmp_path, "find_package(TileMLIR REQUIRED CONFIG)\n")
    false = shutil.which("false")
    proc = _configure(src, tmp_path / "b", f"-DCMAKE_PREFIX_PATH={prefix}",
                      f"-DPython3_EXECUTABLE={false}")
    assert proc.returncode != 0
    pinned = re.search(r'"xtc-mlir-dev==(\d+\.\d+\.\d+)', (ROOT / "pyproject.toml").read_text())
    assert f"TileMLIR: no MLIR {pinned.group(1)} on CMAKE_PREFIX_PATH" in proc.stdout, proc.stdout
    assert 'package configuration file provided by "MLIR"' in proc.stderr, proc.stderr[-3000:]


@pytest.mark.parametrize("wanted,accepted", [
    ("same", True), ("major.minor", True), ("next-minor", False), ("next-major", False)])
def test_version_compatibility(prefix, tmp_path, wanted, accepted):
    major, minor, *_ = (int(p) for p in _pyproject_version().split("."))
    version = {"same": _pyproject_version(), "major.minor": f"{major}.{minor}",
               "next-minor": f"{major}.{minor + 1}", "next-major": f"{major + 1}.0"}[wanted]
    src = _find_project(tmp_path,
                        f"find_package(TileMLIR {version} CONFIG REQUIRED)\n"
                        'message(STATUS "TileMLIR_VERSION=${TileMLIR_VERSION}")\n')
    proc = _configure(src, tmp_path / "b", f"-DCMAKE_PREFIX_PATH={prefix};{_cache()['MLIR_DIR']}")
    if accepted:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert f"TileMLIR_VERSION={_pyproject_version()}" in proc.stdout
    else:
        assert proc.returncode != 0
        assert "not compatible" in proc.stderr or "not be found" in proc.stderr, proc.stderr
