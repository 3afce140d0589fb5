"""``gamegrader play`` from the student packages of Othello and Isolation (built into a temporary
folder and run from there, as a student would): the reference player and the starter template
against the house bots students may play, the replay pages, the errors, and a system without
pwd, resource and fcntl (Windows), where the games run in the plain child processes ``check``
uses there. Few games each: the ladder's own clocks, but one or two games per bot."""
from __future__ import annotations

import os
import re
import zipfile
from pathlib import Path

import pytest
from gg_testing import ROOT
from test_student_check import HIDE_MODULES
from workflow_support import gamegrader

from harness.intake.reading import GAMES_MARKER
from harness.paths import solution_folder, template_folder
from harness.release.build import build_student

pytestmark = pytest.mark.slow

MAIN = {"isolation": ("player.py", "player_account.py"), "othello": ("agent.py", "agent.py")}
PLAIN = "Isolation: plain child process with a wall-clock timeout"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each game's student package, unzipped."""
    folder = tmp_path_factory.mktemp("play-packages")
    unzipped = {}
    for name in MAIN:
        build_student(name, folder / f"{name}.zip")
        with zipfile.ZipFile(folder / f"{name}.zip") as archive:
            archive.extractall(folder / name)
        unzipped[name] = folder / name
    return unzipped


def play(package: Path, *args: str, cwd: Path, hide: Path | None = None):
    """The package's own ``gamegrader play ARGS`` (its harness first on the path)."""
    path = [str(hide)] if hide else []
    return gamegrader("play", *args, cwd=cwd,
                      env={"PYTHONPATH": os.pathsep.join([*path, str(package)])})


def _homework(tmp_path: Path, source: Path, file: str) -> Path:
    folder = tmp_path / "homework"
    folder.mkdir()
    (folder / file).write_bytes(source.read_bytes())
    return folder / file


def _rung(stdout: str, bot: str) -> tuple[int, int, int]:
    found = re.search(rf"^{bot}: won (\d+), drew (\d+), lost (\d+) of ", stdout, re.MULTILINE)
    assert found is not None, stdout[-3000:]
    return int(found.group(1)), int(found.group(2)), int(found.group(3))


def _replays(stdout: str) -> list[Path]:
    return [Path(page) for page in re.findall(r"replay: (\S+\.html)", stdout)]


