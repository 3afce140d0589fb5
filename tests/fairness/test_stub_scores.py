"""Class 6 of issue 18: a stub earns nothing. The untouched templates answer with constants
(``None``, ``(None, None)``); every case where such a constant happens to be right is paired, in
the same case, with a call a constant cannot answer, so each template scores at most 2% (here:
nothing) of the points.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from gradingfair_support import TEMPLATES, grade

pytestmark = pytest.mark.slow

TOTALS = {"adversarial_search": 40, "search_and_games": 100, "isolation": 60}


@pytest.mark.parametrize("assignment", sorted(TEMPLATES))
def test_the_untouched_template_earns_nothing(assignment: str, tmp_path: Path) -> None:
    document = grade(tmp_path, assignment, TEMPLATES[assignment])
    total = sum(test["max_score"] for test in document["tests"])
    assert total == pytest.approx(TOTALS[assignment])
    assert document["score"] <= 0.02 * total
    assert document["score"] == 0
    assert [t["name"] for t in document["tests"] if t["score"] > 0] == []
