"""Runtime: load an artifact's cubin, encode its tensor maps, launch it.

Needs only numpy and cuda-python (`cuda.bindings.driver`); never imports MLIR
or the compiled library, so it runs on a machine that has just the artifact.

    mod = runtime.load("artifacts/seed")
    out = np.zeros_like(x)
    mod(x, out)                # numpy arrays are copied to and from the device
"""

from .debug import DeviceFault  # noqa: F401
from .errors import TileRuntimeError  # noqa: F401
from .launcher import Kernel, Module, load  # noqa: F401
from .tensormap import check_source  # noqa: F401

# The public face (the API reference documents these names).
__all__ = ["DeviceFault", "Kernel", "Module", "TileRuntimeError", "check_source", "load"]
