"""Issue 42, item 3: the same grade on any load. A group's share of the time budget is spent
from a ledger of what its cases cost alone (``harness.timing.budget.case_charge``: CPU seconds,
a timeout's limit), so which cases a slow submission gets to run does not depend on what else
the host runs.

A small game assignment graded like a real one: a ``best_move`` group whose student search
(written the way students write it) ignores its depth limit from limit 5 on, so those cases
never finish and the group runs out of its share; a ``moves`` group after it, guaranteed most
of the budget. The ``KEY`` case, a quick one, comes after the costly passing cases, where the
group's share is nearly spent. The submission is graded alone and beside two CPU-burning
processes and must get the same verdicts and score.

For the load to bite, both gradings run on one CPU with the burners, each burner in a session
of its own (``burners``): beside them a case takes about three times as long. Charged by the
wall clock (the charging before the ledger) the cases before ``KEY`` then cost more than the
group's share, and ``KEY`` is not run: this test failed with ``case_charge`` returning the wall
time. The burners run at the usual priority. At the highest (as this test first had them), in
two CI runs, the loaded grading's import check ran out of time and every case was "not run";
it never happened on the development machine, and the likely cause is that such burners also
starve the kernel's own per-CPU work, which the sandbox waits for. No real host puts that load
on a grading.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from harness.grading.grader import Grader
from harness.records.verdicts import Verdict
from harness.spec import load_assignment
from harness.spec.loader import load_all_cases
from harness.timing.budget import TimeShares

pytestmark = pytest.mark.slow

ASSIGNMENT = """\
name: loaddemo
title: Load demo
module: takeaway
api:
  - TakeAway.__init__(self, stones)
  - TakeAway.get_best_move(self, limit)
  - TakeAway.moves(self)
"""
STUDENT = '''\
"""Take-away: take 1, 2 or 3 stones; whoever takes the last stone wins."""
WORK = 30_000
"""How hard my evaluation tries."""


class TakeAway:
    def __init__(self, stones):
        self.stones = stones

    def moves(self):
        return [take for take in (1, 2, 3) if take <= self.stones]

    def evaluate(self):
        """Good for the player to move unless the pile is a multiple of 4 (checked the slow
        way, to be sure)."""
        bad = 0
        for k in range(WORK):
            bad += (self.stones + 4 * k) % 4 == 0
        return -1 if bad else 1

    def value(self, limit):
        if self.stones == 0:
            return -1  # the other player took the last stone
        if limit == 0:
            return self.evaluate()
        below = None if limit is None else limit - 1
        return max(-TakeAway(self.stones - take).value(below) for take in self.moves())

    def get_best_move(self, limit):
        if limit >= 5:
            limit = None  # deep enough to search to the end (it is not, for a big pile)
        best, best_value = None, -2
        for take in self.moves():
            value = -TakeAway(self.stones - take).value(None if limit is None else limit - 1)
            if value > best_value:
                best, best_value = take, value
        return best
'''
PASSING = 14
"""Costly passing cases (limit 4) before ``KEY``."""
KEY = PASSING
"""The quick passing case that comes once the group's share is nearly spent."""
SEARCH_TIMEOUT = 2.0
NEVER_ENDING = ((60, 5), (61, 6), (62, 5), (63, 6), (64, 5), (65, 6))
"""Cases that never finish for this student: the first runs into its full limit, the later
ones get a short probe (``harness.timing.hang_probes``); enough of them that the group's share
runs out before the last, on a slow host too."""
MOVES_TIMEOUT = 600.0
SHARE_PER_CPU_SECOND = 2.2
"""The search group's share over the CPU seconds its passing cases take alone: a case taking
three times as long beside the burners, their wall time is 1.4 times the share."""
BURN_SECONDS = 300
"""A burner ends by itself after this long, should the test die before killing it."""


def best_move(stones: int, limit: int) -> int:
    """The right answer (limit 4 on a pile this size finds the winning take where one exists,
    as the handout's search would)."""
    def value(pile: int, depth: int) -> int:
        if pile == 0:
            return -1
        if depth == 0:
            return -1 if pile % 4 == 0 else 1
        return max(-value(pile - take, depth - 1) for take in (1, 2, 3) if take <= pile)
    best, best_value = 0, -2
    for take in (t for t in (1, 2, 3) if t <= stones):
        if -value(stones - take, limit - 1) > best_value:
            best, best_value = take, -value(stones - take, limit - 1)
    return best


def search_cases() -> str:
    piles = [21 + 4 * (i % 5) + (i % 3) for i in range(PASSING)]
    lines = [f"group: best_move\ndefaults: {{points: 1, visibility: visible, "
             f"timeout: {SEARCH_TIMEOUT}}}\ncases:\n"]
    for i, stones in enumerate(piles):
        lines.append(f"  - name: pile {stones}, limit 4 ({i:02d})\n    doctest: |\n"
                     f"      >>> TakeAway({stones}).get_best_move(4)\n"
                     f"      {best_move(stones, 4)}\n")
    lines.append("  - name: pile 2, limit 1 (the key case)\n    doctest: |\n"
                 f"      >>> TakeAway(2).get_best_move(1)\n      {best_move(2, 1)}\n")
    for stones, limit in NEVER_ENDING:
        lines.append(f"  - name: pile {stones}, limit {limit}\n    doctest: |\n"
                     f"      >>> TakeAway({stones}).get_best_move({limit})\n"
                     f"      {best_move(stones, limit)}\n")
    return "".join(lines)


