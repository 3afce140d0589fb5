"""A test method rewritten for the sandbox: its assertions record, the trusted side judges.

``self.assertX(actual, expected, ...)`` becomes ``__gg_note__(site, actual, ...)``: the first
argument (what the student's code computed) is recorded, and so is any other argument that
needs the test's own values (its locals, ``self``, the student's names); the arguments the
suite alone can evaluate (literals, the suite's constants, builtins) stay out of the sandbox and
are kept in the site for the trusted side. ``with self.assertRaises(E):`` records the names of
the exception's classes (or None). ``with self.subTest(...)`` keeps only its body.
"""
from __future__ import annotations

import ast
import builtins
import copy
import unittest
from dataclasses import dataclass, field
from typing import Any

NOTE = "__gg_note__"
RECORDS = "__gg_records__"
CASE = "__gg_case__"
RAISES = ("assertRaises", "assertRaisesRegex")
ASSERTIONS = frozenset(name for name in dir(unittest.TestCase)
                        if name.startswith("assert") or name == "fail")
_BUILTINS = frozenset(dir(builtins))


class SuiteProblem(ValueError):
    """A test method the rewrite cannot take (the message says what, with its line)."""


@dataclass
class Rewritten:
    """A test's sandbox source and its assertion sites (plain data, kept in the case's
    options). Each site: ``assert`` (the method), ``line``, ``args``/``keywords`` (each
    ``{"trusted": source}`` or ``{"recorded": index}``), ``straight`` (reached exactly once
    whenever the test runs to its end)."""

    source: str
    sites: list[dict[str, Any]] = field(default_factory=list)


def names_in(node: ast.AST) -> frozenset[str]:
    """Every plain name ``node`` reads or binds."""
    return frozenset(child.id for child in ast.walk(node) if isinstance(child, ast.Name))


class _Rewrite(ast.NodeTransformer):
    def __init__(self, trusted: frozenset[str], own_methods: frozenset[str]) -> None:
        self.trusted = trusted
        self.own_methods = own_methods
        self.sites: list[dict[str, Any]] = []
        self.depth = 0  # inside a loop, branch, try, with or nested function

    def _is_assertion(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"
                and node.func.attr in ASSERTIONS and node.func.attr not in self.own_methods)

    def _argument(self, node: ast.expr, recorded: list[ast.expr], first: bool
                  ) -> dict[str, Any]:
        if not first and names_in(node) <= self.trusted:
            return {"trusted": ast.unparse(node)}
        recorded.append(node)
        return {"recorded": len(recorded)}

    def _site(self, name: str, line: int) -> dict[str, Any]:
        site = {"assert": name, "line": line, "args": [], "keywords": {},
                "straight": self.depth == 0}
        self.sites.append(site)
        return site

    def _note(self, index: int, recorded: list[ast.expr]) -> ast.Call:
        return ast.Call(ast.Name(NOTE, ast.Load()), [ast.Constant(index), *recorded], [])

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if not self._is_assertion(node):
            return node
        assert isinstance(node.func, ast.Attribute)
        if node.func.attr in RAISES:
            if len(node.args) > 1 + (node.func.attr == "assertRaisesRegex"):
                raise SuiteProblem(f"line {node.lineno}: {node.func.attr} with a function to "
                                   "call is not supported; use it as 'with self."
                                   f"{node.func.attr}(...):'")
            raise SuiteProblem(f"line {node.lineno}: {node.func.attr} outside a 'with'")
        site = self._site(node.func.attr, node.lineno)
        recorded: list[ast.expr] = []
        site["args"] = [self._argument(arg, recorded, index == 0)
                        for index, arg in enumerate(node.args)]
        if any(isinstance(arg, ast.Starred) for arg in node.args) or any(
                k.arg is None for k in node.keywords):
            raise SuiteProblem(f"line {node.lineno}: an assertion with *args or **kwargs")
        site["keywords"] = {k.arg: self._argument(k.value, recorded, False)
                            for k in node.keywords if k.arg is not None}
        return ast.copy_location(self._note(len(self.sites) - 1, recorded), node)

    def visit_With(self, node: ast.With) -> Any:
        items = node.items
        if len(items) == 1 and isinstance(items[0].context_expr, ast.Call):
            call = items[0].context_expr
            func = call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                    and func.value.id == "self" and func.attr == "subTest":
                self.depth += 1
                body = [self.visit(statement) for statement in node.body]
                self.depth -= 1
                return ast.If(ast.Constant(True), body, [])
            if self._is_assertion(call) and isinstance(func, ast.Attribute) \
                    and func.attr in RAISES:
                return self._raises(node, call)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    def _raises(self, node: ast.With, call: ast.Call) -> ast.Try:
        assert isinstance(call.func, ast.Attribute)
        site = self._site(call.func.attr, node.lineno)
        site["args"] = [{"trusted": ast.unparse(arg)} if names_in(arg) <= self.trusted
                        else {"name": ast.unparse(arg).split(".")[-1]} for arg in call.args]
        self.depth += 1
        body = [self.visit(statement) for statement in node.body]
        self.depth -= 1
        index = len(self.sites) - 1
        names = ast.parse("[c.__name__ for c in type(__gg_error__).__mro__]", mode="eval").body
        message = ast.parse("str(__gg_error__)[:2000]", mode="eval").body
        handler = ast.ExceptHandler(ast.Name("BaseException", ast.Load()), "__gg_error__",
                                    [ast.Expr(self._note(index, [names, message]))])
        return ast.Try(body or [ast.Pass()], [handler],
                       [ast.Expr(self._note(index, [ast.Constant(None), ast.Constant("")]))],
                       [])

    def _nested(self, node: ast.AST) -> Any:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    visit_For = visit_While = visit_If = visit_Try = visit_AsyncFor = _nested
    visit_Lambda = visit_FunctionDef = _nested


