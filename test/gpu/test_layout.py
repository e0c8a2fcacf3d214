"""The layout ops on the GPU (tile_mlir.kernels.layout.permute, pad, unfold),
bit-exact against torch on fresh random bits: the sweep of
tile_mlir.testing.layout_cases (every element size, ranks 2-5, shapes that
are not box multiples, size-1 axes, strides the copy engine cannot
describe, the benchmark's rows scaled down), strided and permuted inputs,
a side stream, cupy arrays, and the named errors.

Kernels come from the compile cache, populated where MLIR is by
bench/build_layout.py (the recipes of tile_mlir.testing.layout_recipes):
    TILE_GPU_ARTIFACTS=.artifacts/layout TILE_MLIR_CACHE_DIR=.artifacts/layout/cache \\
        python3 -m pytest -q test/gpu/test_layout.py
"""

import importlib
import re

import numpy as np
import pytest

torch = pytest.importorskip("torch")
F = pytest.importorskip("torch.nn.functional")

from tile_mlir.errors import TileUsageError  # noqa: E402
from tile_mlir.kernels import pad, permute, unfold  # noqa: E402
from tile_mlir.testing.layout_cases import (BEYOND_RANK_PADS,  # noqa: E402
                                            BEYOND_RANK_PERMUTES, CROP_VIEWS,
                                            EXPANDED_CHANNEL_PAD, PAD_BENCH_SMALL,
                                            PAD_CHANNELS_LAST,
                                            PAD_CHANNELS_LAST_VIEW, PAD_VIEWS,
                                            PAD_WIDEN_BENCH_SMALL, EXPANDED_PAD, EXPANDED_PERMUTE,
                                            IDENTITY_BASE,
                                            PERMUTE_BENCH_SMALL, THREAD_LOAD_VIEWS,
                                            THREAD_STORE_SHAPES, WIDE_VIEW,
                                            WIDE_VIEW_DIMS, WIDE_VIEW_PAD,
                                            PERMUTE_VIEWS, pad_test_cases, permute_test_cases,
                                            unfold_test_cases)
from tile_mlir.kernels.layout.plan.pad import ENGINE_NAN  # noqa: E402
from tile_mlir.kernels.layout.tuning import TUNINGS, for_device  # noqa: E402

from torch_bits import DTYPES, INTS, bits, random_bits  # noqa: E402
from torch_bits import case_id as _id  # noqa: E402
plan_of = importlib.import_module("tile_mlir.kernels.layout.permute").plan_for
permute_tensor = importlib.import_module("tile_mlir.kernels.layout.permute").permute_tensor


def same_bits(a, b) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and torch.equal(bits(a), bits(b))


def ref_permute(x, dims):
    return bits(x).permute(dims).contiguous().view(x.dtype)


PERMUTES = list(permute_test_cases())


@pytest.mark.parametrize("case", PERMUTES, ids=[_id(c) for c in PERMUTES])
def test_permute_is_exact(case, gen):
    shape, dims, elem = case
    x = random_bits(shape, elem, gen)
    y = permute(x, dims)
    assert y.is_contiguous() and y.dtype == x.dtype
    # The reference moves the integer bits (no float path can touch a NaN).
    assert torch.equal(bits(y), bits(x).permute(dims).contiguous())
    if tuple(dims) == tuple(range(len(dims))):
        # The call returns a view; the identity's copy kernel (what a dense
        # view's identity runs) through the planned path.
        copy = permute_tensor(x, dims)
        assert copy.data_ptr() != x.data_ptr() and torch.equal(bits(copy), bits(x))


def test_the_card_takes_the_tuning_of_its_name():
    # The choice, not the card: whatever card runs this, the tuning is the
    # one its driver-reported name maps to, and an H100 or H200 (the cards
    # measured) takes its own.
    from tile_mlir.kernels.layout.tuning import FIVE_STACKS, SIX_STACKS, for_name
    from tile_mlir.runtime.driver import device_name
    index = torch.cuda.current_device()
    name = device_name(index)
    assert name == torch.cuda.get_device_name(index)
    tuning = for_device(torch.device("cuda", index))
    assert tuning is for_name(name)
    if re.search(r"\bH100\b", name):
        assert tuning is FIVE_STACKS
    elif re.search(r"\bH200\b", name):
        assert tuning is SIX_STACKS


