#!/usr/bin/env bash
# What one device call runs (see docs/performance.md): the GPU suite, the
# differential run, the benchmarks and sanitizer passes; logs go to $OUT.
set -u
export PYTHONPATH=build/python_packages TILE_GPU_ARTIFACTS=.artifacts
OUT=${OUT:-/tmp/out}
timeout 300 python3 -m pytest -q -p no:cacheprovider --timeout=120 -s test/gpu -rf > "$OUT/gpu_tests.log" 2>&1
grep -E "passed|failed|differential|matched|tf32 tie" "$OUT/gpu_tests.log" | tail -5
for part in "$@"; do
  case "$part" in
    bench)
      timeout 200 python3 bench/bandwidth.py --json "$OUT/bandwidth.json" > "$OUT/bandwidth.log" 2>&1; tail -3 "$OUT/bandwidth.log"
      timeout 120 python3 bench/launch_overhead.py --json "$OUT/launch.json" 2>&1 | tail -7
      timeout 120 python3 bench/peer_compile.py 2>&1 | tail -3 ;;
    debug)
      timeout 120 python3 bench/debug_cost.py --json "$OUT/debug_cost.json" > "$OUT/debug_cost.log" 2>&1; tail -3 "$OUT/debug_cost.log" ;;
    transpose)
      timeout 200 python3 bench/transpose.py --json "$OUT/transpose.json" > "$OUT/transpose.log" 2>&1; tail -25 "$OUT/transpose.log" ;;
    sanitize)
      for tool in memcheck racecheck synccheck; do
        timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 python3 -m pytest -q -p no:cacheprovider \
          test/gpu/test_seed.py test/gpu/test_sweep.py -k "seed or load_dtype_float32 or swizzle3 or multicast2 or store_tile or reduce_add_float32 or interleave32 or repeat_2axes" \
          > "$OUT/sanitizer_$tool.log" 2>&1
        echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|passed|failed' "$OUT/sanitizer_$tool.log" | tail -2 | tr '\n' ' ')"
      done ;;
  esac
done
