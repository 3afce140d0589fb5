"""Back-to-back gradings that run as the same pool user share nothing through the kernel's
keyrings (issue 40): an honest submission that also files each answer as a key in its user
keyring, then a submission with no search code that only looks the answers up there.

Before the system-call filter and the keyring sweep, the key outlived the first grading (the
user keyring belongs to the user id, not to any namespace of the sandbox), and the second
submission earned every get_best_move case it had no code for. Now it earns none, with the
filter (no key can be filed) and without it (the fallback empties the user's keyrings when a
sandbox takes the user and when it closes), at each dedicated-user level.
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from gg_testing import ROOT, dedicated_user_levels, subset_root

from harness.sandbox import Level
from harness.sandbox.levels import FORCE_ENV, SANDBOX_USER_ENV
from harness.sandbox.syscall_filter import OFF_ENV
from harness.sandbox.users import lease_user, pool

pytestmark = pytest.mark.slow
SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"
CALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}.get(platform.machine())

KEYS = '''
import ctypes as _ctypes
_LIBC = _ctypes.CDLL(None, use_errno=True)
_ADD_KEY, _KEYCTL = {calls}


def _described(game, vertical, limit):
    return repr((game.get_board(), vertical, limit)).encode()


def _file(description, answer):
    # Made in the case's own session keyring, which it possesses, so that it may open the key
    # to the user (a later case, with a session keyring of its own, does not possess the user
    # keyring's keys), then linked into the user keyring, which outlives the case.
    key = _LIBC.syscall(_ADD_KEY, b"user", description, answer, len(answer), _ctypes.c_long(-3))
    if key >= 0:
        _LIBC.syscall(_KEYCTL, 5, _ctypes.c_long(key), _ctypes.c_long(0x3F3F0000))  # SETPERM
        _LIBC.syscall(_KEYCTL, 8, _ctypes.c_long(key), _ctypes.c_long(-4))  # LINK


def _look_up(description):
    key = _LIBC.syscall(_KEYCTL, 10, _ctypes.c_long(-4), b"user", description, 0)  # SEARCH
    if key < 0:
        return None
    answer = _ctypes.create_string_buffer(4096)
    size = _LIBC.syscall(_KEYCTL, 11, _ctypes.c_long(key), answer, 4096)  # READ
    return eval(answer.raw[:size].decode()) if size > 0 else None
'''

FILER = '''
_searched = DominoesGame.get_best_move


def _get_best_move_and_file(self, vertical, limit):
    description = _described(self, vertical, limit)
    answer = _searched(self, vertical, limit)
    _file(description, repr(answer).encode())
    return answer


DominoesGame.get_best_move = _get_best_move_and_file
'''

READER = '''
def _get_best_move_looked_up(self, vertical, limit):
    return _look_up(_described(self, vertical, limit))


DominoesGame.get_best_move = _get_best_move_looked_up
'''


LEVELS = dedicated_user_levels()


def search_cases_only(folder: Path) -> dict[str, str]:
    """The environment that grades only get_best_move cases, the ones the test reads: the
    handout's and the first 6 generated ones (each is an answer the reader could find filed;
    all 64 made each pair of gradings cost 10 to 18 core-seconds)."""
    return subset_root(folder, "adversarial_search", ["02_get_best_move"], generated=6)


def _grade(submission: Path, output: Path, env: dict[str, str]) -> dict:
    subprocess.run([sys.executable, "-m", "harness", "grade", "--assignment",
                    "adversarial_search", "--submission", str(submission), "--output",
                    str(output), "--quiet"], cwd=ROOT, env=env, capture_output=True,
                   text=True, timeout=900)
    assert output.exists()
    return json.loads(output.read_text())


def _search_cases(document: dict) -> list[dict]:
    return [test for test in document["tests"] if test["name"].startswith("get_best_move")]


@pytest.mark.skipif(not LEVELS or CALLS is None,
                    reason="needs root, the sandbox users (setup.sh) and x86_64 or aarch64")
@pytest.mark.parametrize("filtered", [True, False], ids=["filter", "no-filter"])
@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_answers_filed_as_keys_do_not_reach_the_next_grading(tmp_path: Path, level: Level,
                                                             filtered: bool) -> None:
    keys = KEYS.format(calls=CALLS)
    solution = SOLUTION.read_text(encoding="utf-8")
    (tmp_path / "filer").mkdir()
    (tmp_path / "reader").mkdir()
    filer = tmp_path / "filer" / "adversarial_search.py"
    filer.write_text(solution + keys + FILER, encoding="utf-8")
    reader = tmp_path / "reader" / "adversarial_search.py"
    reader.write_text(solution + keys + READER, encoding="utf-8")
    lease = lease_user(pool())  # both gradings run as this user, as back-to-back leases do
    try:
        env = {**os.environ, FORCE_ENV: level.name, SANDBOX_USER_ENV: lease.name,
               **search_cases_only(tmp_path / "root")}
        if not filtered:
            env[OFF_ENV] = "1"
        honest = _grade(filer, tmp_path / "filer.json", env)
        looked_up = _grade(reader, tmp_path / "reader.json", env)
    finally:
        lease.release()
    assert _search_cases(honest) and all(t["status"] == "passed" for t in _search_cases(honest))
    passed = [t["name"] for t in _search_cases(looked_up) if t["status"] == "passed"]
    assert not passed, f"the reader earned {len(passed)} search cases: {passed[:3]}"
