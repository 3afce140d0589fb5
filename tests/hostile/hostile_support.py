"""Building and grading hostile scenarios (see README.md here); the assertions live in the test.

A scenario is data: a YAML file naming a submission and what must hold after grading it. This
module turns one into a submission on disk (with its placeholders filled in), the folders the
grader and the student see, and one black-box run of ``gamegrader``.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator
from unittest import mock

import yaml
from gg_testing import keep_first_generated, remove_cases, shared_folder, twin_names

from harness.spec.loader import partial_copy_text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SNIPPETS = HERE / "snippets"
BASES = {
    "adversarial_search": {
        "solution": ROOT / "assignments/adversarial_search/solution/adversarial_search.py",
        "template": ROOT / "assignments/adversarial_search/template/adversarial_search.py",
    },
    "othello": {
        "solution": ROOT / "assignments/othello/solution/agent.py",
        "template": ROOT / "assignments/othello/template/agent.py",
    },
    # Two files are handed in; the scenario edits strategy.py and names stonehenge.py as a
    # companion (``companions:``).
    "stonehenge": {
        "solution": ROOT / "assignments/stonehenge/solution/strategy.py",
        "template": ROOT / "assignments/stonehenge/template/strategy.py",
    },
}
GRADE_TIMEOUT = 300
SCRATCH_FOLDERS = (Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"), Path("/run/lock"))
LAYOUTS = {"autograder": True, "autograder-unlocked": False}  # name -> source/ locked


class ScenarioError(ValueError):
    """A scenario file is malformed (the corpus author's mistake, not a grading outcome)."""


def load(path: Path) -> dict[str, Any]:
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(spec, dict) or "assignment" not in spec or "expect" not in spec:
        raise ScenarioError(f"{path.name}: needs 'assignment' and 'expect'")
    if ("source" in spec) == ("base" in spec):
        raise ScenarioError(f"{path.name}: needs exactly one of 'source' and 'base'")
    return spec


def _inject(text: str, header: str, code: str) -> str:
    """Insert ``code`` as the first statements of the function whose ``def`` line is ``header``."""
    lines = text.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if line.strip() == header]
    if len(hits) != 1:
        raise ScenarioError(f"{header!r} occurs {len(hits)} times in the base file")
    indent = lines[hits[0]][:len(lines[hits[0]]) - len(lines[hits[0]].lstrip())] + "    "
    body = "".join(indent + line if line.strip() else line
                   for line in code.splitlines(keepends=True))
    return "".join(lines[:hits[0] + 1]) + body.rstrip("\n") + "\n" + "".join(lines[hits[0] + 1:])


def submission_text(spec: dict[str, Any]) -> tuple[str, str]:
    """The submission's file name and text, before placeholders are filled in."""
    if "source" in spec:
        return spec.get("file", f"{spec['assignment']}.py"), spec["source"]
    base = BASES[spec["assignment"]][spec["base"]]
    text = base.read_text(encoding="utf-8")
    for old, new in spec.get("replace", []):
        if old not in text:
            raise ScenarioError(f"{old!r} is not in {base.name}")
        text = text.replace(old, new)
    for header, code in spec.get("inject", {}).items():
        text = _inject(text, header, code)
    snippets = "".join((SNIPPETS / f"{name}.py").read_text(encoding="utf-8")
                       for name in spec.get("use", []))
    return base.name, snippets + spec.get("prepend", "") + text


def fill(text: str, values: dict[str, str]) -> str:
    """Replace every ``@@NAME@@`` placeholder; a placeholder without a value is an error."""
    for name, value in values.items():
        text = text.replace(f"@@{name}@@", value)
    if "@@" in text:
        start = text.index("@@")
        raise ScenarioError(f"unfilled placeholder near {text[start:start + 20]!r}")
    return text


def scenario_env(spec: dict[str, Any]) -> dict[str, str]:
    """Environment the scenario's grader runs with: ``sandbox_user`` picks the user student code
    runs as (a user of its own for scenarios that exhaust per-user limits, or a missing one);
    ``syscall_filter: false`` runs it without the system-call filter (its fallback)."""
    from harness.sandbox.levels import SANDBOX_USER_ENV
    from harness.sandbox.syscall_filter import OFF_ENV
    env = {SANDBOX_USER_ENV: spec["sandbox_user"]} if "sandbox_user" in spec else {}
    if spec.get("syscall_filter", True) is False:
        env[OFF_ENV] = "1"
    return env


