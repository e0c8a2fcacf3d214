"""Gradients through the layout ops on the GPU (tile_mlir.kernels.layout.
grad): a bf16 tensor that requires a gradient gets torch's own
gradient, bit for bit, on fresh random data; float64 ones pass
torch.autograd.gradcheck and gradgradcheck. Kernels come from the layout
compile cache (bench/build_layout.py), as for test_layout.py:
    TILE_GPU_ARTIFACTS=.artifacts/layout TILE_MLIR_CACHE_DIR=.artifacts/layout/cache \\
        python3 -m pytest -q test/gpu/test_layout_grad.py
"""

import pytest

torch = pytest.importorskip("torch")
F = pytest.importorskip("torch.nn.functional")

from tile_mlir.kernels import pad, permute, unfold  # noqa: E402
from tile_mlir.testing.layout_cases import PAD_GRAD, PERMUTE_GRAD, UNFOLD_GRAD  # noqa: E402


def _bits(t):
    return t.contiguous().view({2: torch.int16, 8: torch.int64}[t.element_size()])


def _torch_unfold(x, k, p, s, d, layout):
    if layout == "NCHW":
        return F.unfold(x, k, d, p, s)
    cols = F.unfold(x.permute(0, 3, 1, 2), k, d, p, s)
    n, ct, length = cols.shape
    taps = ct // x.shape[-1]
    return cols.reshape(n, ct // taps, taps, length).permute(0, 3, 2, 1).reshape(n, length, ct)


def _image(shape, layout):
    n, c, h, w = shape
    return (n, c, h, w) if layout == "NCHW" else (n, h, w, c)


OPS = ([("permute", shape, (lambda x, d=dims: permute(x, d)),
         (lambda x, d=dims: x.permute(d).contiguous())) for shape, dims in PERMUTE_GRAD] +
       [(f"pad {value}", shape, (lambda x, q=p, v=value: pad(x, q, value=v)),
         (lambda x, q=p, v=value: F.pad(x, q, value=v)))
        for shape, p in PAD_GRAD for value in (0.0, 1.5)] +
       [(f"unfold {layout}", _image(shape, layout),
         (lambda x, a=(k, p, s, d, layout): unfold(x, a[0], a[1], a[2], a[3], a[4])),
         (lambda x, a=(k, p, s, d, layout): _torch_unfold(x, *a)))
        for shape, k, p, s, d, layout in UNFOLD_GRAD])
IDS = [f"{name} {shape}" for name, shape, _, _ in OPS]


@pytest.mark.parametrize("name,shape,ours,theirs", OPS, ids=IDS)
def test_the_gradient_is_torchs(name, shape, ours, theirs, gen):
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen,
                    requires_grad=True)
    y = ours(x)
    assert y.grad_fn is not None
    x_ref = x.detach().clone().requires_grad_()
    y_ref = theirs(x_ref)
    assert torch.equal(_bits(y.detach()), _bits(y_ref.detach()))
    g = torch.randn(y.shape, device="cuda", dtype=torch.bfloat16, generator=gen)
    (got,) = torch.autograd.grad(y, x, g)
    (want,) = torch.autograd.grad(y_ref, x_ref, g)
    assert got.shape == x.shape and torch.equal(_bits(got), _bits(want))


@pytest.mark.parametrize("name,shape,ours,theirs", OPS, ids=IDS)
def test_gradcheck(name, shape, ours, theirs, gen):
    x = torch.randn(shape, device="cuda", dtype=torch.float64, generator=gen,
                    requires_grad=True)
    assert torch.autograd.gradcheck(ours, (x,))
    assert torch.autograd.gradgradcheck(ours, (x,))


@pytest.mark.parametrize("name,shape,ours,theirs", OPS, ids=IDS)
def test_the_forward_mode_tangent_is_torchs(name, shape, ours, theirs, gen):
    fw = torch.autograd.forward_ad
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen)
    t = torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen)
    with fw.dual_level():
        got = fw.unpack_dual(ours(fw.make_dual(x, t)))
        want = fw.unpack_dual(theirs(fw.make_dual(x, t)))
    assert got.tangent is not None
    assert torch.equal(_bits(got.primal), _bits(want.primal))
    assert torch.equal(_bits(got.tangent), _bits(want.tangent))


def test_no_graph_without_grad_mode(gen):
    shape, dims = PERMUTE_GRAD[0]
    x = torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen,
                    requires_grad=True)
    with torch.no_grad():
        y = permute(x, dims)
    assert y.grad_fn is None and not y.requires_grad
