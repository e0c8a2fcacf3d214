"""`tile-mlir explain --wgmma`: what a wgmma operand descriptor reads from a
load's image.

Expected cells are computed here from the documents, not from explain:
a TMA load with the 128B swizzle puts 16-byte chunk c of image row r at
chunk c ^ (r % 8) of 128-byte line r (emulator/swizzle.py, measured); a
K-major 128B-swizzled operand reads row r's 16-byte chunk j (k = 8j..8j+7
for bf16) at line r, chunk j ^ (r % 8) (PTX ISA canonical layout, rows
128 bytes apart, 8-row groups SBO apart). An unswizzled load leaves chunk c
at chunk c, so the operand's chunk j of row r receives chunk j ^ (r % 8).
"""

import re

import pytest

pytest.importorskip("mlir.ir")

from tile_mlir import cli  # noqa: E402
from tile_mlir.errors import TileError  # noqa: E402
from tile_mlir.explain import explain  # noqa: E402
from tile_mlir.explain import wgmma as ex_wgmma  # noqa: E402

from explain_ir import load_text  # noqa: E402


def run(tmp_path, capsys, text, spec, *extra):
    path = tmp_path / "copy.mlir"
    path.write_text(text)
    status = cli.main(["explain", str(path), "--wgmma", spec, *extra])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def operand_rows(out):
    """{row: ([cells], 'where')} of the wgmma section's table."""
    section = out[out.index("wgmma view"):]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\s+(\d+) \|(.*)\| (.*)$", line)
        if m:
            rows[int(m.group(1))] = (m.group(2).split(), m.group(3))
    return rows


@pytest.mark.parametrize("step", [0, 1, 2, 3])
def test_the_gpu_kernels_a_tile_reads_right_at_every_k_step(tmp_path, capsys, step):
    status, out, _ = run(tmp_path, capsys, load_text(), f"role=A,major=K,swizzle=128,"
                         f"lbo=16,sbo=1024,step={step}")
    assert status == 0
    assert "verdict     all 1024 elements are the GEMM's" in out
    rows = operand_rows(out)
    assert sorted(rows) == list(range(64))
    for r, (cells, where) in rows.items():
        k0 = 16 * step
        assert cells == [f"({r},{k0})", f"({r},{k0 + 8})"]
        chunks = [2 * step ^ (r % 8), (2 * step + 1) ^ (r % 8)]
        assert where == " ".join(f"L{r}c{c}" for c in chunks)


def test_128b_descriptor_over_an_unswizzled_copy(tmp_path, capsys):
    status, out, _ = run(tmp_path, capsys, load_text(swizzle=0), "sbo=1024,swizzle=128")
    assert status == 0
    assert "verdict     896 of 1024 elements wrong (87.5%)" in out
    for r, (cells, _) in operand_rows(out).items():
        got = [f"({r},{8 * (j ^ (r % 8))})" + ("" if r % 8 == 0 else "!") for j in (0, 1)]
        assert cells == got


def test_descriptor_value_for_b_and_the_image_rows_as_n(tmp_path, capsys):
    value = (8192 >> 4) << 32 | (16 >> 4) << 16 | 1 << 62 | (32 >> 4)   # start 32
    status, out, _ = run(tmp_path, capsys, load_text(box=(64, 64)),
                         f"desc={value:#x},role=B,k0=16")
    assert status == 0
    # SBO 8192: 8-row groups far past the 8192-byte image: rows 8.. read nothing.
    assert "verdict     896 of 1024 elements wrong (87.5%)" in out
    rows = operand_rows(out)
    assert rows[7][0] == ["(7,16)", "(7,24)"] and rows[8][0] == ["out!", "out!"]


def test_mn_major_b_steps_through_k_rows(tmp_path, capsys):
    # B stored K x N (N contiguous): image row = k; a K step of 16 rows is
    # two 8-row groups, 2 * SBO bytes.
    for step in range(4):
        status, out, _ = run(tmp_path, capsys, load_text(), f"role=B,major=MN,sbo=1024,"
                             f"step={step}")
        assert status == 0 and "all 1024 elements are the GEMM's" in out
        rows = operand_rows(out)
        # Row n, chunk j holds k = 16 * step + 8j: the first element read is
        # image element (k, n).
        assert rows[5][0] == [f"({16 * step},5)", f"({16 * step + 8},5)"]


def test_coords_and_api(tmp_path):
    ex = explain(load_text(shape=(256, 256), coords=(64, 128)))
    view = ex_wgmma.wgmma_view(ex, dict(sbo=1024, step=2))
    assert view.mismatches == [] and view.k0 == 32
    assert tuple(view.elements.coords[3, 0]) == (64 + 3, 128 + 32)
    shifted = ex_wgmma.wgmma_view(ex, "sbo=1024,base=1")
    assert len(shifted.mismatches) == 64 * 16


