"""The project's test suite as one pytest plugin (registered by the repository's conftest.py),
for both places its tests live: ``tests/`` and each assignment's ``assignments/NAME/tests/``.

Its fixtures grade a submission black-box through the real command line; its hooks (a cache
folder per run, the fast tier's guard, short ids, slow modules first) act only on those tests.
A course-suite run from the repository (``pytest -p harness.pytest_plugin assignments/NAME``,
docs/native_suites.md) is not the project's suite: the plugin leaves it exactly as it was
without it (it collects the folder's cases, not its tests/; tests/test_suite_plugin.py).
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Generator

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

REPOSITORY = Path(__file__).resolve().parent.parent
COURSE_SUITE = "harness.pytest_plugin"
"""The plugin of a course-suite run (``-p harness.pytest_plugin``)."""


def is_course_run(config: pytest.Config) -> bool:
    """Whether this run grades a course suite rather than running the project's tests."""
    return config.pluginmanager.has_plugin(COURSE_SUITE)


def is_project_test(path: Path) -> bool:
    """Whether ``path`` is in the project's suite: under ``tests/`` or an assignment's
    ``assignments/NAME/tests/``."""
    try:
        parts = path.resolve().relative_to(REPOSITORY).parts
    except ValueError:
        return False
    return parts[:1] == ("tests",) or (parts[:1] == ("assignments",) and parts[2:3] == ("tests",))


def pytest_configure(config: pytest.Config) -> None:
    """In the controller, before any worker starts: a gamegrader cache folder for this run
    (``GAMEGRADER_CACHE``, inherited by the xdist workers and every grading they start), so
    the suite neither reads nor writes the user's own cache, and every run starts cold; and
    the host's speed measured into it now, while the machine is still quiet, so that every
    grading of the run scales its relative limits by one representative factor (not for the
    fast tier, which grades nothing). With ``GG_TEST_CPU_LOG`` set, each test phase's CPU time
    is measured (gg_cpu_profile). None of this in a course-suite run."""
    if is_course_run(config):
        return
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
    """With ``-m "not slow"``, wholly slow test modules are not imported (gg_tiers); a
    course-suite run collects no assignment folder's tests/ (the project's, not the course's)."""
    if is_course_run(config):
        return True if is_project_test(collection_path) else None
    return True if left_out_of_fast_tier(collection_path, config) else None


def pytest_make_parametrize_id(config: pytest.Config, val: object, argname: str) -> str | None:
    """Short ids for long parameters (``gg_testing.short_parameter_id``)."""
    return None if is_course_run(config) else short_parameter_id(val)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse over-long test ids and unmarked tests that use ``grade`` (it always grades), and
    run the slow tests' modules first (only the project's tests: a course-suite run's cases keep
    their order)."""
    if is_course_run(config):
        return
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


def _guarded_project_phase(item: pytest.Item) -> Generator[None, Any, None]:
    """Every phase of a project test not marked slow runs with process starts refused
    (gg_tiers); a course-suite run's cases start their gradings as they always did."""
    if not is_project_test(item.path):
        yield
        return
    yield from guarded_phase(item)


pytest_runtest_setup = pytest.hookimpl(hookwrapper=True)(_guarded_project_phase)
pytest_runtest_call = pytest.hookimpl(hookwrapper=True)(_guarded_project_phase)
pytest_runtest_teardown = pytest.hookimpl(hookwrapper=True)(_guarded_project_phase)


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
