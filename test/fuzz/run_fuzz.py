#!/usr/bin/env python3
"""Fuzz driver for `tile.tma_copy`: generator.py cases through tile-opt, the
lowering, the Python builder and (a sample) ptxas.

    python test/fuzz/run_fuzz.py --count 100000 --seed 7 --batch 500
    python test/fuzz/run_fuzz.py --seed 7 --case 4242      # reproduce one case

Per batch of cases (each case one `gpu.module`, joined with `// -----`):

1. `tile-opt -split-input-file` parses and verifies every case. A case is
   accepted when its chunk prints and has no error.
2. `tile-opt -split-input-file --tile-lower-tma` lowers the accepted cases;
   every one must lower without a diagnostic, except for a rule decided
   after verification (LOWERING_RULES: the barrier accounting tile-lower-tma
   runs first), counted as a rejection at lowering.
3. `tile-opt -split-input-file` re-parses what step 1 printed for the
   accepted cases (the printed form must round-trip).
4. A share of the cases is built in-process with `tile_mlir.tma.apply`; its
   verdict (accepted, or the rule of the TileError) must be the textual one.
5. A sample of the accepted cases (1 in --ptx-every, at most --ptx-cap) is
   compiled to PTX and assembled with ptxas for sm_90a and sm_100a (each arch
   the case verifies for; skipped without ptxas). Kernels are launchable:
   the mbarrier is a shared allocation, initialised and armed (so step 2's
   barrier checks judge every phase), run-time i16 operands come from i32
   parameters. A form whose parameter no host can pass (a shared memref or
   an opaque tensor-map pointer as a kernel parameter) must be rejected by
   compile with [kernel-param-type].

Failures: a crash or abort (a signal, or 'Assertion', 'LLVM ERROR', 'PLEASE
submit a bug report', 'Stack dump' in stderr), a hang (--timeout), a
rejection whose diagnostic names no rule of Rules.def (MLIR's own parser
messages are accepted for the `garbage` cases only, see PARSER_MESSAGES), an
accepted case that does not lower or round-trip, a builder verdict that
differs from the textual one, a sampled case that does not compile or
assemble. A batch whose tile-opt crashes or hangs is bisected down to the
case. Each failure prints the seed, the case index and the IR.

Constructed-valid cases the verifier rejects are reported as findings
(`valid_rejected`), not failures: the generator's model of the contract is
approximate.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# generator sits beside this script (Python puts the script's folder first on
# sys.path); tile_mlir comes from PYTHONPATH (build/python_packages).
import generator as G  # noqa: E402
from tile_mlir import contract  # noqa: E402

SPLIT = "// -----\n"
CRASH_MARKERS = ("Assertion", "LLVM ERROR", "PLEASE submit a bug report",
                 "Stack dump")
DIAG = re.compile(r"^<stdin>:(\d+):(\d+): (error|warning|note|remark): (.*)$", re.M)
# A named diagnostic: the rule in brackets right where the dialect puts it
# (verifier: "'tile.x' op [rule] ...", opcode parser: "custom op 'tile.x'
# [rule] ...").
NAMED = re.compile(r"^(?:custom op '[\w.]+' )?(?:'[\w.]+' op )?\[([a-z0-9-]+)\] ")

# Generic MLIR messages accepted for `garbage` cases only (token-level damage
# of the IR text). For `valid` and `mutated` cases any of these is a failure.
# Each group is MLIR itself reporting text that is not IR (groups 1-3, the
# lexer/parser, before any op exists) or an op that does not fit its declared
# ODS signature (group 4): never a contract rule, which the dialect names.
# Any other lexer/parser message is accepted for garbage cases too, but
# counted apart as "unlisted" (see classify); a diagnostic of an op
# ("'x.y' op ...") that names no rule and is not in group 4 always fails.
_OP = r"(?:custom op '[\w.]+' )?"
PARSER_MESSAGES = [
    # 1. Syntax: a token missing, misplaced or malformed (the lexer/parser's
    #    "expected ']'", "expected SSA operand", "expected attribute value",
    #    "expected type", "invalid SSA name", "unbalanced '<' ...", an
    #    unknown dialect or op name made by damaging `tile.tma_copy`, ...).
    (_OP + r"(expected |invalid (SSA name|attribute name|dimension|type identifier"
     r"|block name)|unknown (attribute|type) `.*` in dialect"
     r"|multiple memory spaces specified|operation being parsed with an "
     r"unregistered dialect|.* (type|attribute) created with unregistered dialect"
     r"|unknown LLVM type|duplicate key '\w+' in dictionary attribute"
     r"|unbalanced '.' character|@ identifier expected|unexpected character"
     r"|Dialect `.*' not found for custom op|custom op '[\w.]+' is unknown"
     r"|dialect '\w+' provides no type parsing hook|unterminated"
     r"|unknown escape in string literal|undefined symbol alias"
     r"|failed to parse \w+ parameter"
     r"|element type bitwidth must be a multiple of 8"
     r"|unregistered operation '.*' found in dialect"
     r"|unexpected decimal integer literal for a floating point value"
     r"|missing (left|right) operand of binary operator|use of undeclared identifier"
     r"|successors in non-terminator|invalid SSA value result number"
     r"|elements literal must be a shaped type)",
     "text that is not well-formed IR"),
    # 2. Integer literals too large for their type (box, rank, swizzle,
    #    cta_group, shapes written beyond 64 bits or beyond an i32).
    (_OP + r"(integer constant out of range|integer value too large"
     r"|integer literal not valid for specified type"
     r"|floating point value not valid for specified type)",
     "an integer literal that does not fit its type"),
    # 3. SSA values undefined, or used at a type the op does not declare (the
    #    custom syntax resolves coords/rows/mbar/cta_mask/cache_policy at
    #    their declared types, so a damaged operand list ends here).
    (_OP + r"(use of undeclared SSA value|use of value '.*' expects different type"
     r"|redefinition of SSA value|\d+ operands present, but expected \d+"
     r"|invalid kind of (type|attribute) specified)",
     "an operand that is undefined or has a type outside the op's signature"),
    # 4. The op's declared signature (ODS), checked before its verifier: an
    #    operand of a kind the op never takes (a tensor, an integer for a
    #    memref), an attribute of the wrong kind, a required one missing.
    (_OP + r"'tile\.\w+' op (operand #\d+ must be |attribute '\w+' failed to "
     r"satisfy constraint|requires attribute |operand count|expected \d+ operands?"
     r"|result #\d+ must be |properties? |requires zero results)"
     r"|invalid properties .* for op ",
     "an operand or attribute kind outside the op's declared signature"),
]
PARSER_RES = [(re.compile(p), why) for p, why in PARSER_MESSAGES]


# Every rule of Rules.def (through the generated contract tables).
RULES = set(contract.RULES)
# Rules decided after verification, by the analyses tile-lower-tma runs first
# (tile-check-barriers: the kernel's mbarrier, a shared allocation, is
# initialised, armed and each phase's bytes match): a verified case may be
# rejected there, by name.
LOWERING_RULES = {"barrier-tx-mismatch", "mbarrier-uninitialized", "mbarrier-unarmed"}


def template(msg: str) -> str:
    """A message with its specifics elided (for counting parser messages)."""
    msg = re.sub(r"'[^']*'", "'_'", msg)
    msg = re.sub(r'"[^"]*"', '"_"', msg)
    return re.sub(r"-?\d+", "N", msg)[:120]


# An op's own diagnostic ("'dialect.op' op ..."), as opposed to one of the
# lexer/parser, which reports text before any op exists.
OP_MESSAGE = re.compile(r"^(custom op '[\w.]+' )?'[\w.]+' op ")


def classify(msg: str):
    """('rule', name) | ('parser', template) | ('unnamed', msg).

    'parser' is a message of the lists above, or any other message of MLIR's
    lexer/parser (not an op's diagnostic): the long tail of syntax errors
    token damage can reach. The report counts the unlisted ones apart
    ("parse_errors_unlisted") so that they stay visible."""
    m = NAMED.match(msg)
    if m and m.group(1) in RULES:
        return "rule", m.group(1)
    for rx, _ in PARSER_RES:
        if rx.match(msg):
            return "parser", template(msg)
    if not OP_MESSAGE.match(msg):
        return "parser", "(unlisted) " + template(msg)
    return "unnamed", msg


def crashed(rc: int, stderr: str) -> bool:
    return rc < 0 or rc not in (0, 1) or any(m in stderr for m in CRASH_MARKERS)


# ---------------------------------------------------------------------------
# tile-opt on a batch, bisecting crashes and hangs down to one case.

class TileOpt:
    def __init__(self, path: str, timeout: float):
        self.path = path
        self.timeout = timeout

    def _run(self, texts, args):
        data = SPLIT.join(texts)
        cmd = [self.path, "-split-input-file", "--mlir-disable-threading", *args, "-"]
        for attempt in range(30):
            try:
                return subprocess.run(cmd, input=data, capture_output=True, text=True,
                                      timeout=self.timeout, errors="replace")
            except subprocess.TimeoutExpired:
                return None
            except OSError:  # tile-opt being relinked right now: wait for it
                if attempt == 29:
                    raise
                time.sleep(2)

    def run(self, texts, args=()):
        """Per text: {'errors': [(line, msg)], 'out': str} or
        {'crash': stderr} / {'hang': True}. Lines are 1-based in the text."""
        if not texts:
            return []
        proc = self._run(texts, args)
        if proc is None or crashed(proc.returncode, proc.stderr):
            if len(texts) == 1:
                if proc is None:
                    return [{"hang": True}]
                return [{"crash": f"exit {proc.returncode}\n" + proc.stderr[-6000:]}]
            mid = len(texts) // 2
            return self.run(texts[:mid], args) + self.run(texts[mid:], args)
        starts, line = [], 1
        for t in texts:
            starts.append(line)
            line += t.count("\n") + 1
        results = [{"errors": [], "out": ""} for _ in texts]
        for m in DIAG.finditer(proc.stderr):
            if m.group(3) != "error":
                continue
            ln = int(m.group(1))
            i = bisect.bisect_right(starts, ln) - 1
            results[i]["errors"].append((ln - starts[i] + 1, m.group(4)))
        outs = re.split(r"^// -----\n", proc.stdout, flags=re.M)
        if len(outs) == len(texts):
            for r, o in zip(results, outs):
                r["out"] = o
        else:  # should not happen; keep the verdicts from the diagnostics
            for r in results:
                r["out"] = None
        return results


# ---------------------------------------------------------------------------
# The in-process parts (worker side): builder and PTX.

class Native:
    """MLIR bindings, the tile dialect and the builder, loaded once."""

    def __init__(self):
        import mlir.ir as ir
        from tile_mlir import compiler, kernel, tma
        from tile_mlir.errors import TileError, TileVerifyError
        self.ir, self.tma, self.compiler = ir, tma, compiler
        self.TileError, self.TileVerifyError = TileError, TileVerifyError
        self.make_context = kernel.make_context
        self.ctx = kernel.make_context()
        self.uses = 0

    def context(self):
        """The context, renewed now and then: every case's types and
        attributes stay uniqued in it for its lifetime."""
        self.uses += 1
        if self.uses % 200 == 0:
            self.ctx = self.make_context()
        return self.ctx

    def build(self, case):
        """The builder's verdict: ('ok', None) | ('verify', rule) |
        ('error', rule) | ('exception', text)."""
        ir, b = self.ir, case.builder
        with self.context(), ir.Location.unknown():
            try:
                module = ir.Module.parse(b["skeleton"])
            except Exception as err:  # the skeleton is the generator's
                return "skip", f"skeleton does not parse: {err}"
            func = None
            for gmod in module.body.operations:
                for op in gmod.regions[0].blocks[0].operations:
                    if op.operation.name == "gpu.func" and \
                            ir.StringAttr(op.attributes["sym_name"]).value == b["func"]:
                        func = op
            block = func.regions[0].blocks[0]
            values = {name: block.arguments[i] for i, name in enumerate(b["args"])}
            ops = list(block.operations)
            for name, op in zip(b["defs"], ops):
                values[name] = op.results[0]

            def v(name):
                return None if name is None else values[name]

            buffers = [v(name) for name in G.builder_operands(b)]
            offsets = b.get("offsets")
            try:
                with ir.InsertionPoint.at_block_terminator(block):
                    self.tma.apply(
                        b["opcode"], *buffers, box=b["box"],
                        coords=[v(c) for c in b["coords"]],
                        coord_steps=b["coord_steps"], format=b["format"],
                        swizzle=b["swizzle"], element_strides=b["element_strides"],
                        interleave=b["interleave"], l2_promotion=b["l2_promotion"],
                        oob_fill=b["oob_fill"], mbar=v(b["mbar"]),
                        cta_mask=v(b["cta_mask"]), cache_policy=v(b["cache_policy"]),
                        gather4=(None if b["gather4"] is None
                                 else [v(r) for r in b["gather4"]]),
                        scatter4=(None if b["scatter4"] is None
                                  else [v(r) for r in b["scatter4"]]),
                        pixel_box_lower=b.get("pixel_box_lower"),
                        pixel_box_upper=b.get("pixel_box_upper"),
                        offsets=None if offsets is None else [v(o) for o in offsets],
                        tag=b["tag"])
            except self.TileVerifyError as err:
                return "verify", err.rule
            except self.TileError as err:
                return "error", err.rule
            except Exception:
                return "exception", traceback.format_exc(limit=3)
            return "ok", None

    def ptx(self, case, arches=("sm_90a", "sm_100a")):
        """{arch: 'assembled' | 'skipped:<rule>' | 'rejected:kernel-param-type'
        | 'no-ptxas'} or raises RuntimeError with the reason of a failure.
        A kernel with a parameter no host can pass (case.launchable false)
        must be rejected by compile with [kernel-param-type], and only such
        a kernel."""
        ir, compiler = self.ir, self.compiler
        ptxas = compiler.find_ptxas()
        out = {}
        for arch in arches:
            with self.context(), ir.Location.unknown():
                module = ir.Module.parse(case.text)
                compiler._retarget(module, arch)
                try:
                    module.operation.verify()
                    ok = True
                except ir.MLIRError as err:
                    msgs = [d.message for d in err.error_diagnostics] or [str(err)]
                    kind, rule = classify(msgs[0])
                    if kind != "rule" or not rule.startswith("target-"):
                        raise RuntimeError(f"{arch}: retargeted module fails with "
                                           f"a non-target diagnostic: {msgs[0]}")
                    out[arch] = f"skipped:{rule}"
                    ok = False
            if not ok:
                continue
            try:
                art = compiler.compile(module, arch, cubin=False)
            except self.TileError as err:
                if err.rule == "kernel-param-type" and not case.launchable:
                    out[arch] = "rejected:kernel-param-type"
                    continue
                raise RuntimeError(f"{arch}: compile failed: {err}") from None
            except Exception as err:
                raise RuntimeError(f"{arch}: compile failed: {err}") from None
            if not case.launchable:
                raise RuntimeError(f"{arch}: compile accepted a kernel with a parameter "
                                   "no host can pass (expected [kernel-param-type])")
            if ptxas is None:
                out[arch] = "no-ptxas"
                continue
            try:
                compiler.assemble(art.ptx, arch, ptxas)
            except Exception as err:
                raise RuntimeError(f"{arch}: ptxas failed: {err}") from None
            out[arch] = "assembled"
        return out


def builder_selected(seed: int, index: int, share: float) -> bool:
    return share > 0 and ((index * 2654435761 + seed * 40503) % 10007) < share * 10007


def ptx_selected(seed: int, index: int, every: int) -> bool:
    return every > 0 and ((index * 2246822519 + seed * 3266489917) % 1000003) % every == 0


# ---------------------------------------------------------------------------
# One batch, evaluated (worker side).

def evaluate_batch(tile_opt: TileOpt, native, seed, start, count, opts):
    cases, broken = [], []
    for i in range(start, start + count):
        try:
            cases.append(G.generate(seed, i))
        except Exception:
            broken.append({"seed": seed, "index": i, "what": "generator",
                           "detail": traceback.format_exc(limit=4), "ir": ""})
    texts = [c.text if c.text.endswith("\n") else c.text + "\n" for c in cases]
    res = {"total": len(broken), "accepted": 0, "rejected": collections.Counter(),
           "parser": collections.Counter(), "kinds": collections.Counter(),
           "valid_rejected": collections.Counter(), "lowered": 0,
           "roundtrip": 0, "builder": collections.Counter(), "failures": [],
           "lowering_rejected": collections.Counter(),
           "ptx_candidates": [], "builder_pending": [],
           "valid_rejected_cases": []}
    res["failures"] += broken

    def fail(case, what, detail):
        res["failures"].append({"seed": seed, "index": case.index, "what": what,
                                "kind": case.kind, "mutations": case.mutations,
                                "detail": detail, "ir": case.text,
                                "python": case.python_call()})

    stage1 = tile_opt.run(texts)
    accepted = []
    verdicts = {}
    for case, r in zip(cases, stage1):
        res["total"] += 1
        if "crash" in r or "hang" in r:
            fail(case, "crash" if "crash" in r else "hang",
                 r.get("crash", f"tile-opt ran past {tile_opt.timeout}s"))
            continue
        errors = r["errors"]
        if not errors:
            if r["out"] is not None and not r["out"].strip():
                fail(case, "silent", "tile-opt printed nothing and reported nothing")
                continue
            res["accepted"] += 1
            res["kinds"][case.kind + ":accepted"] += 1
            accepted.append((case, r["out"]))
            verdicts[case.index] = ("ok", None)
            continue
        res["kinds"][case.kind + ":rejected"] += 1
        first = None
        bad = False
        for line, msg in errors:
            kind, what = classify(msg)
            if kind == "parser" and case.kind != "garbage":
                kind = "unnamed"
            if kind == "unnamed":
                fail(case, "unnamed", f"line {line}: {msg}")
                bad = True
                break
            if first is None:
                first = (kind, what)
        if bad:
            continue
        if first[0] == "rule":
            res["rejected"][first[1]] += 1
            if case.kind == "valid":
                res["valid_rejected"][first[1]] += 1
                res["valid_rejected_cases"].append(case.index)
        else:
            res["parser"][first[1]] += 1
        # The copy's own verdict, when it was verified.
        on_copy = [msg for line, msg in errors if line == case.copy_line]
        before = [line for line, _ in errors if line < case.copy_line]
        if on_copy:
            verdicts[case.index] = ("rule", NAMED.match(on_copy[0]).group(1)
                                    if NAMED.match(on_copy[0]) else None)
        elif not before:
            verdicts[case.index] = ("ok", None)

    # Lowering and round trip of the accepted cases.
    if accepted:
        lowered = tile_opt.run([c.text if c.text.endswith("\n") else c.text + "\n"
                                for c, _ in accepted], ["--tile-lower-tma"])
        rejected_late = set()
        for (case, _), r in zip(accepted, lowered):
            named = [classify(m) for _, m in r.get("errors", [])]
            if "crash" in r or "hang" in r:
                fail(case, "lowering-crash" if "crash" in r else "lowering-hang",
                     r.get("crash", "timeout"))
            elif r["errors"] and all(k == "rule" and w in LOWERING_RULES
                                     for k, w in named):
                # The barrier accounting's verdict on a verified kernel.
                rule = named[0][1]
                res["lowering_rejected"][rule] += 1
                res["rejected"][rule] += 1
                if case.kind == "valid":
                    res["valid_rejected"][rule] += 1
                    res["valid_rejected_cases"].append(case.index)
                rejected_late.add(case.index)
            elif r["errors"]:
                fail(case, "lowering", "\n".join(m for _, m in r["errors"]))
            elif r["out"] is not None and not r["out"].strip():
                fail(case, "lowering", "no output and no diagnostic")
            else:
                res["lowered"] += 1
        printed = [out for _, out in accepted]
        if all(p is not None for p in printed):
            again = tile_opt.run(printed)
            for (case, out), r in zip(accepted, again):
                if "crash" in r or "hang" in r or r["errors"]:
                    fail(case, "roundtrip",
                         r.get("crash") or "\n".join(m for _, m in r.get("errors", []))
                         + "\nprinted:\n" + out)
                else:
                    res["roundtrip"] += 1
        for case, _ in accepted:
            if case.index in rejected_late:
                continue
            if case.ptx_ok and ptx_selected(seed, case.index, opts["ptx_every"]):
                res["ptx_candidates"].append(case.index)

    # Builder share.
    for case in cases:
        if case.builder is None or not builder_selected(seed, case.index,
                                                        opts["builder_share"]):
            continue
        if case.index not in verdicts:
            res["builder"]["unverifiable"] += 1
            continue
        if native is None:
            res["builder_pending"].append((case.index, verdicts[case.index]))
            continue
        check_builder(native, case, verdicts[case.index], res, fail)
    return res


def check_builder(native, case, verdict, res, fail):
    got, detail = native.build(case)
    res["builder"]["checked"] += 1
    textual = "accepted" if verdict[0] == "ok" else f"[{verdict[1]}]"
    if got == "skip":
        res["builder"]["skipped"] += 1
        return
    if got == "exception":
        fail(case, "builder", f"apply raised (textual: {textual}):\n{detail}")
        return
    if got in ("verify", "error") and detail not in RULES:
        fail(case, "builder", f"TileError with rule '{detail}' (not in Rules.def); "
                              f"textual: {textual}")
        return
    if verdict[0] == "ok":
        if got != "ok":
            fail(case, "builder", f"builder rejects [{detail}], textual IR is accepted")
            return
    else:
        if got == "ok":
            fail(case, "builder", f"builder accepts, textual IR is rejected {textual}")
            return
        # apply()'s own pre-checks (before the op exists) may name a rule the
        # verifier reaches later; the op's verifier must agree exactly.
        if got == "verify" and detail != verdict[1]:
            fail(case, "builder", f"builder [{detail}] vs textual {textual}")
            return
    res["builder"]["agreed"] += 1


# ---------------------------------------------------------------------------
# Worker process: JSON requests on stdin, one JSON line answer each.

def worker_main(args):
    tile_opt = TileOpt(args.tile_opt, args.timeout)
    native = None
    native_error = None
    opts = {"builder_share": args.builder_share, "ptx_every": args.ptx_every}
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "batch":
            if req.get("builder") and native is None and native_error is None:
                try:
                    native = Native()
                except Exception as err:
                    native_error = f"{type(err).__name__}: {err}"
            res = evaluate_batch(tile_opt, native if req.get("builder") else None,
                                 req["seed"], req["start"], req["count"], opts)
            if native_error:
                res["builder"]["unavailable"] += len(res["builder_pending"])
                res["builder_pending"] = []
            out = {k: (dict(v) if isinstance(v, collections.Counter) else v)
                   for k, v in res.items()}
        elif req["op"] == "builder":
            if native is None:
                native = Native()
            case = G.generate(req["seed"], req["index"])
            res = {"builder": collections.Counter(), "failures": []}

            def fail(c, what, detail):
                res["failures"].append({"seed": req["seed"], "index": c.index,
                                        "what": what, "kind": c.kind,
                                        "mutations": c.mutations, "detail": detail,
                                        "ir": c.text, "python": c.python_call()})
            check_builder(native, case, tuple(req["verdict"]), res, fail)
            out = {"builder": dict(res["builder"]), "failures": res["failures"]}
        elif req["op"] == "ptx":
            if native is None:
                native = Native()
            case = G.generate(req["seed"], req["index"])
            try:
                out = {"ptx": native.ptx(case)}
            except Exception as err:
                out = {"ptx_failure": str(err)}
        else:
            out = {"error": f"unknown request {req['op']}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


class Worker:
    """One worker process; restarted when it dies."""

    def __init__(self, args):
        self.args = args
        self.proc = None

    def start(self):
        env = dict(os.environ)
        pkg = str(Path(self.args.tile_opt).resolve().parents[2])
        env["PYTHONPATH"] = pkg + os.pathsep + env.get("PYTHONPATH", "")
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker",
               "--tile-opt", self.args.tile_opt, "--timeout", str(self.args.timeout),
               "--builder-share", str(self.args.builder_share),
               "--ptx-every", str(self.args.ptx_every)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        threading.Thread(target=self._drain, args=(self.proc,), daemon=True).start()

    @staticmethod
    def _drain(proc):
        proc.stderr_tail = ""
        for line in proc.stderr:
            proc.stderr_tail = (proc.stderr_tail + line)[-8000:]

    def ask(self, req, timeout=None):
        """The answer, or ('died', stderr tail)."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self.proc.wait()
            time.sleep(0.05)
            tail = getattr(self.proc, "stderr_tail", "")
            rc = self.proc.returncode
            self.proc = None
            return None, f"worker exited with {rc}\n{tail}"
        return json.loads(line), None

    def close(self):
        if self.proc and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


# ---------------------------------------------------------------------------
# Parent.

class Totals:
    def __init__(self):
        self.lock = threading.Lock()
        self.total = self.accepted = self.lowered = self.roundtrip = 0
        self.rejected = collections.Counter()
        self.parser = collections.Counter()
        self.kinds = collections.Counter()
        self.valid_rejected = collections.Counter()
        self.lowering_rejected = collections.Counter()
        self.builder = collections.Counter()
        self.ptx = collections.Counter()
        self.ptx_candidates = []
        self.valid_rejected_cases = []
        self.failures = []

    def add(self, res):
        with self.lock:
            for key in ("total", "accepted", "lowered", "roundtrip"):
                setattr(self, key, getattr(self, key) + res.get(key, 0))
            for key in ("rejected", "parser", "kinds", "valid_rejected", "builder",
                        "lowering_rejected"):
                getattr(self, key).update(res.get(key, {}))
            self.ptx_candidates += res.get("ptx_candidates", [])
            self.valid_rejected_cases += res.get("valid_rejected_cases", [])
            self.failures += res.get("failures", [])


def run(args) -> dict:
    t0 = time.time()
    totals = Totals()
    tasks: queue.Queue = queue.Queue()
    batches = [(s, min(args.batch, args.start + args.count - s))
               for s in range(args.start, args.start + args.count, args.batch)]
    for start, count in batches:
        tasks.put({"op": "batch", "seed": args.seed, "start": start, "count": count,
                   "builder": args.builder_share > 0})
    done = [0]
    progress_lock = threading.Lock()

    def handle(worker: Worker, req):
        out, died = worker.ask(req)
        if req["op"] == "batch":
            if died is None:
                totals.add(out)
            elif req.get("builder"):
                # Something in-process killed the worker: redo the batch
                # without the builder, then each builder case on its own.
                again = dict(req, builder=False)
                out, died2 = worker.ask(again)
                if died2:
                    totals.add({"failures": [{"seed": args.seed, "index": req["start"],
                                              "what": "worker", "detail": died2,
                                              "ir": ""}]})
                    return
                pending = out.pop("builder_pending", [])
                totals.add(out)
                for index, verdict in pending:
                    o, d = worker.ask({"op": "builder", "seed": args.seed,
                                       "index": index, "verdict": verdict})
                    if d:
                        case = G.generate(args.seed, index)
                        totals.add({"builder": {"checked": 1}, "failures": [{
                            "seed": args.seed, "index": index, "what": "builder-crash",
                            "kind": case.kind, "mutations": case.mutations,
                            "detail": d, "ir": case.text, "python": case.python_call()}]})
                    else:
                        totals.add(o)
            else:
                totals.add({"failures": [{"seed": args.seed, "index": req["start"],
                                          "what": "worker", "detail": died, "ir": ""}]})
            with progress_lock:
                done[0] += req["count"]
                if args.progress and sys.stderr.isatty():
                    print(f"\r{done[0]}/{args.count} cases, {time.time() - t0:.0f}s",
                          end="", file=sys.stderr, flush=True)
        elif req["op"] == "ptx":
            case = G.generate(args.seed, req["index"])
            if died or "ptx_failure" in out:
                totals.add({"failures": [{
                    "seed": args.seed, "index": req["index"], "what": "ptx",
                    "kind": case.kind, "mutations": case.mutations,
                    "detail": died or out["ptx_failure"], "ir": case.text,
                    "python": case.python_call()}]})
            else:
                with totals.lock:
                    totals.ptx["sampled"] += 1
                    for arch, status in out["ptx"].items():
                        totals.ptx[f"{arch}:{status}"] += 1
                        if status == "assembled":
                            totals.ptx["assembled"] += 1

    def loop(worker):
        while True:
            try:
                req = tasks.get_nowait()
            except queue.Empty:
                return
            try:
                handle(worker, req)
            except Exception:
                totals.add({"failures": [{"seed": args.seed, "index": req.get("start", req.get("index")),
                                          "what": "driver", "detail": traceback.format_exc(),
                                          "ir": ""}]})

    workers = [Worker(args) for _ in range(args.jobs)]

    def drain_queue():
        threads = [threading.Thread(target=loop, args=(w,)) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    drain_queue()
    t_cases = time.time() - t0
    if args.progress and sys.stderr.isatty():
        print(file=sys.stderr)
    # The PTX sample: the first --ptx-cap candidates by index.
    cands = sorted(totals.ptx_candidates)
    sample = []
    if args.ptx_cap > 0 and cands:   # spread over the run
        step = max(1, len(cands) / args.ptx_cap)
        sample = sorted({cands[int(i * step)] for i in range(min(args.ptx_cap, len(cands)))})
    for index in sample:
        tasks.put({"op": "ptx", "seed": args.seed, "index": index})
    drain_queue()
    for w in workers:
        w.close()
    wall = time.time() - t0
    return {
        "seed": args.seed, "start": args.start, "count": args.count,
        "batch": args.batch, "jobs": args.jobs,
        "total": totals.total, "accepted": totals.accepted,
        "accepted_fraction": round(totals.accepted / max(1, totals.total), 4),
        "rejected": sum(totals.rejected.values()) + sum(totals.parser.values()),
        "rejected_per_rule": dict(sorted(totals.rejected.items(), key=lambda x: -x[1])),
        "parse_errors": sum(totals.parser.values()),
        "parse_errors_unlisted": sum(n for k, n in totals.parser.items()
                                     if k.startswith("(unlisted)")),
        "parse_error_messages": dict(totals.parser.most_common()),
        "by_kind": dict(sorted(totals.kinds.items())),
        "valid_rejected": dict(totals.valid_rejected.most_common()),
        "valid_rejected_cases": sorted(totals.valid_rejected_cases)[:50],
        "lowered": totals.lowered, "roundtrip": totals.roundtrip,
        "lowering_rejected": dict(totals.lowering_rejected),
        "builder": dict(totals.builder),
        "ptx": dict(totals.ptx), "assembled": totals.ptx.get("assembled", 0),
        "ptx_candidates": len(totals.ptx_candidates),
        "failures": len(totals.failures),
        "failure_list": totals.failures,
        "seconds_cases": round(t_cases, 1), "seconds": round(wall, 1),
    }


def print_report(r: dict, out=sys.stdout):
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"tile.tma_copy fuzz: seed {r['seed']}, cases {r['start']}..{r['start'] + r['count'] - 1}, "
      f"batch {r['batch']}, {r['jobs']} jobs, {r['seconds']}s")
    p(f"  total {r['total']}  accepted {r['accepted']} ({100 * r['accepted_fraction']:.1f}%)  "
      f"rejected {r['rejected']}  parse errors {r['parse_errors']} "
      f"({r['parse_errors_unlisted']} unlisted)")
    p(f"  lowered {r['lowered']}  rejected when lowering "
      f"{sum(r['lowering_rejected'].values())} {r['lowering_rejected']}  "
      f"round-tripped {r['roundtrip']}  "
      f"assembled {r['assembled']} (sampled {r['ptx'].get('sampled', 0)} of "
      f"{r['ptx_candidates']} candidates)")
    p(f"  builder {r['builder']}")
    p(f"  by kind {r['by_kind']}")
    p("  rejected per rule:")
    for rule, n in r["rejected_per_rule"].items():
        p(f"    {n:7d}  {rule}")
    if r["parse_error_messages"]:
        p("  parse errors (garbage cases):")
        for msg, n in list(r["parse_error_messages"].items())[:40]:
            p(f"    {n:7d}  {msg}")
    if r["valid_rejected"]:
        p(f"  findings: constructed-valid cases rejected: {r['valid_rejected']} "
          f"(cases {r['valid_rejected_cases'][:10]})")
    if r["ptx"]:
        p(f"  ptx: {r['ptx']}")
    p(f"  failures: {r['failures']}")
    for f in r["failure_list"][:20]:
        p("=" * 78)
        p(f"FAILURE {f['what']}: seed {f['seed']} case {f['index']} "
          f"({f.get('kind', '?')}: {', '.join(f.get('mutations', [])) or 'none'})")
        p(f"reproduce: python test/fuzz/run_fuzz.py --seed {f['seed']} --case {f['index']}")
        p(str(f["detail"]).rstrip())
        if f.get("ir"):
            p("--- IR ---")
            p(f["ir"].rstrip())
        if f.get("python"):
            p("--- builder ---")
            p(f["python"])
    if r["failures"] > 20:
        p(f"... and {r['failures'] - 20} more failures")


def one_case(args) -> int:
    """Prints case --case and runs it through every stage in this process."""
    case = G.generate(args.seed, args.case)
    print(f"// seed {args.seed} case {args.case}: {case.kind} "
          f"({', '.join(case.mutations) or 'no mutation'}), {case.style} form, "
          f"copy on line {case.copy_line}")
    print(case.text)
    if case.builder:
        print("// builder: " + case.python_call())
    tile_opt = TileOpt(args.tile_opt, args.timeout)
    native = None
    try:
        native = Native()
    except Exception as err:
        print(f"// (no in-process builder: {err})")
    opts = {"builder_share": 1.0, "ptx_every": 1}
    res = evaluate_batch(tile_opt, native, args.seed, args.case, 1, opts)
    stage1 = tile_opt.run([case.text if case.text.endswith("\n") else case.text + "\n"])[0]
    print("// tile-opt:", "accepted" if not stage1.get("errors") and "crash" not in stage1
          else stage1)
    print("// builder:", dict(res["builder"]))
    if res["ptx_candidates"] and native is not None:
        try:
            print("// ptx:", native.ptx(case))
        except Exception as err:
            res["failures"].append({"seed": args.seed, "index": args.case, "what": "ptx",
                                    "detail": str(err), "ir": ""})
    for f in res["failures"]:
        print(f"FAILURE {f['what']}: {f['detail']}")
    return 1 if res["failures"] else 0


def main(argv=None) -> int:
    pkg = ROOT / "build" / "python_packages" / "tile_mlir"
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=None,
                    help="default: $TILE_FUZZ_SEED or a fresh one (printed)")
    ap.add_argument("--start", type=int, default=0, help="first case index")
    ap.add_argument("--batch", type=int, default=500, help="cases per tile-opt run")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--builder-share", type=float, default=0.1,
                    help="fraction of cases also built with tma.apply")
    ap.add_argument("--ptx-every", type=int, default=200,
                    help="compile 1 in N accepted cases to PTX and ptxas")
    ap.add_argument("--ptx-cap", type=int, default=40, help="at most this many")
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds for one tile-opt run (a hang past it fails)")
    ap.add_argument("--tile-opt", default=str(pkg / "bin" / "tile-opt"))
    ap.add_argument("--json", help="write the report (with failures) here")
    ap.add_argument("--case", type=int, help="run this one case verbosely")
    ap.add_argument("--progress", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker_main(args)
        return 0
    if args.seed is None:
        env = os.environ.get("TILE_FUZZ_SEED")
        args.seed = int(env) if env else int.from_bytes(os.urandom(3), "little")
    if not Path(args.tile_opt).exists():
        print(f"tile-opt not found at {args.tile_opt} (build first)", file=sys.stderr)
        return 2
    if args.case is not None:
        return one_case(args)
    print(f"seed {args.seed}", flush=True)
    report = run(args)
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
