"""The harness's packages stand in declared layers and every import goes down: a package imports
only packages of lower layers (and its own modules), never one of its own layer or above. The
records every layer passes around (``harness.records``) are at the bottom, import nothing of the
project, and are imported from there alone. Imports inside functions and under TYPE_CHECKING
count: a lazy import that reaches up still ties the lower package to the upper one."""
from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

import pytest
from test_import_graph import PACKAGE, ROOT, import_graph

LAYERS: list[tuple[str, frozenset[str]]] = [
    ("records and leaf helpers", frozenset({
        "records", "worker", "dotted", "lazy", "paths", "host", "interrupts", "quick_exit",
        "progress", "pages", "schema_checks"})),
    ("the wire, clocks and course suites", frozenset({"wire", "timing", "native"})),
    ("running and judging", frozenset({"sandbox", "compare"})),
    ("specs, submissions and warm pools", frozenset({"spec", "intake", "parallel"})),
    ("one grading; one game", frozenset({"grading", "games", "__init__"})),
    ("the course's policy", frozenset({"policy", "pytest_plugin"})),
    ("many gradings", frozenset({"batch"})),
    ("releases and tournaments", frozenset({"release", "tournament"})),
    ("platforms and their entry points", frozenset({"platforms"})),
    ("the command line", frozenset({"cli"})),
    ("the program", frozenset({"__main__"})),
]
"""Bottom first. A unit is a package of harness/ or one of its top-level modules
(``__init__`` is the package's own face, the authoring surface)."""


def unit_of(module: str) -> str:
    """``harness.grading.api`` -> ``grading``; ``harness`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer_index(layers: list[tuple[str, frozenset[str]]]) -> dict[str, int]:
    return {unit: number for number, (_, units) in enumerate(layers) for unit in units}


def upward_imports(graph: dict[str, set[str]], layers: list[tuple[str, frozenset[str]]]
                   ) -> list[str]:
    """Every import that does not go down, in words ("importer -> imported: why")."""
    index = layer_index(layers)
    found = []
    for importer, targets in sorted(graph.items()):
        low = unit_of(importer)
        for target in sorted(targets):
            high = unit_of(target)
            if high == low:
                continue
            if low not in index or high not in index:
                missing = low if low not in index else high
                found.append(f"{importer} -> {target}: {missing} is in no layer")
            elif index[high] >= index[low]:
                where = "the same layer as" if index[high] == index[low] else "a higher layer than"
                found.append(f"{importer} -> {target}: {high} is in {where} {low}")
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_every_import_of_the_harness_goes_down_its_layers(graph):
    assert {unit_of(module) for module in graph} == set(layer_index(LAYERS))
    assert upward_imports(graph, LAYERS) == []


def test_the_checker_finds_an_import_that_goes_up_or_across(graph):
    graph = {name: set(targets) for name, targets in graph.items()}
    assert upward_imports(graph, LAYERS) == []
    graph["harness.records.spec"].add("harness.grading.api")
    graph["harness.compare.builtin"].add("harness.sandbox.session")
    assert upward_imports(graph, LAYERS) == [
        "harness.compare.builtin -> harness.sandbox.session: sandbox is in the same layer "
        "as compare",
        "harness.records.spec -> harness.grading.api: grading is in a higher layer than records"]


def test_the_checker_reads_an_upward_import_added_to_a_module(tmp_path: Path, monkeypatch):
    """A module written with a lazy import that reaches up (as a hurried fix would) is found."""
    import test_import_graph
    copy = tmp_path / "harness"
    for path in PACKAGE.rglob("*.py"):
        target = copy / path.relative_to(PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    (copy / "timing" / "shortcut.py").write_text(
        "def grade_now():\n    from harness.grading.api import grade\n    return grade\n",
        encoding="utf-8")
    monkeypatch.setattr(test_import_graph, "ROOT", tmp_path)
    monkeypatch.setattr(test_import_graph, "PACKAGE", copy)
    assert upward_imports(test_import_graph.import_graph(), LAYERS) == [
        "harness.timing.shortcut -> harness.grading.api: grading is in a higher layer than "
        "timing"]


def _module_imports(path: Path) -> list[ast.ImportFrom | ast.Import]:
    return [node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.Import, ast.ImportFrom))]


def test_the_records_import_only_the_standard_library_and_each_other():
    for path in (PACKAGE / "records").glob("*.py"):
        for node in _module_imports(path):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__" or \
                    name.startswith("harness.records."), (path.name, name)


@functools.lru_cache(maxsize=None)
def _top_level_names(path: Path) -> frozenset[str]:
    """The names a module defines itself (classes, functions, assignments)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(names)


def _module_file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


_IMPORT = re.compile(r"^[ \t]*from (harness(?:\.\w+)*) import (\([^)]*\)|[^\n]*)", re.M)
"""A ``from harness... import`` statement (read as text: parsing every file took seconds)."""


def _record_names() -> frozenset[str]:
    return frozenset(name for path in (PACKAGE / "records").glob("*.py")
                     for name in _top_level_names(path) if not name.startswith("_"))


def records_handed_on(text: str, records: frozenset[str]) -> list[str]:
    """The records ``text`` imports from a module other than their home ("NAME from MODULE")."""
    found = []
    for module, names in _IMPORT.findall(text):
        if module.startswith("harness.records"):
            continue
        source = _module_file(module)
        defined = _top_level_names(source) if source else frozenset()
        for entry in re.sub(r"#[^\n]*", "", names).strip("()").split(","):
            name = entry.split()[0] if entry.split() else ""
            if name in records and name not in defined:
                found.append(f"{name} from {module}")
    return found


def test_the_record_check_finds_a_record_handed_on():
    records = _record_names()
    assert {"Case", "Assignment", "Limits", "Verdict", "Judgement", "CaseResult", "Reason",
            "GameEnd", "GameResult", "HOUSE_PREFIX", "Policy"} <= records
    text = ("from harness.games.kit import (\n    HOUSE_PREFIX,  # the prefix\n    play,\n)\n"
            "from harness.records.spec import Case\nfrom harness.sandbox.limits import Limits\n")
    assert records_handed_on(text, records) == ["HOUSE_PREFIX from harness.games.kit",
                                                "Limits from harness.sandbox.limits"]


def test_each_record_is_imported_from_its_one_home():
    """No module hands a record on: every import of a record names harness.records.X."""
    records = _record_names()
    folders = [ROOT / name for name in ("harness", "reference", "tests", "bench")]
    wrong = [f"{path.relative_to(ROOT)}: {found}"
             for folder in (*folders, *ROOT.glob("assignments/*/tests"))
             for path in folder.rglob("*.py") if "fixtures" not in path.parts
             for found in records_handed_on(path.read_text(encoding="utf-8"), records)]
    assert wrong == []
