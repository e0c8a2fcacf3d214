"""bench/perf_doc.py: a benchmark's --doc rewrites its own section of the
performance document, between its markers, and nothing else."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
spec = importlib.util.spec_from_file_location("perf_doc", ROOT / "bench" / "perf_doc.py")
PD = importlib.util.module_from_spec(spec)
spec.loader.exec_module(PD)

SAMPLE = """# Performance

## Layout

<!-- bench/layout.py:begin -->
| old | table |
| --- | --- |
| 1 | 2 |

Measured on an old card, 2020-01-01: `python3 bench/layout.py`.
<!-- bench/layout.py:end -->

Text after the layout table.

## Bandwidth

<!-- bench/bandwidth.py:begin -->
the bandwidth table
<!-- bench/bandwidth.py:end -->
"""


def test_replace_section_keeps_everything_outside_the_markers():
    out = PD.replace_section(SAMPLE, "bench/layout.py", "| new |\n| --- |\n| 3 |")
    assert "| old | table |" not in out and "2020-01-01" not in out
    assert "<!-- bench/layout.py:begin -->\n| new |\n| --- |\n| 3 |\n<!-- bench/layout.py:end -->" \
        in out
    before, after = SAMPLE.split("<!-- bench/layout.py:begin -->")[0], \
        SAMPLE.split("<!-- bench/layout.py:end -->")[1]
    assert out.startswith(before) and out.endswith(after)
    # Rewriting again with the same body changes nothing.
    assert PD.replace_section(out, "bench/layout.py", "| new |\n| --- |\n| 3 |") == out


@pytest.mark.parametrize("text", [
    "no markers at all",
    "<!-- bench/layout.py:begin -->\nonly the start",
    "<!-- bench/layout.py:end -->\nx\n<!-- bench/layout.py:begin -->",
    "<!-- bench/layout.py:begin -->\n<!-- bench/layout.py:begin -->\n<!-- bench/layout.py:end -->",
])
def test_a_document_without_one_pair_of_markers_is_refused(text):
    with pytest.raises(ValueError):
        PD.replace_section(text, "bench/layout.py", "body")


def test_the_command_drops_its_doc_argument_and_names_the_cache():
    env = {"TILE_MLIR_CACHE_DIR": ".artifacts/layout/cache"}
    assert PD.command_line(["bench/layout.py", "--rows", "pad, x", "--doc",
                            "docs/performance.md", "--rounds", "3"], env) == \
        "TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/layout.py --rows " \
        "'pad, x' --rounds 3"
    assert PD.command_line(["layout.py", "--doc=docs/performance.md"], {}) == \
        "python3 layout.py"


def test_write_rewrites_one_section_with_the_stamp(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(SAMPLE)
    PD.write(doc, "bench/bandwidth.py", "| a |\n| --- |\n| 1 |", "NVIDIA H100 80GB HBM3",
             driver="580.159.04", command="python3 bench/bandwidth.py", date="2026-12-07",
             note="A note.")
    text = doc.read_text()
    section = text.split("<!-- bench/bandwidth.py:begin -->")[1].split(
        "<!-- bench/bandwidth.py:end -->")[0]
    assert section == ("\n| a |\n| --- |\n| 1 |\n\nA note.\n\nMeasured on NVIDIA H100 80GB "
                       "HBM3, driver 580.159.04, 2026-12-07: `python3 bench/bandwidth.py`.\n")
    assert text.split("<!-- bench/bandwidth.py:begin -->")[0] == \
        SAMPLE.split("<!-- bench/bandwidth.py:begin -->")[0]


def _layout_row(name, ours, ours_name, default, default_name, triton=3.0, torch_=1.0,
                copy_=3.04):
    return {"row": name, "ours": {"name": ours_name, "tbps": ours},
            "triton": {"name": "ptr 128x128 w8", "tbps": triton},
            "torch": {"name": "torch", "tbps": torch_},
            "default": {"name": default_name, "tbps": default},
            "copy_tbps": copy_, "vs_torch": ours / torch_}


def test_the_layout_table_names_our_fastest_and_the_default():
    table = PD.layout_table([
        _layout_row("transpose 2-D 32768x32768", 2.97, "transpose default", 2.97,
                    "transpose default", triton=2.96, torch_=0.51),
        _layout_row("unfold 3x3 pad 1 NCHW 32x64x128x128", 2.78, "taps g132", 2.74,
                    "taps default", triton=2.19, torch_=0.67, copy_=3.03),
    ])
    lines = table.splitlines()
    assert lines[0].startswith("| row | torch | Triton's best | ours | / copy_")
    assert lines[2] == ("| transpose 2-D 32768x32768 | 0.51 | 2.96 | 2.97 | 0.977 | 1.003 "
                        "| 0.977 | 1.003 | default |")
    assert lines[3].endswith("| taps g132 (4.1x torch) |")
    assert "torch copy_ 3.03-3.04 TB/s" in table


def test_the_other_tables_format_what_the_scripts_collect():
    results = [
        {"name": "torch copy_", "ms": 1.0, "tbps": 4.25, "exact": True},
        {"name": "triton tma 64x128", "ms": 1.1, "tbps": 3.93, "exact": True},
        {"name": "tile-mlir dynamic_64x128_s4_g132", "ms": 1.0, "tbps": 4.23, "exact": True},
        {"name": "tile-mlir dynamic_64x128_s2_g132", "ms": 1.0, "tbps": 4.30, "exact": False},
        {"name": "tile-mlir loadonly_64x128_s4_g132 1x", "ms": 1.0, "tbps": 4.5, "exact": True},
    ]
    table = PD.bandwidth_table(results)
    assert "| persistent TMA copy, tiles claimed at run time | " \
           "`tile-mlir dynamic_64x128_s4_g132` | 4.23 | 0.995 | 1.076 |" in table
    assert "| TMA loads only | `tile-mlir loadonly_64x128_s4_g132 1x` | 4.50 |" in table

    launch = PD.launch_table({
        "cuda-python cuLaunchKernel (empty kernel)": 4.34,
        "cuda-python cuLaunchKernel (same TMA kernel, bound params)": 4.22,
        "tile-mlir bind() launch": 3.59, "tile-mlir call mod(x, out)": 4.60,
        "triton launch, reused TensorDescriptors": 15.73})
    assert "| tile-mlir bind() launch | 3.59 | 0.83 | 0.228 |" in launch
    assert "(4.60 us: met)" in launch and "(0.85x: met)" in launch

    compile_ = PD.compile_table([0.18, 0.17, 0.2], [{"ops": 1000, "seconds": 0.055,
                                                    "us_per_op": 55.0}])
    assert "median 180 ms of 3" in compile_ and "| 1,000 | 0.055 | 55 |" in compile_

    debug = PD.debug_cost_table([
        {"name": "cost_debug", "debug": True, "kernel_ms": 1.016, "kernel_tbps": 4.23,
         "runtime_launch_ms": 1.108, "exact": True},
        {"name": "cost_release", "debug": False, "kernel_ms": 1.010, "kernel_tbps": 4.25,
         "runtime_launch_ms": 1.035, "exact": True}])
    assert debug.splitlines()[2] == "| release | 1.010 ms (4.25 TB/s) | 1.035 ms | yes |"
    assert debug.splitlines()[3] == \
        "| debug | 1.016 ms (4.23 TB/s), 1.006x | 1.108 ms, 1.07x | yes |"

    grouped = PD.grouped_copy_table({"ratios": {"small: ours / _foreach_copy_": 8.31,
                                                "large: ours / one-tensor copy": 0.86,
                                                "small: call / plan": None}})
    assert "| small: ours / _foreach_copy_ | 8.31x | >= 3 (met) |" in grouped
    assert "| large: ours / one-tensor copy | 0.86x | >= 0.9 (not met) |" in grouped
    assert "| small: call / plan | - |  |" in grouped


def test_the_performance_document_has_each_scripts_markers():
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    for script in ("layout.py", "bandwidth.py", "launch_overhead.py", "compile_time.py"):
        name = f"bench/{script}"
        begin, end = PD.markers(name)
        assert text.count(begin) == 1 and text.count(end) == 1, name
        body = text.split(begin)[1].split(end)[0]
        assert re.search(r"Measured on .+, \d{4}-\d{2}-\d{2}: `.+`\.", body), name
        # Every script that owns a section can write it.
        source = (ROOT / "bench" / script).read_text(encoding="utf-8")
        assert '"--doc"' in source and "perf_doc" in source, script
