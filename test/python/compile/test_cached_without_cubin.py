"""compile(cubin=False) gives the artifact cubin=False makes, also when the
compile cache holds the same kernel compiled with a cubin."""

from pathlib import Path

import pytest

from tile_mlir import compiler

SWIZZLE = (Path(__file__).resolve().parents[3] / "examples" / "swizzle_128b.mlir").read_text()


@pytest.mark.skipif(compiler.find_ptxas() is None, reason="no ptxas")
def test_a_cached_cubin_is_not_returned_without_cubin(tmp_path, monkeypatch):
    monkeypatch.setenv("TILE_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    full = compiler.compile(SWIZZLE, cubin=True)
    assert full.cubin and "registers" in full.manifest["kernels"][0]
    bare = compiler.compile(SWIZZLE, cubin=False)
    assert bare.cubin is None
    assert "registers" not in bare.manifest["kernels"][0]
    assert bare.ptx == full.ptx
    bare.save(tmp_path / "bare")
    assert not (tmp_path / "bare" / "kernel.cubin").exists()
