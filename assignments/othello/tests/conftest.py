"""Fixtures for the othello tests."""
from __future__ import annotations

import pytest
from othello_support import SOLUTION, TEMPLATE_DIR, load_module

from assignments.othello.manager import load_manager


@pytest.fixture(scope="session")
def manager():
    """The one game manager (the template's othello_game.py), loaded as the grader loads it."""
    return load_manager()


@pytest.fixture(scope="session")
def shared():
    """The template's othello_shared module (what the harness supplies to students)."""
    return load_module(TEMPLATE_DIR / "othello_shared.py", "othello_shared")


@pytest.fixture()
def solution():
    """A fresh import of the reference solution agent (its module-level cache starts empty)."""
    return load_module(SOLUTION, "othello_solution_agent")
