"""The layout ops as torch custom ops (torch.library): torch.ops.tile_mlir.

  permute(Tensor x, int[] dims) -> Tensor
  pad(Tensor x, int[] pad, float value) -> Tensor
  unfold(Tensor x, int[] kernel_size, int[] padding, int[] stride,
         int[] dilation, str layout) -> Tensor

Each runs the op's no-gradient form on CUDA tensors. Its fake
implementation gives the output's shape and strides exactly as the op
returns them (permute and unfold contiguous; pad contiguous, channels_last
(channels_last_3d) for such an input, and for a pad with no positive
amount the layout of torch's clone of the cropped view), and raises the
op's TileUsageError for arguments the op refuses, so a trace fails where
the call would. Gradients are the adjoints of layout/grad.py written with
these ops and torch's: permute's inverse permutation, pad's crop by the
negated pads, unfold's F.fold; they are differentiable in turn.
Forward-mode tangents are not registered (torch.library has no place for
them): the eager ops keep theirs.

Importing this module imports torch and defines the ops, once a process
(layout/torch_ops.py imports it where a trace first needs them). It
imports none of the ops' modules: the no-gradient forms come from the
registry the ops fill (grad.register).
"""

import numbers

import torch

from ...errors import TileUsageError
from .grad import _REPEATED, _fold
from .plan.common import (
    check_elem,
    contiguous_strides,
    inverse_permutation,
    is_sequence,
    normalize_dims,
)
from .plan.pad import (
    canonical_pad,
    channels_last_like,
    channels_last_order,
    normalize_pad,
    pad_spec,
)
from .plan.unfold import _pair, unfold_spec

NAMESPACE = "tile_mlir"
OPS = ("permute", "pad", "unfold")


def namespace():
    """torch.ops.tile_mlir, where the ops are defined."""
    return getattr(torch.ops, NAMESPACE)


# The arguments in the schema's types, checked as the op checks them. Under
# Dynamo these run for real at trace time (their results are constants), so
# a bad argument raises the op's own TileUsageError there.

@torch.compiler.assume_constant_result
def permute_args(rank: int, dims) -> tuple:
    """(dims,) of the custom op: [layout-permutation] as permute()."""
    return (list(normalize_dims(dims, rank)),)


@torch.compiler.assume_constant_result
def pad_args(rank: int, pad, value=0) -> tuple:
    """(pad, value) of the custom op: [pad-spec] for a pad that is not an
    even number of ints, at most two per axis; [pad-value] for a value that
    is not a real number within a double's range (the dtype's range is the
    fake's check)."""
    if is_sequence(pad):
        pad = tuple(pad)   # read once
    normalize_pad(pad, rank)
    return [p.__index__() for p in pad], fill_value(value)


@torch.compiler.assume_constant_result
def unfold_args(rank: int, kernel_size, padding=0, stride=1, dilation=1,
                layout: str = "NCHW") -> tuple:
    """(kernel_size, padding, stride, dilation, layout) of the custom op,
    each int or pair as a list of two: [unfold-spec] as unfold()."""
    del rank   # the shape's checks are the fake's
    if layout not in ("NCHW", "NHWC"):
        raise TileUsageError("unfold-spec", f"layout {layout!r}: 'NCHW' or 'NHWC'")
    return (list(_pair("kernel_size", kernel_size, 1)), list(_pair("padding", padding, 0)),
            list(_pair("stride", stride, 1)), list(_pair("dilation", dilation, 1)), layout)


_ARGS = {"permute": permute_args, "pad": pad_args, "unfold": unfold_args}


def fill_value(value) -> float:
    """pad's value as the float F.pad takes: None is 0; a Python or numpy
    real number; [pad-value] otherwise (a tensor value is not taken while
    tracing: its number is data the trace does not have)."""
    if value is None:
        return 0.0
    if not isinstance(value, numbers.Real):
        raise TileUsageError("pad-value", f"value is a real number (F.pad takes a float; "
                             f"a traced call takes a Python or numpy number), got {value!r}")
    try:
        return float(value)
    except OverflowError:
        raise TileUsageError("pad-value", f"value {value!r} is past a double's range "
                             "(F.pad takes a float)") from None


def call(name: str, x, *args):
    """torch.ops.tile_mlir.<name>(x, ...) with the public op's arguments
    (`name` one of OPS)."""
    return getattr(namespace(), name)(x, *_ARGS[name](x.dim(), *args))


def _tensor(x):
    """x as the ops' no-gradient forms read it: [layout-dtype] for element
    sizes the copy engine does not move; torch's lazy conjugate and
    negative views resolved (as the public ops resolve them)."""
    check_elem(x.element_size(), f"x ({x.dtype})")
    return x.resolve_conj().resolve_neg()


def _eager(name: str):
    """The op's no-gradient result on a CUDA tensor, through the prepared
    calls (registered by its module)."""
    return _REPEATED[name]


# The real implementations (CUDA tensors).