@pytest.mark.parametrize("tuning", TUNINGS, ids=lambda t: t.name)
def test_every_tunings_defaults_are_exact(tuning, gen):
    # Each card's default kernels (tile_mlir.kernels.layout.tuning), whichever
    # card runs the test, on every test shape whose plan a tuning changes.
    P = importlib.import_module("tile_mlir.kernels.layout.permute")
    ran = 0
    for shape, dims, elem in PERMUTES:
        x = random_bits(shape, elem, gen)
        plan, dense = P.call_plan(x.shape, x.stride(), dims, elem)
        if plan.kind not in ("transpose", "boxes"):
            continue
        ref = bits(x).permute(dims).contiguous()
        out = torch.full_like(ref, -1).view(x.dtype)
        P.run(plan, x.contiguous() if dense else x, out, P.kernel_for(plan, tuning))
        torch.cuda.synchronize()
        assert torch.equal(bits(out), ref), f"{tuning.name}: {shape} by {dims}, {elem} bytes"
        ran += 1
    assert ran > 20


def test_vector_permutes_are_exact(gen):
    # The vector permute (a benchmark variant of the boxes plans) on every
    # test shape whose plan moves boxes, at every element size.
    P = importlib.import_module("tile_mlir.kernels.layout.permute")
    ran = 0
    for shape, dims, elem in PERMUTES:
        x = random_bits(shape, elem, gen)
        plan = P.plan_for(x.shape, x.stride(), dims, elem)
        ref = bits(x).permute(dims).contiguous()
        for name, kernel in P.vector_variants(plan):
            out = torch.full_like(ref, -1).view(x.dtype)
            P.run(plan, x, out, kernel)
            torch.cuda.synchronize()
            assert torch.equal(bits(out), ref), f"{name}: {shape} by {dims}, {elem} bytes"
            ran += 1
    assert ran > 20


@pytest.mark.parametrize("case", PERMUTE_BENCH_SMALL, ids=[_id(c) for c in PERMUTE_BENCH_SMALL])
def test_permute_variants_are_exact(case, gen):
    # Every kernel variant the benchmark measures (one tile per CTA, more
    # CTAs an SM, deeper pipelines, L2 hints), on shapes with partial tiles.
    shape, dims = case
    P = importlib.import_module("tile_mlir.kernels.layout.permute")
    x = random_bits(shape, 2, gen)
    ref = bits(x).permute(dims).contiguous()
    plan = plan_of(x.shape, x.stride(), dims, 2)
    for name, kernel in P.variants(plan):
        out = torch.full_like(ref, -1).view(x.dtype)
        P.run(plan, x, out, kernel)
        torch.cuda.synchronize()
        assert torch.equal(bits(out), ref), f"variant {name} of {plan.kind}"


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
@pytest.mark.parametrize("case", THREAD_STORE_SHAPES, ids=[_id(c) for c in THREAD_STORE_SHAPES])
def test_thread_stores_are_exact(case, elem, gen):
    # The transposes whose threads store the tile (a benchmark variant), at
    # every element size, persistent and one tile a CTA.
    shape, dims = case
    check_transpose_forms(random_bits(shape, elem, gen), dims, "thread_store_forms", 2)


def check_transpose_forms(x, dims, forms_of: str, count: int) -> None:
    """Each of permute.`forms_of`(plan)'s `count` kernels of x's transposing
    plan, bit-exact against torch into an output poisoned with all-ones bits."""
    P = importlib.import_module("tile_mlir.kernels.layout.permute")
    ref = bits(x).permute(dims).contiguous()
    plan = plan_of(x.shape, x.stride(), dims, x.element_size())
    if plan.kind != "transpose":
        pytest.skip(f"{plan.kind} plan: no transposed tile")
    forms = getattr(P, forms_of)(plan)
    assert len(forms) == count
    for name, kernel in forms:
        out = torch.full_like(ref, -1).view(x.dtype)
        P.run(plan, x, out, kernel)
        torch.cuda.synchronize()
        assert torch.equal(bits(out), ref), f"{name} of {plan.params}"


THREAD_LOAD_CASES = [(shape, None, dims, elem) for shape, dims in THREAD_STORE_SHAPES
                     for elem in (1, 2, 4, 8)] + THREAD_LOAD_VIEWS


@pytest.mark.parametrize("case", THREAD_LOAD_CASES, ids=[_id(c) for c in THREAD_LOAD_CASES])
def test_thread_loads_are_exact(case, gen):
    # The transposes whose threads load the tile (benchmark variants), with
    # the copy engine's stores and the threads' own, at every element size;
    # views whose rows end inside a 16-byte vector.
    shape, strides, dims, elem = case
    if strides is None:
        x = random_bits(shape, elem, gen)
    else:
        extent = 1 + sum((d - 1) * s for d, s in zip(shape, strides))
        x = random_bits((extent,), elem, gen).as_strided(shape, strides)
    check_transpose_forms(x, dims, "thread_load_forms", 3)


