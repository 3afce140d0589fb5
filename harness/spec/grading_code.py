"""The reference files grading an assignment imports: the modules its cases name as
comparators or runners, and every module of ``reference`` they import, transitively (the
autograder zip ships them; a batch fingerprints them to know when to regrade)."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterable

from harness.paths import project_root
from harness.records.spec import Assignment
from harness.spec.loader import load_all_cases


def module_file(name: str, root: Path) -> Path | None:
    """The file of module ``name`` under ``root`` (``a/b.py`` or ``a/b/__init__.py``)."""
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(path: Path, name: str) -> set[str]:
    """Module names ``path`` (module ``name``) imports, including ``from x import submodule``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def python_closure(modules: Iterable[str], root: Path, packages: tuple[str, ...] = ("reference",)
                   ) -> set[Path]:
    """The files of ``modules`` and of every module they import, transitively, limited to the
    top-level ``packages`` under ``root`` (parent packages' ``__init__.py`` included)."""
    todo = [m for m in modules if m.split(".")[0] in packages]
    seen: set[str] = set()
    files: set[Path] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        path = module_file(name, root)
        if path is None:
            continue
        files.add(path)
        todo.extend(m for m in _imported(path, name) if m.split(".")[0] in packages)
    return files


def named_modules(assignment: Assignment) -> set[str]:
    """Modules named by the assignment's cases as comparators or runners."""
    names = set()
    for case in load_all_cases(assignment):
        for ref in (case.compare, case.runner or ""):
            if ":" in ref:
                names.add(ref.partition(":")[0])
    return names


def grading_code(assignment: Assignment) -> set[Path]:
    """Reference files grading ``assignment`` imports, and its probe files."""
    root = project_root()
    return python_closure(named_modules(assignment), root) | set(
        assignment.probe_files)
