# --- snippet "forge_reply" (tests/hostile/snippets): a hand-made reply on the worker's pipe
import os as _forge_os
import stat as _forge_stat


def forge_reply(payload):
    """Write ``payload`` (bytes) into every pipe open for writing above stderr (the worker's
    reply pipe among them) and exit at once, so no real reply follows."""
    import fcntl
    for fd in range(3, 64):
        try:
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
            if flags & _forge_os.O_ACCMODE == _forge_os.O_WRONLY \
                    and _forge_stat.S_ISFIFO(_forge_os.fstat(fd).st_mode):
                view = memoryview(payload)
                while view:
                    view = view[_forge_os.write(fd, view):]
        except OSError:
            pass
    _forge_os._exit(0)
