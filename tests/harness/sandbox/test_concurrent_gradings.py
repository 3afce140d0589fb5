"""Two gradings on one machine: a submission that attacks every other student process it can
reach (SIGKILL to everything it may signal, reading and rewriting the source in every case folder
it can find) leaves a grading running at the same time untouched and unread, because each
sandbox leases a user of its own and case folders are private to it.

The control runs the same attack with both sides forced onto one user (what a per-process pool
allowed before): the other grading then loses points, which shows the attack is real.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from gg_testing import ROOT, dedicated_user_levels, run_gamegrader, subset_root

from harness.sandbox import Level, Sandbox
from harness.sandbox.levels import FORCE_ENV, SANDBOX_USER_ENV, detect
from harness.sandbox.users import lease_user, pool

pytestmark = pytest.mark.slow

SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"
VICTIM_RUNS = 2
VICTIM_RUN_ENV = "GG_TEST_VICTIM_RUN"
"""Set to the run's number, so that each run is a grading of its own (the same quiet grading of
the same files would otherwise be run once and copied: gg_testing.run_gamegrader)."""

ATTACKER = r'''
import glob, json, os, select, signal, sys, time

def case_folders():
    found = set(glob.glob("/var/lib/gamegrader/scratch/*/case*"))
    found.update(glob.glob("/tmp/gamegrader-*/case*"))
    for pid in os.listdir("/proc"):
        try:
            found.add(os.readlink(f"/proc/{pid}/cwd"))
        except OSError:
            pass
    return found - {os.getcwd()}

print("ready", flush=True)
tally = {"rounds": 0, "kills": 0, "reads": 0, "rewrites": 0}
while not select.select([sys.stdin], [], [], 0.02)[0]:
    tally["rounds"] += 1
    try:
        os.kill(-1, signal.SIGKILL)  # every process this user may signal, except this one
        tally["kills"] += 1
    except OSError:
        pass
    for folder in case_folders():
        try:
            with open(os.path.join(folder, "adversarial_search.py"), "rb") as handle:
                tally["reads"] += bool(handle.read())
        except OSError:
            pass
        try:
            with open(os.path.join(folder, "adversarial_search.py"), "w") as handle:
                handle.write("raise SystemExit('tampered')\n")
            tally["rewrites"] += 1
        except OSError:
            pass
print(json.dumps(tally), flush=True)
'''


def _grade_while_attacked(tmp_path: Path, level: Level, shared_user: str | None,
                          runs: int = VICTIM_RUNS, *options: str
                          ) -> tuple[list[tuple[float, float]], dict[str, int]]:
    """Grade the reference ``runs`` times while the attacker runs in another sandbox: (score,
    full score) of each run, and the attacker's tally. Each grading runs both Dominoes case
    files with 6 of the 64 generated boards (the attacker attacks for as long as the gradings last:
    every board made the two runs cost about 18 core-seconds at the USER level). It attacks every
    20 ms, many times in each case's life: every 2 ms, its scans of /proc cost most of the
    test's CPU time."""
    root = subset_root(tmp_path / "root", "adversarial_search",
                       ["01_infrastructure", "02_get_best_move"], generated=6)
    attacker = tmp_path / "attacker.py"
    attacker.write_text(ATTACKER)
    env = {FORCE_ENV: level.name}
    if shared_user:
        env[SANDBOX_USER_ENV] = shared_user
    scores = []
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        if not shared_user:
            patch.delenv(SANDBOX_USER_ENV, raising=False)
        with Sandbox("attacker", {"attacker.py": attacker},
                     isolation=detect.__wrapped__()) as box, box.start_program() as program:
            assert program.read_line(30) == "ready", program.stderr_tail()
            for run in range(runs):
                output = tmp_path / f"victim-{run}.json"
                done = run_gamegrader("grade", "--assignment", "adversarial_search",
                                      "--submission", str(SOLUTION), "--output", str(output),
                                      "--quiet", *options,
                                      env={**os.environ, **root, VICTIM_RUN_ENV: str(run)})
                assert output.exists(), done.stderr
                document = json.loads(output.read_text())
                scores.append((document["score"],
                               sum(test["max_score"] for test in document["tests"])))
            program.send_line("stop")
            line = program.read_line(30)
    assert line, "the attacker stopped early"
    return scores, json.loads(line)


LEVELS = dedicated_user_levels()


@pytest.mark.skipif(not LEVELS, reason="needs root and the sandbox users (setup.sh)")
@pytest.mark.parametrize("level", LEVELS, ids=lambda level: level.name)
def test_an_attacker_cannot_touch_a_concurrent_grading(tmp_path, level):
    scores, tally = _grade_while_attacked(tmp_path, level, shared_user=None)
    assert tally["rounds"] > 10, tally  # it attacked the whole time
    assert tally["reads"] == tally["rewrites"] == 0, tally
    assert len(scores) == VICTIM_RUNS and all(score == full > 0 for score, full in scores), scores


@pytest.mark.skipif(Level.USER not in LEVELS, reason="needs the USER level (root, users)")
def test_control_the_same_attack_hurts_a_grading_that_shares_its_user(tmp_path):
    lease = lease_user(pool())  # a user nobody else on this machine is using now
    try:
        scores, tally = _grade_while_attacked(tmp_path, Level.USER, lease.name, 1,
                                              "--budget", "15")  # its cases all crash
    finally:
        lease.release()
    assert tally["kills"] > 0
    assert min(score - full for score, full in scores) < 0, (scores, tally)


def test_programs_of_one_sandbox_never_see_a_user_leased_elsewhere(tmp_path, monkeypatch):
    """Two sandboxes alive at once (two tournament entrants) run as two different users."""
    monkeypatch.delenv(SANDBOX_USER_ENV, raising=False)
    if not detect().dedicated_user:
        pytest.skip("needs root and the sandbox users (setup.sh)")
    script = tmp_path / "whoami.py"
    script.write_text("import os\nprint(os.getuid(), flush=True)\n")
    with Sandbox("whoami", {"whoami.py": script}) as first, \
            Sandbox("whoami", {"whoami.py": script}) as second:
        uids = []
        for box in (first, second):
            with box.start_program() as program:
                uids.append(program.read_line(30))
        assert uids[0] != uids[1] and None not in uids
        assert [first.isolation.uid, second.isolation.uid] == [int(u or -1) for u in uids]
