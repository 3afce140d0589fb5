"""Warn about code that needs a newer Python than the grading image's.

Many students run a newer Python than Gradescope's image (3.10 unless an assignment names
another, ``grading_python`` in assignment.yaml). A file using ``except*``, a 3.12 f-string, a
``type`` statement or ``tomllib`` passes a local check and scores 0 there. The analysis is
vermin's (a maintained minimum-version detector covering syntax, modules, members and keyword
arguments of every release), never a list kept here: such a list is out of date with each new
Python. vermin parses with this interpreter, so syntax newer than it is a parse error vermin
reports as such; the grader's own import then fails with the syntax error, reported once at the
top of the results with its line.

Student files are read in the trusted process and only parsed, never run; what is analysed is
bounded (``MAX_FILE_BYTES``, ``MAX_TOTAL_BYTES``, ``MAX_FILES``) and any failure of the analysis
(deep nesting, odd bytes) costs only the warning.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from harness.wire.safe_text import safe_text

MAX_FILE_BYTES = 256 * 1024
MAX_TOTAL_BYTES = 1024 * 1024
MAX_FILES = 50
MAX_SHOWN = 10
# vermin's parsable format: path:line:column:py2:py3:feature (the feature may hold colons)
_LINE = re.compile(r"^(?P<path>.*?):(?P<line>\d*):(?P<col>\d*):(?P<py2>[^:]*):(?P<py3>[^:]*):"
                   r"(?P<feature>.*)$")


@dataclass(frozen=True)
class NewerFeature:
    """One use of a feature newer than the grading Python: where, what, and since which Python."""

    file: str
    line: int | None
    feature: str
    version: tuple[int, ...]

    def describe(self) -> str:
        where = f"{self.file}, line {self.line}" if self.line else self.file
        return f"{where}: {self.feature} needs Python {'.'.join(map(str, self.version))}"


def parse_version(text: str) -> tuple[int, ...]:
    """``"3.10"`` -> ``(3, 10)``; ``ValueError`` for anything else."""
    parts = text.strip().lstrip("!~").split(".")
    if not all(part.isdigit() for part in parts) or not parts[0]:
        raise ValueError(f"not a Python version: {text!r}")
    return tuple(int(part) for part in parts)


def _feature(text: str) -> str:
    text = text.strip()
    for prefix in ("info: ", "error: "):
        text = text.removeprefix(prefix)
    return safe_text(text, 120)


def newer_features(name: str, source: bytes, target: tuple[int, ...]) -> list[NewerFeature]:
    """The features of one file that need a Python newer than ``target``, in line order
    (empty when vermin finds none, or cannot analyse the file)."""
    try:
        import vermin
        from vermin.formats import ParsableFormat
    except ImportError:  # the grader's dependency; absent only in a broken install
        return []
    config = vermin.Config()
    config.set_verbose(3)  # lines and columns
    config.set_quiet(True)  # nothing printed (a parse error would be)
    config.set_format(ParsableFormat())
    try:
        visitor = vermin.visit(source.decode("utf-8"), config, name)
    except Exception:  # deep nesting, NUL bytes...: no warning, nothing else
        return []
    if not isinstance(visitor, vermin.SourceVisitor):
        return _unparsable(name, source, target, visitor)
    found = []
    for line in visitor.output_text().splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        try:
            version = parse_version(match["py3"])
        except ValueError:
            continue
        if version > target:
            found.append(NewerFeature(name, int(match["line"]) if match["line"] else None,
                                      _feature(match["feature"]), version))
    return sorted(found, key=lambda f: (f.line or 0, f.feature))


def _unparsable(name: str, source: bytes, target: tuple[int, ...],
                versions: object) -> list[NewerFeature]:
    """A file this Python cannot parse: vermin names the version some constructs need even then
    (a ``type`` statement); the syntax error itself is the import check's to report."""
    if not isinstance(versions, list) or len(versions) < 2 or not versions[1]:
        return []
    version = tuple(versions[1])
    if version <= target:
        return []
    import ast
    line = None
    try:
        ast.parse(source)
    except SyntaxError as exc:
        line = exc.lineno
    except Exception:
        pass
    text = source.decode("utf-8", "replace").splitlines()
    shown = text[line - 1].strip() if line and line <= len(text) else ""
    return [NewerFeature(name, line, _feature(f"`{shown}`" if shown else "its syntax"),
                         version)]


NEWER_PYTHON = "newer_python"
"""``extra_data`` key of a results document whose code needs a newer Python than Gradescope's
(its value: :func:`zero_note`); the student's total, ``grade``'s score line and a batch's status
carry it, since the score was earned on a newer Python."""


def zero_note(grading_python: str) -> str:
    """What a score earned by code that needs a newer Python than ``grading_python`` says."""
    return f"would score 0 on Gradescope's Python {grading_python}"


def version_warning(files: Mapping[str, bytes], grading_python: str) -> str:
    """The warning for the top of the results ("" when every file runs on ``grading_python``):
    each use of a newer feature with its file, line and the Python it needs."""
    target = parse_version(grading_python)
    found: list[NewerFeature] = []
    total = 0
    for name, data in [(n, d) for n, d in files.items() if n.endswith(".py")][:MAX_FILES]:
        total += len(data)
        if total > MAX_TOTAL_BYTES:
            break
        if len(data) <= MAX_FILE_BYTES:
            found.extend(newer_features(name, data, target))
    if not found:
        return ""
    lines = [f"Warning: Gradescope runs your code under Python {grading_python}, and your code "
             f"needs a newer Python there (it would fail to import or run, for 0 points):"]
    lines.extend(f"  {feature.describe()}" for feature in found[:MAX_SHOWN])
    if len(found) > MAX_SHOWN:
        lines.append(f"  and {len(found) - MAX_SHOWN} more")
    lines.append(f"  Rewrite these for Python {grading_python} (your own newer Python accepts "
                 "them; Gradescope's does not).")
    return "\n".join(lines)
