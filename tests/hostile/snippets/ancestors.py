# --- snippet "ancestors" (tests/hostile/snippets): the grader's command lines, seen from /proc
def ancestor_command_lines():
    """(pid, argv) of every ancestor of this process, nearest first, read from /proc.

    /proc/self is this process's id in the namespace that mounted /proc, so the walk goes up
    to the grader unless the sandbox gave the student a /proc of its own.
    """
    found, pid = [], "self"
    for _ in range(40):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                parent = stat.read().rsplit(b")", 1)[1].split()[1].decode()
            if pid != "self":
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    words = cmdline.read().split(b"\0")
                found.append((int(pid), [w.decode("utf-8", "replace") for w in words if w]))
        except (OSError, IndexError):
            break
        if parent in ("0", "1"):
            break
        pid = parent
    return found


