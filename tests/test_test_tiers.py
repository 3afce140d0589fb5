"""The fast tier starts no process (tests/gg_tiers.py): a test not marked slow that starts one,
directly or through code that hides the error, fails and says how to mark it."""
from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import gg_tiers
import pytest
from gg_testing import run_gamegrader
from gg_tiers import ProcessInFastTier, guarded_phase, no_processes


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
