"""Paths, loaders and fake players shared by the othello tests (a uniquely named helper module)."""
from __future__ import annotations

import collections
import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[3]
TEMPLATE_DIR = REPO / "assignments" / "othello" / "template"
SOLUTION = REPO / "assignments" / "othello" / "solution" / "agent.py"
SPEC_DIR = REPO / "assignments" / "othello"


def load_module(path: Path, name: str) -> ModuleType:
    """Import a trusted single-file module by path under its own name; the template's
    ``othello_shared`` is imported first, as it sits next to an agent (sys.path is untouched)."""
    if name != "othello_shared" and "othello_shared" not in sys.modules:
        load_module(TEMPLATE_DIR / "othello_shared.py", "othello_shared")
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


def grade_cases(submission: Path, results: Path, *case_files: str, timeout_cap: float = 30,
                keyword: str = "") -> dict:
    """Grade ``submission`` on some case files of the othello spec, black-box through the
    harness's pytest plugin, and return the results.json it wrote."""
    command = [sys.executable, "-m", "pytest", "-p", "harness.pytest_plugin", "-q",
               "-p", "no:cacheprovider", "-c", str(REPO / "harness" / "data" / "pytest.ini"),
               "--rootdir", str(SPEC_DIR), "--gg-submission", str(submission),
               "--gg-results", str(results), "--gg-timeout-cap", str(timeout_cap),
               *(str(SPEC_DIR / "cases" / name) for name in case_files)]
    if keyword:
        command += ["-k", keyword]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert results.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(results.read_text(encoding="utf-8"))


def group_scores(document: dict) -> dict[str, float]:
    """{group: points earned} from a results document; a group is the test-name prefix."""
    earned: dict[str, float] = collections.defaultdict(float)
    for test in document["tests"]:
        earned[test["name"].partition(": ")[0]] += test["score"]
    return {group: round(points, 3) for group, points in earned.items()}
