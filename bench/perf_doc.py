"""The measured tables of docs/performance.md, written by the benchmarks.

A benchmark run with `--doc docs/performance.md` replaces its own section
of that document, the text between `<!-- bench/<script>.py:begin -->`
and `<!-- bench/<script>.py:end -->`, with the table it has just measured and one
line naming the card, its driver, the date and the command. Everything
outside the markers stays as it was, so a run of one benchmark touches no
other table.

The table builders take the results the scripts already collect (the same
dicts their --json writes), so they need neither a GPU nor torch; the
rewriting is checked on the CPU (test/python/project/test_perf_doc.py).
"""

from __future__ import annotations

import datetime
import math
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

# Environment that selects what a benchmark runs (the compile cache).
COMMAND_ENV = ("TILE_MLIR_CACHE_DIR",)


def markers(name: str) -> tuple[str, str]:
    """The begin and end markers of `name`'s section (name: "bench/layout.py")."""
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace_section(text: str, name: str, body: str) -> str:
    """`text` with what lies between `name`'s markers replaced by `body`
    (the markers kept, each on its own line)."""
    begin, end = markers(name)
    for marker in (begin, end):
        count = text.count(marker)
        if count != 1:
            raise ValueError(f"the document holds {count} of {marker}; it needs one")
    start = text.index(begin) + len(begin)
    stop = text.index(end)
    if stop < start:
        raise ValueError(f"{end} comes before {begin}")
    return text[:start] + "\n" + body.strip("\n") + "\n" + text[stop:]


def driver_version() -> str | None:
    """The NVIDIA driver's version ("580.159.04"), or None where none is found."""
    try:
        text = Path("/proc/driver/nvidia/version").read_text()
        found = re.search(r"Kernel Module(?: for \S+)?\s+(\d+(?:\.\d+)+)", text)
        if found:
            return found.group(1)
    except OSError:
        pass
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version",
                              "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=30)
        lines = out.stdout.split()
        if out.returncode == 0 and lines:
            return lines[0]
    except (OSError, subprocess.SubprocessError):
        pass
    return None


def command_line(argv=None, environ=None) -> str:
    """The command as run, without its --doc argument (which only says where
    the table goes), with the environment that chose the kernels."""
    argv = list(sys.argv if argv is None else argv)
    environ = os.environ if environ is None else environ
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--doc":
            skip = True
        elif not arg.startswith("--doc="):
            kept.append(arg)
    env = [f"{k}={shlex.quote(environ[k])}" for k in COMMAND_ENV if environ.get(k)]
    return " ".join(env + ["python3"] + [shlex.quote(a) for a in kept])


def stamp(device: str, driver: str | None, command: str, date: str | None = None) -> str:
    """The line under a table: where, when and how it was measured."""
    date = date or datetime.date.today().isoformat()
    card = f"{device}, driver {driver}" if driver else device
    return f"Measured on {card}, {date}: `{command}`."


def write(doc, name: str, table: str, device: str, *, driver: str | None = None,
          command: str | None = None, date: str | None = None, note: str = "") -> None:
    """Rewrites `name`'s section of the document `doc` with `table`, an
    optional `note` under it, and the stamp line."""
    path = Path(doc)
    body = table.strip("\n") + "\n"
    if note:
        body += "\n" + note.strip("\n") + "\n"
    body += "\n" + stamp(device, driver if driver is not None else driver_version(),
                         command or command_line(), date)
    path.write_text(replace_section(path.read_text(encoding="utf-8"), name, body),
                    encoding="utf-8")
    print(f"wrote the {name} section of {path}")


def cpu_name() -> str:
    """This machine's processor and core count, for CPU-only benchmarks."""
    model = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model or 'CPU'} ({os.cpu_count()} cores)"


# --- tables -----------------------------------------------------------------

def number(value, digits: int = 2, suffix: str = "") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}{suffix}"


