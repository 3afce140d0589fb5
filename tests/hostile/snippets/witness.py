# --- snippet "witness" (tests/hostile/snippets): leave a mark the test can see
import os as _witness_os
import random as _witness_random
import time as _witness_time

_WITNESS_ID = _witness_random.Random().randrange(10 ** 9)


def witness(tag):
    """Create or refresh the mark ``tag``: the test checks that it exists (this code ran) and
    when it last changed (nothing the student started outlives grading)."""
    path = _witness_os.path.join("@@WITNESS@@", f"{tag}-{_WITNESS_ID}-{_witness_os.getpid()}")
    try:
        with open(path, "w") as handle:
            handle.write(str(_witness_time.time()))
    except OSError:
        pass


