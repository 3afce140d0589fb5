"""Host-relative time limits (``timeout: {reference: K, at_least: S}``): the spec form and its
errors, the scaling by the host's speed, the per-host cache, and the line in a run's output.

The host's speed is always faked here (a stub measurement or ``GAMEGRADER_HOST_SPEED``), so no
assertion depends on how busy the machine is.
"""
from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

from harness.grading.grader import Grader
from harness.records.spec import RelativeTimeout
from harness.spec import SpecError, find_assignment, load_assignment, load_case_file
from harness.spec.schema import MAX_TIMEOUT
from harness.timing import calibration
from harness.timing.calibration import HostSpeed, described, host_speed

pytestmark = pytest.mark.slow

ASSIGNMENT = "name: demo\ntitle: Demo\nmodule: demo\n"
TIMES = "seconds:\n  'basics::one': 0.5\n"
TODAY = datetime.date(2026, 11, 25)


def load(tmp_path: Path, timeout: str, times: str | None = TIMES):
    folder = tmp_path / "demo"
    (folder / "cases").mkdir(parents=True)
    (folder / "assignment.yaml").write_text(ASSIGNMENT)
    if times is not None:
        (folder / "reference_times.yaml").write_text(times)
    path = folder / "cases" / "01_x.yaml"
    path.write_text(f"group: basics\ncases:\n  - name: one\n    timeout: {timeout}\n"
                    "    doctest: |\n      >>> 1 + 1\n      2\n")
    return load_case_file(path, load_assignment(folder), 1)


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own cache file, no pinned speed unless it sets one, and a quiet
    host unless it says otherwise."""
    cache = tmp_path / "calibration.json"
    monkeypatch.setenv(calibration.CACHE_ENV, str(cache))
    monkeypatch.delenv(calibration.SPEED_ENV, raising=False)
    monkeypatch.setattr(calibration, "host_is_quiet", lambda: True)
    return cache


def speed(factor: float, at: float = 1000.0, quiet: bool = True,
          today: datetime.date = TODAY) -> HostSpeed:
    """host_speed with a fake measurement of ``factor``, clock and load."""
    return host_speed(lambda: factor, today, quiet=lambda: quiet, clock=lambda: at)


# The spec form

def test_a_relative_timeout_loads_with_its_recorded_reference_time(tmp_path: Path) -> None:
    [case] = load(tmp_path, "{reference: 10, at_least: 2}")
    assert case.relative_timeout == RelativeTimeout(10.0, 2.0, 0.5)
    assert case.timeout == 5.0  # its value on the nominal machine: 10 x 0.5 s


def test_at_least_defaults_to_one_second(tmp_path: Path) -> None:
    [case] = load(tmp_path, "{reference: 1}")
    assert case.relative_timeout is not None and case.relative_timeout.at_least == 1.0
    assert case.timeout == 1.0


def test_absolute_timeouts_are_unchanged(tmp_path: Path) -> None:
    [case] = load(tmp_path, "7.5", times=None)
    assert case.timeout == 7.5 and case.relative_timeout is None


@pytest.mark.parametrize("timeout, words", [
    ("{reference: 0}", "'reference' must be a number more than 0"),
    ("{reference: ten}", "'reference' must be a number more than 0"),
    ("{reference: true}", "'reference' must be a number more than 0"),
    ("{at_least: 3}", "the timeout lacks 'reference'"),
    ("{reference: 10, atleast: 3}", "unknown key 'atleast'"),
    ("{reference: 10, at_least: -1}", "'at_least' must be seconds"),
    ("{reference: 10, at_least: 601}", "'at_least' must be seconds"),
    ("0", "expected a number of seconds"),
    ("601", "expected a number of seconds"),
    ("'10x reference'", "{reference: K, at_least: S}"),
])
def test_a_malformed_timeout_names_the_case_and_the_field(tmp_path: Path, timeout: str,
                                                           words: str) -> None:
    with pytest.raises(SpecError) as error:
        load(tmp_path, timeout)
    assert error.value.case == "one" and error.value.field == "timeout"
    assert words in error.value.problem


def test_a_relative_timeout_without_a_recorded_time_says_how_to_record_it(tmp_path: Path
                                                                          ) -> None:
    with pytest.raises(SpecError) as error:
        load(tmp_path, "{reference: 10}", times="seconds: {}\n")
    assert error.value.case == "one" and error.value.field == "timeout"
    assert "gamegrader calibrate demo --record" in error.value.problem


def test_a_malformed_reference_times_file_is_refused_with_its_name(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as error:
        load(tmp_path, "10", times="seconds:\n  'basics::one': -2\n")
    assert error.value.file.endswith("reference_times.yaml")
    assert error.value.field == "seconds.basics::one"


def test_every_recorded_time_names_a_relative_case_of_the_shipped_specs() -> None:
    """The recorded files in the repository cover exactly the cases with a relative timeout
    (a stale entry would hide a renamed case)."""
    from harness.spec.loader import load_all_cases
    for folder in sorted((ROOT / "test_specs").glob("*/reference_times.yaml")):
        assignment = find_assignment(folder.parent.name)
        relative = {c.id for c in load_all_cases(assignment) if c.relative_timeout
                    and c.relative_timeout.reference > 0}  # a floor alone is not timed
        assert relative == set(assignment.reference_times or {}), folder


# The scaling

def test_the_limit_scales_with_the_host_speed_floor_included() -> None:
    limit = RelativeTimeout(reference=10, at_least=2, reference_seconds=0.5)
    assert limit.seconds(1.0, MAX_TIMEOUT) == 5.0
    assert limit.seconds(0.5, MAX_TIMEOUT) == 10.0     # a host half as fast: twice the time
    assert limit.seconds(2.0, MAX_TIMEOUT) == 2.5
    tiny = RelativeTimeout(reference=10, at_least=2, reference_seconds=0.01)
    assert tiny.seconds(1.0, MAX_TIMEOUT) == 2.0       # the floor
    assert tiny.seconds(0.25, MAX_TIMEOUT) == 8.0      # the floor, scaled too
    assert limit.seconds(0.001, MAX_TIMEOUT) == MAX_TIMEOUT


def test_the_grader_and_its_time_budget_use_the_scaled_limits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(calibration.SPEED_ENV, "0.5")
    assignment = find_assignment("stonehenge")
    from harness.spec.loader import load_all_cases
    cases = load_all_cases(assignment)
    relative = [c for c in cases if c.relative_timeout is not None]
    absolute = [c for c in cases if c.relative_timeout is None]
    assert relative and absolute
    grader = Grader(assignment, ROOT / "reference" / "solutions" / "stonehenge",
                    budget=10_000, planned=cases)
    try:
        assert grader.host == HostSpeed(0.5, datetime.date.today().isoformat(),
                                        calibration.SPEED_ENV)
        assert grader.limited(relative[0]).timeout == 2 * relative[0].timeout
        assert grader.limited(absolute[0]) is absolute[0]
        group = relative[0].group
        nominal = sum(c.timeout for c in cases if c.group == group)
        assert grader.shares.groups[group].need == pytest.approx(2 * nominal)
    finally:
        grader.close()


def test_a_pinned_speed_that_is_not_a_positive_number_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for value in ("fast", "-1", "0"):
        monkeypatch.setenv(calibration.SPEED_ENV, value)
        with pytest.raises(ValueError, match=calibration.SPEED_ENV):
            host_speed()


def test_the_measurement_is_the_workload_against_its_nominal_time() -> None:
    ticks = iter([0.0, 0.2, 1.0, 1.3, 2.0, 2.4])  # three rounds: 0.2 s, 0.3 s, 0.4 s
    factor = calibration.measure(clock=lambda: next(ticks))
    assert factor == pytest.approx(calibration.NOMINAL_WORKLOAD_SECONDS / 0.3)  # the median
    assert calibration.clamp(1000.0) == calibration.FASTEST
    assert calibration.clamp(0.0) == calibration.SLOWEST


# The cache

def test_the_speed_is_measured_once_and_then_reused(own_cache: Path) -> None:
    calls: list[int] = []

    def fake() -> float:
        calls.append(1)
        return 0.62
    first = host_speed(fake, TODAY)
    second = host_speed(fake, TODAY)
    assert (first.factor, first.source) == (0.62, "measured")
    assert (second.factor, second.source) == (0.62, "cached")
    assert len(calls) == 1
    assert host_speed(fake, TODAY, fresh=True).source == "measured" and len(calls) == 2


def test_the_cache_is_ignored_for_another_host_key_or_when_too_old(
        own_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    host_speed(lambda: 0.62, TODAY)
    monkeypatch.setattr(calibration, "host_key", lambda: "another machine")
    assert host_speed(lambda: 2.0, TODAY).factor == 2.0  # measured for the new key
    later = TODAY + datetime.timedelta(days=calibration.MAX_AGE_DAYS + 1)
    assert host_speed(lambda: 3.0, later) == HostSpeed(3.0, later.isoformat(), "measured")
    entries = json.loads(own_cache.read_text())
    assert entries["another machine"]["factor"] == 3.0 and len(entries) == 2


def test_a_busy_measurement_is_kept_briefly_and_only_while_the_host_stays_busy(
        own_cache: Path) -> None:
    """A suite's first grading on a loaded machine once cached 0.31 for a host that measures
    0.8 when quiet: 2.5 times the time limits it deserves, for a month."""
    busy = speed(0.31, at=1000.0, quiet=False)
    assert (busy.factor, busy.source) == (0.31, calibration.BUSY_SOURCE)
    assert "measured on a busy host" in busy.describe()
    assert speed(0.5, at=1000.0 + calibration.BUSY_ENTRY_SECONDS, quiet=False) == busy
    # too old: measured again (still busy, so again kept only briefly)
    later = speed(0.4, at=1001.0 + calibration.BUSY_ENTRY_SECONDS, quiet=False)
    assert later.factor == 0.4
    # quiet now: a busy measurement is never reused; the quiet one is kept for the month
    assert speed(0.8, at=1002.0 + calibration.BUSY_ENTRY_SECONDS) == \
        HostSpeed(0.8, TODAY.isoformat(), "measured")
    assert speed(0.2, at=1e9, quiet=False).factor == 0.8
    assert "busy_at" not in json.loads(own_cache.read_text())[calibration.host_key()]


def test_load_that_starts_during_the_measurement_makes_it_a_busy_one(own_cache: Path) -> None:
    answers = iter([True, False])  # quiet before, busy after
    measured = host_speed(lambda: 0.3, TODAY, quiet=lambda: next(answers), clock=lambda: 5.0)
    assert measured.source == calibration.BUSY_SOURCE
    assert json.loads(own_cache.read_text())[calibration.host_key()]["busy_at"] == 5.0


def test_a_busy_entry_with_a_damaged_time_is_measured_again(own_cache: Path) -> None:
    own_cache.write_text(json.dumps({calibration.host_key(): {
        "factor": 0.3, "date": TODAY.isoformat(), "busy_at": "soon"}}))
    assert speed(0.7, quiet=False).factor == 0.7


def test_the_quiet_check_compares_other_running_threads_with_the_usable_cpus(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the real host_is_quiet
    from harness import host
    monkeypatch.setattr(host, "usable_cpus", lambda: 2)
    monkeypatch.setattr(host, "others_running", lambda: 1)
    assert calibration.host_is_quiet()
    monkeypatch.setattr(host, "others_running", lambda: 2)
    assert not calibration.host_is_quiet()


@pytest.mark.parametrize("content", ["not json", "[1, 2]", '{"KEY": {"factor": "fast"}}',
                                     '{"KEY": {"factor": 1.0, "date": "yesterday"}}'])
def test_a_damaged_cache_means_measuring_again(own_cache: Path, content: str) -> None:
    own_cache.write_text(content.replace("KEY", calibration.host_key()))
    assert host_speed(lambda: 0.8, TODAY).source == "measured"


def test_an_unwritable_cache_only_means_measuring_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv(calibration.CACHE_ENV, str(blocker / "calibration.json"))
    assert host_speed(lambda: 0.8, TODAY).source == "measured"
    assert host_speed(lambda: 0.9, TODAY).factor == 0.9


# The output line

def test_the_line_reads_back_from_a_results_document() -> None:
    speed = HostSpeed(0.62, "2026-11-25", "cached")
    line = speed.describe()
    assert line == ("host speed: 0.62x nominal (calibrated 2026-11-25, cached); time limits "
                    "relative to the reference scaled")
    document = {"extra_data": {"host_speed": {"factor": 0.62, "date": "2026-11-25",
                                              "source": "cached"}}}
    assert described(document) == line
    assert described({"extra_data": {}}) == ""
    assert described({"extra_data": {"host_speed": {"factor": 1, "bogus": 2}}}) == ""


@pytest.mark.slow
def test_a_run_with_relative_limits_shows_the_host_speed(tmp_path: Path) -> None:
    output = tmp_path / "results.json"
    done = run_gamegrader("grade", "--assignment", "stonehenge", "--submission",
                          str(ROOT / "reference" / "solutions" / "stonehenge"), "--output",
                          str(output), "--quiet", env={calibration.SPEED_ENV: "0.5"})
    assert done.returncode == 0, done.stderr[-3000:]
    line = "Host speed: 0.50x nominal (set by GAMEGRADER_HOST_SPEED)"
    assert line in done.stdout  # grade is the instructor's command
    document = json.loads(output.read_text())
    # the host's speed is the instructor's concern: extra_data, not the output students read
    assert "speed" not in document["output"].lower()
    assert any(entry.startswith(line) for entry in document["extra_data"]["grading_host"])
    assert document["extra_data"]["host_speed"]["factor"] == 0.5
    assert all("Host speed" not in test["output"] for test in document["tests"])
    assert document["score"] == 100


def test_a_batch_report_header_names_the_speeds_its_gradings_used(tmp_path: Path) -> None:
    from harness.batch.discover import Student, Submission
    from harness.batch.html_report import render_report
    from harness.batch.store import Record

    def record(key: str, factor: float | None) -> Record:
        extra: dict[str, object] = {"final": True}
        if factor is not None:
            extra["host_speed"] = {"factor": factor, "date": "2026-11-25", "source": "cached"}
        document = {"score": 1, "output": "", "tests": [], "extra_data": extra}
        return Record(Submission(key, tmp_path / key, (Student(key),)), document, 1.0, "")
    header = ("host speed: 0.62x, 1.10x nominal; time limits relative to the reference scaled")
    page = render_report([record("a", 0.62), record("b", 1.1), record("c", 0.621)], "demo",
                         "Demo")
    assert header in page
    assert "host speed" not in render_report([record("d", None)], "demo", "Demo")


@pytest.mark.slow
def test_recording_writes_the_reference_time_of_every_relative_case_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.release.reference_times import record
    specs = tmp_path / "test_specs" / "demo"
    (specs / "cases").mkdir(parents=True)
    (specs / "assignment.yaml").write_text(ASSIGNMENT)
    (specs / "cases" / "01_x.yaml").write_text(
        "group: basics\ndefaults: {timeout: {reference: 10, at_least: 2}}\ncases:\n"
        "  - name: one\n    doctest: |\n      >>> double(2)\n      4\n"
        "  - name: two\n    timeout: 5\n    doctest: |\n      >>> double(3)\n      6\n")
    solution = tmp_path / "reference" / "solutions" / "demo"
    solution.mkdir(parents=True)
    (solution / "demo.py").write_text("def double(x):\n    return 2 * x\n")
    monkeypatch.setenv("GAMEGRADER_ROOT", str(tmp_path))
    with pytest.raises(SpecError, match="gamegrader calibrate demo --record"):
        load_case_file(specs / "cases" / "01_x.yaml", find_assignment("demo"), 1)
    written = record("demo", rounds=1)
    assert written == specs / "reference_times.yaml"
    times = find_assignment("demo").reference_times
    assert times is not None and list(times) == ["basics::one"] and times["basics::one"] > 0
    one, two = load_case_file(specs / "cases" / "01_x.yaml", find_assignment("demo"), 1)
    assert one.relative_timeout == RelativeTimeout(10.0, 2.0, times["basics::one"])
    assert two.relative_timeout is None and two.timeout == 5.0


@pytest.mark.parametrize(("assignment", "measured"), [("stonehenge", True),
                                                      ("adversarial_search", False)])
def test_a_batch_finds_the_speed_before_its_workers_start_when_a_limit_is_relative(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, assignment: str,
        measured: bool) -> None:
    """Measured while the workers grade, the speed would be a busy measurement: kept only
    briefly, so taken again every few minutes of the batch."""
    from harness.batch import run as batch_run
    events: list[str] = []
    monkeypatch.setattr(batch_run, "find_speed_ahead", lambda: events.append("speed"))
    monkeypatch.setattr(batch_run, "run_local",
                        lambda jobs, *args, **kwargs: events.append(f"{len(jobs)} jobs"))
    submissions = tmp_path / "submissions"
    for student in ("ann", "bob"):
        (submissions / student).mkdir(parents=True)
        (submissions / student / "a.py").write_text("x = 1\n")
    batch_run.run_batch(batch_run.BatchOptions(assignment, submissions, tmp_path / "out",
                                               workers=1, progress=False))
    assert events == (["speed", "2 jobs"] if measured else ["2 jobs"])
