"""tile.tensormap_derive from Python: built and verified with the rules of
host encoding, lowered to the replacements and the tensormap-proxy fences,
assembled by ptxas for sm_90a and sm_100a; a debug build's derive faults
decode to the rule."""

import re

import numpy as np
import pytest

from tile_mlir import builder as K
from tile_mlir import compiler, tensormaps, tma
from tile_mlir.errors import TileVerifyError
from tile_mlir.kernels.common.opcodes import load_opcode, store_opcode

needs_ptxas = pytest.mark.skipif(compiler.find_ptxas() is None, reason="no ptxas")
BOX = (64, 128)


def derived_copy(derive_kwargs=None, copy_box=BOX, swizzle=0):
    """T (the template), A (where the derived map points), W (its slot): a
    load through the derived map and a store back through it."""
    derive_kwargs = dict(derive_kwargs or {})

    def body(T, A, W):
        buf = K.dynamic_shared(tuple(copy_box), "bfloat16", 0)
        bar = K.dynamic_shared((1,), "uint64", 65536).ptr_to([0])
        stage = K.dynamic_shared((128,), "uint8", 65536 + 128).ptr_to([0])
        with K.if_(K.thread_id() == 0):
            slot = tensormaps.derive(
                T, _global_slot(W), staging=stage, address=K.base_address(A),
                dims=(256, 512), strides=(1024,), box=BOX, **derive_kwargs)
            K.mbarrier_init(bar, 1)
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("l"))
            tma.apply(load_opcode(), buf, slot, box=copy_box, coords=(0, 0), mbar=bar,
                      tag="l", swizzle=swizzle)
            K.mbarrier_wait(bar, 0)
            tma.apply(store_opcode(), slot, buf, box=copy_box, coords=(64, 0),
                      swizzle=swizzle)
            K.bulk_commit_group()
            K.bulk_wait_group(0)

    return K.KernelDef(body, grid=1, block=32, name="derived",
                       params=[("T", K.Tensor(BOX, "bfloat16")),
                               ("A", K.Tensor((256, 512), "bfloat16")),
                               ("W", K.Tensor((1, 128), "uint8"))])


def _global_slot(W):
    """W's first byte as a global pointer."""
    import mlir.ir as ir
    from mlir.dialects import arith, llvm, memref
    i64 = ir.IntegerType.get_signless(64)
    addr = arith.index_cast(i64, memref.extract_aligned_pointer_as_index(W.value))
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr<1>"), addr)


def test_derived_map_feeds_copies_and_the_host_encodes_the_template():
    art = compiler.compile(derived_copy(), arch="sm_90a", cubin=False)
    (kernel,) = art.manifest["kernels"]
    (spec,) = kernel["tensor_maps"]
    # The template: T's map with the template fields, innermost-first.
    assert spec["source"] == 0 and spec["box"] == [128, 64]
    assert spec["format"] == "bfloat16" and spec["encode"] == "tiled"
    lines = [l.strip() for l in art.ptx.splitlines()]
    order = [i for i, l in enumerate(lines) if l.startswith((
        "tensormap.replace", "fence.proxy.tensormap", "cp.async.bulk.tensor"))]
    kinds = [lines[i].split()[0] for i in order]
    assert kinds[:4] == [
        "tensormap.replace.tile.global_address.shared::cta.b1024.b64",
        "tensormap.replace.tile.global_dim.shared::cta.b1024.b32",
        "tensormap.replace.tile.global_dim.shared::cta.b1024.b32",
        "tensormap.replace.tile.global_stride.shared::cta.b1024.b64"]
    assert kinds[4:6] == ["fence.proxy.tensormap::generic.release.gpu;",
                          "fence.proxy.tensormap::generic.acquire.gpu"]
    assert kinds[6].startswith("cp.async.bulk.tensor.2d.shared::cta.global")
    assert kinds[7].startswith("cp.async.bulk.tensor.2d.global.shared::cta")
    # The constant dims and stride, innermost-first ordinals.
    assert "tensormap.replace.tile.global_dim.shared::cta.b1024.b32" in lines[order[1]]
    dims = [re.findall(r"\], (\d), (%r\d+|\d+);", lines[i]) for i in order[1:3]]
    assert [d[0][0] for d in dims] == ["1", "0"]


