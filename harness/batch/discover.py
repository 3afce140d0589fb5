"""Find the submissions of a batch: one folder or file per student, or a Gradescope export.

Gradescope's "Export submissions" download holds ``submission_metadata.yml`` beside one folder
per submission (``submission_123456/``). The metadata is Ruby-flavoured YAML (keys such as
``:submitters``); it is parsed with a safe loader that turns unknown tags into plain data, and
every key is read with a default. This module reads files only; it never runs anything.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

METADATA_FILE = "submission_metadata.yml"
_SKIPPED = {"__MACOSX", "__pycache__", ".git", ".DS_Store"}
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Student:
    """One submitter, as the export names them (any field may be empty)."""

    name: str
    email: str = ""
    sid: str = ""

    @property
    def label(self) -> str:
        """The name, else the email, else the student id."""
        return self.name or self.email or self.sid


@dataclass(frozen=True)
class Submission:
    """One submission to grade.

    Attributes:
        key: a file-system-safe, unique identifier; the name of its folder in the output.
        path: the submitted file or folder, handed to ``gamegrader grade`` as is.
        students: the submitters (from the metadata), or one Student named after ``path``.
        created_at: the export's submission time, as text ("" when unknown).
    """

    key: str
    path: Path
    students: tuple[Student, ...]
    created_at: str = ""

    @property
    def student_label(self) -> str:
        """All submitters' labels joined with "; " (group submissions have several)."""
        return "; ".join(s.label for s in self.students) or self.key

    def matches(self, who: str) -> bool:
        """Whether ``who`` is this submission's key, folder name, or a submitter's name, email
        or id (case-insensitive)."""
        wanted = who.strip().lower()
        names = {self.key, self.path.name, self.path.stem}
        for student in self.students:
            names.update({student.name, student.email, student.sid})
        return wanted in {n.lower() for n in names if n}


class _TolerantLoader(yaml.SafeLoader):
    """A safe loader that reads Ruby object tags (``!ruby/object:...``) as plain data."""


def _plain(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)  # type: ignore[arg-type]


_TolerantLoader.add_multi_constructor("!", _plain)
_TolerantLoader.add_multi_constructor("tag:", _plain)


def field(entry: Any, name: str) -> Any:
    """``entry[":name"]`` or ``entry["name"]``; None when absent or ``entry`` is no mapping."""
    if not isinstance(entry, dict):
        return None
    return entry.get(f":{name}", entry.get(name))


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def read_entries(path: Path) -> dict[str, Any]:
    """An export's metadata as plain data, ``{submission folder: entry}`` (an empty mapping
    when it is unreadable or malformed)."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8", errors="replace"),
                         Loader=_TolerantLoader)  # a SafeLoader subclass
    except (OSError, yaml.YAMLError):
        return {}
    return {str(folder): entry for folder, entry in data.items()} if isinstance(data, dict) \
        else {}


def read_metadata(path: Path) -> dict[str, tuple[tuple[Student, ...], str]]:
    """Parse an export's metadata into ``{submission folder: (students, created_at)}``.

    Unreadable or malformed metadata gives an empty mapping (the folders are then graded under
    their own names); malformed entries are skipped.
    """
    found: dict[str, tuple[tuple[Student, ...], str]] = {}
    for folder, entry in read_entries(path).items():
        submitters = field(entry, "submitters")
        students = tuple(
            Student(_text(field(s, "name")), _text(field(s, "email")), _text(field(s, "sid")))
            for s in (submitters if isinstance(submitters, list) else [])
            if isinstance(s, dict))
        found[str(folder)] = (students, _text(field(entry, "created_at")))
    return found


def _safe_key(name: str, taken: set[str]) -> str:
    base = _UNSAFE.sub("_", name).strip("._") or "submission"
    key, number = base, 2
    while key.lower() in taken:
        key, number = f"{base}_{number}", number + 1
    taken.add(key.lower())
    return key


def discover(folder: Path) -> list[Submission]:
    """Every submission under ``folder``, sorted by key.

    Each entry of ``folder`` (a sub-folder or a file) is one submission, except the metadata
    file and hidden or system entries. With a ``submission_metadata.yml``, submitters come from
    it; otherwise each submission's student is named after its folder or file stem.

    Raises:
        NotADirectoryError: ``folder`` is not a folder.
    """
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not a folder of submissions")
    metadata = read_metadata(folder / METADATA_FILE)
    taken: set[str] = set()
    submissions = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name == METADATA_FILE or entry.name in _SKIPPED or entry.name.startswith("."):
            continue
        if entry.is_symlink() or not (entry.is_dir() or entry.is_file()):
            continue
        stem = entry.name if entry.is_dir() else entry.stem
        students, created = metadata.get(entry.name, ((), ""))
        if not students:
            students = (Student(stem),)
        submissions.append(Submission(_safe_key(stem, taken), entry, students, created))
    return sorted(submissions, key=lambda s: s.key)
