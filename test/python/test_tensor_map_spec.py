"""The typed tensor-map spec from the compiler to the host: the manifest
entry the C++ serializer writes for each #tile.tensor_map_spec, read by
tile_mlir.spec.TensorMapSpec, and the named pipelines compiler.py runs.

The host decisions are checked against an independent expectation written
here (the CUDA driver's documented alignments and packings), not against
the contract tables the compiler derives them from."""

import json

import pytest

ir = pytest.importorskip("mlir.ir")

from mlir.passmanager import PassManager  # noqa: E402

from tile_mlir import _native, compiler  # noqa: E402
from tile_mlir.builder import make_context  # noqa: E402
from tile_mlir.errors import TileVerifyError  # noqa: E402
from tile_mlir.spec import TensorMapSpec  # noqa: E402

# Each kernel is one a host can launch: one thread initialises its mbarrier
# (a shared allocation), arms it with exactly the bytes its loads deliver,
# issues them and waits for the phase; the barrier checks at compile hold
# the byte counts below to the copies.
_BARRIER = """
      %bars = memref.get_global @bars : memref<1xi64, 3>
      %bari = memref.extract_aligned_pointer_as_index %bars : memref<1xi64, 3> -> index
      %bar64 = arith.index_cast %bari : index to i64
      %bar = llvm.inttoptr %bar64 : i64 to !llvm.ptr<3>
      %one = arith.constant 1 : i32
      %tx = arith.constant {tx} : i32
      nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
      nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
      nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32"""
_WAIT = """
      %parity = arith.constant 0 : i32
      %ticks = arith.constant 10000000 : i32
      nvvm.mbarrier.try_wait.parity %bar, %parity, %ticks : !llvm.ptr<3>, i32, i32"""
_ONE_THREAD = "attributes {known_block_size = array<i32: 1, 1, 1>}"


def _armed(tx: int) -> str:
    """Lines that set up the kernel's mbarrier %bar armed with `tx` bytes."""
    return _BARRIER.format(tx=tx)


