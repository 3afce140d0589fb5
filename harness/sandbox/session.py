"""``Sandbox``: the façade graders and game runners use to run student code.

One Sandbox serves one submission. Every call gets a fresh process and a fresh copy of the files;
nothing the student starts outlives the call (``close`` on programs and servers, automatic for
``run_examples`` and ``preflight``), and nothing it writes in the scratch folders (``/tmp`` ...)
is seen by a later call. At the dedicated-user levels the Sandbox leases a user of the pool for
its lifetime (``users``), so no other sandbox on the machine runs as that user meanwhile.
Requests may run side by side in lanes (``widen``), each lane with its own zygote, scratch
mounts and case folder.
"""
from __future__ import annotations

import os
import queue
import secrets
import subprocess
import threading
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from harness.host import started_on
from harness.records.limits import Limits
from harness.sandbox.cleanup import (
    TAG_VARIABLE,
    StudentProcess,
    become_subreaper,
    kill_leased_user_processes,
    kill_user_processes,
    leave_subreaper,
    namespace_init,
    remove_user_files,
    wipe_private_scratch,
)
from harness.sandbox.execution import RawRun, WorkerProcess
from harness.sandbox.forkserver import ForkedProgram, ForkServer, ZygoteFailed
from harness.sandbox.ipc import remove_user_ipc
from harness.sandbox.keyrings import clear_user_keyrings
from harness.sandbox.launcher import launch, python_command
from harness.sandbox.levels import Isolation, Level, detect
from harness.sandbox.memory_group import MemoryGroup, open_memory_group
from harness.sandbox.packages import PRELOADED_STANDARD_MODULES, imported_packages, installed_folder
from harness.sandbox.programs import CallServer, StudentProgram
from harness.sandbox.sized_mount import DiskBound
from harness.sandbox.stages import STAGES, now
from harness.sandbox.syscall_filter import status as filter_status
from harness.sandbox.users import SANDBOX_USER_ENV, Lease, lease_user, pool
from harness.sandbox.workspace import Workspace
from harness.wire.protocol import ProgramStart, WorkerRequest, encode
from harness.wire.safe_text import student_relative

if TYPE_CHECKING:
    from harness.records.spec import AllowedPackage

NO_ZYGOTE_ENV = "GAMEGRADER_NO_ZYGOTE"


@dataclass
class _Lane:
    """Where one case at a time runs: a zygote of its own (so its private scratch mounts are
    its own too) and a case folder of its own."""

    folder: str
    cpu: int | None = None  # where its zygote, so its cases, run (None: anywhere)
    zygote: ForkServer | None = None
    namespace_init: tuple[int, int | None] = (0, None)  # (zygote pid, its namespace's init)


