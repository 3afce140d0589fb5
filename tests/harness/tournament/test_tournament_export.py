"""``gamegrader tournament GAME EXPORT_FOLDER``: a class tournament from a Gradescope export, its
students named as the export names them."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from harness.tournament.cli import main
from harness.tournament.entrants import export_entrants

ROOT = Path(__file__).resolve().parents[3]
SOLUTION = ROOT / "reference" / "solutions" / "isolation" / "player.py"
METADATA = """\
submission_101:
  :submitters:
  - :name: Ada Lovelace
    :email: ada@example.edu
  - :name: Charles Babbage
    :sid: '42'
  :created_at: 2026-11-30 10:00:00.000000000 -08:00
submission_102:
  :submitters:
  - :name: Grace Hopper
submission_103:
  :submitters:
  - :name: Alan Turing
submission_104:
  :submitters:
  - :name: Grace Hopper
"""


def export(tmp_path: Path, player: str = "X = 1\n") -> Path:
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "submission_metadata.yml").write_text(METADATA)
    for number, text in ((101, player), (102, "X = 2\n"), (104, "X = 4\n")):
        (folder / f"submission_{number}").mkdir()
        (folder / f"submission_{number}" / "player.py").write_text(text)
    (folder / "submission_101" / "helper.py").write_text("H = 1\n")
    (folder / "submission_103").mkdir()
    (folder / "submission_103" / "notes.txt").write_text("forgot the code\n")
    return folder


def test_each_submission_is_an_entrant_named_by_its_submitters(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    entrants, skipped = export_entrants(export(tmp_path), ("player.py",), staging)
    assert [e.name for e in entrants] == ["Ada Lovelace; Charles Babbage",
                                         "Grace Hopper (submission_102)",
                                         "Grace Hopper (submission_104)"]
    assert [Path(e.source).name for e in entrants] == ["player.py"] * 3
    assert Path(entrants[0].source).read_text() == "X = 1\n"
    assert len({e.code for e in entrants}) == 3
    assert skipped == ["submission_103 (Alan Turing): no player.py"]


@pytest.mark.slow
def test_a_class_tournament_in_one_command_reruns_only_a_resubmission(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, out = export(tmp_path), tmp_path / "out"
    command = ["isolation", str(folder), "--arena", "tournament_fakes:make_coin_arena",
               "--quiet", "--out", str(out)]
    assert main(command) == 0
    assert "left out submission_103 (Alan Turing): no player.py" in capsys.readouterr().err
    with (out / "standings.csv").open(newline="") as handle:
        names = sorted(row["name"] for row in csv.DictReader(handle))
    assert names == ["Ada Lovelace; Charles Babbage", "Grace Hopper (submission_102)",
                     "Grace Hopper (submission_104)"]
    (folder / "submission_101" / "helper.py").write_text("H = 2\n")  # a file the grading takes
    assert main(command) == 0
    document = json.loads((out / "results.json").read_text())
    assert (document["played"], document["reused"]) == (4, 2)


@pytest.mark.slow
def test_a_class_tournament_with_a_real_submission(tmp_path: Path) -> None:
    folder = export(tmp_path, SOLUTION.read_text())
    for number in (102, 104):
        (folder / f"submission_{number}" / "player.py").unlink()
    assert main(["isolation", str(folder), "house:random", "--clock", "1", "--quiet",
                 "--out", str(tmp_path / "out")]) == 0
    with (tmp_path / "out" / "standings.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(r["name"] for r in rows) == ["Ada Lovelace; Charles Babbage", "random"]
    # The export's one real submission played both its games to the end by the rules: no
    # forfeit, abort or first-move timeout. (Who wins at a one-second game clock is the search's
    # business, not the export's: the reference lost a game to random that way once in CI.)
    student = next(r for r in rows if r["name"] == "Ada Lovelace; Charles Babbage")
    assert student["games"] == "2"
    assert [student[k] or "0" for k in ("aborted", "forfeits", "first_move_timeouts")] == \
        ["0", "0", "0"]
    records = [json.loads(path.read_text()) for path in
               sorted((tmp_path / "out" / "games").glob("*.json"))]
    assert [(r["reason"], r["forfeiter"]) for r in records] == [("no_moves", None)] * 2


def test_an_export_with_nothing_to_play_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = export(tmp_path)
    for number in (101, 102, 104):
        (folder / f"submission_{number}" / "player.py").unlink()
    (folder / "submission_101" / "helper.py").unlink()  # a lone file would be taken as player.py
    assert main(["isolation", str(folder), "house:random", "--quiet",
                 "--out", str(tmp_path / "out")]) == 2
    assert "no submission in this export holds player.py" in capsys.readouterr().err


def test_a_student_named_like_a_house_bot_or_another_entrant_plays_as_themself() -> None:
    from harness.records.games import Entrant
    from harness.tournament.entrants import distinct_names

    named = distinct_names([Entrant("greedy", "/x/player.py"), Entrant("greedy", "house:greedy"),
                            Entrant("player", "/a/player.py"), Entrant("player", "/b/player.py"),
                            Entrant("player (2)", "/c/player.py")])
    assert [e.name for e in named] == ["greedy (2)", "greedy", "player", "player (2)",
                                       "player (2) (2)"]
    assert [e.source for e in named][:2] == ["/x/player.py", "house:greedy"]


@pytest.mark.slow
def test_an_export_with_a_student_named_greedy_plays_against_house_greedy(
        tmp_path: Path) -> None:
    folder, out = export(tmp_path), tmp_path / "out"
    metadata = folder / "submission_metadata.yml"
    metadata.write_text(metadata.read_text().replace("Alan Turing", "greedy"))
    (folder / "submission_103" / "player.py").write_text("X = 3\n")
    assert main(["isolation", str(folder), "house:greedy", "--arena",
                 "tournament_fakes:make_coin_arena", "--quiet", "--out", str(out)]) == 0
    with (out / "standings.csv").open(newline="") as handle:
        names = sorted(row["name"] for row in csv.DictReader(handle))
    assert names == ["Ada Lovelace; Charles Babbage", "Grace Hopper (submission_102)",
                     "Grace Hopper (submission_104)", "greedy", "greedy (submission_103)"]
    entrants = json.loads((out / "results.json").read_text())["entrants"]
    assert {e["name"]: e["source"].startswith("house:") for e in entrants}["greedy"]
