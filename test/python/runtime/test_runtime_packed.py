"""Host arrays of the packed formats, without a GPU: a uint8 array whose
innermost axis holds the packed bytes (128 float4 values = 64 bytes, 128
float6 values = 96 bytes); the kernel's memref keeps its value count, the
tensor map its value dims. Anything else is [packed-host-array]."""

import ctypes

import numpy as np
import pytest

from tile_mlir.runtime import tensormap
from tile_mlir.runtime.arrays import DeviceView, device_view, host_packing
from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.runtime.launcher import Kernel, _pack
from tile_mlir.spec import TensorMapSpec

# (format, MLIR element, data type, base alignment, inner multiple, packing,
# bytes of 128 values): the manifest entries the compiler writes for an
# (8, 128) tensor loaded with box (8, 128) (test_manifests_are_the_compilers).
FORMATS = [
    ("float4_e2m1fn", "f4E2M1FN", 14, 32, 128, (2, 1), 64),
    ("float4_e2m1fn_align8b", "f4E2M1FN", 13, 16, 2, (2, 1), 64),
    ("float6_align16b", "f6E2M3FN", 15, 32, 128, (4, 3), 96),
]


def entry(fmt, data_type, align, inner, packing, bits):
    return {"base_alignment": align, "box": [128, 8], "bytes": 128,
            "data_type": data_type, "elem_bits": bits, "element_strides": [1, 1],
            "encode": "tiled", "format": fmt, "global_rank": 2,
            "inner_multiple": inner, "interleave": 0, "l2_promotion": 0,
            "llvm_param": 7, "mode": "tile", "oob_fill": 0, "packing": list(packing),
            "param": 1, "rank": 2, "source": 0, "stride_alignment": align,
            "swizzle": 0}


def kernel(fmt, element, data_type, align, inner, packing, shape=(8, 128)):
    """A launcher without a loaded module: only the argument checks run."""
    bits = 4 if element.startswith("f4") else 6
    k = object.__new__(Kernel)
    k.name = "k"
    k.info = {"params": [{"kind": "memref", "shape": list(shape), "element": element}]}
    k.specs = [TensorMapSpec.from_json(entry(fmt, data_type, align, inner, packing,
                                             bits))]
    return k


def rule_of(fn, *args) -> str:
    with pytest.raises(TileRuntimeError) as err:
        fn(*args)
    return err.value.rule


def device(shape, strides, dtype=np.uint8, ptr=0x10000):
    return DeviceView(ptr=ptr, shape=shape, strides=strides, dtype=np.dtype(dtype))


@pytest.mark.parametrize("fmt, element, cu, align, inner, packing, nbytes", FORMATS)
def test_the_packed_byte_array_is_the_host_array(fmt, element, cu, align, inner,
                                                 packing, nbytes):
    k = kernel(fmt, element, cu, align, inner, packing)
    packed = device_view(np.zeros((8, nbytes), np.uint8), 0)
    k._check_args([packed])
    # The tensor map counts values: globalDim is the tensor's, not the bytes'.
    assert tensormap.descriptor_layout(k.specs[0], packed) == ([128, 8], [nbytes])


@pytest.mark.parametrize("fmt, element, cu, align, inner, packing, nbytes", FORMATS)
@pytest.mark.parametrize("inner_extent", [128, 256, 32])
def test_any_other_inner_extent_is_packed_host_array(fmt, element, cu, align, inner,
                                                     packing, nbytes, inner_extent):
    # (8, 128) bytes used to pass as "the tensor's shape" and encode
    # globalDim [256, 8] for fp4: twice the tensor.
    if inner_extent == nbytes:
        return
    k = kernel(fmt, element, cu, align, inner, packing)
    v = device_view(np.zeros((8, inner_extent), np.uint8), 0)
    with pytest.raises(TileRuntimeError) as err:
        k._check_args([v])
    assert err.value.rule == "packed-host-array"
    assert f"holds {inner_extent} bytes, expected {nbytes}" in err.value.message


def test_the_outer_axes_are_checked_as_for_any_tensor():
    k = kernel(*FORMATS[0][:6])
    assert rule_of(k._check_args, [device_view(np.zeros((4, 64), np.uint8), 0)]) \
        == "argument-shape"
    assert rule_of(k._check_args, [device_view(np.zeros((8, 64), np.uint16), 0)]) \
        == "argument-dtype"


