"""explain's inputs: what compile takes (a KernelDef, a .py file's @kernel,
a module, MLIR text), and every failure a TileError naming its rule, from
Python and from `tile-mlir explain`.

Expected ranges are the instruction's (PTX: 32-bit signed coordinates and
gather4 rows, 16-bit signed im2col offsets; globalDim 1..2^32), written
here, not read from the code under test.
"""

import sys
from pathlib import Path

import pytest

ir = pytest.importorskip("mlir.ir")

from tile_mlir import cli, tma  # noqa: E402
from tile_mlir.errors import TileError, TileUsageError, TileVerifyError  # noqa: E402
from tile_mlir.explain import ExplainError, explain, render_png, render_text  # noqa: E402

from test_explain import SM100, copy_text, im2col_text, payload  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
SEED = ROOT / "examples" / "seed_tma_load.py"
SWIZZLE = ROOT / "examples" / "swizzle_128b.mlir"
INT32 = "-2147483648..2147483647"

OPCODE = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"

# Two loads in one kernel: 8x16 f32 boxes at (0, 0) and at (8, 16).
TWO_COPIES = f'''
from tile_mlir.kernel import (Tensor, alloc_shared, if_, kernel, lane_id,
                              mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_wait)
from tile_mlir.tma import apply


@kernel(grid=1, block=32)
def two_loads(A: Tensor((32, 32), "float32")):
    first = alloc_shared((8, 16), "float32", align=1024)
    second = alloc_shared((8, 16), "float32", align=1024)
    bar = alloc_shared((1,), "uint64", align=8).ptr_to([0])
    with if_(lane_id() == 0):
        mbarrier_init(bar, 1)
        mbarrier_arrive_expect_tx(bar, 1024)
        apply("{OPCODE}", first, A, box=(8, 16), coords=(0, 0), mbar=bar)
        apply("{OPCODE}", second, A, box=(8, 16), coords=(8, 16), mbar=bar)
    mbarrier_wait(bar, 0)
'''


def rule_of(excinfo):
    return excinfo.value.rule


def run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def simple_copy(coords=(0, 0)):
    return copy_text("memref<8x16xf32, 3>", "memref<64x64xf32>", (8, 16),
                     coords=coords)


RUNTIME_COORDS = ("tile.tma_copy load tile 2d %s, %A[%y, %x] mbar(%bar) "
                  "{box = array<i64: 8, 16>} : memref<8x16xf32, 3>, memref<64x64xf32>")


# ---------------------------------------------------------------------------
# Errors are TileErrors


def test_explain_error_is_a_tile_error_with_a_rule():
    assert issubclass(ExplainError, TileError) and issubclass(ExplainError, ValueError)
    with pytest.raises(ExplainError) as err:
        explain("func.func @f() { return }")
    assert rule_of(err) == "explain-input" and "no tile.tma_copy" in str(err.value)


def test_op_index_out_of_range_names_the_range():
    with pytest.raises(ExplainError) as err:
        explain(simple_copy(), 3)
    assert rule_of(err) == "explain-input"
    assert "--op-index 3" in err.value.message and "(0..0)" in err.value.message
    with pytest.raises(ExplainError) as err:
        explain(simple_copy(), -1)
    assert rule_of(err) == "explain-input"


def test_text_that_does_not_parse_is_mlir_syntax():
    with pytest.raises(TileUsageError) as err:
        explain("gpu.module @k {\n  tile.tma_copy load tile 2d %s, %A[\n")
    assert rule_of(err) == "mlir-syntax"


def test_snippet_with_untyped_values_is_explain_input():
    with pytest.raises(ExplainError) as err:
        explain("%z = arith.addi %q, %q : i32\n" + RUNTIME_COORDS)
    assert rule_of(err) == "explain-input" and "%q" in err.value.message


def test_wrong_kinds_of_input_are_explain_input():
    for bad in (42, None, Path("x.mlir"), b"\xff\xfe"):
        with pytest.raises(TileUsageError) as err:
            explain(bad)
        assert rule_of(err) == "explain-input", bad
    with pytest.raises(TileUsageError) as err:
        explain(simple_copy(), "0")
    assert rule_of(err) == "explain-input"


def test_unsupported_copy_is_explain_supported():
    # An opaque tensor map (!llvm.ptr) carries no fields in the IR.
    text = """
gpu.module @k {
  memref.global "private" @smem : memref<8x16xf32, 3> {alignment = 1024}
  gpu.func @f(%map: !llvm.ptr, %bar: !llvm.ptr<3>) kernel {
    %c0 = arith.constant 0 : i32
    %s = memref.get_global @smem : memref<8x16xf32, 3>
    tile.tma_copy load tile 2d %s, %map[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>}
        : memref<8x16xf32, 3>, !llvm.ptr
    gpu.return
  }
}
"""
    with pytest.raises(ExplainError) as err:
        explain(text)
    assert rule_of(err) == "explain-supported"
    assert "opaque tensor map" in err.value.message


# ---------------------------------------------------------------------------
# What compile takes


