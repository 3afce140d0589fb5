"""Class 5 of issue 18: one slow group must not starve the rest. The run's budget is shared
between case groups (``harness.timing.budget``): each case's timeout is capped by what its group may
still spend, and every group runs at least once.

The rules are checked on a fake clock (no timing in these unit tests); end to end, honest files
whose ``scramble`` never finishes still get their ``is_solved`` group graded exactly as the
reference's.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gradingfair_support import grade_variant, per_case, reference_fixture

from harness.records.spec import Case, Visibility
from harness.timing.budget import MIN_GROUP_SECONDS, TimeShares, case_charge

pytestmark = pytest.mark.slow


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def case(group: str, number: int, timeout: float = 10.0) -> Case:
    return Case(id=f"{group}-{number}", number=str(number), group=group, name=str(number),
                points=1.0, visibility=Visibility.VISIBLE, timeout=timeout,
                file=Path(f"{group}.yaml"), examples=())


def spend(shares: TimeShares, clock: FakeClock, graded: Case, seconds: float) -> None:
    clock.now += seconds
    shares.record(graded, seconds)


def test_a_group_whose_cases_all_time_out_leaves_the_others_their_share() -> None:
    clock = FakeClock()
    slow = [case("search", i) for i in range(10)]
    games = [case("games", i) for i in range(2)]
    shares = TimeShares(60.0, slow + games, clock=clock)
    spent = 0.0
    for item in slow:
        allowance = shares.allowance(item)
        if allowance < 0.5:
            break
        timeout = min(item.timeout, allowance)
        spend(shares, clock, item, timeout)  # every search case runs into its timeout
        spent += timeout
    # Each group's first case (10 s) is guaranteed; the other 40 s are shared 90:10, in
    # proportion to what the groups may take beyond that.
    assert spent == pytest.approx(10 + 36)
    assert shares.allowance(games[0]) == pytest.approx(10 + 4)


def test_time_a_fast_group_leaves_unused_flows_to_the_others() -> None:
    clock = FakeClock()
    fast = [case("fast", i) for i in range(5)]
    slow = [case("slow", i) for i in range(5)]
    shares = TimeShares(50.0, fast + slow, clock=clock)
    for item in fast:
        spend(shares, clock, item, 0.5)
    assert shares.allowance(slow[0]) == pytest.approx(47.5)


def test_every_group_is_guaranteed_its_first_case() -> None:
    clock = FakeClock()
    big = [case("big", i) for i in range(1000)]
    small = [case("small", 0, timeout=5.0)]
    shares = TimeShares(100.0, big + small, clock=clock)
    assert shares.allowance(big[0]) == pytest.approx(95.0)  # 5 s stay for the small group
    huge = [case("huge", 0, timeout=60.0)]
    shares = TimeShares(100.0, big + huge, clock=clock)
    assert shares.allowance(big[0]) <= 100.0 - MIN_GROUP_SECONDS  # a long first case: 10 s


def test_guarantees_never_add_up_to_more_than_the_budget() -> None:
    clock = FakeClock()
    groups = [case(f"group{g}", 0, timeout=10.0) for g in range(6)]
    shares = TimeShares(30.0, groups, clock=clock)
    assert shares.allowance(groups[0]) == pytest.approx(5.0)  # 30 s over 6 groups


def test_a_capped_timeout_is_what_a_group_may_take() -> None:
    clock = FakeClock()
    first = [case("first", i, timeout=100.0) for i in range(3)]
    second = [case("second", i, timeout=100.0) for i in range(3)]
    shares = TimeShares(12.0, first + second, timeout_cap=2.0, clock=clock)
    assert shares.allowance(first[0]) == pytest.approx(6.0)


def test_unplanned_cases_use_only_what_no_group_is_guaranteed_and_no_plan_means_in_order() -> None:
    clock = FakeClock()
    planned = [case("planned", i) for i in range(2)]
    shares = TimeShares(30.0, planned, clock=clock)
    assert shares.allowance(case("other", 0)) == pytest.approx(10.0)
    assert TimeShares(30.0, clock=clock).allowance(case("other", 0)) == pytest.approx(30.0)


# --- end to end ---------------------------------------------------------------------------------

STEMS = ["04_scramble", "05_is_solved"]
SCRAMBLE = "    def scramble(self):\n"
STARVING = {
    "scramble never returns": [(SCRAMBLE, SCRAMBLE + "        while True:\n            pass\n")],
    "scramble sleeps, is_solved slow but right": [
        (SCRAMBLE, SCRAMBLE + "        __import__('time').sleep(600)\n"),
        ("    def is_solved(self):\n",
         "    def is_solved(self):\n        __import__('time').sleep(0.2)\n")],
    "scramble recurses forever, is_solved through a helper": [
        (SCRAMBLE, SCRAMBLE + "        return self.scramble_more(0)\n\n"
                              "    def scramble_more(self, n):\n"
                              "        while True:\n            n = (n * 7 + 1) % 1000003\n"),
        ("        return not any(any(row) for row in self.board)",
         "        return all_off(self.board)"),
        ("def create_puzzle(rows, cols):",
         "def all_off(board):\n    return all(not light for row in board for light in row)\n\n\n"
         "def create_puzzle(rows, cols):")],
}
BUDGET, CAP = 12.0, 2.0
"""Both groups have 6 cases; capped at 2 s each they may take 12 s apiece, so each is guaranteed
6 s (is_solved needs about 1.3 s, the slow variant's sleeps included). Spent in order, the
looping scramble cases would take all 12 s."""


reference = reference_fixture("search_and_games", STEMS)


@pytest.mark.parametrize("name", sorted(STARVING))
def test_a_timing_out_group_leaves_the_next_group_graded_as_the_reference(
        name: str, reference: dict[str, Any], tmp_path: Path) -> None:
    document = grade_variant(tmp_path, "search_and_games", STARVING[name], stems=STEMS,
                             budget=BUDGET, timeout_cap=CAP)
    ours, theirs = per_case(document), per_case(reference)
    is_solved = [n for n in theirs if n.startswith("is_solved")]
    assert len(is_solved) == 6 and all(theirs[n][1] == "passed" for n in is_solved)
    assert {n: ours[n] for n in is_solved} == {n: theirs[n] for n in is_solved}
    scramble = [t for t in document["tests"] if t["name"].startswith("scramble")]
    assert all(t["score"] == 0 for t in scramble)
    assert any("did not finish" in t["output"] or "Timed out" in t["output"] for t in scramble)
    assert any("used up their share of the time budget" in t["output"] for t in scramble)


# --- the ledger: the same shares on any load (issue 42, item 3) ---------------------------------

def test_a_case_is_charged_what_it_costs_alone_not_the_wall_time_it_took() -> None:
    # A timeout costs its limit, however long the busy host took to stop it.
    assert case_charge(elapsed=9.0, limit=3.0, timed_out=True, cpu_seconds=None) == 3.0
    # A finished case costs its CPU seconds, the same whether it took 0.5 s or 2 s of wall.
    assert case_charge(0.5, 3.0, False, 0.4) == pytest.approx(0.4)
    assert case_charge(2.0, 3.0, False, 0.4) == pytest.approx(0.4)
    assert case_charge(5.0, 6.0, False, 0.4) == pytest.approx(0.4)  # however busy the host
    # On half a CPU a CPU second takes two seconds of the run; never more than the wall time.
    assert case_charge(1.0, 3.0, False, 0.4, cpu_fraction=0.5) == pytest.approx(0.8)
    assert case_charge(0.5, 3.0, False, 0.4, cpu_fraction=0.5) == pytest.approx(0.5)
    # Code that sleeps, or reports no CPU time, gains only its own group's share (the wall
    # clock still ends the run).
    assert case_charge(2.0, 3.0, False, 0.0) == pytest.approx(0.0)
    assert case_charge(2.0, 3.0, False, None) == pytest.approx(2.0)  # unknown: its wall time


def test_a_slow_wall_clock_changes_no_share_only_the_clock_s_end_of_the_run() -> None:
    planned = [case("search", i, timeout=3.0) for i in range(10)] + [case("games", 0)]
    quiet, busy = FakeClock(), FakeClock()
    shares = {clock: TimeShares(30.0, planned, clock=clock, hard_stop=40.0)
              for clock in (quiet, busy)}
    for item in planned[:5]:
        for clock, slowdown in ((quiet, 1.0), (busy, 3.0)):
            clock.now += 0.4 * slowdown  # the busy host takes three times as long
            shares[clock].record(item, case_charge(0.4 * slowdown, 3.0, False, 0.4))
    assert shares[quiet].allowance(planned[5]) == pytest.approx(shares[busy].allowance(planned[5]))
    assert shares[quiet].remaining() == pytest.approx(30.0 - 5 * 0.4)
    # the run's end on the clock
    assert shares[busy].wall_remaining() == pytest.approx(40.0 - 5 * 1.2)


def test_the_budget_clock_starts_once_the_sandbox_is_ready(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiting for a sandbox user that other gradings hold (or probing the isolation on a busy
    host) is not the student's time: with a sandbox that takes longer to set up than the whole
    budget, every second of the budget is still ahead when grading starts. This failed with the
    clock started before the sandbox (the CI run in which a loaded grading ran no case)."""
    import time

    from harness.grading import grader as grader_module
    from harness.spec import load_assignment

    class SlowSandbox:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            time.sleep(0.6)

        def close(self) -> None:
            pass

    monkeypatch.setattr(grader_module, "Sandbox", SlowSandbox)
    assignment = load_assignment(Path(__file__).parents[2] / "assignments" / "adversarial_search")
    (tmp_path / "adversarial_search.py").write_text("x = 1\n")
    grader = grader_module.Grader(assignment, tmp_path / "adversarial_search.py", budget=0.5,
                                  capped=True)
    try:
        assert 0.4 < grader.shares.wall_remaining() <= 0.5
        assert grader.remaining() == 0.5
    finally:
        grader.close()


def test_only_a_capped_run_ends_at_the_budget_on_the_wall_clock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On Gradescope the budget is the wall cap too (its container is stopped at its cap).
    Graded locally, the ledger decides which cases run and the wall clock ends the run only at
    twice the budget, so that a busy host slows the cases but does not cut the last ones: the
    CI run in which a group's last cases were "not run" beside three other test workers."""
    from harness.grading import api
    from harness.grading import grader as grader_module
    from harness.platforms import gradescope
    from harness.spec import load_assignment
    from harness.timing.budget import LOCAL_WALL_FACTOR

    class NoSandbox:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def close(self) -> None:
            pass

    monkeypatch.setattr(grader_module, "Sandbox", NoSandbox)
    assignment = load_assignment(Path(__file__).parents[2] / "assignments" / "adversarial_search")
    (tmp_path / "adversarial_search.py").write_text("x = 1\n")
    walls = {}
    for capped in (True, False):
        grader = grader_module.Grader(assignment, tmp_path / "adversarial_search.py",
                                      budget=100.0, capped=capped)
        walls[capped] = grader.shares.wall_remaining()
        assert grader.remaining() == 100.0  # the ledger is the same either way
        grader.close()
    assert 99.0 < walls[True] <= 100.0
    assert 100.0 * LOCAL_WALL_FACTOR - 1.0 < walls[False] <= 100.0 * LOCAL_WALL_FACTOR
    assert LOCAL_WALL_FACTOR >= 2.0
    # Gradescope's entry is the one that caps.
    seen: list[api.GradingOptions] = []

    def record(name: str, submission: Path, output: Path, options: api.GradingOptions,
               metadata: Any) -> dict[str, Any]:
        seen.append(options)
        return {"score": 0, "tests": []}

    monkeypatch.setattr("harness.policy.entry.grade_under_policy", record)
    (tmp_path / "root" / "submission").mkdir(parents=True)
    monkeypatch.setattr(gradescope, "warn_if_packages_missing", lambda name: None)
    gradescope.run(tmp_path / "root", "adversarial_search")
    assert [options.capped for options in seen] == [True]
    assert api.GradingOptions().capped is False
