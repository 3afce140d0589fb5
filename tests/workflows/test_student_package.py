"""The student package gives nothing away, for every assignment (issue 13).

Checked by content, not by file name:
- no function body of any reference module that the assignment does not declare safe
  (``student_package``, probe files) is in any Python file of the package, so neither
  the solution files nor the rules, solvers, search code or opponents behind them ship;
- no hidden case: the package's own specs load exactly the visible cases it keeps, each equal
  to the real one, and no hidden expected output occurs anywhere in the package;
- no Python file of the package, handed in under any submission name (alone, or with the rest
  of the template), scores more on the real grading than the untouched template;
- and it still does its job: ``gamegrader check`` run from the unzipped package gives the
  reference solution every point of the visible cases it holds.
"""
from __future__ import annotations

import ast
import functools
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader
from workflow_support import gamegrader

from harness.paths import SOLUTION, TEMPLATE, TESTS, grader_code
from harness.release.build import build_student, shippable_code, student_cases
from harness.spec import find_assignment, list_assignments
from harness.spec.grading_code import module_file
from harness.spec.loader import load_all_cases

pytestmark = pytest.mark.slow

MIN_BODY = 20  # syntax-tree nodes: smaller bodies (return s.strip()) are too common to judge
MIN_WANT = 8  # characters of expected output worth looking for in the package's text
ONLY_FLAGS = re.compile(r"[\[\](), ]*(?:(?:True|False|None)[\[\](), ]*)+")
"""A want made of flags only (``(False, True)``: is_solved of a solved and an unsolved board)
is one of a handful of values any program spells; finding it in the package reveals nothing."""


