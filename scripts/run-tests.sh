#!/usr/bin/env bash
# Every test: the lit/FileCheck suite, then pytest (CPU tests; GPU tests skip
# with a reason when no GPU is present).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
status=0
lit test/lit -v || status=1
python -m pytest -q -rs "$@" || status=1
exit $status
