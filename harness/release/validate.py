"""``gamegrader validate``: the grader's release check, one assignment at a time.

1. every spec file parses and names comparators and runners that exist;
2. ``gamegrader generate --check`` finds no stale generated file;
3. the reference solution (every file of ``assignments/NAME/solution/``, submitted as a folder)
   passes every case;
4. every wrong implementation in ``assignments/NAME/mutants.yaml`` fails exactly the cases
   listed for it (and loses exactly ``lost`` points when that is given).

Grading runs through the same jobs as ``gamegrader batch``: each submission in its own
``gamegrader grade`` process, in parallel. Problems are reported, never raised.

The mutants file maps a mutant's name to::

    why: one line saying what is wrong and why exactly those cases catch it
    file: helpers.py                # optional: the solution file to edit (default: the main file)
    replace: [[old, new], ...]      # each old text must occur in the file
    files: [02_get_best_move]       # optional: grade only these case files (a faster run)
    fails: ["group::case name", "group::#1*"]   # the failing case ids; "*" matches any text
    lost: 17.0                      # optional: the points lost (out of the graded cases' total),
                                    # or per group: {board: 5.5, captures: 17.0}
    feedback: ["text"]              # optional: texts each shown in some failed case's output
"""
from __future__ import annotations

import functools
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import jsonschema
import yaml

from harness.batch.jobs import Job, JobResult, grade_job, read_files
from harness.parallel.executors import default_workers, run_local
from harness.paths import (
    ASSIGNMENTS,
    EQUIVALENT_MUTANTS,
    MUTANTS,
    ROOT_ENV,
    TESTS,
    assignment_folder,
    project_root,
    solution_folder,
)
from harness.records.spec import Assignment
from harness.records.verdicts import Verdict
from harness.spec import SpecError, find_assignment
from harness.spec.assignments import REFERENCE_TIMES
from harness.spec.generate import generate
from harness.spec.loader import (
    load_checked_cases,
    partial_copy_text,
    precomputed_path,
)
from harness.spec.yaml_files import read_yaml
from harness.timing.calibration import find_speed_ahead

MUTANT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": {
        "type": "object",
        "required": ["why", "replace", "fails"],
        "additionalProperties": False,
        "properties": {
            "why": {"type": "string", "minLength": 1},
            "file": {"type": "string"},
            "replace": {"type": "array", "minItems": 1, "items": {
                "type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "string"}}},
            "files": {"type": "array", "minItems": 1, "items": {"type": "string"}},
            "fails": {"type": "array", "minItems": 1, "items": {"type": "string"}},
            "lost": {"oneOf": [
                {"type": "number", "minimum": 0},
                {"type": "object", "minProperties": 1,
                 "additionalProperties": {"type": "number", "exclusiveMinimum": 0}}]},
            "feedback": {"type": "array", "minItems": 1,
                         "items": {"type": "string", "minLength": 1}},
        },
    },
}


@dataclass(frozen=True)
class Check:
    """One line of the release check: what was checked, whether it held, and the details."""

    assignment: str
    name: str
    ok: bool
    detail: str = ""


@dataclass
class ValidationReport:
    """Every check made, in order."""

    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def render(self) -> str:
        """One line per check (OK or FAIL), details indented, and a closing count."""
        lines = []
        for check in self.checks:
            lines.append(f"{'OK  ' if check.ok else 'FAIL'} {check.assignment}: {check.name}")
            if check.detail and not check.ok:
                lines.extend("       " + line for line in check.detail.splitlines())
        failed = sum(1 for c in self.checks if not c.ok)
        lines.append(f"{len(self.checks) - failed} passed, {failed} failed")
        return "\n".join(lines)


@dataclass(frozen=True)
class Mutant:
    """A wrong implementation: the reference solution with some text replaced."""

    name: str
    why: str
    file: str
    replace: tuple[tuple[str, str], ...]
    files: tuple[str, ...]
    fails: tuple[str, ...]
    lost: float | dict[str, float] | None
    feedback: tuple[str, ...] = ()


def mutants_path(name: str) -> Path:
    return assignment_folder(name) / MUTANTS


