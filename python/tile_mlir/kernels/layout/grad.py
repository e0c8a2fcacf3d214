"""Gradients through the layout ops. A torch tensor that requires a gradient
(with grad mode on) goes through a torch.autograd.Function whose backward
is the op's adjoint, so the op drops nothing from the graph:

  permute(x, dims)   the gradient permuted by the inverse of dims (permute)
  pad(x, pad, v)     the gradient cropped by the negated pads (pad: crops
                     where x was padded, zeros where x was cropped)
  unfold(x, ...)     F.fold of the gradient (col2im, the adjoint torch's own
                     unfold uses), NHWC columns reordered to F.unfold's first

The backward passes are differentiable in turn (they are these ops or
torch's). Forward-mode tangents (torch.autograd.forward_ad) go through the
same Functions: each op is linear, so its jvp is the op on the tangent.
DLPack arrays carry no gradient and skip this module.

The ops register their no-gradient forms and themselves (`register`), so
this module imports none of them: the ops sit above it.
"""

from __future__ import annotations

from .call import torch_module
from .plan.common import inverse_permutation, normalize_dims
from .plan.pad import normalize_pad, pad_spec

_FUNCTIONS: dict = {}
# name -> (op, op_tensor): the public op (its backward is differentiable in
# turn) and its no-gradient form on a torch tensor.
_OPS: dict = {}


def register(name: str, op, op_tensor, repeated=None) -> None:
    """Makes `name` differentiable: `op` is the public op, `op_tensor` its
    no-gradient form on a CUDA torch tensor; `repeated(t, *args)`, its
    result through the prepared calls (the custom op's implementation)."""
    _OPS[name] = (op, op_tensor)
    _REPEATED[name] = repeated or op_tensor


# name -> the no-gradient result through the prepared calls (layout/prepared.py).
_REPEATED: dict = {}


def needs_grad(x) -> bool:
    """Whether x needs the autograd Function: it requires a gradient (grad
    mode on) or carries a forward-mode tangent."""
    torch = torch_module()
    if not isinstance(x, torch.Tensor):
        return False
    if x.requires_grad and torch.is_grad_enabled():
        return True
    forward_ad = torch.autograd.forward_ad
    return forward_ad._current_level >= 0 and forward_ad.unpack_dual(x).tangent is not None


def apply(name: str, x, *args):
    """The op `name` on x through its autograd Function."""
    if not _FUNCTIONS:
        _FUNCTIONS.update(_functions(torch_module()))
    return _FUNCTIONS[name].apply(x, *args)


def _fold(grad, image_hw, spec: tuple, layout: str, batched: bool):
    """The adjoint of unfold: F.fold of the columns (NHWC's (L, taps C)
    rows reordered to F.unfold's (C taps, L) first)."""
    torch = torch_module()
    F = torch.nn.functional
    kernel, padding, stride, dilation = spec
    g = grad if batched else grad.unsqueeze(0)
    if layout == "NHWC":
        n, length, cols = g.shape
        taps = kernel[0] * kernel[1]
        g = g.reshape(n, length, taps, cols // taps).permute(0, 3, 2, 1) \
            .reshape(n, cols, length)
    out = F.fold(g, image_hw, kernel, dilation=dilation, padding=padding, stride=stride)
    if layout == "NHWC":
        out = out.permute(0, 2, 3, 1)
    return out if batched else out[0]


def _functions(torch) -> dict:
    permute, permute_tensor = _OPS["permute"]
    pad, pad_tensor = _OPS["pad"]
    unfold_tensor = _OPS["unfold"][1]

    class Permute(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, dims):
            ctx.dims = normalize_dims(dims, x.dim())
            return permute_tensor(x, ctx.dims)

        @staticmethod
        def backward(ctx, grad):
            return permute(grad, inverse_permutation(ctx.dims)), None

        @staticmethod
        def jvp(ctx, tangent, _dims):   # linear: the op on the tangent
            return permute_tensor(tangent, ctx.dims)

    class Pad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, pad, value):
            lefts, rights = normalize_pad(pad, x.dim())
            ctx.crop = [-p for p in pad_spec(lefts, rights)]
            ctx.pad = pad
            return pad_tensor(x, pad, value)

        @staticmethod
        def backward(ctx, grad):
            return pad(grad, ctx.crop), None, None

        @staticmethod
        def jvp(ctx, tangent, _pad, _value):   # the fill is a constant: zeros
            return pad_tensor(tangent, ctx.pad, 0)

    class Unfold(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, kernel_size, padding, stride, dilation, layout):
            out, spec = unfold_tensor(x, kernel_size, padding, stride, dilation, layout)
            ctx.layout, ctx.batched = spec.layout, x.dim() == 4
            ctx.args = (kernel_size, padding, stride, dilation, layout)
            ctx.hw = (spec.h, spec.w)
            ctx.spec = (spec.kernel, spec.padding, spec.stride, spec.dilation)
            return out

        @staticmethod
        def backward(ctx, grad):
            return (_fold(grad, ctx.hw, ctx.spec, ctx.layout, ctx.batched),
                    None, None, None, None, None)

        @staticmethod
        def jvp(ctx, tangent, *_args):
            return unfold_tensor(tangent, *ctx.args)[0]

    return {"permute": Permute, "pad": Pad, "unfold": Unfold}
