"""Loads the one Othello game manager for trusted use, bound to the reference rules.

There is a single manager implementation: ``student_template/othello/othello_game.py``. Students
need it as a self-contained file next to their agent (it is their command-line manager), so it
cannot import ``reference``; the grading runner therefore loads that same file from the
repository (never from a submission) under a private module name, and passes
:mod:`reference.games.othello` as its ``rules`` so legality is judged by the reference rules.
Keeping the manager in the template rather than generating a copy means there is nothing to keep
in sync; the template's ``othello_shared`` is checked against the reference rules by a test.
"""
from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from reference.games import othello as rules

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "student_template" / "othello"
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
