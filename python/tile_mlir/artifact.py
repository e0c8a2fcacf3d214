"""A compiled kernel: PTX, cubin and a JSON manifest, savable as a folder,
and callable: called with arrays, it loads its cubin and launches.

Needs no MLIR nor the compiled library: the contents and the folder format
are artifact_data.ArtifactData (standard library only, what the runtime
reads), the calls are the runtime's (numpy; cuda-python on the first call),
so the GPU machine can load and run artifacts built elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .artifact_data import MANIFEST, ArtifactData  # noqa: F401
from .runtime import load as load_module
from .runtime.driver import device_index


@dataclass
class Artifact(ArtifactData):
    """PTX, cubin and manifest. Called with arrays (or bound), it loads its
    cubin on the GPU once (runtime.load) and launches its single kernel."""
    _modules: dict = field(default_factory=dict, repr=False, compare=False)

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
        return self.module(_arrays_device(args))(*args, **kwargs)

    def bind(self, *args, **kwargs):
        return self.module(_arrays_device(args)).bind(*args, **kwargs)


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
