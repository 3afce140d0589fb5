"""Before grading: can the student's file be imported, and does it have the handout's names?"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from harness.compare.observations import error_from_reply
from harness.sandbox import Sandbox
from harness.sandbox.execution import RawRun
from harness.spec.model import ApiEntry

_POSITIONAL = {"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"}


@dataclass(frozen=True)
class Preflight:
    """What the import showed.

    Attributes:
        import_problem: why the file cannot be imported at all ("" when it can).
        broken: API names that are missing or cannot be called as the handout does, with why.
        notes: warnings that cost no points (e.g. renamed parameters).
    """

    import_problem: str = ""
    broken: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


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
        hint = {"SIGXCPU": " (CPU time limit)", "SIGSEGV": " (segmentation fault)",
                "SIGKILL": " (killed, e.g. out of memory)"}.get(name, "")
        return f"{doing} was killed by {name}{hint}"
    return f"{doing} ended the process (exit status {status}) before answering"


def check_signature(entry: ApiEntry, found: Any) -> tuple[str, str]:
    """Compare a reported signature with the handout's. Returns (problem, note); "" if none."""
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
    if (required > entry.required or keyword_required
            or (len(positional) < len(entry.parameters) and not varargs)):
        return (f"{entry.name} has a changed signature: the handout fixes {expected}; "
                f"yours is {yours}"), ""
    if names[:len(entry.parameters)] != entry.parameters:
        return "", f"{entry.name}: parameter names differ from the handout ({expected} vs {yours})"
    return "", ""


def run_preflight(sandbox: Sandbox, api: tuple[ApiEntry, ...], timeout: float,
                  module: str | None = None) -> Preflight:
    """Import the file of ``module`` (default: the main one, "your file" in messages) once in
    the sandbox and check every API entry."""
    raw = sandbox.preflight([entry.name for entry in api], timeout=timeout, module=module)
    doing = "importing your file" if module is None else f"importing {module}.py"
    if raw.reply is None:
        problem = describe_process_failure(raw, doing, timeout)
        if raw.output.strip():
            problem += f"\n  Before that, your code printed:\n{raw.output.strip()[-1500:]}"
        return Preflight(import_problem=problem)
    if "import_error" in raw.reply:
        error = error_from_reply(raw.reply["import_error"])
        hint = ""
        if error.type == "EOFError":
            hint = "\n  (input() is called at import time; the grader gives no keyboard input)"
        return Preflight(import_problem=f"{doing} raised {error.describe()}{hint}")
    names = raw.reply.get("names")
    if not isinstance(names, dict):
        return Preflight(import_problem=f"{doing} broke the grader's protocol")
    broken, notes = {}, []
    for entry in api:
        problem, note = check_signature(entry, names.get(entry.name))
        if problem:
            broken[entry.name] = problem
        if note:
            notes.append(note)
    return Preflight(broken=broken, notes=tuple(notes))