class Sandbox:
    """Runs one submission's code in isolated, limited, disposable processes.

    Args:
        module: the module name the student's main file is imported as.
        files: names inside the case folder mapped to the files to copy there (the student's
            main file under ``<module>.py``, support and probe files).
        limits: resource limits for every process.
        isolation: the isolation to use; detected from the machine when None. At the
            dedicated-user levels its user is replaced by a leased one, unless
            ``GAMEGRADER_SANDBOX_USER`` names the user (then the caller keeps it exclusive).
        name_resolver: a module of the case folder (a probe) whose ``resolve(module)`` runs in
            the worker right after each student module is imported (see harness.worker.main).
        packages: the third-party packages student code may import (see
            ``harness.sandbox.packages``); used when installed for the sandbox's interpreter.
        games: where game runners keep the games they play (the run context's), or None.
    """

    def __init__(self, module: str, files: dict[str, Path], limits: Limits | None = None,
                 isolation: Isolation | None = None, *,
                 name_resolver: str | None = None,
                 packages: Sequence[AllowedPackage] = (), games: Path | None = None) -> None:
        self.module = module
        self.games = games
        self.name_resolver = name_resolver
        self.limits = limits or Limits()
        self.isolation = isolation or detect()
        # The allowed third-party packages, importable read-only (None: none, or not installed),
        # and those the files import, which the zygote imports once for every case.
        self.packages = installed_folder(self.isolation.interpreter,
                                         [p.requirement for p in packages])
        self.preload = imported_packages(files, [p.module for p in packages]) \
            if self.packages else []
        # Likewise the standard-library modules they import (a fork finds them imported).
        self.preload_standard = imported_packages(files, PRELOADED_STANDARD_MODULES)
        self._lease: Lease | None = None
        if self.isolation.dedicated_user and not os.environ.get(SANDBOX_USER_ENV):
            self._lease = lease_user(pool())
            self.isolation = self.isolation.as_user(self._lease.uid, self._lease.gid)
            # What an earlier holder left running (its grader was killed before its sweep)
            # must not share the user with this submission.
            kill_leased_user_processes(self._lease.uid)
            self._clear_keyrings()
        self.memory_group: MemoryGroup | None = None
        try:
            self.memory_group, self.memory_problem = open_memory_group(self.limits)
            if self.memory_group is not None:
                self.isolation = replace(self.isolation, memory_procs=self.memory_group.procs)
                self.memory_problem = ""
                self._memory_kind = self.memory_group.hierarchy.describe
            self.workspace = Workspace(files, self.isolation, DiskBound(
                self.limits.disk_mb, self.limits.disk_files))
        except BaseException:
            if self.memory_group is not None:
                self.memory_group.close()
            self._release()
            raise
        self._programs = 0  # programs and servers running now
        self.tag = secrets.token_hex(8)  # marks this sandbox's processes (see cleanup)
        self._subreaper = not self.isolation.has_pid_namespace
        if self._subreaper:
            become_subreaper()
        # Cases are forked from a warm zygote (see forkserver), or else started as fresh
        # interpreters with a spare started ahead. Neither when leftovers are killed by uid:
        # that would kill the zygote or the spare too.
        self.use_zygote = (not self.isolation.kill_by_uid and not os.environ.get(NO_ZYGOTE_ENV)
                           and self.isolation.level is not Level.PLAIN)
        self.fork_long_lived = True  # programs and call servers too (see _fork_from_lane)
        self.use_spare = not self.isolation.kill_by_uid
        self._spare: WorkerProcess | None = None
        self._spare_lock = threading.Lock()
        # Requests run in lanes: one unless ``widen`` opened more (cases side by side).
        self._lanes = [_Lane("case")]
        self._free_lanes: queue.SimpleQueue[_Lane] = queue.SimpleQueue()
        self._free_lanes.put(self._lanes[0])

    def widen(self, lanes: int, cpus: Sequence[int] = ()) -> int:
        """Let up to ``lanes`` requests run at once (from as many threads); returns how many
        may. More than one needs a zygote per lane with private scratch mounts, so that
        cases side by side share neither their scratch folders nor their wipes. With
        ``cpus``, lane i's zygote (started from now on) runs on the i-th."""
        if not (self.use_zygote and self.isolation.private_scratch):
            return len(self._lanes)
        if cpus and self._lanes[0].zygote is None:
            self._lanes[0].cpu = cpus[0]
        while len(self._lanes) < lanes:
            lane = _Lane(f"case-{len(self._lanes) + 1}",
                         cpus[len(self._lanes)] if len(cpus) > len(self._lanes) else None)
            try:  # started now, it is warm by the time the first cases are dispatched
                lane.zygote = self._new_zygote(lane.cpu)
            except OSError:
                pass  # started again on first use, where the failure counts
            self._lanes.append(lane)
            self._free_lanes.put(lane)
        return len(self._lanes)

    def _new_worker(self) -> WorkerProcess:
        return WorkerProcess(worker=self.workspace.worker, isolation=self.isolation,
                             limits=self.limits, tag=self.tag)

    def _take_worker(self) -> WorkerProcess:
        with self._spare_lock:
            worker, self._spare = self._spare, None
            if worker is None or not worker.alive:
                if worker is not None:
                    worker.discard()
                worker = self._new_worker()
            if self.use_spare:
                self._spare = self._new_worker()
            return worker

    @property
    def _packages_path(self) -> str | None:
        return str(self.packages) if self.packages else None

    @property
    def main_file(self) -> str:
        return f"{self.module}.py"

    def _request(self, mode: str, timeout: float, module: str | None = None,
                 patience: float = 1.0, **fields: Any) -> RawRun:
        lane = self._free_lanes.get()
        try:
            return self._request_in(lane, mode, timeout, module, patience, **fields)
        finally:
            self._free_lanes.put(lane)

    def _request_in(self, lane: _Lane, mode: str, timeout: float, module: str | None,
                    patience: float, **fields: Any) -> RawRun:
        folder = self.workspace.new_case_folder(lane.folder)
        module = module or self.module
        request = WorkerRequest(mode=mode, module=module, file=f"{module}.py",  # type: ignore[arg-type]
                                cwd=str(folder), packages=self._packages_path,
                                resolver=self.name_resolver, trace=STAGES.enabled, **fields)
        kills = self._oom_kills()
        try:
            raw = None
            if self.use_zygote:
                try:
                    raw = self._forked(lane, request, timeout, patience)
                except ZygoteFailed:
                    if self._oom_kills() > kills:  # the kernel killed it: the case's doing
                        raw = RawRun(None, "", "", False, None, 0.0)
                    else:  # this machine cannot keep one, or a case robbed it: stop trying
                        self.use_zygote = False
            if raw is None:
                raw = self._take_worker().run(request, timeout, patience)
            raw = self._bounded(raw, lane, kills)
            return replace(raw, output=student_relative(raw.output, str(folder)))
        finally:
            finished = now()
            self.workspace.discard(folder)
            removed = STAGES.add("case folder removal", finished)
            self._forget_scratch(lane)
            STAGES.add("scratch wipe", removed)

    def _oom_kills(self) -> int:
        return self.memory_group.oom_kills() if self.memory_group is not None else 0

    def _bounded(self, raw: RawRun, lane: _Lane, kills: int) -> RawRun:
        """``raw`` with what the sandbox's bounds saw while it ran. A kill for want of memory
        in the group takes the whole case: the lane's zygote goes with whatever of the case
        still runs (under cgroup v2 the kernel has done it already)."""
        exceeded = self._oom_kills() > kills
        if exceeded and lane.zygote is not None:
            lane.zygote.close()
        return replace(raw, memory_exceeded=exceeded, disk_full=self.workspace.full())

    @property
    def bounds_text(self) -> str:
        """The memory and disk bounds in force, for results.json."""
        limits = self.limits
        if not self.memory_problem:
            memory = f"{limits.sandbox_memory_mb} MB for the whole sandbox ({self._memory_kind})"
        else:
            memory = (f"{limits.memory_mb} MB of address space per process only "
                      f"(no memory control group: {self.memory_problem})")
        disk = self.workspace.disk_in_force
        written = (f"{disk.describe()} in its case folders (a sized tmpfs)" if disk else
                   f"{limits.file_mb} MB per file only (no sized mount: "
                   f"{self.workspace.disk_problem})")
        return f"memory {memory}; disk {written}"

    def _forked(self, lane: _Lane, request: WorkerRequest, timeout: float,
                patience: float) -> RawRun:
        if lane.zygote is None or not lane.zygote.alive:
            lane.zygote = self._new_zygote(lane.cpu)
        return lane.zygote.run(request, timeout, patience)

    def _new_zygote(self, cpu: int | None) -> ForkServer:
        with started_on(cpu):
            return ForkServer(worker=self.workspace.worker, isolation=self.isolation,
                              limits=self.limits, tag=self.tag, packages=self._packages_path,
                              preload=[*self.preload_standard, *self.preload])

    def _forget_scratch(self, lane: _Lane) -> None:
        """Empty the scratch folders (/tmp ...) between cases. A fresh process has fresh
        private mounts, but a zygote serves many cases from one namespace, so the lane's
        zygote's mounts are emptied; without private mounts, the dedicated user's files are
        removed (not while a program runs: they may be its files)."""
        if self.isolation.private_scratch:
            zygote = lane.zygote
            if zygote is not None and zygote.alive:
                if lane.namespace_init[0] != zygote.process.pid:  # found once per zygote
                    lane.namespace_init = (zygote.process.pid, namespace_init(zygote.process))
                if lane.namespace_init[1] is not None:
                    wipe_private_scratch(lane.namespace_init[1], zygote.process.pid)
            self._clear_keyrings()  # no namespace of the sandbox holds the user's keyrings
        else:
            self._remove_shared_scratch_leftovers()

    def _remove_user_leftovers(self) -> None:
        """What the dedicated user left outside its case folder: files at the top of the shared
        scratch folders, (without an IPC namespace of the sandbox) System V IPC objects, and
        (without the system-call filter) its keys."""
        assert self.isolation.uid is not None
        remove_user_files(self.isolation.uid)
        if "--ipc" not in self.isolation.prefix:
            remove_user_ipc(self.isolation.uid)
        self._clear_keyrings()

    def _clear_keyrings(self) -> None:
        """Without the system-call filter, a dedicated user's keys outlive its processes and
        every namespace of the sandbox (``keyrings``): empty its keyrings."""
        isolation = self.isolation
        if isolation.dedicated_user and isolation.uid is not None and isolation.gid is not None \
                and not filter_status(isolation.interpreter).active:
            clear_user_keyrings(isolation.uid, isolation.gid, isolation.interpreter)

    def _program_closed(self, folder: Path) -> None:
        self._programs -= 1
        self.workspace.discard(folder)
        if not self.isolation.private_scratch:  # a program's private mounts went with it
            self._remove_shared_scratch_leftovers()

    def _remove_shared_scratch_leftovers(self) -> None:
        """Without private scratch mounts: the dedicated user's files in the shared scratch
        folders, once no program runs (they may be its files)."""
        if self.isolation.dedicated_user and self.isolation.uid is not None \
                and not self._programs:
            self._remove_user_leftovers()

    def run_examples(self, examples: Sequence[str], *, timeout: float,
                     stdin: str | None = None, module: str | None = None) -> RawRun:
        """Run doctest example sources in a fresh process, in a copy of the globals of
        ``module`` (default: the student's main module); see ``harness.worker.main``."""
        return self._request("run", timeout, module, examples=list(examples), stdin=stdin)

    def preflight(self, names: Sequence[str], *, timeout: float, module: str | None = None,
                  patience: float = 1.0) -> RawRun:
        """Import ``module`` (default: the student's main module) and report the signatures of
        ``names`` (dotted); ``patience``: see ``cleanup.held_back_extension``."""
        return self._request("preflight", timeout, module, patience=patience,
                             names=list(names))

    def start_program(self, script: str | None = None, args: Sequence[str] = ()) -> StudentProgram:
        """Run a file of the case folder (default: the student's main file) as a program.

        stdin and stdout are pipes for the protocol; stderr is collected (``stderr_tail``).
        The caller must ``close`` it (or use it as a context manager).
        """
        folder = self.workspace.new_case_folder()
        script = script or self.main_file
        program = ProgramStart(script=script, cwd=str(folder), args=list(args),
                               packages=self._packages_path)
        forked = self._fork_from_lane(folder, lambda zygote: zygote.start_program(program))
        process: StudentProcess
        if forked is not None:
            process, on_close = forked
        else:
            process = launch(python_command(self.isolation, script, *args,
                                            isolated=False, packages=self.packages),
                             cwd=str(folder), isolation=self.isolation, limits=self.limits,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, extra_env={TAG_VARIABLE: self.tag})
            on_close = partial(self._program_closed, folder)
        self._programs += 1
        return StudentProgram(process, self.isolation, on_close=on_close, tag=self.tag,
                              folder=str(folder))

    def _fork_from_lane(self, folder: Path, start: Callable[[ForkServer], ForkedProgram]
                        ) -> tuple[ForkedProgram, Callable[[], None]] | None:
        """A long-lived process (a program, a call server) forked from a free lane's zygote,
        which it holds until it ends, and what to do when it is closed (a fork costs a few
        milliseconds; a fresh interpreter, its imports and its namespaces, tens). Only where
        the zygote is the first process of a pid namespace, so that it reaps the process and
        kills what it leaves, and only from a zygote already running (the cases started it):
        starting one for a single process costs more than a fresh interpreter (a tournament
        game's sandbox starts one program). None (start it afresh) elsewhere, when every lane is
        busy, or when the zygote fails (then never again in this sandbox: a kernel without
        pidfds would lose a zygote each time)."""
        if not (self.use_zygote and self.fork_long_lived and self.isolation.has_pid_namespace):
            return None
        try:
            lane = self._free_lanes.get_nowait()
        except queue.Empty:
            return None
        try:
            if lane.zygote is not None and lane.zygote.alive:
                process = start(lane.zygote)
                return process, partial(self._forked_closed, folder, lane, process)
        except (OSError, ZygoteFailed):
            self.fork_long_lived = False
        self._free_lanes.put(lane)
        return None

    def _forked_closed(self, folder: Path, lane: _Lane, process: ForkedProgram) -> None:
        """After ``terminate``: a zygote that did not report the process's end goes (with its
        namespace); then the lane's scratch folders are emptied and the lane is free again."""
        if process.returncode is None and lane.zygote is not None:
            lane.zygote.close()
        self._forget_scratch(lane)
        self._free_lanes.put(lane)
        self._program_closed(folder)

    def start_server(self, *, ready_timeout: float = 10.0) -> CallServer:
        """Import the student module once in a fresh process that serves ``call`` requests
        (forked from a lane's zygote where it can be, as programs are).

        Check ``wait_ready`` (done here) through ``server.import_error``: empty when ready.
        """
        folder = self.workspace.new_case_folder()
        calls_read, calls_write = os.pipe()
        reply_read, reply_write = os.pipe()
        try:
            forked = self._fork_from_lane(folder, lambda zygote: zygote.start_server(
                self._packages_path, calls_read, reply_write))
            process: StudentProcess
            if forked is not None:
                process, on_close = forked
            else:
                process = launch(
                    python_command(self.isolation, str(self.workspace.worker),
                                   str(reply_write), str(calls_read)),
                    cwd=str(folder), isolation=self.isolation, limits=self.limits,
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                    pass_fds=[reply_write, calls_read], extra_env={TAG_VARIABLE: self.tag})
                on_close = partial(self._program_closed, folder)
        finally:
            os.close(reply_write)
            os.close(calls_read)
        # The server's request is the first line of its calls pipe (see harness/worker/main.py).
        os.write(calls_write, encode(WorkerRequest(
            mode="serve", module=self.module, file=self.main_file, cwd=str(folder),
            packages=self._packages_path)) + b"\n")
        self._programs += 1
        server = CallServer(process, self.isolation, calls_write, reply_read, on_close=on_close,
                            tag=self.tag, folder=str(folder))
        server.wait_ready(ready_timeout)
        return server

    def close(self) -> None:
        for lane in self._lanes:
            if lane.zygote is not None:
                lane.zygote.close()
                lane.zygote = None
        if self._spare is not None:
            self._spare.discard()
            self._spare = None
        if self._lease is not None:  # the user is ours alone: every process of it goes
            kill_leased_user_processes(self._lease.uid)
        elif self.isolation.kill_by_uid and self.isolation.uid is not None:
            kill_user_processes(self.isolation.uid, self.tag)
        if self.isolation.dedicated_user and self.isolation.uid is not None:
            self._remove_user_leftovers()
        if self._subreaper:
            self._subreaper = False
            leave_subreaper()
        self.workspace.close()
        if self.memory_group is not None:
            self.memory_group.close()
            self.memory_group = None
        self._release()

    def _release(self) -> None:
        if self._lease is not None:
            self._lease.release()
            self._lease = None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
