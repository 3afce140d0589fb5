"""Helpers shared by the test folders (import as ``from gg_testing import ...``).

A module of its own rather than ``conftest``: several test folders have a conftest.py, and
``from conftest import`` would pick whichever was imported first.
"""
from __future__ import annotations

import atexit
import fcntl
import functools
import hashlib
import importlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Sequence

from gg_tiers import refuse

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags that start Debian's Chromium headless as root on a machine with no network.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
NO_CHROMIUM = ("Chromium is not installed: scripts/test.sh installs Debian's chromium when run "
               "as root (CI does); elsewhere apt-get install chromium")


def chromium(*args: str, profile: Path) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium with a fresh profile folder (e.g. ``--dump-dom URL``)."""
    assert CHROMIUM is not None, NO_CHROMIUM
    return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120)


GRADINGS_ENV = "GG_TEST_GRADINGS"
"""A folder shared by the xdist workers of one test run (set by tests/gg_suite.py) in which
``run_gamegrader`` keeps each ``grade`` it ran; unset, nothing is kept."""
# Options after which a `grade` is a pure function of its inputs: its results.json depends on the
# assignment, the submitted files, these values and the code of this checkout, nothing else.
_PURE_GRADE_OPTIONS = {"--assignment", "--submission", "--output", "--timeout-cap", "--budget"}
_DIGEST_LIMIT = 4 << 20


LONGEST_SHOWN_VALUE = 60
"""Longest parameter value (text or bytes) written out whole in a test's id."""
LONGEST_TEST_ID = 1000
"""Collection refuses longer test ids (tests/gg_suite.py)."""


def short_parameter_id(value: object) -> str | None:
    """A short id for a long text or bytes parameter (its start, length and digest), None to
    leave the id to pytest. pytest would write out the whole value, and a test's id travels in
    PYTEST_CURRENT_TEST, which every process the test starts inherits; a 700 kB one made the
    start of the sandbox fail ("Argument list too long") in whichever test of a worker started
    the first sandbox."""
    if not isinstance(value, (str, bytes)) or len(value) <= LONGEST_SHOWN_VALUE:
        return None
    data = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
    head = ascii(value[:24])[2 if isinstance(value, bytes) else 1:-1]
    unit = "bytes" if isinstance(value, bytes) else "chars"
    return f"{head}...({len(value)} {unit}, {hashlib.sha256(data).hexdigest()[:8]})"


def run_gamegrader(*args: str, timeout: float = 600, env: dict[str, str] | None = None
                   ) -> subprocess.CompletedProcess[str]:
    """Run ``python -m harness ARGS`` from the repository root and capture its output.

    The same ``grade`` of the same files is run once per test run: many test files grade the
    reference beside their own variants, and a grading of unchanged code and files gives the
    same results.json (see ``_kept_grading``). A test that runs it must be marked slow, also
    when the grading was kept (gg_tiers).
    """
    refuse("run_gamegrader")
    key = _grading_key(args, env)
    if key is None:
        return _run(args, timeout, env)
    return _kept_grading(key, args, timeout, env)


_WARM_COMMANDS = {"grade", "check"}
_warm: list[Any] = []  # this worker's pool of warm processes, made on first use


def _run(args: Sequence[str], timeout: float, env: dict[str, str] | None
         ) -> subprocess.CompletedProcess[str]:
    if args and args[0] in _WARM_COMMANDS:
        return _run_warm(args, timeout, {**os.environ, **(env or {})})
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def _run_warm(args: Sequence[str], timeout: float, env: dict[str, str]
              ) -> subprocess.CompletedProcess[str]:
    """A grading command run as ``python -m harness`` would, in a process forked from a warm one
    (``harness.parallel.warm``) that imported the harness once for this pytest worker and this
    environment: the same ``cli.main``, exit status and output, without the interpreter's
    start-up and imports, which are much of a small grading's CPU time."""
    from harness.parallel.warm import WarmPool
    if not _warm:
        _warm.append(WarmPool())
        atexit.register(_warm[0].close)
    command = [sys.executable, "-m", "harness", *args]
    with tempfile.TemporaryDirectory(prefix="gg-command-") as folder:
        stdout, stderr = Path(folder, "stdout"), Path(folder, "stderr")
        end = _warm[0].call(run_command_here, (list(args), str(stdout), str(stderr)), timeout,
                            env=env, warm=(warm_up, (_assignment_of(args),)))
        if end.status is None:
            raise subprocess.TimeoutExpired(command, timeout)
        status = end.value if isinstance(end.value, int) else (end.status or 1)
        return subprocess.CompletedProcess(
            command, status, stdout.read_text(encoding="utf-8", errors="replace"),
            stderr.read_text(encoding="utf-8", errors="replace") + end.error)