def load_mutants(assignment: Assignment) -> list[Mutant]:
    """The assignment's mutants (none if it has no mutants file).

    Raises:
        SpecError: the mutants file is not valid (naming the mutant and field at fault).
    """
    path = mutants_path(assignment.name)
    if not path.is_file():
        return []
    data = read_yaml(path) or {}
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(MUTANT_SCHEMA).iter_errors(data))
    if error is not None:
        where = [str(part) for part in error.absolute_path]
        raise SpecError(path, error.message, case=where[0] if where else None,
                        field=".".join(where[1:]) or None)
    return [Mutant(name, entry["why"], entry.get("file", assignment.main_file),
                   tuple((old, new) for old, new in entry["replace"]),
                   tuple(entry.get("files", ())), tuple(entry["fails"]), entry.get("lost"),
                   tuple(entry.get("feedback", ())))
            for name, entry in data.items()]


def matches(pattern: str, case_id: str) -> bool:
    """Whether ``case_id`` is ``pattern``, where ``*`` in the pattern matches any text.

    >>> matches("get_best_move::#1*", "get_best_move::#12 3x3 board"), matches("a::b", "a::bc")
    (True, False)
    """
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, case_id, flags=re.DOTALL) is not None


def _check_specs(assignment: Assignment) -> Check:
    try:
        cases = load_checked_cases(assignment)
    except SpecError as exc:
        return Check(assignment.name, "specs parse", False, str(exc))
    return Check(assignment.name, "specs parse", True, f"{len(cases)} cases")


FRESH_CHECK = "generated cases up to date"
GeneratedChecks = dict[tuple[Path, ...], Check]
"""The generated-files check made for each set of case files in one run of the release check."""


def _check_generated(assignment: Assignment, checked: GeneratedChecks) -> Check:
    """Whether the generated files of ``assignment`` are current. They are rendered from its
    case files alone, so a variant whose case files are another assignment's (othello_2025's
    are othello's) has the answer found for those files earlier in the run: regenerating
    Othello's cases takes tens of core-seconds."""
    earlier = checked.get(assignment.case_files)
    if earlier is not None:
        return Check(assignment.name, FRESH_CHECK, earlier.ok,
                     f"the case files of {earlier.assignment}, checked above")
    try:
        stale = generate(assignment, check=True)
    except Exception as exc:  # a broken generator is a finding here, not a crash
        check = Check(assignment.name, FRESH_CHECK, False, f"{type(exc).__name__}: {exc}")
    else:
        check = Check(assignment.name, FRESH_CHECK, not stale,
                      "out of date (run 'gamegrader generate " + assignment.name + "'): "
                      + ", ".join(str(p) for p in stale))
    checked[assignment.case_files] = check
    return check


def subset_root(assignment: Assignment, stems: Sequence[str], folder: Path, *,
                generated: bool = True) -> Path:
    """Make ``folder`` a GAMEGRADER_ROOT whose copy of the assignment holds only the case files
    named by ``stems`` (e.g. ``02_get_best_move``); ``reference/``, the rest of the assignment's
    folder (template, plug-in modules) and the other assignments (whose cases an ``include`` may
    name) are links to the real ones. With
    ``generated=False`` the case files lose their ``generate`` blocks (hand-written cases only: a
    quick run).

    Raises:
        SpecError: a stem names no case file of the assignment.
    """
    real = project_root()
    specs = folder / ASSIGNMENTS / assignment.name
    cases = assignment.cases_folder or assignment.folder / "cases"  # a variant's: the varied's
    (specs / "cases").mkdir(parents=True)
    (specs / "generated").mkdir()
    (specs / "assignment.yaml").write_bytes(
        partial_copy_text(assignment.folder / "assignment.yaml"))
    if (assignment.folder / REFERENCE_TIMES).is_file():
        shutil.copy2(assignment.folder / REFERENCE_TIMES, specs)
    for stem in stems:
        case_file = cases / f"{stem}.yaml"
        if not case_file.is_file():
            raise SpecError(cases, f"no case file {case_file.name}")
        if not generated:
            data = read_yaml(case_file)
            data.pop("generate", None)
            (specs / "cases" / case_file.name).write_text(yaml.safe_dump(data, sort_keys=False),
                                                          encoding="utf-8")
            if precomputed_path(case_file).is_file():  # the hand-written cases' answers
                shutil.copy2(precomputed_path(case_file), specs / "generated")
            continue
        shutil.copy2(case_file, specs / "cases")
        for made in (cases.parent / "generated").glob(f"{stem}.*.yaml"):
            shutil.copy2(made, specs / "generated")
    (folder / "reference").symlink_to(real / "reference")
    for other in (real / ASSIGNMENTS).iterdir():  # case files may include another's cases
        if other.is_dir() and other.name != assignment.name:
            (folder / ASSIGNMENTS / other.name).symlink_to(other)
    for part in assignment.folder.iterdir():  # not the mutants: a test writes its own
        if not (specs / part.name).exists() and part.name not in (
                "__pycache__", TESTS, MUTANTS, EQUIVALENT_MUTANTS):
            (specs / part.name).symlink_to(part)
    return folder


