"""The MLIR host lowering on the GPU: the seed kernel runs with a tensor map
encoded from exactly the arguments tile-lower-tma-host passed
cuTensorMapEncodeTiled (recorded by the JIT-compiled host code when the
artifacts were built), not from the Python runtime's own encoding."""

import json

import numpy as np

from tile_mlir import runtime
from tile_mlir.runtime.arrays import device_view, upload
from tile_mlir.runtime.driver import check, cuda
from tile_mlir.runtime.launcher import _launch, _pack


def test_seed_runs_with_the_host_lowering_encode(artifacts, rng):
    recorded = json.loads((artifacts / "seed" / "host_encode.json").read_text())
    mod = runtime.load(artifacts / "seed")
    kernel = mod.kernels["tma_load"]
    x = rng.integers(0, 2**32, size=(16, 16), dtype=np.uint32)
    out = np.zeros_like(x)
    views = [upload(device_view(x, 0)), upload(device_view(out, 1))]
    drv = cuda()
    tmap = check(drv.cuTensorMapEncodeTiled(
        drv.CUtensorMapDataType(recorded["data_type"]), recorded["rank"], views[0].ptr,
        [drv.cuuint64_t(d) for d in recorded["dims"]],
        [drv.cuuint64_t(s) for s in recorded["strides"]],
        [drv.cuuint32_t(b) for b in recorded["box"]],
        [drv.cuuint32_t(e) for e in recorded["element_strides"]],
        drv.CUtensorMapInterleave(recorded["interleave"]),
        drv.CUtensorMapSwizzle(recorded["swizzle"]),
        drv.CUtensorMapL2promotion(recorded["l2_promotion"]),
        drv.CUtensorMapFloatOOBfill(recorded["oob_fill"])), "cuTensorMapEncodeTiled")
    params = _pack(views, kernel.specs, [tmap])
    _launch(kernel.function, (1, 1, 1), (32, 1, 1), None, 0, 0, params.array())
    check(drv.cuStreamSynchronize(0), "cuStreamSynchronize")
    views[1].host = out
    from tile_mlir.runtime.arrays import download
    download(views[1])
    assert np.array_equal(out, x)
