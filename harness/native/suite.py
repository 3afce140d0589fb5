"""Read a unittest suite into case entries: one per test method, its decorators honoured.

The suite is the course's code, run on the trusted side with only its standard-library (and
gradescope-utils) imports: an import of anything else is the submission's, and goes to the
sandbox only. gradescope-utils' own result class reads each method's ``@weight``,
``@visibility``, ``@number``, ``@tags`` and ``@hide_errors``, as its runner would.
"""
from __future__ import annotations

import ast
import copy
import functools
import inspect
import sys
import unittest
from pathlib import Path
from typing import Any

from harness.native.sealed import seal
from harness.native.transcript import (
    CASE,
    SuiteProblem,
    names_in,
    rewrite,
    shipped_methods,
    suite_names,
)

JUDGE = "harness.native.judge:assertions"
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
_TRUSTED_TOP = ("gradescope_utils", "unittest")


def _trusted_import(node: ast.stmt) -> bool:
    """Whether an import statement names only standard-library modules (or gradescope-utils)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            return False
        names = [node.module or ""]
    else:
        return False
    return all(name.split(".")[0] in sys.stdlib_module_names or name.split(".")[0]
               in _TRUSTED_TOP for name in names)


def _gradescope_import(node: ast.stmt) -> bool:
    names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
        [node.module or ""] if isinstance(node, ast.ImportFrom) else []
    return any(name.split(".")[0] == "gradescope_utils" for name in names)


def _is_main_block(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)


def _tree(path: Path) -> ast.Module:
    try:
        return ast.parse(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError, SyntaxError) as exc:
        raise SuiteProblem(f"cannot be read as Python: {exc}") from exc


@functools.lru_cache(maxsize=16)
def _namespace(path: str, stamp: float) -> dict[str, Any]:
    """The suite's top level as the trusted side runs it: without the submission's imports
    or its ``__main__`` block."""
    tree = _tree(Path(path))
    tree.body = [n for n in tree.body if not _is_main_block(n) and (
        _trusted_import(n) or not isinstance(n, (ast.Import, ast.ImportFrom)))]
    namespace: dict[str, Any] = {"__name__": "gamegrader_suite", "__file__": path}
    try:
        exec(compile(tree, path, "exec"), namespace)  # the course's own suite
    except Exception as exc:  # any failure is the suite's, and said so
        raise SuiteProblem(
            f"its top level failed without the submission ({type(exc).__name__}: {exc}); a "
            "suite may use the submission's names only inside its test classes") from exc
    return namespace


def trusted_namespace(path: Path) -> dict[str, Any]:
    """The suite's trusted namespace (cached while the file is unchanged)."""
    return _namespace(str(path.resolve()), path.stat().st_mtime)


def _bound(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store)}


def _setup(tree: ast.Module, used: set[str], classes: set[str]) -> tuple[ast.stmt, ...]:
    """The top-level statements the sandbox code needs: every import, and the definitions of
    names it uses (with what those use in turn); never a test class."""
    wanted = set(used)
    chosen: list[ast.stmt] = []
    candidates = [n for n in tree.body if not _is_main_block(n)
                  and not (isinstance(n, ast.ClassDef) and n.name in classes)]
    changed = True
    while changed:
        changed = False
        for node in candidates:
            if node in chosen:
                continue
            if _gradescope_import(node):
                continue  # the decorators: the rewritten code has none
            if isinstance(node, (ast.Import, ast.ImportFrom)) or _bound(node) & wanted:
                chosen.append(node)
                wanted |= names_in(node)
                changed = True
    return tuple(n for n in candidates if n in chosen)


def _decorations(test: unittest.TestCase) -> dict[str, Any]:
    """What gradescope-utils reads from a test method, through its own result class."""
    from gradescope_utils.autograder_utils.json_test_runner import JSONTestResult
    reader = JSONTestResult(None, True, 0, [], [], "")
    method = getattr(test, test._testMethodName)
    wrapped = getattr(method, "__wrapped__", None)
    return {"weight": reader.getWeight(test), "visibility": reader.getVisibility(test),
            "number": reader.getNumber(test), "tags": reader.getTags(test),
            "hide_errors": reader.getHideErrors(test),
            "leaderboard": reader.getLeaderboardData(test)[0],
            "partial": wrapped is not None
            and "set_score" in inspect.signature(wrapped).parameters,
            "name": test.shortDescription() or f"{type(test).__name__}.{test._testMethodName}"}


def _order(number: Any) -> tuple[Any, ...]:
    parts = str(number).split(".") if number is not None else []
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts) or ((2, ""),)


