"""The fast tier starts no process (tests/gg_tiers.py): a test not marked slow that starts one,
directly or through code that hides the error, fails and says how to mark it."""
from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gg_tiers
import pytest
from gg_testing import run_gamegrader
from gg_tiers import (
    ProcessInFastTier,
    guarded_phase,
    left_out_of_fast_tier,
    no_processes,
    wholly_slow,
)


def test_subprocess_os_system_and_multiprocessing_are_refused_and_recorded():
    with no_processes() as attempts:
        with pytest.raises(ProcessInFastTier, match="not marked slow"):
            subprocess.run([sys.executable, "-c", "pass"])
        with pytest.raises(ProcessInFastTier):
            os.system("true")
        with pytest.raises(ProcessInFastTier):
            multiprocessing.get_context("fork").Process(target=print).start()
    assert attempts == ["Popen._execute_child", "os.system", "os.fork"]


def test_a_kept_grading_is_refused_too():
    """run_gamegrader may answer from a grading kept earlier in the run, starting nothing."""
    with no_processes() as attempts, pytest.raises(ProcessInFastTier):
        run_gamegrader("--help")
    assert attempts == ["run_gamegrader"]


class _Outcome:
    def __init__(self) -> None:
        self.forced: list[BaseException] = []

    def force_exception(self, exc: BaseException) -> None:
        self.forced.append(exc)


def _item(marked: bool) -> Any:
    return SimpleNamespace(nodeid="tests/test_x.py::test_x",
                           get_closest_marker=lambda name: object() if marked else None)


def test_an_unmarked_test_fails_even_when_its_code_swallows_the_refusal():
    phase, outcome = guarded_phase(_item(marked=False)), _Outcome()
    next(phase)
    try:
        subprocess.run(["true"])
    except Exception:  # what a grader's "report any error" handler would do
        pass
    with pytest.raises(StopIteration):
        phase.send(outcome)
    (failure,) = outcome.forced
    assert "Popen._execute_child" in str(failure) and "pytest.mark.slow" in str(failure)


def test_a_quiet_unmarked_phase_passes_and_a_slow_one_is_not_guarded():
    phase, outcome = guarded_phase(_item(marked=False)), _Outcome()
    next(phase)
    with pytest.raises(StopIteration):
        phase.send(outcome)
    assert outcome.forced == []
    depth = len(gg_tiers._attempts)
    phase = guarded_phase(_item(marked=True))
    next(phase)
    assert len(gg_tiers._attempts) == depth  # no guard of its own opened
    with pytest.raises(StopIteration):
        phase.send(_Outcome())


def test_this_module_runs_under_the_guard():
    """Not marked slow, so conftest.py's hooks guard this very test (a process started here
    would fail it)."""
    assert len(gg_tiers._attempts) == 1


WHOLLY_SLOW_MODULES = {
    "pytestmark = pytest.mark.slow\n": True,
    "pytestmark = pytest.mark.slow  # gradings\n": True,
    'pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("g")]\n': True,
    'pytestmark = (pytest.mark.xdist_group("g"), pytest.mark.slow)\n': True,
    'pytestmark = pytest.mark.xdist_group("g")\n': False,
    "@pytest.mark.slow\ndef test_one():\n    pass\n": False,
    '"""pytestmark = pytest.mark.slow"""\n': False,
    "pytestmark = pytest.mark.slow\npytestmark = []\n": False,
    "class TestSome:\n    pytestmark = pytest.mark.slow\n": False,
    "if True:\n    pytestmark = pytest.mark.slow\n": False,
    "def test_one():\n    pass\n": False,
}


@pytest.mark.parametrize("source", WHOLLY_SLOW_MODULES, ids=range(len(WHOLLY_SLOW_MODULES)))
def test_only_a_module_level_slow_mark_makes_a_module_wholly_slow(source, tmp_path):
    """A module the fast tier leaves unimported must have no test the tier would run: only a
    slow mark in the module's own last ``pytestmark`` counts, never one on a test or a class,
    in a string or replaced later."""
    module = tmp_path / "test_module.py"
    module.write_text("import pytest\n" + source, encoding="utf-8")
    assert wholly_slow(module) is WHOLLY_SLOW_MODULES[source]


def test_only_the_fast_tier_leaves_wholly_slow_test_modules_out(tmp_path):
    slow, helper = tmp_path / "test_slow.py", tmp_path / "slow_helpers.py"
    for path in (slow, helper):
        path.write_text("import pytest\npytestmark = pytest.mark.slow\n", encoding="utf-8")

    def config(markexpr: str) -> Any:
        return SimpleNamespace(getoption=lambda name, default=None: markexpr)

    assert left_out_of_fast_tier(slow, config("not slow"))
    assert not left_out_of_fast_tier(slow, config(""))
    assert not left_out_of_fast_tier(slow, config("slow"))
    assert not left_out_of_fast_tier(helper, config("not slow"))  # not a test module
    assert not left_out_of_fast_tier(Path(__file__), config("not slow"))