def markdown(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def layout_table(summary: list) -> str:
    """bench/layout.py: one line a row, each side's best median of the
    rounds; the default columns are the kernel the op runs."""
    rows = []
    for r in summary:
        ours, triton, torch_ = r["ours"], r.get("triton"), r["torch"]
        default = (r.get("default") or {}).get("tbps")
        default_name = (r.get("default") or {}).get("name")
        copy_ = r["copy_tbps"]
        t = triton["tbps"] if triton else None
        who = "default" if ours["name"] == default_name else ours["name"]
        if r["row"].startswith("unfold"):
            who += f" ({r['vs_torch']:.1f}x torch)"
        rows.append([r["row"], number(torch_["tbps"]), number(t), number(ours["tbps"]),
                     number(ours["tbps"] / copy_, 3), number(ours["tbps"] / t, 3) if t else "-",
                     number(default / copy_, 3) if default else "-",
                     number(default / t, 3) if default and t else "-", who])
    table = markdown(["row", "torch", "Triton's best", "ours", "/ copy_", "/ Triton",
                      "default / copy_", "default / Triton", "ours is"], rows)
    low = f"{min(r['copy_tbps'] for r in summary):.2f}"
    high = f"{max(r['copy_tbps'] for r in summary):.2f}"
    span = low if low == high else f"{low}-{high}"
    return (table + f"\n\nTB/s, bf16; torch copy_ {span} TB/s in the same rounds. "
            "\"ours\" is our fastest kernel, \"default\" the one the op runs.")


def best_by_group(results: list, groups, base: float, peer: float | None) -> list:
    """For each (label, name prefix) the fastest exact result whose name
    starts with the prefix: [label, its name, TB/s, / base, / peer]."""
    rows = []
    for label, prefix in groups:
        found = [r for r in results if r["name"].startswith(prefix) and r.get("exact")]
        if not found:
            continue
        best = max(found, key=lambda r: r["tbps"])
        rows.append([label, f"`{best['name']}`", number(best["tbps"]),
                     number(best["tbps"] / base, 3),
                     number(best["tbps"] / peer, 3) if peer else "-"])
    return rows


BANDWIDTH_GROUPS = [
    ("torch `copy_`", "torch copy_"),
    ("Triton TMA copy", "triton"),
    ("persistent TMA copy, tiles claimed at run time", "tile-mlir dynamic_"),
    ("single-thread TMA copy", "tile-mlir copy_"),
    ("warp-specialized TMA copy", "tile-mlir ws_"),
    ("TMA load + `st.global`", "tile-mlir tmasimt_"),
    ("no-TMA `ld/st.global.v4` copy", "tile-mlir simt_"),
]
ONE_WAY_GROUPS = [
    ("torch read only (`a.sum`)", "torch read only (a.sum) 1x"),
    ("torch write only (`fill_`)", "torch write only (b.fill_) 1x"),
    ("TMA loads only", "tile-mlir loadonly"),
    ("TMA stores only", "tile-mlir storeonly"),
]


def bandwidth_table(results: list) -> str:
    """bench/bandwidth.py: the fastest exact kernel of each kind."""
    copies = [r for r in results if not r["name"].endswith(" 1x")
              and not r["name"].endswith(" x2")]
    torch_ = next(r["tbps"] for r in copies if r["name"] == "torch copy_")
    triton = max((r["tbps"] for r in copies if r["name"].startswith("triton") and r["exact"]),
                 default=None)
    table = markdown(["kernel", "fastest", "TB/s", "vs torch", "vs Triton's best"],
                     best_by_group(copies, BANDWIDTH_GROUPS, torch_, triton))
    one_way = [[label, f"`{r['name']}`", number(r["tbps"])] for label, r in (
        (label, max((r for r in results if r["name"].startswith(p) and r["exact"]),
                    key=lambda r: r["tbps"], default=None))
        for label, p in ONE_WAY_GROUPS) if r is not None]
    text = table + ("\n\nTB/s of bytes read plus written, 2 GiB bf16, medians; "
                    "every copy checked bit for bit.")
    if one_way:
        text += ("\n\nOne direction at a time (TB/s of its own bytes):\n\n"
                 + markdown(["stream", "fastest", "TB/s"], one_way))
    return text


TRANSPOSE_GROUPS = [
    ("torch `x.t().contiguous()`", "torch x.t()"),
    ("Triton, block pointers", "triton block_ptr"),
    ("Triton, TensorDescriptor (TMA)", "triton tma desc"),
    ("tile-mlir", "tile-mlir"),
    ("diagnostic: TMA traffic without the transpose", "diagnostic"),
    ("reference: plain copies of the matrix", "reference"),
]


def transpose_table(results: list) -> str:
    """bench/transpose.py: the fastest of each kind; the diagnostics and
    copies count as exact (they are checked apart or not at all)."""
    rows = [dict(r, exact=r["exact"] is not False) for r in results]
    torch_ = next(r["tbps"] for r in rows if r["name"].startswith("torch x.t()"))
    triton = max((r["tbps"] for r in rows if r["name"].startswith("triton") and r["exact"]),
                 default=None)
    return markdown(["kernel", "fastest", "TB/s", "vs torch", "vs Triton's best"],
                    best_by_group(rows, TRANSPOSE_GROUPS, torch_, triton)) + (
        "\n\nTB/s of bytes read plus written, 16384 x 16384 bf16, every transpose "
        "checked with `torch.equal` against `x.t()`.")


def launch_table(rows: dict) -> str:
    """bench/launch_overhead.py: microseconds a launch, host wall time."""
    raw = rows["cuda-python cuLaunchKernel (empty kernel)"]
    triton = rows["triton launch, reused TensorDescriptors"]
    body = [[name, number(us), number(us / raw), number(us / triton, 3)]
            for name, us in rows.items() if isinstance(us, float)]
    call = rows["tile-mlir call mod(x, out)"]
    bound = rows["tile-mlir bind() launch"]
    same = rows["cuda-python cuLaunchKernel (same TMA kernel, bound params)"]
    goals = (f"Goals: the call at most 8 us and a third of Triton's launch "
             f"({call:.2f} us: {'met' if call <= min(8.0, triton / 3) else 'not met'}); "
             f"`bind()` no slower than the raw launch of the same kernel "
             f"({bound / same:.2f}x: {'met' if bound <= same else 'not met'}).")
    return markdown(["launch path", "us", "vs raw launch", "vs Triton"], body) + "\n\n" + goals


def compile_table(cold: list, lowering: list) -> str:
    """bench/compile_time.py: the cold compile and tile-lower-tma's scaling."""
    cold_ms = sorted(t * 1e3 for t in cold)
    median = cold_ms[len(cold_ms) // 2]
    text = (f"Cold compile of the contract's example, Python builder to cubin in a "
            f"fresh process (imports included): median {median:.0f} ms of "
            f"{len(cold_ms)} (goal 250 ms).\n\n")
    return text + markdown(["`tile-lower-tma` over N copies", "seconds", "us/op"],
                           [[f"{r['ops']:,}", number(r["seconds"], 3),
                             number(r["us_per_op"], 0)] for r in lowering])


def debug_cost_table(results: list) -> str:
    """bench/debug_cost.py: the release and the debug build of one copy."""
    release = next((r for r in results if not r["debug"]), None)
    body = []
    for r in sorted(results, key=lambda r: r["debug"]):
        k = f"{r['kernel_ms']:.3f} ms ({r['kernel_tbps']:.2f} TB/s)"
        launch = f"{r['runtime_launch_ms']:.3f} ms"
        if r["debug"] and release:
            k += f", {r['kernel_ms'] / release['kernel_ms']:.3f}x"
            launch += f", {r['runtime_launch_ms'] / release['runtime_launch_ms']:.2f}x"
        body.append(["debug" if r["debug"] else "release", k, launch,
                     "yes" if r["exact"] else "NO"])
    return markdown(["build", "kernel alone (back-to-back launches)", "runtime launch + sync",
                     "exact"], body)


def grouped_copy_table(report: dict) -> str:
    """bench/grouped_copy.py: the ratios the goals are set on, and the rest."""
    goals = {"small: ours / _foreach_copy_": ">= 3", "small: ours / triton": ">= 1",
             "large: ours / one-tensor copy": ">= 0.9", "large: ours / triton": ">= 1"}
    body = []
    for label, value in report["ratios"].items():
        goal = goals.get(label, "")
        met = "" if not goal or value is None else (
            " (met)" if value >= float(goal.split()[-1]) else " (not met)")
        body.append([label, number(value, 2, "x"), goal + met])
    return markdown(["ratio (bandwidth, same run)", "value", "goal"], body) + (
        "\n\nSmall group: 256 bf16 tensors of about 64 x 512; large: 256 of about "
        "1024 x 512; \"ours\" is the prepared plan (one launch).")
