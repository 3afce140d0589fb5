# --- snippet "case_inputs_oracle" (tests/hostile/snippets): other cases' inputs left in memory
import re as _inputs_re

_BOARD = _inputs_re.compile(rb"DominoesGame\((\[\[[^()\n\\]{1,2000}?\]\])\)")


def other_case_inputs(board):
    """Look in this process's memory (inherited from the process it was forked from) and in
    its parent's (the zygote, if any) for the board of any other case than this one."""
    own = repr(board).encode()
    with open("/proc/self/stat", "rb") as stat:
        parent = stat.read().rsplit(b")", 1)[1].split()[1].decode()
    read, others = [], set()
    for pid, who in (("self", "self"), (parent, "parent")):
        try:
            others |= {match.group(1) for match in scan_memory(pid, _BOARD)} - {own}
            read.append(f"{who} read")
        except OSError as exc:
            read.append(f"{who} {type(exc).__name__}")
    verdict = "found another case's input" if others else "no other case's input found"
    say(f"memory ({', '.join(read)}): {verdict}")
    return None