def test_a_dynamic_inner_extent_is_whole_packing_groups():
    fp6 = kernel(*FORMATS[2][:6], shape=(8, None))
    fp6._check_args([device(shape=(8, 192), strides=(192, 1))])   # 256 values
    assert rule_of(fp6._check_args, [device(shape=(8, 97), strides=(97, 1))]) \
        == "packed-host-array"
    fp4 = kernel(*FORMATS[0][:6], shape=(8, None))
    fp4._check_args([device(shape=(8, 64), strides=(64, 1))])


def test_outer_strides_of_device_arrays_are_whole_packing_groups():
    # 128 bytes per row is 170.67 float6 values: no memref describes it.
    fp6 = kernel(*FORMATS[2][:6])
    assert rule_of(fp6._check_args, [device(shape=(8, 96), strides=(128, 1))]) \
        == "packed-host-array"
    fp6._check_args([device(shape=(8, 96), strides=(192, 1))])
    kernel(*FORMATS[0][:6])._check_args([device(shape=(8, 64), strides=(96, 1))])


@pytest.mark.parametrize("fmt, element, cu, align, inner, packing, nbytes", FORMATS)
def test_the_kernels_memref_counts_values(fmt, element, cu, align, inner, packing,
                                          nbytes):
    """The LLVM memref descriptor gets the tensor's sizes and element strides
    (values), whatever the byte array's shape."""
    view = device(shape=(8, nbytes), strides=(2 * nbytes, 1))
    params = _pack([{"kind": "memref", "element": element}], [view], [], [])
    # allocated, aligned, offset, sizes..., strides...
    values = [ctypes.c_int64.from_address(p).value for p in params.pointers[2:]]
    assert values == [0, 8, 128, 256, 1]


def test_encode_gets_the_value_dims(monkeypatch):
    calls = []

    class Driver:
        def __getattr__(self, name):
            if name.startswith("cuTensorMapEncode"):
                return lambda *args: (calls.append(args), (0, "map"))[1]
            return lambda value: value

    monkeypatch.setattr(tensormap, "check", lambda result, call: result[1])
    monkeypatch.setattr(tensormap, "cuda", Driver)
    spec = kernel(*FORMATS[2][:6]).specs[0]
    assert tensormap.encode(spec, device(shape=(8, 96), strides=(96, 1))) == "map"
    (args,) = calls
    assert args[3] == [128, 8] and args[4] == [96]   # globalDim, globalStrides


def test_check_source_reads_bytes_only():
    spec = kernel(*FORMATS[2][:6]).specs[0]
    tensormap.check_source(spec, device(shape=(8, 96), strides=(96, 1)), 0)
    assert rule_of(tensormap.check_source, spec,
                   device(shape=(8, 48), strides=(48, 1), dtype=np.uint16), 0) \
        == "packed-host-array"
    assert rule_of(tensormap.check_source, spec,
                   device(shape=(8, 97), strides=(128, 1)), 0) == "packed-host-array"


def test_packing_is_the_element_types():
    assert host_packing("f4E2M1FN") == (2, 1)
    assert host_packing("f6E2M3FN") == host_packing("f6E3M2FN") == (4, 3)
    assert host_packing("bf16") == host_packing("ui8") == (1, 1)
    from tile_mlir import contract
    # Every format that describes an element type packs it the same way.
    for element, info in contract.ELEMENT_TYPES.items():
        assert {contract.FORMATS[f].packing for f in info.formats} <= \
            {host_packing(element)}


@pytest.mark.parametrize("fmt, element, cu, align, inner, packing, nbytes", FORMATS)
def test_manifests_are_the_compilers(fmt, element, cu, align, inner, packing, nbytes):
    pytest.importorskip("mlir.ir")
    from tile_mlir import compiler, contract, kernel as K, tma

    dtype = contract.ELEMENT_TYPES[element].name

    def body(A):
        shared = K.alloc_shared((8, 64 if fmt.endswith("8b") else 128), "i8",
                                align=1024)
        from tile_mlir.testing.barriers import compile_only_barrier
        bar = compile_only_barrier()  # initialised and armed
        tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile."
                  "mbarrier::complete_tx::bytes", shared, A, box=(8, 128),
                  coords=(0, 0), mbar=bar, format=fmt)

    k = K.KernelDef(body, params=[("A", K.Tensor((8, 128), dtype))], name="k",
                    target='#nvvm.target<chip = "sm_100a", features = "+ptx86">')
    info = compiler.compile(k, arch="sm_100a", cubin=False).manifest["kernels"][0]
    ours = kernel(fmt, element, cu, align, inner, packing)
    assert info["params"] == ours.info["params"]
    assert [TensorMapSpec.from_json(e) for e in info["tensor_maps"]] == ours.specs