def suite_entries(case_file: Path, suite: str, defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """One case entry per test method of ``suite`` (relative to the case file), ordered by
    ``@number`` (then as unittest loads them).

    Raises:
        SuiteProblem: the suite cannot be read, or a test cannot be graded safely (why, named).
    """
    path = (case_file.parent / suite)
    if not path.is_file():
        raise SuiteProblem(f"{suite} does not exist")
    tree = _tree(path)
    namespace = trusted_namespace(path)
    trusted = frozenset(namespace) - {"__builtins__"}
    classes = {name: value for name, value in namespace.items() if isinstance(value, type)
               and issubclass(value, unittest.TestCase) and value.__module__ == "gamegrader_suite"}
    nodes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef) and n.name in classes}
    found = []
    for class_name, test_class in classes.items():
        for test in unittest.TestLoader().loadTestsFromTestCase(test_class):
            assert isinstance(test, unittest.TestCase)
            found.append((class_name, test, _decorations(test)))
    found.sort(key=lambda item: _order(item[2]["number"]))
    hidden_reads = _hidden_reads(found, nodes, defaults)
    entries = []
    for class_name, test, marks in found:
        method = test._testMethodName
        where = f"{class_name}.{method}"
        if marks["partial"]:
            raise SuiteProblem(f"{where}: @partial_credit is not supported (its score would be "
                               "computed beside the student's code, which could set it); split "
                               "it into @weight tests, or write it as YAML cases")
        if marks["leaderboard"] is not None:
            raise SuiteProblem(f"{where}: @leaderboard is not supported")
        visibility = marks["visibility"] or defaults.get("visibility", "visible")
        if visibility not in VISIBILITIES:
            raise SuiteProblem(f"{where}: @visibility({visibility!r}) is not one of "
                               f"{', '.join(VISIBILITIES)}")
        hidden = visibility != "visible"
        node = _sealed(nodes[class_name], method, trusted, namespace)
        try:
            bare = rewrite(node, method, (), trusted)
            used = set(names_in(ast.parse(bare.source)))
            setup = _setup(tree, used, set(classes))
            done = rewrite(node, method, setup, trusted)
        except SuiteProblem as exc:
            raise SuiteProblem(f"{where}: {exc}") from exc
        if hidden:
            _check_hidden(where, done.sites)
        _check_shipped(where, setup, None if hidden else hidden_reads)
        lines = done.source.splitlines()
        doctest = "\n".join([f">>> {lines[0]}", *(f"... {line}" for line in lines[1:]),
                             f">>> {CASE}()", "<the test's assertions, judged by the grader>"])
        entries.append({
            **defaults, "name": marks["name"], "doctest": doctest,
            "points": float(marks["weight"] or 0.0), "visibility": visibility,
            "tags": [str(t) for t in (marks["tags"] or defaults.get("tags", []))],
            "compare": JUDGE,
            "options": {**defaults.get("options", {}), "suite": suite, "test": where,
                        "sites": done.sites, "hide_errors": marks["hide_errors"] or ""}})
    return entries


def _sealed(test_class: ast.ClassDef, method: str, trusted: frozenset[str],
            namespace: dict[str, Any]) -> ast.ClassDef:
    """A copy of ``test_class`` whose shipped methods hold the suite's values as plain data
    (``harness.native.sealed``): what a hidden ``method`` sends to the sandbox."""
    sealed = copy.deepcopy(test_class)
    seal(shipped_methods(sealed, method), suite_names(sealed, trusted), namespace)
    return sealed


def _hidden_reads(found: list[tuple[str, unittest.TestCase, dict[str, Any]]],
                  nodes: dict[str, ast.ClassDef], defaults: dict[str, Any]) -> frozenset[str]:
    """Every name the tests that are not visible read (the suite's tables among them)."""
    names: set[str] = set()
    for class_name, test, marks in found:
        if (marks["visibility"] or defaults.get("visibility", "visible")) != "visible":
            for method in shipped_methods(nodes[class_name], test._testMethodName):
                names |= names_in(method)
    return frozenset(names)


def _check_shipped(where: str, setup: tuple[ast.stmt, ...],
                   forbidden: frozenset[str] | None) -> None:
    """A test sends the suite's code it calls (imports, functions, classes), and no value of
    the suite's top level that a test students do not see reads (``forbidden``; None: a hidden
    test, which sends none): a table read whole in the student's process gives away every
    answer it holds, and what a visible test's code prints is shown to the student."""
    for node in setup:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef,
                             ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        bound = _bound(node)
        if forbidden is not None and not bound & forbidden:
            continue
        names = ", ".join(sorted(bound if forbidden is None else bound & forbidden)) \
            or ast.unparse(node)[:60]
        whose = ("a test that is not visible would carry the suite's {} (line {})" if forbidden
                 is None else "this visible test would carry the suite's {} (line {}), which "
                 "tests that are not visible read,").format(names, node.lineno)
        raise SuiteProblem(
            f"{where}: {whose} into the student's process, where all of it can be read (and "
            "printed); the grader sends only the values it can compute from the suite alone "
            "(e.g. TABLE[2][:4], or a for loop over TABLE without break or continue, which it "
            "unrolls), so index it with literals there, or make the test visible")


def _check_hidden(where: str, sites: list[dict[str, Any]]) -> None:
    """A test students do not see may not put its expected values in their process."""
    for site in sites:
        later = site["args"][1:] + list(site["keywords"].values())
        if any("recorded" in part for part in later):
            raise SuiteProblem(
                f"{where}, line {site['line']}: the expected value of this {site['assert']} "
                "needs the test's own values (its local names or self), which would be in the "
                "student's process; a test that is not visible must compare with a literal or "
                "a constant of the suite")
