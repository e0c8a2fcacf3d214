"""The layout ops inside torch.compile, CUDA graphs and torch.export on the
GPU (their torch custom ops: tile_mlir.kernels.layout.torch_library), each
bit for bit against the eager ops on fresh random data:
torch.compile(fullgraph=True) with the default (Inductor) backend of
functions mixing the ops with torch's, forward and backward; CUDA graph
capture of each op, replayed after the input changed in place;
mode="reduce-overhead"; torch.export and the exported program's run; and
torch.library.opcheck of each custom op.

Every shape is one the layout compile cache builds (tile_mlir.testing.
layout_cases; bench/build_layout.py):
    TILE_GPU_ARTIFACTS=.artifacts/layout TILE_MLIR_CACHE_DIR=.artifacts/layout/cache \\
        python3 -m pytest -q test/gpu/test_layout_torch.py
"""

import pytest

torch = pytest.importorskip("torch")
F = pytest.importorskip("torch.nn.functional")

from tile_mlir.kernels import pad, permute, unfold
from tile_mlir.kernels.layout import torch_ops
from tile_mlir.testing.layout_cases import PAD_GRAD, PERMUTE_GRAD, UNFOLD_GRAD
from torch_bits import bits

ops = torch_ops.register()


@pytest.fixture(autouse=True)
def _fresh_compiler():
    """Each test compiles afresh (the tests' functions share code objects,
    whose recompiles would reach Dynamo's limit)."""
    torch.compiler.reset()
    yield


def data(shape, dtype, gen):
    """Fresh random values: normal floats (no NaN, whose bits arithmetic
    may change), small integers."""
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=dtype, device="cuda", generator=gen)
    return torch.randint(0, 100, shape, dtype=dtype, device="cuda", generator=gen)


def same_bits(a, b) -> bool:
    return (a.shape == b.shape and a.stride() == b.stride() and a.dtype == b.dtype and
            torch.equal(bits(a), bits(b)))


def nhwc(shape, layout):
    n, c, h, w = shape
    return (n, c, h, w) if layout == "NCHW" else (n, h, w, c)


DTYPES = [torch.uint8, torch.bfloat16, torch.float32, torch.float64]

# (name, input shape, the op on x): cached shapes at every element size
# (layout_cases: PERMUTE_SHAPES, PAD_SHAPES with zero and value fills, the
# first UNFOLD_SHAPES).
OPS = ([(f"permute {dims}", shape, lambda x, d=dims: permute(x, d))
        for shape, dims in [((2, 48, 16, 80), (0, 2, 3, 1)), ((3, 80, 144), (0, 2, 1)),
                            ((37, 70), (1, 0))]] +
       [(f"pad {p} {v}", shape, lambda x, q=p, v=v: pad(x, q, value=v))
        for shape, p, v in [((3, 20, 32), (1, 1, 1, 1), 0.0),
                            ((2, 5, 24, 40), (1, 2, 3, 0), 1.5), ((4, 64), (-8, 8), 1.5)]] +
       [(f"unfold {layout} {k} {p} {s}", nhwc(shape, layout),
         lambda x, a=(k, p, s, d, layout): unfold(x, *a))
        for shape, k, p, s, d in [((2, 16, 20, 24), 3, 1, 1, 1),
                                  ((2, 8, 16, 40), (3, 5), (1, 2), 1, 1),
                                  ((1, 32, 17, 19), 3, 0, 2, 1)]
        for layout in ("NCHW", "NHWC")])
IDS = [f"{name} {shape}" for name, shape, _ in OPS]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name,shape,op", OPS, ids=IDS)
def test_compiled_is_eager(name, shape, op, dtype, gen):
    def f(x):
        return op(x * 2) + 1

    compiled = torch.compile(f, fullgraph=True)
    for _ in range(2):   # a second call runs the compiled code on new data
        x = data(shape, dtype, gen)
        assert same_bits(compiled(x), f(x))


# The gradient tests' shapes (layout_cases: *_GRAD, bf16 and float64).
GRAD_OPS = ([("permute", shape, lambda x, d=dims: permute(x, d)) for shape, dims in PERMUTE_GRAD] +
            [("pad", shape, lambda x, q=p, v=v: pad(x, q, value=v))
             for shape, p in PAD_GRAD for v in (0.0, 1.5)] +
            [(f"unfold {layout}", nhwc(shape, layout),
              lambda x, a=(k, p, s, d, layout): unfold(x, *a))
             for shape, k, p, s, d, layout in UNFOLD_GRAD])
