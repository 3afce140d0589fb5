"""Packages made from the repository for one assignment.

- The **autograder zip** Gradescope takes: ``setup.sh`` and ``run_autograder`` at its root, an
  ``ASSIGNMENT`` file, and only what grading needs (the harness, the shared ``reference``
  library, this assignment's folder without its solution, template, tests and mutants, the
  plug-in code of each assignment whose cases it grades, its support files).
  It holds hidden expected values, so it must stay private.
- A **Docker build folder**: the same files unpacked, plus the repository's ``Dockerfile``.
- The **student package**: the harness, the student template (what the handout gives), this
  assignment's *visible* cases only (hidden cases and their generated files are left out, and
  case files are rewritten without them), its probe files, and no trusted code except what
  the roles ``student_package`` in assignment.yaml declares safe to give away
  (``STUDENT_ROLES``). A visible case whose comparator or runner needs any other grader module
  (a solver, the rules the student writes, a strong opponent) is left out of the package and
  runs on Gradescope only; a ``diagnose:`` that needs such code is dropped from the student's
  copy (feedback only).

Zips are reproducible: entries sorted, fixed timestamps, fixed permissions. This module reads
the repository and writes one zip or folder; it runs nothing.
"""
from __future__ import annotations

import shutil
import textwrap
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import yaml

from harness.grading.coverage import (
    COVERAGE_FILE,
    LeftOut,
    coverage_document,
    gradescope_only_reason,
)
from harness.intake.import_policy import imports_rule
from harness.intake.reading import (
    STUDENT_PACKAGE_MARKER,  # at the package's root; see harness.cli.main
)
from harness.paths import (
    ASSIGNMENTS,
    EQUIVALENT_MUTANTS,
    MUTANTS,
    PAGE,
    SOLUTION,
    TEMPLATE,
    TESTS,
    plug_in_files,
    project_root,
)
from harness.records.spec import Assignment, Case
from harness.spec import find_assignment
from harness.spec.assignments import REFERENCE_TIMES
from harness.spec.errors import SpecError
from harness.spec.grading_code import grading_code, module_file, python_closure
from harness.spec.loader import (
    flattened_entries,
    load_all_cases,
    partial_copy_text,
    precomputed_path,
    spec_files,
)
from harness.spec.yaml_files import read_yaml

EXECUTABLE = frozenset({"setup.sh", "run_autograder"})
_LEFT_OUT = {"__pycache__", ".pytest_cache", ".mypy_cache"}
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


@dataclass
class Built:
    """What a build wrote: the zip or folder, its entries (archive names), and notes."""

    path: Path
    entries: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def describe(self) -> list[str]:
        """Lines for the command line: what was written, how many files, and the notes."""
        return [f"wrote {self.path} ({len(self.entries)} files)", *self.notes]


# --- which files ---------------------------------------------------------------------------------

def _tree(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        parts = set(path.relative_to(folder).parts)
        if path.is_file() and not path.is_symlink() and not parts & _LEFT_OUT \
                and path.suffix not in (".pyc", ".pyo"):
            yield path


def autograder_files(assignment: Assignment) -> dict[str, Path]:
    """Archive name -> file, for the autograder zip (without the generated ``ASSIGNMENT``)."""
    root = project_root()
    files: dict[str, Path] = {name: root / name for name in
                              ("setup.sh", "run_autograder", "pyproject.toml", "README.md")}
    spec = [path for path in _tree(assignment.folder)
            if path.relative_to(assignment.folder).parts[0] not in (SOLUTION, TEMPLATE, TESTS)
            and path.relative_to(assignment.folder).as_posix() not in (MUTANTS, EQUIVALENT_MUTANTS,
                                                                       PAGE)]
    library = list(_tree(root / "reference"))
    plug_ins = [path for folder in graded_folders(assignment) for path in plug_in_files(folder)
                if path.suffix not in (".pyc", ".pyo")] + [root / ASSIGNMENTS / "__init__.py"]
    for path in (*_tree(root / "harness"), *library, *spec, *plug_ins):
        files[path.relative_to(root).as_posix()] = path
    for path in (*assignment.support_files, *grading_code(assignment), *spec_files(assignment)):
        files[path.relative_to(root).as_posix()] = path
    return files


# --- writing -------------------------------------------------------------------------------------

def _write_zip(out: Path, entries: dict[str, bytes | Path]) -> list[str]:
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.partial")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(entries):
            content = entries[name]
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if name in EXECUTABLE else 0o644
            info.external_attr = (0o100000 | mode) << 16
            data = content.read_bytes() if isinstance(content, Path) else content
            archive.writestr(info, data)
    temporary.replace(out)
    return sorted(entries)


def write_folder(out: Path, entries: dict[str, bytes | Path]) -> list[str]:
    """Write ``entries`` (relative name -> content) into the folder ``out``, which is replaced;
    ``setup.sh`` and ``run_autograder`` executable."""
    if out.exists():
        shutil.rmtree(out)
    for name, content in entries.items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.read_bytes() if isinstance(content, Path) else content)
        target.chmod(0o755 if name in EXECUTABLE else 0o644)
    return sorted(entries)


