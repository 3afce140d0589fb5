"""An image case (``mirror_of``) failed where its visible case passed says so and flags the
grading; no other result changes and no points move (issue 51 item 4)."""
from __future__ import annotations

from pathlib import Path

from harness.compare.mirror_images import MIRROR_MESSAGE, mark_mirror_images, shown_only
from harness.records.spec import Case, Visibility
from harness.records.verdicts import CaseResult, Verdict


def _result(name: str, passed: bool, mirror_of: str | None = None) -> CaseResult:
    case = Case(id=f"g::{name}", number="1", group="g", name=name, points=1.0,
                visibility=Visibility.HIDDEN if mirror_of else Visibility.VISIBLE, timeout=1.0,
                file=Path("x.yaml"), examples=(), mirror_of=mirror_of)
    verdict = Verdict.PASSED if passed else Verdict.WRONG_ANSWER
    return CaseResult(case, verdict, 1.0 if passed else 0.0, "" if passed else "value differs")


def test_only_images_failed_where_the_shown_case_passed_are_flagged() -> None:
    results = [_result("a", True), _result("a image", False, "g::a"),
               _result("b", False), _result("b image", False, "g::b"),
               _result("c", True), _result("c image", True, "g::c")]
    assert shown_only(results) == ["g::a image"]
    marked = mark_mirror_images(results)
    assert marked[1].message == f"{MIRROR_MESSAGE}\nvalue differs"
    assert [r.message for i, r in enumerate(marked) if i != 1] == [
        r.message for i, r in enumerate(results) if i != 1]
    assert [r.score for r in marked] == [r.score for r in results]