def isolation_level(spec: dict[str, Any]) -> str:
    """The name of the isolation level the scenario's grader will detect on this machine."""
    return _level_in(tuple(sorted(scenario_env(spec).items())))


@lru_cache(maxsize=None)
def _level_in(env: tuple[tuple[str, str], ...]) -> str:
    """Probed once per scenario environment and pytest worker (each probe starts
    interpreters)."""
    from harness.sandbox.levels import detect
    with mock.patch.dict(os.environ, dict(env)):
        return detect.__wrapped__().level.name


@lru_cache(maxsize=None)
def _cases(assignment: str) -> dict[str, Any]:
    from harness.spec import find_assignment
    from harness.spec.loader import load_all_cases
    return {case.id: case for case in load_all_cases(find_assignment(assignment))}


def case_timeouts(assignment: str, document: dict[str, Any]) -> dict[str, float]:
    """Each case id's own timeout, from the real specs (a trimmed copy keeps the same ids), with
    limits relative to the reference scaled by the host speed the run used."""
    from harness.spec.schema import MAX_TIMEOUT
    from harness.timing.calibration import recorded
    speed = recorded(document)
    return {key: case.relative_timeout.seconds(speed.factor, MAX_TIMEOUT)
            if case.relative_timeout is not None and speed is not None else case.timeout
            for key, case in _cases(assignment).items()}


def copy_specs(assignment: str, project: Path, generated: int | None,
               limits: dict[str, int] | None = None, suite: str | None = None) -> None:
    """Copy what the grader reads of ``assignment`` into ``project`` (a GAMEGRADER_ROOT).

    With ``generated``, each generated file keeps only its first cases (``keep_first_generated``):
    a trimmed copy grades like the real one, only faster. ``limits`` replace some of the
    assignment's limits (small memory and disk bounds, so a scenario never strains the host).
    ``suite`` (a course suite here, ``suites/NAME``) adds ``NAME.py`` and its case file
    ``NAME.yaml`` to the cases, as a course moving its suite over would.
    """
    target = project / "assignments" / assignment
    # The whole folder, template and solution included (a source tree as CI has it: the locked
    # scenarios show a student reads none of it, their unlocked controls that the attack works).
    shutil.copytree(ROOT / "assignments" / assignment, target,
                    ignore=shutil.ignore_patterns("__pycache__"))
    if suite is not None:
        shutil.copy2(HERE / f"{suite}.py", target / "cases")
        shutil.copy2(HERE / f"{suite}.yaml", target / "cases" / f"90_{Path(suite).name}.yaml")
    config = target / "assignment.yaml"
    if generated is not None:
        keep_first_generated(target, generated)
        # A part of the assignment, as the release check's subsets are: without the stated
        # total, and without the staff ladder (worth no points, graded by the tests of the
        # ladder; its games were half the time of grading an Othello scenario), nor the hidden
        # twins of seeded games (the visible games' settings again with other seeds, a third of
        # an Othello scenario's time: gg_testing.without_ladder).
        config.write_bytes(partial_copy_text(config))
        remove_cases(target, twin_names(assignment))
    if limits:
        data = yaml.safe_load(config.read_text(encoding="utf-8"))
        data["limits"] = {**data.get("limits", {}), **limits}
        config.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    settings = yaml.safe_load((target / "assignment.yaml").read_text(encoding="utf-8"))
    for probe in settings.get("probe_files", []):  # repo-relative trusted files
        (project / probe).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / probe, project / probe)


@dataclass
class Listener:
    """A TCP server on 127.0.0.1 that records whether anything connected to it."""

    sock: socket.socket = field(default_factory=socket.socket)
    contacted: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self.sock.accept()
            except OSError:
                continue
            self.contacted.set()
            connection.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