def _autograder_entries(name: str) -> dict[str, bytes | Path]:
    assignment = find_assignment(name)
    entries: dict[str, bytes | Path] = dict(autograder_files(assignment))
    entries["ASSIGNMENT"] = f"{assignment.name}\n".encode()
    return entries


def build_autograder(name: str, out: Path) -> Built:
    """Write the Gradescope autograder zip for assignment ``name`` to ``out``.

    Raises:
        SpecError: the assignment is unknown or its specs are broken.
    """
    built = Built(out, _write_zip(out, _autograder_entries(name)))
    built.notes.append("upload it as the autograder of a Gradescope programming assignment; "
                       "it contains the hidden cases, so keep it private")
    return built


def write_docker_context(name: str, out: Path) -> Built:
    """Write the autograder's files unpacked into the folder ``out``, with the Dockerfile, for
    ``docker build --build-arg ASSIGNMENT=NAME -t IMAGE OUT`` (the folder is replaced)."""
    entries = _autograder_entries(name)
    entries["Dockerfile"] = project_root() / "Dockerfile"
    built = Built(out, write_folder(out, entries))
    built.notes.append(f"next: docker build --build-arg ASSIGNMENT={name} -t IMAGE {out}  "
                       "(keep the image private: it contains the hidden cases)")
    return built


# --- the student package -------------------------------------------------------------------------

class _ReadableDumper(yaml.SafeDumper):
    """Multi-line strings (doctest transcripts) as block scalars."""


_ReadableDumper.add_representer(str, lambda dumper, value: dumper.represent_scalar(
    "tag:yaml.org,2002:str", value, style="|" if "\n" in value else None))


STUDENT_ROLES = {"checkers": "checkers", "pictures": "pictures", "games": "runners"}
"""What a student package may hold, by role (``student_package`` in assignment.yaml) -> the
module playing it in an assignment's plug-in code: comparators that read what a case holds,
pictures of a case, and the games' runners (with their kit, referee, rules and the house bots
students may have). Each ships with every module it imports; none is the search students write."""


def graded_folders(assignment: Assignment) -> list[Path]:
    """The folders of the assignments whose cases ``assignment`` grades: its own, and each one
    whose case files it includes (a variant of Othello, Homework 2's Dominoes)."""
    return sorted({path.parent.parent for path in spec_files(assignment)
                   if path.parent.name == "cases"})


def shipped_modules(assignment: Assignment) -> list[str]:
    """The modules playing the assignment's ``student_package`` roles, in each graded folder.

    Raises:
        SpecError: a role is played by no module of those folders.
    """
    root = project_root()
    names = []
    for role in assignment.student_package:
        found = [name for folder in graded_folders(assignment)
                 if module_file(name := ".".join((*folder.relative_to(root).parts,
                                                  STUDENT_ROLES[role])), root)]
        if not found:
            raise SpecError(assignment.folder / "assignment.yaml", f"no {STUDENT_ROLES[role]}.py "
                            f"plays the role {role!r}", field="student_package")
        names += found
    return names


def shippable_code(assignment: Assignment) -> set[Path]:
    """The files of the modules students may have (:func:`shipped_modules` and every module
    they import, with their packages' ``__init__.py``). Only these grader files ever enter a
    student package.

    Raises:
        SpecError: a role is played by no module.
    """
    return python_closure(shipped_modules(assignment), project_root())


def _named_modules(entry: dict[str, Any]) -> list[str]:
    """The modules a case entry names as its comparator and runner."""
    return sorted({ref.partition(":")[0] for ref in (entry.get("compare", ""),
                                                     entry.get("runner", "")) if ":" in ref})


def _grading_code_of(entry: dict[str, Any], known: dict[frozenset[str], set[Path]]) -> set[Path]:
    """Reference files a case entry's comparator and runner import, transitively. ``known``
    keeps the answers of one build by module set: the cases of an assignment name a few
    comparators between them, and each closure parses every file it reaches (once per case,
    this was most of the time of building a student package)."""
    modules = frozenset(_named_modules(entry))
    if modules not in known:
        known[modules] = python_closure(modules, project_root())
    return known[modules]


