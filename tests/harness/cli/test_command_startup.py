"""The command starts probing the sandbox before its heavy imports, and the probe is done once.

``gamegrader grade`` used to import the whole grader, load the specs, and only then start the
interpreters that find the isolation (``detect``) and the sandbox interpreter's ABI: tens of
milliseconds of waiting in every grading. ``levels.prefetch`` starts them on a thread first thing.
"""
from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from gg_testing import ROOT

from harness.sandbox import levels
from harness.sandbox.levels import Isolation, Level

pytestmark = pytest.mark.slow


@pytest.fixture
def fresh_detect(monkeypatch: pytest.MonkeyPatch):
    """``detect`` with an empty cache and no probe, restored afterwards."""
    levels.detect.cache_clear()
    monkeypatch.setattr(levels, "_probe", None)
    yield
    levels.detect.cache_clear()


def test_detect_takes_the_prefetched_answer_without_probing_again(fresh_detect, monkeypatch):
    probes: list[str] = []
    answer = Isolation(Level.PROCESS, sys.executable)
    release = threading.Event()

    def probe() -> Isolation:
        probes.append(threading.current_thread().name)
        release.wait(10)  # the caller asks before the probe is done: it must wait, not probe
        return answer

    monkeypatch.setattr(levels, "_strongest", probe)
    monkeypatch.setattr(levels, "abi_tag", lambda interpreter: "")
    levels.prefetch()
    levels.prefetch()  # a second start is ignored
    threading.Timer(0.2, release.set).start()
    assert levels.detect() is answer
    assert probes == ["gamegrader-probe"]


def test_a_failed_probe_is_done_again_by_the_caller_who_gets_its_error(fresh_detect,
                                                                        monkeypatch):
    calls: list[str] = []

    def probe() -> Isolation:
        calls.append(threading.current_thread().name)
        raise RuntimeError("no way to run student code here")

    monkeypatch.setattr(levels, "_strongest", probe)
    levels.prefetch()
    with pytest.raises(RuntimeError, match="no way to run student code"):
        levels.detect()
    assert calls == ["gamegrader-probe", threading.current_thread().name]


def test_importing_the_package_or_the_levels_loads_no_grader():
    """What the probe needs is light: the grader, the specs and the protocol come later."""
    code = ("import sys, harness, harness.sandbox.levels; "
            "print(sorted(m for m in ('harness.grading.grader', 'harness.spec.loader', "
            "'harness.sandbox.session', 'msgspec', 'jsonschema', 'yaml') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "[]"


# Modules that only some runs need (a failed case's diagnosis, a refused document's message,
# other commands): `gamegrader grade` must not have loaded them when grading starts.
NOT_BEFORE_GRADING = ("jsonschema", "fastjsonschema", "doctest", "difflib",
                      "harness.compare.replays", "harness.compare.diagnosis",
                      "harness.spec.generate", "harness.grading.report",
                      "harness.tournament", "harness.batch", "harness.release.mutation",
                      "harness.release.validate", "harness.release.build",
                      "harness.platforms.gradescope", "harness.release.packages_install")


def test_the_grade_command_has_imported_only_what_grading_needs_when_grading_starts():
    """The command runs as far as grading (``grade_to_file``), in a fresh interpreter."""
    code = f"""
import sys
import harness.cli.common as common
import harness.cli.main as cli
import harness.sandbox.levels

def start_grading(*args, **kwargs):
    print(sorted(loaded for loaded in sys.modules for name in {NOT_BEFORE_GRADING!r}
                 if loaded == name or loaded.startswith(name + ".")))
    raise SystemExit(0)

common.grade_to_file = start_grading
cli.main(["grade", "--assignment", "adversarial_search", "--submission",
          "reference/solutions/adversarial_search/adversarial_search.py", "--output",
          "unused.json", "--quiet"])
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_public_names_still_come_from_their_modules():
    import harness
    import harness.sandbox
    from harness.sandbox.session import Sandbox
    assert harness.Sandbox is Sandbox and harness.sandbox.Sandbox is Sandbox
    with pytest.raises(AttributeError):
        harness.NoSuchName
    with pytest.raises(AttributeError):  # a record has one home: harness.records.verdicts
        harness.Verdict


def test_when_no_level_works_the_error_says_why_each_one_failed(fresh_detect, monkeypatch):
    """A machine (or a moment) where no level works must be diagnosable from the message."""
    from contextlib import nullcontext
    missing = "/nonexistent/python3"
    monkeypatch.setattr(levels, "_probe_user", lambda: nullcontext(None))
    monkeypatch.setattr(levels, "candidates", lambda user=None: [
        Isolation(Level.NAMESPACED, "/bin/false"), Isolation(Level.USER, missing, uid=65534)])
    with pytest.raises(RuntimeError) as raised:
        levels.detect()
    message = str(raised.value)
    assert "NAMESPACED with /bin/false: exit status 1" in message
    assert f"USER with {missing} as uid 65534: FileNotFoundError" in message
