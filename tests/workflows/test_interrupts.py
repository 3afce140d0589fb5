"""Interrupts and kills lose nothing (docs/workflows.md, "Stopping a run"): Ctrl-C (SIGINT to the
process group, once or twice), SIGTERM and SIGKILL of a batch, a tournament and a grading. What
finished is kept, what was cut short is recorded as interrupted (never a score, never final), the
next run grades or plays it again, and the exit status is 130 or 143."""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from workflow_support import ASSIGNMENT, REPO, SMALL_TOTAL, SOLUTION, gamegrader, small_root

pytestmark = pytest.mark.slow

ISOLATION_PLAYER = REPO / "assignments" / "isolation" / "solution" / "player.py"

HOW = {  # name: (signal, to the whole process group (as a terminal's Ctrl-C), times sent)
    "ctrl-c": (signal.SIGINT, True, 1),
    "ctrl-c twice": (signal.SIGINT, True, 2),
    "sigterm": (signal.SIGTERM, False, 1),
    "sigkill": (signal.SIGKILL, False, 1),
}
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGKILL: -signal.SIGKILL}


def stopped(command: list[str], env: dict[str, str], ready: Callable[[], bool], how: str,
            started_with: Any = signal.SIG_DFL) -> tuple[int, str]:
    """Run ``command`` in a process group of its own (SIGINT set to ``started_with``), signal
    it as ``how`` says once ``ready()``, and return its exit status and stderr once it and
    every process of its group ended."""
    signum, group, times = HOW[how]
    process = subprocess.Popen(
        command, cwd=REPO, env={**os.environ, **env}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, started_with))
    deadline = time.monotonic() + 240
    while not ready() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert process.poll() is None, "it ended before it could be interrupted"
    for _ in range(times):
        (os.killpg if group else os.kill)(process.pid, signum)
        time.sleep(0.5)
    # What it started (gradings, games) ends with it, at once even at SIGKILL: a grading of the
    # slow solution below has 15 s or more to go. (Its output is read after: its jobs hold the
    # same pipes, and what it writes fits in them.)
    deadline = time.monotonic() + (10 if signum == signal.SIGKILL else 90)
    while (process.poll() is None or _group_alive(process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)  # (poll reaps the command itself: a zombie still counts in its group)
    assert not _group_alive(process.pid), "processes of the run outlived it"
    _, stderr = process.communicate(timeout=30)
    return process.returncode, stderr


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def slow_solution() -> str:
    """The reference solution, one second slower for each board it shows: a grading that is
    surely still running when the fast one has finished."""
    text = SOLUTION.read_text()
    anchor = "    def get_board(self):\n"
    assert anchor in text
    return text.replace(anchor, anchor + "        __import__('time').sleep(1)\n", 1)


def one_fast_two_slow(submissions: Path) -> Path:
    """A submissions folder: a_fast (the reference), b_slow and c_slow (``slow_solution``)."""
    for name, text in (("a_fast", SOLUTION.read_text()), ("b_slow", slow_solution()),
                       ("c_slow", slow_solution())):
        (submissions / name).mkdir(parents=True)
        (submissions / name / "adversarial_search.py").write_text(text)
    return submissions


def local_batch(tmp_path: Path) -> tuple[dict[str, str], Path, Path, list[str]]:
    """The environment, submissions (``one_fast_two_slow``), output folder and command of a
    batch on two local workers."""
    env = small_root(tmp_path / "root")
    submissions = one_fast_two_slow(tmp_path / "submissions")
    out = tmp_path / "out"
    return env, submissions, out, [
        sys.executable, "-m", "harness", "batch", "--assignment", ASSIGNMENT, str(submissions),
        "--out", str(out), "--workers", "2", "--no-progress"]


def gradebook(out: Path) -> dict[str, dict[str, str]]:
    with (out / "gradebook.csv").open(newline="", encoding="utf-8") as stream:
        return {row["submission"]: row for row in csv.DictReader(stream)}


@pytest.mark.parametrize("how", list(HOW))
def test_a_stopped_batch_keeps_what_finished_and_records_no_grade_for_what_it_cut(
        tmp_path: Path, how: str) -> None:
    env, submissions, out, command = local_batch(tmp_path)
    fast = out / "submissions" / "a_fast" / "input.json"
    status, stderr = stopped(command, env, fast.is_file, how)
    signum = HOW[how][0]
    assert status == EXIT[signum], stderr[-3000:]

    fast_result = read_json(out / "submissions" / "a_fast" / "results.json")
    assert fast_result["extra_data"]["final"] and fast_result["score"] == SMALL_TOTAL
    for name in ("b_slow", "c_slow"):  # cut short (or never started): no grade, never final
        results = out / "submissions" / name / "results.json"
        if results.exists():
            document = read_json(results)
            assert not document["extra_data"].get("final"), document
            assert "harness_error" not in document["extra_data"]
    if signum != signal.SIGKILL:
        assert "interrupted; finished results are kept" in stderr
        rows = gradebook(out)
        assert rows["a_fast"]["score"] == "8" and rows["a_fast"]["status"] == "graded"
        assert rows["b_slow"]["score"] == "" and rows["b_slow"]["status"].startswith(
            "interrupted: grading was stopped before it finished")
        canvas = (out / "canvas.csv").read_text(encoding="utf-8")
        assert ",0\n" not in canvas  # no grade that no finished grading gave

    rerun = gamegrader("batch", "--assignment", ASSIGNMENT, str(submissions), "--out", str(out),
                       "--workers", "2", "--no-progress", env=env)
    assert rerun.returncode == 0, rerun.stdout[-3000:] + rerun.stderr[-3000:]
    assert "2 graded, 1 unchanged (kept)" in rerun.stdout
    rows = gradebook(out)
    assert {name: (row["score"], row["status"]) for name, row in rows.items()} == {
        name: ("8", "graded") for name in ("a_fast", "b_slow", "c_slow")}


@pytest.mark.parametrize("how", list(HOW))
def test_a_stopped_grading_leaves_no_grade_and_says_why(tmp_path: Path, how: str) -> None:
    env = small_root(tmp_path / "root")
    submission = tmp_path / "adversarial_search.py"
    submission.write_text(slow_solution())
    output = tmp_path / "results.json"
    command = [sys.executable, "-m", "harness", "grade", "--assignment", ASSIGNMENT,
               "--submission", str(submission), "--output", str(output)]
    started = [0.0]

    def grading() -> bool:  # a few cases in: the provisional results.json is there
        if output.exists() and not started[0]:
            started[0] = time.monotonic()
        return bool(started[0]) and time.monotonic() - started[0] > 2

    status, stderr = stopped(command, env, grading, how)
    signum = HOW[how][0]
    assert status == EXIT[signum], stderr[-3000:]
    document = read_json(output)
    assert not document["extra_data"]["final"] and "harness_error" not in document["extra_data"]
    assert "Score:" not in stderr
    if signum != signal.SIGKILL:
        assert document["extra_data"]["interrupted"] == signum.name
        assert f"Grading was interrupted ({signum.name}) before it finished" in document["output"]
        assert f"gamegrader: interrupted ({signum.name})" in stderr


@pytest.mark.parametrize("how", list(HOW))
def test_a_stopped_tournament_keeps_its_finished_games_and_plays_the_rest_next_time(
        tmp_path: Path, how: str) -> None:
    out = tmp_path / "cup"
    command = [sys.executable, "-m", "harness", "tournament", "isolation",
               f"solution={ISOLATION_PLAYER}", "house:greedy", "house:random", "--clock", "1",
               "--seed", "7", "--workers", "2", "--out", str(out)]
    records = out / "records"
    status, stderr = stopped(command, {}, lambda: any(records.glob("[!.]*.json")), how)
    signum = HOW[how][0]
    assert status == EXIT[signum], stderr[-3000:]
    kept = len(list(records.glob("[!.]*.json")))
    assert 1 <= kept < 6
    assert not (out / "standings.csv").exists()  # no standings from part of the games
    if signum != signal.SIGKILL:
        assert "interrupted; every game that finished is kept" in stderr

    rerun = gamegrader(*command[3:])
    assert rerun.returncode == 0, rerun.stdout[-3000:] + rerun.stderr[-3000:]
    assert f"{6 - kept} games played, {kept} taken from the records" in rerun.stderr
    games = read_json(out / "results.json")["games"]
    assert len(games) == 6 and all(game["reason"] != "aborted" for game in games)


def _grandchildren(pid: int) -> list[int]:
    """The processes two or more levels below ``pid`` (a dask worker's jobs: its warm processes
    stay, what they forked must not)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents[int(entry.name)] = int(fields[1])
    children = [child for child, parent in parents.items() if parent == pid]
    return [child for child, parent in parents.items() if parent in children]


@pytest.fixture(scope="module")
def batch_cluster(tmp_path_factory: pytest.TempPathFactory
                  ) -> Iterator[tuple[str, int, dict[str, str]]]:
    """(scheduler address, worker pid, environment) of one dask cluster for the module's stopped
    batches, its worker started with the small spec's root in its environment. Each test's
    rerun already grades on the cluster its stopped batch used, so a later test's batch meets
    nothing the rerun did not; a cluster per test cost about 2 core-seconds more each."""
    distributed = pytest.importorskip("distributed")
    env = small_root(tmp_path_factory.mktemp("dask") / "root")
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)  # while the cluster starts: its worker inherits it
        cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=3, processes=True,
                                           dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        yield cluster.scheduler_address, next(iter(client.run(os.getpid).values())), env


@pytest.mark.xdist_group("dask_batch_interrupts")  # one worker, one cluster
@pytest.mark.parametrize("how", ["ctrl-c", "ctrl-c twice", "sigterm"])
def test_a_stopped_batch_on_a_dask_cluster_stops_its_gradings_there_and_keeps_no_grade(
        tmp_path: Path, batch_cluster: tuple[str, int, dict[str, str]], how: str) -> None:
    scheduler, worker, env = batch_cluster
    submissions = one_fast_two_slow(tmp_path / "submissions")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "harness", "batch", "--assignment", ASSIGNMENT,
               str(submissions), "--out", str(out), "--scheduler", scheduler,
               "--no-progress"]
    status, stderr = stopped(command, env, (out / "submissions" / "a_fast" /
                                            "results.json").is_file, how)
    assert status == EXIT[HOW[how][0]], stderr[-3000:]
    # the slow gradings on the cluster were stopped, not left to run on (15 s or more)
    deadline = time.monotonic() + 5
    while _grandchildren(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _grandchildren(worker), "gradings of the stopped batch ran on"
    rows = gradebook(out)
    assert (rows["a_fast"]["score"], rows["a_fast"]["status"]) == ("8", "graded")
    for name in ("b_slow", "c_slow"):
        assert rows[name]["score"] == "" and rows[name]["status"].startswith(
            "interrupted: grading was stopped before it finished"), rows[name]
        document = read_json(out / "submissions" / name / "results.json")
        assert not document["extra_data"].get("final"), document
    assert ",0\n" not in (out / "canvas.csv").read_text(encoding="utf-8")

    rerun = gamegrader(*command[3:], env=env)
    assert rerun.returncode == 0, rerun.stdout[-3000:] + rerun.stderr[-3000:]
    assert "2 graded, 1 unchanged (kept)" in rerun.stdout
    assert {name: (row["score"], row["status"]) for name, row in gradebook(out).items()} \
        == {name: ("8", "graded") for name in ("a_fast", "b_slow", "c_slow")}


def test_a_batch_that_ignores_ctrl_c_grades_on_and_so_do_its_gradings(tmp_path: Path) -> None:
    """A script's background job starts ignoring Ctrl-C, and a Ctrl-C in the script's terminal
    reaches its whole group: the batch carries on, and its gradings with it (they stopped, were
    recorded interrupted, and the batch then exited 1 saying "6 graded ... 4 without a result")."""
    env, submissions, out, command = local_batch(tmp_path)
    fast = out / "submissions" / "a_fast" / "input.json"
    status, stderr = stopped(command, env, fast.is_file, "ctrl-c twice",
                             started_with=signal.SIG_IGN)
    assert status == 0, stderr[-3000:]
    assert {name: (row["score"], row["status"]) for name, row in gradebook(out).items()} == {
        name: ("8", "graded") for name in ("a_fast", "b_slow", "c_slow")}


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_stopped_tournament_on_a_dask_cluster_keeps_its_finished_games(
        tmp_path: Path, how: str) -> None:
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "cup"
    records = out / "records"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster:
        command = [sys.executable, "-m", "harness", "tournament", "isolation",
                   f"solution={ISOLATION_PLAYER}", "house:greedy", "house:random", "--clock",
                   "1", "--seed", "7", "--scheduler", cluster.scheduler_address,
                   "--out", str(out)]
        status, stderr = stopped(command, {}, lambda: any(records.glob("[!.]*.json")), how)
        assert status == EXIT[HOW[how][0]], stderr[-3000:]
        assert "interrupted; every game that finished is kept" in stderr
        kept = len(list(records.glob("[!.]*.json")))
        assert 1 <= kept < 6 and not (out / "standings.csv").exists()

        rerun = gamegrader(*command[3:])
        assert rerun.returncode == 0, rerun.stdout[-3000:] + rerun.stderr[-3000:]
        assert f"{6 - kept} games played, {kept} taken from the records" in rerun.stderr
        games = read_json(out / "results.json")["games"]
        assert len(games) == 6 and all(game["reason"] != "aborted" for game in games)