@dataclass
class StudentCases:
    """The student package's case files, the reference files they need, and the visible cases
    left out because their grading needs code students may not have."""

    files: dict[str, bytes | Path] = field(default_factory=dict)
    code: set[Path] = field(default_factory=set)
    gradescope_only: list[LeftOut] = field(default_factory=list)

    @property
    def left_out(self) -> list[str]:
        """The names (``group: name``) of the visible cases left out."""
        return [item.name for item in self.gradescope_only]


def student_cases(assignment: Assignment) -> StudentCases:
    """The visible-only case files (see the module docstring).

    A case file whose every case is kept and that reads no other file is kept as it is.
    Otherwise it is rewritten *flattened*: its kept cases as plain entries, with defaults,
    generated cases and included files resolved, so no hidden case or generated file ships.
    A case file with no kept case is left out.
    """
    root = project_root()
    allowed = shippable_code(assignment)
    result = StudentCases()
    kept_ids: list[str] = []
    closures: dict[frozenset[str], set[Path]] = {}
    for path in assignment.case_files:
        data = read_yaml(path)
        kept, trimmed = [], False
        for entry in flattened_entries(path):
            if entry.get("visibility") != "visible":
                continue
            suite = entry.get("options", {}).get("suite")
            if suite:  # a course's suite holds its hidden tests too: it never ships
                result.gradescope_only.append(LeftOut(
                    f"{data['group']}: {entry['name']}", float(entry["points"]),
                    (f"the course's test suite {suite}",)))
                continue
            needs = _grading_code_of(entry, closures)
            if not needs <= allowed:
                result.gradescope_only.append(LeftOut(
                    f"{data['group']}: {entry['name']}", float(entry["points"]),
                    tuple(_named_modules(entry))))
                continue
            for bonus in ("diagnose", "picture"):  # extras of feedback, never of the grade
                if bonus not in entry:
                    continue
                code = _grading_code_of({"compare": entry[bonus]}, closures)
                if code <= allowed:
                    needs = needs | code
                else:
                    entry = {k: v for k, v in entry.items() if k != bonus}
                    trimmed = True
            kept.append(entry)
            result.code |= needs
        if not kept:
            continue
        kept_ids.extend(f"{data['group']}::{entry['name']}" for entry in kept)
        name = path.relative_to(root).as_posix()
        self_contained = not data.get("generate") and not data.get("include") and not trimmed \
            and not precomputed_path(path).is_file()  # answers ship in the flattened options
        if self_contained and len(kept) == len(data.get("cases", []) or []):
            result.files[name] = path
            continue
        result.files[name] = (
            "# Student copy: the visible cases only (written by 'gamegrader build --student').\n"
            + yaml.dump({"group": data["group"], "cases": kept}, Dumper=_ReadableDumper,
                        sort_keys=False, allow_unicode=True, width=100)).encode()
    coverage = (assignment.folder / COVERAGE_FILE).relative_to(root).as_posix()
    result.files[coverage] = coverage_document(assignment, result.gradescope_only)
    times = {key: assignment.reference_times[key] for key in kept_ids
             if assignment.reference_times and key in assignment.reference_times}
    if times:  # the recorded times of the shipped cases only (hidden case names stay hidden)
        name = (assignment.folder / REFERENCE_TIMES).relative_to(root).as_posix()
        result.files[name] = yaml.safe_dump({"seconds": times}, sort_keys=False,
                                            allow_unicode=True, width=100).encode()
    return result


STUDENT_README = """\
# {title}: local checker

Run the visible test cases of `{name}` on your own code before you submit.

On Linux and macOS:

    python3 -m venv .venv
    .venv/bin/pip install -e .
    .venv/bin/gamegrader check path/to/{main}

On Windows (which has no sandbox for the checker: each case runs in a plain child process with
a wall-clock timeout, and the output says so):

    py -m venv .venv
    .venv\\Scripts\\pip install -e .
    .venv\\Scripts\\gamegrader check path\\to\\{main}

{imports_rule} A file that imports any other package is not run, on Gradescope as
here.{install}

The visible cases it runs, by group: {runs}.{games}{play}

Each visible case shows PASS or FAIL with its points; a failure shows the call that was made,
the expected value and what your code returned (or raised). The total counts the cases run
here only, and the line after it says how much of the assignment that is: the visible points
run here out of all visible points, the visible cases graded on Gradescope only (and why), and
the points of the hidden cases, which run only on Gradescope and are not in this package.
{left_out}
## What this package gives you, and what it is not

Besides the checker, this package holds the grader's own code that the local check{and_play}
needs:
{given}

It is here to run the checks, not to be handed in: it is no solution and does not do the
assignment's search. A copy of one of these modules handed in with your file, under any name,
is left out of the grading (it is not your work), so code that relies on it fails; the results
say which file was left out.
"""


