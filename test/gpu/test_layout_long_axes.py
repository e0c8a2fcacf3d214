"""The layout ops on tensors with an axis longer than the copy engine's
signed 32-bit coordinates reach (tile_mlir.kernels.layout.limits.COORD_REACH;
seen as two axes where they split, else moved by the threads' kernels):
bit-exact against torch on fresh random bits. Each case moves 2-17 GB of
device memory, so the file skips itself on a GPU with less than 40 GiB.

    TILE_GPU_ARTIFACTS=.artifacts/layout TILE_MLIR_CACHE_DIR=.artifacts/layout/cache \\
        python3 -m pytest -q test/gpu/test_layout_long_axes.py
"""

import pytest

torch = pytest.importorskip("torch")
F = pytest.importorskip("torch.nn.functional")

from tile_mlir.kernels import pad, permute  # noqa: E402
from tile_mlir.testing.layout_cases import LONG_PADS, LONG_PERMUTES  # noqa: E402

from torch_bits import INTS, case_id as _id, random_bits  # noqa: E402

pytestmark = pytest.mark.skipif(
    not torch.cuda.is_available() or
    torch.cuda.get_device_properties(0).total_memory < 40 * 2**30,
    reason="needs a GPU with at least 40 GiB")


@pytest.fixture(autouse=True)
def _free_memory():
    yield
    torch.cuda.empty_cache()


@pytest.mark.parametrize("case", LONG_PERMUTES, ids=[_id(c) for c in LONG_PERMUTES])
def test_permute_of_a_long_axis_is_exact(case, gen):
    shape, dims, elem = case
    x = random_bits(shape, elem, gen)
    y = permute(x, dims)
    want = x.view(INTS[elem]).permute(dims).contiguous()
    assert y.shape == want.shape and torch.equal(y.view(INTS[elem]), want)


@pytest.mark.parametrize("case", LONG_PADS, ids=[_id(c) for c in LONG_PADS])
def test_pad_of_a_long_axis_is_exact(case, gen):
    shape, pad_, elem, fill = case
    x = random_bits(shape, elem, gen)
    value = {"zero": 0, "value": 3}[fill]
    y = pad(x, pad_, value=value)
    # The reference pads the integer bits (value 3 is 3 in uint8 too).
    want = F.pad(x.view(INTS[elem]), pad_, value=value)
    assert y.shape == want.shape and torch.equal(y.view(INTS[elem]), want)