GPU_MODULES = {
    # tiled: one 8x16 float32 box, 8 * 16 * 4 = 512 bytes; the store reads
    # the box back once the load has landed and is waited on (bulk group)
    # before the block exits. interleave: 3 slots (one coord step over the
    # leading 3) of an 8-pixel box whose pixels are 32-byte (16 x ui16)
    # interleave groups, 3 * 8 * 32 = 768 bytes. conv: one im2col box of 16
    # pixels by 32 float16 channels, 16 * 32 * 2 = 1024 bytes.
    "sm_90a": f"""
module attributes {{gpu.container_module}} {{
  gpu.module @k [#nvvm.target<chip = "sm_90a", features = "+ptx86">] {{
    memref.global "private" @smem : memref<8x16xf32, 3> {{alignment = 128}}
    memref.global "private" @ismem : memref<3x1x1x8x16xui16, 3> {{alignment = 256}}
    memref.global "private" @csmem : memref<16x32xf16, 3> {{alignment = 1024}}
    memref.global "private" @bars : memref<1xi64, 3> {{alignment = 8}}
    gpu.func @tiled(%A: memref<64x64xf32>) kernel {_ONE_THREAD} {{
      %c0 = arith.constant 0 : i32
      %s = memref.get_global @smem : memref<8x16xf32, 3>{_armed(512)}
      tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {{box = array<i64: 8, 16>, l2_promotion = 2 : i32}} : memref<8x16xf32, 3>, memref<64x64xf32>{_WAIT}
      tile.tma_copy store tile 2d %s, %A[%c0, %c0] {{box = array<i64: 8, 16>, l2_promotion = 2 : i32}} : memref<8x16xf32, 3>, memref<64x64xf32>
      nvvm.cp.async.bulk.commit.group
      nvvm.cp.async.bulk.wait_group 0 {{read}}
      gpu.return
    }}
    gpu.func @interleave(%A: memref<2x4x8x16xui16>, %n: i32) kernel {_ONE_THREAD} {{
      %s = memref.get_global @ismem : memref<3x1x1x8x16xui16, 3>{_armed(768)}
      tile.tma_copy load tile 3d %s, %A[%n, %n, %n] mbar(%bar) {{box = array<i64: 1, 1, 8>, coord_steps = [array<i64: 0, 1, 0>], interleave = 2 : i32, swizzle = 1 : i32}} : memref<3x1x1x8x16xui16, 3>, memref<2x4x8x16xui16>{_WAIT}
      gpu.return
    }}
    gpu.func @conv(%A: memref<2x6x6x32xf16>, %n: i32) kernel {_ONE_THREAD} {{
      %c0 = arith.constant 0 : i32
      %h = arith.constant 1 : i16
      %w = arith.constant 2 : i16
      %s = memref.get_global @csmem : memref<16x32xf16, 3>{_armed(1024)}
      tile.tma_copy load im2col 4d %s, %A[%n, %c0, %c0, %c0] offsets [%h, %w] mbar(%bar) {{box = array<i64: 16, 32>, pixel_box_lower = array<i64: -1, -2>, pixel_box_upper = array<i64: 0, -1>, element_strides = array<i64: 1, 1, 2, 1>}} : memref<16x32xf16, 3>, memref<2x6x6x32xf16>{_WAIT}
      gpu.return
    }}
  }}
}}""",
    # packed_fp4: 2 slots of 8 rows of 128 fp4 values, 2 * 8 * 128 / 2 =
    # 1024 bytes (the payload: the 16-byte-aligned layout's padding in
    # shared memory is no transaction byte).
    "sm_100a": f"""
module attributes {{gpu.container_module}} {{
  gpu.module @k [#nvvm.target<chip = "sm_100a", features = "+ptx86">] {{
    memref.global "private" @smem : memref<2x8x128xi8, 3> {{alignment = 1024}}
    memref.global "private" @bars : memref<1xi64, 3> {{alignment = 8}}
    gpu.func @packed_fp4(%A: memref<16x256xf4E2M1FN>) kernel {_ONE_THREAD} {{
      %c0 = arith.constant 0 : i32
      %s = memref.get_global @smem : memref<2x8x128xi8, 3>{_armed(1024)}
      tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {{box = array<i64: 8, 128>, coord_steps = [array<i64: 8, 0>], swizzle = 3 : i32}} : memref<2x8x128xi8, 3>, memref<16x256xf4E2M1FN>{_WAIT}
      gpu.return
    }}
  }}
}}""",
}

# The keys the manifest had before the spec was typed: each must stay.
OLD_KEYS = {"box", "bytes", "data_type", "elem_bits", "element_strides", "encode",
            "format", "global_rank", "interleave", "l2_promotion", "llvm_param",
            "mode", "oob_fill", "param", "rank", "source", "swizzle"}
IM2COL_KEYS = {"pixel_box_lower", "pixel_box_upper", "channels_per_pixel",
               "pixels_per_column"}
HOST_KEYS = {"base_alignment", "stride_alignment", "inner_multiple", "packing"}


def _module(arch: str) -> ir.Module:
    return ir.Module.parse(GPU_MODULES[arch], make_context())


def _entries(arch: str) -> dict[str, list[dict]]:
    artifact = compiler.compile(_module(arch), arch, cubin=False)
    return {k["name"]: k["tensor_maps"] for k in artifact.manifest["kernels"]}


@pytest.fixture(scope="module")
def entries():
    found = _entries("sm_90a")
    found.update(_entries("sm_100a"))
    return found


def test_manifest_keeps_every_old_key_and_adds_the_host_decisions(entries):
    for name, maps in entries.items():
        for entry in maps:
            expected = OLD_KEYS | HOST_KEYS | (IM2COL_KEYS if name == "conv" else set())
            assert set(entry) == expected, name
    (tiled,) = entries["tiled"]  # the load and the store share one map
    assert tiled["box"] == [16, 8] and tiled["format"] == "float32"
    assert tiled["l2_promotion"] == 2 and tiled["param"] == 1


