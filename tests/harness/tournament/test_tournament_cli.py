"""``gamegrader tournament`` entry point: arguments, outputs, errors, and a sandboxed entrant."""
from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest

from harness.records.games import Entrant
from harness.tournament.cli import _seeding, load_arena, main, parse_entrant

ROOT = Path(__file__).resolve().parents[3]
SOLUTION = ROOT / "assignments" / "isolation" / "solution" / "player.py"


@pytest.mark.slow  # starts processes
def test_round_robin_writes_results_and_standings(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["isolation", "house:random", "g=house:greedy", "house:depth1",
                   "--seed", "4", "--clock", "5", "--workers", "2", "--out", str(tmp_path)])
    assert status == 0
    document = json.loads((tmp_path / "results.json").read_text())
    assert document["format"] == "round-robin" and document["seed"] == 4
    assert len(document["games"]) == 6
    rows = list(csv.DictReader((tmp_path / "standings.csv").open()))
    assert sorted(r["name"] for r in rows) == ["depth1", "g", "random"]
    captured = capsys.readouterr()
    assert captured.out.startswith("rank,name,") and "[6/6 " in captured.err


@pytest.mark.slow  # starts processes
def test_elimination_with_a_sandboxed_submission(tmp_path: Path) -> None:
    status = main(["isolation", f"solution={SOLUTION}", "house:random", "--format",
                   "elimination", "--clock", "2", "--quiet", "--out", str(tmp_path)])
    assert status == 0
    rows = list(csv.DictReader((tmp_path / "standings.csv").open()))
    # The bracket's points need the solution to win: at 2 s a game (about 0.1 s of CPU time a
    # move early on) it beats random with a wide margin (at 1 s it passes the grading's case of
    # 19 wins in 20 games), and its clock counts CPU time, so a loaded host does not shorten
    # its search.
    assert rows[0]["name"] == "solution" and rows[0]["points"] == "20.00"
    assert rows[1]["points"] == "7.69"  # 5 points scaled for a one-round bracket


@pytest.mark.parametrize("argv, message", [
    (["isolation", "house:random", "no/such/file.py"], "no such file"),
    (["nogame", "house:random", "house:greedy"], "no assignment named 'nogame'"),
    (["isolatoin", "house:random", "house:greedy"], "did you mean isolation?"),
    (["isolation", "house:random", "x=house:genius"],
     "unknown house bot 'genius'; known: random, greedy, reference, depth1"),
    (["othello", "house:random", "house:nosuch"], "unknown house bot 'nosuch'; known: random, "
     "reference"),
    (["isolation", "house:random"], "at least 2 entrants"),
    (["isolation", "house:random", "house:random"], "repeated: random"),
])
def test_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             argv: list[str], message: str) -> None:
    assert main(argv + ["--out", str(tmp_path), "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_entrant_words(tmp_path: Path) -> None:
    folder, staging = tmp_path / "class", tmp_path / "staging"
    folder.mkdir()
    staging.mkdir()
    (folder / "player_b.py").write_text("B = 2\n")
    (folder / "player_a.py").write_text("A = 1\n")
    found = parse_entrant(str(folder), staging)
    assert [e.name for e in found] == ["player_a", "player_b"]
    assert [Path(e.source).read_text() for e in found] == ["A = 1\n", "B = 2\n"]
    assert all(Path(e.source).is_relative_to(staging) for e in found)  # copies, not the files
    named = parse_entrant(f"alice={folder / 'player_b.py'}", staging)
    assert [(e.name, Path(e.source).read_text()) for e in named] == [("alice", "B = 2\n")]
    assert parse_entrant("bob=house:greedy") == [Entrant("bob", "house:greedy")]
    assert load_arena("isolation", 3.0).game_timeout > 6.0


def test_entrant_files_are_read_without_following_links_or_blocking(tmp_path: Path) -> None:
    """A student's entrant folder may hold links (to a secret, to /dev/zero) and fifos: none is
    opened; each is passed over, and a single such file is refused with the reason."""
    folder, staging = tmp_path / "class", tmp_path / "staging"
    folder.mkdir()
    staging.mkdir()
    (folder / "honest.py").write_text("pass\n")
    (folder / "secret.py").symlink_to("/etc/shadow")
    (folder / "endless.py").symlink_to("/dev/zero")
    os.mkfifo(folder / "stalls.py")
    assert [e.name for e in parse_entrant(str(folder), staging)] == ["honest"]
    with pytest.raises(ValueError, match="nothing to play"):
        parse_entrant(str(folder / "stalls.py"), staging)
    with pytest.raises(ValueError, match="nothing to play"):
        parse_entrant(str(folder / "endless.py"), staging)


@pytest.mark.slow  # starts processes
def test_othello_entrants_play_through_the_trusted_referee(tmp_path: Path) -> None:
    agent = ROOT / "assignments" / "othello" / "solution" / "agent.py"
    status = main(["othello", "house:random", f"agent={agent}", "--set", "size=4",
                   "--set", "limit=3", "--clock", "5", "--quiet", "--out", str(tmp_path)])
    assert status == 0
    games = json.loads((tmp_path / "results.json").read_text())["games"]
    assert len(games) == 2
    assert all(g["reason"] == "no_moves" and g["moves"] for g in games)
    assert main(["othello", "house:random", "house:reference", "--set", "sizes=4",
                 "--quiet", "--out", str(tmp_path)]) == 2


@pytest.mark.slow  # starts processes
def test_entrant_names_cannot_run_as_spreadsheet_formulas(tmp_path: Path) -> None:
    """An entrant is named after its file, which a student names: in standings.csv a name
    such as ``@SUM(1)`` or ``+2+3`` is text for a spreadsheet, and reads back as the name."""
    names = ["@SUM(1)", "+2+3", "'quoted"]
    bots = ["random", "greedy", "depth1"]
    status = main(["isolation"] + [f"{n}=house:{b}" for n, b in zip(names, bots)]
                  + ["--seed", "4", "--clock", "5", "--workers", "1", "--quiet",
                     "--out", str(tmp_path)])
    assert status == 0
    with (tmp_path / "standings.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(r["name"] for r in rows) == ["''quoted", "'+2+3", "'@SUM(1)"]
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert re.search(r"<td[^>]*>@SUM\(1\)</td>", report)
    entrants = [Entrant(n, f"house:{b}") for n, b in zip(names, bots)]
    ranked = [r["name"] for r in rows]
    assert [e.name for e in _seeding(tmp_path / "standings.csv", entrants)] == \
        [name[1:] for name in ranked]