def _assignment_of(args: Sequence[str]) -> str | None:
    for option, value in zip(args, args[1:]):
        if option == "--assignment":
            return value
    return None


def warm_up(assignment: str | None) -> None:
    """In the warm process, once per assignment: what a batch worker does before its first
    grading (``warm_up_grading``: the grader's imports, the assignment's comparators and cases,
    the isolation level), so that each command forked from it starts with them."""
    importlib.import_module("harness.cli.main")
    if assignment is not None:
        from harness.batch.jobs import warm_up_grading
        warm_up_grading(assignment)


def run_command_here(args: Sequence[str], stdout: str, stderr: str) -> int:
    """In the forked process: the command's output to the files ``stdout`` and ``stderr``,
    run from the repository root; its exit status."""
    for fd, path in ((1, stdout), (2, stderr)):
        opened = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    os.chdir(ROOT)
    from harness.cli.main import main
    try:
        return main(list(args))
    except SystemExit as exc:  # argparse's usage errors
        return exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()


def _grading_key(args: Sequence[str], env: dict[str, str] | None) -> str | None:
    """A digest of everything a quiet ``grade`` depends on, or None if it cannot be kept (not
    a grade, another option, a submission holding links, special or large files)."""
    if not os.environ.get(GRADINGS_ENV) or not args or args[0] != "grade" \
            or "--quiet" not in args:
        return None
    rest = [arg for arg in args[1:] if arg != "--quiet"]
    options = dict(zip(rest[0::2], rest[1::2]))
    if len(rest) % 2 or not set(options) <= _PURE_GRADE_OPTIONS \
            or not {"--output", "--submission"} <= set(options):
        return None
    submitted = _tree_digest(Path(options.pop("--submission")))
    del options["--output"]
    if not submitted:
        return None
    settings = json.dumps([sorted(options.items()), sorted((env or {}).items())])
    return f"{hashlib.sha256(settings.encode()).hexdigest()[:24]}-{submitted}"


def _tree_digest(path: Path) -> str:
    """Digest of a file, or of a folder's names and regular files; "" when anything is not a
    plain file or folder (hostile entries are graded afresh, never read here)."""
    digest = hashlib.sha256()
    try:
        entries = [path] if not path.is_dir() else sorted(path.rglob("*"))
        for entry in entries:
            info = entry.lstat()
            digest.update(str(entry.relative_to(path) if entry != path else entry.name).encode())
            if stat.S_ISDIR(info.st_mode):
                continue
            if not stat.S_ISREG(info.st_mode) or info.st_size > _DIGEST_LIMIT:
                return ""
            digest.update(entry.read_bytes())
    except (OSError, RecursionError):  # RecursionError: pathlib's walk of a very deep folder
        return ""
    return digest.hexdigest()[:24]