INSTALL_NOTE = """ The first check installs these packages for the checker
(once, with pip; `.venv/bin/gamegrader packages install` does it too)."""


GAMES_NOTE = """

Game cases play whole games, with the opponents, seeds and clocks of Gradescope's grading. The
clocks count the CPU time your player uses, as on Gradescope, so a busy computer does not eat
your time (where that time cannot be read, on macOS and Windows, they count wall-clock time and
the messages say so: check when your computer is not busy there)."""


def _what_runs(kept: list[Case]) -> str:
    """The package's cases by group, for its README ("games: 3 cases, 40 points")."""
    groups: dict[str, list[float]] = {}
    for case in kept:
        groups.setdefault(case.group, []).append(case.points)
    return "; ".join(f"{group}: {len(points)} case{'s' * (len(points) != 1)}, "
                     f"{sum(points):g} point{'s' * (sum(points) != 1)}"
                     for group, points in groups.items()) or "no case"


README_WIDTH = 96
"""The width the student README's paragraphs are filled to (as the template is written)."""


def filled(markdown: str, width: int = README_WIDTH) -> str:
    """``markdown`` with each run of prose lines filled to ``width``, so text put into a
    paragraph (the imports rule, a list of groups) does not leave a line too long and the next
    one a word long. Headings, list items and indented code blocks stay as written."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            out.extend(textwrap.wrap(" ".join(prose), width, break_long_words=False,
                                     break_on_hyphens=False))
            prose.clear()

    for line in markdown.split("\n"):
        if not line.strip() or line.startswith(("    ", "#", "- ", "\t")):
            flush()
            out.append(line)
        else:
            prose.append(line.strip())
    flush()
    return "\n".join(out)


def build_student(name: str, out: Path) -> Built:
    """Write the student package of assignment ``name`` to the zip ``out``.

    Raises:
        SpecError: the assignment is unknown or its specs are broken.
    """
    from harness.games.practice import practice_files, readme_section

    assignment = find_assignment(name)
    root = project_root()
    cases = student_cases(assignment)
    left_out = ""
    if cases.left_out:
        because = gradescope_only_reason(assignment, cases.gradescope_only)
        left_out = (f"\nThese visible cases are graded on Gradescope only, because {because}:\n\n"
                    + "".join(f"- {item.name} ({item.points:g} points)\n"
                              for item in cases.gradescope_only))
    kept = [case for case in load_all_cases(assignment) if case.visibility.value == "visible"
            and f"{case.group}: {case.name}" not in cases.left_out]
    entries: dict[str, bytes | Path] = {"pyproject.toml": root / "pyproject.toml"}
    practice, bots = practice_files(assignment)
    entries["README.md"] = filled(STUDENT_README.format(
        title=assignment.title, name=assignment.name, main=assignment.main_file,
        imports_rule=imports_rule(assignment.allowed_packages),
        install=INSTALL_NOTE if assignment.allowed_packages else "",
        runs=_what_runs(kept), games=GAMES_NOTE if any(case.runner for case in kept) else "",
        play=readme_section(assignment, bots),
        left_out=left_out, and_play=" and `play`" if bots else "",
        given="".join(f"\n- `{module}`" for module in sorted(
            path.relative_to(root).with_suffix("").as_posix().replace("/", ".")
            for path in shippable_code(assignment) if path.name != "__init__.py"))
        or "\n- nothing of the grader's reference code")).encode()
    entries[STUDENT_PACKAGE_MARKER] = b"The student package: instructor commands are refused.\n"
    for folder in (root / "harness", assignment.folder / TEMPLATE):
        for path in _tree(folder):
            entries[path.relative_to(root).as_posix()] = path
    for folder in (assignment.folder, *([assignment.variant_of] if assignment.variant_of else [])):
        entries[(folder / "assignment.yaml").relative_to(root).as_posix()] = \
            partial_copy_text(folder / "assignment.yaml")  # visible cases only
    entries.update(cases.files)
    for path in (*assignment.support_files, *assignment.probe_files, *cases.code):
        entries[path.relative_to(root).as_posix()] = path
    entries.update(practice)
    built = Built(out, _write_zip(out, entries))
    shipped = sorted(e for e in built.entries if e.startswith(("reference/", f"{ASSIGNMENTS}/"))
                     and e.endswith(".py") and f"/{TEMPLATE}/" not in e)
    built.notes.append(f"visible cases only; reference files shipped: "
                       f"{', '.join(shipped) or 'none'}")
    if practice:
        built.notes.append(f"practice bots ('gamegrader play'): {', '.join(bots)}")
    if cases.left_out:
        built.notes.append(f"{len(cases.left_out)} visible cases left out (their grading needs "
                           "grader code no role of student_package ships)")
    return built
