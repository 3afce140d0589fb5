"""Sample submissions for the insight tests: honest solutions, disguised copies, the template."""
from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

from harness.paths import project_root

ROOT = project_root()
HONEST_A = ROOT / "assignments" / "adversarial_search" / "solution" / "adversarial_search.py"
HONEST_B = Path(__file__).resolve().parent / "data" / "honest_b" / "adversarial_search.py"
TEMPLATE = ROOT / "assignments" / "adversarial_search" / "template" / "adversarial_search.py"
MAIN = "adversarial_search.py"


def _local_names(tree: ast.AST) -> set[str]:
    """Names bound inside functions (locals, nested functions and their parameters)."""
    names: set[str] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if node is function:
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.FunctionDef):
                names.add(node.name)
                names.update(a.arg for a in node.args.args)
    return names - {"self", "_"}


def renamed_copy(source: str) -> str:
    """``source`` with every local variable and nested function renamed, as a student who
    copied and disguised a file would."""
    mapping = {name: f"q{index}_{name[::-1]}z" for index, name in
               enumerate(sorted(_local_names(ast.parse(source))))}
    tokens = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME and token.string in mapping:
            token = token._replace(string=mapping[token.string])
        tokens.append(token)
    return tokenize.untokenize(tokens)


def reordered_copy(source: str) -> str:
    """``source`` with its functions, classes and methods in reverse order."""
    tree = ast.parse(source)
    definitions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    others = [n for n in tree.body if n not in definitions]
    for node in definitions:
        if isinstance(node, ast.ClassDef):
            node.body.reverse()
    tree.body = others + definitions[::-1]
    return ast.unparse(tree) + "\n"


def class_folder(root: Path) -> Path:
    """One folder per student: two honest solutions, a disguised copy of each, the template."""
    a, b = HONEST_A.read_text(encoding="utf-8"), HONEST_B.read_text(encoding="utf-8")
    submissions = {"alice": a, "bob": renamed_copy(a), "carol": b, "dave": reordered_copy(b),
                   "erin": TEMPLATE.read_text(encoding="utf-8")}
    for student, text in submissions.items():
        folder = root / student
        folder.mkdir(parents=True)
        (folder / MAIN).write_text(text, encoding="utf-8")
    return root
