#!/usr/bin/env bash
# Every test: the lit/FileCheck suite, then pytest (CPU tests; GPU tests skip
# with a reason when no GPU is present), after setup.sh has brought .venv and
# build/ up to date. Arguments go to pytest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
status=0
echo "tests: lit test/lit (FileCheck and verifier diagnostics)"
lit test/lit -v || status=1
echo "tests: pytest (CPU; GPU tests skip with the reason)"
python -m pytest -q -rs "$@" || status=1
exit $status
