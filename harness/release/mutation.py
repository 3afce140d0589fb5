"""Spec strength as a number: automatic mutants of an assignment's reference solution, graded
against its cases. A mutant is caught when any case fails; the score is the share caught among
the mutants not declared equivalent (a change no test can see, listed with the reason in
``tests/mutants/NAME.equivalent.yaml``). A surviving mutant is a case to add.

The mutants come from cosmic-ray's operators (``cosmic_ray.mutating.mutate_code``: comparison,
arithmetic, boolean, constant and loop mutations), one change per mutant. Each is graded by the
same Grader as a submission, case by case in spec order, stopping at the first failure. The
reference is graded first on the same cases under the same cap: a case it fails itself (a game
that cannot finish under a short cap) would catch every mutant, so it is left out and named.
"""
from __future__ import annotations

import concurrent.futures
import difflib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import jsonschema

from harness.grading.grader import Grader
from harness.paths import project_root
from harness.records.spec import Assignment, Case
from harness.records.verdicts import Verdict
from harness.spec import SpecError, find_assignment
from harness.spec.loader import load_case_file
from harness.spec.yaml_files import read_yaml

EQUIVALENT_SCHEMA: dict[str, Any] = {"type": "array", "items": {
    "type": "object", "required": ["file", "before", "after", "why"],
    "additionalProperties": False,
    "properties": {"file": {"type": "string"}, "before": {"type": "string"},
                   "after": {"type": "string"}, "why": {"type": "string", "minLength": 1}}}}


class MutationUnavailable(ImportError):
    """cosmic-ray (the ``mutation`` extra) is not installed."""


@dataclass(frozen=True)
class Mutant:
    """One automatic change to one solution file: the line before and after."""

    file: str
    operator: str
    line: int
    before: str
    after: str
    source: str = field(repr=False, compare=False)

    @property
    def key(self) -> tuple[str, str, str]:
        """What identifies it across edits elsewhere in the file (line numbers shift)."""
        return self.file, self.before.strip(), self.after.strip()

    def describe(self) -> str:
        return f"{self.file}:{self.line}: {self.before.strip()}  ->  {self.after.strip()}"


def _operators() -> list[tuple[str, Any]]:
    try:
        from cosmic_ray.plugins import get_operator, operator_names
    except ImportError as exc:
        raise MutationUnavailable(
            "mutation testing needs cosmic-ray: pip install 'gamegrader[mutation]'") from exc
    operators = []
    for name in sorted(operator_names()):
        try:
            operators.append((name.split("/")[-1], get_operator(name)()))
        except TypeError:  # operators that need arguments (variable replacers) are skipped
            continue
    return operators


def _changed_line(before: str, after: str) -> tuple[int, str, str]:
    old, new = before.splitlines(), after.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new).get_opcodes():
        if tag != "equal":
            return i1 + 1, "\n".join(old[i1:i2]), "\n".join(new[j1:j2])
    return 0, "", ""


def mutants_of(name: str, source: str) -> Iterator[Mutant]:
    """Every single-change mutant of ``source`` (the file ``name``)."""
    from cosmic_ray.mutating import mutate_code
    for operator_name, operator in _operators():
        occurrence = 0
        while (mutated := mutate_code(source, operator, occurrence)) is not None:
            occurrence += 1
            line, before, after = _changed_line(source, mutated)
            if line:
                yield Mutant(name, operator_name, line, before, after, mutated)


def load_equivalent(assignment: str) -> dict[tuple[str, str, str], str]:
    """Declared equivalent mutants: key -> why.

    Raises:
        SpecError: the file is not valid.
    """
    path = project_root() / "tests" / "mutants" / f"{assignment}.equivalent.yaml"
    if not path.is_file():
        return {}
    data = read_yaml(path) or []
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(EQUIVALENT_SCHEMA).iter_errors(data))
    if error is not None:
        raise SpecError(path, error.message)
    return {(e["file"], e["before"].strip(), e["after"].strip()): e["why"] for e in data}


def chosen_cases(assignment: Assignment, stems: Sequence[str] = ()) -> list[Case]:
    """The cases of the case files named ``stems`` (all files when empty), in spec order.

    Raises:
        SpecError: a stem names no case file of the assignment.
    """
    files = assignment.case_files
    unknown = set(stems) - {path.stem for path in files}
    if unknown:
        raise SpecError(assignment.folder / "cases", f"no case file named {sorted(unknown)}; "
                        f"the files are {[path.stem for path in files]}")
    return [case for number, path in enumerate(files, 1) if not stems or path.stem in stems
            for case in load_case_file(path, assignment, number)]