def _kept_grading(key: str, args: Sequence[str], timeout: float, env: dict[str, str] | None
                  ) -> subprocess.CompletedProcess[str]:
    """Run the grading once per run: the first caller grades (holding a lock on the key, so a
    second worker waits rather than grading the same thing), later callers get a copy of its
    results.json and the same exit status and output."""
    folder = Path(os.environ[GRADINGS_ENV])
    output = Path(args[args.index("--output") + 1])
    with open(folder / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        kept = folder / f"{key}.json"
        if kept.exists():
            record = json.loads(kept.read_text(encoding="utf-8"))
        else:
            done = _run(args, timeout, env)
            record = {"returncode": done.returncode, "stdout": done.stdout,
                      "stderr": done.stderr,
                      "results": output.read_text(encoding="utf-8") if output.exists() else None}
            kept.write_text(json.dumps(record), encoding="utf-8")
    if record["results"] is not None:
        output.write_text(record["results"], encoding="utf-8")
    return subprocess.CompletedProcess([sys.executable, "-m", "harness", *args],
                                       record["returncode"], record["stdout"], record["stderr"])


FINISHED_GRADING = (0, 3)
"""``gamegrader grade``'s exit statuses for a grading that wrote final results: graded, and
ungradable (no case could run: the student's fault; docs/workflows.md)."""


def grade_submissions(assignment: str, folders: dict[str, Path], out: Path
                      ) -> dict[str, dict[str, Any]]:
    """Grade each named submission through the command line, two at a time; results.json of
    each, by name (written under ``out``)."""
    def grade(name: str) -> dict[str, Any]:
        output = out / f"{name}.json"
        done = run_gamegrader("grade", "--assignment", assignment, "--submission",
                              str(folders[name]), "--output", str(output), "--quiet")
        assert done.returncode in FINISHED_GRADING, done.stderr[-3000:]
        return json.loads(output.read_text(encoding="utf-8"))

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(folders, pool.map(grade, folders)))


def scores_by_group(document: dict[str, Any]) -> dict[str, float]:
    """Total score per case group (the part of a test name before ': ')."""
    totals: dict[str, float] = {}
    for test in document["tests"]:
        group = test["name"].split(": ", 1)[0]
        totals[group] = round(totals.get(group, 0.0) + test["score"], 4)
    return totals


def make_deep_folder(root: Path, depth: int, file_name: str = "x.py") -> None:
    """``root/d/d/.../d/file_name``, ``depth`` folders deep, made without recursion (pathlib's
    ``mkdir(parents=True)`` and ``shutil.rmtree`` recurse once per level)."""
    descriptor = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=descriptor)
            inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
        os.close(os.open(file_name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=descriptor))
    finally:
        os.close(descriptor)


def remove_deep_folder(root: Path) -> None:
    """Remove what ``make_deep_folder`` made under ``root``, deepest first, without recursion."""
    chain = [os.open(root, os.O_RDONLY | os.O_DIRECTORY)]
    try:
        while True:
            try:
                chain.append(os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=chain[-1]))
            except FileNotFoundError:
                break
        while len(chain) > 1:
            inner = chain.pop()
            for name in os.listdir(inner):
                os.unlink(name, dir_fd=inner)
            os.close(inner)
            os.rmdir("d", dir_fd=chain[-1])
    finally:
        for descriptor in chain:
            os.close(descriptor)


