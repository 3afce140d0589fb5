"""Every scenario of this folder, graded through the real entry point (see README.md here)."""
from __future__ import annotations

import json
import os
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from gg_testing import FINISHED_GRADING
from hostile_support import HERE, Run, case_timeouts, graded, isolation_level, load

from harness.grading import results as results_file
from harness.sandbox.levels import Level

pytestmark = pytest.mark.slow

SCENARIOS = sorted(HERE.glob("*.yaml"))
# A case may overrun its timeout by the worker's start-up allowance (1 s for a fresh interpreter,
# 0.25 s for a case forked from the fork server; see harness/sandbox/). Its time ends at its
# deadline: killing and reaping what it started is the grader's time (on a loaded machine that
# took 1.5 s, and sigstop_self failed when it was counted).
MARGIN = 1.5
# How long an orphan watch lasts when a scenario asks for one without saying how long.
DEFAULT_SETTLE = 1.0
# A mark this long after grading ended means a student process outlived it. Killing what is left
# takes the kernel a moment, more on a loaded machine; a survivor goes on marking until the end
# of the settle time (at least DEFAULT_SETTLE), well beyond this.
LATE_MARK = 0.5


def group_of(test: dict[str, Any]) -> str:
    return test["name"].split(": ", 1)[0]


SUITE_TIMEOUT = 10.0  # every case file in suites/ says defaults: {timeout: 10}


def worst_overshoot(spec: dict[str, Any], document: dict[str, Any]) -> dict[str, Any] | None:
    """The case that ran longest past its timeout (the spec's, capped by ``timeout_cap``)."""
    timeouts = case_timeouts(spec["assignment"], document)
    cap = spec.get("grade", {}).get("timeout_cap")
    worst = None
    for test in document.get("tests", []):
        if test["extra_data"]["verdict"] == "NOT_RUN":
            continue  # never started: its time is the grader's (the import check's, for one)
        case_id = test["extra_data"]["case_id"]
        own = timeouts.get(case_id, SUITE_TIMEOUT)  # else a case of the scenario's suite
        limit = min(own, cap) if cap is not None else own
        seconds = test["extra_data"]["seconds"]
        if worst is None or seconds - limit > worst["over"]:
            worst = {"over": round(seconds - limit, 3), "seconds": seconds, "limit": limit,
                     "case": case_id}
    return worst


