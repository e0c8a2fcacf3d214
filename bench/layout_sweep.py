"""The layout sweep, one GPU run: every op class of
tile_mlir.testing.layout_sweep (11 permutations, 5 pads, 4 unfolds) at
every input size (4 KiB to 4 GiB) and element size (uint8, bfloat16,
float32, float64), each cell timed for torch's own op, Triton's best
(kernels of bench/layout_triton.py) and ours (tile_mlir.kernels.permute /
pad / unfold, the public calls), every result compared bit for bit with
torch's. bench/sweep_plot.py draws the JSON as a heat map.

Where MLIR is, build the kernels into a compile cache first (the sweep's
recipes are part of bench/build_layout.py):
    python bench/build_layout.py                        # .artifacts/layout/cache
then on the GPU machine:
    TILE_MLIR_CACHE_DIR=.artifacts/layout/cache python3 bench/layout_sweep.py \\
        --json sweep.json --triton-cache triton-cache
    python bench/sweep_plot.py sweep.json --out sweep.png      # anywhere (Pillow)

Timing is what a user sees for back-to-back calls: after a warm-up, CUDA
events around a batch of N calls (N such that a batch takes at least
--batch-ms, and at least 3), the median of --batches batches, in ms per
call; so the host's cost per call counts where it dominates (small
tensors) and the GPU's where it does (large ones). Torch's op and ours
allocate their result on every call, Triton's kernels write into one made
beforehand. Bytes moved are read + written (permute: twice the input; pad:
the input it keeps plus the output; unfold: input plus output); torch copy_
of the same bytes runs in every cell that moves 64 MiB or more.

Triton's best (not run on tensors of 2^31 elements or more, whose 32-bit
offsets layout_triton's kernels overflow): Triton compiles are slow, so the first (largest) cell of
each class and element size times a short list of the layout_triton
variants (--triton-shortlist, or all with --triton-all), once each, and
ranks them; the cell's entry and every smaller cell of that class and
element size time the fastest exact one (the next where it fails).
TRITON_CACHE_DIR is --triton-cache, so a second run compiles nothing.

Goals, printed and checked: ours / max(torch, Triton) >= 1.0 in every cell
(ratio of speeds: their ms over ours), and ours >= 0.93 of torch copy_'s
bandwidth in every cell that moves 64 MiB or more. A failure of one
implementation in one cell (a missing kernel, a Triton error, out of
memory) is recorded with its message and the sweep goes on; the JSON is
rewritten after every cell, and --resume skips the cells it holds. The
cells run in a worker process: a launch that kills it (an illegal address
poisons the CUDA context) is left named in <json>.running, and a new worker
resumes, recording that launch as its implementation's failure in the cell
(the JSON's "crashed") and skipping it. Exit
status 1 if any of our results is wrong or failed (--strict: also if a
goal is not met).

Filters: --ops permute,pad; --classes "crop,(0, 2, 1)" (words of class
names; a comma followed by a space belongs to the word); --sizes 4K,16M;
--elems 1,2; --quick (64 KiB and 16 MiB, bfloat16, unless given).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import math
import os
import signal
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path

import layout_variants as V  # a sibling script (its folder is first on sys.path)
from tile_mlir.kernels.layout.plan.permute import canonical_permutation
from tile_mlir.kernels.layout.plan.unfold import unfold_spec
from tile_mlir.testing import layout_sweep as S

GOAL_RATIO = 1.0   # ours / max(torch, Triton)
# layout_triton's kernels compute element offsets in int32: past this many
# elements some of them read and write wild addresses (measured: the
# (0, 2, 1) permutes of 4 GiB of uint8), which ends the process.
TRITON_MAX_ELEMENTS = 2 ** 31
GOAL_COPY = 0.93   # ours / torch copy_, cells moving COPY_GOAL_BYTES or more
SHORTLIST = 4
# The Triton variants tried first, by a word of their names (layout_triton's
# names): the fastest of bench/layout.py's tables (pointer and block-pointer
# 128 x 128 tiles of 8 warps, TMA descriptors for batched transposes and
# row blocks), then each kind's first tile (as wide as short rows).
PREFERRED = {
    "permute": ("ptr 128x128 w8", "blockptr 128x128 w8", "tma desc", "triton ptr ",
                "triton blockptr "),
    "pad": ("ptr 8x256 w4", "blockptr 8x256 w4", "ptr 32x128 w8", "blockptr 16x512 w8"),
    "unfold": ("ptr 1024 w4", "ptr 2048 w8", "ptr 128x64 w4", "ptr 256x64 w8",
               "ptr 512 w4", "ptr 4096 w8", "ptr 64x64 w4"),
}
SLOW_CALL_S = 0.02   # calls this slow time in fewer batches

torch = F = T = ours = None   # imported in main(), after TRITON_CACHE_DIR is set
DEVICE = "cuda"


def _import_gpu() -> None:
    """torch, Triton's peers and our ops (after TRITON_CACHE_DIR is set)."""
    global torch, F, T, ours
    import layout_triton as T_  # a sibling script: the Triton peers
    import tile_mlir.kernels as ours_
    import torch as torch_
    import torch.nn.functional as F_
    torch, F, T, ours = torch_, F_, T_, ours_