def subset_root(folder: Path, assignment: str, stems: Sequence[str],
                generated: int | None = None, leave_out: Sequence[str] = ()) -> dict[str, str]:
    """A GAMEGRADER_ROOT in ``folder`` holding only the case files ``stems`` of one assignment
    (with their generated files), for quicker gradings; returns the environment that selects it.
    With ``generated``, each generated file keeps only its first ``generated`` cases (every
    kind of generated case stays, fewer of each; the hand-written cases all stay). The cases
    named in ``leave_out`` are taken out of the files that hold them.

    In a test run (``GRADINGS_ENV`` set) the root is made once per run for these stems, in the
    kept-gradings folder instead of ``folder``: the same subset then gives the same grading key
    in every module and worker, so, say, the reference on it is graded once.
    """
    kept = os.environ.get(GRADINGS_ENV)
    if not kept:
        return {"GAMEGRADER_ROOT": str(_make_subset(folder, assignment, stems, generated,
                                                    leave_out))}
    settings = json.dumps([list(stems), generated] + ([sorted(leave_out)] if leave_out else []))
    name = f"root-{assignment}-{hashlib.sha256(settings.encode()).hexdigest()[:16]}"
    shared = Path(kept) / name
    with open(Path(kept) / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not shared.exists():
            partial = Path(kept) / f"{name}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            _make_subset(partial, assignment, stems, generated, leave_out)
            partial.rename(shared)
    return {"GAMEGRADER_ROOT": str(shared)}


def without_ladder(folder: Path, assignment: str, keep_twins: bool = False) -> dict[str, str]:
    """The environment that grades every case file of ``assignment`` but not its staff ladder
    (a ``subset_root`` of all its case files, which leaves the ladder out), nor the hidden twins
    of its seeded visible games (``twins_by_case``); nothing to change (``{}``) for an
    assignment with neither.

    For tests that compare scores and read neither: the ladder is worth no points (this
    refuses one that is worth some) and it is the last case, so no other case's result depends
    on it, while its games are about a third of the CPU time of an Othello grading. A twin
    plays its visible case's games again with other seeds for the house bot (issue 51: so a
    list of recorded moves wins nothing after the due date): the same runner, settings and
    player code, another random opponent, about a third of an Othello grading's CPU time too.
    Both are graded end to end where a whole spec is graded: every reference by the release
    check (``gamegrader validate --no-mutants`` in ``.ci/run``), the connect-four fixture in
    tests/harness/games/test_third_game.py; the twins' seeds are checked in
    tests/fairness/test_seeded_games_elsewhere.py. With ``keep_twins`` the twins are graded (a
    test of the grade itself, e.g. Isolation's strength targets)."""
    from harness.spec import find_assignment
    spec = find_assignment(assignment)
    twins = () if keep_twins else twin_names(assignment)
    if not spec.ladder and not twins:
        return {}
    if spec.ladder:
        worth = sum(float(rung["points"]) for rung in spec.ladder["rungs"])
        assert worth == 0, f"{assignment}'s ladder is worth {worth:g} points: grade it"
    return subset_root(folder, assignment, [path.stem for path in spec.case_files],
                       leave_out=twins)


def listed(case: Any) -> bool:
    """Whether ``case`` lists its games, each with its seed (``options.games``:
    ``{color, seed}``)."""
    games = case.options.get("games")
    return isinstance(games, list) and all(isinstance(g, dict) and "seed" in g for g in games)


def seeded(case: Any) -> bool:
    """Whether ``case`` plays games against a house bot with fixed seeds to win them: listed
    games, or a count of games whose seeds derive from ``options.seed`` (Isolation's); a case
    scored on clean play alone (``score: clean``) is not (any legal player earns it)."""
    derived = isinstance(case.options.get("games"), int) and "seed" in case.options
    return case.runner is not None and (listed(case) or derived) \
        and case.options.get("score") != "clean"


def game_settings(case: Any) -> dict[str, Any]:
    """A seeded case's options with the seeds left out."""
    if not listed(case):
        return {k: v for k, v in case.options.items() if k != "seed"}
    return {**case.options, "games": [{k: v for k, v in game.items() if k != "seed"}
                                      for game in case.options["games"]]}


def game_seeds(case: Any) -> set[int]:
    """The seeds of a seeded case's games (derived from ``options.seed`` as the runner does)."""
    from harness.games.seeds import derive_seed
    if not listed(case):
        return {derive_seed(case.options["seed"], n) for n in range(case.options["games"])}
    return {game["seed"] for game in case.options["games"]}


@functools.lru_cache(maxsize=None)
def twin_names(assignment: str) -> tuple[str, ...]:
    """The names of the hidden twins of ``assignment``'s seeded visible games
    (``twins_by_case``), sorted (once per process: many tests copy the same specs)."""
    from harness.spec import find_assignment
    from harness.spec.loader import load_all_cases
    cases = load_all_cases(find_assignment(assignment))
    return tuple(sorted({twin.name for found in twins_by_case(cases).values() for twin in found}))


def twins_by_case(cases: Sequence[Any]) -> dict[str, list[Any]]:
    """For each visible seeded case, by name, the hidden cases that play its games again with
    other seeds: the same group, runner, settings and points, and no seed the visible games
    use."""
    from harness.records.spec import Visibility
    games = [case for case in cases if seeded(case)]
    shown = [case for case in games if case.visibility is Visibility.VISIBLE]
    used = set().union(*(game_seeds(case) for case in shown))
    hidden = [case for case in games if case.visibility is not Visibility.VISIBLE
              and not game_seeds(case) & used]
    return {case.name: [other for other in hidden if other.group == case.group
                        and other.runner == case.runner and other.points == case.points
                        and game_settings(other) == game_settings(case)] for case in shown}


def _make_subset(folder: Path, assignment: str, stems: Sequence[str], generated: int | None,
                 leave_out: Sequence[str] = ()) -> Path:
    from harness.release.validate import subset_root as make_subset_root
    from harness.spec import find_assignment
    root = make_subset_root(find_assignment(assignment), stems, folder)
    if generated is not None:
        keep_first_generated(root / "assignments" / assignment, generated)
    if leave_out:
        remove_cases(root / "assignments" / assignment, leave_out)
    return root


def remove_cases(specs: Path, names: Sequence[str]) -> None:
    """Take the cases ``names`` out of the case files (hand-written and generated) of the spec
    folder ``specs``, and out of the files they include (a trimmed copy of an included file
    goes in ``specs/included/``); each name must be found."""
    import yaml

    def kept(data: Any) -> list[Any] | None:
        cases = data.get("cases") if isinstance(data, dict) else None
        if not isinstance(cases, list):
            return None
        found.extend(case["name"] for case in cases if case.get("name") in names)
        return [case for case in cases if case.get("name") not in names]

    def write(path: Path, data: Any) -> None:
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")

    found: list[str] = []
    for path in sorted((specs / "cases").glob("*.yaml")) + sorted((specs / "generated").glob(
            "*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        before = len(found)
        cases = kept(data)
        if cases is not None and len(found) > before:
            data["cases"] = cases
        for include in data.get("include", []) if isinstance(data, dict) else []:
            other = (path.parent / include["file"]).resolve()
            included, inner = yaml.safe_load(other.read_text(encoding="utf-8")), len(found)
            trimmed = kept(included)
            if trimmed is None or len(found) == inner:
                continue
            assert "generate" not in included and "include" not in included, other
            included["cases"] = trimmed
            copy = specs / "included" / f"{path.stem}.{other.name}"
            copy.parent.mkdir(exist_ok=True)
            write(copy, included)
            include["file"] = os.path.relpath(copy, path.parent)
        if len(found) > before:
            write(path, data)
    assert sorted(found) == sorted(names), (found, names)


def keep_first_generated(specs: Path, count: int) -> None:
    """Cut each generated case file of the spec folder ``specs`` to its first ``count`` cases
    (the loader checks a generated file's ``source`` block against its settings, not how many
    cases it holds)."""
    import yaml
    for path in sorted((specs / "generated").glob("*.yaml")):
        if path.name.endswith(".precomputed.yaml"):  # answers by case name, not cases
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data["cases"] = data["cases"][:count]
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def shared_folder(prefix: str = "gg-shared-") -> Path:
    """A new world-writable folder every sandbox user can reach, for marks left by student code.

    Not under /tmp, /var/tmp, /dev/shm or /run/lock: at the namespaced levels student code sees
    private mounts there, so a mark it left would never reach the test. The caller removes it.
    """
    import tempfile
    base = None
    if os.geteuid() == 0:
        base = Path("/var/lib/gamegrader-tests")
        base.mkdir(mode=0o755, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    os.chmod(folder, 0o1777)
    return folder


def dedicated_user_levels() -> list[Any]:
    """The isolation levels that run student code as a leased pool user here, strongest first
    (none without root and the sandbox users)."""
    import pytest

    from harness.sandbox import Level
    from harness.sandbox.levels import FORCE_ENV, detect

    def available(level: Any) -> bool:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(FORCE_ENV, level.name)
            try:
                return bool(detect.__wrapped__().dedicated_user)
            except RuntimeError:
                return False

    return [level for level in (Level.USER_NAMESPACED, Level.USER) if available(level)]