def failures(assignment_name: str, files: dict[str, str], timeout_cap: float, *,
             stems: Sequence[str] = (), skip: frozenset[str] = frozenset(),
             first_only: bool = True) -> list[str]:
    """The ids of the cases (in spec order, ``skip`` left out) that ``files`` fail; with
    ``first_only``, grading stops at the first."""
    assignment = find_assignment(assignment_name)
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="gamegrader-mutant-") as folder:
        for name, text in files.items():
            (Path(folder) / name).write_text(text, encoding="utf-8")
        grader = Grader(assignment, Path(folder), budget=3600, timeout_cap=timeout_cap)
        try:
            for case in chosen_cases(assignment, stems):
                if case.id not in skip and grader.grade(case).verdict is not Verdict.PASSED:
                    failed.append(case.id)
                    if first_only:
                        break
        finally:
            grader.close()
    return failed


def first_failure(assignment_name: str, files: dict[str, str], timeout_cap: float, *,
                  stems: Sequence[str] = (), skip: frozenset[str] = frozenset()) -> str:
    """The id of the first case (in spec order) that ``files`` fail, or "" if none does."""
    failed = failures(assignment_name, files, timeout_cap, stems=stems, skip=skip)
    return failed[0] if failed else ""


def spread(items: Sequence[Any], limit: int | None) -> list[Any]:
    """At most ``limit`` of ``items``, evenly spaced (every operator gets its share, where the
    first ``limit`` would be the alphabetically first operators only)."""
    if limit is None or limit >= len(items):
        return list(items)
    return [items[i * len(items) // limit] for i in range(max(limit, 0))]


@dataclass
class MutationReport:
    """How many mutants the cases catch, and which survive."""

    assignment: str
    total: int = 0
    caught: int = 0
    equivalent: list[Mutant] = field(default_factory=list)
    survivors: list[Mutant] = field(default_factory=list)
    stems: tuple[str, ...] = ()
    reference_fails: tuple[str, ...] = ()

    @property
    def score(self) -> float:
        counted = self.total - len(self.equivalent)
        return self.caught / counted if counted else 1.0

    def render(self) -> str:
        where = f" (case files {', '.join(self.stems)})" if self.stems else ""
        lines = [f"{self.assignment}{where}: {self.caught} of "
                 f"{self.total - len(self.equivalent)} mutants caught ({self.score:.1%}); "
                 f"{len(self.equivalent)} declared equivalent, {len(self.survivors)} survived"]
        lines.extend(f"    not counted (the reference fails it under this cap): {case}"
                     for case in self.reference_fails)
        lines.extend(f"    survived: {m.describe()}  [{m.operator}]" for m in self.survivors)
        return "\n".join(lines)


def mutation_report(assignment_name: str, *, workers: int = 2, timeout_cap: float = 5.0,
                    limit: int | None = None, stems: Sequence[str] = ()) -> MutationReport:
    """Grade every mutant of every file of ``reference/solutions/NAME/`` (at most ``limit``,
    evenly spread) on the case files ``stems`` (default: all)."""
    folder = project_root() / "reference" / "solutions" / assignment_name
    solution = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py"))}
    equivalent = load_equivalent(assignment_name)
    mutants = spread([m for name, text in solution.items() for m in mutants_of(name, text)],
                     limit)
    skip = frozenset(failures(assignment_name, solution, timeout_cap, stems=stems,
                              first_only=False))
    report = MutationReport(assignment_name, total=len(mutants), stems=tuple(stems),
                            reference_fails=tuple(sorted(skip)))
    graded: list[Mutant] = []
    for mutant in mutants:
        (report.equivalent if mutant.key in equivalent else graded).append(mutant)
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(first_failure, assignment_name, {**solution, m.file: m.source},
                               timeout_cap, stems=stems, skip=skip): m for m in graded}
        for future in concurrent.futures.as_completed(futures):
            if future.result():
                report.caught += 1
            else:
                report.survivors.append(futures[future])
    report.survivors.sort(key=lambda m: (m.file, m.line))
    return report


def mutation_reports(names: Sequence[str], **options: Any) -> list[MutationReport]:
    return [mutation_report(name, **options) for name in names]
