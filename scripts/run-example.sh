#!/usr/bin/env bash
# The main job: the contract's example end to end (see README.md).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
python scripts/main_job.py "$@"