# -- timing -------------------------------------------------------------------

def _events():
    return (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))


def _sync() -> None:
    torch.cuda.synchronize()


def _free() -> None:
    """Returns the cell's memory to the device (4 GiB inputs)."""
    gc.collect()
    _sync()
    torch.cuda.empty_cache()


def _device_name() -> str:
    return torch.cuda.get_device_name()


def _triton_version() -> str:
    import triton
    return triton.__version__


def _batch_ms(fn, n: int) -> float:
    start, end = _events()
    start.record()
    for _ in range(n):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / n


def time_calls(fn, batches: int, batch_ms: float) -> dict:
    """ms per call of back-to-back calls of fn: the median of `batches`
    batches of n calls (a batch at least batch_ms, n >= 3), after a call
    and a first timing of three."""
    fn()
    _sync()
    per = _batch_ms(fn, 3)
    n = max(3, min(100000, math.ceil(batch_ms / max(per, 1e-6))))
    if per / 1e3 >= SLOW_CALL_S:
        batches = min(batches, 3)
    elif n > 3:
        _batch_ms(fn, n)   # the batch's rhythm (allocator, clocks) settles
    times = [_batch_ms(fn, n) for _ in range(batches)]
    return {"ms": statistics.median(times), "calls": n, "batches": times}


# -- checking -----------------------------------------------------------------

