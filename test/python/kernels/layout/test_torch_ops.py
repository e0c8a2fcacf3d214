"""The layout ops as torch custom ops (tile_mlir.kernels.layout.torch_ops,
torch_library) on the CPU: the fake implementations' shapes and strides
against torch's own ops on meta tensors, bad arguments refused with the
ops' rules at trace time, torch.export and torch.compile(fullgraph=True)
tracing to torch.ops.tile_mlir.*, and the registered gradients checked
numerically through reference CPU kernels registered for the test (the
real kernels run on CUDA only: test/gpu/test_layout_torch.py)."""

import importlib
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from tile_mlir.errors import TileUsageError
from tile_mlir.kernels import pad, permute, unfold
from tile_mlir.kernels.layout import torch_ops
from tile_mlir.kernels.layout.plan.common import normalize_dims
from tile_mlir.kernels.layout.plan.pad import canonical_pad
from tile_mlir.kernels.layout.plan.unfold import unfold_spec

ops = torch_ops.register()


@pytest.fixture(autouse=True)
def _fresh_compiler():
    """Each test compiles afresh: the tests share functions whose
    recompiles would reach Dynamo's limit."""
    torch.compiler.reset()
    yield


def meta(shape, dtype=torch.float32):
    return torch.empty(shape, dtype=dtype, device="meta")


def layout(t):
    return tuple(t.shape), tuple(t.stride()), t.dtype, t.device