def mutant_files(mutant: Mutant, solution: dict[str, bytes], where: Path) -> dict[str, bytes]:
    """The files of the wrong implementation: ``solution`` with the mutant's edits applied.

    Raises:
        SpecError: the file to edit is not in the solution, or an edit does not apply (the
            error names ``where``, the mutants file).
    """
    if mutant.file not in solution:
        raise SpecError(where, f"{mutant.file} is not a file of the reference solution "
                        f"({', '.join(sorted(solution))})", case=mutant.name, field="file")
    text = solution[mutant.file].decode("utf-8")
    for index, (old, new) in enumerate(mutant.replace):
        if old not in text:
            raise SpecError(where, f"the text to replace does not occur in {mutant.file}: "
                            f"{old[:80]!r}", case=mutant.name, field=f"replace[{index}]")
        text = text.replace(old, new)
    return {**solution, mutant.file: text.encode("utf-8")}


def _mutant_job(assignment: Assignment, mutant: Mutant, solution: dict[str, bytes],
                scratch: Path, timeout_cap: float | None) -> Job:
    """The job grading ``mutant``.

    Raises:
        SpecError: the file to edit is not in the solution, or an edit does not apply.
    """
    where = mutants_path(assignment.name)
    files = mutant_files(mutant, solution, where)
    env = {}
    if mutant.files:
        try:
            # names repeat across assignments
            folder = scratch / f"{assignment.name}--{mutant.name}"
            root = subset_root(assignment, mutant.files, folder)
        except SpecError as exc:
            raise SpecError(where, str(exc), case=mutant.name, field="files") from exc
        env[ROOT_ENV] = str(root)
    return Job(f"{assignment.name}--{mutant.name}", assignment.name, files, False, timeout_cap,
               env=env)


def failed_ids(document: dict[str, Any]) -> list[str]:
    """Case ids of the tests that did not pass, in test order."""
    return [str(t.get("extra_data", {}).get("case_id", t.get("name")))
            for t in document.get("tests", []) if t.get("status") != "passed"]


TIME_VERDICTS = frozenset({Verdict.TIMED_OUT.name, Verdict.NOT_RUN.name})
"""Verdicts (as results.json names them) that a busy machine can cause: a case that overran its
limit, or was not run as its group's share of the time budget was used up."""


def short_of_time(outcome: JobResult) -> bool:
    """Whether some case of the graded ``outcome`` ended for lack of time."""
    tests = (outcome.document or {}).get("tests", [])
    return any(t.get("extra_data", {}).get("verdict") in TIME_VERDICTS for t in tests)


def _graded_again(check: Check) -> Check:
    note = ("(graded a second time, alone and with the specs' own time limits, as a case of "
            "the first grading ran out of time)")
    return replace(check, detail=f"{check.detail}\n{note}".strip()) if not check.ok else check


