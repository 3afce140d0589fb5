"""Re-runs rewrite only what changed: no replay page of an unchanged game is drawn or written
again, a changed entrant's games' pages are, and a run killed while writing leaves no page that
a later run takes for up to date."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tournament_fakes import InProcess, PaintedCoinArena

from harness.records.games import Entrant
from harness.tournament import outputs
from harness.tournament.engine import run_round_robin
from harness.tournament.fingerprints import module_files, modules_fingerprint
from harness.tournament.outputs import PAGES_INDEX, write_outputs
from harness.tournament.store import RECORDS_DIR, GameStore

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
NAMES = ("ada", "bob", "cy", "dee")


def field(**codes: str) -> list[Entrant]:
    return [Entrant(name, f"{name}.py", codes.get(name, f"code-{name}")) for name in NAMES]


def run(out: Path, entrants: list[Entrant], arena: PaintedCoinArena = PaintedCoinArena()
        ) -> outputs.Written:
    result = run_round_robin(arena, entrants, 3, InProcess(), store=GameStore(out, arena))
    return write_outputs(result, out, arena, "coin round-robin", "coin")


def stamps(out: Path) -> dict[str, tuple[int, int]]:
    """Every output file's inode and modification time: a write changes one or both (files
    are replaced by rename)."""
    return {path.relative_to(out).as_posix(): (path.stat().st_ino, path.stat().st_mtime_ns)
            for path in out.rglob("*") if path.is_file()
            and RECORDS_DIR not in path.relative_to(out).parts}


def changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> set[str]:
    return {name for name, stamp in after.items() if before.get(name) != stamp}


def pages_of(out: Path, name: str) -> set[str]:
    games = json.loads((out / "results.json").read_text())["games"]
    return {f"games/{number:04d}.html" for number, game in enumerate(games, 1)
            if name in (game["first"], game["second"])}


def test_an_unchanged_rerun_draws_and_writes_no_page(tmp_path: Path) -> None:
    first = run(tmp_path, field())
    assert (first.pages, first.pages_kept, first.report) == (12, 0, True)
    before, drawn = stamps(tmp_path), PaintedCoinArena.painted[0]
    again = run(tmp_path, field())
    assert PaintedCoinArena.painted[0] == drawn  # not even drawn to be compared
    assert (again.pages, again.pages_kept, again.records, again.report) == (0, 12, 0, False)
    assert changed(before, stamps(tmp_path)) == {"results.json"}  # played 12 -> reused 12
    before = stamps(tmp_path)
    run(tmp_path, field())
    assert changed(before, stamps(tmp_path)) == set()
    assert "0 replay pages written, 12 up to date" in again.summary()
    assert "report unchanged" in again.summary()


def test_one_changed_entrant_rewrites_exactly_its_games_pages_and_the_report(
        tmp_path: Path) -> None:
    run(tmp_path, field())
    before, drawn = stamps(tmp_path), PaintedCoinArena.painted[0]
    written = run(tmp_path, field(bob="code-bob-resubmitted"))
    bobs = pages_of(tmp_path, "bob")
    assert len(bobs) == 6 and PaintedCoinArena.painted[0] - drawn == 6
    rewritten = changed(before, stamps(tmp_path))
    pages = {name for name in rewritten if name.endswith(".html") and name != "report.html"}
    assert pages == bobs and (written.pages, written.pages_kept) == (6, 6)
    assert {name.replace(".html", ".json") for name in bobs} <= rewritten  # their records
    assert "report.html" in rewritten and "standings.csv" in rewritten
    # the report links every game and shows the kept scores of the games not redrawn
    report = (tmp_path / "report.html").read_text()
    assert report.count('">replay</a>') == 12 and len(re.findall(r"<td[^>]*>coin ", report)) == 12


def test_a_missing_page_or_another_painter_draws_again(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    run(tmp_path, field())
    (tmp_path / "games" / "0005.html").unlink()
    drawn = PaintedCoinArena.painted[0]
    written = run(tmp_path, field())
    assert PaintedCoinArena.painted[0] - drawn == 1 and written.pages == 1
    assert (tmp_path / "games" / "0005.html").exists()
    monkeypatch.setattr(outputs, "painter_fingerprint", lambda arena: "another painter")
    drawn = PaintedCoinArena.painted[0]
    run(tmp_path, field())
    assert PaintedCoinArena.painted[0] - drawn == 12


def test_a_run_killed_while_writing_pages_leaves_none_taken_for_up_to_date(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    run(out, field())
    real = outputs.write_if_changed
    calls = []

    def dies_on_the_third_page(path: Path, text: str) -> bool:
        if path.suffix == ".html" and path.parent.name == "games":
            calls.append(path)
            if len(calls) == 3:
                raise KeyboardInterrupt
        return real(path, text)

    monkeypatch.setattr(outputs, "write_if_changed", dies_on_the_third_page)
    with pytest.raises(KeyboardInterrupt):
        run(out, field(bob="code-bob-2"))
    monkeypatch.setattr(outputs, "write_if_changed", real)
    leftover = out / "games" / ".partial-killed.tmp"  # what a kill inside a write leaves
    leftover.write_text("<html>half")
    # bob's resubmission is withdrawn: his old games come back from the records, and the two
    # pages the killed run had overwritten must be drawn again, not taken for his old ones
    drawn = PaintedCoinArena.painted[0]
    run(out, field())
    assert PaintedCoinArena.painted[0] - drawn == 6  # every page of bob's, none of the others
    assert not leftover.exists()
    fresh = tmp_path / "fresh"
    run(fresh, field())
    for page in sorted((fresh / "games").glob("*.html")):
        assert (out / "games" / page.name).read_text() == page.read_text(), page.name
    assert (out / "report.html").read_text() == (fresh / "report.html").read_text()


def test_a_smaller_field_removes_the_numbered_files_past_its_last_game(tmp_path: Path) -> None:
    run(tmp_path, field())
    written = write_outputs(run_round_robin(PaintedCoinArena(), field()[:3], 3, InProcess()),
                            tmp_path, PaintedCoinArena())
    assert written.removed == 12 and len(list((tmp_path / "games").glob("*.html"))) == 6
    assert (tmp_path / "games" / PAGES_INDEX).exists()
    assert len(list((tmp_path / "games").glob("*.json"))) == 6


def test_the_painters_code_is_every_project_module_it_imports(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    package = tmp_path / "painter_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "colours.py").write_text("def colour():\n    return '#000'\n")
    (package / "unused.py").write_text("X = 1\n")
    (package / "draw.py").write_text("import json\nfrom painter_pkg.colours import colour\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import painter_pkg.draw
    import painter_pkg.unused  # noqa: F401  (loaded, but draw does not import it)

    assert [p.name for p in module_files(["painter_pkg.draw"])] == ["colours.py", "draw.py"]
    before = modules_fingerprint(["painter_pkg.draw"])
    (package / "colours.py").write_text("def colour():\n    return '#fff'\n")
    assert modules_fingerprint(["painter_pkg.draw"]) != before
    painter = outputs.painter_fingerprint(PaintedCoinArena())
    assert painter == outputs.painter_fingerprint(PaintedCoinArena(pause=1.0))
    files = {p.name for p in module_files([*outputs.PAINTER_MODULES, "tournament_fakes"])}
    assert {"replays.py", "pages.py", "layout.py", "style.py", "tournament_fakes.py"} <= files


ARENA = ["--arena", "tournament_fakes:make_painted_coin_arena"]


def class_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir(exist_ok=True)
    for name in ("strong-ada", "bob", "cy", "dee", "weak-eve"):
        (folder / f"{name}.py").write_text(f"NAME = {name!r}\n")
    return folder


def command(folder: Path, out: Path) -> list[str]:
    """The tournament command; every game takes 0.3 s, so that a run can be killed mid-way
    (the pause is a setting: every run of a test must share it to share the records)."""
    return [sys.executable, "-m", "harness", "tournament", "isolation", str(folder), *ARENA,
            "--set", "pause=0.3", "--workers", "2", "--quiet", "--out", str(out)]


ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(ROOT)]))


def tournament(folder: Path, out: Path) -> str:
    done = subprocess.run(command(folder, out), env=ENV, cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stderr


@pytest.mark.slow  # starts processes
def test_the_command_rewrites_no_page_unchanged_and_a_resubmitters_after_a_kill(
        tmp_path: Path) -> None:
    folder, out = class_folder(tmp_path), tmp_path / "out"
    tournament(folder, out)
    before = stamps(out)
    told = tournament(folder, out)
    assert "0 games played" in told and "0 replay pages written, 20 up to date" in told
    assert "report unchanged" in told
    assert changed(before, stamps(out)) == {"results.json"}

    # bob resubmits; the run is killed mid-way, then run again to the end
    (folder / "bob.py").write_text("NAME = 'bob, resubmitted'\n")
    before = stamps(out)
    records = out / RECORDS_DIR
    kept = len(list(records.glob("[!.]*.json")))
    process = subprocess.Popen(command(folder, out), env=ENV, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while len(list(records.glob("[!.]*.json"))) < kept + 2 and process.poll() is None:
            assert time.monotonic() < deadline, "no records appeared"
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert changed(before, stamps(out)) == set()  # killed before writing anything
    told = tournament(folder, out)
    rewritten = changed(before, stamps(out))
    pages = {name for name in rewritten if name.startswith("games/") and name.endswith(".html")}
    bobs = pages_of(out, "bob")
    assert len(bobs) == 8 and pages <= bobs, sorted(pages - bobs)
    assert f"{len(pages)} replay pages written, {20 - len(pages)} up to date" in told
    assert "report rewritten" in told
