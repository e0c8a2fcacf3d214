"""Makes the built package importable when pytest runs outside the scripts."""

import sys
from pathlib import Path

_BUILT = Path(__file__).resolve().parents[1] / "build" / "python_packages"
if _BUILT.is_dir() and str(_BUILT) not in sys.path:
    sys.path.insert(0, str(_BUILT))
