#!/usr/bin/env bash
# Builds the wheel the way `pip install .` does (default build isolation:
# the build requirements come from the package index into a throw-away
# environment), installs it into a fresh venv and, from a folder outside
# the repository, runs the installed commands: tile-opt (a lowering),
# tile-mlir compile on the seed example (.ptx, .cubin or the missing-ptxas
# error, manifest), explain, rules and plugin (mlir-opt loading the
# installed plugin).
#
#   bash scripts/test_wheel.sh [WORK_DIR]     (default: a new temporary folder,
#                                              removed when every check passed)
#   TILE_WHEEL=path/to/tile_mlir-*.whl bash scripts/test_wheel.sh   # skip the build
#
# A wheel build compiles the whole project (3 to 4 minutes on 2 cores; it
# shows its progress and keeps pip's output in WORK_DIR/wheel-build.log), so
# CI (.ci/run) runs this after the test suite, and pytest only when
# TILE_TEST_WHEEL=1 (test_wheel_install.py).
set -euo pipefail
# Nothing from the build tree: a PYTHONPATH (the tests set one) would shadow
# the installed package.
unset PYTHONPATH PYTHONHOME
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -ge 1 ]; then
  WORK="$(realpath -m "$1")"
  remove_work=""
else
  WORK="$(realpath "$(mktemp -d -t tile-wheel-XXXXXX)")"
  remove_work=1
