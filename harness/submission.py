"""Find the student's files in what was submitted (a file, or a folder as Gradescope gives it)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_IGNORED_PARTS = {"__MACOSX", "__pycache__", ".git", ".venv", "venv"}
_COPY_SUFFIX = re.compile(r"(\s*\(\d+\)|[-_ ]?(copy|final|v\d+|\d+))+$", re.IGNORECASE)


@dataclass
class FoundFiles:
    """Which submitted file stands for each wanted name, with notes for the student."""

    files: dict[str, Path] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _candidates(root: Path) -> list[Path]:
    found = [p for p in root.rglob("*.py")
             if p.is_file() and not (_IGNORED_PARTS & set(p.relative_to(root).parts))
             and not p.name.startswith("._")]
    return sorted(found, key=lambda p: (len(p.relative_to(root).parts), str(p)))


def _stem_key(stem: str) -> str:
    return _COPY_SUFFIX.sub("", stem).strip().lower().replace(" ", "_").replace("-", "_")


def find_files(submission: Path, wanted: tuple[str, ...]) -> FoundFiles:
    """Match each wanted file name (e.g. ``agent.py``) to a submitted file.

    A path to a file stands for the first wanted name. In a folder: an exact name wins (the
    shallowest), then a renamed copy such as ``agent (1).py``, then — when one file is wanted and
    exactly one Python file was submitted — that file.
    """
    result = FoundFiles()
    if submission.is_file():
        result.files[wanted[0]] = submission
        if submission.name != wanted[0]:
            result.notes.append(f"Graded {submission.name} as {wanted[0]}.")
        result.missing.extend(wanted[1:])
        return result
    if not submission.is_dir():
        result.missing.extend(wanted)
        result.notes.append(f"Nothing was found at {submission}.")
        return result
    candidates = _candidates(submission)
    for name in wanted:
        exact = [p for p in candidates if p.name == name]
        similar = [p for p in candidates if _stem_key(p.stem) == _stem_key(Path(name).stem)]
        choice: Path | None = (exact or similar or [None])[0]  # type: ignore[list-item]
        if choice is None and len(wanted) == 1 and len(candidates) == 1:
            choice = candidates[0]
        if choice is None:
            result.missing.append(name)
            continue
        result.files[name] = choice
        relative = choice.relative_to(submission)
        if str(relative) != name:
            result.notes.append(f"Found {name} as {relative}.")
    if result.missing:
        listing = ", ".join(str(p.relative_to(submission)) for p in candidates[:20]) or "none"
        result.notes.append(f"Missing: {', '.join(result.missing)}. Python files submitted: "
                            f"{listing}.")
    return result
