"""tile-lower-tma-host on the CPU: the host IR it emits, JIT-compiled.

The specs come from compiling real kernels (the device lowering's
`tile.tensor_maps`); a host-only function holding `tile.tensor_map` ops is
lowered with `tile-lower-tma-host` plus the standard host passes, JIT-compiled
with MLIR's ExecutionEngine, and run on numpy arrays with
`cuTensorMapEncodeTiled` (or `cuTensorMapEncodeIm2col`) bound to a recording
stand-in. What the stand-in
receives must be exactly what the Python runtime (tensormap.descriptor_layout
over the same spec and array) would pass the driver; a runtime-rule violation
must abort with the rule's name, as tensormap.check_source names it.
"""

import functools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ir = pytest.importorskip("mlir.ir")

from tile_mlir import compiler, kernel as K, tma  # noqa: E402
from tile_mlir.runtime.arrays import DeviceView  # noqa: E402
from tile_mlir.runtime.errors import TileRuntimeError  # noqa: E402
from tile_mlir.runtime.tensormap import check_source, descriptor_layout  # noqa: E402
from tile_mlir.spec import TensorMapSpec  # noqa: E402
from tile_mlir.testing.host_encoder import HostEncoder, aligned_empty  # noqa: E402


# --- real specs: compile one TMA load per case -------------------------------------

KERNELS = {
    # name: (global Tensor, box, shared shape, apply() keywords, shared alignment)
    "static_f32": (K.Tensor((64, 32), "float32"), (8, 16), (8, 16), {}, 128),
    "dynamic_f16": (K.Tensor((None, None), "float16", dynamic_strides=True),
                    (32, 64), (32, 64), {"swizzle": 3}, 1024),
    "dynamic_f32": (K.Tensor((None, None), "float32", dynamic_strides=True),
                    (8, 8), (8, 8), {"l2_promotion": 2, "oob_fill": 1}, 128),
    # The contract's interleave example: (N, C, W, Ci) uint16, 32-byte slices.
    "interleave": (K.Tensor((2, 4, 8, 16), "uint16"), (1, 1, 8), (1, 1, 8, 16),
                   {"interleave": 2, "swizzle": 1}, 1024),
    "rank1": (K.Tensor((None,), "uint32"), (64,), (64,), {}, 128),
    # im2col, NHWC (2, 6, 6, 32) float16: box (32 pixels, 32 channels),
    # corners lower (h -1, w -2) / upper (h 0, w -1), a W stride of 2.
    "im2col_f16": (K.Tensor((2, 6, 6, 32), "float16"), (32, 32), (32, 32),
                   {"mode": "im2col", "coords": (0, 0, 0, 0),
                    "pixel_box_lower": (-1, -2), "pixel_box_upper": (0, -1),
                    "offsets": (1, 2), "element_strides": (1, 1, 2, 1),
                    "swizzle": 2, "l2_promotion": 2, "oob_fill": 1}, 1024),
}


@functools.lru_cache(maxsize=None)
def kernel_spec(name: str) -> tuple[TensorMapSpec, str]:
    """The kernel's one tensor-map spec (from the manifest) and the memref
    type of its global parameter."""
    tensor, box, shared_shape, kwargs, align = KERNELS[name]
    kwargs = dict(kwargs)
    mode = kwargs.pop("mode", "tile")
    coords = kwargs.pop("coords", (0,) * len(box))

    def k(A: tensor):
        shared = K.alloc_shared(shared_shape, tensor.dtype, align=align)
        from tile_mlir.testing.barriers import compile_only_barrier
        bar = compile_only_barrier()  # initialised and armed
        tma.apply(tma.format_opcode("load", mode, len(coords)), shared, A, box=box,
                  coords=coords, mbar=bar, **kwargs)

    k.__name__ = name
    artifact = compiler.compile(K.kernel(grid=1, block=32)(k), cubin=False)
    (entry,) = artifact.manifest["kernels"][0]["tensor_maps"]
    spec = TensorMapSpec.from_json(entry)
    with ir.Context(), ir.Location.unknown():
        memref_type = str(tensor.memref_type())
    return spec, memref_type


