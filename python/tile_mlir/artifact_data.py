"""An artifact's contents, PTX, cubin and a JSON manifest, and its folder.

Standard library only: the runtime reads these on a machine that has just
the artifact (no MLIR, no compiled library), and the compile side writes
them. `tile_mlir.artifact.Artifact` adds the calls that launch it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = "manifest.json"


@dataclass
class ArtifactData:
    """PTX, cubin and manifest, savable as a folder."""
    ptx: str
    cubin: bytes | None
    manifest: dict = field(default_factory=dict)

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
    def load(cls, folder: str | Path):
        folder = Path(folder)
        cubin_path = folder / "kernel.cubin"
        ptx_path = folder / "kernel.ptx"
        return cls(ptx=ptx_path.read_text() if ptx_path.exists() else "",
                   cubin=cubin_path.read_bytes() if cubin_path.exists() else None,
                   manifest=json.loads((folder / MANIFEST).read_text()))
