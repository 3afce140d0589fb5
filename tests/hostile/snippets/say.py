# --- snippet "say" (tests/hostile/snippets): output that reaches the grader from anywhere
import os as _say_os


def say(text):
    """Write a line straight to file descriptor 2: the grader shows what the process wrote
    (print() inside a call is captured with the call's value instead)."""
    try:
        _say_os.write(2, (text + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


