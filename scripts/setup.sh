#!/usr/bin/env bash
# One-time (and incremental) set-up: a venv with the pinned wheels, then the
# CMake build into build/. Sourced by run-example.sh and run-tests.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [ ! -x .venv/bin/python ]; then
  "${PYTHON:-python3}" -m venv .venv
fi
# shellcheck disable=SC1091
source .venv/bin/activate

# Every dependency is named once, in pyproject.toml.
REQS="$(python scripts/requirements.py)"
if ! python scripts/requirements.py --check >/dev/null 2>&1; then
  python -m pip install -q --upgrade pip
  # shellcheck disable=SC2086
  python -m pip install -q $REQS
fi

cmake -S . -B build -G Ninja -DPython3_EXECUTABLE="$ROOT/.venv/bin/python" >/dev/null
# One line of progress: ninja's last status line; the whole log if it fails.
if ! cmake --build build >build/last-build.log 2>&1; then
  cat build/last-build.log >&2
  echo "build failed (log: build/last-build.log)" >&2
  exit 1
fi
echo "build: $(tail -n 1 build/last-build.log)"
# The venv's Python finds the built package without PYTHONPATH (a .pth file,
# as an editable install would), so scripts run with the venv active.
echo "$ROOT/build/python_packages" >"$(python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/tile-mlir-build.pth"
export PYTHONPATH="$ROOT/build/python_packages${PYTHONPATH:+:$PYTHONPATH}"
