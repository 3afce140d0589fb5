"""Load and validate spec files. Every problem becomes a ``SpecError`` naming file/case/field."""
from __future__ import annotations

import ast
import functools
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator, Sequence

from harness.records.spec import Assignment, Case, RelativeTimeout, Visibility
from harness.spec import schema
from harness.spec.api_reach import required_names
from harness.spec.assignments import REFERENCE_TIMES
from harness.spec.doctests import parse_transcript
from harness.spec.errors import SpecError
from harness.spec.kit_key import with_the_assignments_kit
from harness.spec.yaml_files import check_schema, read_yaml

DEFAULTS: dict[str, Any] = {"points": 1, "visibility": "visible", "timeout": 10,
                            "compare": "doctest"}
DEFAULT_AT_LEAST = 1.0
RECORDING_TIMEOUT = 120.0


def generated_path(case_file: Path, block_id: str) -> Path:
    return case_file.parent.parent / "generated" / f"{case_file.stem}.{block_id}.yaml"


def generated_source(block: dict[str, Any]) -> dict[str, Any]:
    """The part of a ``generate`` block that decides the generated cases."""
    return {"generator": block["generator"], "seed": block["seed"], "count": block["count"],
            "params": block.get("params", {})}


def _names_used(path: Path, case: str, sources: list[str]) -> set[str]:
    names: set[str] = set()
    for index, source in enumerate(sources, 1):
        try:
            names |= _names_in(source)
        except SyntaxError as exc:
            raise SpecError(path, f"example {index} is not valid Python: {exc.msg}",
                            case=case, field="doctest") from exc
    return names


@functools.lru_cache(maxsize=8192)
def _names_in(source: str) -> frozenset[str]:
    """The names and attribute names one example's source uses (kept per source, as
    ``parse_transcript`` keeps its transcripts)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return frozenset(names)


def precomputed_path(case_file: Path) -> Path:
    """Where ``gamegrader generate`` writes the answers of a case file's ``precompute`` cases."""
    return case_file.parent.parent / "generated" / f"{case_file.stem}.precomputed.yaml"


def _precomputed(path: Path) -> dict[str, dict[str, Any]]:
    """The precomputed answers of case file ``path`` by case name (none when there is no file)."""
    target = precomputed_path(path)
    if not target.is_file():
        return {}
    data = read_yaml(target)
    check_schema(target, data, "precomputed_file")
    return {entry["name"]: entry for entry in data["cases"]}


