"""The pytest side of the property tests: the worker process, the rule
names of docs/rules.md, and the one property every entry point has.

The property: a call either works, or raises a TileError whose `.rule` is
a name docs/rules.md lists; the process never dies (an abort, a signal)
and never hangs past TIMEOUT_S. For the CLI: exit status 0, 1 with an
`error: [rule]` line naming a listed rule, or 2 (usage); never a traceback.
One exception is let through: an argument's own method raising (an
iterable that fails part-way), which is the caller's error, passed on.

The rule names are read from docs/rules.md's tables (the generated
document users read), not from the code under test.
"""

from __future__ import annotations

import collections
import json
import os
import pickle
import re
import select
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
TIMEOUT_S = float(os.environ.get("TILE_MLIR_PROPERTY_TIMEOUT", "60"))
PROFILE = os.environ.get("TILE_MLIR_HYPOTHESIS", "ci")


def examples(n: int) -> int:
    """Examples a test tries: `n` in the ci profile, ten times `n` in long."""
    return n * 10 if PROFILE == "long" else n

# A table row of docs/rules.md: | `name` | text |
_ROW = re.compile(r"^\|\s*`([a-z0-9-]+)`\s*\|")
# The CLI's diagnostic line: "... error: [rule] message".
_CLI_ERROR = re.compile(r"error: \[([a-z0-9-]+)\]")


def documented_rules(path: Path = RULES_DOC) -> frozenset:
    """Every rule name in a table of docs/rules.md."""
    names = {m.group(1) for line in path.read_text().splitlines()
             if (m := _ROW.match(line))}
    assert len(names) > 50, f"{path}: found only {len(names)} rule rows"
    return frozenset(names)


class WorkerDied(Exception):
    """The worker process ended (a signal, an exit) or hung during a call."""


class Worker:
    """One prop_worker.py child; restarted after it dies."""

    def __init__(self, env: dict):
        self.env = env
        self.proc = None
        self.log = tempfile.NamedTemporaryFile(prefix="prop-worker-", suffix=".log",
                                               delete=False)
        self.starts = 0

    def _start(self):
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "prop_worker.py"), str(to_child_r),
             str(from_child_w)], pass_fds=(to_child_r, from_child_w),
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, env=self.env)
        os.close(to_child_r)
        os.close(from_child_w)
        self.wfd, self.rfd = to_child_w, from_child_r
        self.starts += 1

    def stop(self):
        if self.proc is not None:
            for fd in (self.wfd, self.rfd):
                os.close(fd)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def _log_tail(self) -> str:
        self.log.flush()
        data = Path(self.log.name).read_bytes()
        return data[-3000:].decode("utf-8", "replace")

    def _read(self, n: int, deadline: float) -> bytes:
        data = b""
        while len(data) < n:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.rfd], [], [], max(left, 0))
            if not ready:
                raise WorkerDied(f"no answer within {TIMEOUT_S:.0f} s (hung)")
            chunk = os.read(self.rfd, n - len(data))
            if not chunk:
                raise WorkerDied("the worker process ended")
            data += chunk
        return data

    def call(self, entry: str, spec) -> tuple:
        """("ok", result), ("raised", info) or ("died", info)."""
        if self.proc is None or self.proc.poll() is not None:
            self.stop() if self.proc is not None else None
            self._start()
        os.truncate(self.log.name, 0)
        self.log.seek(0)
        payload = pickle.dumps((entry, spec))
        try:
            os.write(self.wfd, struct.pack(">I", len(payload)) + payload)
            deadline = time.monotonic() + TIMEOUT_S
            size = struct.unpack(">I", self._read(4, deadline))[0]
            return pickle.loads(self._read(size, deadline))
        except (WorkerDied, BrokenPipeError) as err:
            self.proc.kill()
            code = self.proc.wait()
            info = {"why": str(err), "returncode": code, "log": self._log_tail()}
            self.stop()
            return ("died", info)


class Record:
    """Examples tried and bad outcomes seen, per entry point, for the
    session summary and the failure log (TILE_MLIR_PROPERTY_LOG)."""

    def __init__(self):
        self.tried = collections.Counter()
        self.worked = collections.Counter()
        self.rules = collections.defaultdict(collections.Counter)
        self.failures = {}  # signature -> first example

    def add(self, entry: str, outcome: str, rule: str | None = None):
        self.tried[entry] += 1
        if outcome == "ok":
            self.worked[entry] += 1
        elif rule:
            self.rules[entry][rule] += 1

    def fail(self, entry: str, signature: str, spec, detail: str):
        key = f"{entry}: {signature}"
        if key not in self.failures:
            self.failures[key] = {"entry": entry, "signature": signature,
                                  "spec": repr(spec)[:3000], "detail": detail[-3000:]}
            path = os.environ.get("TILE_MLIR_PROPERTY_LOG")
            if path:
                with open(path, "a") as f:
                    f.write(json.dumps(self.failures[key]) + "\n")


RECORD = Record()