def bits(t):
    """t viewed as the integer type of its element size."""
    return t.view({1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[
        t.element_size()])


def same(a, ref) -> str | None:
    """None if a equals ref bit for bit (shape and every element's bits),
    else what differs."""
    _sync()
    if tuple(a.shape) != tuple(ref.shape):
        return f"shape {tuple(a.shape)}, torch's {tuple(ref.shape)}"
    if torch.equal(bits(a), bits(ref)):
        return None
    try:
        return f"{int((bits(a) != bits(ref)).sum())} of {ref.numel()} elements differ"
    except torch.OutOfMemoryError:   # no room to count them
        return "elements differ"


def strides_match(a, ref) -> bool:
    """Whether a has ref's layout: the same strides on every axis longer
    than 1 (torch leaves any stride on the others)."""
    return all(x == y for x, y, n in zip(a.stride(), ref.stride(), ref.shape) if n > 1)


def error_text(err) -> str:
    first = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {first[:300]}"


# -- the cell's three implementations -----------------------------------------

def make_input(cell):
    """A fresh random input (seeded by the cell): randint over the bit
    pattern's range for uint8, randn for floats; channels_last stored
    (N, H, W, C) and seen as NCHW."""
    gen = torch.Generator(device=DEVICE)
    gen.manual_seed(zlib.crc32(cell.key.encode()))
    dtype = getattr(torch, cell.dtype)
    shape = list(cell.shape)
    if cell.channels_last:
        n, c, h, w = shape
        shape = [n, h, w, c]
    if dtype.is_floating_point:
        x = torch.randn(shape, dtype=dtype, device=DEVICE, generator=gen)
    else:
        x = torch.randint(0, 256, shape, dtype=dtype, device=DEVICE, generator=gen)
    return x.permute(0, 3, 1, 2) if cell.channels_last else x


def torch_fn(cell, x):
    """torch's own op on x, as a user writes it."""
    a = cell.args
    if cell.op == "permute":
        dims = tuple(a["dims"])
        return lambda: x.permute(dims).contiguous()
    if cell.op == "pad":
        pad = tuple(a["pad"])
        return lambda: F.pad(x, pad)
    k, p, s, d = a["kernel_size"], a["padding"], a["stride"], a["dilation"]
    if not x.dtype.is_floating_point:   # F.unfold (im2col) takes no integer type
        return lambda: unfold_by_views(x, k, p, s, d, a["layout"])
    if a["layout"] == "NCHW":
        return lambda: F.unfold(x, k, dilation=d, padding=p, stride=s)
    n, _, _, c = x.shape

    def nhwc():   # F.unfold of the NCHW view, reordered to (N, L, kh kw C)
        cols = F.unfold(x.permute(0, 3, 1, 2), k, dilation=d, padding=p, stride=s)
        taps = cols.shape[1] // c
        return cols.view(n, c, taps, -1).permute(0, 3, 2, 1).reshape(n, -1, taps * c)
    return nhwc


def torch_name(cell, x) -> str:
    """What torch_fn runs, for the record."""
    if cell.op == "permute":
        return "x.permute(dims).contiguous()"
    if cell.op == "pad":
        return "F.pad"
    if not x.dtype.is_floating_point:
        return "F.pad, Tensor.unfold, reshape (F.unfold takes no integers)"
    return "F.unfold" if cell.args["layout"] == "NCHW" else \
        "F.unfold of the NCHW view, reordered to (N, L, kh kw C)"


def unfold_by_views(x, k: int, p: int, s: int, d: int, layout: str):
    """unfold of a square kernel with torch's views for any dtype: F.pad,
    Tensor.unfold over the dilated window, every d-th element, one reshape."""
    span = d * (k - 1) + 1
    if layout == "NCHW":
        n, c = x.shape[:2]
        win = F.pad(x, (p, p, p, p)).unfold(2, span, s).unfold(3, span, s)
        win = win[..., ::d, ::d]   # (N, C, oh, ow, kh, kw)
        return win.permute(0, 1, 4, 5, 2, 3).reshape(n, c * k * k, -1)
    n, c = x.shape[0], x.shape[3]
    win = F.pad(x, (0, 0, p, p, p, p)).unfold(1, span, s).unfold(2, span, s)
    win = win[..., ::d, ::d]       # (N, oh, ow, C, kh, kw)
    return win.permute(0, 1, 2, 4, 5, 3).reshape(n, -1, k * k * c)


def ours_fn(cell, x):
    """Our public op on x."""
    a = cell.args
    if cell.op == "permute":
        dims = tuple(a["dims"])
        return lambda: ours.permute(x, dims)
    if cell.op == "pad":
        pad = tuple(a["pad"])
        return lambda: ours.pad(x, pad)
    k, p, s, d, layout = (a["kernel_size"], a["padding"], a["stride"], a["dilation"],
                          a["layout"])
    return lambda: ours.unfold(x, k, padding=p, stride=s, dilation=d, layout=layout)


def triton_variants(cell, x, out) -> list:
    """(name, fn) of every layout_triton kernel for the cell, writing `out`."""
    a = cell.args
    if cell.op == "permute":
        canonical = canonical_permutation(tuple(x.shape), x.stride(), tuple(a["dims"]))
        return T.permute_variants(x, canonical, out)
    if cell.op == "pad":
        lefts = list(a["pad"]) + [0] * (4 - len(a["pad"]))
        left, top = lefts[0], lefts[2]
        if cell.channels_last:   # memory order (N, H, W C): W's pad is C elements a pixel
            xm, om = x.permute(0, 2, 3, 1), out.permute(0, 2, 3, 1)
            c = x.shape[1]
            x3 = xm.reshape(xm.shape[0], xm.shape[1], -1)
            y3 = om.view(om.shape[0], om.shape[1], -1)
            return T.pad_variants(x3, y3, top, left * c)
        n, c, h, w = x.shape
        x3 = x.view(n * c, h, w)
        y3 = out.view(n * c, out.shape[2], out.shape[3])
        return T.pad_variants(x3, y3, top, left)
    spec = unfold_spec(tuple(x.shape), a["kernel_size"], a["padding"], a["stride"],
                       a["dilation"], a["layout"])
    return T.unfold_variants(x, out, spec)


def shortlist(op: str, variants: list, k: int) -> list:
    """Up to k variants: PREFERRED's words in order (one variant each), then
    the others in their order."""
    chosen = []
    for word in PREFERRED[op]:
        for v in variants:
            if word in v[0] and v not in chosen:
                chosen.append(v)
                break
    chosen += [v for v in variants if v not in chosen]
    return chosen[:k]


# -- one cell -----------------------------------------------------------------

def running_file(json_path) -> Path:
    """Where a worker names the launch it is in: <json>.running."""
    path = Path(json_path)
    return path.with_name(path.name + ".running")


class Sweep:
    """The run's options, Triton's rankings per (class, element size) and
    the JSON's cells."""

    def __init__(self, args):
        self.args = args
        self.rankings: dict = {}   # (class, elem) -> variant names, fastest first
        self.records: dict = {}    # key -> cell record
        self.crashed: dict = {}    # (cell key, implementation) -> what the worker saw
        self.running = running_file(args.json)

    def timed(self, fn) -> dict:
        return time_calls(fn, self.args.batches, self.args.batch_ms)

    def attempt(self, rec, who) -> bool:
        """Before launching `who` in the cell: False where an earlier worker
        died in this very launch (recorded as its error), else names it in
        the .running file, which a crash leaves behind."""
        died = self.crashed.get((rec["key"], who))
        if died is not None:
            rec["errors"][who] = died
            return False
        self.running.write_text(json.dumps({"key": rec["key"], "who": who}))
        return True


def run_impl(rec, who, fn, ref, sweep, check=None) -> dict | None:
    """Runs fn once, checks its result against ref (check(): the result
    to compare, else fn's return), times it; errors go to rec["errors"]."""
    if not sweep.attempt(rec, who):
        return None
    try:
        result = fn() if check is None else (fn(), check())[1]
        wrong = same(result, ref)
        if wrong is None and check is None and not strides_match(result, ref):
            wrong = f"strides {result.stride()}, torch's {ref.stride()}"
        del result
        if wrong is not None:
            rec["errors"][who] = f"not exact: {wrong}"
            rec["exact"][who] = False
            return None
        rec["exact"][who] = True
        t = sweep.timed(fn)
    except Exception as err:   # recorded: the sweep goes on
        rec["errors"][who] = error_text(err)
        _sync()
        return None
    t["tbps"] = rec["moved"] / t["ms"] / 1e9
    return t


def variant_fns(cell, x, names) -> list:
    """(name, fn or the exception its recording raised) of each of `names`
    (layout_variants.chosen) the cell's plan has on this card's tuning:
    each kernel's launches recorded once into a fresh output, then replayed
    into it (no planning or allocation a call; every launch writes the
    whole output, so reusing it is exact), so the kernels, not the host,
    are compared."""
    from tile_mlir.kernels.layout.call import recording
    from tile_mlir.kernels.layout.tuning import for_device
    cv = V.cell_variants(cell, for_device(x.device))
    if cv is None:
        return []
    src = x.contiguous() if cv.dense else x
    out = []
    for name, kernel in V.chosen(cv.kernels, names):
        y = torch.empty(cv.out_shape, dtype=x.dtype, device=x.device)
        try:
            with recording() as rec:
                cv.run(src, y, kernel)
        except Exception as err:   # e.g. a variant not compiled: the others go on
            _sync()
            out.append((name, err))
            continue
        bound = [b for b, _ in rec.launches]
        # The recording wrote y; a sentinel makes the replays' own output
        # what the exactness check sees.
        y.view(-1).view(torch.uint8).fill_(0xA5)

        def fn(bound=bound, y=y):
            for b in bound:
                b()
            return y
        out.append((name, fn))
    return out


def run_variants(rec, cell, x, ref, sweep) -> None:
    """--variants: each named variant the cell's plan has (permute.variants,
    pad.variants, unfold.variants; "all": every one), timed as
    "ours:<name>" (replayed launches)."""
    try:
        fns = variant_fns(cell, x, [n.strip() for n in sweep.args.variants.split(",")
                                    if n.strip()])
    except Exception as err:   # recorded: the sweep goes on
        rec["errors"]["ours:variants"] = error_text(err)
        _sync()
        return
    for name, fn in fns:
        who = f"ours:{name}"
        if isinstance(fn, Exception):
            rec["errors"][who] = error_text(fn)
            continue
        t = run_impl(rec, who, fn, ref, sweep)
        if t is not None:
            rec["impl"][who] = {**t, "name": name}


def run_triton(rec, cell, x, ref, sweep) -> None:
    """Triton's best for the cell (see the module docstring): the group's
    ranking (made on its first cell), its first exact variant timed."""
    if max(x.numel(), ref.numel()) >= TRITON_MAX_ELEMENTS:
        rec["errors"]["triton"] = (f"not run: {max(x.numel(), ref.numel())} elements; "
                                   "bench/layout_triton.py's kernels index in 32 bits "
                                   "(2^31 elements or more: illegal addresses)")
        return
    out = torch.empty_like(ref)
    try:
        variants = triton_variants(cell, x, out)
    except Exception as err:   # recorded: the sweep goes on
        rec["errors"]["triton"] = error_text(err)
        return
    t0 = time.perf_counter()
    group = (cell.cls, cell.elem)
    if group not in sweep.rankings:
        sweep.rankings[group] = rank_triton(rec, cell, variants, out, ref, sweep)
    by_name = dict(variants)
    for name in sweep.rankings[group]:
        if name in by_name:
            _prefill(out)
            t = run_impl(rec, name, by_name[name], ref, sweep, check=lambda: out)
            if t is not None:
                rec["impl"]["triton"] = {**t, "name": name}
                break
    rec["triton_seconds"] = round(time.perf_counter() - t0, 2)


def rank_triton(rec, cell, variants, out, ref, sweep) -> list:
    """The names of the short list's (--triton-all: every) exact variants,
    fastest first, each timed in one batch."""
    tried = variants if sweep.args.triton_all else \
        shortlist(cell.op, variants, sweep.args.triton_shortlist)
    first = {}
    for name, fn in tried:
        if not sweep.attempt(rec, name):
            continue
        try:
            _prefill(out)
            fn()
            wrong = same(out, ref)
            if wrong is not None:
                rec["errors"][name] = f"not exact: {wrong}"
                continue
            first[name] = time_calls(fn, 1, sweep.args.batch_ms)["ms"]
        except Exception as err:   # a variant that does not compile or launch
            rec["errors"][name] = error_text(err)
            _sync()
    ranked = sorted(first, key=first.get)
    rec["triton_ranking"] = [[n, first[n]] for n in ranked]
    return ranked


def _prefill(out) -> None:
    """Fills out with all-ones bits, so a kernel that skips an element fails."""
    bits(out).fill_(-1 if out.element_size() > 1 else 255)


def run_copy(rec, cell, sweep) -> None:
    """torch copy_ of the cell's bytes (half read, half written)."""
    if not sweep.attempt(rec, "copy"):
        return
    try:
        n = rec["moved"] // 2 // cell.elem
        dtype = getattr(torch, cell.dtype)
        src = torch.empty(n, dtype=dtype, device=DEVICE)
        dst = torch.empty_like(src)
        t = sweep.timed(lambda: dst.copy_(src))
        t["tbps"] = rec["moved"] / t["ms"] / 1e9
        rec["impl"]["copy"] = t
    except Exception as err:
        rec["errors"]["copy"] = error_text(err)


def run_cell(cell, sweep) -> dict:
    """Every implementation of one cell, as its JSON record."""
    rec = {**cell.to_json(), "impl": {}, "errors": {}, "exact": {}}
    start = time.perf_counter()
    try:
        if not sweep.attempt(rec, "torch"):
            raise RuntimeError(rec["errors"]["torch"])
        x = make_input(cell)
        fn = torch_fn(cell, x)
        ref = fn()
        rec["impl"]["torch"] = {**sweep.timed(fn), "name": torch_name(cell, x)}
        rec["impl"]["torch"]["tbps"] = rec["moved"] / rec["impl"]["torch"]["ms"] / 1e9
    except Exception as err:   # no reference: nothing else can be checked
        rec["errors"]["torch"] = error_text(err)
        x = ref = None
    if ref is not None:
        t = run_impl(rec, "ours", ours_fn(cell, x), ref, sweep)
        if t is not None:
            rec["impl"]["ours"] = {**t, "name": "ours"}
        if sweep.args.variants:
            run_variants(rec, cell, x, ref, sweep)
        if not sweep.args.no_triton:
            run_triton(rec, cell, x, ref, sweep)
    del x, ref
    _free()
    if cell.moved >= S.COPY_GOAL_BYTES:
        run_copy(rec, cell, sweep)
        _free()
    score(rec)
    rec["seconds"] = round(time.perf_counter() - start, 2)
    return rec


def score(rec) -> None:
    """The cell's ratios and goals: ratio = max(torch, Triton)'s ms over
    ours' (ours' speed over the faster peer's), copy_ratio = copy_'s ms over
    ours' (the same bytes)."""
    impl = rec["impl"]
    ours_ms = impl.get("ours", {}).get("ms")
    peers = [impl[w]["ms"] for w in ("torch", "triton") if w in impl]
    rec["ratio"] = min(peers) / ours_ms if ours_ms and peers else None
    rec["copy_ratio"] = impl["copy"]["ms"] / ours_ms if ours_ms and "copy" in impl else None
    rec["goal_ratio"] = rec["ratio"] is not None and rec["ratio"] >= GOAL_RATIO
    if rec["moved"] >= S.COPY_GOAL_BYTES:
        rec["goal_copy"] = rec["copy_ratio"] is not None and rec["copy_ratio"] >= GOAL_COPY
    else:
        rec["goal_copy"] = None
    rec["failed"] = "ours" not in impl or rec["exact"].get("ours") is not True


# -- the report ---------------------------------------------------------------

def _entry(rec) -> str:
    """A cell in the printed table: ratio, and copy ratio where it counts."""
    if rec is None:
        return "-"
    if rec["failed"]:
        return "FAIL"
    text = f"{rec['ratio']:.2f}" if rec["ratio"] is not None else "?"
    if rec["goal_copy"] is not None:
        text += f" c{rec['copy_ratio']:.2f}" if rec["copy_ratio"] is not None else " c?"
    if rec["goal_ratio"] is False or rec["goal_copy"] is False:
        text += "*"
    return text


def _ms(rec, who) -> str:
    t = rec["impl"].get(who)
    return f"{t['ms']:.4f}" if t else "-"


def print_cell(rec) -> None:
    """One line a cell, as it finishes."""
    tri = rec["impl"].get("triton", {}).get("name", "")
    print(f"{rec['key']:48s} {'x'.join(map(str, rec['shape'])):24s} "
          f"torch {_ms(rec, 'torch')} triton {_ms(rec, 'triton')} ours {_ms(rec, 'ours')} ms"
          f"  {_entry(rec):14s} {rec['seconds']:5.1f} s  {tri}", flush=True)
    for who, t in rec["impl"].items():
        if who.startswith("ours:"):
            print(f"    {who} {t['ms']:.4f} ms", flush=True)
    for who, msg in rec["errors"].items():
        print(f"    {who}: {msg}", flush=True)


def report(records: list) -> tuple:
    """Prints the table by class (rows: element sizes; columns: sizes;
    entries: ours / max(torch, Triton), then c and ours / copy_ for cells
    of 64 MiB moved and up; * below a goal), the cells below goal and the
    failures. Returns (cells below a goal, failed cells)."""
    by_key = {r["key"]: r for r in records}
    sizes = sorted({r["size"] for r in records})
    print(f"\nours / max(torch, Triton) by class (c: ours / copy_, moving >= "
          f"{S.COPY_GOAL_BYTES >> 20} MiB; *: below goal)")
    for cls in S.CLASSES:
        rows = [r for r in records if r["class"] == cls.name]
        if not rows:
            continue
        print(f"\n{cls.op} {cls.name}")
        print("  " + f"{'dtype':9s}" + "".join(f"{S.SIZE_NAMES[z]:>14s}" for z in sizes))
        for elem in sorted({r["elem"] for r in rows}):
            line = [by_key.get(f"{cls.op}|{cls.name}|{S.SIZE_NAMES[z]}|{elem}") for z in sizes]
            print("  " + f"{S.DTYPES[elem]:9s}" + "".join(f"{_entry(r):>14s}" for r in line))
    below = [r for r in records if not r["failed"] and
             (r["goal_ratio"] is False or r["goal_copy"] is False)]
    failed = [r for r in records if r["failed"]]
    if below:
        print(f"\nBelow goal ({len(below)}):")
        for r in below:
            tri = r["impl"].get("triton", {}).get("name", "-")
            copy = f"{r['copy_ratio']:.3f}" if r["copy_ratio"] is not None else "-"
            print(f"  {r['key']:48s} {'x'.join(map(str, r['shape'])):24s} ours "
                  f"{_ms(r, 'ours')} torch {_ms(r, 'torch')} triton {_ms(r, 'triton')} ms "
                  f"({tri}); ratio {r['ratio']:.3f}, / copy_ {copy}")
    if failed:
        print(f"\nFailed ({len(failed)}):")
        for r in failed:
            why = r["errors"].get("ours") or r["errors"].get("torch") or "no result"
            print(f"  {r['key']:48s} {why}")
    copy_cells = [r for r in records if r["goal_copy"] is not None]
    print(f"\n{len(records)} cells: ratio >= {GOAL_RATIO} in "
          f"{sum(1 for r in records if r['goal_ratio'])}; ours >= {GOAL_COPY} of copy_ in "
          f"{sum(1 for r in copy_cells if r['goal_copy'])} of {len(copy_cells)}; "
          f"{len(failed)} failed; {sum(r['seconds'] for r in records):.0f} s in cells "
          f"({sum(r.get('triton_seconds', 0) for r in records):.0f} s in Triton's)")
    return below, failed


# -- main ---------------------------------------------------------------------

def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", default="sweep.json", help="the results (rewritten "
                        "after every cell)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the cells --json holds, run the others")
    parser.add_argument("--ops", default=None, help="comma-separated: permute, pad, unfold")
    parser.add_argument("--classes", default=None, help="words of class names")
    parser.add_argument("--sizes", default=None,
                        help="comma-separated of " + ", ".join(S.SIZE_NAMES.values()))
    parser.add_argument("--elems", default=None, help="element sizes in bytes: 1, 2, 4, 8")
    parser.add_argument("--quick", action="store_true",
                        help="sizes 64K and 16M, bfloat16 (unless --sizes, --elems)")
    parser.add_argument("--no-triton", action="store_true")
    parser.add_argument("--triton-all", action="store_true",
                        help="rank every layout_triton variant, not the short list")
    parser.add_argument("--triton-shortlist", type=int, default=SHORTLIST)
    parser.add_argument("--triton-cache", default=None,
                        help="TRITON_CACHE_DIR for this run (a folder to bring back)")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--batch-ms", type=float, default=2.0)
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 where a goal is not met, too")
    parser.add_argument("--variants", default="",
                        help="comma-separated names of permute.variants, pad.variants "
                             "or unfold.variants (e.g. 'default,previous default'; "
                             f"'{V.ALL}': every one a cell's plan has) timed as "
                             "ours:<name>, launches replayed into one output (pads: "
                             "not channels_last)")
    args = parser.parse_args(argv)
    try:
        args.cells = V.select_cells(args)
    except ValueError as err:
        parser.error(str(err))
    return args


def write_json(path: Path, doc: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1))
    os.replace(tmp, path)


