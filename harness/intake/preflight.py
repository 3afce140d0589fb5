"""Before grading: can the student's file be imported, and does it have the handout's names?"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from harness.compare.observations import error_from_reply
from harness.intake.import_policy import refused_import
from harness.intake.python2 import python2_note
from harness.records.observations import ErrorInfo
from harness.records.spec import AllowedPackage, ApiEntry
from harness.sandbox import Sandbox
from harness.sandbox.execution import RawRun
from harness.sandbox.packages import python_version
from harness.wire.protocol import WorkerReply
from harness.wire.safe_text import safe_text

_POSITIONAL = {"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"}
SLOW_IMPORT_SECONDS = 1.0
"""CPU time of an import above which the results say that top-level code is paid by every case
(an import of handout-style code takes milliseconds; numpy's own import is preloaded)."""
IMPORT_ALLOWANCE_CAP = 5.0
"""Most seconds a case's time limit grows by for the import of the student's file (see
``Preflight.import_allowance``)."""
HOST_PATIENCE = 3.0
"""The import check's wait counts the time the host let the import run: the time it waited,
runnable, for a CPU other programs held is added to it, up to this many times the wait (see
``run_preflight``)."""


@dataclass(frozen=True)
class Preflight:
    """What the import showed.

    Attributes:
        import_problem: why the file cannot be imported at all ("" when it can).
        import_error: the exception the import raised, if it raised one.
        broken: API names that are missing or cannot be called as the handout does, with why.
        notes: warnings that cost no points (e.g. renamed parameters).
    """

    import_problem: str = ""
    broken: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    import_error: ErrorInfo | None = None
    import_seconds: float = 0.0

    @property
    def import_allowance(self) -> float:
        """Seconds added to each case's time limit: every case imports the file afresh, where a
        course's tests imported it once, so top-level code (a student's own tests, unguarded)
        must not eat the time the case gives the work it asks for. Capped: the number is
        measured in the student's process, so a forged one buys at most this much slack."""
        return min(self.import_seconds, IMPORT_ALLOWANCE_CAP)


SYNTAX_ERRORS = ("SyntaxError", "IndentationError", "TabError")


def describe_process_failure(raw: RawRun, doing: str, timeout: float) -> str:
    """Say why a worker gave no usable reply, in terms a student can act on."""
    if raw.timed_out:
        return f"{doing} did not finish within {timeout:g} s"
    if raw.reply_problem:
        return f"{doing} broke the grader's protocol: {raw.reply_problem}"
    status = raw.exit_status
    if status is not None and status < 0:
        import signal
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        hint = {"SIGXCPU": " (CPU time limit)", "SIGSEGV": " (segmentation fault); in Python code "
                "usually recursion deeper than the C stack allows, after "
                "sys.setrecursionlimit was raised: make the search iterative or shallower",
                "SIGKILL": " (killed, e.g. out of memory)"}.get(name, "")
        return f"{doing} was killed by {name}{hint}"
    return f"{doing} ended the process (exit status {status}) before answering"


def _lost_defaults(entry: ApiEntry, names: tuple[str, ...], required: int) -> str:
    """A note on parameters that lost the handout's default (``f(board, caching)`` where the
    handout gives ``f(board, caching=0)``), "" if none. Not a problem: the course's own tests
    may pass every argument, and a call that leaves one out fails on its own with Python's
    TypeError, which names the parameter."""
    if required <= entry.required:
        return ""
    lacking = names[entry.required:required]
    verb = "has" if len(lacking) == 1 else "have"
    return (f"{entry.name}: {', '.join(lacking)} {verb} no default in yours, where the handout "
            f"gives {entry.text}; only a call that leaves {'it' if len(lacking) == 1 else 'them'}"
            f" out fails (with a TypeError)")


def check_signature(entry: ApiEntry, found: Any) -> tuple[str, str]:
    """Compare a reported signature with the handout's. Returns (problem, note); "" if none.

    A problem (the cases using the name are not run) is a signature that cannot take the
    handout's calls at all: fewer positional parameters and no ``*args``, a required
    keyword-only parameter, or more required parameters than the handout has. Parameters that
    only lost the handout's default, or were renamed, are a note that costs nothing.
    """
    if not isinstance(found, dict):
        return f"{entry.name} is missing from your file", ""
    if found.get("callable") is not True:
        return f"{entry.name} is not a function or method", ""
    params = found.get("parameters")
    if not isinstance(params, list):
        return "", ""
    try:
        positional = [p for p in params if p[1] in _POSITIONAL]
        varargs = any(p[1] == "VAR_POSITIONAL" for p in params)
        required = sum(1 for p in positional if not p[2])
        keyword_required = [p[0] for p in params if p[1] == "KEYWORD_ONLY" and not p[2]]
        names = tuple(str(p[0]) for p in positional)
    except (TypeError, IndexError):
        return "", ""
    expected = f"{entry.name}({', '.join(entry.parameters)})"
    yours = f"{entry.name}({', '.join(names)})"
    if (required > len(entry.parameters) or keyword_required
            or (len(positional) < len(entry.parameters) and not varargs)):
        return (f"{entry.name} has a changed signature: the handout fixes {expected}; "
                f"yours is {yours}"), ""
    notes = [_lost_defaults(entry, names, required)]
    if names[:len(entry.parameters)] != entry.parameters:
        notes.append(f"{entry.name}: parameter names differ from the handout ({expected} vs "
                     f"{yours})")
    return "", "; ".join(note for note in notes if note)


_NOT_UTF8 = re.compile(r"'utf-8' codec can't decode|Non-UTF-8 code")
"""How Python says a source file's bytes are not UTF-8 (a string, a name, depending on where)."""


def not_utf8(error: ErrorInfo) -> bool:
    """Whether ``error`` is Python refusing a source file whose bytes are not UTF-8."""
    return bool(_NOT_UTF8.search(error.message))


def import_error_hint(error: ErrorInfo, python: str) -> str:
    """What to do about an import error that behaves differently on the student's machine:
    input() with no keyboard, Python 2 code (``harness.intake.python2``), syntax newer than the
    grader's Python (``python``, e.g. "3.10": Gradescope's image runs an older Python than many
    laptops; which feature needs which Python is ``harness.intake.python_version``'s warning, from
    vermin), a file saved as UTF-16 (Windows editors' "Unicode"), which Python reads as UTF-8
    and finds NUL bytes in, or as Latin-1, whose accented letters are not UTF-8 (Python skips
    them in comments only, so such a file is a SyntaxError that no newer Python explains)."""
    if error.type == "EOFError":
        return "\n  (input() is called at import time; the grader gives no keyboard input)"
    python2 = python2_note(error, python)
    if python2:
        return f"\n  ({python2})"
    if not_utf8(error):
        return ("\n  (your file is not UTF-8 text: it was probably saved in another encoding, "
                "such as Latin-1 or Windows-1252, and holds a non-ASCII character outside a "
                "comment; save it as UTF-8)")
    if error.type in SYNTAX_ERRORS and python:
        return (f"\n  (your code runs under Python {python} here: syntax added in a later "
                "Python is an error under it even if your own Python accepts it)")
    if "null bytes" in error.message:
        return ("\n  (your file holds NUL bytes: it was probably saved as UTF-16, \"Unicode\" "
                "in Windows editors; save it as UTF-8)")
    return ""


_PLACE = re.compile(r"([^,\n]{1,200}), line \d{1,9}")  # the worker's "file, line N..." lines


def failing_module(error: ErrorInfo, file: str) -> str:
    """The other file in which importing ``file`` failed (a helper or starter module it
    imports, such as game_interface.py), from the innermost place the worker reported; "" when
    the error is in ``file`` itself or its place is unknown."""
    lines = [line for line in error.where.splitlines() if _PLACE.match(line)]
    place = _PLACE.match(lines[-1]) if lines else None
    if place is None or place.group(1) in (file, "test code"):
        return ""
    return place.group(1)


def slow_import_note(seconds: float | None, what: str) -> str:
    """A note when importing ``what`` took long: every case imports the file afresh in its own
    process, so code at the top level of the file (a student's own tests, left unguarded) is
    paid by each case, in its time limit and in the total budget, and costs points that the same
    code behind ``if __name__ == "__main__":`` would not. "" when the import was quick."""
    if seconds is None or seconds < SLOW_IMPORT_SECONDS:
        return ""
    given = ("each test's time limit was extended by that time" if seconds <= IMPORT_ALLOWANCE_CAP
             else f"each test's time limit was extended by {IMPORT_ALLOWANCE_CAP:g} s at most")
    return (f"Importing {what} took {seconds:.1f} s of CPU time: the code at its top level runs "
            f"again in every test, since each test imports your file afresh; {given}, but it "
            "still counts in the total time budget. Put your own test code under "
            'if __name__ == "__main__": so that it runs only when you run the file.')


def resolver_notes(reply: WorkerReply) -> list[str]:
    """The assignment's name resolver's notes (found names, say), made safe: they come from the
    student's process (the protocol bounds their number and length)."""
    return [safe_text(note, 500) for note in reply.resolver_notes]


def run_preflight(sandbox: Sandbox, api: tuple[ApiEntry, ...], timeout: float,
                  allowed: Sequence[AllowedPackage] = (), module: str | None = None
                  ) -> Preflight:
    """Import the file of ``module`` (default: the main one, "your file" in messages) once in
    the sandbox and check every API entry (``allowed``: the third-party packages the course
    allows, named when the file imports another one)."""
    names = [entry.name for entry in api]
    # The check blocks every case of the file, so its wait is the time the host let the import
    # run, whatever the load: an honest import a busy host kept from the CPU gets that time
    # back (up to a wall backstop), while one that computes or sleeps through its wait (a loop
    # at the top level, a sleep) stops at it, alone or beside other programs, and costs one.
    raw = sandbox.preflight(names, timeout=timeout, module=module, patience=HOST_PATIENCE)
    doing = "importing your file" if module is None else f"importing {module}.py"
    if raw.reply is None:
        problem = describe_process_failure(raw, doing, timeout)
        if raw.timed_out and raw.seconds > timeout * 1.5:
            problem += (f" (it was given {raw.seconds:.0f} s in all, as other programs were "
                        "using the CPU)")
        if raw.output.strip():
            problem += f"\n  Before that, your code printed:\n{raw.output.strip()[-1500:]}"
        return Preflight(import_problem=problem)
    if raw.reply.import_error is not None:
        error = error_from_reply(raw.reply.import_error)
        python = python_version(sandbox.isolation.interpreter)
        refused = refused_import(error, allowed, python)
        if refused:
            return Preflight(import_problem=refused + ".")
        hint = import_error_hint(error, python)
        other = failing_module(error, f"{module or sandbox.module}.py")
        raised = f"failed in {other}, a module it imports: {other} raised" if other else "raised"
        return Preflight(import_problem=f"{doing} {raised} {error.describe()}{hint}",
                         import_error=error)
    found = raw.reply.names
    if found is None:
        return Preflight(import_problem=f"{doing} broke the grader's protocol")
    broken, notes = {}, resolver_notes(raw.reply)
    slow = slow_import_note(raw.reply.import_cpu_seconds, "your file" if module is None
                            else f"{module}.py")
    if slow:
        notes.append(slow)
    # Entries sharing a name are alternatives (a starter's own proposed signature beside the
    # handout's): the name is broken only when none of them fits, and says so with the first.
    fits: dict[str, list[tuple[str, str]]] = {}
    suggested: dict[str, bool] = {}  # every entry of the name is optional
    for entry in api:
        report = found.get(entry.name)
        fits.setdefault(entry.name, []).append(check_signature(entry, None if report is None else {
            "callable": report.callable, "parameters": report.parameters}))
        suggested[entry.name] = suggested.get(entry.name, True) and entry.optional
    for name, checks in fits.items():
        problem, note = next((check for check in checks if not check[0]), checks[0])
        if problem and suggested[name]:  # suggested only: nothing waits on it
            notes.append(f"{problem}; the handout only suggests it, so only cases that call it "
                         "fail (and say which call)")
        elif problem:
            broken[name] = problem
        if note:
            notes.append(note)
    return Preflight(broken=broken, notes=tuple(notes),
                     import_seconds=raw.reply.import_cpu_seconds or 0.0)