@dataclass
class Run:
    """One graded scenario: where things were, what came out, and when grading ended.

    Attributes:
        output: the results.json the grader wrote.
        returncode, stderr: of the ``gamegrader`` command.
        ended: wall-clock time (``time.time()``) when the command returned.
        witness: the world-writable folder behind ``@@WITNESS@@``.
        token: the name behind ``@@TOKEN@@``, for files left in shared scratch folders.
        listener: the server behind ``@@PORT@@``, if the submission names it.
        layout: the /autograder-like root, for ``layout`` scenarios.
        run_autograder_before: that root's run_autograder before grading.
    """

    output: Path
    returncode: int
    stderr: str
    ended: float
    witness: Path
    token: str
    listener: Listener | None = None
    layout: Path | None = None
    run_autograder_before: bytes | None = None

    def document(self) -> dict[str, Any]:
        return json.loads(self.output.read_text(encoding="utf-8"))

    def files_left_behind(self) -> list[Path]:
        """Files named with this run's token in the shared scratch folders."""
        return _left_behind(self.token)

    def ipc_left_behind(self) -> list[str]:
        """IPC objects made with this run's key or name on the host: System V shared memory,
        message queues and semaphore sets keyed ``@@IPC_KEY@@``, a POSIX message queue named
        ``/@@TOKEN@@``."""
        return _ipc_left_behind(self.token)

    def keys_left_behind(self) -> list[str]:
        """Keys whose description holds this run's token, in the keyrings that outlive
        processes (user, user-session, persistent) of every user student code may run as."""
        return [f"{name}: {ring}: {key}" for name, ring, key in _keys_left_behind(self.token)]

    def witness_marks(self) -> dict[str, float]:
        """Files the student left in the witness folder, with their modification times."""
        return {p.name: p.stat().st_mtime for p in self.witness.iterdir()}


def _left_behind(token: str) -> list[Path]:
    return [path for folder in SCRATCH_FOLDERS if folder.is_dir()
            for path in folder.glob(f"{token}*")]


def ipc_key(token: str) -> int:
    """The System V key behind ``@@IPC_KEY@@``: from the token, never 0 (``IPC_PRIVATE``)."""
    return zlib.crc32(token.encode()) & 0x0FFFFFFF | 0x10000000


def _libc() -> Any:
    import ctypes
    return ctypes.CDLL(None, use_errno=True)


def _ipc_left_behind(token: str) -> list[str]:
    key = ipc_key(token)
    found = []
    for kind in ("shm", "msg", "sem"):
        try:
            rows = Path(f"/proc/sysvipc/{kind}").read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        found += [f"{kind} {key:#x}" for row in rows if row.split()[:1] == [str(key)]]
    queue = _libc().mq_open(f"/{token}".encode(), os.O_RDONLY)
    if queue >= 0:
        os.close(queue)
        found.append(f"message queue /{token}")
    return found


def _student_users() -> list[tuple[str, int, int]]:
    """Every user student code may run as here: the sandbox pool and ``nobody``."""
    import pwd

    from harness.sandbox.users import pool
    found = []
    for name in [*pool(), "nobody"]:
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        found.append((name, entry.pw_uid, entry.pw_gid))
    return found


def _keys_left_behind(token: str) -> list[tuple[str, str, str]]:
    if os.geteuid() != 0:
        return []  # only root can look into other users' keyrings
    from harness.sandbox.keyrings import user_keys
    return [(name, ring, key) for name, uid, gid in _student_users()
            for ring, keys in user_keys(uid, gid, "/usr/bin/python3").items()
            for key in keys if token in key]


def _remove_keys(token: str) -> None:
    from harness.sandbox.keyrings import clear_user_keyrings
    users = {name: (uid, gid) for name, uid, gid in _student_users()}
    for name in {name for name, _, _ in _keys_left_behind(token)}:
        clear_user_keyrings(*users[name], "/usr/bin/python3")


def _remove_ipc(token: str) -> None:
    key = hex(ipc_key(token))
    for option in ("-M", "-Q", "-S"):
        subprocess.run(["ipcrm", option, key], capture_output=True, check=False)
    _libc().mq_unlink(f"/{token}".encode())


