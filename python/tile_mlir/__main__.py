"""`python -m tile_mlir explain ...`: the same as the `tile-mlir` command."""

import sys

from .cli import main

sys.exit(main())
