"""The prepared calls' keys and gates (kernels/layout/prepared.py), on the
CPU: which arguments key alike, and which calls the path leaves to the
planned one. The replay itself runs on the GPU (test/gpu/test_layout_prepared.py)."""

import math

import pytest

from tile_mlir.errors import TileUsageError
from tile_mlir.kernels.layout import prepared

torch = pytest.importorskip("torch")


def key(value):
    return prepared._arg_key(value)


def test_floats_key_by_their_bits():
    assert key(0.0) != key(-0.0)               # different fills
    assert key(math.nan) == key(float("nan"))  # any NaN object: one key
    assert key(1.5) == key(1.5) and key(1.5) != key(1)


def test_nan_keys_by_its_sign():
    """A float8 pad fills NaN with its sign (the value's bits as torch
    converts them), so NaN and -NaN are different calls."""
    from tile_mlir.kernels.layout.pad import value_bits
    fp8 = torch.zeros(1, dtype=torch.float8_e4m3fn)
    assert value_bits(fp8, math.nan)[0] != value_bits(fp8, -math.nan)[0]
    assert key(math.nan) != key(-math.nan)
    assert key(-math.nan) == key(-float("nan"))


def test_a_bool_is_not_an_int_and_a_list_is_its_tuple():
    assert key(True) != key(1) and key(False) != key(0)
    assert key([1, 0]) == key((1, 0))
    assert key(None) is None and key("NCHW") == "NCHW"


@pytest.mark.parametrize("value", [(True, 0), [1.0, 0], (x for x in (1, 0)), {1: 0},
                                   torch.tensor(0.5), object()])
def test_other_arguments_have_no_key(value):
    with pytest.raises(prepared._NoKey):
        key(value)


def planned_never(*args):
    raise AssertionError("the planned path ran")


@pytest.mark.parametrize("make", [
    lambda: torch.zeros(4, 8),                                   # a CPU tensor
    lambda: torch.zeros(4, 8, device="meta"),                    # no device memory
    lambda: torch.nn.Parameter(torch.zeros(4, 8)),               # a subclass (and grad)
    lambda: torch.zeros(4, 8, requires_grad=True),               # needs a gradient
    lambda: torch.zeros(4, 8).to_sparse(),                       # no strides
])
def test_calls_the_path_does_not_take(make):
    assert prepared.call("permute", make(), ((1, 0),), planned_never) is None


def test_an_argument_without_a_key_is_left_to_the_planned_path():
    x = torch.zeros(4, 8)
    assert prepared.call("permute", x, ((d for d in (1, 0)),), planned_never) is None
    assert prepared.state("permute", x, ((d for d in (1, 0)),)) is None


def test_the_public_op_still_names_a_cpu_tensor():
    from tile_mlir.kernels import permute
    with pytest.raises(TileUsageError) as err:
        permute(torch.zeros(4, 8), (1, 0))
    assert err.value.rule == "layout-array" and "cpu" in err.value.message


def test_a_whole_allocation_is_what_empty_strided_remakes():
    t = torch.empty(6, 10)
    assert prepared._whole(t) and prepared._whole(t.t())
    assert not prepared._whole(t[1:])           # an offset
    assert not prepared._whole(t[:, :4])        # part of its storage
    assert prepared._whole(torch.empty(0, 3))
    assert prepared._whole(torch.empty(1, 6, 10)[0])


def test_a_result_no_recorded_launch_wrote_is_not_prepared():
    """The replay only allocates and launches: a result that is the input's
    own memory, or that no recorded launch wrote, keeps the planned path;
    an empty result needs no launch."""
    from tile_mlir.kernels.layout.call import Recording
    prepared._setup()
    x = torch.empty(4, 8)
    assert prepared._prepare(x, x, Recording()) is None
    assert prepared._prepare(x, x.t(), Recording()) is None
    assert prepared._prepare(x, torch.empty(8, 4), Recording()) is None
    empty = prepared._prepare(x, torch.empty(0, 4), Recording())
    assert isinstance(empty, prepared.Prepared) and empty.shape == (0, 4)


class _Evicted(dict):
    """The entries as a thread sees them after another thread evicted the
    oldest key (or inserted one) between its reads."""

    def __init__(self, oldest):
        super().__init__()
        self.oldest = oldest

    def __iter__(self):
        return self.oldest()


def _gone():
    return iter(["an evicted key"])


def _changed():
    raise RuntimeError("dictionary changed size during iteration")


@pytest.mark.parametrize("oldest", [_gone, _changed])
def test_a_full_cache_evicts_under_another_thread(monkeypatch, oldest):
    entries = _Evicted(oldest)
    entries["k0"] = "unprepared"
    monkeypatch.setattr(prepared, "_entries", entries)
    monkeypatch.setattr(prepared, "MAX_ENTRIES", 1)
    monkeypatch.setattr(prepared, "as_tensor", lambda x: (x, None))
    prepared._setup()
    x = torch.arange(6.0).view(2, 3)
    y = prepared._first_call("k1", x, (), lambda t: t.t().contiguous())
    assert torch.equal(y, x.t())          # the planned result, not an error
    assert entries["k1"] == "unprepared"  # no recorded launch wrote it


def test_a_first_call_inside_a_capture_is_not_prepared(monkeypatch):
    """Recorded during a capture, the launches would hold the graph pool's
    tensors (cudagraph trees reject that): the key stays unknown, so its
    first call outside the capture prepares it."""
    entries = {}
    monkeypatch.setattr(prepared, "_entries", entries)
    monkeypatch.setattr(prepared, "as_tensor", lambda x: (x, None))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_current_stream_capturing", lambda: True)
    prepared._setup()
    recorded = []
    monkeypatch.setattr(prepared, "recording", lambda: recorded.append(1))
    x = torch.arange(6.0).view(2, 3)
    y = prepared._first_call("k", x, (), lambda t: t.t().contiguous())
    assert torch.equal(y, x.t())
    assert entries == {} and recorded == []
