"""``run`` requests: execute doctest examples in a copy of the module's globals, one observation
each, like the interactive prompt; printed text is kept within the wire's bounds."""
from __future__ import annotations

import io
import linecache
import sys
from types import ModuleType

from .bounds import MAX_TEXT
from .encode import TooLarge, describe_error, encode, plain_text

TYPE_CHECKING = False  # typing is not imported: a fresh worker would pay for it
if TYPE_CHECKING:
    from typing import Any

EXAMPLE_FILE_PREFIX = "<example "
_getframe = sys._getframe  # bound before student code runs, which may replace sys._getframe


class BoundedText(io.TextIOBase):
    """A text sink that keeps the first MAX_TEXT characters and counts the rest."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.kept = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: Any) -> int:
        text = str(text) if type(text) is not str else text
        room = MAX_TEXT - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def value(self) -> str:
        text = plain_text("".join(self.parts), MAX_TEXT)
        if self.dropped:
            text += f"\n[... {self.dropped} more characters not kept]"
        return text


class TranscriptText(BoundedText):
    """Everything printed, plus apart what the transcript's own code printed.

    ``print`` is a builtin, so the frame that calls ``write`` is the one that called ``print``:
    an example's frame (file ``<example N>``) for the transcript's output, a student frame for
    debug lines. Graders judge the transcript's output; the student's prints are not answers.
    """

    def __init__(self) -> None:
        super().__init__()
        self.transcript = BoundedText()

    def write(self, text: Any) -> int:
        caller = _getframe(1).f_code.co_filename
        if type(caller) is str and caller.startswith(EXAMPLE_FILE_PREFIX):
            self.transcript.write(text)
        return super().write(text)


def numpy_scalars_print_plainly() -> None:
    """Make numpy 2 print its scalars inside containers as numpy 1 did: ``(0, 1)``, not
    ``(np.int64(0), np.int64(1))``. The courses' transcripts were written, and their tests run,
    with numpy 1, where a move built from numpy indexes printed exactly like one of ints; a
    transcript that prints such a value (``print(move, board)``) compares that text. Only when
    the student's code has imported numpy (never imported here); numpy 1 needs nothing."""
    numpy = sys.modules.get("numpy")
    if numpy is None:
        return
    try:
        major = str.split(numpy.__version__, ".")[0]
        if major.isdigit() and int(major) >= 2:
            numpy.set_printoptions(legacy="1.25")
    except Exception:  # an unusual numpy build: its own printing stays
        pass


def run_examples(module: ModuleType, examples: tuple[str, ...], path: str
                 ) -> list[dict[str, Any]]:
    """Execute each example like the interactive prompt; stop at the first error."""
    namespace = dict(vars(module))
    namespace["__name__"] = "__gamegrader__"
    shown: list[object] = []
    # Like the interactive prompt and doctest: an expression whose value is None shows nothing.
    sys.displayhook = lambda value: None if value is None else shown.append(value)
    observations = []
    for index, source in enumerate(examples):
        shown.clear()
        numpy_scalars_print_plainly()  # before each example: an example may import numpy
        capture = TranscriptText()
        sys.stdout = capture
        observation: dict[str, Any] = {"stdout": "", "has_value": False}
        try:
            name = f"{EXAMPLE_FILE_PREFIX}{index + 1}>"
            # Its lines known to the traceback: a failure's place then shows the failing call.
            linecache.cache[name] = (len(source), None, source.splitlines(True), name)
            code = compile(source, name, "single")
            exec(code, namespace)
        except BaseException as exc:  # student code may raise anything, SystemExit included
            observation["error"] = describe_error(exc, path)
        finally:
            sys.stdout = sys.__stdout__
        observation["stdout"] = capture.value()
        observation["transcript_stdout"] = capture.transcript.value()
        if shown and "error" not in observation:
            try:
                observation["value"] = encode(shown[-1])
                observation["has_value"] = True
            except TooLarge as exc:
                observation["error"] = {"type": "ValueTooLarge", "message": str(exc), "where": ""}
        observations.append(observation)
        if "error" in observation:
            break
    return observations
