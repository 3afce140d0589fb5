"""Loads the students' starter manager (``assignments/othello/template/othello_game.py``) for tests.

The starter is the students' command-line manager and is never trusted: grading and tournaments
use :mod:`assignments.othello.referee` on the one match loop. Tests load the starter from the
repository under a private module name to check it against the trusted referee (move for move)
and to test the starter's own command line.
"""
from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from assignments.othello import rules

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "assignments" / "othello" / "template"
"""The student template folder: the manager, ``othello_shared`` and Randy."""

_MODULE_NAME = "_gamegrader_othello_game"


@functools.lru_cache(maxsize=None)
def load_manager() -> ModuleType:
    """The template's ``othello_game`` module, imported once per process.

    Raises:
        ImportError: when the template file is missing or does not load.
    """
    path = TEMPLATE_DIR / "othello_game.py"
    spec = importlib.util.spec_from_file_location(_MODULE_NAME, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the Othello manager from {path}")
    module = importlib.util.module_from_spec(spec)
    # dataclasses resolve their module through sys.modules while the class body runs.
    sys.modules[_MODULE_NAME] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[_MODULE_NAME]
        raise
    return module


def reference_rules() -> ModuleType:
    """The rules module handed to the manager: the reference, with the helpers' names."""
    return rules


__all__ = ["TEMPLATE_DIR", "load_manager", "reference_rules"]