def judge_reference(name: str, outcome: JobResult) -> Check:
    if not outcome.is_final or outcome.document is None:
        return Check(name, "reference solution passes every case", False, outcome.problem)
    failed = failed_ids(outcome.document)
    total = sum(t.get("max_score", 0) for t in outcome.document.get("tests", []))
    detail = "failed: " + ", ".join(failed) if failed else (
        f"score {outcome.document.get('score')} of {total}")
    return Check(name, "reference solution passes every case", not failed, detail)


def judge_mutant(name: str, mutant: Mutant, outcome: JobResult) -> Check:
    """Whether the mutant failed exactly the listed cases (and lost exactly ``lost``)."""
    label = f"wrong implementation '{mutant.name}' fails exactly its cases"
    if not outcome.is_final or outcome.document is None:
        return Check(name, label, False, outcome.problem)
    problems = mutant_problems(mutant, outcome.document)
    return Check(name, label, not problems, "\n".join(problems))


def mutant_problems(mutant: Mutant, document: dict[str, Any]) -> list[str]:
    """How the graded ``document`` of ``mutant`` differs from its pins (none: as pinned)."""
    failed = failed_ids(document)
    unmatched = [p for p in mutant.fails if not any(matches(p, f) for f in failed)]
    extra = [f for f in failed if not any(matches(p, f) for p in mutant.fails)]
    problems = []
    if unmatched:
        problems.append("expected to fail but passed: " + "; ".join(unmatched))
    if extra:
        problems.append("failed but not listed: " + "; ".join(extra))
    tests = document.get("tests", [])
    problems.extend(_lost_problems(mutant.lost, tests, document.get("score", 0)))
    outputs = [str(t.get("output", "")) for t in tests if t.get("status") != "passed"]
    problems.extend(f"no failed case's feedback shows {text!r}" for text in mutant.feedback
                    if not any(text in output for output in outputs))
    if problems:
        problems.append(f"({mutant.why})")
    return problems


