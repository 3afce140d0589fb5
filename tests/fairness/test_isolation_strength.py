"""Issue 51, item 1: Isolation's grade follows the search. Whole gradings of players written as
students write them (tests/fixtures/isolation_players/): no search at all (one ply) earns at
most a quarter of the 60 points, a fixed two-ply alpha-beta at most half, and honest time-based
alpha-beta players (their own evaluation, move order, time split, a transposition table) earn
every point, as the reference does (that the reference earns every point of the whole spec is
the release check's: ``gamegrader validate --no-mutants`` in ``.ci/run``, the same grading, 25
core-seconds). The staff ladder, worth no points, is left out of these gradings (a
time-spending player's 8 ladder games cost seconds of CPU each grading; validate plays it); the
games replayed with other seeds are part of the grade and are kept."""
from __future__ import annotations

from pathlib import Path

import pytest
from gg_testing import ROOT
from gradingfair_support import grade

pytestmark = pytest.mark.slow

PLAYERS = ROOT / "tests" / "fixtures" / "isolation_players"
TOTAL = 60.0
CEILINGS = {"one_ply.py": 0.25 * TOTAL, "two_ply.py": 0.5 * TOTAL}
HONEST = ["honest_evaluation.py", "honest_ordering.py", "honest_time_split.py",
          "honest_transposition.py"]


def graded_score(tmp_path: Path, player: Path) -> float:
    document = grade(tmp_path, "isolation", player, ladder=False, twins=True)
    failed = [(t["name"], t["output"][:300]) for t in document["tests"]
              if t["score"] < t["max_score"]]
    print(f"{player.name}: {document['score']} of {TOTAL}; not full: {failed}")
    return float(document["score"])


@pytest.mark.parametrize("name", sorted(CEILINGS))
def test_a_player_without_a_deeper_search_earns_at_most_its_ceiling(tmp_path: Path,
                                                                   name: str) -> None:
    assert graded_score(tmp_path, PLAYERS / name) <= CEILINGS[name]


@pytest.mark.parametrize("name", HONEST)
def test_an_honest_time_based_alpha_beta_earns_every_point(tmp_path: Path, name: str) -> None:
    assert graded_score(tmp_path, PLAYERS / name) == TOTAL
