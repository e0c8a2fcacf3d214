"""Repeated layout calls on the GPU (kernels/layout/prepared.py): the
second call with the same shapes, strides, dtype and arguments replays the
first call's launches at the new addresses. Each replay is checked bit for
bit against the planned path on fresh random bits: on the current stream,
on a side stream, and captured in a CUDA graph and replayed after the input
changed; inputs the path must not replay (an unaligned base, a lazy
conjugate) still give the planned result.

Kernels: bench/build_layout.py's cache (tile_mlir.testing.layout_recipes.calls).
"""

import importlib

import pytest

torch = pytest.importorskip("torch")
F = pytest.importorskip("torch.nn.functional")

from tile_mlir.kernels import pad, permute, unfold  # noqa: E402
from tile_mlir.testing.layout_cases import CALL_CASES, CALL_CHANNELS_LAST  # noqa: E402

from torch_bits import bits, random_bits  # noqa: E402
from torch_bits import case_id as _id  # noqa: E402

prepared = importlib.import_module("tile_mlir.kernels.layout.prepared")
OPS = {"permute": permute, "pad": pad, "unfold": unfold}
PLANNED = {
    "permute": importlib.import_module("tile_mlir.kernels.layout.permute").permute_tensor,
    "pad": importlib.import_module("tile_mlir.kernels.layout.pad").pad_tensor,
    "unfold": lambda t, *a: importlib.import_module(
        "tile_mlir.kernels.layout.unfold").unfold_tensor(t, *a)[0],
}


def same(a, b) -> bool:
    return a.shape == b.shape and a.stride() == b.stride() and a.dtype == b.dtype and \
        torch.equal(bits(a), bits(b))


def check_repeat(op, args, make):
    """op on a first input (planned, recorded), then on fresh inputs of the
    same layout: each equal to the planned path on the same input."""
    fn, planned = OPS[op], PLANNED[op]
    first = make()
    assert same(fn(first, *args), planned(first, *args))
    assert prepared.state(op, first, args) == "prepared"
    for _ in range(2):
        x = make()
        y = fn(x, *args)
        assert same(y, planned(x, *args))
    side = torch.cuda.Stream()
    x = make()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = fn(x, *args)
    torch.cuda.current_stream().wait_stream(side)
    assert same(y, planned(x, *args))


@pytest.mark.parametrize("case", CALL_CASES, ids=[_id(c) for c in CALL_CASES])
def test_repeated_call_replays_exactly(case, gen):
    op, shape, args, elem = case
    if op == "permute" and tuple(args[0]) == tuple(range(len(shape))):
        # The identity of a contiguous tensor is a view of it: no path, no kernel.
        x = random_bits(shape, elem, gen)
        y = permute(x, *args)
        assert y.data_ptr() == x.data_ptr() and prepared.state(op, x, args) is None
        return
    check_repeat(op, args, lambda: random_bits(shape, elem, gen))


def test_channels_last_pad_replays_in_its_format(gen):
    shape, spec, elem = CALL_CHANNELS_LAST

    def make():
        return random_bits(shape, elem, gen).contiguous(memory_format=torch.channels_last)
    check_repeat("pad", (spec, 0), make)
    y = pad(make(), spec)
    assert y.is_contiguous(memory_format=torch.channels_last)


def test_permute_replay_matches_torch(gen):
    for shape, dims in (((64, 64), (1, 0)), ((8, 64, 32, 32), (0, 2, 3, 1))):
        for _ in range(3):
            x = random_bits(shape, 2, gen)
            assert torch.equal(bits(permute(x, dims)), bits(x).permute(dims).contiguous())


def test_graph_capture_of_prepared_calls(gen):
    """Captured after a first eager call (prepared), and as the very first
    call of its key (planned inside the capture): replays read the input's
    new contents."""
    cases = [("permute", (8, 64, 32, 32), ((0, 2, 3, 1),), 2),
             ("pad", (8, 16, 32, 32), ((1, 1, 1, 1), 0), 2),
             ("unfold", (2, 16, 32, 32), (3, 1, 1, 1, "NCHW"), 2),
             ("permute", (2048, 4096), ((1, 0),), 4)]
    for op, shape, args, elem in cases:
        fn, planned = OPS[op], PLANNED[op]
        static = random_bits(shape, elem, gen)
        fn(static, *args)                       # warm: prepared
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            out = fn(static, *args)
        for _ in range(2):
            static.copy_(random_bits(shape, elem, gen))
            graph.replay()
            torch.cuda.synchronize()
            assert same(out, planned(static, *args)), op


def test_first_call_inside_a_capture(gen):
    shape, dims = (4, 6, 8), (2, 0, 1)
    static = random_bits(shape, 8, gen)
    permute(static, dims)      # the kernel's module loaded outside the capture
    torch.cuda.synchronize()
    prepared.clear()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = permute(static, dims)
    static.copy_(random_bits(shape, 8, gen))
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(bits(out), bits(static).permute(dims).contiguous())
    y = permute(static, dims)     # eager again, after the capture
    assert torch.equal(bits(y), bits(static).permute(dims).contiguous())


def test_unaligned_and_conjugate_inputs_are_planned(gen):
    base = random_bits((64 * 64 + 1,), 2, gen)
    x = base[1:].view(64, 64)                   # 2 bytes past an aligned base
    for _ in range(2):
        assert torch.equal(bits(permute(x, (1, 0))), bits(x).permute(1, 0).contiguous())
    assert prepared.state("permute", x, ((1, 0),)) == "planned"
    z = torch.randn(32, 48, dtype=torch.complex64, device="cuda", generator=gen).conj()
    for _ in range(2):
        y = permute(z, (1, 0))
        assert torch.equal(y, z.permute(1, 0).contiguous().resolve_conj())


def test_arguments_equal_as_values_but_not_as_calls(gen):
    """-0.0 and 0.0 fill with other bits; a bool is no axis."""
    x = random_bits((8, 64), 2, gen)
    a = pad(x, (1, 1), value=0.0)
    b = pad(x, (1, 1), value=-0.0)
    assert torch.equal(bits(a)[:, 0], torch.zeros(8, dtype=torch.int16, device="cuda"))
    assert torch.equal(bits(b)[:, 0], torch.full((8,), -32768, dtype=torch.int16,
                                                 device="cuda"))
    permute(x, (1, 0))
    from tile_mlir.errors import TileUsageError
    with pytest.raises(TileUsageError) as err:
        permute(x, (True, False))
    assert err.value.rule == "layout-permutation"


def test_a_missing_kernel_names_its_recipe(tmp_path):
    """Where no MLIR is (the GPU machine), a call whose kernel is not in the
    cache is a named miss: the recipe's builder and parameters, the folder."""
    import os
    import subprocess
    import sys
    code = ("import torch\nfrom tile_mlir.kernels import permute\n"
            "from tile_mlir.errors import TileError\n"
            "try:\n    permute(torch.zeros(64, 96, dtype=torch.bfloat16, device='cuda'), (1, 0))\n"
            "except TileError as err:\n    print('RULE', err.rule)\n    print(err.message)\n")
    env = dict(os.environ, TILE_MLIR_CACHE_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    if "RULE compile-cache-miss" not in proc.stdout:
        pytest.skip(f"MLIR is importable here: the kernel compiled ({proc.stdout[:200]})")
    assert "build_permute_transpose(" in proc.stdout and "elem=2" in proc.stdout
    assert str(tmp_path) in proc.stdout
