"""A compiled kernel: PTX, cubin and a JSON manifest, savable as a folder,
and callable: called with arrays, it loads its cubin and launches.

Needs no MLIR nor the compiled library: the contents and the folder format
are artifact_data.ArtifactData (standard library only, what the runtime
reads), the calls are the runtime's (numpy; cuda-python on the first call),
so the GPU machine can load and run artifacts built elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .artifact_data import MANIFEST, ArtifactData  # noqa: F401
from .runtime import load as load_module
from .runtime.driver import device_index
from .runtime.errors import TileRuntimeError
from .runtime.launcher import preflight
from .runtime.manifest import read_artifact


@dataclass
class Artifact(ArtifactData):
    """PTX, cubin and manifest. Called with arrays (or bound), it loads its
    cubin on the GPU once (runtime.load) and launches its single kernel."""
    _modules: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def load(cls, folder: str | Path) -> "Artifact":
        """The artifact saved in `folder`: [artifact-path] unless it is an
        artifact folder, [artifact-manifest] unless its manifest is one
        compile writes (runtime/manifest.py)."""
        return read_artifact(folder, cls)

    def module(self, device=None):
        """The runtime Module loaded on `device` (default: the current
        device), once per device."""
        module = self._modules.get(device) if type(device) is int else None
        if module is None:   # checked (device-index) and loaded once per device
            index = device_index(device)
            if index not in self._modules:
                self._modules[index] = load_module(self, device=index)
            module = self._modules[index]
        return module

    def __call__(self, *args, **kwargs):
        if not self._modules:   # the first call: its checks before any driver call
            self.check_call(args, kwargs)
        return self.module(_arrays_device(args))(*args, **kwargs)

    def bind(self, *args, **kwargs):
        """`runtime.Kernel.bind` on the module loaded on the arrays' device:
        checks the device arrays and encodes their tensor maps once; the
        returned callable only launches."""
        if not self._modules:
            self.check_call(args, kwargs)
        return self.module(_arrays_device(args)).bind(*args, **kwargs)

    def check_call(self, args: tuple, kwargs: dict | None = None) -> None:
        """Checks a call of the artifact's kernel with `args` (and the
        launch keywords grid, block, cluster) as far as no device is needed:
        the artifact ([artifact-cubin], [artifact-manifest]), the argument
        count, kinds, dtypes, shapes and scalar ranges, and the launch
        shape's limits. A call runs these before it first loads the
        module, so a wrong call is named on a machine without a GPU too."""
        signatures = preflight(self)
        if len(signatures) != 1:
            raise TileRuntimeError("kernel-name", f"the artifact holds "
                                   f"{len(signatures)} kernels ({', '.join(signatures)}): "
                                   "load it (runtime.load) and index it by name")
        (signature,) = signatures.values()
        kwargs = kwargs or {}
        signature.check_call(args, kwargs.get("grid"), kwargs.get("block"),
                             kwargs.get("cluster"))


def _arrays_device(args):
    """The CUDA device of the first torch or cupy device array among `args`
    (None: the current device), so a call runs where its arrays live."""
    for a in args:
        device = getattr(a, "device", None)
        if getattr(device, "type", None) == "cuda" and device.index is not None:
            return device.index   # torch
        if type(a).__module__.startswith("cupy") and hasattr(device, "id"):
            return device.id
    return None