def _load(tmp_path, source):
    path = tmp_path / "two.py"
    path.write_text(source)
    return cli._load_kernel(path, None)


def test_kernel_def_and_op_index_across_its_copies(tmp_path):
    kdef = _load(tmp_path, TWO_COPIES)
    first, second = explain(kdef, 0), explain(kdef, 1)
    assert first.coords == (0, 0) and second.coords == (8, 16)
    # f32, 16 per row: byte 64 is row 1, element 0 (no swizzle).
    assert first.slots[0].at(64) == payload((1, 0), 0)
    assert second.slots[0].at(64) == payload((9, 16), 0)
    assert "two_loads" in first.origin and "op 1 of 2" in second.origin
    with pytest.raises(ExplainError) as err:
        explain(kdef, 2)
    assert rule_of(err) == "explain-input" and "(0..1)" in err.value.message


def test_module_input_counts_copies_like_a_kernel(tmp_path):
    module = _load(tmp_path, TWO_COPIES).build()
    assert explain(module, 1).coords == (8, 16)
    assert len(tma.find_copies(module)) == 2


def test_cli_explains_a_python_file(capsys):
    rc, out, err = run(capsys, "explain", SEED, "--op-index", "0")
    assert rc == 0, err
    # The seed's one copy: an 8x16 uint32 box at (0, 0), repeated at (8, 0).
    assert "slot 0 (repeat index (0)): coords (0, 0)" in out
    assert "slot 1 (repeat index (1)): coords (8, 0)" in out
    rc, _, err = run(capsys, "explain", SEED, "--op-index", "1")
    assert rc == 1 and f"{SEED}: error: [explain-input] --op-index 1" in err


def test_cli_python_file_kernel_flag(tmp_path, capsys):
    src = tmp_path / "three.py"
    src.write_text(TWO_COPIES + '''

@kernel(grid=1, block=32, name="other_name")
def other(A: Tensor((32, 32), "float32")):
    pass
''')
    rc, _, err = run(capsys, "explain", src)
    assert rc == 1 and "[explain-input]" in err and "--kernel NAME" in err
    rc, out, err = run(capsys, "explain", src, "--kernel", "two_loads", "--op-index", "1")
    assert rc == 0, err
    assert "coords (8, 16)" in out
    rc, _, err = run(capsys, "explain", src, "--kernel", "other_name")
    assert rc == 1 and "[explain-input] no tile.tma_copy" in err
    rc, _, err = run(capsys, "explain", src, "--kernel", "nope")
    assert rc == 1 and "[explain-input] no @kernel 'nope'" in err
    rc, _, err = run(capsys, "explain", SWIZZLE, "--kernel", "x")
    assert rc == 1 and "[explain-input]" in err


# ---------------------------------------------------------------------------
# Values out of range are rejected, not wrapped


def test_coords_outside_int32_are_coord_range(capsys, tmp_path):
    for value in (2**31, -2**31 - 1, 99999999999):
        with pytest.raises(ExplainError) as err:
            explain(RUNTIME_COORDS, coords=(0, value))
        assert rule_of(err) == "coord-range"
        assert str(value) in err.value.message and INT32 in err.value.message
    # The edges of the range are taken (then checked by the verifier).
    with pytest.raises(TileVerifyError):
        explain(RUNTIME_COORDS, coords=(0, 2**31 - 1))
    src = tmp_path / "copy.mlir"
    src.write_text(RUNTIME_COORDS)
    rc, out, err = run(capsys, "explain", src, "--coords", "0,99999999999")
    assert rc == 1 and out == ""
    assert f"{src}: error: [coord-range] --coords: coordinate 1 is 99999999999, " \
           f"outside {INT32}" in err


def test_gather_rows_outside_int32_are_int_range():
    text = copy_text("memref<4x32xf32, 3>", "memref<64x64xf32>", (1, 32),
                     mode="gather4", rows=(0, 1, 2, 3), target=SM100)
    # Replace the constant rows with runtime ones by giving other values: a
    # value the IR fixes is explain-input, one out of range int-range.
    with pytest.raises(ExplainError) as err:
        explain(text, rows=(0, 1, 2, 2**31))
    assert rule_of(err) == "int-range" and str(2**31) in err.value.message
    with pytest.raises(ExplainError) as err:
        explain(text, rows=(0, 1, 2, 5))
    assert rule_of(err) == "explain-input" and "constant 3" in err.value.message


def test_offsets_outside_i16_are_int_range(tmp_path, capsys):
    text = im2col_text("memref<9x8xf16, 3>", "memref<1x3x3x8xf16>", (9, 8),
                       (0, -1, -1, 0), (-1, -1), (-1, -1), offsets=(0, 0),
                       runtime_offsets=True)
    with pytest.raises(ExplainError) as err:
        explain(text, offsets=(0, 40000))
    assert rule_of(err) == "int-range"
    assert "40000" in err.value.message and "-32768..32767" in err.value.message
    src = tmp_path / "im2col.mlir"
    src.write_text(text)
    rc, out, err = run(capsys, "explain", src, "--offsets=-40000,0")
    assert rc == 1 and out == "" and "[int-range]" in err and "-40000" in err