@pytest.mark.parametrize("elem", [1, 2, 4, 8])
def test_permute_of_views(elem, gen):
    base = random_bits((6, 40, 64), elem, gen)
    view = base.permute(2, 0, 1)                       # a permuted dense view
    assert same_bits(permute(view, (1, 2, 0)), ref_permute(view, (1, 2, 0)))
    sliced = base[1:5, :, :48]                         # outer strides of 64 elements
    assert same_bits(permute(sliced, (2, 0, 1)), ref_permute(sliced, (2, 0, 1)))
    stepped = base[:, ::2, :]                          # a stride across rows
    assert same_bits(permute(stepped, (0, 2, 1)), ref_permute(stepped, (0, 2, 1)))
    inner = base.transpose(1, 2)[:, :, :32]            # innermost stride 64: copied first
    assert same_bits(permute(inner, (2, 1, 0)), ref_permute(inner, (2, 1, 0)))
    # A view whose first element is not 16-byte aligned: copied first.
    if elem == 2:
        flat = random_bits((1 + 16 * 64,), elem, gen)
        mis = flat[1:].view(16, 64)
        assert same_bits(permute(mis, (1, 0)), ref_permute(mis, (1, 0)))
    # The views the compile cache's recipes were planned for.
    assert [(tuple(v.shape), v.stride()) for v in (view, sliced, stepped, inner)] == \
        [(shape, strides) for shape, strides, _ in PERMUTE_VIEWS]


def test_permute_on_a_side_stream_and_back_to_back(gen):
    x = random_bits((4, 264, 520), 2, gen)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        outs = [permute(x, (0, 2, 1)) for _ in range(4)]
    side.synchronize()
    for y in outs:
        assert same_bits(y, ref_permute(x, (0, 2, 1)))


def test_identity_of_a_contiguous_tensor_is_a_view_as_torchs(gen):
    # x.permute(dims).contiguous() copies nothing for the identity of a
    # contiguous tensor; neither does ours. Another order, or the identity
    # of a strided view, is a new contiguous tensor.
    # (The copies' kernels: layout_cases.IDENTITY_COPIES.)
    x = random_bits(IDENTITY_BASE, 2, gen)
    ident = permute(x, (0, 1, 2))
    ref = x.permute(0, 1, 2).contiguous()
    assert ident.data_ptr() == ref.data_ptr() == x.data_ptr()
    assert ident.shape == x.shape and ident.stride() == x.stride()
    assert permute(x, [0, 1, 2]).data_ptr() == x.data_ptr()
    moved = permute(x, (0, 2, 1))
    assert moved.data_ptr() != x.data_ptr() and same_bits(moved, ref_permute(x, (0, 2, 1)))
    view = x[:, ::2]
    copied = permute(view, (0, 1, 2))
    assert copied.is_contiguous() and copied.data_ptr() != x.data_ptr()
    assert same_bits(copied, view.contiguous())
    # The view skips none of the op's rules: 16-byte elements, and axes
    # that are bools or floats (equal to 0 and 1, but no axes).
    with pytest.raises(TileUsageError) as err:
        permute(torch.zeros(4, 4, dtype=torch.complex128, device=x.device), (0, 1))
    assert err.value.rule == "layout-dtype"
    for dims in ((False, True), (0.0, 1.0)):
        with pytest.raises(TileUsageError) as err:
            permute(x[0], dims)
        assert err.value.rule == "layout-permutation"


def test_permute_of_empty_and_scalar_like_tensors(gen):
    x = random_bits((0, 64, 32), 2, gen)
    assert permute(x, (2, 1, 0)).shape == (32, 64, 0)
    one = random_bits((1, 1, 1), 4, gen)
    assert same_bits(permute(one, (2, 0, 1)), ref_permute(one, (2, 0, 1)))


def test_permute_takes_and_returns_cupy():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(48 * 80, dtype=cupy.float32).reshape(48, 80)
    y = permute(x, (1, 0))
    assert isinstance(y, cupy.ndarray)
    assert bool((y == x.T).all())


def test_permute_takes_and_returns_jax_and_numba():
    # jax arrays live in jaxlib, numba's in numba.cuda: each comes back as
    # its own type.
    import os
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jnp = pytest.importorskip("jax.numpy")
    import jax
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("jax sees no GPU")
    x = jnp.arange(48 * 80, dtype=jnp.float32).reshape(48, 80)
    y = permute(x, (1, 0))
    assert isinstance(y, jax.Array) and bool((y == x.T).all())
    numba_cuda = pytest.importorskip("numba.cuda")
    a = numba_cuda.to_device(np.arange(48 * 80, dtype=np.float32).reshape(48, 80))
    b = permute(a, (1, 0))
    assert type(b).__module__.startswith("numba")
    assert np.array_equal(b.copy_to_host(), a.copy_to_host().T)