@pytest.mark.parametrize("kwargs, copy_box, rule", [
    ({}, (32, 128), "derived-map-mismatch"),
    ({"new_box": (32, 128)}, BOX, "derived-map-mismatch"),
    ({"new_swizzle": 3, "new_box": (64, 64)}, (64, 64), "derived-map-mismatch"),
    ({"new_box": (64, 4)}, (64, 4), "box-inner-bytes"),
    ({"new_swizzle": 9}, BOX, "swizzle-range"),
    ({"new_swizzle": 4, "new_box": (64, 64)}, (64, 64), "target-sm100"),
    ({"new_element_strides": (1, 3)}, BOX, "element-strides-inner"),
    ({"new_oob_fill": 2}, BOX, "oob-fill-range"),
    ({"new_rank": 3}, BOX, "derive-field-arity"),
    ({"new_format": "uint16", "new_oob_fill": 1}, BOX, "oob-fill-float"),
])
def test_replacements_are_checked_by_the_contract_rules(kwargs, copy_box, rule):
    with pytest.raises(TileVerifyError) as err:
        derived_copy(kwargs, copy_box).build()
    assert err.value.rule == rule


def test_a_matching_replacement_passes():
    # The swizzle and box the copy declares are the derived map's.
    derived_copy({"new_swizzle": 3, "new_box": (64, 64)}, (64, 64), swizzle=3).build()


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_90a", "sm_100a"])
@pytest.mark.parametrize("debug", [False, True])
def test_derived_copies_assemble(arch, debug):
    art = compiler.compile(derived_copy(), arch=arch, debug=debug)
    assert art.cubin and len(art.cubin) > 1000
    assert "fence.proxy.tensormap::generic.release.gpu;" in art.ptx


def test_constant_replacements_use_the_host_rules():
    def body(T, W):
        slot = _global_slot(W)
        tensormaps.derive(T, slot, dims=(0, 64), box=BOX)

    with pytest.raises(TileVerifyError) as err:
        K.KernelDef(body, params=[("T", K.Tensor(BOX, "bfloat16")),
                                  ("W", K.Tensor((1, 128), "uint8"))]).build()
    assert err.value.rule == "global-dim-range"

    def strided(T, W):
        tensormaps.derive(T, _global_slot(W), strides=(1000,), box=BOX)

    with pytest.raises(TileVerifyError) as err:
        K.KernelDef(strided, params=[("T", K.Tensor(BOX, "bfloat16")),
                                     ("W", K.Tensor((1, 128), "uint8"))]).build()
    assert err.value.rule == "global-stride-alignment"


def test_derive_faults_decode_to_the_rule():
    from tile_mlir.runtime.debug import decode
    # The debug entry the build records: the derive's site and its rules.
    entry = compiler.compile(derived_copy(), debug=True, cubin=False).manifest["debug"]
    site = next(i for i, s in enumerate(entry["sites"]) if "tile.tensormap_derive" in s)
    codes = entry["rules"]
    assert {"tensormap-alignment", "global-base-alignment", "global-dim-range",
            "global-stride-alignment", "global-stride-range"} <= set(codes)
    words = np.zeros(entry["words"], np.uint32)
    words[0], words[1], words[3] = 1, codes["global-stride-alignment"], site
    words[4:7] = (5, 0, 0)
    words[7:10] = (3, 0, 0)
    words[10:15] = (4, 0, 1000, 0, 16)  # new_strides[0] = 1000, multiple of 16
    fault = decode(words, entry)
    assert fault.rule == "global-stride-alignment"
    assert fault.values == {"field": "new_strides", "axis": 0, "value": 1000, "bound": 16}
    assert "new_strides[0] = 1000 bytes is not a multiple of 16" in str(fault)
    assert fault.block == (5, 0, 0) and fault.thread == (3, 0, 0)
    assert "tile.tensormap_derive" in fault.site
    words[1] = codes["tensormap-alignment"]
    words[10:15] = (0, 0, 0x1040, 0x7f, 128)
    fault = decode(words, entry)
    assert fault.rule == "tensormap-alignment"
    assert fault.values["value"] == (0x7f << 32) | 0x1040
    assert "destination = 0x7f00001040 is not a multiple of 128" in str(fault)