@pytest.mark.parametrize("name", sorted(MAIN))
def test_the_reference_beats_randy_and_every_game_has_its_replay_page(
        packages: dict[str, Path], name: str, tmp_path: Path) -> None:
    handout = MAIN[name][0]
    player = _homework(tmp_path, solution_folder(name) / handout, handout)
    out = tmp_path / "pages"
    done = play(packages[name], player.name, "--bot", "random", "--games", "2", "--out",
                str(out), cwd=player.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    wins, draws, losses = _rung(done.stdout, "random")
    assert wins + draws + losses == 2 and wins >= 1, done.stdout
    rate = re.search(r"^random: .*; win rate (\d+)% \(a draw half a win\), 95% interval "
                     r"(\d+)% to (\d+)% \(estimated (\d+)%\)$", done.stdout, re.MULTILINE)
    assert rate is not None, done.stdout
    shown, low, high, estimate = map(int, rate.groups())
    assert shown == round(100 * (wins + draws / 2) / 2) and low < estimate < high
    assert "on the ladder: rung 1, worth 0 points for winning 2 of its 2 games" in done.stdout
    pages = _replays(done.stdout)
    assert [page.name for page in pages] == ["random-game1.html", "random-game2.html"]
    assert all(page.parent == out and "<canvas" in page.read_text() for page in pages)
    assert (out / GAMES_MARKER).is_file()


@pytest.mark.parametrize("name", sorted(MAIN))
def test_the_template_loses_to_every_bot_students_may_play_and_no_other(
        packages: dict[str, Path], name: str, tmp_path: Path) -> None:
    template = MAIN[name][1]
    player = _homework(tmp_path, template_folder(name) / template, template)
    done = play(packages[name], player.name, "--games", "1", cwd=player.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    bots = re.findall(r"^(\w+): won ", done.stdout, re.MULTILINE)
    assert bots == (["random", "greedy"] if name == "isolation" else ["random"])
    assert all(_rung(done.stdout, bot) == (0, 0, 1) for bot in bots)
    assert done.stdout.count("lost: forfeit") == len(bots)
    assert all(page.parent == player.parent / "games" for page in _replays(done.stdout))


def test_a_staff_bot_an_unknown_bot_a_missing_path_and_a_code_folder_out_are_refused(
        packages: dict[str, Path], tmp_path: Path) -> None:
    player = _homework(tmp_path, solution_folder("isolation") / "player.py",
                       "player.py")
    for bot, words in (("reference", "'reference' is one of the staff's bots"),
                       ("nobody", "no house bot 'nobody'")):
        done = play(packages["isolation"], player.name, "--bot", bot, cwd=player.parent)
        assert done.returncode == 2
        assert f"{words}" in done.stderr and "the bots you can play: random, greedy" in \
            done.stderr
    done = play(packages["isolation"], "missing.py", cwd=player.parent)
    assert done.returncode == 2 and "no such file or folder: missing.py" in done.stderr
    assert not (player.parent / "games").exists()  # nothing was played
    done = play(packages["isolation"], player.name, "--out", ".", cwd=player.parent)
    assert done.returncode == 2 and "holds Python files: give --out a folder of its own" in \
        done.stderr  # marked as a games folder, the student's code would be skipped
    assert not (player.parent / GAMES_MARKER).exists()


def test_the_repository_plays_the_same_bots(tmp_path: Path) -> None:
    """The instructor install narrows the ladder itself: the same bots as the package's."""
    player = _homework(tmp_path, template_folder("isolation") / "player_account.py",
                       "player_account.py")
    done = gamegrader("play", player.name, "--games", "1", cwd=player.parent,
                      env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.findall(r"^(\w+): won ", done.stdout, re.MULTILINE) == ["random", "greedy"]


def test_a_syntax_error_or_a_missing_handout_file_is_said_once_and_nothing_played(
        packages: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "homework"
    folder.mkdir()
    (folder / "agent.py").write_text("def select_move_alphabeta(board, color:\n    pass\n")
    done = play(packages["othello"], "agent.py", cwd=folder)
    assert done.returncode == 1
    assert done.stdout.count("SyntaxError") == 1 and "agent.py, line 1" in done.stdout
    assert "nothing played" in done.stderr and "won" not in done.stdout
    assert not (folder / "games").exists()
    (folder / "agent.py").unlink()  # a folder without the handout's file
    (folder / "notes.txt").write_text("my notes\n")
    done = play(packages["othello"], ".", cwd=folder)
    assert done.returncode == 1 and "nothing played" in done.stderr
    assert "Missing: agent.py. Python files submitted: none." in done.stdout


def test_without_pwd_resource_fcntl_the_games_run_in_plain_child_processes(
        packages: dict[str, Path], tmp_path: Path) -> None:
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(HIDE_MODULES)
    player = _homework(tmp_path, solution_folder("isolation") / "player.py",
                       "player.py")
    done = play(packages["isolation"], player.name, "--bot", "random", "--games", "1",
                cwd=player.parent, hide=hide)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stdout + done.stderr
    assert PLAIN in done.stdout
    assert sum(_rung(done.stdout, "random")) == 1 and len(_replays(done.stdout)) == 1


def test_the_package_readme_shows_play(packages: dict[str, Path]) -> None:
    readme = (packages["isolation"] / "README.md").read_text()
    assert ".venv/bin/gamegrader play path/to/player.py" in readme
    assert ".venv\\Scripts\\gamegrader play path\\to\\player.py" in readme
    assert "(random, greedy)" in readme
    assert "(random)" in (packages["othello"] / "README.md").read_text()


CRASHES = {"isolation": ("def choose_move(board, player, time_left):\n",
                         "def choose_move(board, player, time_left):\n    helper_that_fails()\n"),
           "othello": ("        print(i, j, flush=True)",
                       "        helper_that_fails(); print(i, j, flush=True)")}
CRASH_BEFORE = {"isolation": "def choose_move(", "othello": "def run_ai("}


@pytest.mark.parametrize("name", sorted(MAIN))
def test_a_crash_shows_its_traceback_with_the_students_file_names(
        packages: dict[str, Path], name: str, tmp_path: Path) -> None:
    handout = MAIN[name][0]
    old, new = CRASHES[name]
    source = (solution_folder(name) / handout).read_text(encoding="utf-8")
    assert old in source
    player = tmp_path / "homework" / handout
    player.parent.mkdir()
    helper = "def helper_that_fails():\n    return open('no-such-file.txt').read()\n\n\n"
    anchor = CRASH_BEFORE[name]
    assert anchor in source
    player.write_text(source.replace(old, new, 1).replace(anchor, helper + anchor, 1),
                      encoding="utf-8")
    out = tmp_path / "pages"
    done = play(packages[name], player.name, "--bot", "random", "--games", "1", "--out",
                str(out), cwd=player.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    shown = done.stdout.split("lost: forfeit (crash)", 1)[1]
    assert "your stderr ended with:" in shown, done.stdout
    assert "in helper_that_fails" in shown and "FileNotFoundError" in shown
    assert f'{handout}", line' in shown or f"{handout}, line" in shown
    page = _replays(done.stdout)[0].read_text(encoding="utf-8")
    assert "helper_that_fails" in page and "FileNotFoundError" in page
    for text in (done.stdout, page):
        assert "scratch" not in text and "case-0" not in text