def _signature_of_traceback(tb: str) -> str:
    """The innermost tile_mlir frame and the exception line: one failure's
    identity, so that examples hitting the same bug count once."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', tb)
    ours = [f for f in frames if "tile_mlir" in f[0] and "prop_worker" not in f[0]]
    where = ours[-1] if ours else (frames[-1] if frames else ("?", "?", "?"))
    if frames and "prop_worker" in frames[-1][0]:
        where = frames[-1]  # raised by the harness itself, not by tile_mlir
    last = tb.strip().splitlines()[-1] if tb.strip() else "?"
    exc = last.split(":")[0]
    return f"{exc} at {Path(where[0]).name}:{where[1]} ({where[2]})"


def _own_exception(info) -> bool:
    """The exception an argument's own method raised (prop_worker's _BadLen
    and _BadIter: len() or iteration fails), passed on unchanged: the
    caller's error, which the API need not rename."""
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', info["traceback"])
    return (info["type"] == "builtins.RuntimeError" and info["message"] in ("len", "iter")
            and bool(frames) and frames[-1][0].endswith("prop_worker.py")
            and frames[-1][1] in ("__len__", "__iter__"))


def check(worker: Worker, rules: frozenset, entry: str, spec) -> None:
    """Calls `entry` with `spec` in the worker and asserts the property."""
    kind, info = worker.call(entry, spec)
    if kind == "ok":
        RECORD.add(entry, "ok")
        return
    if kind == "raised" and info["tile_error"] and info["rule"] in rules:
        RECORD.add(entry, "rejected", info["rule"])
        return
    if kind == "raised" and _own_exception(info):
        RECORD.add(entry, "rejected", "the argument's own exception")
        return
    RECORD.add(entry, "failed")
    if kind == "died":
        signature = f"process died: {info['why']} (returncode {info['returncode']})"
        detail = info["log"]
    elif info["tile_error"]:
        signature = f"TileError with rule [{info['rule']}], not in docs/rules.md"
        detail = info["traceback"]
    else:
        signature = _signature_of_traceback(info["traceback"])
        detail = info["traceback"]
    RECORD.fail(entry, signature, spec, detail)
    if os.environ.get("TILE_MLIR_PROPERTY_SURVEY") == "1":
        return  # the survey lists every failure instead of stopping at one
    raise AssertionError(f"{entry}: {signature}\nspec: {spec!r}"[:4000] + "\n" + detail)


def check_cli_result(rules: frozenset, entry: str, spec, code, stdout: str,
                     stderr: str) -> None:
    """The CLI's property on one run's exit status and output."""
    problem = None
    if "Traceback (most recent call last)" in stderr or code == "traceback":
        problem = "traceback: " + _signature_of_traceback(stderr)
    elif isinstance(code, int) and code < 0:
        problem = f"killed by signal {-code}"
    elif code == 1:
        named = _CLI_ERROR.findall(stderr)
        if not named:
            line = next((ln for ln in stderr.splitlines() if "error" in ln), stderr[:200])
            problem = "exit 1 without an error: [rule] line: " + re.sub(
                r"'[^']*'|\"[^\"]*\"|\d+", "…", line)[:160]
        elif not all(r in rules for r in named):
            problem = f"exit 1 naming rules not in docs/rules.md: {sorted(set(named))}"
    elif code not in (0, 2):
        problem = f"exit status {code!r}"
    if problem is None:
        RECORD.add(entry, "ok" if code == 0 else "rejected",
                   None if code == 0 else (_CLI_ERROR.findall(stderr) or ["usage"])[0])
        return
    RECORD.add(entry, "failed")
    RECORD.fail(entry, problem, spec, stderr)
    if os.environ.get("TILE_MLIR_PROPERTY_SURVEY") == "1":
        return
    raise AssertionError(f"{entry}: {problem}\nargv/spec: {spec!r}"[:4000]
                         + f"\nstderr:\n{stderr[-3000:]}")


def check_cli(worker: Worker, rules: frozenset, spec) -> None:
    """`tile-mlir` main() in the worker (a fresh folder, files and stdin
    from `spec`)."""
    kind, info = worker.call("cli", spec)
    if kind == "ok":
        check_cli_result(rules, "cli", spec, info["code"], info["stdout"], info["stderr"])
    elif kind == "died":
        RECORD.add("cli", "failed")
        signature = f"process died: {info['why']} (returncode {info['returncode']})"
        RECORD.fail("cli", signature, spec, info["log"])
        if os.environ.get("TILE_MLIR_PROPERTY_SURVEY") != "1":
            raise AssertionError(f"cli: {signature}\nspec: {spec!r}"[:4000] + info["log"])
    else:  # the harness itself failed (cannot happen: run_cli catches all)
        raise AssertionError(f"cli harness: {info}")


def run_cli_process(spec, env: dict) -> tuple:
    """`python -m tile_mlir ARGV` as a real process: (status, stdout, stderr);
    a signal shows as a negative status."""
    with tempfile.TemporaryDirectory(prefix="prop-cli-") as tmp:
        (Path(tmp) / "folder").mkdir()
        for name, data in spec["files"].items():
            (Path(tmp) / name).write_bytes(data)
        try:
            proc = subprocess.run([sys.executable, "-m", "tile_mlir", *spec["argv"]],
                                  input=spec.get("stdin", b""), capture_output=True,
                                  cwd=tmp, env=env, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "hung", "", f"no exit within {TIMEOUT_S:.0f} s"
        return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
                proc.stderr.decode("utf-8", "replace"))
