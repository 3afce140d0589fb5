"""The student template and the solution define every name and signature the handout fixes."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from search_and_games_support import SOLUTION, TEMPLATE

from harness.spec import find_assignment

API = [entry.text for entry in find_assignment("search_and_games").api]


def signatures(path: Path) -> dict[str, list[str]]:
    """'Class.method' or 'function' -> argument names, for top-level defs of a file."""
    found: dict[str, list[str]] = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = [a.arg for a in node.args.args]
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found[f"{node.name}.{item.name}"] = [a.arg for a in item.args.args]
    return found


def expected(entry: str) -> tuple[str, list[str]]:
    name, _, args = entry.partition("(")
    return name, [a.strip() for a in args.rstrip(")").split(",") if a.strip()]


@pytest.mark.parametrize("path", [TEMPLATE, SOLUTION], ids=["template", "solution"])
@pytest.mark.parametrize("entry", API)
def test_every_handout_signature_is_defined(path, entry):
    name, args = expected(entry)
    assert signatures(path).get(name) == args, f"{path.name}: {entry}"


def test_template_lights_out_and_grid_bodies_are_empty():
    # Every function in the student's own sections is a docstring and `pass`.
    tree = ast.parse(TEMPLATE.read_text())
    owned = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
             and (n.name in {"create_puzzle", "find_path"} or n.name in _lights_out_methods(tree))]
    assert owned
    for node in owned:
        body = [s for s in node.body if not isinstance(s, ast.Expr)]
        assert [type(s) for s in body] == [ast.Pass], node.name


def _lights_out_methods(tree: ast.Module) -> set[str]:
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "LightsOutPuzzle")
    return {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