def nhwc_unfold(x, k, p, s, d):
    """The NHWC unfold from torch's F.unfold: (N, L, kh kw C), columns
    ordered (i, j, c); a 3-D (H, W, C) image without the batch."""
    batched = x.dim() == 4
    x4 = x if batched else x.unsqueeze(0)
    c = x4.shape[-1]
    cols = F.unfold(x4.permute(0, 3, 1, 2), k, d, p, s)
    n, ct, length = cols.shape
    out = cols.reshape(n, c, ct // c, length).permute(0, 3, 2, 1).reshape(n, length, ct)
    out = out.contiguous()
    return out if batched else out[0]


# --- the fakes against torch's ops on meta tensors ------------------------

PERMUTES = [((5,), (0,)), ((3, 4), (1, 0)), ((2, 3, 4), (2, 0, 1)),
            ((2, 3, 4, 5), (0, 2, 3, 1)), ((2, 3, 4, 5, 6), (4, 1, 3, 0, 2)),
            ((2, 3, 1, 5, 2, 3), (5, 4, 3, 2, 1, 0)), ((2, 3, 4), (-1, 0, -2))]


@pytest.mark.parametrize("shape,dims", PERMUTES)
@pytest.mark.parametrize("view", ["dense", "transposed"])
def test_permute_fake_is_torchs_contiguous_permute(shape, dims, view):
    x = meta(shape)
    if view == "transposed":
        x = meta(shape[::-1]).permute(*reversed(range(len(shape))))
    y = ops.permute(x, list(dims))
    assert layout(y) == layout(x.permute(dims).contiguous())
    assert y.is_contiguous()


CL = torch.channels_last
CL3 = torch.channels_last_3d
PADS = [
    ((3, 20, 32), (1, 1, 1, 1), None), ((4, 64), (-8, 8), None),
    ((2, 4, 8, 8), (8, 0, -1, 2), None), ((2, 5, 24, 40), (1, 2, 3, 0), None),
    ((40,), (3, 5), None), ((2, 3, 4, 5), (0, 0, 0, 0, 1, 1), None),
    # channels_last keeps its format (F.pad pads in memory order)
    ((2, 3, 6, 7), (1, 1, 1, 1), CL), ((2, 3, 6, 7), (1, -1, 0, 2), CL),
    ((2, 3, 4, 5, 6), (1, 1, 0, 2, 1, 0), CL3), ((2, 1, 4, 5), (2, 2), CL),
    # no positive amount: the layout of torch's clone of the cropped view
    ((2, 3, 6, 7), (-1, -1, 0, -2), CL), ((4, 64), (-8, -3), None), ((4, 64), (), None),
    ((2, 3, 4, 5, 6), (0, -1, -1, 0), CL3),
]


@pytest.mark.parametrize("shape,pad,fmt", PADS)
def test_pad_fake_is_torchs_pad(shape, pad, fmt):
    x = meta(shape) if fmt is None else meta(shape).to(memory_format=fmt)
    y = ops.pad(x, list(pad), 1.5)
    assert layout(y) == layout(F.pad(x, pad, value=1.5))


@pytest.mark.parametrize("base,dims,pad", [
    ((3, 5, 40), (0, 2, 1), (-1, 0)), ((3, 5, 40), (0, 2, 1), (0, 0, -2, -1)),
    ((2, 3, 8, 40), (0, 2, 1, 3), ()), ((64, 256), (1, 0), (0, 0, -255, 0)),
    ((3, 5, 40), (2, 0, 1), (1, 1)), ((2, 7, 16, 6), (0, 3, 1, 2), (-1, -1, 0, -2)),
])
def test_pad_fake_of_views_is_torchs_pad(base, dims, pad):
    x = meta(base).permute(dims)
    assert layout(ops.pad(x, list(pad), 0.0)) == layout(F.pad(x, pad))


def test_pad_fake_of_an_expanded_channel_is_contiguous_as_torchs():
    x = meta((2, 1, 4, 5)).expand(2, 3, 4, 5)   # C's stride 0: not channels_last
    assert layout(ops.pad(x, [1, 1], 0.0)) == layout(F.pad(x, (1, 1)))


UNFOLDS = [((2, 16, 20, 24), 3, 1, 1, 1), ((2, 8, 16, 40), (3, 5), (1, 2), 1, 1),
           ((1, 32, 17, 19), 3, 0, 2, 1), ((2, 16, 24, 24), 3, 2, 1, 2),
           ((3, 8, 12, 32), (1, 3), (0, 1), (1, 2), 1), ((4, 9, 10), 2, 0, 2, (2, 1)),
           ((0, 3, 5, 5), 2, 0, 1, 1)]


@pytest.mark.parametrize("shape,k,p,s,d", UNFOLDS)
def test_unfold_fake_is_torchs_unfold(shape, k, p, s, d):
    x = meta(shape)
    pairs = [list(v) if isinstance(v, tuple) else [v, v] for v in (k, p, s, d)]
    y = ops.unfold(x, *pairs, "NCHW")
    assert layout(y) == layout(F.unfold(x, k, d, p, s))
    nhwc = x.movedim(-3, -1).contiguous()
    assert layout(ops.unfold(nhwc, *pairs, "NHWC")) == layout(nhwc_unfold(nhwc, k, p, s, d))


def test_unfold_fake_of_a_view_is_contiguous():
    x = meta((2, 24, 20, 16)).permute(0, 3, 1, 2)   # NCHW view of NHWC memory
    y = ops.unfold(x, [3, 3], [1, 1], [1, 1], [1, 1], "NCHW")
    assert layout(y) == layout(F.unfold(x, 3, padding=1).contiguous())


# --- bad arguments: the ops' rules, at trace time ---------------------------

def rule_in_chain(err):
    """The TileUsageError raised inside a tracer's own exception, if any."""
    seen = err
    while seen is not None:
        if isinstance(seen, TileUsageError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


BAD_PERMUTES = [((3, 4), [0, 0]), ((3, 4), [0, 1, 2]), ((3, 4), [2, 0])]


@pytest.mark.parametrize("shape,dims", BAD_PERMUTES)
def test_bad_dims_raise_the_planners_rule(shape, dims):
    with pytest.raises(TileUsageError) as planner:
        normalize_dims(dims, len(shape))
    with pytest.raises(TileUsageError) as fake:
        ops.permute(meta(shape), dims)
    with pytest.raises(TileUsageError) as traced:
        torch_ops.traced("permute", meta(shape), tuple(dims))
    for err in (planner, fake, traced):
        assert err.value.rule == "layout-permutation" and str(tuple(dims)) in str(err.value)
    assert str(fake.value) == str(traced.value) == str(planner.value)


@pytest.mark.parametrize("dims", [(0, 1), [0, 1], (1, 0)])
def test_the_identitys_view_does_not_skip_the_device_rule(dims):
    # The identity of a contiguous CUDA tensor is a view of it; a CPU
    # tensor is still refused, whatever the permutation.
    with pytest.raises(TileUsageError) as err:
        permute(torch.zeros(3, 4), dims)
    assert err.value.rule == "layout-array" and "cpu" in str(err.value)


@pytest.mark.parametrize("x,dims,view", [
    (torch.zeros(2, 3, 4), (0, 1, 2), True),
    (torch.zeros(2, 3, 4), [0, 1, 2], True),
    (torch.zeros(2, 3, 4, dtype=torch.uint8), (0, 1, 2), True),
    (torch.zeros(2, 3, 4), (0, True, 2), False),       # a bool equals 1 but is no axis
    (torch.zeros(2, 3, 4), (0, 1.0, 2), False),
    (torch.zeros(2, 3, 4), (0, 2, 1), False),
    (torch.zeros(2, 3, 4), (0, 1), False),             # the rank of the permutation
    (torch.zeros(2, 3, 4), (0, 1, 2, 3), False),
    (torch.zeros(4, 3).t(), (0, 1), False),             # not contiguous
    (torch.zeros(2, 3, dtype=torch.complex128), (0, 1), False),  # 16-byte elements
    (torch.zeros(2, 3, 4), range(3), False),           # not a tuple or list
    (torch.zeros(2, 3, 4), "012", False),
])
def test_which_calls_the_identity_view_takes(monkeypatch, x, dims, view):
    # The check asks the tensor whether it is on a CUDA device; here every
    # tensor says so, and the rest of the rule decides.
    import tile_mlir.kernels.layout.permute as P
    monkeypatch.setattr(torch.Tensor, "is_cuda", property(lambda self: True))
    assert P._contiguous_identity(x, dims) is view


@pytest.mark.parametrize("dims", [(0, 1, 2), [0, 1, 2]])
def test_the_identity_returns_a_view_of_its_input(monkeypatch, dims):
    # Where the identity check holds (a contiguous CUDA tensor, which this
    # machine may lack: the check is forced), the result is a new tensor
    # object over x's storage with x's shape and strides, as torch's
    # x.permute(dims).contiguous() is; nothing is planned or launched.
    import tile_mlir.kernels.layout.permute as P
    monkeypatch.setattr(P, "_contiguous_identity", lambda x, dims: True)
    monkeypatch.setattr(P.prepared, "call", lambda *a: pytest.fail("the identity was planned"))
    x = torch.arange(24, dtype=torch.int16).reshape(2, 3, 4)
    y = P.permute(x, dims)
    assert y is not x and y.data_ptr() == x.data_ptr()
    assert y.dtype == x.dtype
    assert y.shape == x.shape and y.stride() == x.stride()
    assert y._base is x or y._base is x._base


BAD_PADS = [((3, 4), [1]), ((3, 4), [1, 1] * 3), ((2, 3), [-4, 0]), ((2, 3), [-2, -2]),
            ((2, 3), [0, 0, -1, -2])]


@pytest.mark.parametrize("shape,pad", BAD_PADS)
def test_bad_pads_raise_the_planners_rule(shape, pad):
    strides = tuple(meta(shape).stride())
    with pytest.raises(TileUsageError) as planner:
        canonical_pad(shape, strides, pad)
    with pytest.raises(TileUsageError) as fake:
        ops.pad(meta(shape), pad, 0.0)
    assert planner.value.rule == fake.value.rule == "pad-spec"
    assert str(fake.value) == str(planner.value) and str(tuple(pad)) in str(fake.value)


@pytest.mark.parametrize("dtype,value", [
    (torch.int8, 1000.0), (torch.int32, float("nan")), (torch.uint8, -1.5),
    (torch.float16, 1e6), (torch.float8_e4m3fn, float("inf")),
])
def test_a_value_the_dtype_refuses_is_pad_value(dtype, value):
    with pytest.raises(TileUsageError) as err:
        ops.pad(meta((2, 3), dtype), [1, 1], value)
    assert err.value.rule == "pad-value" and str(dtype) in str(err.value)
    # A crop fills nothing: F.pad checks no value there, nor does the op.
    assert ops.pad(meta((2, 3), dtype), [-1, 0], value).shape == (2, 2)


@pytest.mark.parametrize("value", ["1", 1j, [1.0]])
def test_a_value_that_is_no_real_number_is_pad_value(value):
    with pytest.raises(TileUsageError) as err:
        torch_ops.traced("pad", meta((2, 3)), (1, 1), value)
    assert err.value.rule == "pad-value" and repr(value) in str(err.value)


BAD_UNFOLDS = [((2, 3, 8, 8), {"kernel_size": 3, "layout": "NCWH"}, "NCWH"),
               ((2, 3, 8, 8), {"kernel_size": 0}, "0"),
               ((2, 3, 8, 8), {"kernel_size": 3, "padding": -1}, "-1"),
               ((2, 3, 8, 8), {"kernel_size": (3, 3, 3)}, "(3, 3, 3)"),
               ((2, 3, 8, 8), {"kernel_size": 9}, "8x8"),
               ((3, 8), {"kernel_size": 2}, "(3, 8)"),
               ((2, 0, 8, 8), {"kernel_size": 2}, "(2, 0, 8, 8)")]


@pytest.mark.parametrize("shape,kwargs,named", BAD_UNFOLDS)
def test_bad_unfolds_raise_unfold_spec(shape, kwargs, named):
    args = {"padding": 0, "stride": 1, "dilation": 1, "layout": "NCHW", **kwargs}
    with pytest.raises(TileUsageError) as planner:
        unfold_spec(shape, args["kernel_size"], args["padding"], args["stride"],
                    args["dilation"], args["layout"])
    with pytest.raises(TileUsageError) as traced:
        torch_ops.traced("unfold", meta(shape), args["kernel_size"], args["padding"],
                         args["stride"], args["dilation"], args["layout"])
    assert planner.value.rule == traced.value.rule == "unfold-spec"
    assert str(traced.value) == str(planner.value) and named in str(traced.value)


def test_an_element_size_the_engine_does_not_move_is_layout_dtype():
    x = meta((2, 3), torch.complex128)
    for call in (lambda: ops.permute(x, [1, 0]), lambda: ops.pad(x, [1, 1], 0.0),
                 lambda: ops.unfold(meta((1, 2, 3, 3), torch.complex128), [2, 2], [0, 0],
                                    [1, 1], [1, 1], "NCHW")):
        with pytest.raises(TileUsageError) as err:
            call()
        assert err.value.rule == "layout-dtype" and "16-byte" in str(err.value)


def test_a_bad_argument_under_compile_carries_the_rule():
    f = torch.compile(lambda x: torch_ops.traced("permute", x, (1, 1)), fullgraph=True,
                      backend="eager")
    with pytest.raises(Exception) as err:
        f(meta((3, 4)))
    found = rule_in_chain(err.value)
    assert found is not None and found.rule == "layout-permutation"
    g = torch.compile(lambda x: torch_ops.traced("pad", x, (1, 1), 300.0), fullgraph=True,
                      backend="eager")
    with pytest.raises(Exception) as err:
        g(meta((3, 4), torch.int8))
    assert "[pad-value]" in str(err.value) and "300.0" in str(err.value)


# --- tracing: torch.export and torch.compile --------------------------------

def chain(x):
    """A function mixing the three ops with torch's (NCHW image in)."""
    y = torch_ops.traced("permute", x * 2, (0, 1, 3, 2))
    y = torch_ops.traced("pad", y, (1, 2, -1, 0), 1.5)
    y = torch_ops.traced("unfold", y + 1, 3, 1, (1, 2), 1, "NCHW")
    return y - 1


def chain_reference(x):
    y = (x * 2).permute(0, 1, 3, 2).contiguous()
    y = F.pad(y, (1, 2, -1, 0), value=1.5)
    return F.unfold(y + 1, 3, padding=1, stride=(1, 2)) - 1


class Chain(torch.nn.Module):
    def forward(self, x):
        return chain(x)


def targets(graph) -> list:
    return [str(n.target) for n in graph.nodes if n.op == "call_function"]


@pytest.mark.parametrize("strict", [False, True])
def test_export_traces_the_custom_ops(strict):
    x = meta((2, 3, 8, 6))
    program = torch.export.export(Chain(), (x,), strict=strict)
    found = targets(program.graph)
    for name in ("permute", "pad", "unfold"):
        assert f"tile_mlir.{name}.default" in found
    out = program.module()(x)
    assert layout(out) == layout(chain_reference(x))


def test_compile_fullgraph_traces_the_custom_ops():
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm

    x = meta((2, 3, 8, 6))
    out = torch.compile(chain, fullgraph=True, backend=backend)(x)
    assert layout(out) == layout(chain_reference(x))
    (gm,) = graphs
    assert [t for t in targets(gm.graph) if "tile_mlir" in t] == [
        "tile_mlir.permute", "tile_mlir.pad", "tile_mlir.unfold"]


def test_compile_aot_eager_traces_the_gradients():
    graphs = []
    aot_autograd = importlib.import_module("torch._dynamo.backends.common").aot_autograd
    boxed = importlib.import_module("functorch.compile").make_boxed_func

    def keep(gm, example_inputs):
        graphs.append(gm)
        return boxed(gm.forward)

    x = torch.empty((2, 3, 8, 6), device="meta", requires_grad=True)
    out = torch.compile(chain, fullgraph=True,
                        backend=aot_autograd(fw_compiler=keep, bw_compiler=keep))(x)
    (grad,) = torch.autograd.grad(out, x, torch.ones_like(out))
    assert layout(grad) == layout(x)
    forward, backward = (targets(gm.graph) for gm in graphs)
    assert [t for t in forward if "tile_mlir" in t] == [
        "tile_mlir.permute.default", "tile_mlir.pad.default", "tile_mlir.unfold.default"]
    # The adjoints: fold (col2im), the crop as a pad, the inverse permute.
    assert "aten.col2im.default" in backward
    assert [t for t in backward if "tile_mlir" in t] == [
        "tile_mlir.pad.default", "tile_mlir.permute.default"]


def public_chain(x):
    """chain() through the public ops (which call the custom ops while a
    trace runs)."""
    y = permute(x * 2, (0, 1, 3, 2))
    y = pad(y, (1, 2, -1, 0), value=1.5)
    return unfold(y + 1, 3, 1, (1, 2), 1, "NCHW") - 1


class PublicChain(torch.nn.Module):
    def forward(self, x):
        return public_chain(x)


def test_the_public_ops_trace_to_the_custom_ops():
    graphs = []

    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm

    x = meta((2, 3, 8, 6))
    out = torch.compile(public_chain, fullgraph=True, backend=backend)(x)
    assert layout(out) == layout(chain_reference(x))
    assert [t for t in targets(graphs[0].graph) if "tile_mlir" in t] == [
        "tile_mlir.permute", "tile_mlir.pad", "tile_mlir.unfold"]
    for strict in (False, True):
        program = torch.export.export(PublicChain(), (x,), strict=strict)
        assert [t for t in targets(program.graph) if "tile_mlir" in t] == [
            "tile_mlir.permute.default", "tile_mlir.pad.default", "tile_mlir.unfold.default"]


def test_registration_is_once_a_process():
    assert torch_ops.register() is ops
    library = importlib.import_module("tile_mlir.kernels.layout.torch_library")
    importlib.reload(library)   # finds the ops defined: no second definition
    assert torch_ops.register().permute is ops.permute
    assert ops.permute(meta((2, 3)), [1, 0]).shape == (3, 2)


def test_the_ops_import_neither_torch_library_nor_its_definitions():
    code = ("import sys, tile_mlir.kernels; "
            "print('tile_mlir.kernels.layout.torch_library' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_is_compiling_only_while_tracing():
    assert not torch_ops.is_compiling()
    seen = []

    def probe(x):
        seen.append(torch_ops.is_compiling())
        return x + 1

    torch.compile(probe, fullgraph=True, backend="eager")(meta((2,)))
    assert seen == [True]


# --- the gradients, numerically, through reference CPU kernels --------------

def ref_permute(x, dims):
    return x.permute(dims).clone(memory_format=torch.contiguous_format)


def ref_pad(x, pad, value):
    return F.pad(x, pad, value=value)


def ref_unfold(x, k, p, s, d, layout):
    if layout == "NHWC":
        return nhwc_unfold(x, k, p, s, d)
    return F.unfold(x, k, d, p, s).contiguous()


@pytest.fixture
def cpu_reference():
    """torch's own ops as the custom ops' CPU kernels, for this test only:
    the registered autograd formulas run around them."""
    scoped = importlib.import_module("torch.library")._scoped_library
    with scoped("tile_mlir", "IMPL") as lib:
        lib.impl("permute", ref_permute, "CPU")
        lib.impl("pad", ref_pad, "CPU")
        lib.impl("unfold", ref_unfold, "CPU")
        yield


GRAD_CASES = [
    ("permute", (3, 4, 5), ([2, 0, 1],)), ("permute", (2, 3, 4, 5), ([0, 2, 3, 1],)),
    ("pad", (2, 4, 6), ([1, 1, 1, 1], 1.5)), ("pad", (4, 16), ([-8, 8], 0.0)),
    ("pad", (2, 3, 5, 6), ([3, 0, -1, 2], 2.0)),
    ("unfold", (1, 2, 6, 8), ([3, 3], [1, 1], [1, 1], [1, 1], "NCHW")),
    ("unfold", (1, 6, 8, 2), ([2, 3], [1, 0], [1, 2], [1, 1], "NHWC")),
    ("unfold", (6, 8, 2), ([2, 2], [0, 1], [2, 1], [1, 2], "NHWC")),
    ("unfold", (2, 6, 8), ([3, 2], [1, 0], [1, 1], [2, 1], "NCHW")),
]


@pytest.mark.parametrize("name,shape,args", GRAD_CASES)
def test_gradients_pass_gradcheck_and_gradgradcheck(cpu_reference, name, shape, args):
    op = getattr(ops, name)
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: op(t, *args), (x,))
    assert torch.autograd.gradgradcheck(lambda t: op(t, *args), (x,))


@pytest.mark.parametrize("name,shape,args", GRAD_CASES)
def test_compiled_gradients_are_the_eager_ones(cpu_reference, name, shape, args):
    op = getattr(ops, name)

    def f(t):
        return op(t * 2, *args) + 1

    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    want = f(x)
    got = torch.compile(f, fullgraph=True, backend="aot_eager")(x)
    assert torch.equal(got, want)
    g = torch.randn(want.shape, dtype=torch.float64)
    assert torch.equal(torch.autograd.grad(got, x, g)[0], torch.autograd.grad(want, x, g)[0])