def lost_by_group(tests: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Points lost per group (the text before the first ": " of a test's name), for the groups
    that lost any.

    >>> lost_by_group([{"name": "a: x", "max_score": 2, "score": 0.5},
    ...                {"name": "b: y", "max_score": 1, "score": 1}])
    {'a': 1.5}
    """
    lost: dict[str, float] = {}
    for test in tests:
        group = str(test.get("name", "")).split(": ", 1)[0]
        lost[group] = lost.get(group, 0.0) + test.get("max_score", 0) - test.get("score", 0)
    return {group: round(points, 4) for group, points in lost.items() if round(points, 4)}


def _lost_problems(expected: float | dict[str, float] | None,
                   tests: Sequence[dict[str, Any]], score: float) -> list[str]:
    """What differs between the points a mutant lost and the ``lost`` pinned for it."""
    if isinstance(expected, dict):
        lost = lost_by_group(tests)
        return [f"lost {lost.get(group, 0):g} points in {group}, "
                f"expected {expected.get(group, 0):g}"
                for group in sorted(set(lost) | set(expected))
                if abs(lost.get(group, 0) - expected.get(group, 0)) > 1e-3]
    total = round(sum(t.get("max_score", 0) for t in tests) - score, 4)
    if expected is not None and abs(total - expected) > 1e-3:
        return [f"lost {total:g} points, expected {expected:g}"]
    return []


Judge = Callable[[JobResult], Check]


def _plan(name: str, scratch: Path, timeout_cap: float | None, mutants: bool,
          only_mutants: Sequence[str], reference: bool
          ) -> tuple[list[Check], list[tuple[Job, Judge]], Assignment | None]:
    """The checks that need no grading, made now, and the grading jobs with their judges; and
    the assignment whose generated files are to be checked while they are graded (then the
    second check is a stand-in for that check)."""
    try:
        assignment = find_assignment(name)
    except SpecError as exc:
        return [Check(name, "specs parse", False, str(exc))], [], None
    checks = [_check_specs(assignment)]
    if not checks[0].ok:
        return checks, [], None
    checks.append(Check(name, FRESH_CHECK, False, "not checked"))
    folder = solution_folder(name)
    if not folder.is_dir():
        checks.append(Check(name, "reference solution passes every case", False,
                            f"{folder} does not exist"))
        return checks, [], assignment
    solution, _, _ = read_files(folder)
    planned: list[tuple[Job, Judge]] = []
    if reference:
        planned.append((Job(f"{name}--reference", name, solution, False, timeout_cap),
                        functools.partial(judge_reference, name)))
    try:
        listed = load_mutants(assignment) if mutants else []
    except SpecError as exc:
        checks.append(Check(name, "wrong implementations are well formed", False, str(exc)))
        listed = []
    for mutant in listed:
        if only_mutants and mutant.name not in only_mutants:
            continue
        try:
            job = _mutant_job(assignment, mutant, solution, scratch, timeout_cap)
        except SpecError as exc:
            checks.append(Check(name, f"wrong implementation '{mutant.name}' is well formed",
                                False, str(exc)))
            continue
        planned.append((job, functools.partial(judge_mutant, name, mutant)))
    return checks, planned, assignment


def _grade_and_judge(planned: Sequence[tuple[Job, Judge]], workers: int,
                     alongside: Callable[[], None]) -> list[Check]:
    """Grade every planned job (``workers`` at a time) and judge it, running ``alongside()``
    in a thread meanwhile (the generated-files checks: single-threaded, a minute of CPU for
    Othello's and Isolation's, while the gradings wait on games' clocks and their own
    processes). A job whose check fails while some case ran out of time is graded again, one
    at a time and with the specs' own limits, and that verdict stands: what the machine's load
    decided is not the code's."""
    outcomes: dict[str, JobResult] = {}

    def record(outcome: JobResult) -> None:
        outcomes[outcome.key] = outcome

    graded = {job.assignment for job, _ in planned}
    if any(find_assignment(name).reference_times for name in graded):
        find_speed_ahead()  # before the workers load every CPU (as ``gamegrader batch`` does)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="gg-validate") as side:
        done = side.submit(alongside)
        run_local([job for job, _ in planned], workers, record, grade_job, pin=True)
        done.result()
    checks = {job.key: judge(outcomes[job.key]) for job, judge in planned}
    again = {job.key: job for job, _ in planned
             if not checks[job.key].ok and short_of_time(outcomes[job.key])}
    if again:
        run_local([replace(job, timeout_cap=None) for job in again.values()], 1, record, grade_job,
                  pin=True)
    for job, judge in planned:
        if job.key in again:
            checks[job.key] = _graded_again(judge(outcomes[job.key]))
    return [checks[job.key] for job, _ in planned]


def validate(names: Sequence[str], *, workers: int | None = None,
             timeout_cap: float | None = None, mutants: bool = True,
             only_mutants: Sequence[str] = (), reference: bool = True) -> ValidationReport:
    """Run the release check on the named assignments and return every check made, grouped by
    assignment in the order given.

    Args:
        names: assignment short names.
        workers: submissions graded at once (default: the number of CPUs).
        timeout_cap: passed to every grading run (quick runs; the release check should use
            the specs' own timeouts).
        mutants: whether to grade the wrong implementations.
        only_mutants: if given, grade only the mutants with these names.
        reference: whether to grade the reference solution (tests that check only the wrong
            implementations skip it).
    """
    report = ValidationReport()
    planned: list[tuple[Job, Judge]] = []
    fresh: list[tuple[int, Assignment]] = []  # where each generated-files check goes
    with tempfile.TemporaryDirectory(prefix="gamegrader-validate-") as temporary:
        for name in names:
            checks, jobs, assignment = _plan(name, Path(temporary), timeout_cap, mutants,
                                             only_mutants, reference)
            if assignment is not None:
                fresh.append((len(report.checks) + 1, assignment))
            report.checks.extend(checks)
            planned.extend(jobs)

        def check_generated() -> None:
            generated: GeneratedChecks = {}
            for index, assignment in fresh:
                report.checks[index] = _check_generated(assignment, generated)

        report.checks.extend(_grade_and_judge(planned, workers or default_workers(),
                                              check_generated))
    order = {name: index for index, name in enumerate(names)}
    report.checks.sort(key=lambda check: order.get(check.assignment, len(order)))  # stable
    return report