def test_tensor_map_parameter_indices(entries):
    """Each map is a parameter appended after the kernel's own: `param` is
    the count of those, `llvm_param` the count of their flattened values (a
    rank-r memref is 3 + 2r: two pointers, the offset, r sizes, r strides; a
    scalar is one). The kernels allocate their mbarrier in shared memory, so
    no `!llvm.ptr<3>` parameter comes before the map: one index less than
    when the barrier was a parameter."""
    indices = {name: (m["param"], m["llvm_param"]) for name, (m,) in entries.items()}
    assert indices == {
        "tiled": (1, 3 + 2 * 2),               # (A: 2-D)
        "interleave": (2, 3 + 2 * 4 + 1),      # (A: 4-D, n: i32)
        "conv": (2, 3 + 2 * 4 + 1),            # (A: 4-D, n: i32)
        "packed_fp4": (1, 3 + 2 * 2),          # (A: 2-D)
    }


def test_host_decisions(entries):
    """Independent expectations: 16-byte alignment, 32 with interleave 32B
    or 16U4_ALIGN16B; fp4 inner dimension a multiple of 128, two values a
    byte in a host array."""
    decisions = {name: (m["base_alignment"], m["stride_alignment"],
                        m["inner_multiple"], m["packing"])
                 for name, (m,) in entries.items()}
    assert decisions == {
        "tiled": (16, 16, 1, [1, 1]),
        "interleave": (32, 32, 1, [1, 1]),
        "conv": (16, 16, 1, [1, 1]),
        "packed_fp4": (32, 32, 128, [2, 1]),
    }


def test_entries_read_as_tensor_map_specs(entries):
    for maps in entries.values():
        for entry in maps:
            spec = TensorMapSpec.from_json(entry)
            assert spec.to_json() == entry
    (conv,) = entries["conv"]
    spec = TensorMapSpec.from_json(conv)
    assert spec.im2col and spec.encode_function == "cuTensorMapEncodeIm2col"
    assert spec.pixel_box_lower == (-2, -1) and spec.channels_per_pixel == 32
    assert spec.box == (32, 16) and spec.wide_mode is None


def test_json_round_trips_through_the_attribute(entries):
    """The C++ reader of the serializer's JSON gives back the attribute,
    whose JSON is the entry again."""
    context = make_context()
    for maps in entries.values():
        for entry in maps:
            attr = _native.tensor_map_spec_attr(context, json.dumps(entry))
            assert str(attr).startswith("#tile.tensor_map_spec<")
            assert json.loads(_native.tensor_map_spec_json(attr)) == entry


def test_an_inconsistent_entry_is_rejected_by_the_verifier(entries):
    (tiled,) = entries["tiled"]
    context = make_context()
    with pytest.raises(ValueError, match="inconsistent tensor-map spec: format "
                       "float32 has data_type 7 and elem_bits 32, not 2 and 32"):
        _native.tensor_map_spec_attr(context, json.dumps(dict(tiled, data_type=2)))
    with pytest.raises(ValueError, match="base_alignment"):
        _native.tensor_map_spec_attr(context, json.dumps(
            {k: v for k, v in tiled.items() if k != "base_alignment"}))


def test_compile_runs_the_named_device_pipeline():
    """compiler.compile's PTX is exactly `tile-to-ptx`'s."""
    module = _module("sm_90a")
    ptx = compiler.compile(module, "sm_90a", cubin=False).ptx
    with module.context:
        PassManager.parse("builtin.module(tile-to-ptx)").run(module.operation)
    assert ptx == compiler._ptx_of(module)


def test_compile_raises_the_verifier_rule():
    module = _module("sm_100a")  # packed fp4 needs sm_100a
    with pytest.raises(TileVerifyError) as err:
        compiler.compile(module, "sm_90a", cubin=False)
    assert err.value.rule == "target-sm100"
