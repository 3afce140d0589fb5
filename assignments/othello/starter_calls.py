"""Probe run inside the student's process: calls an alpha-beta node of the colour-only lineage
the way its starter's own comment proposes, ``alphabeta_min_node(board, color, alpha, beta,
level, limit)``, when the student's node takes those two parameters too.

Copied into the sandbox as a probe file (stdlib only; it holds no expected values). The case
transcripts call the nodes with the handout's four arguments; a case starts with the line
``import starter_calls; starter_calls.fit(globals())``, which rebinds, in the transcript's
namespace only (the student's own recursion is untouched), a node that needs ``level`` and
``limit`` to one passing ``level=0`` (the root) and a ``limit`` no 4x4 game reaches (every
square), so the node searches to the end as the handout asks. A node taking four parameters is
left as it is.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

NODES = ("alphabeta_min_node", "alphabeta_max_node")
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _needs_level_and_limit(function: Any) -> bool:
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters if p.kind in _POSITIONAL]
    return len(positional) == 6 and all(p.default is p.empty for p in positional[4:])


def _searching_to_the_end(node: Callable[..., Any]) -> Callable[..., Any]:
    def called(board: Any, color: Any, alpha: Any, beta: Any) -> Any:
        return node(board, color, alpha, beta, 0, len(board) ** 2)

    called.__name__ = getattr(node, "__name__", "node")
    return called


def fit(space: dict[str, Any]) -> None:
    """Rebind in ``space`` each alpha-beta node written with the starter's ``level, limit``."""
    for name in NODES:
        node = space.get(name)
        if callable(node) and _needs_level_and_limit(node):
            space[name] = _searching_to_the_end(node)


__all__ = ["NODES", "fit"]