GRAD_IDS = [f"{name} {shape}" for name, shape, _ in GRAD_OPS]


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float64], ids=str)
@pytest.mark.parametrize("name,shape,op", GRAD_OPS, ids=GRAD_IDS)
def test_compiled_gradient_is_eager(name, shape, op, dtype, gen):
    def f(x):
        return op(x * 2) + 1

    x = data(shape, dtype, gen).requires_grad_()
    x_ref = x.detach().clone().requires_grad_()
    y = torch.compile(f, fullgraph=True)(x)
    y_ref = f(x_ref)
    assert same_bits(y.detach(), y_ref.detach())
    g = data(y.shape, dtype, gen)
    (got,) = torch.autograd.grad(y, x, g)
    (want,) = torch.autograd.grad(y_ref, x_ref, g)
    if name.startswith("unfold"):
        # F.fold's sums: Inductor may decompose col2im and add in another
        # order than torch's eager kernel, so equal up to rounding.
        torch.testing.assert_close(got, want)
    else:
        assert torch.equal(bits(got), bits(want))


def capture(fn, x):
    """(graph, output) of fn(x) captured in a CUDA graph, after a warm-up
    run on a side stream (torch's recipe: kernels loaded, memory pooled)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn(x)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = fn(x)
    return graph, y


CUSTOM = {"permute": lambda x: ops.permute(x, [0, 2, 3, 1]),
          "pad": lambda x: ops.pad(x, [8, 0, -1, 2], 1.5),
          "unfold": lambda x: ops.unfold(x, [3, 3], [1, 1], [1, 1], [1, 1], "NCHW")}
PUBLIC = {"permute": lambda x: permute(x, (0, 2, 3, 1)),
          "pad": lambda x: pad(x, (8, 0, -1, 2), value=1.5),
          "unfold": lambda x: unfold(x, 3, 1, 1, 1, "NCHW")}
SHAPES = {"permute": PERMUTE_GRAD[1][0], "pad": PAD_GRAD[2][0], "unfold": UNFOLD_GRAD[0][0]}


@pytest.mark.parametrize("form", ["public", "custom op"])
@pytest.mark.parametrize("name", ["permute", "pad", "unfold"])
def test_cuda_graph_replays_the_op(name, form, gen):
    fn = (PUBLIC if form == "public" else CUSTOM)[name]
    x = data(SHAPES[name], torch.bfloat16, gen)
    graph, y = capture(fn, x)
    for _ in range(2):
        x.copy_(data(x.shape, x.dtype, gen))   # in place: the graph reads x's memory
        graph.replay()
        torch.cuda.synchronize()
        assert same_bits(y, PUBLIC[name](x))


@pytest.mark.parametrize("name", ["permute", "pad", "unfold"])
def test_reduce_overhead_is_eager(name, gen):
    def f(x):
        return PUBLIC[name](x * 2) + 1

    compiled = torch.compile(f, mode="reduce-overhead", fullgraph=True)
    for _ in range(4):   # warm-up runs, the recording, replays
        x = data(SHAPES[name], torch.bfloat16, gen)
        got = compiled(x).clone()   # the next replay overwrites the graph's output
        assert same_bits(got, f(x))


class Op(torch.nn.Module):
    def __init__(self, name):
        super().__init__()
        self.name = name

    def forward(self, x):
        return PUBLIC[self.name](x * 2) + 1


@pytest.mark.parametrize("name", ["permute", "pad", "unfold"])
def test_exported_program_is_eager(name, gen):
    module = Op(name)
    x = data(SHAPES[name], torch.bfloat16, gen)
    program = torch.export.export(module, (x,))
    targets = [str(n.target) for n in program.graph.nodes if n.op == "call_function"]
    assert f"tile_mlir.{name}.default" in targets
    for _ in range(2):
        x = data(SHAPES[name], torch.bfloat16, gen)
        assert same_bits(program.module()(x), module(x))


OPCHECKS = ([("permute", shape, [list(dims)]) for shape, dims in PERMUTE_GRAD] +
            [("pad", shape, [list(p), v]) for shape, p in PAD_GRAD for v in (0.0, 1.5)] +
            [("unfold", nhwc(shape, layout),
              [[v, v] if isinstance(v, int) else list(v) for v in (k, p, s, d)] + [layout])
             for shape, k, p, s, d, layout in UNFOLD_GRAD])


@pytest.mark.parametrize("name,shape,args", OPCHECKS,
                         ids=[f"{n} {s} {a}" for n, s, a in OPCHECKS])
def test_opcheck(name, shape, args, gen):
    # Schema, fake against real (shape and strides), autograd registration,
    # and AOT dispatch with static and dynamic shapes.
    x = data(shape, torch.float64, gen).requires_grad_()
    torch.library.opcheck(getattr(ops, name).default, (x, *args))