def _autograder_layout(folder: Path, assignment: str, generated: int | None, locked: bool,
                       suite: str | None = None) -> Path:
    """A folder laid out like Gradescope's /autograder, locked the way setup.sh locks it.

    The enclosing folders stay traversable (like ``/autograder``), so only ``chmod -R go-rwx``
    on ``source/`` stands between the student and the hidden cases and the reference. Unlocked,
    ``source/`` stays world-readable, as the repository is in CI (for control scenarios).
    """
    root = folder / "autograder"
    source = root / "source"
    for part in ("submission", "results"):
        (root / part).mkdir(parents=True)
    copy_specs(assignment, source, generated, suite=suite)
    shutil.copytree(ROOT / "reference", source / "reference",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (source / "ASSIGNMENT").write_text(assignment + "\n", encoding="utf-8")
    shutil.copyfile(ROOT / "run_autograder", root / "run_autograder")
    os.chmod(root / "run_autograder", 0o755)
    for path in [source, *source.rglob("*")]:  # setup.sh: chmod -R go-rwx "$SOURCE"
        mode = stat.S_IMODE(path.lstat().st_mode)
        os.chmod(path, mode & 0o700 if locked else mode | (0o555 if path.is_dir() else 0o444))
    for path in (folder, root, root / "submission", root / "results"):
        os.chmod(path, 0o755)
    return root


@dataclass
class _Setup:
    """How to grade one scenario: the command, where files go, and the placeholder values."""

    command: list[str]
    submission: Path
    output: Path
    env: dict[str, str] = field(default_factory=dict)
    values: dict[str, str] = field(default_factory=dict)
    layout: Path | None = None


def _plain_setup(spec: dict[str, Any], name: str, tmp_path: Path) -> _Setup:
    """``gamegrader grade`` on a file in pytest's private temporary folder."""
    options = spec.get("grade", {})
    (tmp_path / "submission").mkdir()
    setup = _Setup([], tmp_path / "submission" / name, tmp_path / "results.json")
    if "limits" in options and "generated" not in options:
        raise ScenarioError("grade: limits needs generated (they apply to a copy of the specs)")
    if "generated" in options:
        copy_specs(spec["assignment"], tmp_path / "project", options["generated"],
                   options.get("limits"), options.get("suite"))
        setup.env["GAMEGRADER_ROOT"] = str(tmp_path / "project")
    submitted = setup.submission.parent if "around" in spec else setup.submission
    for companion in spec.get("companions", []):  # other files handed in: grade the folder
        shutil.copyfile(ROOT / companion, setup.submission.parent / Path(companion).name)
        submitted = setup.submission.parent
    setup.command = ["grade", "--assignment", spec["assignment"], "--submission",
                     str(submitted), "--output", str(setup.output), "--quiet"]
    if "timeout_cap" in options:
        setup.command += ["--timeout-cap", str(options["timeout_cap"])]
    return setup


def _layout_setup(spec: dict[str, Any], name: str, folder: Path) -> _Setup:
    """``gamegrader gradescope`` in a folder laid out (and locked) like /autograder."""
    options = spec.get("grade", {})
    if spec["layout"] not in LAYOUTS or "timeout_cap" in options:
        raise ScenarioError(f"layout: one of {sorted(LAYOUTS)}, without timeout_cap")
    root = _autograder_layout(folder, spec["assignment"], options.get("generated"),
                              locked=LAYOUTS[spec["layout"]], suite=options.get("suite"))
    return _Setup(["gradescope", "--root", str(root), "--assignment", spec["assignment"]],
                  root / "submission" / name, root / "results" / "results.json",
                  env={"GAMEGRADER_ROOT": str(root / "source")},
                  values={"AUTOGRADER": str(root), "SOURCE": str(root / "source")}, layout=root)


def _run_grader(setup: _Setup, kill_when: str | None, witness: Path) -> tuple[int, str]:
    """Run ``gamegrader``; with ``kill_when``, SIGKILL it as soon as the student's code has
    left that mark in the witness folder (as a platform timeout or an out-of-memory kill would
    strike in the middle of a grading). Waiting for the mark, not for a number of seconds,
    keeps the scenario the same on a loaded machine. Returns the exit status and stderr."""
    with subprocess.Popen([sys.executable, "-m", "harness", *setup.command], cwd=ROOT, text=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env={**os.environ, **setup.env}) as process:
        if kill_when is not None:
            deadline = time.monotonic() + GRADE_TIMEOUT
            while not any(witness.glob(f"{kill_when}-*")) and process.poll() is None:
                if time.monotonic() > deadline:
                    raise ScenarioError(f"the mark {kill_when!r} never appeared")
                time.sleep(0.05)
            process.kill()
        _, stderr = process.communicate(timeout=GRADE_TIMEOUT)
        return process.returncode, stderr


def make_around(folder: Path, entries: list[dict[str, Any]], values: dict[str, str]) -> None:
    """Put the scenario's other entries (``around``) beside the submitted file: ``symlink``
    (target, placeholders filled), ``fifo``, ``size`` (a sparse file of that many bytes),
    ``depth`` (that many nested folders, a Python file at the bottom) or ``text``."""
    from gg_testing import make_deep_folder
    for entry in entries:
        path = folder / entry["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        if "symlink" in entry:
            path.symlink_to(fill(entry["symlink"], values))
        elif entry.get("fifo"):
            os.mkfifo(path)
        elif "size" in entry:
            with open(path, "wb") as stream:
                stream.truncate(int(entry["size"]))
        elif "depth" in entry:
            path.mkdir()
            make_deep_folder(path, int(entry["depth"]))
        elif "text" in entry:
            path.write_text(fill(entry["text"], values), encoding="utf-8")
        else:
            raise ScenarioError(f"around: {entry!r} needs symlink, fifo, size, depth or text")


def remove_around(folder: Path, entries: list[dict[str, Any]]) -> None:
    """Remove the deep folders ``make_around`` made (pytest's cleanup recurses per level)."""
    from gg_testing import remove_deep_folder
    for entry in entries:
        if "depth" in entry and (folder / entry["path"]).is_dir():
            remove_deep_folder(folder / entry["path"])


def _small_disk(megabytes: int | None) -> Path | None:
    """A tmpfs of ``megabytes`` (``grade: {disk_mb}``) for the results and the witness folder,
    so that student code can fill the disk the results are written to; None if not asked."""
    if megabytes is None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="gg-small-disk-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={int(megabytes)}m,mode=755",
                              "tmpfs", str(folder)], capture_output=True, text=True)
    if mounted.returncode != 0:
        folder.rmdir()
        import pytest
        pytest.skip(f"a small disk needs root and mount: {mounted.stderr.strip()[:200]}")
    return folder