@functools.lru_cache(maxsize=None)
def _bodies(source: str) -> frozenset[str]:
    """The ``ast.dump`` of every function body of ``source`` big enough to judge; cached, as
    every assignment's test reads the same reference files."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return frozenset()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = ast.Module(body=node.body[1:] if ast.get_docstring(node) else node.body,
                              type_ignores=[])
            if sum(1 for _ in ast.walk(body)) >= MIN_BODY:
                found.add(ast.dump(body))
    return frozenset(found)


def _top_level_names(source: str, *, nested: bool = False) -> set[str]:
    """The functions and classes ``source`` defines at its top level, or with ``nested`` at any
    depth (methods too: a house player's ``choose_move`` method is a name the handout defines)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return set()
    return {node.name for node in (ast.walk(tree) if nested else tree.body)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


@pytest.fixture(scope="module", params=[
    pytest.param(name, marks=pytest.mark.xdist_group(f"student_package_{name}"))
    for name in list_assignments()])
def package(request, tmp_path_factory):
    """(assignment, unzipped student package folder). One xdist group per assignment, so each
    package is built once, on one worker, for the four tests that read it."""
    name = request.param
    folder = tmp_path_factory.mktemp(f"student-{name}")
    build_student(name, folder / "student.zip")
    with zipfile.ZipFile(folder / "student.zip") as archive:
        archive.extractall(folder / "package")
    return find_assignment(name), folder / "package"


def _python_files(folder: Path) -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8", errors="replace")
            for path in sorted(folder.rglob("*.py"))}


def test_no_reference_code_beyond_what_is_declared_safe(package):
    assignment, folder = package
    allowed = shippable_code(assignment) | set(assignment.probe_files)
    given = set().union(*(_bodies(path.read_text(encoding="utf-8")) for path in
                          (assignment.folder / TEMPLATE).rglob("*.py")))
    secret: dict[str, Path] = {}
    for path in grader_code(ROOT):
        if path not in allowed:
            for body in _bodies(path.read_text(encoding="utf-8")) - given:  # not the handout's
                secret.setdefault(body, path)
    assert len(secret) > 100  # the check has something to find
    leaked = {str(source.relative_to(ROOT)): str(path.relative_to(folder))
              for path, text in _python_files(folder).items()
              for body in _bodies(text) if (source := secret.get(body)) is not None}
    assert leaked == {}
    assert not [p for p in folder.rglob("*") if SOLUTION in p.parts or "generated" in p.parts]
    assert not [p for p in folder.glob(f"assignments/*/{TESTS}")]  # the project's own tests


def test_only_visible_cases_and_no_hidden_expected_output(package, monkeypatch):
    assignment, folder = package
    real = {case.id: case for case in load_all_cases(assignment)}
    hidden = [case for case in real.values() if not case.visibility.reveals_expected]
    visible_wants = {e.want.strip() for c in real.values() if c.visibility.reveals_expected
                     for e in c.examples}
    # what a visible transcript says is public anyway (Lights Out's [[True]] is a hidden
    # get_board answer and the board of a visible find_solution call)
    visible_sources = "\n".join(e.source for c in real.values()
                                if c.visibility.reveals_expected for e in c.examples)
    secrets = {want for case in hidden for e in case.examples
               if len(want := e.want.strip()) >= MIN_WANT and want not in visible_sources
               and not ONLY_FLAGS.fullmatch(want)} - visible_wants
    secrets |= {json.dumps(case.options, sort_keys=True) for case in hidden if case.options}
    text = "\n".join(path.read_text(encoding="utf-8", errors="replace")
                     for path in folder.rglob("*") if path.is_file())
    assert [value for value in sorted(secrets) if value in text] == []

    monkeypatch.setenv("GAMEGRADER_ROOT", str(folder))
    shipped = load_all_cases(find_assignment(assignment.name))
    for case in shipped:
        original = real[case.id]
        assert original.visibility.reveals_expected, case.id
        assert (case.examples, case.options, case.points) == \
            (original.examples, original.options, original.points), case.id
        for ref in (case.compare, case.runner or "", case.diagnose or ""):  # all it names ships
            module = ref.partition(":")[0]
            assert ":" not in ref or module_file(module, folder) is not None, (case.id, ref)


def _score(assignment_name: str, files: dict[str, Path], folder: Path, *, cap: bool = True
           ) -> float:
    """The score of ``files`` graded together; ``cap``: each case at most 5 s (a candidate may
    hang)."""
    submission = folder / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    submission.mkdir(parents=True)
    for name, source in files.items():
        shutil.copyfile(source, submission / name)
    output = folder / "results.json"
    done = run_gamegrader("grade", "--assignment", assignment_name, "--submission",
                          str(submission), "--output", str(output), "--quiet",
                          *(["--timeout-cap", "5"] if cap else []))
    assert output.exists(), done.stderr[-2000:]
    return float(json.loads(output.read_text())["score"])


def test_no_file_of_the_package_scores_more_than_the_template(package, tmp_path):
    assignment, folder = package
    template_folder = assignment.folder / TEMPLATE
    template = {name: template_folder / name for name in assignment.submission_files
                if (template_folder / name).is_file()}
    if len(template) != len(assignment.submission_files):  # e.g. player_<account>.py
        template = {name: next(template_folder.glob("*.py")) for name in
                    assignment.submission_files}
    # The template answers every case at once (constants, NotImplementedError), so a cap never
    # binds: graded uncapped, as students are, it is the grading other tests of the template
    # run too, kept once per run (gg_testing.run_gamegrader).
    baseline = _score(assignment.name, template, tmp_path, cap=False)
    # A file can only earn points if it defines a name the handout's files define; the others
    # fail the import check of every case (asserted by their skipping here being sound). Names
    # defined deeper count too: a class whose method is named like the handout's function
    # (Isolation's house players) is handed in as well.
    wanted = set().union(*(_top_level_names(p.read_text()) for p in template_folder.glob("*.py")))
    candidates = [path for path, text in _python_files(folder).items()
                  if _top_level_names(text, nested=True) & wanted
                  and TEMPLATE not in path.relative_to(folder).parts]
    for path in candidates:
        for name in assignment.submission_files:
            score = _score(assignment.name, {**template, name: path}, tmp_path)
            assert score <= baseline, (path.relative_to(folder), name, score, baseline)


def _checked(assignment_name: str, path: Path, folder: Path) -> tuple[float, float, str]:
    """``gamegrader check`` of ``path`` from the unzipped package: (earned, run, output)."""
    done = gamegrader("check", "--assignment", assignment_name, str(path), cwd=folder)
    assert done.returncode == 0, done.stderr[-2000:]
    total = re.search(r"Total on the cases run here: ([\d.]+)/([\d.]+) points", done.stdout)
    assert total is not None, done.stdout[-2000:]
    return float(total.group(1)), float(total.group(2)), done.stdout


def test_the_package_checks_every_visible_point_and_says_what_it_covers(package):
    """The reference earns every visible point the repository's ``list`` shows, the template
    none, and the check's coverage line says that every visible case runs here (issue 36).

    Isolation's games run too (the referee and the random and greedy house players ship), under
    chess clocks that count CPU time (docs/games.md, "What a clock counts"), so a loaded host
    changes neither the reference's search depth nor its results much; it plans a quarter of a
    share of its clock per move (assignments/isolation/README.md, "Load")."""
    assignment, folder = package
    cases = load_all_cases(assignment)
    visible = sum(c.points for c in cases if c.visibility.value == "visible")
    hidden = sum(c.points for c in cases if c.visibility.value != "visible")
    assert student_cases(assignment).left_out == []
    assert assignment.gradescope_only_because == ""  # no reason kept for what no longer holds

    solution = assignment.folder / SOLUTION
    earned, run, output = _checked(assignment.name, solution, folder)
    assert (earned, run) == (pytest.approx(visible), pytest.approx(visible)), output[-3000:]
    assert (f"Visible cases run here: {visible:g} of {visible:g} visible points; hidden cases: "
            f"{hidden:g} points, graded on Gradescope only.") in output, output[-1500:]
    assert "Gradescope only:" not in output
    readme = " ".join((folder / "README.md").read_text(encoding="utf-8").split())
    groups = {c.group: sum(d.points for d in cases if d.group == c.group and
                           d.visibility.value == "visible") for c in cases}
    assert all(f"{group}: " in readme and f" {points:g} point" in readme
               for group, points in groups.items() if points), readme
    assert ("Game cases play whole games" in readme) == any(c.runner for c in cases)

    template = assignment.folder / TEMPLATE
    earned, run, output = _checked(assignment.name, template, folder)
    assert (earned, run) == (0, pytest.approx(visible)), output[-3000:]
