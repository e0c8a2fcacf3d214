"""cuda-python's driver module, imported where it is first needed.

cuda-python is an optional dependency (the `gpu` extra): the runtime imports
without it and names it missing only when a driver call is made. Both the
checked driver access (driver.py) and the errors' status names (errors.py)
read the module from here.
"""

from __future__ import annotations


def import_driver():
    """The `cuda.bindings.driver` module; ImportError where cuda-python is
    not installed."""
    # Function-local: cuda-python is optional (see the module's docstring).
    try:
        from cuda.bindings import driver
    except ImportError:  # cuda-python < 12.6 layout
        from cuda import cuda as driver  # type: ignore[no-redef]
    return driver
