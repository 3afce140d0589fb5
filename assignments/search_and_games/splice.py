"""Keep the Dominoes section of this assignment's single-file solution and template in sync.

Homework 2's Dominoes section is the same as the adversarial_search assignment's. Students submit
one self-contained file, so the section cannot be imported; instead it is copied, by this tool,
from the adversarial_search files into a marked region of ours::

    # >>> spliced from assignments/adversarial_search/solution/adversarial_search.py
    ...generated: the imports and top-level definitions the named classes/functions need...
    # <<< end of spliced section

Run ``python -m assignments.search_and_games.splice --write`` after the source changes; the tests
run ``--check``'s logic and fail while a region is stale. Text outside the markers is never
touched. Nothing here is specific to Dominoes except the :data:`SPLICES` table.
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

BEGIN_PREFIX = "# >>> spliced from "
END_LINE = "# <<< end of spliced section"
REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Splice:
    """One region to keep in sync.

    Attributes:
        target: repo-relative path of the file holding the region.
        source: repo-relative path of the file the region is copied from.
        names: top-level classes/functions/variables of ``source`` to copy; whatever top-level
            definitions and imports they use come along.
    """

    target: str
    source: str
    names: tuple[str, ...]


SPLICES: tuple[Splice, ...] = (
    Splice("assignments/search_and_games/solution/search_and_games.py",
           "assignments/adversarial_search/solution/adversarial_search.py",
           ("DominoesGame", "create_dominoes_game")),
    Splice("assignments/search_and_games/template/search_and_games.py",
           "assignments/adversarial_search/template/adversarial_search.py",
           ("DominoesGame", "create_dominoes_game")),
)


def _bound_names(node: ast.stmt) -> set[str]:
    """Names a top-level statement binds (definitions, assignments and imports)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def _used_names(node: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _source_lines(lines: list[str], node: ast.stmt) -> str:
    """The exact source of a top-level statement, decorators included."""
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno] + [d.lineno for d in decorators])
    assert node.end_lineno is not None
    return "".join(lines[first - 1:node.end_lineno])


def import_keys(source_text: str) -> frozenset[str]:
    """The top-level import statements of a module, each as its ``ast.dump``."""
    return frozenset(ast.dump(node) for node in ast.parse(source_text).body
                     if isinstance(node, (ast.Import, ast.ImportFrom)))


def extract_definitions(source_text: str, names: Sequence[str],
                        present_imports: frozenset[str] = frozenset()) -> str:
    """The part of a module that defines ``names``, runnable on its own.

    Args:
        source_text: Python source of a module.
        names: top-level names to take.
        present_imports: import statements (see :func:`import_keys`) the destination already
            has; they are not repeated.

    Returns:
        The import statements the taken definitions use (``from __future__`` imports and
        ``present_imports`` left out), then the definitions of ``names`` and of every top-level
        name they use, transitively, each in source order, separated by two blank lines as
        PEP 8 asks.

    Raises:
        ValueError: if a name is not defined at the top level of the source.
        SyntaxError: if the source does not parse.
    """
    module = ast.parse(source_text)
    lines = source_text.splitlines(keepends=True)
    definers: dict[str, ast.stmt] = {}
    for node in module.body:
        for name in _bound_names(node):
            definers.setdefault(name, node)
    missing = [name for name in names if name not in definers]
    if missing:
        raise ValueError(f"not defined at the top level of the source: {', '.join(missing)}")
    taken: set[int] = set()
    pending = [definers[name] for name in names]
    while pending:
        node = pending.pop()
        if id(node) in taken:
            continue
        taken.add(id(node))
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            pending.extend(definers[n] for n in _used_names(node) if n in definers)
    chosen = [node for node in module.body if id(node) in taken
              and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
              and ast.dump(node) not in present_imports]
    is_import = [isinstance(n, (ast.Import, ast.ImportFrom)) for n in chosen]
    imports = [_source_lines(lines, n) for n, flag in zip(chosen, is_import) if flag]
    bodies = [_source_lines(lines, n).rstrip("\n") + "\n"
              for n, flag in zip(chosen, is_import) if not flag]
    parts = (["".join(imports)] if imports else []) + bodies
    return "\n\n".join(parts)


def replace_region(target_text: str, source_label: str, region: str) -> str:
    """``target_text`` with its spliced region's body replaced by ``region``.

    Args:
        target_text: a file holding exactly one line starting with :data:`BEGIN_PREFIX` and,
            after it, exactly one :data:`END_LINE`.
        source_label: written after the prefix on the begin line.
        region: the new body, ending with a newline.

    Raises:
        ValueError: if the markers are missing, repeated or out of order.
    """
    lines = target_text.splitlines(keepends=True)
    begins = [i for i, line in enumerate(lines) if line.startswith(BEGIN_PREFIX)]
    ends = [i for i, line in enumerate(lines) if line.rstrip("\r\n") == END_LINE]
    if len(begins) != 1 or len(ends) != 1 or begins[0] > ends[0]:
        raise ValueError(
            f"expected one {BEGIN_PREFIX!r} line followed by one {END_LINE!r} line; found "
            f"begin lines {[i + 1 for i in begins]} and end lines {[i + 1 for i in ends]}")
    head = "".join(lines[:begins[0]])
    tail = "".join(lines[ends[0]:])
    return f"{head}{BEGIN_PREFIX}{source_label}\n{region}{tail}"


def render(splice: Splice, root: Path = REPO_ROOT) -> str:
    """The target file's text with its region refreshed from the source (nothing is written).

    Imports the target already has outside the region are not repeated inside it.

    Raises:
        FileNotFoundError: if the target or the source does not exist.
        ValueError: as :func:`extract_definitions` and :func:`replace_region`.
    """
    target_text = (root / splice.target).read_text(encoding="utf-8")
    source_text = (root / splice.source).read_text(encoding="utf-8")
    outside = import_keys(replace_region(target_text, splice.source, ""))
    region = extract_definitions(source_text, splice.names, outside)
    return replace_region(target_text, splice.source, region)


def stale(splices: Sequence[Splice] = SPLICES, root: Path = REPO_ROOT) -> list[str]:
    """Repo-relative paths of targets whose region differs from what :func:`render` gives."""
    return [s.target for s in splices
            if (root / s.target).read_text(encoding="utf-8") != render(s, root)]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``--check`` (exit 1 and list stale targets) or ``--write``."""
    parser = argparse.ArgumentParser(prog="python -m assignments.search_and_games.splice")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="list stale targets, exit 1 if any")
    mode.add_argument("--write", action="store_true", help="refresh every target's region")
    args = parser.parse_args(argv)
    if args.check:
        targets = stale()
        for target in targets:
            print(f"stale spliced region: {target}", file=sys.stderr)
        return 1 if targets else 0
    for splice in SPLICES:
        (REPO_ROOT / splice.target).write_text(render(splice), encoding="utf-8")
        print(f"wrote {splice.target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
