"""`tile-mlir explain`: the shared image of one copy, byte by byte.

Every expected placement below is computed here from the definitions in the
docs, never read back from explain's output:
  * rows lie one after another at the row's storage pitch, elements in order
    (README, docs/tensor-map-spec.md);
  * swizzles act on absolute shared addresses, 16-byte chunk bits XOR 128-byte
    line bits: 32B bit4 ^= bit7, 64B bits[4:5] ^= bits[7:8], 128B bits[4:6]
    ^= bits[7:9] (emulator/swizzle.py, measured on the H200): for 128B,
    chunk c of 128-byte row r lands at chunk c ^ (r % 8);
  * slot k of a repeat starts at k * (image storage bytes) and continues the
    pattern at its absolute line (docs/tensor-map-spec.md);
  * a swizzled row shorter than the span is padded to it; packed fp4 puts
    sixteen nibbles in the low 8 bytes of each 16-byte block
    (docs/decisions.md, "Contract: choices");
  * loads fill out-of-bounds elements (NaN request: the 16-bit 0x7FF7
    repeated, docs/decisions.md, "Contract: measured behaviour that
    became rules"), stores drop them.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ir = pytest.importorskip("mlir.ir")

import tile_mlir  # noqa: E402
from tile_mlir import cli, tma  # noqa: E402
from tile_mlir import kernel as K  # noqa: E402
from tile_mlir.errors import TileVerifyError  # noqa: E402
from tile_mlir.explain import (ExplainError, explain, render_png,  # noqa: E402
                               render_text)
from tile_mlir.explain import model as explain_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
PACKAGE_PATH = str(Path(tile_mlir.__file__).resolve().parents[1])
SM100 = '[#nvvm.target<chip = "sm_100a", features = "+ptx86">]'


def copy_text(shared, global_, box, *, coords=(0, 0), attrs="", direction="load",
              mode="tile", rows=None, target=""):
    """One copy in the lit tests' form: a gpu.func kernel, constant coords."""
    consts = [f"    %k{i} = arith.constant {v} : i32" for i, v in enumerate(coords)]
    names = ", ".join(f"%k{i}" for i in range(len(coords)))
    extra = ""
    if rows is not None:
        consts += [f"    %r{i} = arith.constant {v} : i32" for i, v in enumerate(rows)]
        extra = " rows[" + ", ".join(f"%r{i}" for i in range(len(rows))) + "]"
    if direction == "load":
        extra += " mbar(%bar)"
    keyword = "load" if direction == "load" else direction
    box_attr = "array<i64: " + ", ".join(map(str, box)) + ">"
    return f"""
gpu.module @k {target} {{
  memref.global "private" @smem : {shared} {{alignment = 1024}}
  gpu.func @f(%A: {global_}, %bar: !llvm.ptr<3>) kernel {{
{chr(10).join(consts)}
    %s = memref.get_global @smem : {shared}
    tile.tma_copy {keyword} {mode} {len(box)}d %s, %A[{names}]{extra} {{box = {box_attr}{attrs}}} : {shared}, {global_}
    gpu.return
  }}
}}
"""


def parsed_copy(text):
    """The op itself, parsed independently of explain (for tma.* counts)."""
    ctx = K.make_context()
    module = ir.Module.parse(text, ctx)
    (op,) = tma.find_copies(module)
    return module, op


def payload(coords, byte):
    return ("payload", tuple(coords), byte)


# ---------------------------------------------------------------------------
# Placements


def test_unswizzled_box_row_after_row():
    text = copy_text("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16),
                     coords=(8, 16))
    ex = explain(text)
    (slot,) = ex.slots
    assert slot.size == 8 * 16 * 4 and slot.offset == 0
    for b in range(slot.size):
        row, col = 8 + b // 64, 16 + (b % 64) // 4
        assert slot.at(b) == payload((row, col), b % 4), b
    assert ex.transaction_bytes == 512 and ex.shared_bytes == 512
    tm = ex.tensor_map
    assert tm.data_type == 7 and tm.data_type_name.endswith("FLOAT32")
    assert tm.rank == 2
    assert tm.global_dim == (64, 64) and tm.global_strides == (256,)
    assert tm.box_dim == (16, 8) and tm.element_strides == (1, 1)
    assert (tm.interleave, tm.swizzle, tm.l2_promotion, tm.oob_fill) == (0, 0, 0, 0)


def test_swizzle_128b_bf16_64x64():
    """Chunk c of 128-byte row r lands at chunk c ^ (r % 8)."""
    text = copy_text("memref<64x64xbf16, 3>", "memref<128x128xbf16>", (64, 64),
                     coords=(64, 64), attrs=", swizzle = 3 : i32")
    ex = explain(text)
    (slot,) = ex.slots
    assert slot.size == 8192
    for b in range(slot.size):
        r, shared_chunk, within = b // 128, (b % 128) // 16, b % 16
        chunk = shared_chunk ^ (r % 8)
        col = 64 + chunk * 8 + within // 2
        assert slot.at(b) == payload((64 + r, col), within % 2), b
    tm = ex.tensor_map
    assert tm.data_type == 9 and tm.swizzle == 3
    assert tm.global_dim == (128, 128) and tm.global_strides == (256,)
    assert tm.box_dim == (64, 64)

    # The text grid: one line per 128 bytes, a cell per chunk.
    report = render_text(ex)
    lines = report.splitlines()
    for r in (0, 1, 5, 63):
        (line,) = [ln for ln in lines if ln.startswith(f"  {r:>4}  0x{r * 128:04x}")]
        cells = line.split("|")[1].split()
        assert cells == [f"({64 + r},{64 + 8 * (c ^ (r % 8))})" for c in range(8)]
    assert "c ^ (L % 8)" in report
    assert "transaction 8192" in report


