"""Paths, loaders and fake players shared by the othello tests (a uniquely named helper module)."""
from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
TEMPLATE_DIR = REPO / "student_template" / "othello"
SOLUTION = REPO / "reference" / "solutions" / "othello" / "agent.py"
SPEC_DIR = REPO / "test_specs" / "othello"


def load_module(path: Path, name: str) -> ModuleType:
    """Import a trusted single-file module by path under its own name; ``othello_shared`` (the
    template's) is made importable first, as it is next to an agent."""
    if str(TEMPLATE_DIR) not in sys.path:
        sys.path.append(str(TEMPLATE_DIR))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_FAKE_PRELUDE = '''\
import os, sys, time
def line():
    return sys.stdin.readline()
def say(text):
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
'''

_TURN_LOOP = '''\
say("Fake")
config = line()
turn = 0
while True:
    status = line()
    if not status or status.startswith("FINAL"):
        break
    board = line()
    turn += 1
'''


def write_player(folder: Path, name: str, script: str) -> Path:
    """Write a fake player program (``script`` runs after a small prelude) and return its path."""
    path = folder / f"{name}.py"
    path.write_text(_FAKE_PRELUDE + textwrap.dedent(script))
    return path


def write_replier(folder: Path, name: str, reply_code: str) -> Path:
    """A fake player that sends its name, reads the config, then on each turn runs
    ``reply_code`` (indented into the turn loop; ``board`` and ``turn`` are defined)."""
    body = textwrap.indent(textwrap.dedent(reply_code), "    ")
    return write_player(folder, name, _TURN_LOOP + body)
