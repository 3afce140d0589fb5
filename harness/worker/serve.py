"""``serve`` requests: the module imported once, then one call answered per line until EOF."""
from __future__ import annotations

import json
import os
import sys
from types import ModuleType

from .encode import decode, describe_error, encode
from .requests import call_of
from .run import BoundedText

TYPE_CHECKING = False  # typing is not imported: a fresh worker would pay for it
if TYPE_CHECKING:
    from typing import IO, Any


def send(reply: IO[str], message: dict[str, Any]) -> None:
    """Write one message as a JSON line (ASCII only: every text was made plain first)."""
    reply.write(json.dumps(message, allow_nan=False) + "\n")
    reply.flush()


def serve(module: ModuleType, request_fd: int, reply: IO[str]) -> None:
    """Answer one call per line (``{"function", "args"}``) until the trusted side closes the
    request pipe; each answer is one ``CallReply`` line."""
    with os.fdopen(request_fd, "r", encoding="utf-8") as requests:
        for line in requests:
            call = call_of(line)
            answer: dict[str, Any] = {}
            capture = BoundedText()
            sys.stdout = capture
            try:
                function = getattr(module, call.function)
                answer["value"] = encode(function(*decode(call.args)))
            except BaseException as exc:
                answer.pop("value", None)
                answer["error"] = describe_error(exc, str(module.__file__))
            finally:
                sys.stdout = sys.__stdout__
            answer["stdout"] = capture.value()
            send(reply, answer)
