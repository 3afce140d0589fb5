"""Helper files that are the grader's own modules are not the student's work.

The student package (``gamegrader build --student``) gives students some of the grader's modules
so that ``check`` and ``play`` run locally: the rules, the referee, house bots, pictures,
checkers, probes. Handed in beside the graded file, a copy of one of them would let a few lines
of wrapper earn what that module does (issue 51: the house's greedy player was graded as the
student's). A helper file whose text is one of the grader's reference modules (``reference/``
and the assignments' plug-in code, every one this installation holds), whatever its name or
path, is therefore left out of the grading, and the notes say which and why.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache

from harness.intake.reading import display_name
from harness.intake.submission import FoundFiles
from harness.paths import grader_code, project_root


def text_digest(data: bytes) -> str:
    """A digest of a Python file's text that ignores line endings and trailing blanks."""
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    return hashlib.sha256(b"\n".join(line.rstrip() for line in lines).strip()).hexdigest()


@lru_cache(maxsize=1)
def reference_digests() -> dict[str, str]:
    """The text digest of every module of the grader's ``reference`` package here -> its
    dotted name. Files with no text are left out: a student's own empty ``__init__.py`` is the
    student's."""
    root = project_root()
    digests = {}
    for path in grader_code(root):
        data = path.read_bytes()
        if data.strip():
            module = path.relative_to(root).with_suffix("").as_posix().replace("/", ".")
            digests[text_digest(data)] = module.removesuffix(".__init__")
    return digests


def withhold_shipped(found: FoundFiles) -> list[str]:
    """Leave out of ``found`` the helper files that are copies of the grader's reference
    modules, noting it for the student; the paths left out."""
    digests = reference_digests()
    withheld = {path: digests[text_digest(file.data)] for path, file in found.extras.items()
                if text_digest(file.data) in digests}
    for path in withheld:
        del found.extras[path]
    if withheld:
        listing = ", ".join(f"{display_name(path)} ({name})" for path, name in withheld.items())
        found.notes.append(f"Not included (modules of the grader that the course gives every "
                           f"student in its package, not your work): {listing}.")
    return list(withheld)


__all__ = ["reference_digests", "text_digest", "withhold_shipped"]