def start_doc(args, sweep) -> dict:
    """The JSON document: the run's facts and, with --resume, the cells
    and Triton rankings of the earlier run."""
    path = Path(args.json)
    doc = {"device": _device_name(), "torch": torch.__version__,
           "triton": _triton_version(), "date": datetime.date.today().isoformat(),
           "command": " ".join(["python3"] + sys.argv),
           "goals": {"ratio": GOAL_RATIO, "copy": GOAL_COPY,
                     "copy_bytes": S.COPY_GOAL_BYTES}, "cells": []}
    if args.resume and path.exists():
        old = json.loads(path.read_text())
        doc["crashed"] = old.get("crashed", [])
        if sweep.running.exists():   # the last worker died in this launch
            died = json.loads(sweep.running.read_text())
            doc["crashed"].append({**died, "error": "the process died in this launch "
                                   "(a CUDA error poisons its context; the run's log "
                                   "has it)"})
            sweep.running.unlink()
        for died in doc["crashed"]:
            sweep.crashed[died["key"], died["who"]] = died["error"]
        # Kept now: the next worker may die before this one finishes a cell.
        write_json(path, {**old, "crashed": doc["crashed"]})
        for rec in old.get("cells", []):
            sweep.records[rec["key"]] = rec
            if rec.get("triton_ranking"):
                sweep.rankings[rec["class"], rec["elem"]] = [n for n, _ in
                                                             rec["triton_ranking"]]
    return doc


