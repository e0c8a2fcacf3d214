"""An artifact's contents, PTX, cubin and a JSON manifest, and its folder.

Standard library only: the runtime reads these on a machine that has just
the artifact (no MLIR, no compiled library), and the compile side writes
them. `tile_mlir.artifact.Artifact` adds the calls that launch it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .errors import TileError, TileUsageError

MANIFEST = "manifest.json"
PTX = "kernel.ptx"
CUBIN = "kernel.cubin"
# The manifest's format (its "version" key; one without it is version 1).
# runtime.load refuses another, so an artifact from an incompatible package
# is named rather than misread.
MANIFEST_VERSION = 1


class KernelNameError(TileError, KeyError):
    """[kernel-name]: no kernel of that name (also a KeyError, as a lookup)."""
    __str__ = BaseException.__str__   # KeyError's would quote the message


@dataclass
class ArtifactData:
    """PTX, cubin and manifest, savable as a folder."""
    ptx: str
    cubin: bytes | None
    manifest: dict = field(default_factory=dict)

    def __post_init__(self):
        if isinstance(self.manifest, dict) and "version" not in self.manifest:
            self.manifest = {"version": MANIFEST_VERSION, **self.manifest}

    @property
    def kernels(self) -> list[dict]:
        return self.manifest.get("kernels", [])

    def kernel(self, name: str | None = None) -> dict:
        """The manifest entry of kernel `name` (None: the only one)."""
        names = [k.get("name") for k in self.kernels]
        if name is None:
            if len(self.kernels) != 1:
                raise KernelNameError("kernel-name", f"name the kernel: the artifact "
                                      f"holds {names}")
            return self.kernels[0]
        for info in self.kernels:
            if info.get("name") == name:
                return info
        raise KernelNameError("kernel-name", f"no kernel {name!r} in the artifact "
                              f"(it holds {names})")

    def save(self, folder: str | Path) -> Path:
        """Writes the folder (created with its parents); one that cannot be
        written is [output-path], naming it and the system's reason."""
        if isinstance(folder, (bytes, bytearray)) or not isinstance(folder,
                                                                     (str, os.PathLike)):
            raise TileUsageError("output-path", f"save takes a folder path (a str or "
                                 f"os.PathLike), got {type(folder).__name__} {folder!r}")
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / PTX).write_text(self.ptx)
            if self.cubin is not None:
                (folder / CUBIN).write_bytes(self.cubin)
            (folder / MANIFEST).write_text(json.dumps(self.manifest, indent=2) + "\n")
        except OSError as err:
            where = err.filename or folder
            raise TileUsageError("output-path", f"cannot write the artifact folder "
                                 f"{str(folder)!r}: {where}: {err.strerror or err}") \
                from None
        except ValueError as err:  # a NUL byte: no path the system takes
            raise TileUsageError("output-path", f"cannot write the artifact folder "
                                 f"{str(folder)!r}: {err}") from None
        return folder

    @classmethod
    def load(cls, folder: str | Path):
        """The artifact saved in `folder`, read as it is (runtime.load and
        tile_mlir.artifact.Artifact.load check the path and the manifest)."""
        folder = Path(folder)
        cubin_path = folder / CUBIN
        ptx_path = folder / PTX
        return cls(ptx=ptx_path.read_text() if ptx_path.exists() else "",
                   cubin=cubin_path.read_bytes() if cubin_path.exists() else None,
                   manifest=json.loads((folder / MANIFEST).read_text()))