class _Foreign:
    """A device array of a library with no way back to its type."""
    __module__ = "tile_mlir_no_such_library"

    def __init__(self, tensor, protocol):
        self._tensor = tensor
        if protocol == "dlpack":
            self.__dlpack__ = tensor.__dlpack__
            self.__dlpack_device__ = tensor.__dlpack_device__
        else:
            self.__cuda_array_interface__ = tensor.__cuda_array_interface__


@pytest.mark.parametrize("protocol", ["dlpack", "cuda_array_interface"])
def test_an_array_with_no_way_back_is_named(protocol):
    x = _Foreign(torch.zeros(8, 16, device="cuda"), protocol)
    with pytest.raises(TileUsageError) as err:
        permute(x, (1, 0))
    assert err.value.rule == "layout-array" and "no way back" in str(err.value)


def test_pad_converts_its_value_as_torch_does():
    # F.pad's value is a float: 2**53 + 1 pads an int64 tensor with 2**53.
    x = torch.randint(-5, 5, (3, 20, 32), dtype=torch.int64, device="cuda")
    assert torch.equal(pad(x, (1, 1, 1, 1), value=2**53 + 1),
                       F.pad(x, (1, 1, 1, 1), value=2**53 + 1))


def test_unfold_takes_array_pairs(gen):
    x = torch.randn(2, 16, 20, 24, device="cuda", dtype=torch.bfloat16, generator=gen)
    want = F.unfold(x, 3, padding=1)
    assert same_bits(unfold(x, np.array([3, 3]), padding=torch.tensor([1, 1])), want)


def _pad_expected(x, pad_, fill, value):
    if fill != "nan":   # the value's bits in x's dtype, padded as integers
        fill_bits = bits(torch.tensor([value], dtype=x.dtype)).item()
        return F.pad(bits(x), pad_, value=fill_bits).view(x.dtype)
    # The copy engine's NaN (0x7FF7...) wherever the pad lies, x's bits elsewhere.
    zero = F.pad(x, pad_, value=0)
    where = F.pad(torch.zeros(x.shape, dtype=torch.bool, device=x.device), pad_,
                  value=True)
    nan = torch.tensor(ENGINE_NAN[x.element_size()], dtype=INTS[x.element_size()],
                       device=x.device)
    return torch.where(where, nan, bits(zero)).view(x.dtype)


PADS = list(pad_test_cases())


@pytest.mark.parametrize("case", PADS, ids=[_id(c) for c in PADS])
def test_pad_is_exact(case, gen):
    shape, pad_, elem, fill = case
    x = random_bits(shape, elem, gen)
    value = {"zero": 0, "nan": float("nan"), "value": 3 if elem == 1 else 1.5}[fill]
    y = pad(x, pad_, value=value)
    assert same_bits(y, _pad_expected(x, pad_, fill, value))


@pytest.mark.parametrize("fill", ["zero", "value"])
@pytest.mark.parametrize("case,kind", [(PAD_BENCH_SMALL, "rows"),
                                       (PAD_WIDEN_BENCH_SMALL, "boxes")])
def test_pad_variants_are_exact(case, kind, fill, gen):
    # Every kernel variant the benchmark measures for the pad rows (tile
    # heights, threads, grids, stages, L2 hints), on their scaled-down shapes.
    P = importlib.import_module("tile_mlir.kernels.layout.pad")
    shape, pad_ = case
    x = random_bits(shape, 2, gen)
    value = {"zero": 0, "value": 1.5}[fill]
    ref = _pad_expected(x, pad_, fill, value)
    plan = P.plan_for(x.shape, x.stride(), pad_, 2, fill)
    bits_, _ = P._fill_of(x, value)
    assert plan.kind == kind
    runs = [(name, plan, kernel) for name, kernel in P.variants(plan, "bfloat16")]
    rows = P.rows_plan(plan)    # the benchmark's rows kernel on aligned rows
    runs += [("rows kernel", rows, None)] if rows is not None else []
    assert (rows is not None) == (kind == "boxes")
    for name, run_plan, kernel in runs:
        out = torch.full_like(ref, -1)
        P.run(run_plan, x, out, bits_, kernel)
        torch.cuda.synchronize()
        assert same_bits(out, ref), f"variant {name} of the {fill} pad"


