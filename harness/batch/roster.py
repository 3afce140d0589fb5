"""The course roster a batch's Canvas file takes its identifiers from (``--roster FILE``).

Canvas matches an imported row to a student by its ``ID``, ``SIS User ID`` or ``SIS Login
ID``; a Gradescope export knows only the student id it was given, and a plain folder knows
nothing. The roster is a CSV file with a header row: columns that find the student
(``submission``: the submission's folder or file name; ``email``; ``sid``: Gradescope's
student id) and columns Canvas matches on (``ID``, ``SIS User ID``, ``SIS Login ID``, with an
optional ``Section``). Canvas's own gradebook export is a roster too: its ``SIS User ID`` then
finds a student by id and its ``SIS Login ID`` by email (whole, or the part before ``@``).
Column names are read without case, and ``_`` stands for a space.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from harness.batch.discover import Student

KEYS = ("submission", "email", "sid")
"""Roster columns that find a student of the batch."""
CANVAS = {"id": "ID", "sis user id": "SIS User ID", "sis login id": "SIS Login ID",
          "section": "Section"}
"""Roster columns Canvas reads (a row needs one of the first three), by their written name."""
MAX_BYTES = 16 * 1024 * 1024


class RosterError(ValueError):
    """The roster cannot be used (the message says what, and where in the file)."""


@dataclass(frozen=True)
class CanvasIds:
    """What a Canvas row carries to be matched: Canvas's user ID, the SIS ids, the section."""

    canvas_id: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""

    @property
    def any(self) -> bool:
        return bool(self.canvas_id or self.sis_user_id or self.sis_login_id)


@dataclass(frozen=True)
class Roster:
    """The roster's rows, each with the line it was read from."""

    path: Path
    rows: tuple[tuple[int, dict[str, str]], ...]

    def find(self, student: Student, submission: str) -> tuple[CanvasIds | None, str]:
        """The identifiers of ``student`` (of the submission named ``submission``), or None
        and why not: no row finds them, or several different rows do."""
        email = student.email.strip().lower()
        found: dict[int, dict[str, str]] = {}
        for line, row in self.rows:
            login = row.get("sis login id", "").lower()
            if (row.get("submission") and row["submission"] == submission
                    or email and row.get("email", "").lower() == email
                    or student.sid and student.sid in (row.get("sid"), row.get("sis user id"))
                    or email and login and login in (email, email.split("@")[0])):
                found[line] = row
        if not found:
            return None, f"not in the roster {self.path.name}"
        if len(found) > 1:
            lines = " and ".join(map(str, sorted(found)))
            return None, f"found on several rows of the roster {self.path.name} (lines {lines})"
        row = next(iter(found.values()))
        return CanvasIds(row.get("id", ""), row.get("sis user id", ""),
                         row.get("sis login id", ""), row.get("section", "")), ""


def _column(title: str) -> str:
    return " ".join(title.replace("_", " ").lower().split())


def read_roster(path: Path) -> Roster:
    """Read ``path``.

    Raises:
        RosterError: it cannot be read, is too large, has no column that finds a student or
            none Canvas matches on, or two rows find the same student the same way.
    """
    try:
        if path.stat().st_size > MAX_BYTES:
            raise RosterError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MB")
        with path.open(encoding="utf-8-sig", newline="") as stream:
            lines = list(csv.reader(stream))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RosterError(f"{path}: cannot be read as a UTF-8 CSV file ({exc})") from exc
    if not lines:
        raise RosterError(f"{path}: empty (a header row, then one row per student)")
    header = [_column(title) for title in lines[0]]
    finders = [c for c in header if c in KEYS or c in ("sis user id", "sis login id")]
    if not finders or not set(header) & {"id", "sis user id", "sis login id"}:
        raise RosterError(
            f"{path}, line 1: the header needs a column that finds a student ({', '.join(KEYS)}"
            ", or Canvas's SIS User ID or SIS Login ID) and one Canvas matches on (ID, SIS "
            f"User ID or SIS Login ID); it has {', '.join(lines[0]) or 'none'}")
    rows: list[tuple[int, dict[str, str]]] = []
    seen: dict[tuple[str, str], int] = {}
    for number, cells in enumerate(lines[1:], start=2):
        row = {name: cell.strip() for name, cell in zip(header, cells)
               if name in KEYS or name in CANVAS}
        if not any(row.values()):
            continue  # a blank line
        for name in finders:
            value = row.get(name, "").lower()
            if value and (name, value) in seen:
                raise RosterError(f"{path}, line {number}: {name} {row[name]!r} is also on "
                                  f"line {seen[(name, value)]}")
            seen[(name, value)] = number
        rows.append((number, row))
    return Roster(path, tuple(rows))


__all__ = ["CANVAS", "CanvasIds", "KEYS", "Roster", "RosterError", "read_roster"]
