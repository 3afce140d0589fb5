"""Issue 42, item 2: a function's hang is paid once (``harness.timing.hang_probes``).

Unit tests of the rule (which case gets a probe, when a family gets its full limits back, the
order cases run in), then gradings: a file whose search never returns pays one full limit and
short probes after it, told why; a file that finishes every case is graded as before.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from gradingfair_support import grade_variant, per_case, reference_fixture

from harness.spec.model import Case, RelativeTimeout, Visibility
from harness.timing.hang_probes import (
    PROBE_FLOOR_SECONDS,
    PROBE_FRACTION,
    HangMemory,
    family,
    run_order,
)

pytestmark = pytest.mark.slow


def case(group: str, number: int, requires: tuple[str, ...] = ("f",), timeout: float = 10.0,
         reference: float | None = None) -> Case:
    relative = None if reference is None else RelativeTimeout(10.0, 1.0, reference)
    return Case(id=f"{group}-{number}", number=str(number), group=group, name=f"case {number}",
                points=1.0, visibility=Visibility.VISIBLE, timeout=timeout,
                file=Path(f"{group}.yaml"), examples=(), requires=requires,
                relative_timeout=relative)


def test_after_a_full_timeout_the_family_gets_probes_and_a_pass_gives_full_limits_back() -> None:
    hangs = HangMemory()
    first, second, third, fourth = (case("g", i) for i in range(4))
    assert hangs.probe(first, 10.0) is None  # nothing timed out yet: its full limit
    hangs.settled(first, timed_out=True, passed=False, probed=False)
    probe = hangs.probe(second, 10.0)
    assert probe is not None and probe.after == "case 0"
    assert probe.seconds == pytest.approx(max(PROBE_FLOOR_SECONDS, 10.0 * PROBE_FRACTION))
    hangs.settled(second, timed_out=True, passed=False, probed=True)  # a probe keeps it marked
    third_probe = hangs.probe(third, 10.0)
    assert third_probe is not None and third_probe.after == "case 0"
    hangs.settled(third, timed_out=False, passed=True, probed=True)  # a probe that passed
    assert hangs.probe(fourth, 10.0) is None


def test_a_probe_has_a_floor_and_never_exceeds_the_limit() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0), timed_out=True, passed=False, probed=False)
    assert hangs.probe(case("g", 1), 3.0).seconds == pytest.approx(PROBE_FLOOR_SECONDS)
    assert hangs.probe(case("g", 2), PROBE_FLOOR_SECONDS) is None  # no shorter than its limit


def test_other_functions_and_groups_keep_their_full_limits() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0, ("f",)), timed_out=True, passed=False, probed=False)
    assert hangs.probe(case("g", 1, ("h",)), 10.0) is None
    assert hangs.probe(case("other", 1, ("f",)), 10.0) is None
    assert hangs.probe(case("g", 2, ("f",)), 10.0) is not None
    assert family(case("g", 3, ("b", "a"))) == family(case("g", 4, ("a", "b")))


def test_a_wrong_answer_or_a_timeout_the_budget_cut_does_not_mark_a_family() -> None:
    hangs = HangMemory()
    hangs.settled(case("g", 0), timed_out=False, passed=False, probed=False)
    assert hangs.probe(case("g", 1), 10.0) is None
    hangs.settled(case("g", 2), timed_out=False, passed=False, probed=False)  # cut: not "full"
    assert hangs.probe(case("g", 3), 10.0) is None


def test_game_and_clocked_cases_never_get_a_probe() -> None:
    from dataclasses import replace
    hangs = HangMemory()
    hangs.settled(case("g", 0), timed_out=True, passed=False, probed=False)
    assert hangs.probe(replace(case("g", 1), runner="x:y"), 10.0) is None
    assert hangs.probe(replace(case("g", 2), alone=True), 10.0) is None


def test_cases_run_small_to_large_within_their_group_and_groups_in_file_order() -> None:
    cases = [case("a", 0, reference=3.0), case("a", 1, reference=0.5), case("b", 2, timeout=9),
             case("b", 3, timeout=2), case("a", 4), case("b", 5, timeout=2)]
    order = run_order(cases)
    assert order == [1, 0, 4, 3, 5, 2]
    assert sorted(order) == list(range(len(cases)))


# --- gradings -----------------------------------------------------------------------------------

STEMS = ["02_get_best_move"]
SEARCH = "    def get_best_move(self, vertical, limit):\n"
NEVER_RETURNS = [(SEARCH, SEARCH + "        while True:\n            pass\n")]
CAP = 2.0

reference = reference_fixture("adversarial_search", STEMS)


def test_a_search_that_never_returns_pays_one_full_limit_and_is_told_why(
        tmp_path: Path) -> None:
    document = grade_variant(tmp_path, "adversarial_search", NEVER_RETURNS, stems=STEMS,
                             budget=400.0, timeout_cap=CAP)
    tests = [t for t in document["tests"] if t["name"].startswith("get_best_move")]
    assert len(tests) > 10 and all(t["score"] == 0 for t in tests)
    probed = [t for t in tests if "stopped after a short probe" in t["output"]]
    # The two handout cases call other functions too (DominoesGame, perform_move): each is a
    # family of its own, so at most one case of each family pays its full limit.
    full = [t for t in tests if t not in probed]
    assert len(full) <= 2 and len(probed) >= len(tests) - 2
    named = {re.search(r"the earlier case '(.+?)', which", t["output"]).group(1)  # type: ignore[union-attr]
             for t in probed}
    assert named and all(any(name in t["name"] for t in full) for name in named)
    seconds = [float(t["extra_data"]["seconds"]) for t in probed]
    assert max(seconds) < CAP  # each probe stopped before the full (capped) limit


def test_a_file_that_finishes_its_cases_never_meets_a_probe(reference: dict, tmp_path: Path
                                                            ) -> None:
    slow = [("        value, move = max_value(", "        __import__('time').sleep(0.05)\n"
             "        value, move = max_value(")]
    document = grade_variant(tmp_path, "adversarial_search", slow, stems=STEMS, budget=400.0,
                             timeout_cap=CAP)
    assert per_case(document) == per_case(reference)
    assert not any("probe" in t["output"] for t in document["tests"])
