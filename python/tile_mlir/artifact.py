"""A compiled kernel: PTX, cubin and a JSON manifest, savable as a folder.

Loading needs neither MLIR nor the compiled library: this module imports only
the standard library, so the GPU machine can read artifacts built elsewhere.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = "manifest.json"


@dataclass
class Artifact:
    """PTX, cubin and manifest. Called with arrays (or bound), it loads its
    cubin on the GPU once (runtime.load) and launches its single kernel."""
    ptx: str
    cubin: bytes | None
    manifest: dict = field(default_factory=dict)
    _modules: dict = field(default_factory=dict, repr=False, compare=False)

    def module(self, device=None):
        """The runtime Module loaded on `device` (default: the current
        device), once per device."""
        module = self._modules.get(device) if type(device) is int else None
        if module is None:   # checked (device-index) and loaded once per device
            from .runtime import driver, load
            index = driver.device_index(device)
            if index not in self._modules:
                self._modules[index] = load(self, device=index)
            module = self._modules[index]
        return module

    def __call__(self, *args, **kwargs):
        return self.module(_arrays_device(args))(*args, **kwargs)

    def bind(self, *args, **kwargs):
        return self.module(_arrays_device(args)).bind(*args, **kwargs)

    @property
    def kernels(self) -> list[dict]:
        return self.manifest.get("kernels", [])

    def kernel(self, name: str | None = None) -> dict:
        if name is None:
            if len(self.kernels) != 1:
                raise KeyError("name the kernel: the artifact holds "
                               f"{[k['name'] for k in self.kernels]}")
            return self.kernels[0]
        for info in self.kernels:
            if info["name"] == name:
                return info
        raise KeyError(f"no kernel '{name}' in the artifact")

    def save(self, folder: str | Path) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "kernel.ptx").write_text(self.ptx)
        if self.cubin is not None:
            (folder / "kernel.cubin").write_bytes(self.cubin)
        (folder / MANIFEST).write_text(json.dumps(self.manifest, indent=2) + "\n")
        return folder

    @classmethod
    def load(cls, folder: str | Path) -> "Artifact":
        folder = Path(folder)
        cubin_path = folder / "kernel.cubin"
        ptx_path = folder / "kernel.ptx"
        return cls(ptx=ptx_path.read_text() if ptx_path.exists() else "",
                   cubin=cubin_path.read_bytes() if cubin_path.exists() else None,
                   manifest=json.loads((folder / MANIFEST).read_text()))


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
