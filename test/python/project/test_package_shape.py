"""The package's shape: what runs on the GPU machine imports no MLIR, and
the public builder imports keep working."""

import subprocess
import sys
from pathlib import Path

import pytest

# Modules the GPU tests (test/gpu) and the GPU-side scripts import, on a
# machine with numpy and cuda-python but no MLIR.
GPU_SIDE = ("tile_mlir.runtime", "tile_mlir.emulator", "tile_mlir.artifact",
            "tile_mlir.testing", "tile_mlir.testing.cases",
            "tile_mlir.testing.random_cases", "tile_mlir.testing.racecheck")


@pytest.mark.parametrize("module", GPU_SIDE)
def test_gpu_side_modules_import_without_mlir(module):
    import tile_mlir
    package = Path(tile_mlir.__file__).resolve().parents[1]
    code = (f"import sys, {module}\n"
            "bad = [m for m in sys.modules if m.split('.')[0] == 'mlir']\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True,
                   env={"PYTHONPATH": str(package)})


def test_kernel_module_is_the_builder():
    pytest.importorskip("mlir.ir")
    from tile_mlir import builder, kernel
    for name in builder.__all__:
        assert getattr(kernel, name) is getattr(builder, name), name
    from tile_mlir.kernel import KernelDef, Tensor, kernel as decorator  # noqa: F401