def with_precomputed(path: Path, entry: dict[str, Any],
                     answers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``entry`` with its ``precompute`` answer in its options (as ``precomputed``), the key
    itself dropped: the case then needs no trusted code beyond its comparator.

    Raises:
        SpecError: the answer is missing, or was computed from other options or another
            function (a stale file: run ``gamegrader generate``).
    """
    if "precompute" not in entry:
        return entry
    name = str(entry.get("name"))
    options = entry.get("options", {})
    answer = answers.get(name)
    if answer is None or answer["precompute"] != entry["precompute"] \
            or answer["options"] != options:
        where = precomputed_path(path).name
        raise SpecError(path, f"{where} has no answer for this case's options: run 'gamegrader "
                        "generate'", case=name, field="precompute")
    rest = {key: value for key, value in entry.items() if key != "precompute"}
    return {**rest, "options": {**options, "precomputed": answer["data"]}}


def _raw_cases(path: Path, data: dict[str, Any], seen_files: tuple[Path, ...] = (),
               precomputed: bool = True) -> Iterator[tuple[dict[str, Any], bool]]:
    """Every case entry of a file, fully merged with its defaults, in order: hand-written
    entries, each generate block's entries (from its generated file), then included files'.
    With ``precomputed`` (always, except while ``generate`` computes them) a case naming a
    ``precompute`` function gets its answer (:func:`with_precomputed`).
    """
    answers = _precomputed(path) if precomputed else {}
    for entry, generated in _own_cases(path, data):
        yield (with_precomputed(path, entry, answers) if precomputed else entry), generated
    yield from _included_cases(path, data, seen_files, precomputed)


def _own_cases(path: Path, data: dict[str, Any]) -> Iterator[tuple[dict[str, Any], bool]]:
    """A file's hand-written and generated entries, merged with its defaults."""
    defaults = {**DEFAULTS, **data.get("defaults", {})}
    for entry in data.get("cases", []):
        yield {**defaults, **entry}, False
    if "suite" in data:
        yield from ((entry, False) for entry in _suite_entries(path, data["suite"], defaults))
    for block in data.get("generate", []):
        target = generated_path(path, block["id"])
        if not target.is_file():
            raise SpecError(path, f"{target} is missing: run 'gamegrader generate'",
                            case=block["id"], field="generate")
        generated = read_yaml(target)
        check_schema(target, generated, "generated_file")
        if generated["source"] != generated_source(block):
            raise SpecError(path, f"{target.name} was made from other settings: run "
                            "'gamegrader generate'", case=block["id"], field="generate")
        settings = {k: v for k, v in block.items()
                    if k not in ("id", "generator", "seed", "count", "params")}
        for entry in generated["cases"]:
            yield {**defaults, **settings, **entry}, True


def _suite_entries(path: Path, suite: str, defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """A ``suite:``'s test methods as case entries (``harness.native``)."""
    from harness.native.suite import suite_entries
    from harness.native.transcript import SuiteProblem
    try:
        return suite_entries(path, suite, defaults)
    except SuiteProblem as exc:
        raise SpecError(path, str(exc), field="suite") from exc


def _included_cases(path: Path, data: dict[str, Any], seen_files: tuple[Path, ...],
                    precomputed: bool) -> Iterator[tuple[dict[str, Any], bool]]:
    """The entries of the files ``path`` includes, scaled and overridden."""
    for index, include in enumerate(data.get("include", [])):
        other = (path.parent / include["file"]).resolve()
        if other in seen_files or other == path.resolve():
            raise SpecError(path, f"{include['file']} includes itself", field=f"include[{index}]")
        if not other.is_file():
            raise SpecError(path, f"{include['file']} does not exist", field=f"include[{index}]")
        included = read_yaml(other)
        check_schema(other, included, "case_file")
        override = include.get("override", {})
        scale = include.get("points_scale", 1)
        for entry, generated in _raw_cases(other, included, (*seen_files, path.resolve()),
                                           precomputed):
            entry = {**entry, "points": entry["points"] * scale}
            yield {**entry, **override}, generated


def spec_files(assignment: Assignment) -> set[Path]:
    """Every file grading the assignment reads: its assignment.yaml and case files, their
    generated files and unittest suites, and included case files (with theirs), wherever
    they are."""
    found: set[Path] = {assignment.folder / "assignment.yaml"}
    if assignment.variant_of:  # read under the variant's own
        found.add(assignment.variant_of / "assignment.yaml")
    if (assignment.folder / REFERENCE_TIMES).is_file():
        found.add(assignment.folder / REFERENCE_TIMES)
    pending = list(assignment.case_files)
    while pending:
        path = pending.pop().resolve()
        if path in found:
            continue
        found.add(path)
        data = read_yaml(path) or {}
        for block in data.get("generate", []) or []:
            found.add(generated_path(path, block["id"]).resolve())
        if precomputed_path(path).is_file():
            found.add(precomputed_path(path).resolve())
        if isinstance(data.get("suite"), str):
            found.add((path.parent / data["suite"]).resolve())
        pending.extend(path.parent / include["file"] for include in data.get("include", []) or [])
    return found


def flattened_entries(path: Path) -> list[dict[str, Any]]:
    """The case entries of one case file with defaults, generated cases and includes resolved:
    plain ``cases`` entries that need no other file (used for the student package)."""
    data = read_yaml(path)
    check_schema(path, data, "case_file")
    return [entry for entry, _ in _raw_cases(path, data)]


def own_entries(path: Path) -> list[dict[str, Any]]:
    """A case file's own entries (hand-written and generated, not included), merged with its
    defaults and without precomputed answers: what ``generate`` computes those from."""
    return [entry for entry, _ in _own_cases(path, read_case_file(path))]


def _time_limit(path: Path, assignment: Assignment, case_id: str, name: str,
                value: Any) -> tuple[float, RelativeTimeout | None]:
    """A case's timeout: seconds, or relative to the reference's recorded time, with its value
    on the nominal machine (RECORDING_TIMEOUT while the times are being recorded, with the
    reference's time left at 0)."""
    problem = schema.timeout_problem(value)
    if problem:
        raise SpecError(path, problem, case=name, field="timeout")
    if not isinstance(value, dict):
        return float(value), None
    relative = RelativeTimeout(float(value["reference"]),
                               float(value.get("at_least", DEFAULT_AT_LEAST)), 0.0)
    if assignment.reference_times is None:
        return RECORDING_TIMEOUT, relative
    recorded = assignment.reference_times.get(case_id)
    if recorded is None:
        raise SpecError(path, f"the timeout is relative to the reference, whose time for this "
                        f"case is not in {REFERENCE_TIMES}: run 'gamegrader calibrate "
                        f"{assignment.name} --record'", case=name, field="timeout")
    relative = replace(relative, reference_seconds=recorded)
    return relative.seconds(1.0, schema.MAX_TIMEOUT), relative


def read_case_file(path: Path) -> dict[str, Any]:
    """A case file's data, checked against the case-file schema (``generate`` reads its
    ``generate`` blocks from it before any generated file exists).

    Raises:
        SpecError: the file is not valid YAML or breaks the schema (naming case and field).
    """
    data: dict[str, Any] = read_yaml(path)
    check_schema(path, data, "case_file")
    return data


def load_case_file(path: Path, assignment: Assignment, file_number: int) -> list[Case]:
    """Read one case file (and its generated cases) into Cases, in file order, each checked
    against the plug-ins it names (``check_case_references``: the comparator and runner exist,
    the runner's options fit what it declares), so no caller holds a case that cannot run; a
    runner that plays a game kit gets the assignment's (``kit_key``).

    Raises:
        SpecError: the file, a case, or a generated file is invalid.
    """
    from harness.spec.registry import check_case_references  # it imports this module
    cases = [with_the_assignments_kit(case, assignment)
             for case in _read_cases(path, assignment, file_number)]
    for case in cases:
        check_case_references(case)
    return cases


def _read_cases(path: Path, assignment: Assignment, file_number: int) -> list[Case]:
    data = read_case_file(path)
    cases: list[Case] = []
    seen: set[str] = set()
    for index, (merged, generated) in enumerate(_raw_cases(path, data), 1):
        name = str(merged["name"])
        if name in seen:
            raise SpecError(path, "two cases share this name", case=name, field="name")
        seen.add(name)
        has_doctest, has_runner = "doctest" in merged, "runner" in merged
        if has_doctest == has_runner:
            raise SpecError(path, "a case needs exactly one of 'doctest' and 'runner'",
                            case=name, field="doctest")
        examples: tuple[Any, ...] = ()
        if has_doctest:
            try:
                examples = parse_transcript(merged["doctest"])
            except ValueError as exc:
                raise SpecError(path, str(exc), case=name, field="doctest") from exc
        used = _names_used(path, name, [e.source for e in examples])
        requires = required_names(assignment.api, used)
        case_id = f"{data['group']}::{name}"
        timeout, relative = _time_limit(path, assignment, case_id, name, merged["timeout"])
        cases.append(Case(
            id=case_id, number=f"{file_number}.{index}",
            group=data["group"], name=name, points=float(merged["points"]),
            visibility=Visibility(merged["visibility"]), timeout=timeout,
            relative_timeout=relative,
            file=path, examples=examples, compare=merged["compare"],
            runner=merged.get("runner"), options=merged.get("options", {}),
            stdin=merged.get("stdin"), tags=tuple(merged.get("tags", [])),
            module=merged.get("module"), diagnose=merged.get("diagnose"),
            picture=merged.get("picture"),
            mirror_of=f"{data['group']}::{merged['mirror_of']}" if "mirror_of" in merged else None,
            alone=bool(merged.get("alone", False)), requires=requires, generated=generated))
    return cases


def _check_mirrors(cases: Sequence[Case]) -> None:
    """Each ``mirror_of`` names a visible case of the same group (the flag compares the two).

    Raises:
        SpecError: it names no such case.
    """
    visible = {case.id for case in cases if case.visibility is Visibility.VISIBLE}
    for case in cases:
        if case.mirror_of is not None and case.mirror_of not in visible:
            raise SpecError(case.file, f"mirror_of names no visible case of group "
                            f"{case.group!r}: {case.mirror_of.split('::', 1)[1]!r}",
                            case=case.name, field="mirror_of")


def load_all_cases(assignment: Assignment) -> list[Case]:
    """Every case of the assignment, file by file in name order."""
    cases: list[Case] = []
    for number, path in enumerate(assignment.case_files, 1):
        cases.extend(load_case_file(path, assignment, number))
    _check_mirrors(cases)
    if assignment.ladder:
        from harness.spec.ladder import ladder_case
        cases.append(ladder_case(assignment, len(assignment.case_files) + 1))
    return cases


_TOTAL_POINTS_LINE = re.compile(r"^total_points:[^\n]*\n?", re.MULTILINE)
_LADDER_BLOCK = re.compile(r"^ladder:[^\n]*\n(?:(?:[ \t][^\n]*)?\n)*", re.MULTILINE)


def partial_copy_text(assignment_yaml: Path) -> bytes:
    """``assignment.yaml`` for a copy of the assignment that keeps only some of its cases (the
    student package, the release check's subsets): without ``total_points``, which states the
    whole assignment's total and would refuse the part (``check_total_points``), and without
    the ``ladder``, a case of the whole assignment (a secret one, playing staff bots)."""
    text = assignment_yaml.read_text(encoding="utf-8")
    return _LADDER_BLOCK.sub("", _TOTAL_POINTS_LINE.sub("", text)).encode()


def check_total_points(assignment: Assignment, cases: list[Case]) -> None:
    """Refuse an assignment whose ``total_points`` is not the sum of its cases' points (the
    instructor's stated total and what students can earn must agree).

    Raises:
        SpecError: naming assignment.yaml and the field ``total_points``.
    """
    if assignment.total_points is None:
        return
    total = sum(case.points for case in cases)
    if abs(total - float(assignment.total_points)) > 1e-6:
        raise SpecError(assignment.folder / "assignment.yaml",
                        f"total_points is {assignment.total_points:g}, but the cases' points "
                        f"add up to {total:g} ({len(cases)} cases); make them agree",
                        field="total_points")


def load_checked_cases(assignment: Assignment) -> list[Case]:
    """Every case, checked as far as can be without grading: each file against its schema,
    the comparators and runners named (``load_case_file``), and the points against
    ``total_points``. What ``list``, ``build``, ``validate`` and ``generate --check`` refuse to go
    past.

    Raises:
        SpecError: the first problem found, naming its file, case and field.
    """
    cases = load_all_cases(assignment)
    check_total_points(assignment, cases)
    return cases