@pytest.mark.parametrize("spec,rule,named", [
    ("sbo=1024,bogus=1", "explain-input", "'bogus=1'"),
    ("lbo=16", "explain-input", "sbo="),
    ("sbo=x", "explain-input", "'x'"),
    ("sbo=1024,sbo=512", "explain-input", "sbo= twice"),
    ("desc=0x4000004000010000,sbo=1024", "explain-input", "drop sbo"),
    ("sbo=1024,type=e4m3", "explain-input", "type=e4m3"),
    ("sbo=1024,step=-1", "explain-input", "step=-1"),
    ("sbo=1000", "wgmma-descriptor-field", "sbo 1000"),
    ("sbo=1024,role=B,n=12", "wgmma-shape", "12"),
    ("sbo=1024,major=MN,type=s8", "explain-input", "type=s8"),
])
def test_bad_specs_name_their_rule(tmp_path, capsys, spec, rule, named):
    status, out, err = run(tmp_path, capsys, load_text(), spec)
    assert status == 1 and out == ""
    assert f"error: [{rule}]" in err and named in err
    with pytest.raises(TileError) as raised:
        ex_wgmma.wgmma_view(explain(load_text()), spec)
    assert raised.value.rule == rule


def test_a_store_is_not_read_by_an_mma(tmp_path, capsys):
    status, _, err = run(tmp_path, capsys, load_text(direction="store"), "sbo=1024")
    assert status == 1 and "error: [explain-supported]" in err and "store" in err


def with_descriptors(descriptors, swizzle=3, view_at=None):
    """load_text's copy (into a 16 KiB allocation: the image at its start)
    and tile.wgmma_descriptor ops over views of the same allocation."""
    attrs = f", swizzle = {swizzle} : i32" if swizzle else ""
    lines = []
    for i, (at, step, fields) in enumerate(descriptors):
        lines.append(f"    %at{i} = arith.constant {at} : index\n"
                     f"    %st{i} = arith.constant {step} : index\n"
                     f"    %v{i} = memref.view %raw[%at{i}][] : memref<16384xi8, 3> to "
                     f"memref<64x64xbf16, 3>\n"
                     f"    %d{i} = tile.wgmma_descriptor %v{i}[%st{i}] {{{fields}}} : "
                     f"memref<64x64xbf16, 3>, index")
    body = "\n".join(lines)
    return f"""
gpu.module @k {{
  memref.global "private" @raw : memref<16384xi8, 3> {{alignment = 1024}}
  gpu.func @f(%A: memref<64x64xbf16>, %bar: !llvm.ptr<3>) kernel {{
    %k0 = arith.constant 0 : i32
    %c0 = arith.constant 0 : index
    %raw = memref.get_global @raw : memref<16384xi8, 3>
    %s = memref.view %raw[%c0][] : memref<16384xi8, 3> to memref<64x64xbf16, 3>
    tile.tma_copy load tile 2d %s, %A[%k0, %k0] mbar(%bar) {{box = array<i64: 64, 64>{attrs}}} : memref<64x64xbf16, 3>, memref<64x64xbf16>
{body}
    gpu.return
  }}
}}
"""


A128 = ("matrix = #tile<matrix a>, major = #tile<major k>, swizzle = #tile<swizzle b128>, "
        "rows = 64, k = 64, lbo = 16, sbo = 1024")


@pytest.mark.parametrize("step", [0, 3])
def test_a_descriptor_of_the_ir_reads_with_its_own_fields(tmp_path, capsys, step):
    # op=1 is the second tile.wgmma_descriptor: the whole image at K step
    # `step`; its reading is the spec form's, field for field.
    text = with_descriptors([(8192, 0, A128.replace("k = 64", "k = 64")),
                             (0, step, A128)])
    status, out, _ = run(tmp_path, capsys, text, "op=1")
    assert status == 0
    assert re.search(r"from the IR: %\S+ = tile.wgmma_descriptor %\S+\[%c\w*\]", out)
    assert f"K step {step}: k0 = {16 * step}" in out
    assert "verdict     all 1024 elements are the GEMM's" in out
    rows = operand_rows(out)
    assert rows[5][0] == [f"(5,{16 * step})", f"(5,{16 * step + 8})"]


def test_a_descriptor_a_line_into_the_image(tmp_path, capsys):
    # One 128-byte row in: with base offset 0 the operand's row r is image
    # row r + 1, read in phase (the copy engine and the descriptor both
    # swizzle from the period's start); base offset 1 (wgmma-base-offset)
    # reads each row one line out of phase: line 1 with chunk XOR 0 gets
    # chunk 0 of line 1, where the copy put row 1's chunk 1 (k 8..15).
    status, out, _ = run(tmp_path, capsys, with_descriptors([(128, 0, A128)]), "op=0")
    assert status == 0
    assert operand_rows(out)[0][0] == ["(1,0)!", "(1,8)!"]
    status, out, err = run(tmp_path, capsys,
                           with_descriptors([(128, 0, A128 + ", base_offset = 1")]), "op=0")
    assert status == 1 and "[wgmma-base-offset] base_offset 1 on a tile 128 bytes" in err
    status, out, _ = run(tmp_path, capsys, load_text(), "start=128,sbo=1024,base=1")
    assert status == 0 and operand_rows(out)[0][0] == ["(1,8)!", "(1,0)!"]


def test_a_descriptor_that_reads_another_buffer_is_named(tmp_path, capsys):
    status, out, err = run(tmp_path, capsys, with_descriptors([(8192, 0, A128)]), "op=0")
    assert status == 1 and out == ""
    assert "[explain-input]" in err and "does not read this copy's image" in err
    assert "those that do: none" in err


def test_op_takes_every_field_from_the_ir(tmp_path, capsys):
    status, _, err = run(tmp_path, capsys, with_descriptors([(0, 0, A128)]), "op=0,sbo=512")
    assert status == 1 and "drop sbo=" in err