def test_swizzle_64b_rows_of_64_bytes():
    """bits[4:5] ^= bits[7:8]: 64-byte row r sits in line r // 2, so its
    chunk c (0..3) lands at chunk c ^ ((r // 2) % 4) of the row."""
    text = copy_text("memref<16x16xf32, 3>", "memref<32x32xf32>", (16, 16),
                     attrs=", swizzle = 2 : i32")
    (slot,) = explain(text).slots
    for b in range(slot.size):
        r, shared_chunk = b // 64, (b % 64) // 16
        chunk = shared_chunk ^ ((r // 2) % 4)
        assert slot.at(b) == payload((r, chunk * 4 + (b % 16) // 4), b % 4), b


def test_swizzle_32b_rows_of_32_bytes():
    """bit4 ^= bit7: 32-byte row r sits in line r // 4, chunk c (0..1) lands
    at c ^ ((r // 4) % 2)."""
    text = copy_text("memref<16x16xf16, 3>", "memref<16x64xf16>", (16, 16),
                     coords=(0, 16), attrs=", swizzle = 1 : i32")
    (slot,) = explain(text).slots
    for b in range(slot.size):
        r, shared_chunk = b // 32, (b % 32) // 16
        chunk = shared_chunk ^ ((r // 4) % 2)
        assert slot.at(b) == payload((r, 16 + chunk * 8 + (b % 16) // 2), b % 2), b


def test_swizzle_128b_padded_rows():
    """A 32-byte row under 128B swizzle is stored in a 128-byte span: its two
    chunks land at c ^ (r % 8), the other six chunks are padding."""
    text = copy_text("memref<8x32xf32, 3>", "memref<64x64xf32>", (8, 8),
                     attrs=", swizzle = 3 : i32")
    ex = explain(text)
    (slot,) = ex.slots
    assert ex.storage_bytes == 8 * 128 and ex.transaction_bytes == 8 * 8 * 4
    expected = {}
    for r in range(8):
        for c in range(2):
            for w in range(16):
                b = r * 128 + (c ^ (r % 8)) * 16 + w
                expected[b] = payload((r, c * 4 + w // 4), w % 4)
    for b in range(slot.size):
        assert slot.at(b) == expected.get(b, ("padding", None, None)), b
    assert slot.count(explain_model.PADDING) == 8 * 96
    assert "--" in render_text(ex)


def test_repeat_two_slots_continue_the_pattern():
    """Slot k starts at k * 512 (the image's storage) and is swizzled at its
    absolute 128-byte line 4k + r."""
    text = copy_text("memref<2x4x64xbf16, 3>", "memref<16x64xbf16>", (4, 64),
                     attrs=", swizzle = 3 : i32, coord_steps = [array<i64: 4, 0>]")
    ex = explain(text)
    assert ex.slot_count == 2 and ex.repeat_shape == (2,)
    assert [s.offset for s in ex.slots] == [0, 512]
    assert [s.coords for s in ex.slots] == [(0, 0), (4, 0)]
    for k, slot in enumerate(ex.slots):
        for b in range(512):
            r, shared_chunk, within = b // 128, (b % 128) // 16, b % 16
            chunk = shared_chunk ^ ((4 * k + r) % 8)
            assert slot.at(b) == payload((4 * k + r, chunk * 8 + within // 2),
                                         within % 2), (k, b)
    _, op = parsed_copy(text)
    assert ex.transaction_bytes == tma.transaction_bytes(op) == 2 * 4 * 64 * 2
    assert ex.shared_bytes == 1024
    report = render_text(ex, slot=1)
    assert "slot 1 (repeat index (1)): coords (4, 0)" in report
    assert "slot 0 " not in report


def test_out_of_bounds_fill_marked():
    text = copy_text("memref<8x16xf32, 3>", "memref<20x40xf32>", (8, 16),
                     coords=(16, 32), attrs=", oob_fill = 1 : i32")
    ex = explain(text)
    (slot,) = ex.slots
    for b in range(slot.size):
        row, col = 16 + b // 64, 32 + (b % 64) // 4
        kind = "payload" if row < 20 and col < 40 else "out-of-bounds"
        assert slot.at(b) == (kind, (row, col), b % 4), b
    assert slot.count(explain_model.OUT_OF_BOUNDS) == (8 * 16 - 4 * 8) * 4
    assert ex.fill_bytes == b"\xf7\x7f\xf7\x7f"
    assert ex.tensor_map.oob_fill == 1
    assert ex.transaction_bytes == 512          # the whole box, fill included
    report = render_text(ex)
    row0 = [ln for ln in report.splitlines() if ln.startswith("     0  0x0000")][0]
    assert row0.split("|")[1].split() == [
        "(16,32)", "(16,36)", "(16,40)*", "(16,44)*",
        "(17,32)", "(17,36)", "(17,40)*", "(17,44)*"]
    assert "filled with the NaN pattern 0x7ff77ff7" in report


def test_negative_start_and_store_drops():
    load = copy_text("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16),
                     coords=(-4, 0))
    (slot,) = explain(load).slots
    for b in range(slot.size):
        row = -4 + b // 64
        kind = "payload" if row >= 0 else "out-of-bounds"
        assert slot.at(b) == (kind, (row, (b % 64) // 4), b % 4), b

    store = copy_text("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16),
                      coords=(60, 48), direction="store")
    ex = explain(store)
    (slot,) = ex.slots
    for b in range(slot.size):
        row = 60 + b // 64
        kind = "payload" if row < 64 else "out-of-bounds"
        assert slot.at(b) == (kind, (row, 48 + (b % 64) // 4), b % 4), b
    assert ex.direction == "store" and ex.fill_bytes is None
    assert "dropped" in render_text(ex)


def test_gather4_rows():
    """Image row i holds global row coords[0] + rows[i]."""
    rows = (0, 3, 7, 11)
    text = copy_text("memref<4x32xf32, 3>", "memref<64x64xf32>", (1, 32),
                     coords=(2, 32), mode="gather4", rows=rows, target=SM100)
    (slot,) = explain(text).slots
    for b in range(slot.size):
        i = b // 128
        assert slot.at(b) == payload((2 + rows[i], 32 + (b % 128) // 4), b % 4), b


def test_packed_fp4_blocks_and_swizzle():
    """fp4: payload byte p of a row (elements 2p, 2p+1) at block p // 8, byte
    p % 8 of the row's 128 bytes, the block index then XOR (r % 8)."""
    text = copy_text("memref<8x128xi8, 3>", "memref<8x128xf4E2M1FN>", (8, 128),
                     attrs=", swizzle = 3 : i32", target=SM100)
    ex = explain(text)
    (slot,) = ex.slots
    assert ex.elements_per_byte == 2
    assert ex.storage_bytes == 1024 and ex.transaction_bytes == 8 * 64
    for b in range(slot.size):
        r, shared_block, within = b // 128, (b % 128) // 16, b % 16
        block = shared_block ^ (r % 8)
        if within < 8:
            assert slot.at(b) == payload((r, 2 * (block * 8 + within)), 0), b
        else:
            assert slot.at(b) == ("padding", None, None), b


def test_interleave_slice_is_the_row():
    """Interleave 32B: axes (N, C_slices, W) plus Ci; each W position's 16
    uint16 (one 32-byte slice) is a row, swizzled 32B."""
    text = copy_text("memref<1x1x8x16xui16, 3>", "memref<2x4x8x16xui16>",
                     (1, 1, 8), coords=(1, 2, 0),
                     attrs=", interleave = 2 : i32, swizzle = 1 : i32")
    ex = explain(text)
    (slot,) = ex.slots
    for b in range(slot.size):
        w, shared_chunk = b // 32, (b % 32) // 16
        chunk = shared_chunk ^ ((w // 4) % 2)
        assert slot.at(b) == payload((1, 2, w, chunk * 8 + (b % 16) // 2), b % 2), b
    assert ex.tensor_map.global_dim == (8, 4, 2)


# ---------------------------------------------------------------------------
# Byte counts


@pytest.mark.parametrize("args, expected", [
    (("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16)), 8 * 16 * 4),
    (("memref<2x8x16xui32, 3>", "memref<16x16xui32>", (8, 16),
      dict(attrs=", coord_steps = [array<i64: 8, 0>]")), 2 * 8 * 16 * 4),
    (("memref<4x64xf16, 3>", "memref<32x64xf16>", (4, 8),
      dict(attrs=", swizzle = 3 : i32")), 4 * 8 * 2),
    (("memref<2x2x8x16xf32, 3>", "memref<64x64xf32>", (8, 16),
      dict(attrs=", coord_steps = [array<i64: 8, 0>, array<i64: 0, 16>]")),
     4 * 8 * 16 * 4),
])
def test_transaction_bytes_equal_the_contract_model(args, expected):
    shared, global_, box = args[:3]
    kwargs = args[3] if len(args) > 3 else {}
    text = copy_text(shared, global_, box, **kwargs)
    ex = explain(text)
    _, op = parsed_copy(text)
    assert ex.transaction_bytes == tma.transaction_bytes(op) == expected
    assert ex.slot_count == tma.slot_count(op)
    payload_bytes = sum(s.count(explain_model.PAYLOAD) +
                        s.count(explain_model.OUT_OF_BOUNDS) for s in ex.slots)
    assert payload_bytes == expected


def test_transaction_bytes_equal_tile_tx_bytes():
    from tile_mlir.compiler import lower_to_nvvm

    text = copy_text("memref<2x8x64xbf16, 3>", "memref<64x64xbf16>", (8, 64),
                     attrs=', swizzle = 3 : i32, coord_steps = [array<i64: 8, 0>],'
                     ' tag = "t"')
    text = text.replace("    %s = memref.get_global",
                        '    %n = tile.tx_bytes "t" : i32\n    %s = memref.get_global')
    text = text.replace("    gpu.return",
                        "    nvvm.mbarrier.arrive.expect_tx %bar, %n : !llvm.ptr<3>, i32\n"
                        "    gpu.return")
    ex = explain(text)
    module, _ = parsed_copy(text)
    with module.context:
        lowered = lower_to_nvvm(module)
    found = []

    def visit(op):
        if op.name == "nvvm.mbarrier.arrive.expect_tx":
            found.append(ir.IntegerAttr(op.operands[1].owner.attributes["value"]).value)
        return ir.WalkResult.ADVANCE

    lowered.operation.walk(visit)
    assert found == [ex.transaction_bytes] == [2 * 8 * 64 * 2]


# ---------------------------------------------------------------------------
# Inputs


def test_python_ops_and_modules():
    text = copy_text("memref<8x64xbf16, 3>", "memref<16x64xbf16>", (8, 64),
                     attrs=", swizzle = 3 : i32")
    module, op = parsed_copy(text)
    for given in (op, op.opview, module):
        (slot,) = explain(given).slots
        assert slot.at(128) == payload((1, 8), 0)     # row 1, chunk 0 ^ 1


def test_python_builder_copy():
    def body(A):
        shared = K.alloc_shared((8, 64), "bfloat16", align=1024)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        K.mbarrier_init(bar, 1)                   # a barrier the copy completes on
        K.mbarrier_arrive_expect_tx(bar, 1024)    # is initialised and armed
        tma.apply("cp.async.bulk.tensor.2d.shared::cta.global.tile."
                  "mbarrier::complete_tx::bytes", shared, A, box=(8, 64),
                  coords=(8, 0), swizzle=3, mbar=bar)

    fn = K.kernel(grid=1, block=32)(_annotated(body, K.Tensor((16, 64), "bfloat16")))
    module = fn.build()
    (op,) = tma.find_copies(module)
    ex = explain(op)
    (slot,) = ex.slots
    for b in range(slot.size):
        r, within = b // 128, b % 16
        chunk = ((b % 128) // 16) ^ (r % 8)
        assert slot.at(b) == payload((8 + r, chunk * 8 + within // 2), within % 2)
    assert ex.transaction_bytes == tma.transaction_bytes(op) == 1024


def _annotated(body, tensor):
    def k(A):
        body(A)
    k.__annotations__ = {"A": tensor}
    return k


def test_snippet_without_a_function():
    """Op lines alone: undefined values become kernel arguments; runtime
    coordinates are 0 unless given; runtime sizes are noted."""
    line = ("tile.tma_copy load tile 2d %s, %A[%y, %x] mbar(%bar) "
            "{box = array<i64: 16, 16>, swizzle = 1 : i32} "
            ": memref<16x16xf16, 3>, memref<?x64xf16>")
    ex = explain(line)
    assert ex.coords == (0, 0)
    assert any("runtime" in n and "--coords" in n for n in ex.notes)
    assert any("--global-shape" in n for n in ex.notes)
    assert ex.tensor_map.global_dim == (64, None)

    ex = explain(line, coords=(8, 16), global_shape=(20, 64))
    (slot,) = ex.slots
    for b in range(slot.size):
        r, chunk = b // 32, ((b % 32) // 16) ^ ((b // 128) % 2)
        kind = "payload" if 8 + r < 20 else "out-of-bounds"
        assert slot.at(b) == (kind, (8 + r, 16 + chunk * 8 + (b % 16) // 2),
                              b % 2), b
    assert ex.tensor_map.global_dim == (64, 20)

    with pytest.raises(TileVerifyError) as err:
        explain(line, coords=(0, 4))             # 8 bytes into the row
    assert err.value.rule == "inner-coord-alignment"


def test_split_file_and_op_index():
    first = copy_text("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16))
    second = copy_text("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16),
                       coords=(8, 0))
    text = first + "\n// -----\n" + second
    assert explain(text, 0).coords == (0, 0)
    assert explain(text, 1).coords == (8, 0)
    with pytest.raises(ExplainError, match="out of range"):
        explain(text, 2)


def test_rejected_op_is_never_explained():
    text = copy_text("memref<64x64xbf16, 3>", "memref<128x128xbf16>", (64, 64),
                     attrs=", swizzle = 1 : i32")
    with pytest.raises(TileVerifyError) as err:
        explain(text)
    assert err.value.rule == "swizzle-inner-bytes"


def test_unsupported_mode_says_so(monkeypatch):
    monkeypatch.setattr(explain_model, "EXPLAINED_MODES", ("tile",))
    text = copy_text("memref<4x32xf32, 3>", "memref<64x64xf32>", (1, 32),
                     mode="gather4", rows=(0, 1, 2, 3), target=SM100)
    with pytest.raises(ExplainError,
                       match="explain does not support mode gather4 yet"):
        explain(text)


def test_elements_view():
    text = copy_text("memref<8x64xbf16, 3>", "memref<16x64xbf16>", (8, 64),
                     attrs=", swizzle = 3 : i32")
    report = render_text(explain(text), elements=True, rows=(1, 2))
    (line,) = [ln for ln in report.splitlines() if ln.startswith("  0x0080 ")]
    # Line 1, chunk 0 holds chunk 0 ^ 1 = 1 of row 1: elements 8..15.
    assert line.split(": ", 1)[1].split() == [f"(1,{8 + i})" for i in range(8)]


# ---------------------------------------------------------------------------
# Command line


def _run(args, stdin=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = PACKAGE_PATH + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "tile_mlir", *args],
                          input=stdin, capture_output=True, text=True, env=env)


def test_cli_rejected_op_exits_nonzero(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text(copy_text("memref<64x64xbf16, 3>", "memref<128x128xbf16>",
                             (64, 64), attrs=", swizzle = 1 : i32"))
    out = _run(["explain", str(bad)])
    assert out.returncode == 1
    assert "[swizzle-inner-bytes]" in out.stderr
    assert f"{bad}:" in out.stderr
    assert out.stdout == ""


def test_cli_stdin():
    text = copy_text("memref<64x64xbf16, 3>", "memref<128x128xbf16>", (64, 64),
                     attrs=", swizzle = 3 : i32")
    out = _run(["explain", "-", "--rows", "1:2"], stdin=text)
    assert out.returncode == 0, out.stderr
    (line,) = [ln for ln in out.stdout.splitlines() if ln.startswith("     1  0x0080")]
    assert line.split("|")[1].split() == [f"(1,{8 * (c ^ 1)})" for c in range(8)]
    assert "     0  0x0000" not in out.stdout


def test_cli_in_process_and_console_script(tmp_path, capsys):
    try:
        import tomllib
    except ImportError:  # Python 3.10: pip vendors a TOML reader
        from pip._vendor import tomli as tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["tile-mlir"] == "tile_mlir.cli:main"
    path = tmp_path / "copy.mlir"
    path.write_text(copy_text("memref<2x8x16xui32, 3>", "memref<16x16xui32>",
                              (8, 16), attrs=", coord_steps = [array<i64: 8, 0>]"))
    assert cli.main(["explain", str(path), "--slot", "1"]) == 0
    out = capsys.readouterr().out
    assert "slot 1 (repeat index (1)): coords (8, 0)" in out
    assert "transaction 1024" in out
    assert cli.main(["explain", str(path), "--op-index", "3"]) == 1
    assert "out of range" in capsys.readouterr().err


def test_png_written(tmp_path):
    pytest.importorskip("PIL")
    text = copy_text("memref<64x64xbf16, 3>", "memref<128x128xbf16>", (64, 64),
                     attrs=", swizzle = 3 : i32")
    ex = explain(text)
    path = tmp_path / "image.png"
    render_png(ex, path)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    from PIL import Image
    with Image.open(path) as img:
        width, height = img.size
    assert width >= 8 * 60 and height >= 64 * 12     # 8 cells a line, 64 lines

    cli_png = tmp_path / "cli.png"
    src = tmp_path / "copy.mlir"
    src.write_text(text)
    out = _run(["explain", str(src), "--png", str(cli_png), "--rows", "0:1"])
    assert out.returncode == 0, out.stderr
    assert cli_png.read_bytes()[:4] == b"\x89PNG"


def test_png_without_pillow_says_how_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "PIL", None)    # import PIL fails
    text = copy_text("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16))
    ex = explain(text)
    from tile_mlir.explain.png import MissingPillow
    with pytest.raises(MissingPillow, match=r"pip install 'tile-mlir\[png\]'"):
        render_png(ex, tmp_path / "x.png")
    src = tmp_path / "copy.mlir"
    src.write_text(text)
    assert cli.main(["explain", str(src), "--png", str(tmp_path / "x.png")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""                       # asked before printing
    assert "[optional-package]" in captured.err and "pip install" in captured.err
    assert not (tmp_path / "x.png").exists()


# ---------------------------------------------------------------------------
# Agreement with the emulator's own load


@pytest.mark.parametrize("index", [0, 1, 2])
def test_agrees_with_emulator_load(index):
    """The byte map, checked against what emulator.load writes when each
    global byte holds (a byte of) its own address."""
    import numpy as np

    from tile_mlir import emulator

    texts = [
        copy_text("memref<2x4x64xbf16, 3>", "memref<16x64xbf16>", (4, 64),
                  attrs=", swizzle = 3 : i32, coord_steps = [array<i64: 4, 0>]"),
        copy_text("memref<8x16xf32, 3>", "memref<20x40xf32>", (8, 16),
                  coords=(16, 32)),
        copy_text("memref<8x32xf32, 3>", "memref<64x64xf32>", (8, 8),
                  attrs=", swizzle = 3 : i32"),
    ]
    ex = explain(texts[index])
    shape = ex.global_shape
    dtype = emulator.get_format(ex.format).dtype
    nbytes = int(np.prod(shape)) * ex.element_bytes
    address = np.arange(nbytes, dtype=np.int64)
    planes = []
    for k in range(2):
        g = ((address >> (8 * k)) & 0xFF).astype(np.uint8).view(dtype).reshape(shape)
        shared = emulator.make_shared(ex.shared_bytes, 0)
        emulator.load_slots(shared, g, box=ex.box, coords=ex.coords,
                            coord_steps=ex.coord_steps, repeat_shape=ex.repeat_shape,
                            format=ex.format, swizzle=ex.swizzle)
        planes.append(shared.astype(np.int64))
    read = planes[0] | (planes[1] << 8)
    for slot in ex.slots:
        for b in range(slot.size):
            kind, coords, byte = slot.at(b)
            if kind == "payload":
                flat = int(np.ravel_multi_index(coords, shape))
                assert read[slot.offset + b] == flat * ex.element_bytes + byte
            else:
                assert read[slot.offset + b] == 0     # padding / zero fill


def test_readme_example_output_is_real(capsys):
    """README.md's trimmed output: every line shown is a line of the real
    output of the command shown."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Explaining a copy", 1)[1]
    blocks = section.split("```")
    command = blocks[1].strip().splitlines()[1]       # after the "sh" tag
    shown = [ln for ln in blocks[3].strip("\n").splitlines() if ln != "..."]
    args = command.split()
    assert args[:2] == ["tile-mlir", "explain"]
    args[2] = str(ROOT / args[2])
    assert cli.main(args[1:]) == 0
    real = capsys.readouterr().out.splitlines()
    for line in shown:
        assert line in real, line


# ---------------------------------------------------------------------------
# im2col, prefetch, float6_align16b
#
# Expected pixels come from the definition alone: along each spatial axis the
# base positions run over [lower, dim - 1 + upper]; the traversal starts at
# the coords' spatial position, W fastest, then H (then D), then the next
# image n; a pixel reads base + offsets; anything outside the tensor
# (padding, n >= N) is the fill on loads and dropped on stores.


def im2col_text(shared, global_, box, coords, lower, upper, *, offsets=None,
                mode="im2col", direction="load", attrs="", target="",
                runtime_offsets=False):
    consts = [f"    %k{i} = arith.constant {v} : i32" for i, v in enumerate(coords)]
    names = ", ".join(f"%k{i}" for i in range(len(coords)))
    params = f"%A: {global_}, %bar: !llvm.ptr<3>"
    extra = ""
    if offsets is not None:
        if runtime_offsets:
            params += "".join(f", %o{i}: i16" for i in range(len(offsets)))
        else:
            consts += [f"    %o{i} = arith.constant {v} : i16"
                       for i, v in enumerate(offsets)]
        extra = " offsets[" + ", ".join(f"%o{i}" for i in range(len(offsets))) + "]"
    if direction in ("load",):
        extra += " mbar(%bar)"
    arr = lambda v: "array<i64: " + ", ".join(map(str, v)) + ">"  # noqa: E731
    fields = (f"{{box = {arr(box)}, pixel_box_lower = {arr(lower)}, "
              f"pixel_box_upper = {arr(upper)}{attrs}}}")
    rank = len(coords)
    if direction == "prefetch":
        line = (f"tile.tma_copy prefetch {mode} {rank}d %A[{names}]{extra} "
                f"{fields} : {global_}")
    else:
        line = (f"tile.tma_copy {direction} {mode} {rank}d %s, %A[{names}]{extra} "
                f"{fields} : {shared}, {global_}")
    smem = (f'  memref.global "private" @smem : {shared} {{alignment = 1024}}\n'
            if shared else "")
    get = f"    %s = memref.get_global @smem : {shared}\n" if shared else ""
    return f"""
gpu.module @k {target} {{
{smem}  gpu.func @f({params}) kernel {{
{chr(10).join(consts)}
{get}    {line}
    gpu.return
  }}
}}
"""


def traversal(shape, start, lower, upper, count):
    """The first `count` (n, h, w) base positions, by the definition
    (rank 4 only; nested loops, W innermost)."""
    N, H, W = shape[0], shape[1], shape[2]
    out = []
    started = False
    for n in range(start[0], start[0] + count + 1):
        for h in range(lower[0], H - 1 + upper[0] + 1):
            for w in range(lower[1], W - 1 + upper[1] + 1):
                if (n, h, w) == tuple(start):
                    started = True
                if started and len(out) < count:
                    out.append((n, h, w))
    return out


def test_im2col_nhwc_3x3_pad1_pixels():
    """NHWC 1x3x3x8 float16, pad 1 for a 3x3 filter (corners -1, -1): 12
    pixels from (n 0, h -1, w -1), filter tap (h +1, w +2): the last three
    run into image 1, which does not exist."""
    shape, lower, upper, offs = (1, 3, 3, 8), (-1, -1), (-1, -1), (1, 2)
    text = im2col_text("memref<12x8xf16, 3>", "memref<1x3x3x8xf16>", (12, 8),
                       (0, -1, -1, 0), lower, upper, offsets=offs)
    ex = explain(text)
    (slot,) = ex.slots
    bases = traversal(shape, (0, -1, -1), lower, upper, 12)
    # h, w run over -1..1: 9 positions in image 0, then image 1.
    assert bases[:4] == [(0, -1, -1), (0, -1, 0), (0, -1, 1), (0, 0, -1)]
    assert bases[9:] == [(1, -1, -1), (1, -1, 0), (1, -1, 1)]
    assert slot.size == 12 * 16 and ex.transaction_bytes == 12 * 16
    for b in range(slot.size):
        k, c, within = b // 16, (b % 16) // 2, b % 2
        n, h, w = bases[k]
        read = (n, h + offs[0], w + offs[1], c)
        inside = n < 1 and 0 <= read[1] < 3 and 0 <= read[2] < 3
        assert slot.at(b) == ("payload" if inside else "out-of-bounds", read,
                              within), b
    for k, p in enumerate(slot.pixels):
        n, h, w = bases[k]
        assert (p.row, p.n, p.base) == (k, n, (h, w))
        assert p.position == (h + 1, w + 2)
        assert p.inside == (n < 1 and 0 <= h + 1 < 3 and 0 <= w + 2 < 3)
        assert p.channels == (0, 7) and p.address == 16 * k
    assert "past the last image" in slot.pixels[9].reason
    assert slot.pixels[2].reason == "w=3 is outside 0..2 (padding)"
    tm = ex.tensor_map
    assert tm.encode == "im2col" and tm.function == "cuTensorMapEncodeIm2col"
    assert tm.global_dim == (8, 3, 3, 1) and tm.global_strides == (16, 48, 144)
    assert tm.pixel_box_lower == (-1, -1) and tm.pixel_box_upper == (-1, -1)
    assert (tm.channels_per_pixel, tm.pixels_per_column) == (8, 12)
    assert tm.element_strides == (1, 1, 1, 1)

    report = render_text(ex)
    assert "cuTensorMapEncodeIm2col arguments" in report
    assert "pixelBoxLowerCorner [-1, -1]" in report
    assert "h -1..1, w -1..1" in report
    assert "   1  0x0010  (0,-1,0)        (0,0,2)         c 0..7" in report
    assert "fill: n=1 is past the last image (N=1)" in report


def test_im2col_runtime_offsets_default_to_zero_or_given(tmp_path, capsys):
    lower, upper = (-1, -1), (-1, -1)
    text = im2col_text("memref<9x8xf16, 3>", "memref<1x3x3x8xf16>", (9, 8),
                       (0, -1, -1, 0), lower, upper, offsets=(0, 0),
                       runtime_offsets=True)
    ex = explain(text)
    assert ex.offsets == (0, 0)
    assert any("offsets 0, 1" in n and "--offsets" in n for n in ex.notes)
    assert [p.position for p in ex.slots[0].pixels] == \
        [(h, w) for h in (-1, 0, 1) for w in (-1, 0, 1)]
    given = explain(text, offsets=(2, 1))
    assert [p.position for p in given.slots[0].pixels] == \
        [(h + 2, w + 1) for h in (-1, 0, 1) for w in (-1, 0, 1)]
    path = tmp_path / "k.mlir"
    path.write_text(text)
    assert cli.main(["explain", str(path), "--offsets", "2,1"]) == 0
    out = capsys.readouterr().out
    assert "offsets     h +2, w +1" in out
    assert "   4  0x0040  (0,0,0)         (0,2,1)         c 0..7" in out


def test_im2col_swizzle_128b_chunks():
    """128-byte pixels (64 float16 channels), 128B swizzle: chunk c of pixel
    row r lands at chunk c ^ (r % 8)."""
    shape, lower, upper = (1, 3, 3, 64), (-1, -1), (-1, -1)
    text = im2col_text("memref<8x64xf16, 3>", "memref<1x3x3x64xf16>", (8, 64),
                       (0, -1, -1, 0), lower, upper, offsets=(1, 1),
                       attrs=", swizzle = 3 : i32")
    ex = explain(text)
    (slot,) = ex.slots
    bases = traversal(shape, (0, -1, -1), lower, upper, 8)
    for b in range(slot.size):
        r, shared_chunk, within = b // 128, (b % 128) // 16, b % 16
        chunk = shared_chunk ^ (r % 8)
        n, h, w = bases[r]
        read = (n, h + 1, w + 1, chunk * 8 + within // 2)
        inside = 0 <= h + 1 < 3 and 0 <= w + 1 < 3
        assert slot.at(b) == ("payload" if inside else "out-of-bounds", read,
                              within % 2), b
    for r, p in enumerate(slot.pixels):
        assert p.address == 128 * r
        assert p.chunks == tuple(r * 8 + (c ^ (r % 8)) for c in range(8))
    report = render_text(ex)
    assert "L3: c3 c2 c1 c0 c7 c6 c5 c4" in report


def test_im2col_no_offs_store_drops_past_the_tensor():
    """Store 10 pixels from (n 0, h 1, w 1) over h 0..2, w 0..2 (lower 0,
    upper (0, -1)): 5 in image 0, then image 1 of a 1-image tensor."""
    shape, lower, upper = (1, 3, 4, 4), (0, 0), (0, -1)
    text = im2col_text("memref<10x4xf32, 3>", "memref<1x3x4x4xf32>", (10, 4),
                       (0, 1, 1, 0), lower, upper, mode="im2col_no_offs",
                       direction="store")
    ex = explain(text)
    (slot,) = ex.slots
    bases = traversal(shape, (0, 1, 1), lower, upper, 10)
    assert bases[:5] == [(0, 1, 1), (0, 1, 2), (0, 2, 0), (0, 2, 1), (0, 2, 2)]
    for b in range(slot.size):
        k, c = b // 16, (b % 16) // 4
        n, h, w = bases[k]
        assert slot.at(b) == ("payload" if n == 0 else "out-of-bounds",
                              (n, h, w, c), b % 4), b
    report = render_text(ex)
    assert "offsets     none (im2col_no_offs)" in report
    assert "dropped: n=1 is past the last image (N=1)" in report
    assert ex.tensor_map.pixel_box_upper == (-1, 0)   # innermost-first


def test_im2col_w_modelled_not_measured():
    """im2col_w (sm_100): H fixed by the coords, W from the w coordinate;
    pixels_per_column + w_halo rows, read at w + w_offset."""
    text = im2col_text("memref<10x32xf16, 3>", "memref<1x4x16x32xf16>", (8, 32),
                       (0, 2, 0, 0), (0,), (0,), offsets=(2, 1), mode="im2col_w",
                       attrs=", swizzle = 2 : i32", target=SM100)
    ex = explain(text)
    (slot,) = ex.slots
    assert [(p.n, p.base, p.position) for p in slot.pixels] == \
        [(0, (2, w), (2, w + 1)) for w in range(10)]
    assert ex.transaction_bytes == 10 * 64
    assert any("not measured" in n for n in ex.notes)
    tm = ex.tensor_map
    assert tm.function == "cuTensorMapEncodeIm2colWide" and tm.wide_mode == 0
    report = render_text(ex)
    assert "pixelBoxLowerCornerWidth 0" in report
    assert "CU_TENSOR_MAP_IM2COL_WIDE_MODE_W" in report


def test_prefetch_tile_moves_no_shared_bytes():
    text = """
    tile.tma_copy prefetch tile 2d %A[%c4, %c8] {box = array<i64: 8, 16>} : memref<10x64xf32>
    """
    text = ("%c4 = arith.constant 4 : i32\n%c8 = arith.constant 8 : i32\n"
            + text)
    ex = explain(text)
    assert ex.transaction_bytes == 0 and ex.slots == [] and ex.shared_bytes == 0
    assert ex.warm_axes[0] == (tuple(range(4, 12)), (True,) * 6 + (False,) * 2)
    assert ex.warm_axes[1] == (tuple(range(8, 24)), (True,) * 16)
    assert ex.tensor_map.box_dim == (16, 8) and ex.tensor_map.global_dim == (64, 10)
    report = render_text(ex)
    assert "transaction 0: a prefetch moves nothing into shared memory" in report
    assert "axis 0: 4..11 (2 outside the tensor); axis 1: 8..23" in report
    assert "cuTensorMapEncodeTiled arguments" in report


def test_prefetch_im2col_warms_the_loads_pixels():
    lower, upper = (-1, -1), (-1, -1)
    text = im2col_text(None, "memref<1x3x3x8xf16>", (9, 8), (0, -1, -1, 0),
                       lower, upper, offsets=(0, 1), direction="prefetch")
    ex = explain(text)
    assert ex.transaction_bytes == 0 and not ex.slots
    assert [(p.position, p.inside) for p in ex.warm_pixels] == \
        [((h, w + 1), 0 <= h < 3 and 0 <= w + 1 < 3)
         for h in (-1, 0, 1) for w in (-1, 0, 1)]
    assert ex.tensor_map.function == "cuTensorMapEncodeIm2col"
    assert "not fetched: h=-1 is outside 0..2 (padding)" in render_text(ex)


def test_float6_load_blocks():
    """float6_align16b loads: each 16 values are 12 payload bytes (value j
    in bits 6j..6j+5) then 4 padding bytes of a 16-byte block."""
    text = copy_text("memref<8x128xi8, 3>", "memref<64x128xf6E2M3FN>", (8, 128),
                     coords=(8, 0), attrs=", format = #tile<format float6_align16b>",
                     target=SM100)
    ex = explain(text)
    (slot,) = ex.slots
    assert slot.size == 8 * 128 and ex.transaction_bytes == 8 * 96
    for b in range(slot.size):
        r, block, j = b // 128, (b % 128) // 16, b % 16
        if j < 12:
            p = 12 * block + j           # payload byte of the row
            assert slot.at(b) == payload((8 + r, 8 * p // 6), 0), b
        else:
            assert slot.at(b) == ("padding", None, None), b
    assert ex.tensor_map.global_dim == (128, 64)
    assert ex.tensor_map.global_strides == (96,)
    report = render_text(ex)
    assert "12 payload bytes" in report
    assert "one 16-byte chunk (16 float6_align16b elements and padding)" in report


def test_float6_store_one_value_per_byte():
    text = copy_text("memref<8x128xi8, 3>", "memref<64x128xf6E2M3FN>", (8, 128),
                     coords=(0, 0), attrs=", format = #tile<format float6_align16b>",
                     direction="store", target=SM100)
    ex = explain(text)
    (slot,) = ex.slots
    for b in range(slot.size):
        assert slot.at(b) == payload((b // 128, b % 128), 0), b
    assert "one value per shared byte" in render_text(ex)