@pytest.mark.parametrize("case", PADS, ids=[_id(c) for c in PADS])
def test_pad_forms_are_exact(case, gen):
    # Every kernel a plan may run, whichever it picks, on every test shape:
    # a rows plan's two forms (the row form, and the flat form with the
    # engine's fill: flat tiles where a tile spans whole rows, the row form
    # inside the same kernel where it does not); a boxes plan's vector pad
    # where the rows are whole 16-byte vectors (crops, pads of outer axes,
    # a last tile past B's end) and the copy engine's boxes.
    P = importlib.import_module("tile_mlir.kernels.layout.pad")
    shape, pad_, elem, fill = case
    x = random_bits(shape, elem, gen)
    value = {"zero": 0, "nan": float("nan"), "value": 1.5}[fill]
    plan = P.plan_for(x.shape, x.stride(), pad_, elem, fill)
    dtype_name = P.TORCH_DTYPES[elem, fill == "nan"]
    forms = P.rows_forms(plan, dtype_name) + P.boxes_forms(plan, dtype_name)
    if not forms:
        pytest.skip(f"the plan is {plan.kind}")
    ref = _pad_expected(x, pad_, fill, value)
    for name, kernel in forms:
        out = torch.full_like(ref, -1)
        P.run(plan, x, out, P._fill_of(x, value)[0], kernel)
        torch.cuda.synchronize()
        assert same_bits(out, ref), name


def test_lazy_conjugates_are_resolved(gen):
    # x.conj() is a view whose memory holds x's values: the ops return the
    # conjugate, as torch's own do.
    z = torch.complex(torch.randn(208, 144, device="cuda", generator=gen),
                      torch.randn(208, 144, device="cuda", generator=gen))
    assert z.conj().is_conj()
    assert torch.equal(permute(z.conj(), (1, 0)), z.conj().permute(1, 0).contiguous())
    # The identity's view keeps the lazy conjugate or negation, as torch's does.
    for lazy in (z.conj(), torch._neg_view(z.real.contiguous())):
        same = permute(lazy, (0, 1))
        assert same.data_ptr() == lazy.data_ptr() and torch.equal(same, lazy)
    w = z[:60].reshape(3, 20, 144)[..., :32].contiguous()
    assert torch.equal(pad(w.conj(), (1, 1, 1, 1)), F.pad(w.conj(), (1, 1, 1, 1)))


def test_pad_reads_a_spec_given_as_an_iterator_once(gen):
    # torch's pad takes a tuple; an iterator here pads as its items say.
    x = random_bits((3, 20, 32), 2, gen)
    assert same_bits(pad(x, (p for p in (1, 1, 1, 1))), F.pad(x, (1, 1, 1, 1)))


@pytest.mark.parametrize("dtype,value", [
    (torch.bfloat16, True), (torch.int32, np.int64(5)), (torch.float32, np.float32(1.5)),
    (torch.bfloat16, torch.tensor(2.5)), (torch.int32, 2.7), (torch.float32, float("-inf")),
    (torch.complex64, float("nan")), (torch.complex64, -1.25)])
def test_pad_takes_the_values_torch_takes(dtype, value, gen):
    # Numbers as torch's pad takes them (numpy scalars, 0-d tensors, bools,
    # a float truncated into an int tensor, a complex tensor's value + 0j).
    shape, pad_ = (3, 20, 32), (1, 1, 1, 1)
    x = random_bits(shape, torch.empty((), dtype=dtype).element_size(), gen, dtype)
    got, want = pad(x, pad_, value=value), F.pad(x, pad_, value=value)
    assert got.dtype == want.dtype and same_bits(got, want)


# Every torch dtype of 1, 2, 4 or 8 bytes that this torch has: the ops move
# bits, so each comes back in its own dtype with x's bits (the kernels are
# those of its element size, cached for the shapes of the sweep).
MOVED_DTYPES = [d for d in (getattr(torch, name, None) for name in (
    "bool", "uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex32", "complex64",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
    "float8_e8m0fnu")) if d is not None]


def _torch_pad_or_none(x, pad_, value):
    """torch's F.pad of x, on the GPU or, where torch pads this dtype only
    there, on the CPU; where torch cannot copy the dtype (float8_e8m0fnu),
    x's bits padded with the bits of torch's own fill of the value; None
    where torch cannot even fill the dtype with the value."""
    def by_fill():
        filled = torch.full((1,), value, dtype=x.dtype, device=x.device)
        return F.pad(bits(x), pad_, value=bits(filled).item()).view(x.dtype)
    for run in (lambda: F.pad(x, pad_, value=value),
                lambda: F.pad(x.cpu(), pad_, value=value).to(x.device), by_fill):
        try:
            return run()
        except (RuntimeError, TypeError, ValueError, OverflowError) as err:
            if "cannot be converted" in str(err):
                return None   # F.pad rejects the value for this dtype
    return None


