"""Hypothesis profiles and fixtures of the property tests.

Profiles (TILE_MLIR_HYPOTHESIS picks one; default `ci`):

  ci    a fixed number of examples per test (prop_harness.examples),
        derandomized so that every CI run tries the same inputs; the whole
        folder runs in about three minutes on two cores
  long  ten times as many examples, a fresh random seed each run (printed
        by hypothesis on a failure, with the blob that reproduces it)

TILE_MLIR_PROPERTY_SURVEY=1 records every failing example instead of
stopping at the first (a survey of what is broken, not a test run);
TILE_MLIR_PROPERTY_LOG=FILE appends each distinct failure to FILE (JSON
lines). The session summary prints the examples tried per entry point.
"""

from __future__ import annotations

import os
import tempfile

import pytest

hypothesis = pytest.importorskip(
    "hypothesis", reason="the property tests need hypothesis (pip install -e '.[test]')")

from hypothesis import HealthCheck, settings  # noqa: E402

import prop_harness  # noqa: E402

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.filter_too_much,
                                      HealthCheck.function_scoped_fixture])
settings.register_profile("ci", derandomize=True, **_COMMON)
settings.register_profile("long", derandomize=False, **_COMMON)
PROFILE = prop_harness.PROFILE
settings.load_profile(PROFILE)


@pytest.fixture(scope="session")
def rules() -> frozenset:
    """The rule names docs/rules.md lists."""
    return prop_harness.documented_rules()


@pytest.fixture(scope="session")
def child_env():
    """The environment of the worker and CLI processes: the compile cache
    in a private folder (nothing of the user's is read or written)."""
    folder = tempfile.mkdtemp(prefix="prop-cache-")
    env = dict(os.environ, TILE_MLIR_CACHE_DIR=folder, PYTHONFAULTHANDLER="1")
    yield env


@pytest.fixture(scope="session")
def worker(child_env):
    w = prop_harness.Worker(child_env)
    yield w
    w.stop()


@pytest.fixture(scope="session")
def base_artifact(worker) -> dict:
    """The files of the contract's example's artifact folder."""
    kind, files = worker.call("base_artifact", {})
    assert kind == "ok", files
    return files


def pytest_terminal_summary(terminalreporter):
    record = prop_harness.RECORD
    if not record.tried:
        return
    tr = terminalreporter
    tr.section(f"property examples ({PROFILE} profile)")
    for entry in sorted(record.tried):
        rules = record.rules[entry]
        top = ", ".join(f"{r} {n}" for r, n in rules.most_common(4))
        tr.write_line(f"{entry:18s} tried {record.tried[entry]:5d}  worked "
                      f"{record.worked[entry]:5d}  rules {len(rules):3d}  ({top})")
    if record.failures:
        tr.write_line(f"{len(record.failures)} distinct failures:")
        for key in record.failures:
            tr.write_line(f"  {key}"[:200])