class TimingBoard:
    """Collects each scenario's worst overshoot in a folder shared by the xdist workers; the
    scenario that completes the set reports the corpus-wide worst once, as a warning, so it
    appears in pytest's normal summary whichever worker ran what."""

    def __init__(self, request: pytest.FixtureRequest, factory: pytest.TempPathFactory) -> None:
        base = factory.getbasetemp()
        shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
        self.folder = shared / "hostile-case-times"
        self.folder.mkdir(exist_ok=True)
        self.expected = {item.callspec.id for item in request.session.items
                         if getattr(item, "originalname", "") == "test_hostile_submission"}

    def add(self, scenario: str, worst: dict[str, Any] | None) -> None:
        partial = self.folder / f"{scenario}.partial"
        partial.write_text(json.dumps(worst), encoding="utf-8")
        os.replace(partial, self.folder / f"{scenario}.json")  # never read half-written
        reported = {p.stem: json.loads(p.read_text(encoding="utf-8"))
                    for p in self.folder.glob("*.json")}
        if not self.expected <= reported.keys():
            return
        try:
            os.close(os.open(self.folder / "reported", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return
        measured = [(w["over"], name, w) for name, w in reported.items() if w]
        if not measured:
            return
        over, name, w = max(measured, key=lambda entry: entry[0])
        # A builtin category: xdist re-creates the warning in the controller, which cannot
        # import this test module.
        warnings.warn(UserWarning(
            f"hostile corpus, worst case time beyond its timeout over {len(reported)} "
            f"scenarios: {over:+.3f} s ({name}: {w['case']} took {w['seconds']} s for "
            f"{w['limit']:g} s; allowed {MARGIN} s)"))


@pytest.fixture
def timing(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> TimingBoard:
    return TimingBoard(request, tmp_path_factory)


def read_results(run: Run, expect: dict[str, Any]) -> dict[str, Any]:
    """The results document, checked: valid against the schema, and final unless the scenario
    kills the grader (then the provisional file written at start-up must be what is left)."""
    assert run.output.is_file(), f"no results.json at all; grader stderr: {run.stderr[-2000:]}"
    document = run.document()
    results_file.validate(document)
    if not document["extra_data"].get("final"):
        assert expect.get("provisional"), f"results.json is not final: {run.stderr[-2000:]}"
        assert document["score"] == 0 and document["tests"] == []
    else:
        assert run.returncode in FINISHED_GRADING, run.stderr[-3000:]
    return document


def check_grading(document: dict[str, Any], expect: dict[str, Any], level: str) -> None:
    if not document["extra_data"].get("final"):
        return
    isolation = "none (nothing to run)" if expect.get("nothing_runs") else Level[level].value
    host = "\n".join(document["extra_data"]["grading_host"])  # for instructors only
    assert f"Isolation: {isolation}" in host and "Isolation" not in document["output"]
    tests = document["tests"]
    text = json.dumps(document)
    if "total" in expect:
        assert document["score"] == expect["total"]
    if "max_total" in expect:
        assert document["score"] <= expect["max_total"]
    if "min_total" in expect:
        assert document["score"] >= expect["min_total"]
    if "max_score" in expect:
        assert sum(t["max_score"] for t in tests) == expect["max_score"]
    for group, allowed in expect.get("verdicts", {}).items():
        seen = {t["extra_data"]["verdict"] for t in tests if group_of(t) == group}
        assert seen and seen <= set(allowed), (group, seen)
    for group, (low, high) in expect.get("group_score", {}).items():
        scores = [t["score"] for t in tests if group_of(t) == group]
        assert scores and low <= sum(scores) <= high, (group, scores)
    for group in expect.get("all_passed", []):
        failed = [t["name"] for t in tests if group_of(t) == group and t["status"] != "passed"]
        assert [t for t in tests if group_of(t) == group] and not failed, (group, failed[:3])
    missing = [s for s in expect.get("output_contains", []) if s not in text]
    assert not missing, f"expected in results.json but absent; {_sample_outputs(document)}"
    present = [s for s in expect.get("not_contains", []) if s in text]
    assert not present, "found in results.json but forbidden"
    if "max_seconds" in expect:  # the grading's own time, the trusted judge's included
        assert document["execution_time"] <= expect["max_seconds"], document["execution_time"]
    if "results_max_bytes" in expect:
        assert len(text.encode()) <= expect["results_max_bytes"]


def _sample_outputs(document: dict[str, Any], limit: int = 6) -> str:
    """The distinct outputs of the document's tests, a few and shortened, to explain a missing
    text (which case said what, and how the grading ran)."""
    seen: dict[str, str] = {}
    for test in document.get("tests", []):
        seen.setdefault(test.get("output", "")[-300:], test["name"])
    shown = [f"{name}: {output!r}" for output, name in list(seen.items())[:limit]]
    return f"extra_data {document.get('extra_data')!r}; outputs: " + " | ".join(shown)


def check_aftermath(run: Run, expect: dict[str, Any]) -> None:
    """What must still hold a while after grading: the results file untouched, every student
    process gone (the witness folder quiet), no network contact, the layout intact."""
    first = run.output.read_bytes()
    witness = expect.get("witness", {})
    settle = expect.get("settle", DEFAULT_SETTLE if witness.get("quiet_after_grade") else 0)
    time.sleep(max(0.0, run.ended + settle - time.time()))
    if settle:
        assert run.output.read_bytes() == first, "results.json changed after grading ended"
        results_file.validate(json.loads(first))
    marks = run.witness_marks()
    if "written" in witness:
        assert bool(marks) == witness["written"], f"witness marks: {sorted(marks)[:5]}"
    if witness.get("quiet_after_grade"):
        late = {name: round(mtime - run.ended, 3) for name, mtime in marks.items()
                if mtime > run.ended + LATE_MARK}
        assert not late, f"student processes outlived grading (seconds after its end): {late}"
    if "network_contacted" in expect:
        assert run.listener is not None, "network_contacted needs @@PORT@@ in the submission"
        assert run.listener.contacted.is_set() == expect["network_contacted"]
    if "files_left_behind" in expect:
        left = run.files_left_behind()
        assert bool(left) == expect["files_left_behind"], f"{len(left)} files left behind"
    if "ipc_left_behind" in expect:
        objects = run.ipc_left_behind()
        assert bool(objects) == expect["ipc_left_behind"], f"IPC objects left behind: {objects}"
    if "keys_left_behind" in expect:
        keys = run.keys_left_behind()
        assert bool(keys) == expect["keys_left_behind"], f"keys left behind: {keys}"
    if run.layout is not None:
        assert (run.layout / "run_autograder").read_bytes() == run.run_autograder_before, \
            "run_autograder was changed"
        leftovers = sorted(p.name for p in (run.layout / "results").iterdir())
        assert leftovers == ["results.json"], f"the results folder holds {leftovers}"


def check_times(worst: dict[str, Any] | None) -> None:
    if worst is not None:
        assert worst["over"] <= MARGIN, f"a case overran its timeout: {worst}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_hostile_submission(path: Path, tmp_path: Path, timing: TimingBoard,
                            record_property: Any) -> None:
    spec = load(path)
    worst = None
    try:
        try:
            level = isolation_level(spec)
        except RuntimeError as exc:  # e.g. a forced level that needs the user the scenario hides
            pytest.skip(f"no isolation level with this scenario's settings: {exc}")
        at_level = spec.get("at_level", {}).get(level, {})
        if "skip" in at_level:
            pytest.skip(f"at the {level} level: {at_level['skip']}")
        expect = {**spec["expect"], **at_level.get("expect", {})}
        with graded(spec, tmp_path) as run:
            try:
                document = read_results(run, expect)
                worst = worst_overshoot(spec, document)
                record_property("worst_case_overshoot", worst)
                check_grading(document, expect, level)
                check_times(worst)
                check_aftermath(run, expect)
            except AssertionError as exc:
                explain(exc, level, at_level, spec)
                raise
    finally:
        timing.add(path.stem, worst)


def explain(exc: AssertionError, level: str, at_level: dict[str, Any], spec: dict[str, Any]
            ) -> None:
    """Turn a failed assertion into an xfail for a documented limit of this level, or into a
    failure that names the harness weakness the scenario exposes; else leave it as it is."""
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "known_limit" in at_level:
        pytest.xfail(f"known limit of the {level} level: {at_level['known_limit']} ({first})")
    weakness = at_level.get("weakness", spec.get("weakness"))
    if weakness:
        raise AssertionError(f"harness weakness: {weakness} ({first})") from exc
