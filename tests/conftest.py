"""Shared fixtures: grade a submission black-box through the real command line."""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from gg_cpu_profile import register as register_cpu_profile
from gg_testing import (
    FINISHED_GRADING,
    GRADINGS_ENV,
    LONGEST_TEST_ID,
    run_gamegrader,
    short_parameter_id,
)
from gg_tiers import FAST_TIER, HOW_TO_MARK, guarded_phase, left_out_of_fast_tier


def pytest_configure(config: pytest.Config) -> None:
    """In the controller, before any worker starts: a gamegrader cache folder for this run
    (``GAMEGRADER_CACHE``, inherited by the xdist workers and every grading they start), so
    the suite neither reads nor writes the user's own cache, and every run starts cold; and
    the host's speed measured into it now, while the machine is still quiet, so that every
    grading of the run scales its relative limits by one representative factor (not for the
    fast tier, which grades nothing). With ``GG_TEST_CPU_LOG`` set, each test phase's CPU time
    is measured (gg_cpu_profile)."""
    register_cpu_profile(config)
    if hasattr(config, "workerinput"):
        return
    from harness import paths
    from harness.timing.calibration import find_speed_ahead
    folder = tempfile.mkdtemp(prefix="gamegrader-test-cache-")
    os.environ[paths.CACHE_ENV] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    if config.getoption("markexpr", "") != FAST_TIER:
        find_speed_ahead()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``-m "not slow"``, wholly slow test modules are not imported (gg_tiers)."""
    return True if left_out_of_fast_tier(collection_path, config) else None


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """Short ids for long parameters (``gg_testing.short_parameter_id``)."""
    return short_parameter_id(val)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse over-long test ids and unmarked tests that use ``grade`` (it always grades), and
    run the slow tests' modules first."""
    too_long = [item.nodeid[:120] for item in items if len(item.nodeid) > LONGEST_TEST_ID]
    if too_long:
        raise pytest.UsageError(f"test ids over {LONGEST_TEST_ID} characters (give the "
                                f"parameters ids=): {too_long}")
    unmarked = [item.nodeid for item in items if "grade" in getattr(item, "fixturenames", ())
                and item.get_closest_marker("slow") is None]
    if unmarked:
        raise pytest.UsageError(f"tests using the grade fixture must be slow ({HOW_TO_MARK}): "
                                f"{unmarked[:5]}")
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    # Slow modules first, whole modules kept together (their module fixtures are made once):
    # xdist hands out tests in this order, so the quick ones fill the end of the run instead of
    # one worker finishing a long grading alone.
    items.sort(key=lambda item: item.path not in slow_modules)


# Every phase of a test not marked slow runs with process starts refused (gg_tiers).
pytest_runtest_setup = pytest.hookimpl(hookwrapper=True)(guarded_phase)
pytest_runtest_call = pytest.hookimpl(hookwrapper=True)(guarded_phase)
pytest_runtest_teardown = pytest.hookimpl(hookwrapper=True)(guarded_phase)


@pytest.fixture(scope="session", autouse=True)
def kept_gradings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """One folder per test run, shared by the xdist workers, where ``run_gamegrader`` keeps
    each quiet ``grade`` it ran, so the same files are graded once per run."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    folder = shared / "kept-gradings"
    folder.mkdir(exist_ok=True)
    os.environ[GRADINGS_ENV] = str(folder)


@pytest.fixture
def grade(tmp_path: Path) -> Callable[..., dict[str, Any]]:
    """``grade(assignment, submission_path, budget=None, timeout_cap=None) -> results document``.

    Asserts that the command exited 0 and wrote a results.json; returns it parsed.
    """
    counter = iter(range(10_000))

    def _grade(assignment: str, submission: Path, budget: float | None = None,
               timeout_cap: float | None = None, env: dict[str, str] | None = None
               ) -> dict[str, Any]:
        output = tmp_path / f"results-{next(counter)}.json"
        extra = ["--budget", str(budget)] if budget is not None else []
        extra += ["--timeout-cap", str(timeout_cap)] if timeout_cap is not None else []
        done = run_gamegrader("grade", "--assignment", assignment, "--submission",
                              str(submission), "--output", str(output), "--quiet", *extra,
                              env=env)
        assert done.returncode in FINISHED_GRADING, done.stderr[-3000:]
        return json.loads(output.read_text(encoding="utf-8"))

    return _grade


@pytest.fixture
def mutate(tmp_path: Path) -> Callable[..., Path]:
    """``mutate(base_file, [(old, new), ...], name=None) -> path`` of an edited copy.

    Each ``old`` must occur in the file (so a mutant never silently equals its base).
    """
    def _mutate(base: Path, replacements: list[tuple[str, str]], name: str | None = None) -> Path:
        text = base.read_text(encoding="utf-8")
        for old, new in replacements:
            assert old in text, f"{old!r} is not in {base}"
            text = text.replace(old, new)
        folder = tmp_path / f"mutant-{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        target = folder / (name or base.name)
        target.write_text(text, encoding="utf-8")
        return target

    return _mutate
