"""The trusted judge's time on replies at the wire's bounds: what one forged reply can make the
grader spend comparing it, which must stay near-linear in the reply (or end at the judge's own
limit, ``harness.native.judge.JUDGE_SECONDS``), never at the grading's cap.

Two parts, each printing its times and the worst:
1. a course suite's assertions (``harness.native.judge``) on the largest replies the wire lets
   through (200,000 nodes, a string of 1 MiB): assertCountEqual on 60,000 small lists (131 s
   in unittest's own), failed list, dict and text comparisons (difflib's diffs), assertIn;
2. every comparator the specs name (one case of each, per assignment), with the largest
   reply of each shape given as the case's last answer, and its diagnosis and picture when
   the case has them.

    .venv/bin/python bench/bench_judge.py [--suite-only]
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "harness" / "native")]

from harness.records.observations import Observation  # noqa: E402
from harness.worker.bounds import MAX_NODES, MAX_STRING  # noqa: E402

LISTS = (MAX_NODES - 1) // 3  # small lists of two integers: three nodes each
SHAPES: dict[str, Callable[[], Any]] = {
    "60,000 lists of two ints": lambda: [[i, i + 1] for i in range(LISTS)],
    "200,000 ints": lambda: list(range(MAX_NODES - 1)),
    "a 1 MiB string": lambda: "ab\n" * (MAX_STRING // 3),
    "66,000 tuples of (int, int)": lambda: [(i, -i) for i in range(LISTS)],
    "a dict of 100,000 items": lambda: {i: i for i in range((MAX_NODES - 1) // 2)},
}

SUITE = '''
import unittest
from adversarial_search import create_dominoes_game

class T(unittest.TestCase):
    def test_count(self):
        self.assertCountEqual(create_dominoes_game(1, 1).get_board(), [[0, 1], [2, 3]])
    def test_list(self):
        self.assertListEqual(create_dominoes_game(1, 1).get_board(), [[0, 0]] * 60000)
    def test_dict(self):
        self.assertDictEqual(create_dominoes_game(1, 1).get_board(), {0: 1})
    def test_text(self):
        self.assertMultiLineEqual(create_dominoes_game(1, 1).get_board(), "ab\\n" * 300000)
    def test_equal(self):
        self.assertEqual(create_dominoes_game(1, 1).get_board(), [[0, 0]] * 60000)
    def test_in(self):
        self.assertIn([-1, -1], create_dominoes_game(1, 1).get_board())
    def test_items(self):
        self.assertSequenceEqual(create_dominoes_game(1, 1).get_board(), range(5))
'''


def _timed(run: Callable[[], Any]) -> tuple[float, str]:
    started = time.process_time()
    try:
        outcome = run()
        said = getattr(outcome, "message", "") or ""
    except Exception as exc:  # a comparator refusing a shape it never gets is fine
        said = f"raised {type(exc).__name__}"
    return time.process_time() - started, said.splitlines()[0][:70] if said else "passed"


def suite_part() -> float:
    from native_support import suite_root

    from harness.native.judge import assertions
    from harness.spec import find_assignment, load_case_file
    with tempfile.TemporaryDirectory() as folder:
        os.environ["GAMEGRADER_ROOT"] = str(suite_root(Path(folder), SUITE))
        try:
            assignment = find_assignment("adversarial_search")
            cases = load_case_file(assignment.case_files[0], assignment, 1)
        finally:
            del os.environ["GAMEGRADER_ROOT"]
        worst = 0.0
        print("course suite assertions (CPU seconds):")
        for case in cases:
            recorded = sum("recorded" in part for site in case.options["sites"]
                           for part in site["args"])
            for shape, make in SHAPES.items():
                record = [0] + [make()] * recorded  # every recorded argument at the bound
                seconds, said = _timed(lambda: assertions(case, [Observation(), Observation(
                    value=[record, [-1]], has_value=True)], True))
                worst = max(worst, seconds)
                print(f"  {case.name:<16} {shape:<28} {seconds:7.3f}  {said}")
    print(f"worst course-suite judging: {worst:.3f} s")
    return worst


def comparator_part() -> float:
    from harness.spec.assignments import find_assignment, list_assignments
    from harness.spec.loader import load_all_cases
    from harness.spec.registry import resolve_comparator
    worst, where = 0.0, ""
    print("comparators of the specs (CPU seconds, worst shape):")
    for name in list_assignments():
        seen: set[str] = set()
        for case in load_all_cases(find_assignment(name)):
            if case.compare in seen or not case.examples:
                continue
            seen.add(case.compare)
            compare = resolve_comparator(case.compare)
            longest, shape_of = 0.0, ""
            for shape, make in SHAPES.items():
                answers = [Observation() for _ in case.examples[:-1]]
                answers.append(Observation(value=make(), has_value=True))
                seconds, _ = _timed(lambda: _judged(compare, case, answers))
                if seconds > longest:
                    longest, shape_of = seconds, shape
            print(f"  {name:<20} {case.compare:<55} {longest:7.3f}  {shape_of}")
            if longest > worst:
                worst, where = longest, f"{name} {case.compare}"
    print(f"worst comparator judging: {worst:.3f} s ({where})")
    return worst


def _judged(compare: Any, case: Any, answers: list[Observation]) -> Any:
    """The comparator, then what the grader adds to a failed case (``Grader._judged``)."""
    judgement = compare(case, answers, True)
    if judgement.fraction < 1.0 and case.diagnose:
        from harness.compare.diagnosis import with_diagnosis
        judgement = with_diagnosis(judgement, case, answers)
    if judgement.fraction < 1.0 and case.picture:
        from harness.compare.pictures import with_picture
        judgement = with_picture(judgement, case, answers, True)
    return judgement


if __name__ == "__main__":
    worst = suite_part()
    if "--suite-only" not in sys.argv:
        worst = max(worst, comparator_part())
    print(f"worst judge time at the wire bounds: {worst:.3f} s")