MAX_RESTARTS = 40


def supervise(argv) -> int:
    """Runs the sweep in a worker process, and again (--resume) each time a
    worker dies in a launch (its .running file names it), so one launch that
    poisons the CUDA context costs only itself."""
    args = parse_args(argv)
    running = running_file(args.json)
    running.unlink(missing_ok=True)
    extra = []
    for _ in range(MAX_RESTARTS):
        rc = subprocess.call([sys.executable, __file__, *argv, "--worker", *extra])
        if not running.exists():
            return rc
        print(f"worker died in {running.read_text()}; resuming", flush=True)
        extra = [] if args.resume else ["--resume"]
    return 1


def _stop(signum, frame):
    """A timeout's SIGTERM: no launch died, so no .running file is left."""
    raise SystemExit(128 + signum)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--worker" not in argv:
        return supervise(argv)
    args = parse_args([a for a in argv if a != "--worker"])
    if args.triton_cache:   # before Triton is imported: it reads the folder once
        folder = Path(args.triton_cache).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        os.environ["TRITON_CACHE_DIR"] = str(folder)
    signal.signal(signal.SIGTERM, _stop)
    _import_gpu()
    sweep = Sweep(args)
    doc = start_doc(args, sweep)
    todo = [c for c in args.cells if c.key not in sweep.records]
    print(f"{doc['device']}, torch {doc['torch']}, triton {doc['triton']}: {len(args.cells)} "
          f"cells ({len(todo)} to run), estimated {S.estimate_seconds(todo) / 60:.1f} min",
          flush=True)
    path = Path(args.json)
    start = time.perf_counter()
    for cell in todo:
        try:
            rec = run_cell(cell, sweep)
        except SystemExit:
            sweep.running.unlink(missing_ok=True)
            raise
        sweep.records[cell.key] = rec
        print_cell(rec)
        doc["cells"] = list(sweep.records.values())
        doc["seconds"] = round(time.perf_counter() - start, 1)
        write_json(path, doc)
    sweep.running.unlink(missing_ok=True)
    doc["cells"] = list(sweep.records.values())
    write_json(path, doc)
    below, failed = report([sweep.records[c.key] for c in args.cells])
    print(f"{time.perf_counter() - start:.0f} s; {path}")
    return 1 if failed or (args.strict and below) else 0


if __name__ == "__main__":
    sys.exit(main())
