#!/usr/bin/env bash
# The main job: the contract's example end to end (see README.md), after
# setup.sh has brought .venv and build/ up to date.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
python scripts/main_job.py "$@"
# This script's venv ends with it: say how to have it in the user's shell.
if [ "$TILE_CALLER_VENV" != "$ROOT/.venv" ]; then
  echo "next: source .venv/bin/activate   # python, tile-opt, tile-mlir, mlir-opt (README.md)"
fi