@pytest.mark.parametrize("dtype", MOVED_DTYPES, ids=lambda d: str(d).replace("torch.", ""))
def test_every_dtype_of_a_moved_size(dtype, gen):
    elem = torch.empty((), dtype=dtype).element_size()
    def fresh(shape):
        if dtype == torch.bool:   # bools hold 0 or 1
            return torch.randint(0, 2, shape, device="cuda", generator=gen).bool()
        return random_bits(shape, elem, gen, dtype)
    for shape, dims in (((3, 80, 144), (0, 2, 1)), ((80, 3, 144), (1, 0, 2))):
        x = fresh(shape)
        assert same_bits(permute(x, dims), ref_permute(x, dims)), (shape, dims)
    x = fresh((3, 20, 32))
    for value in (0, 1):
        want = _torch_pad_or_none(x, (1, 1, 1, 1), value)
        if want is None:   # torch cannot fill this dtype: ours names the rule
            with pytest.raises(TileUsageError) as err:
                pad(x, (1, 1, 1, 1), value=value)
            assert err.value.rule == "pad-value"
        else:
            assert same_bits(pad(x, (1, 1, 1, 1), value=value), want), value
    image = fresh((2, 16, 20, 24))
    # NHWC through the bits: the reference needs no copy kernel of the dtype.
    nhwc = bits(image).permute(0, 2, 3, 1).contiguous().view(dtype)
    for layout, y in (("NCHW", image), ("NHWC", nhwc)):
        assert same_bits(unfold(y, 3, padding=1, layout=layout),
                         _unfold_expected(y, 3, 1, 1, 1, layout)), layout


def test_a_view_with_six_apart_axes(gen):
    # Its strides keep six axes apart: it runs as its contiguous copy.
    base = random_bits((4, 4, 4, 4, 4, 8), 2, gen)
    view = base[:2, :2, :2, :2, :2, :4]
    assert (tuple(view.shape), view.stride()) == WIDE_VIEW
    assert same_bits(permute(view, WIDE_VIEW_DIMS), ref_permute(view, WIDE_VIEW_DIMS))
    assert same_bits(pad(view, WIDE_VIEW_PAD),
                     _pad_expected(view, WIDE_VIEW_PAD, "zero", 0))


def test_expanded_views(gen):
    # Stride 0 (torch's expand): the tensor maps read the same rows again.
    shape, strides, dims = EXPANDED_PERMUTE
    x = random_bits((1,) + shape[1:], 2, gen).expand(shape)
    assert x.stride() == strides
    assert same_bits(permute(x, dims), ref_permute(x, dims))
    shape, strides, pad_ = EXPANDED_PAD
    x = random_bits((1,) + shape[1:], 2, gen).expand(shape)
    assert x.stride() == strides
    assert same_bits(pad(x, pad_), _pad_expected(x, pad_, "zero", 0))
    assert same_bits(pad(x, pad_, value=1.5), _pad_expected(x, pad_, "value", 1.5))


def test_unfold_of_an_empty_batch():
    x = torch.zeros(0, 4, 8, 8, device="cuda", dtype=torch.bfloat16)
    assert unfold(x, 3, padding=1).shape == F.unfold(x, 3, padding=1).shape


def test_pad_of_a_strided_view(gen):
    base = random_bits((3, 40, 64), 2, gen)
    view = base[:, 2:30, :48]
    assert (tuple(view.shape), view.stride()) == PAD_VIEWS[0][:2]
    assert same_bits(pad(view, (1, 2, 3, 4)), _pad_expected(view, (1, 2, 3, 4), "zero", 0))
    assert same_bits(pad(view, (8, 8, 0, 1), value=-2.0),
                     _pad_expected(view, (8, 8, 0, 1), "value", -2.0))


def _unfold_expected(x, k, p, s, d, layout):
    """F.unfold of the element indices (float64: exact), then x's bits gathered."""
    if layout == "NHWC":
        x_nchw = x.permute(0, 3, 1, 2)
    else:
        x_nchw = x
    n, c, h, w = x_nchw.shape
    index = torch.arange(1, n * c * h * w + 1, dtype=torch.float64, device=x.device)
    cols = F.unfold(index.view(n, c, h, w), k, dilation=d, padding=p, stride=s)
    flat = bits(x_nchw).contiguous().reshape(-1)
    taken = torch.where(cols > 0, flat[(cols.long() - 1).clamp(min=0)],
                        torch.zeros((), dtype=flat.dtype, device=x.device))
    if layout == "NHWC":
        taps = cols.shape[1] // c
        taken = taken.view(n, c, taps, -1).permute(0, 3, 2, 1).reshape(n, -1, taps * c)
    return taken.contiguous().view(x.dtype)


UNFOLDS = list(unfold_test_cases())


@pytest.mark.parametrize("case", UNFOLDS, ids=[_id(c) for c in UNFOLDS])
def test_unfold_is_exact(case, gen):
    shape, k, p, s, d, layout, elem = case
    n, c, h, w = shape
    x = random_bits((n, c, h, w) if layout == "NCHW" else (n, h, w, c), elem, gen)
    y = unfold(x, k, padding=p, stride=s, dilation=d, layout=layout)
    assert same_bits(y, _unfold_expected(x, k, p, s, d, layout))


