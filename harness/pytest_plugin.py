"""pytest plugin: spec files become test items, and one run writes one results.json.

Follows pytest's documented pattern for non-Python tests: ``pytest_collect_file`` picks up
``test_specs/<assignment>/cases/*.yaml``; each case is an Item whose failure is reported in the
assignment's terms. Use directly as
``pytest -p harness.pytest_plugin test_specs/NAME --gg-submission FILE [--gg-results OUT]``.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from harness import results as results_file
from harness.compare.registry import check_case_references
from harness.grader import Grader
from harness.spec import SpecError, load_assignment, load_case_file
from harness.spec.model import Assignment, Case, Visibility
from harness.verdicts import CaseResult


class GradingRun:
    """Plugin state for one pytest session: graders, results, and spec problems."""

    def __init__(self, submission: Path | None, results_path: Path | None, visible_only: bool,
                 budget: float | None, timeout_cap: float | None = None,
                 siblings: bool = False) -> None:
        self.timeout_cap = timeout_cap
        self.siblings = siblings
        self.submission = submission
        self.results_path = results_path
        self.visible_only = visible_only
        self.budget = budget
        self.started = time.monotonic()
        self.assignments: dict[Path, Assignment] = {}
        self.graders: dict[str, Grader] = {}
        self.results: dict[str, CaseResult] = {}
        self.spec_errors: list[str] = []
        self.planned: dict[str, list[Case]] = {}  # per assignment, the cases collected to run

    def assignment(self, folder: Path) -> Assignment:
        if folder not in self.assignments:
            self.assignments[folder] = load_assignment(folder)
        return self.assignments[folder]

    def grader(self, assignment: Assignment) -> Grader:
        if self.submission is None:
            raise pytest.UsageError("grading needs --gg-submission PATH")
        if assignment.name not in self.graders:
            budget = self.budget if self.budget is not None else assignment.budget
            remaining = budget - (time.monotonic() - self.started)
            self.graders[assignment.name] = Grader(
                assignment, self.submission, remaining, timeout_cap=self.timeout_cap,
                siblings=self.siblings, planned=self.planned.get(assignment.name, ()))
        return self.graders[assignment.name]

    def ungradable(self) -> dict[str, str]:
        """``{"ungradable": why}`` when no case of the submission could run, else empty."""
        reasons = [g.ungradable for g in self.graders.values() if g.ungradable]
        return {"ungradable": reasons[0]} if reasons else {}

    def summary(self) -> str:
        lines = []
        for name, grader in self.graders.items():
            lines.append(f"Assignment: {grader.assignment.title} ({name})")
            for note in grader.found.notes:
                lines.append(note)
            lines.append(f"Isolation: {grader.isolation_text}")
            lines.extend(grader.summary_lines())
        lines.extend(f"Spec error (tell your instructor): {e}" for e in self.spec_errors)
        return "\n".join(lines)


RUN = pytest.StashKey[GradingRun]()


class CaseFailed(Exception):
    """Raised by an item whose case did not earn full points."""

    def __init__(self, result: CaseResult) -> None:
        super().__init__(result.verdict.value)
        self.result = result


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gamegrader", "grading a submission against YAML specs")
    group.addoption("--gg-submission", type=Path, help="the student's file or folder")
    group.addoption("--gg-results", type=Path, help="where to write results.json")
    group.addoption("--gg-visible-only", action="store_true", help="only visible cases")
    group.addoption("--gg-budget", type=float, help="seconds for the whole run")
    group.addoption("--gg-timeout-cap", type=float, help="no case runs longer than this")
    group.addoption("--gg-siblings", action="store_true", help="a submitted file brings the "
                    "other Python files of its folder (a student's local check)")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[RUN] = GradingRun(config.getoption("--gg-submission"),
                                   config.getoption("--gg-results"),
                                   config.getoption("--gg-visible-only"),
                                   config.getoption("--gg-budget"),
                                   config.getoption("--gg-timeout-cap"),
                                   config.getoption("--gg-siblings"))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and file_path.parent.name == "cases" \
            and (file_path.parent.parent / "assignment.yaml").is_file():
        return SpecFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Tell each assignment's grader, before it starts, which cases it will grade, so that the
    time budget is shared between their groups (``harness.budget``)."""
    run = session.config.stash[RUN]
    for item in session.items:
        if isinstance(item, SpecItem):
            run.planned.setdefault(item.assignment.name, []).append(item.case)


class SpecFile(pytest.File):
    """A case file; yields one item per case, in file order (generated cases last)."""

    def collect(self) -> Iterator[pytest.Item]:
        run = self.config.stash[RUN]
        try:
            assignment = run.assignment(self.path.parent.parent)
            number = assignment.case_files.index(self.path) + 1
            cases = load_case_file(self.path, assignment, number)
            for case in cases:
                check_case_references(case)
        except SpecError as exc:
            run.spec_errors.append(str(exc))
            raise
        for case in cases:
            if run.visible_only and case.visibility is not Visibility.VISIBLE:
                continue
            item = SpecItem.from_parent(self, name=f"{case.group}[{case.name}]", case=case,
                                        assignment=assignment)
            item.add_marker(pytest.mark.timeout(case.timeout + 60))
            yield item

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        if isinstance(excinfo.value, SpecError):
            return f"spec error: {excinfo.value}"
        return super().repr_failure(excinfo)


class SpecItem(pytest.Item):
    """One case of a spec file, graded against the submission."""

    def __init__(self, *, case: Case, assignment: Assignment, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.assignment = assignment

    def runtest(self) -> None:
        run = self.config.stash[RUN]
        result = run.grader(self.assignment).grade(self.case)
        run.results[self.case.id] = result
        if not result.passed:
            raise CaseFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailed):
            return f"{self.case.id} ({self.case.file.name}):\n{excinfo.value.result.feedback()}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, self.case.id


def pytest_sessionfinish(session: pytest.Session) -> None:
    run = session.config.stash[RUN]
    for grader in run.graders.values():
        grader.close()  # every student process is gone before the results are written
    if run.results_path is not None:
        items = [item for item in session.items if isinstance(item, SpecItem)]
        results = [run.results.get(item.case.id) or results_file.not_run(
            [item.case], "not run: grading stopped before this case")[0] for item in items]
        document = results_file.build(
            results, output=run.summary(), execution_time=time.monotonic() - run.started,
            extra={"spec_errors": run.spec_errors, **run.ungradable()})
        results_file.write(run.results_path, document)
