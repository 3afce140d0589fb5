"""A hidden test's suite values turned into plain data before its code goes to the sandbox.

A course keeps inputs and answers side by side (``SEARCHES = [(rows, cols, vertical, limit,
answer), ...]``, the test reading ``SEARCHES[2][:4]``). Shipping the table with the test would
put every answer in the student's process, where frames, globals or the garbage collector
reach it. So, for a test that is not visible, each argument of a call that the suite alone can
compute is sent as the plain value it evaluates to (``SEARCHES[2][:4]`` becomes ``(3, 3, True,
1)``), and a ``for`` loop over such a table is unrolled, each pass's arguments computed with
the row bound; the expected values stay on the trusted side as before. What still needs a
suite constant after that (a table iterated with ``break``, read whole, or outside a call's
arguments) is refused by ``harness.native.suite``, which names it; it is never shipped.
"""
from __future__ import annotations

import ast
import copy
import itertools
import math
from typing import Any

from harness.native.transcript import ASSERTIONS, names_in

MAX_UNROLLED = 200
"""Iterations of one loop unrolled at most (a longer table: the test is refused, with why)."""
MAX_LITERAL = 200_000
"""Characters of one folded value at most (larger values are left as they are)."""
_PLAIN_LEAVES = (type(None), bool, int, str, bytes)
_UNFOLDED = (ast.Constant, ast.Starred, ast.Slice, ast.FormattedValue)
_NOT_INSIDE = (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


def _plain(value: Any, depth: int = 0) -> bool:
    if depth > 50:
        return False
    if type(value) in _PLAIN_LEAVES:
        return True
    if type(value) is float:
        return math.isfinite(value)
    if type(value) in (tuple, list, set):
        return all(_plain(item, depth + 1) for item in value)
    if type(value) is dict:
        return all(_plain(k, depth + 1) and _plain(v, depth + 1) for k, v in value.items())
    return False


def literal(value: Any) -> ast.expr | None:
    """``value`` as a literal expression, if it is plain data of a bounded size (else None)."""
    if not _plain(value):
        return None
    text = repr(value)
    if len(text) > MAX_LITERAL:
        return None
    node = ast.parse(text, mode="eval").body
    return node if ast.literal_eval(node) == value else None


def _stores(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for body in nodes for n in ast.walk(body)
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def _unpack(target: ast.expr, value: Any, bound: dict[str, Any]) -> bool:
    """Bind ``target``'s names as Python's assignment would; False if it cannot here."""
    if isinstance(target, ast.Name):
        bound[target.id] = value
        return True
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (tuple, list)) \
            and len(value) == len(target.elts):
        return all(_unpack(t, v, bound) for t, v in zip(target.elts, value))
    return False


def _outside_loops(node: ast.AST, bound: frozenset[str] = frozenset()) -> set[str]:
    """Names read somewhere no enclosing ``for`` binds them (a loop variable read after its
    loop: such a loop is not unrolled)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        return set() if node.id in bound else {node.id}
    if isinstance(node, ast.For):
        inner = bound | names_in(node.target)
        found = _outside_loops(node.iter, bound)
        for statement in [*node.body, *node.orelse]:
            found |= _outside_loops(statement, inner)
        return found
    found = set()
    for child in ast.iter_child_nodes(node):
        found |= _outside_loops(child, bound)
    return found


class _Seal(ast.NodeTransformer):
    def __init__(self, trusted: frozenset[str], namespace: dict[str, Any],
                 method: ast.FunctionDef) -> None:
        self.trusted = trusted
        self.namespace = namespace
        self.leaky = _outside_loops(method)
        self.bound: dict[str, Any] = {}  # the variables of the loops being unrolled

    def _evaluate(self, node: ast.expr) -> tuple[bool, Any]:
        try:
            code = compile(ast.fix_missing_locations(ast.Expression(copy.deepcopy(node))),
                           "<suite>", "eval")
            return True, eval(code, {**self.namespace, **self.bound})  # the course's suite
        except Exception:  # not something the suite alone can evaluate: left as it is
            return False, None

    def _foldable(self, node: ast.expr) -> bool:
        return (not isinstance(node, _UNFOLDED + _NOT_INSIDE)
                and names_in(node) <= self.trusted | self.bound.keys()
                and not any(isinstance(n, _NOT_INSIDE) for n in ast.walk(node)))

    def _fold(self, node: ast.expr) -> Any:
        """An argument of a call: its value as a literal, if the suite alone computes it and
        it is plain data; else the expression, its own calls' arguments folded."""
        if self._foldable(node):
            done, value = self._evaluate(node)
            folded = literal(value) if done else None
            if folded is not None:
                return ast.copy_location(folded, node)
        return self.visit(node)

    def visit_Call(self, node: ast.Call) -> Any:
        node.func = self.visit(node.func)
        later = self._fold_expected if _is_assertion(node) else self._fold
        node.args = [ast.copy_location(ast.Starred(self._fold(arg.value), ast.Load()), arg)
                     if isinstance(arg, ast.Starred) else (later if index else self._fold)(arg)
                     for index, arg in enumerate(node.args)]
        for keyword in node.keywords:
            keyword.value = later(keyword.value)
        return node

    def _fold_expected(self, node: ast.expr) -> Any:
        """An assertion's argument after the value under test: what the suite alone computes
        stays as written (the judge evaluates it, on the trusted side, when it judges); a loop
        variable is replaced by its row's value, so the expected value it names stays there
        too."""
        if names_in(node) & self.bound.keys():
            return self._fold(node)
        return node if names_in(node) <= self.trusted else self.visit(node)

    def visit_For(self, node: ast.For) -> Any:
        unrolled = self._unroll(node)
        return self.generic_visit(node) if unrolled is None else unrolled

    def _unroll(self, node: ast.For) -> list[ast.stmt] | None:
        """The loop's body once per item of a table the suite alone computes, each pass's
        call arguments folded with the loop's variables bound; None when a variable is
        used other than in a call's arguments (it would carry the whole row)."""
        if node.orelse or not self._foldable(node.iter) or any(
                isinstance(n, (ast.Break, ast.Continue)) for s in node.body for n in ast.walk(s)):
            return None
        names = names_in(node.target)
        if names & (_stores(node.body) | self.leaky):
            return None  # the loop's variables are changed, or read after it
        done, value = self._evaluate(node.iter)
        try:
            items = list(itertools.islice(iter(value), MAX_UNROLLED + 1)) if done else None
        except Exception:  # not iterable
            return None
        if items is None or len(items) > MAX_UNROLLED:
            return None
        statements: list[ast.stmt] = []
        outer = self.bound
        try:
            for item in items:
                bound: dict[str, Any] = {}
                if not _unpack(node.target, item, bound):
                    return None
                self.bound = {**outer, **bound}
                for statement in copy.deepcopy(node.body):
                    visited = self.visit(statement)
                    statements.extend(visited if isinstance(visited, list) else [visited])
        finally:
            self.bound = outer
        if any(names & names_in(statement) for statement in statements):
            return None
        return statements or [ast.Pass()]


def _is_assertion(node: ast.Call) -> bool:
    return (isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self" and node.func.attr in ASSERTIONS)


def seal(methods: list[ast.FunctionDef], trusted: frozenset[str],
         namespace: dict[str, Any]) -> None:
    """Fold, in place, the suite values of ``methods`` (those that go to the sandbox) into
    plain data, unrolling the loops over them; ``trusted`` are the names the suite alone
    binds (no name the test class binds)."""
    for method in methods:
        sealer = _Seal(trusted, namespace, method)
        body: list[ast.stmt] = []
        for statement in method.body:
            visited = sealer.visit(statement)
            body.extend(visited if isinstance(visited, list) else [visited])
        method.body = body or [ast.Pass()]
        ast.fix_missing_locations(method)
