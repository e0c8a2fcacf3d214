#!/usr/bin/env bash
# Builds the wheel the way `pip install .` does (default build isolation:
# the build requirements come from the package index into a throw-away
# environment), installs it into a fresh venv and, from outside the
# repository, runs the installed commands: tile-opt, tile-mlir compile,
# explain, rules and plugin (mlir-opt loading the installed plugin).
#
#   bash scripts/test_wheel.sh [WORK_DIR]     (default: a new temporary folder)
#   TILE_WHEEL=path/to/tile_mlir-*.whl bash scripts/test_wheel.sh   # skip the build
#
# A wheel build compiles the whole project (2 to 5 minutes on 2 cores), so
# the pytest suite runs this only when TILE_TEST_WHEEL=1 (test_wheel_install.py).
set -euo pipefail
# Nothing from the build tree: a PYTHONPATH (the tests set one) would shadow
# the installed package.
unset PYTHONPATH PYTHONHOME
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${1:-$(mktemp -d -t tile-wheel-XXXXXX)}"
PY="${PYTHON:-python3}"
mkdir -p "$WORK"
echo "test_wheel: working in $WORK"

wheel="${TILE_WHEEL:-}"
if [ -z "$wheel" ]; then
  # A copy of the tracked and untracked (not ignored) sources: the build
  # then uses a fresh build directory, as on a fresh clone.
  rm -rf "$WORK/src" "$WORK/wheelhouse"
  mkdir -p "$WORK/src"
  (cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - 2>/dev/null) \
    | tar -xf - -C "$WORK/src"
  "$PY" -m pip wheel -q "$WORK/src" --no-deps -w "$WORK/wheelhouse"
  wheel="$(ls "$WORK"/wheelhouse/tile_mlir-*.whl)"
fi
echo "test_wheel: wheel $wheel"

rm -rf "$WORK/venv"
"$PY" -m venv "$WORK/venv"
"$WORK/venv/bin/pip" install -q "$wheel"
BIN="$WORK/venv/bin"

cd "$WORK"   # outside the repository: nothing may come from the source tree
cp "$ROOT/examples/swizzle_128b.mlir" "$ROOT/examples/seed_tma_load.py" "$WORK/"
set -x
# The RPATH is relative to the installed mlir/llvm wheels, nothing absolute.
tile_opt="$("$BIN/python" -c 'from tile_mlir._launchers import tile_opt_path; print(tile_opt_path())')"
[ "$(readelf -d "$tile_opt" | grep -oE '(RUNPATH|RPATH).*')" = \
  'RUNPATH)            Library runpath: [$ORIGIN/../../mlir/lib:$ORIGIN/../../llvm/lib]' ]
"$BIN/tile-opt" --help >/dev/null
"$BIN/tile-mlir" --help >/dev/null
"$BIN/tile-opt" swizzle_128b.mlir --tile-lower-tma | grep -q 'tile.tensor_map_spec'
"$BIN/tile-opt" swizzle_128b.mlir --tile-to-ptx | grep -q 'gpu.binary'
no_cubin=""
"$BIN/python" -c 'import sys; from tile_mlir.compiler import find_ptxas; sys.exit(find_ptxas() is None)' \
  || no_cubin="--no-cubin"
"$BIN/tile-mlir" compile seed_tma_load.py -o seed $no_cubin
grep -q 'cp.async.bulk.tensor.2d' seed/kernel.ptx
"$BIN/tile-mlir" compile swizzle_128b.mlir -o swizzle --no-cubin
"$BIN/tile-mlir" explain swizzle_128b.mlir --coords 128,0 --rows 0:2 | grep -q '128B'
"$BIN/tile-mlir" rules box-extent | grep -q 'array<i64: 8, 256>'
eval "$("$BIN/tile-mlir" plugin | tail -1 | sed 's/FILE.mlir/swizzle_128b.mlir/')" \
  | grep -q 'nvvm.cp.async.bulk.tensor'
set +x
echo "test_wheel: all installed commands work"
