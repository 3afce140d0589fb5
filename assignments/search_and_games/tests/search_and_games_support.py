"""Paths and loaders shared by the search_and_games tests (a uniquely named helper module)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[3]
SOLUTION = REPO / "assignments/search_and_games/solution/search_and_games.py"
TEMPLATE = REPO / "assignments/search_and_games/template/search_and_games.py"
SPEC_DIR = REPO / "assignments/search_and_games"


def load_module(path: Path, name: str) -> ModuleType:
    """Import a trusted single-file module by path, under a name of its own."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

