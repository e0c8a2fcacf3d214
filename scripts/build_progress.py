"""Runs a build command, keeps its whole output in a log and shows its progress.

    python scripts/build_progress.py --log build/last-build.log --prefix setup \
        --what "building build/" --done "built ..." --uptodate "build/ is up to date" \
        -- cmake --build build

Ninja's status lines (`[k/N] ...`, with NINJA_STATUS set to that form) drive
the display: on a terminal one line, rewritten in place; otherwise a line
every 10% of the steps, so a CI log shows the build moving. Nothing else of
the output is shown while it runs: it goes to the log. A command that runs
no step (only ninja's glob check) prints the --uptodate line alone. On
failure the output's lines other than the status lines (the errors, the
warnings, ninja's FAILED blocks) go to standard error, then the log's path;
the exit status is the command's.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

STATUS = re.compile(r"^\s*\[(\d+)/(\d+)\]\s*(.*)$")
# ninja's own bookkeeping, not build steps: the glob check runs on every
# build; after CMake re-runs, ninja plans the build again with a new total.
BOOKKEEPING = ("Re-checking globbed directories", "Re-running CMake")


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


class Display:
    """The one-line (terminal) or every-10% (log) progress display."""

    def __init__(self, prefix: str, what: str, note: str, log: str):
        self.prefix, self.what, self.note, self.log = prefix, what, note, log
        self.tty = sys.stdout.isatty()
        self.start = time.monotonic()
        self.steps = 0          # N of the last status line (ninja may re-plan)
        self.started = False    # a real step was seen
        self.next_tenth = 1     # print when done/total reaches next_tenth/10
        self.line_open = False

    def elapsed(self) -> str:
        return _clock(time.monotonic() - self.start)

    def status(self, done: int, total: int, text: str) -> None:
        if text.startswith("Re-running CMake"):
            self._print(f"{self.prefix}: re-running CMake (a CMake input changed)")
        if any(text.startswith(b) for b in BOOKKEEPING):
            return
        if total != self.steps:   # a new plan: count its tenths afresh
            self.next_tenth = done * 10 // total + 1
        self.steps = total
        if not self.started:
            self.started = True
            note = f"; {self.note}" if self.note else ""
            self._print(f"{self.prefix}: {self.what}: {total} steps on "
                        f"{os.cpu_count()} cores{note} (log: {self.log})")
        if self.tty:
            width = shutil.get_terminal_size((100, 20)).columns - 1
            line = f"{self.prefix}: [{done}/{total}] {self.elapsed()} {text}"
            sys.stdout.write("\r\033[K" + line[:width])
            sys.stdout.flush()
            self.line_open = True
        elif total and done * 10 >= self.next_tenth * total:
            self.next_tenth = done * 10 // total + 1
            self._print(f"{self.prefix}: {done * 100 // total}% "
                        f"({done}/{total} steps, {self.elapsed()})")

    def _print(self, line: str, stream=None) -> None:
        self.close()
        print(line, file=stream or sys.stdout, flush=True)

    def close(self) -> None:
        if self.line_open:
            sys.stdout.write("\r\033[K")
            sys.stdout.flush()
            self.line_open = False


def main() -> int:
    """Runs the command after `--`, logging and showing its progress; its exit status."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--log", required=True, help="file for the command's whole output")
    parser.add_argument("--prefix", default="build", help="the word each line starts with")
    parser.add_argument("--what", default="building", help="what the command does")
    parser.add_argument("--note", default="", help="added to the first progress line")
    parser.add_argument("--done", default="done", help="the last line after a build")
    parser.add_argument("--uptodate", default="", help="the only line when no step ran")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given (after --)")

    env = dict(os.environ, NINJA_STATUS="[%f/%t] ")
    shown = Display(args.prefix, args.what, args.note, args.log)
    other = []   # the lines that are not status lines: shown on failure
    with open(args.log, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                env=env)
        try:
            for raw in proc.stdout:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                log.write(line + "\n")
                m = STATUS.match(line)
                if m:
                    shown.status(int(m.group(1)), int(m.group(2)), m.group(3))
                elif line.strip():
                    other.append(line)
            code = proc.wait()
        except KeyboardInterrupt:
            proc.wait()
            shown.close()
            return 130
    shown.close()
    if code != 0:
        sys.stderr.write("\n".join(other[-200:]) + "\n")
        shown._print(f"{args.prefix}: FAILED after {shown.elapsed()} (exit {code}); "
                     f"the whole output: {args.log}", sys.stderr)
        return code
    if shown.started:
        shown._print(f"{args.prefix}: {args.done} ({shown.steps} steps in {shown.elapsed()})")
    elif args.uptodate:
        shown._print(f"{args.prefix}: {args.uptodate}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