def test_unfold_matches_torch_on_floats(gen):
    x = torch.randn(2, 16, 20, 24, device="cuda", dtype=torch.bfloat16, generator=gen)
    assert same_bits(unfold(x, 3, padding=1), F.unfold(x, 3, padding=1))
    assert same_bits(unfold(x[0], 3, padding=1), F.unfold(x[0], 3, padding=1))


@pytest.mark.parametrize("call,rule", [
    (lambda x: permute(x.cpu(), (1, 0)), "layout-array"),
    (lambda x: permute([1, 2], (0,)), "layout-array"),
    (lambda x: permute(x, (0, 0)), "layout-permutation"),
    (lambda x: pad(x, (1,)), "pad-spec"),
    (lambda x: pad(x.to(torch.int32), (1, 1), value=float("nan")), "pad-value"),
    (lambda x: pad(x, (1, 1), value="a"), "pad-value"),
    (lambda x: unfold(x, 3), "unfold-spec"),
    (lambda x: permute(x.to(torch.complex128), (1, 0)), "layout-dtype"),
    # torch's own rules: a crop within its axis, a value the dtype holds, a
    # non-empty image.
    (lambda x: pad(x, (-40, 3)), "pad-spec"),
    (lambda x: pad(x, (1, -34)), "pad-spec"),
    (lambda x: pad(x.to(torch.uint8), (1, 1), value=-1), "pad-value"),
    (lambda x: pad(x.to(torch.float16), (1, 1), value=1e6), "pad-value"),
    (lambda x: pad(x.to(torch.int64), (1, 1), value=2 ** 64), "pad-value"),
    (lambda x: pad(x, (1, 1), value=1j), "pad-value"),
    (lambda x: pad(x, (1, 1), value=torch.ones(2)), "pad-value"),
    (lambda x: pad(x, (-1, 0), value=10 ** 400), "pad-value"),   # even for a crop
    (lambda x: unfold(x.new_zeros(1, 4, 0, 8), 3, padding=1), "unfold-spec"),
])
def test_bad_arguments_are_named(call, rule):
    x = torch.zeros(16, 32, device="cuda", dtype=torch.bfloat16)
    with pytest.raises(TileUsageError) as err:
        call(x)
    assert err.value.rule == rule


def test_an_element_size_the_engine_does_not_move_names_the_dtype():
    x = torch.zeros(4, 8, device="cuda", dtype=torch.complex128)
    with pytest.raises(TileUsageError, match=r"complex128\) has 16-byte elements"):
        permute(x, (1, 0))


def test_the_plans_tested_cover_every_kind():
    from tile_mlir.kernels.layout.plan.common import contiguous_strides
    kinds = {plan_of(s, contiguous_strides(s), d, e).kind for s, d, e in PERMUTES}
    assert kinds == {"boxes", "transpose", "narrow", "simt", "copy"}


two_devices = pytest.mark.skipif(torch.cuda.device_count() < 2,
                                 reason="needs two CUDA devices")


@two_devices
@pytest.mark.parametrize("current", [0, 1])
def test_the_ops_run_on_their_tensors_device(current, rng):
    """Tensors on cuda:1 run there, whichever device is current, and the
    current device stays as it was (a process per GPU makes cuda:N current;
    a single process may hold tensors on several)."""
    g = torch.Generator(device="cuda:1")
    g.manual_seed(int(rng.integers(0, 2**62)))
    with torch.cuda.device(current):
        for _ in range(2):   # the second time: the cached launches
            raw = torch.randint(-2**15, 2**15 - 1, (3, 40, 72), dtype=torch.int16,
                                device="cuda:1", generator=g)
            x = raw.view(torch.bfloat16)
            y = permute(x, (2, 0, 1))
            assert y.device == x.device and same_bits(y, ref_permute(x, (2, 0, 1)))
            p = pad(x, (1, 1, 1, 1))
            assert p.device == x.device
            assert same_bits(p, F.pad(raw, (1, 1, 1, 1)).view(torch.bfloat16))
            img = torch.randn(2, 16, 20, 24, device="cuda:1", dtype=torch.bfloat16,
                              generator=g)
            cols = unfold(img, 3, padding=1)
            assert cols.device == img.device
            assert same_bits(cols, F.unfold(img, 3, padding=1))
            assert torch.cuda.current_device() == current


@pytest.mark.parametrize("shape, pad_, fill", PAD_CHANNELS_LAST)
def test_channels_last_inputs_keep_their_format(shape, pad_, fill, gen):
    """F.pad keeps a channels_last (or channels_last_3d) input's memory
    format; so does ours, padding in memory order."""
    fmt = torch.channels_last if len(shape) == 4 else torch.channels_last_3d
    x = random_bits(shape, 2, gen).contiguous(memory_format=fmt)
    value = 0 if fill == "zero" else -2.5
    y = pad(x, pad_, value=value)
    want = _pad_expected(x, pad_, fill, value)
    assert y.stride() == F.pad(x, pad_, value=value).stride()
    assert y.is_contiguous(memory_format=fmt)
    assert same_bits(y, want)


