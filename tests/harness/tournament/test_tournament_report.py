"""The tournament report: every game's score where the game keeps one, standings with the
ratings in words and no empty column, in the look every gamegrader page shares."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from harness.games.intervals import StrengthFit
from harness.games.pages import Paint, ReplayView, replay_page
from harness.games.replays import report_page, standings_table
from harness.pages.style import STYLE
from harness.records.games import GameResult, Reason
from harness.tournament.ratings import Rating
from harness.tournament.standings import Standing, format_csv, with_neighbours

CSV_HEADER = ("rank,name,games,wins,draws,losses,aborted,forfeits,first_move_timeouts,score,mu,"
              "sigma,rating,round_reached,points")


@dataclass(frozen=True)
class Scored:
    """An arena whose replays say the score: the number of moves, as "N-0"."""

    def replay_view(self, result: GameResult, outcome: str) -> ReplayView:
        frames = [["a"]] * (len(result.moves) + 1)
        return ReplayView("t", frames, {"a": Paint("#fff")}, ["m"] * len(result.moves),
                          score=f"{len(result.moves)}-0")


def _results() -> tuple[GameResult, ...]:
    return (GameResult("ann", "bob", 1, 0, Reason.NO_MOVES, moves=((1, 2), (3, 4), (5, 6))),
            GameResult("bob", "ann", 2, None, Reason.ABORTED, "worker lost"))


def _cells(html: str, table: str) -> list[list[str]]:
    body = html[html.index(f'<table id="{table}"'):]
    body = body[:body.index("</table>")]
    return [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)]


def test_standings_in_plain_words_without_empty_columns_and_with_new_ones():
    """``mu``/``sigma`` become one strength with its likely range; columns empty in every row
    (a round robin's round and points) or zero where only a count matters are left out; a
    column the page does not know (a new field of the standings) is shown by its name."""
    header = [*CSV_HEADER.split(","), "separated_from_next"]
    rows = [["1", "ann", "2", "2", "0", "0", "0", "", "0", "2", "30.000", "5.000", "15.000", "",
             "", "yes"],
            ["2", "bob", "2", "0", "0", "2", "0", "timeout:1", "0", "0", "20.000", "5.000",
             "5.000", "", "", "no"]]
    cells = _cells(standings_table(header, rows), "standings")
    assert cells[0] == ["rank", "entrant", "games", "won", "drawn", "lost", "lost by own fault",
                        "points", "rating (likely range)", "separated from next"]
    assert cells[1][-2:] == ["30.0 (15.0 to 45.0)", "yes"]
    assert all(any(row[i] for row in cells[1:]) for i in range(len(cells[0])))


def test_standings_give_each_idea_one_column_with_one_header_and_the_summary_below():
    """The whole standings a tournament writes: the expected score with its interval in one
    column, the comparison with the next rank in another, every header said once, and each
    entrant's summary as a sentence under the table rather than a squeezed column."""
    header = [*CSV_HEADER.split(","), "strength", "strength_low", "strength_high",
              "beats_next", "separated_from_next", "summary"]
    rows = [["1", "ann", "2", "2", "0", "0", "0", "", "0", "2", "30.000", "5.000", "15.000", "",
             "", "0.700", "0.400", "0.900", "0.950", "no", "ann in words"],
            ["2", "bob", "2", "0", "0", "2", "0", "", "0", "0", "20.000", "5.000", "5.000", "",
             "", "0.300", "0.100", "0.600", "", "", "bob in words"]]
    html = standings_table(header, rows)
    cells = _cells(html, "standings")
    assert cells[0] == ["rank", "entrant", "games", "won", "drawn", "lost", "points",
                        "rating (likely range)", "expected score (95% interval)",
                        "stronger than next"]
    assert cells[1][-2:] == ["0.70 (0.40 to 0.90)", "95.0%: not separated"]
    assert cells[2][-1] == ""
    assert "<li><strong>ann</strong>: ann in words</li>" in html


def test_report_gives_every_game_s_score_and_shares_the_batch_report_s_look(tmp_path: Path):
    standings = (f"{CSV_HEADER}\n1,ann,1,1,0,0,1,,0,1,27.000,7.000,6.000,,\n"
                 "2,bob,1,0,0,1,1,,0,0,23.000,7.000,2.000,,\n")
    page = tmp_path / "games" / "0001.html"
    html = report_page("othello round-robin", "6x6", standings, _results(), [page, None],
                       tmp_path, Scored())
    games = _cells(html, "games")
    assert games[0] == ["game", "first to move", "second", "result", "score", "moves", "replay"]
    assert games[1][3:6] == ["ann won (no legal move left)", "3-0", "3"]
    assert games[2][3] == "aborted: worker lost" and games[2][4] == ""
    assert 'href="games/0001.html"' in html
    assert "mu" not in _cells(html, "standings")[0] and STYLE in html
    assert '<header class="site">' in html and "tournament report" in html
    without = report_page("isolation", "", standings, _results(), [page, None], tmp_path)
    assert "score" not in _cells(without, "games")[0]  # no game keeps one: no column


def test_a_replay_numbers_the_board_as_its_moves_do():
    view = ReplayView("isolation", [["ab"], ["ba"]], {"a": Paint("#ffffff")}, ["x to (1, 2)"],
                      origin=1, coordinates="(row, column)", score="x won")
    html = replay_page(view)
    assert '"origin": 1' in html and "counted from 1" in html and "(row, column)" in html
    assert STYLE in html and '<header class="site">' in html and "x won" in html


class _Fit:
    """A strength fit that only says how likely one entrant is stronger than another."""

    def superiority(self, upper: str, lower: str) -> float:
        return 0.84951


def test_the_summary_and_the_table_round_each_number_the_same_way():
    """The report's table is made from standings.csv (three decimals) and the summary under it
    from the fit: 0.78466 read "0.79" (from 0.785) in the table and "0.78" in the summary."""
    table = [Standing("ann", 2, 0, 0, 0, Rating("ann", 30.0, 5.0), strength=0.78466,
                      strength_low=0.43449, strength_high=0.94651),
             Standing("bob", 0, 0, 2, 0, Rating("bob", 20.0, 5.0), strength=0.2)]
    ranked = with_neighbours(table, cast(StrengthFit, _Fit()))
    lines = format_csv(ranked).splitlines()
    html = standings_table(lines[0].split(","), [next(csv.reader([line])) for line in lines[1:]])
    shown = _cells(html, "standings")[1]
    expected, next_rank = shown[-2], shown[-1]
    assert expected == "0.79 (0.43 to 0.95)" and next_rank == "85.0%: not separated"
    assert ranked[0].summary.startswith("expected score 0.79 (95% interval 0.43 to 0.95)")
    assert "with likelihood 85.0%" in ranked[0].summary