def _permute(x: torch.Tensor, dims: list[int]) -> torch.Tensor:
    return _eager("permute")(_tensor(x), dims)


def _pad(x: torch.Tensor, pad: list[int], value: float) -> torch.Tensor:
    return _eager("pad")(_tensor(x), pad, value)


def _unfold(x: torch.Tensor, kernel_size: list[int], padding: list[int], stride: list[int],
            dilation: list[int], layout: str) -> torch.Tensor:
    return _eager("unfold")(_tensor(x), kernel_size, padding, stride, dilation, layout)


# The fake implementations: the output's shape and strides, the op's checks.

def _permute_fake(x, dims):
    check_elem(x.element_size(), f"x ({x.dtype})")
    dims = normalize_dims(dims, x.dim())
    return x.new_empty([x.shape[d] for d in dims])


def check_fill(dtype, value: float) -> None:
    """[pad-value] where torch's fill of `dtype` refuses the value (as the
    op's conversion of it: F.pad of a one-element CPU tensor, outside any
    fake mode)."""
    from torch._subclasses.fake_tensor import unset_fake_temporarily
    with unset_fake_temporarily():
        try:
            torch.nn.functional.pad(torch.zeros((1,), dtype=dtype), (1, 0), value=value)
        except (RuntimeError, OverflowError, ValueError, TypeError) as err:
            raise TileUsageError("pad-value", f"value {value!r} does not convert to "
                                 f"{dtype} ({err})") from None


def _pad_fake(x, pad, value):
    check_elem(x.element_size(), f"x ({x.dtype})")
    canonical_pad(tuple(x.shape), x.stride(), pad)   # [pad-spec] of F.pad's rules
    lefts, rights = normalize_pad(pad, x.dim())
    if all(p <= 0 for p in lefts + rights):
        # F.pad's copy of the cropped view: the layout of torch's clone.
        view = x
        for axis, (left, right) in enumerate(zip(lefts, rights)):
            view = view.narrow(axis, -left, view.shape[axis] + left + right)
        return torch.empty_like(view)
    check_fill(x.dtype, value)
    shape = [d + l + r for d, l, r in zip(x.shape, lefts, rights)]
    if not channels_last_like(tuple(x.shape), x.stride()):
        return x.new_empty(shape)
    # Padded in memory order and kept so: dense in channels_last's order.
    order = channels_last_order(x.dim())
    dense = contiguous_strides([shape[a] for a in order])
    strides = [dense[i] for i in inverse_permutation(order)]
    return torch.empty_strided(shape, strides, dtype=x.dtype, device=x.device)


def _unfold_fake(x, kernel_size, padding, stride, dilation, layout):
    check_elem(x.element_size(), f"x ({x.dtype})")
    spec = unfold_spec(tuple(x.shape), kernel_size, padding, stride, dilation, layout)
    shape = spec.out_shape()
    return x.new_empty(shape if x.dim() == 4 else shape[1:])


# The gradients: each op's adjoint (layout/grad.py), with these ops.

def _permute_setup(ctx, inputs, output):
    x, dims = inputs
    ctx.inverse = list(inverse_permutation(normalize_dims(dims, x.dim())))


def _permute_backward(ctx, grad):
    return namespace().permute(grad, ctx.inverse), None


def _pad_setup(ctx, inputs, output):
    x, pad, _value = inputs
    ctx.crop = [-p for p in pad_spec(*normalize_pad(pad, x.dim()))]


def _pad_backward(ctx, grad):
    # Crops where x was padded, zeros where it was cropped.
    return namespace().pad(grad, ctx.crop, 0.0), None, None


def _unfold_setup(ctx, inputs, output):
    x, kernel_size, padding, stride, dilation, layout = inputs
    spec = unfold_spec(tuple(x.shape), kernel_size, padding, stride, dilation, layout)
    ctx.hw = (spec.h, spec.w)
    ctx.spec = (spec.kernel, spec.padding, spec.stride, spec.dilation)
    ctx.layout, ctx.batched = layout, x.dim() == 4


def _unfold_backward(ctx, grad):
    return (_fold(grad, ctx.hw, ctx.spec, ctx.layout, ctx.batched),) + (None,) * 5


_DEFINITIONS = {
    "permute": (_permute, _permute_fake, _permute_setup, _permute_backward),
    "pad": (_pad, _pad_fake, _pad_setup, _pad_backward),
    "unfold": (_unfold, _unfold_fake, _unfold_setup, _unfold_backward),
}


def _defined(name: str) -> bool:
    return hasattr(namespace(), name)


def _define() -> None:
    """Defines each op not defined yet in this process (a reloaded module
    finds them defined)."""
    for name, (impl, fake, setup, backward) in _DEFINITIONS.items():
        if _defined(name):
            continue
        op = torch.library.custom_op(f"{NAMESPACE}::{name}", impl, mutates_args=(),
                                     device_types="cuda")
        op.register_fake(fake)
        op.register_autograd(backward, setup_context=setup)


_define()
