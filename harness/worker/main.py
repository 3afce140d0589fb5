"""The worker's entry: the script the sandbox starts, in the read-only runtime folder's copy of
this package (``harness.sandbox.workspace``).

Usage (started only by ``harness.sandbox.launcher``)::

    python -I -S main.py REPLY_FD [REQUEST_FD]     # one request (a server's: on REQUEST_FD)
    python -I -S main.py zygote CONTROL_FD         # fork server (``harness.worker.zygote``)

The request (a JSON object) arrives on stdin, or for a call server as the first line of
REQUEST_FD; stdin is then replaced by an empty stream, so student code sees a closed stdin
unless the request supplies ``stdin`` text. The reply goes to REPLY_FD. Modes (see
``harness.worker.handle``):

- ``run``: execute doctest examples in a copy of the module's globals; one observation each.
- ``preflight``: import the module and report the signatures of the names the spec lists.
- ``serve``: import once, then answer ``{"function", "args"}`` lines from REQUEST_FD until EOF.

Messages follow ``harness/wire/protocol.py`` (docs/architecture.md, "Wire format"), written with
stdlib ``json`` as one ASCII line each, within the bounds of ``harness.worker.bounds``.

``-I`` keeps the script's folder off ``sys.path``, so run as a script this file puts the folder
above it there just long enough to import its own package (under the copy's folder name, which
no student module shares), then takes it off again: the student's imports never see it.
"""
from __future__ import annotations

import importlib
import os
import sys
import time
from types import ModuleType


def _package() -> str:
    """The name of this file's package, imported first if this file runs as a script."""
    if __package__:
        return __package__
    sys.dont_write_bytecode = True  # the runtime copy stays as the grader made it
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.dirname(here))
    try:
        importlib.import_module(os.path.basename(here))
    finally:
        del sys.path[0]
    return os.path.basename(here)


def _module(package: str, name: str) -> ModuleType:
    return importlib.import_module(f"{package}.{name}")


def main(argv: list[str]) -> None:
    """Serve what ``argv`` (the script's arguments) asks for; see the module docstring."""
    package = _package()
    if argv[0] == "zygote":
        zygote = _module(package, "zygote")  # imports everything a case needs, before any case
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        zygote.zygote(int(argv[1]))
        return
    handling, requests = _module(package, "handle"), _module(package, "requests")
    request_fd = int(argv[1]) if len(argv) > 1 else None
    request = (requests.request_of(sys.stdin.read()) if request_fd is None
               else handling.server_request(request_fd))
    handling.handle(request, int(argv[0]), request_fd, trace={"read": time.monotonic()})


if __name__ == "__main__":
    main(sys.argv[1:])
