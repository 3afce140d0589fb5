"""The wire's bounds, written once: the worker keeps what it sends within them, and the trusted
side (``harness.wire.protocol`` and ``harness.wire.codec``) refuses anything beyond them.

Standard library only and importing nothing, so the worker imports it inside the sandbox and
the trusted side imports the very same numbers. An honest reply always fits; a reply beyond a
bound was forged by student code.
"""
from __future__ import annotations

# ---- texts (the worker cuts them; a cut text ends with a short note of what it left out) ----
MAX_TEXT = 8192            # printed text of one example or call, an exception's message
MAX_WHERE = 4096           # traceback lines in the student's files
MAX_NAME = 512             # type names, function and parameter names
MAX_NOTE = 500             # one note of the assignment's name resolver
CUT_NOTE_ROOM = 100        # room for "[... N more characters not kept]" after a cut text

# ---- values (flat node lists; docs/architecture.md, "Wire format") --------------------------
MAX_NODES = 200_000        # nodes of one value
MAX_DEPTH = 200            # non-empty containers nested in one another
MAX_STRING = 1 << 20       # characters of one string
MAX_HEX = 8 * MAX_STRING   # hex digits of a string's UTF-8 bytes (a string with lone surrogates)
MAX_INT_DIGITS = 4300      # digits of an integer beyond 64 bits (Python's own default limit)
INT64 = (-(1 << 63), (1 << 63) - 1)  # the integers that travel as plain JSON numbers
MAX_TAG = 16               # characters of a node's tag ("frozenset", "opaque", ...)

# ---- counts ----------------------------------------------------------------------------------
MAX_EXAMPLES = 10_000      # examples in one case (one observation each)
MAX_API_NAMES = 1000       # names a preflight reports
MAX_PARAMETERS = 256       # parameters reported for one name
MAX_NOTES = 20             # notes of the name resolver
MAX_TRACE_STEPS = 16       # steps of a traced request (the overhead profile)

# ---- bytes -----------------------------------------------------------------------------------
REPLY_LIMIT = 4 * 1024 * 1024   # one reply (all of a case's observations)
LINE_LIMIT = 1024 * 1024        # one call server's reply line
REQUEST_LINE_LIMIT = 1 << 20    # a call server's request line (the first of its calls pipe)