def test_a_channels_last_view_keeps_the_format(gen):
    """Not dense (a slice of W), still channels_last to torch: F.pad's
    result is channels_last, and so is ours."""
    shape, strides, pad_, _ = PAD_CHANNELS_LAST_VIEW
    base = random_bits((2, 8, 10, 13), 2, gen).contiguous(memory_format=torch.channels_last)
    x = base[..., 1:]
    assert tuple(x.shape) == shape and x.stride() == strides
    y = pad(x, pad_)
    assert y.stride() == F.pad(x, pad_).stride()
    assert same_bits(y, _pad_expected(x, pad_, "zero", 0))


@pytest.mark.parametrize("shape, dims, elem", BEYOND_RANK_PERMUTES)
def test_permutes_of_more_axes_than_the_engine_addresses(shape, dims, elem, gen):
    x = random_bits(shape, elem, gen)
    assert same_bits(permute(x, dims), ref_permute(x, dims))


@pytest.mark.parametrize("shape, pad_, elem, fill", BEYOND_RANK_PADS)
def test_pads_of_more_axes_than_the_engine_addresses(shape, pad_, elem, fill, gen):
    x = random_bits(shape, elem, gen)
    value = 0 if fill == "zero" else 3
    assert same_bits(pad(x, pad_, value=value), _pad_expected(x, pad_, fill, value))


@pytest.mark.parametrize("shape, dims, pad_, elem", CROP_VIEWS)
def test_crops_come_back_in_torchs_layout(shape, dims, pad_, elem, gen):
    """A pad with no positive amount is F.pad's copy of the cropped view:
    torch's clone layout (the view's stride order), and a value nothing is
    filled with is not converted (infinity into an integer dtype)."""
    x = random_bits(shape, elem, gen, INTS[elem]).permute(dims)
    got, want = pad(x, pad_, value=float("inf")), F.pad(x, pad_, value=float("inf"))
    assert got.shape == want.shape and got.stride() == want.stride()
    assert same_bits(got, want)
    if x.is_contiguous(memory_format=torch.channels_last):   # the last case
        assert got.is_contiguous(memory_format=torch.channels_last)


def test_an_expanded_channel_is_not_channels_last(gen):
    shape, strides, pad_, elem, _ = EXPANDED_CHANNEL_PAD
    x = random_bits((shape[0], 1) + shape[2:], elem, gen).expand(shape)
    assert x.stride() == strides
    got, want = pad(x, pad_), F.pad(bits(x), pad_)
    assert got.stride() == want.stride() and want.is_contiguous()
    assert same_bits(got, want.view(x.dtype))


def test_a_value_of_none_pads_with_zero(gen):
    x = random_bits((3, 20, 32), 4, gen, torch.float32)
    assert same_bits(pad(x, (1, 1, 1, 1), value=None), F.pad(x, (1, 1, 1, 1), value=None))


@pytest.mark.parametrize("dtype, value", [
    (torch.uint8, 255.5), (torch.int8, 127.9), (torch.int64, -2**63 - 1)])
def test_pad_values_round_as_torch_rounds_them(dtype, value, gen):
    # Fractions past an integer dtype's bound: torch 2.14 truncates them,
    # earlier versions reject them; ours does what this torch's F.pad does.
    x = random_bits((3, 20, 32), torch.empty((), dtype=dtype).element_size(), gen, dtype)
    try:
        want = F.pad(x, (1, 1, 1, 1), value=value)
    except RuntimeError:
        with pytest.raises(TileUsageError) as err:
            pad(x, (1, 1, 1, 1), value=value)
        assert err.value.rule == "pad-value"
        return
    assert same_bits(pad(x, (1, 1, 1, 1), value=value), want)


@pytest.mark.parametrize("dtype, value", [
    (getattr(torch, "float8_e4m3fn", None), float("inf")),
    (getattr(torch, "float8_e8m0fnu", None), 0), (getattr(torch, "float8_e8m0fnu", None), -1.0),
    (torch.uint8, -1), (torch.float16, 1e6)])
def test_pad_values_torch_cannot_convert_are_named(dtype, value, gen):
    if dtype is None:
        pytest.skip("this torch has no such dtype")
    x = random_bits((3, 20, 32), torch.empty((), dtype=dtype).element_size(), gen, dtype)
    with pytest.raises(RuntimeError):
        F.pad(x.cpu(), (1, 1), value=value)
    with pytest.raises(TileUsageError) as err:
        pad(x, (1, 1), value=value)
    assert err.value.rule == "pad-value"