MOVES_CASES = f"""\
group: moves
defaults: {{points: 1, visibility: visible, timeout: {MOVES_TIMEOUT}}}
cases:
  - name: three stones
    doctest: |
      >>> TakeAway(3).moves()
      [1, 2, 3]
  - name: one stone
    doctest: |
      >>> TakeAway(1).moves()
      [1]
"""


def passing_cpu_seconds(folder: Path) -> float:
    """CPU seconds the student's passing cases take, run here (the sandbox adds a little)."""
    namespace: dict[str, object] = {}
    exec(compile(STUDENT, str(folder / "takeaway.py"), "exec"), namespace)
    started = time.process_time()
    namespace["TakeAway"](22).get_best_move(4)  # type: ignore[operator]
    return (time.process_time() - started) * PASSING


def budget_for(share: float, cases: list, group: str = "best_move") -> float:
    """The budget that guarantees ``group`` ``share`` seconds (``TimeShares``)."""
    low, high = 1.0, 5000.0
    for _ in range(60):
        middle = (low + high) / 2
        low, high = ((middle, high) if TimeShares(middle, cases).groups[group].share < share
                     else (low, middle))
    return high


def write_assignment(root: Path) -> Path:
    (root / "cases").mkdir(parents=True, exist_ok=True)
    (root / "assignment.yaml").write_text(ASSIGNMENT)
    (root / "cases" / "01_best_move.yaml").write_text(search_cases())
    (root / "cases" / "02_moves.yaml").write_text(MOVES_CASES)
    return root


Graded = list[tuple[str, str, float, str]]
"""Each case's name, verdict, score and message; the first entry holds the top of the results
(what blocked many cases is said there once), under the name ``TOP``."""
TOP = "(top of the results)"


def grade(folder: Path, budget: float) -> Graded:
    assignment = load_assignment(write_assignment(folder / "loaddemo"))
    cases = load_all_cases(assignment)
    (folder / "takeaway.py").write_text(STUDENT)
    grader = Grader(assignment, folder / "takeaway.py", budget=budget, planned=cases)
    try:
        results = grader.grade_all(cases, lanes=1)
        top = "\n".join(grader.summary_lines())
    finally:
        grader.close()
    return [(TOP, "", 0.0, top)] + [(r.case.name, r.verdict.name, r.score, r.message)
                                    for r in results]


def differences(loaded: Graded, alone: Graded) -> str:
    """The top of both results and the cases graded differently, with both verdicts and
    messages (what CI shows)."""
    lines = [f"top alone: {alone[0][3][:1500]!r}", f"top loaded: {loaded[0][3][:1500]!r}"]
    lines += [f"{a[0]}: alone {a[1]} {a[2]} ({a[3][:120]!r}); loaded {b[1]} {b[2]} "
              f"({b[3][:120]!r})" for a, b in zip(alone[1:], loaded[1:]) if a[1:3] != b[1:3]]
    return "\n".join(lines)


@contextlib.contextmanager
def on_one_cpu(cpu: int) -> Iterator[None]:
    """Within: this thread, and every process it starts, runs on ``cpu`` (restored after)."""
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, cpus)


def burners(count: int, cpu: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes spinning on ``cpu``, each in a session of its own: where the kernel
    shares a CPU between sessions first ("autogroups", as on this machine), the sandbox, which
    starts its processes in new sessions, would otherwise share it with all of them as one."""
    code = (f"import os, signal; signal.alarm({BURN_SECONDS})\n"
            f"os.sched_setaffinity(0, {{{cpu}}})\n"
            "while True:\n    pass\n")
    return [subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
            for _ in range(count)]


def test_a_slow_submission_scores_the_same_alone_and_beside_busy_processes(
        tmp_path: Path) -> None:
    cases = load_all_cases(load_assignment(write_assignment(tmp_path / "plan" / "loaddemo")))
    passing = passing_cpu_seconds(tmp_path)
    share = max(SHARE_PER_CPU_SECOND * passing, SEARCH_TIMEOUT + 1.0)
    # Not vacuous: the passing cases' cost, not the floor, sets the share (were they quicker,
    # the loaded cases before KEY would fit in the share even charged by the wall clock).
    assert share == SHARE_PER_CPU_SECOND * passing, f"passing cases took {passing:.2f} s"
    budget = budget_for(share, cases)
    cpu = max(os.sched_getaffinity(0))
    with on_one_cpu(cpu):
        alone = grade(tmp_path / "alone", budget)
        busy = burners(2, cpu)
        try:
            loaded = grade(tmp_path / "loaded", budget)
        finally:
            for process in busy:
                process.kill()
                process.wait()
    # A never-ending case may be cut short or not run at the point the share runs out (it
    # scores nothing either way); every case's score, and which cases pass, are the same.
    assert [(name, score) for name, _, score, _ in loaded[1:]] == \
        [(name, score) for name, _, score, _ in alone[1:]], differences(loaded, alone)
    assert [v == Verdict.PASSED.name for _, v, _, _ in loaded[1:]] == \
        [v == Verdict.PASSED.name for _, v, _, _ in alone[1:]], differences(loaded, alone)
    verdicts = [verdict for _, verdict, _, _ in alone[1:]]
    # Not vacuous: every passing case passes, the key case after most of the share is spent,
    # and the never-ending cases use up the rest; the moves group is graded in full.
    assert verdicts[:KEY + 1] == [Verdict.PASSED.name] * (KEY + 1)
    assert Verdict.NOT_RUN.name in verdicts[KEY + 1:-2]
    assert verdicts[-2:] == [Verdict.PASSED.name] * 2