fi
case "$WORK/" in
  "$(realpath "$ROOT")"/*) echo "test_wheel: $WORK is inside the repository" >&2; exit 2 ;;
esac
mkdir -p "$WORK"
PY="${PYTHON:-python3}"
echo "test_wheel: working in $WORK"
# (`! cmd` would not stop a `set -e` script: negative checks call fail.)
fail() { echo "test_wheel: FAILED: $*" >&2; exit 1; }

# The fresh venv first: its pip builds the wheel too, so that the build
# needs no pip outside it.
rm -rf "$WORK/venv"
"$PY" -m venv "$WORK/venv"
BIN="$WORK/venv/bin"

wheel="${TILE_WHEEL:-}"
if [ -z "$wheel" ]; then
  # A copy of the tracked and untracked (not ignored) sources: the build
  # then uses a fresh build directory, as on a fresh clone.
  rm -rf "$WORK/src" "$WORK/wheelhouse"
  mkdir -p "$WORK/src"
  (cd "$ROOT" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - 2>/dev/null) \
    | tar -xf - -C "$WORK/src"
  start=$SECONDS
  echo "test_wheel: building the wheel with pip (its build environment, CMake configure," \
       "then a full compile: 3 to 4 minutes on 2 cores)"
  # pip -v passes the build's ninja lines on: one progress line, the rest
  # in the log (its errors printed if it fails).
  "$BIN/python" "$ROOT/scripts/build_progress.py" --log "$WORK/wheel-build.log" \
    --prefix test_wheel --what "compiling the wheel" --done "compiled the wheel" \
    -- "$BIN/python" -m pip wheel -v "$WORK/src" --no-deps -w "$WORK/wheelhouse"
  echo "test_wheel: wheel built in $((SECONDS - start)) s"
  wheel="$(ls "$WORK"/wheelhouse/tile_mlir-*.whl)"
fi
echo "test_wheel: wheel $wheel"

# The wheel is the Python package: no C++ headers, archives or CMake files
# (those are the TileMLIR CMake package, which wheel builds leave out).
"$BIN/python" - "$wheel" <<'EOF'
import re, sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
dev = [n for n in names if re.search(r"\.(h|inc|td|cmake|a)$", n) or "/cmake/" in n]
assert not dev, f"the wheel ships C++ development files: {dev}"
for needed in ("tile_mlir/bin/tile-opt", "tile_mlir/_lib/libTileMLIR.so", "tile_mlir/cli.py",
               "tile_mlir/runtime/_launch.abi3.so"):
    assert needed in names, f"the wheel lacks {needed}"
EOF

"$BIN/python" -m pip install -q "$wheel"

cd "$WORK"   # outside the repository: nothing may come from the source tree
cp "$ROOT/examples/swizzle_128b.mlir" "$ROOT/examples/seed_tma_load.py" "$WORK/"
set -x
# The RPATH is relative to the installed mlir/llvm wheels, nothing absolute.
tile_opt="$("$BIN/python" -c 'from tile_mlir._launchers import tile_opt_path; print(tile_opt_path())')"
case "$tile_opt" in "$WORK/venv/"*) ;; *) fail "tile-opt is $tile_opt, not the venv's" ;; esac
[ "$(readelf -d "$tile_opt" | grep -oE '(RUNPATH|RPATH).*')" = \
  'RUNPATH)            Library runpath: [$ORIGIN/../../mlir/lib:$ORIGIN/../../llvm/lib]' ]
"$BIN/tile-opt" --help >/dev/null
"$BIN/tile-mlir" --help >/dev/null

# tile-opt lowers: the copy becomes two bulk tensor copies (two repeat
# slots), the tile op is gone.
"$BIN/tile-opt" swizzle_128b.mlir --tile-to-nvvm >lowered.mlir
[ "$(grep -c 'nvvm.cp.async.bulk.tensor.shared.cluster.global' lowered.mlir)" = 2 ]
if grep -q 'tile.tma_copy' lowered.mlir; then fail "tile-opt left a tile.tma_copy"; fi
"$BIN/tile-opt" swizzle_128b.mlir --tile-to-ptx | grep -q 'gpu.binary'

# tile-mlir compile on the seed example: PTX with its two copies, the
# manifest, and a cubin where ptxas is installed, else an error naming it.
if "$BIN/python" -c 'import sys; from tile_mlir.compiler import find_ptxas; sys.exit(find_ptxas() is None)'; then
  "$BIN/tile-mlir" compile seed_tma_load.py -o seed | tee compile.log
  grep -q 'seed/kernel.cubin' compile.log
  [ "$(head -c 4 seed/kernel.cubin | od -An -c | tr -d ' ')" = '177ELF' ]
else
  if "$BIN/tile-mlir" compile seed_tma_load.py -o seed 2>compile.err; then
    fail "compile without ptxas succeeded"
  fi
  grep -q 'no ptxas found' compile.err
  "$BIN/tile-mlir" compile seed_tma_load.py -o seed --no-cubin
  if [ -e seed/kernel.cubin ]; then fail "--no-cubin wrote a cubin"; fi
fi
[ "$(grep -c 'cp.async.bulk.tensor.2d.shared::cta.global.tile' seed/kernel.ptx)" = 2 ]
"$BIN/python" - seed/manifest.json <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
(k,) = m["kernels"]
assert m["arch"] == "sm_90a" and k["name"] == "tma_load", m
(spec,) = k["tensor_maps"]   # one 8x16 uint32 box, dims innermost-first
assert spec["box"] == [16, 8] and spec["format"] == "uint32", spec
EOF
"$BIN/tile-mlir" compile swizzle_128b.mlir -o swizzle --no-cubin

# explain: the 128B swizzle's XOR is visible in the second line of the image.
"$BIN/tile-mlir" explain swizzle_128b.mlir --coords 128,0 --rows 0:2 >explain.txt
grep -q '^swizzle     128B (3)' explain.txt
grep -q '1  0x0080   1 | (129,8)  (129,0)  (129,24) (129,16)' explain.txt
"$BIN/tile-mlir" rules box-extent | grep -q 'array<i64: 8, 256>'
eval "$("$BIN/tile-mlir" plugin | tail -1 | sed 's/FILE.mlir/swizzle_128b.mlir/')" \
  | grep -q 'nvvm.cp.async.bulk.tensor'
set +x
echo "test_wheel: all installed commands work"
if [ -n "$remove_work" ]; then
  cd /
  rm -rf "$WORK"
fi
