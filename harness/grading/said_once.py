"""Each message once: a problem that blocks many cases is said at the top of the results, and
every case it blocks points there in a few words.

A syntax error, a missing or refused module, Python 2 code or a missing handout name stops
every case that needs the file; repeating the full message (with its traceback) under each of
40 cases buried the one line that mattered. The top of the results (``Grader.summary_lines``)
gives the message once; a blocked case says only ``not run (see above: FILE)`` (or the names it
needs), and a case that raised an error already explained at the top (an import this course
refuses inside a function, ``xrange``) shows the error's first line, not its traceback again.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from harness.records.observations import ErrorInfo

SEE_ABOVE = "see above"


def blocked_by_module(file: str) -> str:
    """What a case blocked by its module's import problem says."""
    return f"not run ({SEE_ABOVE}: {file})"


def blocked_by_names(names: Sequence[str]) -> str:
    """What a case says that needs handout names missing or unusable in the file (each name's
    problem is said once at the top)."""
    return f"not run ({SEE_ABOVE}: {', '.join(names)})"


def without_repeats(message: str, errors: Iterable[ErrorInfo]) -> str:
    """``message`` with each of ``errors`` (explained at the top) cut to its first line and a
    pointer there: the traceback's places are not repeated under every case."""
    for error in errors:
        full = error.describe()
        if full in message:
            message = message.replace(full, f"{error.type}: {error.message} ({SEE_ABOVE})")
    return message


def blocked_line(file: str, count: int, groups: Iterable[str], others_ran: bool) -> str:
    """The top line saying how many cases a module's problem blocked."""
    plural = "" if count == 1 else "s"
    line = (f"  {file} blocked {count} case{plural} (groups: {', '.join(dict.fromkeys(groups))});"
            f" they say \"not run ({SEE_ABOVE})\"")
    return line + ("; cases that use your other files were graded." if others_ran else ".")
