"""The MLIR host lowering on the GPU: kernels run with tensor maps encoded
from exactly the arguments tile-lower-tma-host passed the driver
(cuTensorMapEncodeTiled for the seed, cuTensorMapEncodeIm2col for an im2col
sweep case; recorded by the JIT-compiled host code when the artifacts were
built), not from the Python runtime's own encoding."""

import json

import numpy as np
import pytest

from tile_mlir import runtime
from tile_mlir.runtime.arrays import device_view, download, upload
from tile_mlir.runtime.driver import check, cuda
from tile_mlir.launch_shape import dim3
from tile_mlir.runtime.launch import Launcher
from tile_mlir.runtime.launcher import _pack
from tile_mlir.testing.cases import all_cases

# A sibling test module: pytest puts this folder on sys.path.
from test_sweep import STORAGE, expected_load, random_bits

# The sweep case whose map build_gpu_artifacts.py records (HOST_ENCODE_CASES).
IM2COL_CASE = "im2col_nhwc_pad1"


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
    params = _pack(kernel.info["params"], views, kernel.specs, [tmap])
    Launcher(kernel.function, (1, 1, 1), (32, 1, 1), None, 0)(0, params.array())
    check(drv.cuStreamSynchronize(0), "cuStreamSynchronize")
    views[1].host = out
    download(views[1])
    assert np.array_equal(out, x)


def test_im2col_runs_with_the_host_lowering_encode(artifacts, rng):
    """The im2col sweep case, its map encoded with the host lowering's
    cuTensorMapEncodeIm2col arguments, matches the emulator bit-exactly."""
    folder = artifacts / IM2COL_CASE
    if not (folder / "host_encode.json").exists():
        pytest.skip(f"{folder}/host_encode.json not built "
                    "(python scripts/build_gpu_artifacts.py)")
    (case,) = [c for c in all_cases() if c["name"] == IM2COL_CASE]
    recorded = json.loads((folder / "host_encode.json").read_text())
    assert recorded["function"] == "cuTensorMapEncodeIm2col"
    mod = runtime.load(folder)
    kernel = mod.kernels[IM2COL_CASE]
    (spec,) = kernel.specs
    assert spec.encode == "im2col"

    sshape = tuple(kernel.info["params"][1]["shape"])
    G = random_bits(rng, tuple(case["gshape"]), case["dtype"])
    S = random_bits(rng, sshape, case["dtype"])
    out = np.zeros(sshape, dtype=STORAGE[case["dtype"]])
    g_view = upload(device_view(G, 0))
    drv = cuda()
    tmap = check(drv.cuTensorMapEncodeIm2col(
        drv.CUtensorMapDataType(recorded["data_type"]), recorded["rank"], g_view.ptr,
        [drv.cuuint64_t(d) for d in recorded["dims"]],
        [drv.cuuint64_t(s) for s in recorded["strides"]],
        list(recorded["lower"]), list(recorded["upper"]),
        recorded["channels"], recorded["pixels"],
        [drv.cuuint32_t(e) for e in recorded["element_strides"]],
        drv.CUtensorMapInterleave(recorded["interleave"]),
        drv.CUtensorMapSwizzle(recorded["swizzle"]),
        drv.CUtensorMapL2promotion(recorded["l2_promotion"]),
        drv.CUtensorMapFloatOOBfill(recorded["oob_fill"])), "cuTensorMapEncodeIm2col")
    # G was uploaded for the encode: launch on that very device copy.
    views = [g_view, upload(device_view(S, 1)), upload(device_view(out, 2))]
    params = _pack(kernel.info["params"], views, kernel.specs, [tmap])
    Launcher(kernel.function, dim3(kernel.info.get("grid", (1, 1, 1))),
             dim3(kernel.info.get("block", (1, 1, 1))), None,
             kernel.dynamic_shared)(0, params.array())
    check(drv.cuStreamSynchronize(0), "cuStreamSynchronize")
    views[2].host = out
    download(views[2])
    want = expected_load(case, G, S)
    got = out.reshape(-1).view(np.uint8)
    mismatch = np.flatnonzero(got != want)
    assert mismatch.size == 0, (f"{mismatch.size} bytes differ, first at byte "
                                f"{mismatch[:8].tolist()}")
