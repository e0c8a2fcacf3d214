"""Bad arguments raise a rule-named error before anything is launched, and
the process stays usable afterwards."""

import numpy as np
import pytest

from tile_mlir import runtime
from tile_mlir.runtime.errors import TileRuntimeError


def _rule(fn, *args):
    with pytest.raises(TileRuntimeError) as err:
        fn(*args)
    return err.value.rule


def test_bad_host_arguments_then_a_good_launch(artifacts, rng):
    mod = runtime.load(artifacts / "seed")
    x = rng.integers(0, 2**32, size=(16, 16), dtype=np.uint32)
    out = np.full_like(x, 7)
    assert _rule(mod, x.astype(np.float32), out) == "argument-dtype"
    assert _rule(mod, x[:, :8], out) == "argument-shape"
    assert _rule(mod, x.reshape(-1), out) == "global-rank"
    assert _rule(mod, x[:, ::2].repeat(2, axis=1)[:, ::-1], out) == "global-inner-stride"
    assert _rule(mod, x) == "argument-count"
    assert (out == 7).all(), "nothing ran"
    mod(x, out)
    assert np.array_equal(out, x)


def test_misaligned_device_pointer(artifacts, rng):
    torch = pytest.importorskip("torch", reason="device arrays come from torch here")
    mod = runtime.load(artifacts / "load_dtype_int32")
    case_shape = (40, 96)
    flat = torch.zeros(40 * 96 + 1, dtype=torch.int32, device="cuda")
    misaligned = flat[1:].view(case_shape)
    sshape = tuple(mod.artifact.kernel()["params"][1]["shape"])
    S = np.zeros(sshape, np.int32)
    out = np.zeros(sshape, np.int32)
    assert _rule(mod, misaligned, S, out) == "global-base-alignment"
    cpu = torch.zeros(case_shape, dtype=torch.int32)
    assert _rule(mod, cpu, S, out) == "device-array"
    aligned = flat[:-1].view(case_shape)
    aligned.copy_(torch.from_numpy(rng.integers(-2**31, 2**31, size=case_shape,
                                                dtype=np.int32)))
    mod(aligned, S, out)  # still usable
    torch.cuda.synchronize()


def test_bind_needs_device_arrays(artifacts):
    mod = runtime.load(artifacts / "seed")
    x = np.zeros((16, 16), np.uint32)
    assert _rule(mod.bind, x, x.copy()) == "device-array"
