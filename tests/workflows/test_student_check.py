"""A student's ``gamegrader check`` tells the whole truth (issue 36, items 3-7), tried as a student
would: the student package unzipped (here inside the homework folder), its own harness run.

- a one-assignment package finds its assignment from the handout's and the template's names, and
  a misnamed file is told the expected name;
- the checker never takes its own files for the student's, wherever it is unzipped;
- where pwd, resource and fcntl do not exist (Windows), cases run in plain child processes with
  a wall-clock timeout, and the output says so;
- code needing a newer Python than Gradescope's is warned about at the top, in check and grade;
- a syntax error is reported once, at the top, with its line.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader
from workflow_support import gamegrader

from harness.cli.common import infer_assignment
from harness.intake.reading import STUDENT_PACKAGE_MARKER, take
from harness.intake.submission import find_files
from harness.paths import solution_folder, template_folder
from harness.release.build import build_student
from harness.sandbox import levels
from harness.sandbox.levels import Level
from harness.spec import SpecError
from harness.worker.handle import set_cpu_limit

pytestmark = pytest.mark.slow

EXCEPT_STAR = "\n\ndef _newer():\n    try:\n        pass\n    except* ValueError:\n        pass\n"
HIDE_MODULES = '''import sys


class _Hidden:
    """Windows has none of these: the checker must manage without them."""

    def find_spec(self, name, path=None, target=None):
        if name in ("pwd", "resource", "fcntl"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _Hidden())
for _name in ("pwd", "resource", "fcntl"):
    sys.modules.pop(_name, None)
'''


def _total(stdout: str) -> tuple[float, float]:
    found = re.search(r"Total on the cases run here: ([\d.]+)/([\d.]+) points", stdout)
    assert found is not None, stdout[-3000:]
    return float(found.group(1)), float(found.group(2))


@pytest.fixture(scope="module")
def homework(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A homework folder with the Dominoes student package unzipped in ``checker/`` and the
    reference solution beside it (as docs/workflows.md shows)."""
    folder = tmp_path_factory.mktemp("homework")
    build_student("adversarial_search", folder / "student.zip")
    with zipfile.ZipFile(folder / "student.zip") as archive:
        archive.extractall(folder / "checker")
    (folder / "student.zip").unlink()
    (folder / "adversarial_search.py").write_bytes(
        (solution_folder("adversarial_search") / "adversarial_search.py").read_bytes())
    return folder


def check(package: Path, *args: str, cwd: Path, hide: Path | None = None
          ) -> subprocess.CompletedProcess[str]:
    """The package's own ``gamegrader check ARGS`` (its harness first on the path), run in
    ``cwd``; ``hide``: a folder whose sitecustomize hides modules from the checker."""
    path = [str(hide)] if hide else []
    return gamegrader("check", *args, cwd=cwd,
                      env={"PYTHONPATH": os.pathsep.join([*path, str(package)])})


def _checker_named(stdout: str) -> list[str]:
    """Lines of the output that name a file of the checker as the student's."""
    own = ("harness/", "assignments/", "checker/", ".yaml", "README.md",
           "Not given to your code")
    return [line for line in stdout.splitlines() if any(word in line for word in own)]


# --- item 5: the checker never counts itself ----------------------------------------------------

@pytest.mark.parametrize("where", ["outside", "inside", "folder"])
def test_the_checker_unzipped_in_the_homework_folder_lists_none_of_its_files(
        homework: Path, where: str) -> None:
    package = homework / "checker"
    if where == "outside":  # checker/ inside the homework folder: check ../adversarial_search.py
        done = check(package, "../adversarial_search.py", cwd=package)
    elif where == "folder":  # the whole homework folder
        done = check(package, ".", cwd=homework)
    else:  # the student's file put beside harness/ in the package
        beside = package / "adversarial_search.py"
        beside.write_bytes((homework / "adversarial_search.py").read_bytes())
        try:
            done = check(package, "adversarial_search.py", cwd=package)
        finally:
            beside.unlink()
    assert done.returncode == 0, done.stderr[-3000:]
    assert _checker_named(done.stdout) == [], done.stdout[:3000]
    earned, possible = _total(done.stdout)
    assert earned == possible > 0


def test_an_unzipped_package_is_never_the_students_code(tmp_path: Path) -> None:
    """Even one the running checker is not (another copy, or the checker pip-installed)."""
    (tmp_path / "agent.py").write_text("x = 1\n")
    (tmp_path / "helper.py").write_text("y = 2\n")
    copy = tmp_path / "old-checker"
    (copy / "harness").mkdir(parents=True)
    (copy / STUDENT_PACKAGE_MARKER).write_text("")
    (copy / "harness" / "cli.py").write_text("z = 3\n")
    (copy / "cases.yaml").write_text("a: 1\n")
    found = find_files(tmp_path / "agent.py", ("agent.py",), siblings=True)
    assert sorted(found.layout()) == ["agent.py", "helper.py"]
    assert not any("old-checker" in note for note in found.notes), found.notes


