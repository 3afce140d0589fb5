"""The harness's import graph has no cycle, counting imports inside functions too (a lazy import
that closes a loop still ties two modules to each other), and harness/ imports nothing of
reference/ nor of assignments/ outside the places that resolve a spec's dotted names."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "harness"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The harness modules ``path`` imports (``from harness.x import y`` counts harness.x.y when
    that is a module, else harness.x)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
                break
    return found


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    graph = {name: imports_of(path, modules) - {name} for name, path in paths.items()}
    # A package's __init__ re-exporting its own modules is not a dependency of those modules.
    return {name: {t for t in targets if not (name.startswith(t + ".") and
                                              paths[t].name == "__init__.py")}
            for name, targets in graph.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle as a list of modules (first repeated last), or [] if there is none."""
    state: dict[str, int] = {}
    for start in sorted(graph):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            for child in children:
                if state.get(child) == 1:
                    return path[path.index(child):] + [child]
                if not state.get(child):
                    state[child] = 1
                    path.append(child)
                    stack.append((child, iter(sorted(graph.get(child, ())))))
                    break
            else:
                state[node] = 2
                stack.pop()
                path.pop()
    return []


def test_the_checker_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_the_harness_import_graph_has_no_cycle():
    graph = import_graph()
    assert len(graph) > 30
    assert find_cycle(graph) == []


def test_the_worker_imports_only_the_standard_library_and_its_own_modules():
    """It runs inside the sandbox as a copy of its own folder (harness.sandbox.workspace)."""
    import sys
    worker = PACKAGE / "worker"
    own = {path.stem for path in worker.glob("*.py")}
    for path in worker.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert (node.module or "").split(".")[0] in own | {""}, (path.name, node.module)
                continue
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", (path.name, name)


TRUSTED_PLUG_INS = ("reference", "assignments")
"""The shared library and the assignments' plug-in code: the harness reaches them only through a
spec's dotted names (``compare:``, ``runner:``, ``kit:`` ...), never by an import of its own."""


def imports_of_plug_ins(path: Path) -> list[str]:
    """The modules of :data:`TRUSTED_PLUG_INS` that ``path`` imports, inside functions too."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
        found += [name for name in names if name.split(".")[0] in TRUSTED_PLUG_INS]
    return found


def test_the_harness_imports_neither_the_library_nor_an_assignment() -> None:
    imported = {str(path.relative_to(ROOT)): names for path in sorted(PACKAGE.rglob("*.py"))
                if (names := imports_of_plug_ins(path))}
    assert imported == {}


def test_the_rule_sees_an_import_of_an_assignment(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from assignments.othello import rules\n"
                      "import reference.core\n", encoding="utf-8")
    assert sorted(imports_of_plug_ins(module)) == ["assignments.othello", "reference.core"]
