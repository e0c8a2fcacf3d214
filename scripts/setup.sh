#!/usr/bin/env bash
# One-time (and incremental) set-up: a venv with the pinned wheels, then the
# CMake build into build/. Sourced by run-example.sh and run-tests.sh; run
# alone (`bash scripts/setup.sh`) it rebuilds what changed.
#
# Each long step says what it does and shows its progress; a tree that is
# up to date costs one line. Afterwards `source .venv/bin/activate` gives a
# shell python (finding the built package), tile-opt, tile-mlir and mlir-opt.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# The caller's venv, before ours is activated: run-example.sh says how to
# activate ours when it is not the active one.
TILE_CALLER_VENV="${VIRTUAL_ENV:-}"

if [ ! -x .venv/bin/python ]; then
  py="${PYTHON:-python3}"
  echo "setup: creating .venv with $py ($("$py" -c 'import sys; print(sys.version.split()[0])'))"
  "$py" -m venv .venv
fi
# shellcheck disable=SC1091
source .venv/bin/activate

# Every dependency is named once, in pyproject.toml.
if ! missing="$(python scripts/requirements.py --check 2>/dev/null)"; then
  count="$(printf '%s\n' "$missing" | sort -u | grep -c . || true)"
  echo "setup: installing $count packages (pyproject.toml's) into .venv; pip's output follows" \
       "(the pinned LLVM/MLIR 22.1.8 wheels are about 1.7 GB installed: minutes)"
  start=$SECONDS
  python -m pip install -q --upgrade pip
  # shellcheck disable=SC2046
  python -m pip install $(python scripts/requirements.py)
  echo "setup: packages installed in $((SECONDS - start)) s"
fi

# torch, for the CPU tests of the layout ops' torch custom ops (fake
# tensors, torch.compile and torch.export traces): installed where
# TILE_MLIR_TEST_TORCH names a version (.ci/run names the CPU build its
# machines hold); elsewhere those tests skip.
if [ -n "${TILE_MLIR_TEST_TORCH:-}" ]; then
  if ! python -c "import torch" 2>/dev/null; then
    echo "setup: installing torch==$TILE_MLIR_TEST_TORCH (TILE_MLIR_TEST_TORCH: the torch ops' CPU tests)"
    python -m pip install -q "torch==$TILE_MLIR_TEST_TORCH" ||
      echo "setup: torch did not install; the torch ops' CPU tests skip"
  fi
  # The tests trace with torch's compiler stack, which imports triton where
  # it is installed; a CUDA build's triton can abort the process on a
  # machine without the driver, taking the whole pytest run with it. Keep
  # only a torch whose stack imports here: without triton, else none.
  if python -c "import torch" 2>/dev/null && ! python -c "import torch._dynamo" >/dev/null 2>&1; then
    echo "setup: torch's compiler stack does not import here; uninstalling triton"
    python -m pip uninstall -q -y triton || true
    if ! python -c "import torch._dynamo" >/dev/null 2>&1; then
      echo "setup: it still does not: uninstalling torch (the torch ops' CPU tests skip)"
      python -m pip uninstall -q -y torch
    fi
  fi
fi

note=""
if [ ! -f build/build.ninja ] \
   || ! grep -qx "Python3_EXECUTABLE:[A-Z]*=$ROOT/.venv/bin/python" build/CMakeCache.txt; then
  echo "setup: configuring build/ with CMake (log: build/last-configure.log)"
  mkdir -p build
  if ! cmake -S . -B build -G Ninja -DPython3_EXECUTABLE="$ROOT/.venv/bin/python" \
       >build/last-configure.log 2>&1; then
    cat build/last-configure.log >&2
    echo "setup: CMake configure failed (log: build/last-configure.log)" >&2
    exit 1
  fi
  note="a first build takes about 3 minutes on 2 cores"
fi
# ninja 1.13 cannot recover a damaged deps log (two builds at once, a killed
# build: "premature end of file; recovering") and then rebuilds the same
# objects every time; rewriting the log first (cheap) keeps a no-op a no-op.
ninja -C build -t recompact >/dev/null 2>&1 || true
# Progress on one line (a terminal) or every 10% (a log); the whole output
# in build/last-build.log, its errors printed if it fails.
python scripts/build_progress.py --log build/last-build.log --prefix setup \
  --what "building build/" --note "$note" \
  --done "built tile-opt, libTileMLIR.so and the tile_mlir package in build/python_packages" \
  --uptodate ".venv and build/ are up to date" \
  -- cmake --build build

# The venv's Python finds the built package without PYTHONPATH (a .pth file,
# as an editable install would), so scripts run with the venv active.
site="$(python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$ROOT/build/python_packages" >"$site/tile-mlir-build.pth"
export PYTHONPATH="$ROOT/build/python_packages${PYTHONPATH:+:$PYTHONPATH}"

# The commands the README uses, in .venv/bin (on PATH while the venv is
# active), running from the build tree: what `pip install .` would put there,
# plus the mlir wheel's mlir-opt, which the wheel leaves in site-packages.
write_tool() {  # write_tool NAME TEXT: an executable .venv/bin/NAME, rewritten if it differs
  if [ ! -f ".venv/bin/$1" ] || [ "$(cat ".venv/bin/$1")" != "$2" ]; then
    printf '%s\n' "$2" >".venv/bin/$1"
    chmod +x ".venv/bin/$1"
  fi
}
write_tool tile-opt "#!/bin/sh
# Written by scripts/setup.sh: the build tree's tile-opt.
exec \"$ROOT/build/python_packages/tile_mlir/bin/tile-opt\" \"\$@\""
write_tool tile-mlir "#!$ROOT/.venv/bin/python
# Written by scripts/setup.sh: the build tree's tile-mlir (the .pth file finds it).
import sys
from tile_mlir.cli import main
sys.exit(main())"
mlir_opt="$(python -c '
import mlir, pathlib
for base in mlir.__path__:  # a namespace package: look in each folder
    tool = pathlib.Path(base).resolve() / "bin" / "mlir-opt"
    if tool.is_file():
        print(tool)
        break
' 2>/dev/null || true)"
if [ -n "$mlir_opt" ]; then
  write_tool mlir-opt "#!/bin/sh
# Written by scripts/setup.sh: the mlir wheel's mlir-opt.
exec \"$mlir_opt\" \"\$@\""
fi