def test_skipped_paths_are_left_out_only_below_the_submission(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "agent.py").write_text("x = 1\n")
    (tmp_path / "tool").mkdir()
    (tmp_path / "tool" / "helper.py").write_text("y = 2\n")
    names = {str(f.path) for f in take(tmp_path, skip=[tmp_path / "tool"]).files}
    assert names == {"mine/agent.py"}
    # a skipped path holding the submission (the file inside the checker's folder) skips nothing
    names = {str(f.path) for f in take(tmp_path / "mine", skip=[tmp_path]).files}
    assert names == {"agent.py"}


# --- item 4: the assignment is found, and a misnamed file is told the expected name -------------

@pytest.fixture(scope="module")
def isolation_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("isolation")
    build_student("isolation", folder / "student.zip")
    with zipfile.ZipFile(folder / "student.zip") as archive:
        archive.extractall(folder / "package")
    return folder / "package"


@pytest.mark.parametrize("name", ["player_account.py", "player_jdoe.py", "my_player.py"])
def test_a_one_assignment_package_needs_no_assignment_name(
        isolation_package: Path, name: str, tmp_path: Path) -> None:
    """The template's own name, the handout's ``player_<account>.py``, or any other: the
    package serves one assignment."""
    template = isolation_package / "assignments" / "isolation" / "template" / "player_account.py"
    (tmp_path / name).write_bytes(template.read_bytes())
    done = check(isolation_package, name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "(isolation)" in done.stdout.splitlines()[0]
    _total(done.stdout)  # the cases the package holds ran (issue 36 item 1 adds Isolation's)
    expected = "Expected player.py; graded my_player.py as it." if name == "my_player.py" \
        else f"Graded {name} as player.py."
    assert expected in done.stdout


def test_a_misnamed_file_is_graded_and_told_the_expected_name(homework: Path,
                                                               tmp_path: Path) -> None:
    (tmp_path / "adversarial_serach.py").write_bytes(
        (homework / "adversarial_search.py").read_bytes())
    done = check(homework / "checker", "adversarial_serach.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Expected adversarial_search.py; graded adversarial_serach.py as it." in done.stdout
    earned, possible = _total(done.stdout)
    assert earned == possible > 0


@pytest.mark.parametrize(("name", "assignment"), [
    ("player_jdoe.py", "isolation"), ("player_account.py", "isolation"),
    ("player-jdoe (1).py", "isolation"), ("adversarial_serach.py", "adversarial_search"),
    ("Search_And_Games.py", "search_and_games"), ("stonehenge.py", "stonehenge"),
    ("strategy.py", "stonehenge"), ("strategy (1).py", "stonehenge")])
def test_the_repository_infers_the_assignment_from_handout_template_and_near_names(
        name: str, assignment: str, tmp_path: Path) -> None:
    (tmp_path / name).write_text("x = 1\n")
    assert infer_assignment(tmp_path / name) == assignment


def test_an_ambiguous_or_unknown_name_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text("x = 1\n")
    with pytest.raises(SpecError, match="it fits othello, othello_2025.*pass --assignment"):
        infer_assignment(tmp_path / "agent.py")
    (tmp_path / "homework.py").write_text("x = 1\n")
    with pytest.raises(SpecError, match="the handouts name the files adversarial_search.py"):
        infer_assignment(tmp_path / "homework.py")


# --- item 6: no pwd, resource or fcntl ----------------------------------------------------------

@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hide")
    (folder / "sitecustomize.py").write_text(HIDE_MODULES)
    return folder


def test_the_package_readme_gives_the_commands_of_each_platform(homework: Path) -> None:
    readme = (homework / "checker" / "README.md").read_text()
    assert ".venv/bin/gamegrader check path/to/adversarial_search.py" in readme
    assert ".venv\\Scripts\\gamegrader check path\\to\\adversarial_search.py" in readme


def test_a_system_without_the_modules_gets_the_plain_level(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setattr(levels, "MISSING", ("resource",))
    [only] = levels.candidates()
    assert only.level is Level.PLAIN and not only.prefix
    if os.geteuid() == 0:  # student code never runs as root
        assert (only.uid, only.switch_user) == (levels.NOBODY_ID, True)


def test_the_worker_runs_without_rlimits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "resource", None)  # import resource now fails
    set_cpu_limit(5)  # the wall clock alone then limits the case


def test_limits_the_system_lacks_are_left_out() -> None:
    """macOS has no RLIMIT_MSGQUEUE: the others still apply, in a child of its own."""
    script = ("import resource\ndel resource.RLIMIT_MSGQUEUE\n"
              "from harness.sandbox.limits import Limits, apply_limits\n"
              "apply_limits(Limits(open_files=20), own_user=False)\n"
              "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["20"]


def test_the_hook_really_hides_the_modules(hidden: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(hidden)}
    done = subprocess.run([sys.executable, "-c", "import pwd"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0 and "No module named 'pwd'" in done.stderr


def test_without_pwd_resource_fcntl_the_reference_gets_every_visible_point(
        homework: Path, hidden: Path) -> None:
    package = homework / "checker"
    done = check(package, "../adversarial_search.py", cwd=package, hide=hidden)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stdout + done.stderr
    assert "Isolation: plain child process with a wall-clock timeout" in done.stdout
    earned, possible = _total(done.stdout)
    assert earned == possible > 0


def test_without_pwd_resource_fcntl_a_hanging_file_is_stopped_by_the_wall_clock(
        homework: Path, hidden: Path, tmp_path: Path) -> None:
    # it hangs asleep: the wall clock is all that stops it either way, where a loop would
    # burn the check's whole 10 s import wait in CPU time (the CPU-time bound of the sandboxed
    # levels is tested on spinning files in tests/hostile/)
    (tmp_path / "adversarial_search.py").write_text(
        "import time\nwhile True:\n    time.sleep(1)\n")
    done = check(homework / "checker", "adversarial_search.py", cwd=tmp_path, hide=hidden)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "importing your file did not finish within" in done.stdout
    assert _total(done.stdout)[0] == 0


# --- all at once, for each of the five assignments ---------------------------------------------

TEMPLATE_MAINS = {"adversarial_search": "adversarial_search.py",
                  "search_and_games": "search_and_games.py", "othello": "agent.py",
                  "isolation": "player_account.py", "stonehenge": "stonehenge.py"}


@pytest.mark.parametrize("name", sorted(TEMPLATE_MAINS))
def test_each_package_checks_its_template_as_a_windows_student_would(
        name: str, hidden: Path, tmp_path: Path) -> None:
    """The package unzipped in the homework folder beside the template's files (the main one
    with 3.11 syntax added), pwd, resource and fcntl hidden, no --assignment."""
    build_student(name, tmp_path / "student.zip")
    with zipfile.ZipFile(tmp_path / "student.zip") as archive:
        archive.extractall(tmp_path / "checker")
    for file in template_folder(name).glob("*.py"):
        (tmp_path / file.name).write_bytes(file.read_bytes())
    main = tmp_path / TEMPLATE_MAINS[name]
    main.write_text(main.read_text() + EXCEPT_STAR)
    done = check(tmp_path / "checker", f"../{main.name}", cwd=tmp_path / "checker", hide=hidden)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stdout + done.stderr
    top = _top(done.stdout)
    assert f"({name})" in top.splitlines()[0]
    assert f"{main.name}, line " in top and "`except*` needs Python 3.11" in top
    assert "Isolation: plain child process with a wall-clock timeout" in top
    assert _checker_named(done.stdout) == [], top
    assert _total(done.stdout)[0] == 0


# --- items 3 and 7: a newer Python's syntax, a syntax error -------------------------------------

def _top(stdout: str) -> str:
    """What check prints before the first case."""
    return stdout.split("\nPASS ", 1)[0].split("\nFAIL ", 1)[0]


def test_a_311_file_is_warned_about_at_the_top_in_check_and_grade(homework: Path,
                                                                   tmp_path: Path) -> None:
    source = (homework / "adversarial_search.py").read_text() + EXCEPT_STAR
    line = source.splitlines().index("    except* ValueError:") + 1
    (tmp_path / "adversarial_search.py").write_text(source)
    warning = f"adversarial_search.py, line {line}: `except*` needs Python 3.11"
    done = check(homework / "checker", "adversarial_search.py", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert warning in _top(done.stdout) and "Gradescope runs your code under Python 3.10" in \
        _top(done.stdout)
    output = tmp_path / "results.json"
    graded = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                            str(tmp_path / "adversarial_search.py"), "--output", str(output),
                            "--quiet", "--timeout-cap", "5")
    assert graded.returncode == 0, graded.stderr[-2000:]
    assert warning in json.loads(output.read_text())["output"]


def test_a_syntax_error_is_reported_once_at_the_top_with_its_line(tmp_path: Path) -> None:
    file = tmp_path / "adversarial_search.py"
    file.write_text("class DominoesGame:\n    def __init__(self, board:\n        pass\n")
    output = tmp_path / "results.json"
    done = run_gamegrader("grade", "--assignment", "adversarial_search", "--submission",
                          str(file), "--output", str(output), "--quiet")
    assert done.returncode == 3, done.stderr[-2000:]  # ungradable: no case could run
    document = json.loads(output.read_text())
    assert document["output"].count("SyntaxError") == 1
    assert "adversarial_search.py, line 2" in document["output"]
    assert len(document["tests"]) > 1
    for test in document["tests"]:
        assert "was never closed" not in test["output"] and "line 2" not in test["output"]
        assert "not run (see above: adversarial_search.py)" in test["output"]


def test_a_missing_second_file_is_named_once(tmp_path: Path) -> None:
    """Stonehenge without strategy.py: what was found is said once, not under each case."""
    (tmp_path / "stonehenge.py").write_text("x = 1\n")
    output = tmp_path / "results.json"
    done = run_gamegrader("grade", "--assignment", "stonehenge", "--submission", str(tmp_path),
                          "--output", str(output), "--quiet", "--timeout-cap", "5")
    assert done.returncode == 0, done.stderr[-2000:]
    document = json.loads(output.read_text())
    assert document["output"].count("Missing: strategy.py") == 1, document["output"]
    assert not any("Missing:" in test["output"] for test in document["tests"])