def view_of(array: np.ndarray) -> DeviceView:
    return DeviceView(ptr=array.ctypes.data, shape=array.shape,
                      strides=tuple(s // array.itemsize for s in array.strides),
                      dtype=array.dtype)


def expected_call(spec: TensorMapSpec, array: np.ndarray) -> dict:
    """What the Python runtime passes cuTensorMapEncodeTiled for `array`."""
    view = view_of(array)
    check_source(spec, view, spec.source)  # the runtime accepts it too
    dims, strides = descriptor_layout(spec, view)
    return {
        "data_type": spec.data_type, "rank": spec.rank, "address": view.ptr,
        "dims": dims, "strides": strides or [dims[0] * view.itemsize],
        "box": list(spec.box), "element_strides": list(spec.element_strides),
        "interleave": spec.interleave, "swizzle": spec.swizzle,
        "l2_promotion": spec.l2_promotion, "oob_fill": spec.oob_fill,
    }


def assert_encoded_like_runtime(call: dict, spec: TensorMapSpec, array: np.ndarray):
    assert call["map"] % 128 == 0, "the map's stack slot is not 128-byte aligned"
    got = {k: v for k, v in call.items() if k != "map"}
    assert got == expected_call(spec, array)


# --- encode arguments -------------------------------------------------------------


def test_specs_come_from_the_device_lowering():
    spec, memref_type = kernel_spec("static_f32")
    assert memref_type == "memref<64x32xf32>"
    assert spec.box == (16, 8) and spec.data_type == 7
    assert spec.param == 1 and spec.llvm_param is not None
    # The host decisions of a plain float32 map.
    assert (spec.base_alignment, spec.stride_alignment) == (16, 16)
    assert spec.inner_multiple == 1 and spec.packing == (1, 1)


def test_lowered_host_needs_only_libcuda_and_libc():
    spec, memref_type = kernel_spec("dynamic_f16")
    lowered = HostEncoder(spec, memref_type).lowered
    assert "tile.tensor_map" not in lowered
    externals = {line.split("@")[1].split("(")[0] for line in lowered.splitlines()
                 if line.strip().startswith("llvm.func @") and "{" not in line}
    assert externals == {"cuTensorMapEncodeTiled", "printf", "fflush", "abort"}


def test_static_2d():
    spec, memref_type = kernel_spec("static_f32")
    encoder = HostEncoder(spec, memref_type)
    array = aligned_empty((64, 32), np.float32)
    call = encoder(array)
    assert call["dims"] == [32, 64] and call["strides"] == [128]
    assert_encoded_like_runtime(call, spec, array)


@pytest.mark.parametrize("layout", ["kernel", "dynamic-offset"])
def test_dynamic_padded_rows(layout):
    # A view with padded rows (80-element pitch) starting at row 4, column 8.
    spec, memref_type = kernel_spec("dynamic_f16")
    assert memref_type == "memref<?x?xf16, strided<[?, 1]>>"
    if layout == "dynamic-offset":
        memref_type = "memref<?x?xf16, strided<[?, 1], offset: ?>>"
    encoder = HostEncoder(spec, memref_type)
    base = aligned_empty((64, 80), np.float16)
    array = base[4:, 8:72]
    call = encoder(array, base=base if layout == "dynamic-offset" else None)
    assert call["address"] == base.ctypes.data + (4 * 80 + 8) * 2
    assert call["dims"] == [64, 60] and call["strides"] == [160]
    assert call["swizzle"] == 3
    assert_encoded_like_runtime(call, spec, array)


def test_encodes_once_per_call_with_that_calls_layout():
    spec, memref_type = kernel_spec("dynamic_f32")
    encoder = HostEncoder(spec, memref_type)
    first = aligned_empty((16, 32), np.float32)
    second = aligned_empty((40, 24), np.float32)[:, :12]
    encoder(first)
    encoder(second)
    assert len(encoder.calls) == 2
    assert_encoded_like_runtime(encoder.calls[0], spec, first)
    assert_encoded_like_runtime(encoder.calls[1], spec, second)
    assert encoder.calls[1]["l2_promotion"] == 2 and encoder.calls[1]["oob_fill"] == 1


def test_interleave():
    spec, memref_type = kernel_spec("interleave")
    assert spec.interleave == 2 and spec.global_rank == 4 and spec.rank == 3
    assert spec.base_alignment == spec.stride_alignment == 32
    encoder = HostEncoder(spec, memref_type)
    array = aligned_empty((2, 4, 8, 16), np.uint16)
    call = encoder(array)
    # Ci (32 bytes) is implicit: globalDim = (W, C, N), strides in slices.
    assert call["dims"] == [8, 4, 2] and call["strides"] == [256, 1024]
    assert_encoded_like_runtime(call, spec, array)


def test_im2col_calls_encode_im2col():
    """Hand-written expectations: NHWC (2, 6, 6, 32) float16 gives globalDim
    (C, W, H, N) = (32, 6, 6, 2) and byte strides (W, H, N) = (64, 384,
    2304); the corners go innermost-first (w, h), the box becomes
    channelsPerPixel 32 and pixelsPerColumn 32, elementStrides (c, w, h, n)."""
    spec, memref_type = kernel_spec("im2col_f16")
    assert memref_type == "memref<2x6x6x32xf16>" and spec.encode == "im2col"
    encoder = HostEncoder(spec, memref_type)
    assert encoder.function == "cuTensorMapEncodeIm2col"
    externals = {line.split("@")[1].split("(")[0]
                 for line in encoder.lowered.splitlines()
                 if line.strip().startswith("llvm.func @") and "{" not in line}
    assert externals == {"cuTensorMapEncodeIm2col", "printf", "fflush", "abort"}
    array = aligned_empty((2, 6, 6, 32), np.float16)
    call = encoder(array)
    assert call.pop("map") % 128 == 0
    assert call == {
        "data_type": 6, "rank": 4, "address": array.ctypes.data,
        "dims": [32, 6, 6, 2], "strides": [64, 384, 2304],
        "lower": [-2, -1], "upper": [-1, 0], "channels": 32, "pixels": 32,
        "element_strides": [1, 2, 1, 1], "interleave": 0, "swizzle": 2,
        "l2_promotion": 2, "oob_fill": 1,
    }
    # What the Python runtime would pass for the same array.
    view = view_of(array)
    check_source(spec, view, spec.source)
    dims, strides = descriptor_layout(spec, view)
    assert (call["dims"], call["strides"]) == (dims, strides)
    assert (call["lower"], call["upper"]) == (list(spec.pixel_box_lower),
                                              list(spec.pixel_box_upper))


def test_rank1_has_a_stride_array():
    spec, memref_type = kernel_spec("rank1")
    encoder = HostEncoder(spec, memref_type)
    array = aligned_empty((200,), np.uint32)
    call = encoder(array)
    assert call["dims"] == [200] and call["strides"] == [800]
    assert_encoded_like_runtime(call, spec, array)


# --- runtime-rule violations abort, naming the rule ----------------------------------

# name: (kernel, host memref type or None for the kernel's, array maker,
#        stand-in status, rule, text in the message)
VIOLATIONS = {
    "stride": ("dynamic_f32", None, lambda: aligned_empty((8, 10), np.float32),
               0, "global-stride-alignment",
               "byte stride 40 (innermost-first index 1) is not a multiple of 16"),
    "base": ("dynamic_f32", None, lambda: aligned_empty((8, 24), np.float32)[:, 1:],
             0, "global-base-alignment", "is not 16-byte aligned"),
    "box": ("dynamic_f32", None, lambda: aligned_empty((4, 16), np.float32),
            0, "box-within-dim", "box extent 8 is larger than dimension 4"),
    "inner": ("dynamic_f32", "memref<?x?xf32, strided<[?, ?]>>",
              lambda: aligned_empty((8, 32), np.float32)[:, ::2],
              0, "global-inner-stride", "the innermost stride is 2 elements"),
    "encode": ("dynamic_f32", None, lambda: aligned_empty((16, 16), np.float32),
               1, "tensor-map-encode", "cuTensorMapEncodeTiled returned 1"),
}


def run_violation(name: str) -> None:
    """Runs one violation case; returns only if the JITed code did not abort."""
    kernel, memref_type, make, status, _, _ = VIOLATIONS[name]
    spec, kernel_type = kernel_spec(kernel)
    encoder = HostEncoder(spec, memref_type or kernel_type, status=status)
    encoder(make())
    print(f"no abort; encode calls: {encoder.calls}", flush=True)


@pytest.mark.parametrize("name", sorted(VIOLATIONS))
def test_violation_aborts_with_the_rule(name):
    kernel, _, make, _, rule, text = VIOLATIONS[name]
    if rule != "tensor-map-encode":
        # The Python runtime rejects the same array under the same rule.
        spec, _ = kernel_spec(kernel)
        with pytest.raises(TileRuntimeError) as err:
            check_source(spec, view_of(make()), spec.source)
        assert err.value.rule == rule
    code = (f"import runpy; runpy.run_path({str(Path(__file__).resolve())!r})"
            f"['run_violation']({name!r})")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0, output
    assert f"tile-mlir: [{rule}] argument 0" in output, output
    assert text in output, output
    assert "no abort" not in output
