"""pytest plugin: spec files become test items, graded through the one grading API.

A thin adapter over ``harness.grading.api.GradingSession``, so instructors can run specs with
pytest's selection (``-k``, ``-x``, ``--lf``); ``gamegrader grade`` grades without pytest.

Follows pytest's documented pattern for non-Python tests: ``pytest_collect_file`` picks up
``test_specs/<assignment>/cases/*.yaml``; each case is an Item whose failure is reported in the
assignment's terms. Use directly as
``pytest -p harness.pytest_plugin test_specs/NAME --gg-submission FILE [--gg-results OUT]``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from harness.grading import results as results_file
from harness.grading.api import GradingOptions, GradingSession
from harness.records.spec import Assignment, Case, Visibility
from harness.records.verdicts import CaseResult
from harness.spec import SpecError, load_assignment, load_case_file
from harness.spec.schema import MAX_TIMEOUT


class GradingRun:
    """Plugin state for one pytest session: the grading session and the loaded assignments."""

    def __init__(self, submission: Path | None, results_path: Path | None,
                 options: GradingOptions) -> None:
        self.results_path = results_path
        self.options = options
        self.session = GradingSession(submission, options) if submission else None
        self.assignments: dict[Path, Assignment] = {}
        self.spec_errors: list[str] = []

    def assignment(self, folder: Path) -> Assignment:
        if folder not in self.assignments:
            self.assignments[folder] = load_assignment(folder)
        return self.assignments[folder]

    def grading(self) -> GradingSession:
        if self.session is None:
            raise pytest.UsageError("grading needs --gg-submission PATH")
        return self.session


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
                                   config.getoption("--gg-results"), GradingOptions(
                                       visible_only=config.getoption("--gg-visible-only"),
                                       budget=config.getoption("--gg-budget"),
                                       timeout_cap=config.getoption("--gg-timeout-cap"),
                                       siblings=config.getoption("--gg-siblings")))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".yaml" and file_path.parent.name == "cases" \
            and (file_path.parent.parent / "assignment.yaml").is_file():
        return SpecFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Tell each assignment's grader, before it starts, which cases it will grade, so that the
    time budget is shared between their groups (``harness.timing.budget``)."""
    run = session.config.stash[RUN]
    if run.session is not None:
        for item in session.items:
            if isinstance(item, SpecItem):
                run.session.plan(item.assignment, [item.case])


class SpecFile(pytest.File):
    """A case file; yields one item per case, in file order (generated cases last)."""

    def collect(self) -> Iterator[pytest.Item]:
        run = self.config.stash[RUN]
        try:
            assignment = run.assignment(self.path.parent.parent)
            number = assignment.case_files.index(self.path) + 1
            cases = load_case_file(self.path, assignment, number)
        except SpecError as exc:
            run.spec_errors.append(str(exc))
            raise
        for case in cases:
            if run.options.visible_only and case.visibility is not Visibility.VISIBLE:
                continue
            item = SpecItem.from_parent(self, name=f"{case.group}[{case.name}]", case=case,
                                        assignment=assignment)
            # a relative limit is scaled to the host while grading: allow its largest value
            longest = MAX_TIMEOUT if case.relative_timeout else case.timeout
            item.add_marker(pytest.mark.timeout(longest + 60))
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
        result = self.config.stash[RUN].grading().grade(self.assignment, self.case)
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
    if run.session is None:
        return
    run.session.spec_errors.extend(run.spec_errors)
    cases = [item.case for item in session.items if isinstance(item, SpecItem)]
    document = run.session.finish(cases)  # every student process is gone before writing
    if run.results_path is not None:
        results_file.write(run.results_path, document)