def rewrite(test_class: ast.ClassDef, method: str, setup: tuple[ast.stmt, ...],
            trusted: frozenset[str]) -> Rewritten:
    """The sandbox source of ``test_class.method``: ``setup`` (the suite's own imports and
    helpers the test needs), then the class's methods rewritten, then setUp and the test run,
    all inside one function whose value is the list of records.

    Raises:
        SuiteProblem: the method cannot be rewritten (an assertion form not supported).
    """
    test_class = copy.deepcopy(test_class)  # the rewrite changes the nodes it visits
    methods = [n for n in test_class.body if isinstance(n, ast.FunctionDef)]
    own = frozenset(m.name for m in methods)
    rewriter = _Rewrite(suite_names(test_class, trusted), own)
    target = next(m for m in methods if m.name == method)
    kept = shipped_methods(test_class, method)
    body: list[ast.stmt] = []
    returns = any(isinstance(n, ast.Return) for n in ast.walk(target))
    for function in kept:
        # a helper's assertions, or any after an early return, may run any number of times
        rewriter.depth = 0 if function.name == method and not returns else 1
        statements = [rewriter.visit(s) for s in function.body]
        body.append(ast.FunctionDef(function.name, function.args, statements or [ast.Pass()],
                                    [], function.returns, type_comment=None))
    run = ast.parse(f"{RECORDS} = []\n"
                    f"def {NOTE}(*values):\n    {RECORDS}.append(list(values))\n").body
    runner = ast.parse(
        "__gg_self__ = __GGTest__()\n"
        "if hasattr(__gg_self__, 'setUp'):\n    __gg_self__.setUp()\n"
        f"__gg_self__.{method}()\n"
        f"{NOTE}(-1)\n"
        f"return {RECORDS}\n").body
    holder = ast.ClassDef("__GGTest__", [], [], body or [ast.Pass()], [])
    function = ast.FunctionDef(CASE, ast.arguments([], [], None, [], [], None, []),
                               [*setup, *run, holder, *runner], [], None, type_comment=None)
    module = ast.fix_missing_locations(ast.Module([function], []))
    return Rewritten(ast.unparse(module), rewriter.sites)


def suite_names(test_class: ast.ClassDef, trusted: frozenset[str]) -> frozenset[str]:
    """The names in ``test_class``'s methods that the suite alone binds (its top level's
    ``trusted`` and the builtins, less every name the class's methods bind)."""
    return frozenset((trusted | _BUILTINS) - {"self"} - _assigned(test_class))


def shipped_methods(test_class: ast.ClassDef, method: str) -> list[ast.FunctionDef]:
    """The methods of ``test_class`` that go to the sandbox with ``method``: it, and every
    method that is not a test (setUp, helpers)."""
    return [n for n in test_class.body if isinstance(n, ast.FunctionDef)
            and (n.name == method or not n.name.startswith("test"))]


def _assigned(node: ast.AST) -> set[str]:
    """Names a class's methods bind (arguments, assignments, loop and with targets): an
    argument naming one of them needs the test's own value."""
    names: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and isinstance(child.ctx, (ast.Store, ast.Del)):
            names.add(child.id)
        elif isinstance(child, ast.arg):
            names.add(child.arg)
    return names