def test_global_shape_sizes_are_1_to_2_pow_32(tmp_path, capsys):
    line = RUNTIME_COORDS.replace("memref<64x64xf32>", "memref<?x64xf32>")
    for bad in (0, -5, 2**32 + 1):
        with pytest.raises(ExplainError) as err:
            explain(line, global_shape=(bad, 64))
        assert rule_of(err) == "global-dim-range"
        assert str(bad) in err.value.message and f"1..{2**32}" in err.value.message
    with pytest.raises(ExplainError) as err:
        explain(line, global_shape=(8,))
    assert rule_of(err) == "explain-input" and "rank 2" in err.value.message
    with pytest.raises(ExplainError) as err:
        explain(line, global_shape=(8, 32))
    assert rule_of(err) == "explain-input" and "fixes it to 64" in err.value.message
    with pytest.raises(TileUsageError) as err:
        explain(line, global_shape="8,64")
    assert rule_of(err) == "explain-input"
    src = tmp_path / "dyn.mlir"
    src.write_text(line)
    rc, out, err = run(capsys, "explain", src, "--global-shape", "0,64")
    assert rc == 1 and out == "" and "[global-dim-range]" in err


def test_views_out_of_range_are_explain_input(tmp_path, capsys):
    src = tmp_path / "copy.mlir"
    src.write_text(simple_copy())             # one slot of 512 bytes: 4 lines
    for argv, named in ((["--slot", "1"], "--slot 1"),
                        (["--slot", "99999999999"], "--slot 99999999999"),
                        (["--rows", "4:9"], "--rows 4:9"),
                        (["--rows", "2:1"], "--rows 2:1"),
                        (["--rows=-3:2"], "--rows -3:2"),
                        (["--max-lines", "0"], "--max-lines is 0"),
                        (["--op-index", "99999999999"], "--op-index 99999999999")):
        rc, out, err = run(capsys, "explain", src, *argv)
        assert rc == 1 and out == "", argv
        assert f"error: [explain-input] {named}" in err, (argv, err)
        assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("kwargs, named", [
    ({"max_lines": None}, "--max-lines is None"),
    ({"max_lines": "8"}, "--max-lines is '8'"),
    ({"max_lines": 2.5}, "--max-lines is 2.5"),
    ({"rows": "ab"}, "got 'ab'"),
    ({"rows": (None, 2)}, "got (None, 2)"),
    ({"rows": (0, 1, 2)}, "got (0, 1, 2)"),
    ({"rows": (0, "2")}, "got (0, '2')"),
    ({"rows": 3}, "got 3"),
    ({"slot": "0"}, "got '0'"),
    ({"max_slots": 0}, "max_slots is 0"),
])
def test_render_text_arguments_of_another_kind_are_explain_input(kwargs, named):
    ex = explain(simple_copy())
    with pytest.raises(ExplainError) as err:
        render_text(ex, **kwargs)
    assert rule_of(err) == "explain-input" and named in err.value.message


@pytest.mark.parametrize("name", [("a",), 3, b"x"])
def test_a_name_that_is_not_a_str_is_explain_input(name):
    with pytest.raises(TileUsageError) as err:
        explain(simple_copy(), name=name)
    assert rule_of(err) == "explain-input" and repr(name) in err.value.message


def test_render_text_takes_an_explanation():
    with pytest.raises(ExplainError) as err:
        render_text(simple_copy())
    assert rule_of(err) == "explain-input" and "got str" in err.value.message


# ---------------------------------------------------------------------------
# --png


def test_png_without_pillow_fails_first(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "PIL", None)    # import PIL fails
    src = tmp_path / "copy.mlir"
    src.write_text(simple_copy())
    from tile_mlir.explain.png import MissingPillow
    with pytest.raises(MissingPillow) as err:
        render_png(explain(src.read_text()), tmp_path / "x.png")
    assert rule_of(err) == "optional-package" and isinstance(err.value, ImportError)
    rc, out, err = run(capsys, "explain", src, "--png", tmp_path / "x.png")
    assert rc == 1 and out == ""
    assert "error: [optional-package]" in err and "pip install 'tile-mlir[png]'" in err
    assert not (tmp_path / "x.png").exists()


def test_png_to_an_unwritable_path_is_output_path(tmp_path, capsys):
    pytest.importorskip("PIL")
    src = tmp_path / "copy.mlir"
    src.write_text(simple_copy())
    target = tmp_path / "no-such-folder" / "x.png"
    with pytest.raises(TileError) as err:
        render_png(explain(src.read_text()), target)
    assert rule_of(err) == "output-path" and str(target) in err.value.message
    rc, out, err = run(capsys, "explain", src, "--png", target)
    assert rc == 1 and out == ""
    assert "[output-path]" in err and str(target) in err
    assert "No such file or directory" in err
    rc, out, err = run(capsys, "explain", src, "--png", tmp_path)   # a folder
    assert rc == 1 and out == "" and "[output-path]" in err