@contextmanager
def graded(spec: dict[str, Any], tmp_path: Path) -> Iterator[Run]:
    """Grade the scenario's submission black-box and yield the Run; clean up afterwards.

    The witness folder (``@@WITNESS@@``) is world-writable and outside pytest's private
    temporary folder and the scratch folders that are private mounts at the namespaced levels,
    so that student code at every isolation level can leave marks in it.
    """
    name, text = submission_text(spec)
    disk = _small_disk(spec.get("grade", {}).get("disk_mb"))
    if disk is None:
        witness = shared_folder("gg-witness-")
    else:  # the results and the witness share the small disk the scenario fills
        witness = Path(tempfile.mkdtemp(prefix="gg-witness-", dir=disk))
        os.chmod(witness, 0o1777)
    token = f"gg-left-{uuid.uuid4().hex[:12]}"
    listener = Listener() if "@@PORT@@" in text else None
    folder = shared_folder("gg-hostile-") if spec.get("layout") else None  # reachable, like /
    setup: _Setup | None = None
    try:
        setup = _layout_setup(spec, name, folder) if folder else _plain_setup(spec, name, tmp_path)
        if disk is not None:  # results.json shares the small disk the student can fill
            if setup.layout is not None:
                raise ScenarioError("disk_mb works with plain gradings, not layouts")
            setup.command[setup.command.index(str(setup.output))] = str(disk / "results.json")
            setup.output = disk / "results.json"
        setup.env.update(scenario_env(spec))
        values = {"WITNESS": str(witness), "TOKEN": token, "IPC_KEY": str(ipc_key(token)),
                  "REPO": str(ROOT), **setup.values}
        if listener is not None:
            values["PORT"] = str(listener.port)
        setup.submission.write_bytes(fill(text, values).encode(spec.get("encoding", "utf-8")))
        make_around(setup.submission.parent, spec.get("around", []), values)
        if "budget" in spec.get("grade", {}):
            setup.command += ["--budget", str(spec["grade"]["budget"])]
        before = (setup.layout / "run_autograder").read_bytes() if setup.layout else None
        returncode, stderr = _run_grader(setup, spec.get("grade", {}).get("kill_when"), witness)
        yield Run(setup.output, returncode, stderr, time.time(), witness, token, listener,
                  setup.layout, before)
    finally:
        if setup is not None:
            remove_around(setup.submission.parent, spec.get("around", []))
        for path in _left_behind(token):
            path.unlink(missing_ok=True)
        _remove_ipc(token)
        if "keys_left_behind" in spec.get("expect", {}):
            _remove_keys(token)
        if listener is not None:
            listener.close()
        for made in (witness, folder):
            if made is not None:
                shutil.rmtree(made, ignore_errors=True)
        if disk is not None:
            subprocess.run(["umount", "-l", str(disk)], check=False)
            shutil.rmtree(disk, ignore_errors=True)
