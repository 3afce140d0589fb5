"""The instructor-facing error family: a spec or configuration problem."""
from __future__ import annotations

from pathlib import Path
from typing import Any


class SpecError(ValueError):
    """A spec file is malformed. The message names the file, the line (where the case or field
    can be found in it), the case and the field at fault."""

    def __init__(self, file: Path | str, problem: str, *, case: str | None = None,
                 field: str | None = None, line: int | None = None) -> None:
        self.file = str(file)
        self.case = case
        self.field = field
        self.problem = problem
        if line is None and (case is not None or field is not None):
            line = line_of(Path(self.file), case, field)
        self.line = line
        where = self.file
        if line is not None:
            where += f", line {line}"
        if case is not None:
            where += f", case {case!r}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {problem}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt with its keywords, so one raised in a worker process reaches the caller."""
        return _rebuild, (self.file, self.problem, self.case, self.field, self.line)


def _rebuild(file: str, problem: str, case: str | None, field: str | None,
             line: int | None = None) -> SpecError:
    return SpecError(file, problem, case=case, field=field, line=line)


def line_of(path: Path, case: str | None, field: str | None) -> int | None:
    """The line (from 1) of ``field`` (dotted) in the case named ``case`` of the YAML file
    ``path`` (of the case itself without a field; at the top level without a case), or of the
    nearest part of it that is there; None when the file cannot be read or parsed."""
    import yaml  # only when there is an error to place
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    if node is None:
        return None
    if case is not None:
        found = _case_node(node, case)
        if found is None:
            return None
        node = found
    mark = node.start_mark
    for part in field.split(".") if field else ():
        entry = _entry(node, part)
        if entry is None:
            break
        key, node = entry
        mark = key.start_mark
    return int(mark.line) + 1


def _entry(node: Any, part: str) -> tuple[Any, Any] | None:
    """The (key node, value node) of ``part`` in a mapping node, or item ``part`` of a sequence
    node (as both)."""
    import yaml
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == part:
                return key, value
    if isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
        return node.value[int(part)], node.value[int(part)]
    return None


def _case_node(root: Any, case: str) -> Any:
    """The mapping of the case named (or id'd) ``case`` under ``cases`` or ``generate``, or
    ``cases[N]``."""
    for listing in ("cases", "generate"):
        entries = _entry(root, listing)
        for index, entry in enumerate(getattr(entries and entries[1], "value", None) or ()):
            if case == f"{listing}[{index}]":
                return entry
            for label in ("name", "id"):
                found = _entry(entry, label)
                if found is not None and getattr(found[1], "value", None) == case:
                    return entry
    return None
