"""Property tests of the `tile-mlir` command: random argv for every
subcommand (compile, explain, rules, plugin, cache) and garbage, with random
.mlir and .py files and standard input. The property: exit status 0; 1 with
an `error: [rule]` line whose rule docs/rules.md lists; or 2 (usage); never
a traceback, never a signal.

`test_cli_main` calls `tile_mlir.cli.main(argv)` in the worker process (fast:
no interpreter start per example; an abort still kills only the worker);
`test_cli_process` runs `python -m tile_mlir` as a process on fewer
examples, so that the real exit status and signals are seen too.
"""

from __future__ import annotations

from hypothesis import assume, given, settings

import prop_strategies as S
from prop_harness import check_cli, check_cli_result, examples, run_cli_process


@settings(max_examples=examples(500))
@given(spec=S.cli_specs())
def test_cli_main(worker, rules, spec):
    check_cli(worker, rules, spec)


@settings(max_examples=examples(60))
@given(spec=S.cli_specs())
def test_cli_process(child_env, rules, spec):
    # No process can be given an argument holding a NUL byte (exec takes C
    # strings; subprocess raises ValueError before any tile-mlir code runs):
    # test_cli_main passes such arguments to main() itself.
    assume(not any("\x00" in arg for arg in spec["argv"]))
    code, out, err = run_cli_process(spec, child_env)
    check_cli_result(rules, "cli-process", spec, code, out, err)
