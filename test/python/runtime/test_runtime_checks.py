"""The runtime's argument checks, without a GPU: every rejection names its
rule, and happens before anything is uploaded or launched."""

from dataclasses import replace

import numpy as np
import pytest

from tile_mlir.runtime.arrays import DeviceView, device_view
from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.runtime.launcher import Kernel
from tile_mlir.runtime.tensormap import check_source, descriptor_layout
from tile_mlir.spec import TensorMapSpec

# A manifest entry as the compiler writes it (64x32 float32, box 8x16).
SPEC = TensorMapSpec.from_json({
    "base_alignment": 16, "box": [16, 8], "bytes": 128, "data_type": 7,
    "elem_bits": 32, "element_strides": [1, 1], "encode": "tiled",
    "format": "float32", "global_rank": 2, "inner_multiple": 1, "interleave": 0,
    "l2_promotion": 0, "llvm_param": 7, "mode": "tile", "oob_fill": 0,
    "packing": [1, 1], "param": 1, "rank": 2, "source": 0, "stride_alignment": 16,
    "swizzle": 0})


def view(shape=(32, 64), strides=None, ptr=0x10000, dtype=np.float32):
    if strides is None:
        strides = (shape[-1], 1) if len(shape) == 2 else (1,)
    return DeviceView(ptr=ptr, shape=shape, strides=strides, dtype=np.dtype(dtype))


def rule_of(fn, *args) -> str:
    with pytest.raises(TileRuntimeError) as err:
        fn(*args)
    return err.value.rule


def test_layout_is_innermost_first_in_bytes():
    dims, strides = descriptor_layout(SPEC, view((32, 64), (80, 1)))
    assert dims == [64, 32]
    assert strides == [320]


def test_interleave_layout_drops_the_slice_axis():
    spec = replace(SPEC, interleave=2, rank=3, global_rank=4, box=(8, 1, 1),
                   element_strides=(1, 1, 1), format="uint16", data_type=1,
                   elem_bits=16, base_alignment=32, stride_alignment=32)
    v = view((2, 4, 12, 16), (768, 192, 16, 1), dtype=np.uint16)
    dims, strides = descriptor_layout(spec, v)
    assert dims == [12, 4, 2]
    assert strides == [384, 1536]


@pytest.mark.parametrize("v, rule", [
    (view(ptr=0x10008), "global-base-alignment"),
    (view(strides=(10, 1), shape=(32, 10)), "global-stride-alignment"),
    (view(strides=(64, 2)), "global-inner-stride"),
    (view(shape=(32, 4)), "box-within-dim"),
    (view(shape=(2**32 + 1, 64), strides=(64, 1)), "global-dim-range"),
    (view(shape=(32, 64), strides=(2**38, 1)), "global-stride-range"),
    (view(shape=(32,), strides=(1,)), "global-rank"),
])
def test_runtime_rules(v, rule):
    assert rule_of(check_source, SPEC, v, 0) == rule


def test_valid_source_passes():
    check_source(SPEC, view(), 0)


def test_dim_range_names_the_axis():
    with pytest.raises(TileRuntimeError) as err:
        check_source(SPEC, view(shape=(2**32 + 1, 64), strides=(64, 1)), 0)
    assert "dimension 4294967297 (innermost-first index 1)" in err.value.message


def test_host_decisions_come_from_the_spec():
    """Packing, alignments and the inner multiple are read, not derived
    from the format: the same numbers under another format name decide the
    same way."""
    packed = replace(SPEC, packing=(2, 1), inner_multiple=128, base_alignment=32,
                     stride_alignment=32)
    # A host array of 64 bytes per row holds 128 packed values.
    v = view((32, 64), (64, 1), dtype=np.uint8)
    assert descriptor_layout(packed, v) == ([128, 32], [64])
    assert rule_of(check_source, packed, view((32, 32), (48, 1), dtype=np.uint8),
                   0) == "global-stride-alignment"
    assert rule_of(check_source, packed, view((32, 32), (32, 1), dtype=np.uint8),
                   0) == "packed-inner-dim"
    assert rule_of(check_source, packed, view((32, 48), (64, 1), ptr=0x10010,
                                              dtype=np.uint8), 0) \
        == "global-base-alignment"


def test_manifest_entries_round_trip():
    entry = SPEC.to_json()
    assert TensorMapSpec.from_json(entry) == SPEC
    assert "pixel_box_lower" not in entry and entry["packing"] == [1, 1]
    with pytest.raises(ValueError, match="unknown keys"):
        TensorMapSpec.from_json(dict(entry, fmt="uint8"))
    with pytest.raises(ValueError, match="packing"):
        TensorMapSpec.from_json({k: v for k, v in entry.items() if k != "packing"})


def _kernel(params, specs=()):
    k = object.__new__(Kernel)
    k.name = "k"
    k.info = {"params": params}
    k.specs = list(specs)
    return k


def test_argument_checks_name_the_rule():
    k = _kernel([{"kind": "memref", "shape": [16, 16], "element": "ui32"}])
    good = device_view(np.zeros((16, 16), np.uint32), 0)
    k._check_args([good])
    assert rule_of(k._check_args, [device_view(np.zeros((16, 16), np.int64), 0)]) \
        == "argument-dtype"
    assert rule_of(k._check_args, [device_view(np.zeros((16, 8), np.uint32), 0)]) \
        == "argument-shape"
    assert rule_of(k._check_args, [device_view(np.zeros((256,), np.uint32), 0)]) \
        == "global-rank"
    assert rule_of(k._check_args, [good, good]) == "argument-count"


def test_signless_integers_take_either_sign():
    k = _kernel([{"kind": "memref", "shape": [None, 4], "element": "i32"}])
    k._check_args([device_view(np.zeros((3, 4), np.int32), 0)])
    k._check_args([device_view(np.zeros((5, 4), np.uint32), 0)])


def test_non_arrays_are_rejected():
    assert rule_of(device_view, [1, 2, 3], 0) == "device-array"


def test_shared_memory_limit():
    from tile_mlir.runtime.launcher import check_shared_bytes
    info = {"name": "k", "static_shared_bytes": 1032, "dynamic_shared_bytes": 232448}
    with pytest.raises(TileRuntimeError) as err:
        check_shared_bytes(info, 232448)
    assert err.value.rule == "shared-memory-limit"
    assert "233480 bytes" in err.value.message
    check_shared_bytes(dict(info, dynamic_shared_bytes=231416), 232448)
