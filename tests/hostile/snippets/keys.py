# --- snippet "keys" (tests/hostile/snippets): file keys in the keyrings that outlive a process
import ctypes as _keys_ctypes
import platform as _keys_platform

# add_key and keyctl per architecture (the C library has no wrappers for them).
_KEYS_CALLS = {"x86_64": (248, 250), "aarch64": (217, 219)}.get(_keys_platform.machine(),
                                                                 (-1, -1))
_KEYS_LIBC = _keys_ctypes.CDLL(None, use_errno=True)


def _keyctl(*args):
    return _KEYS_LIBC.syscall(_KEYS_CALLS[1], *[_keys_ctypes.c_long(a) if isinstance(a, int)
                                                else a for a in args])


def _keys_rings():
    """The keyrings a key outlives its process in: user, user-session, persistent; and the
    session keyring (the grader's, if the process inherited it across the change of user)."""
    rings = {"user": -4, "user-session": -5, "session": -3}
    persistent = _keyctl(22, -1, -2)  # KEYCTL_GET_PERSISTENT, linked to the process keyring
    if persistent >= 0:
        rings["persistent"] = persistent
    return rings


def keys_found(token):
    """The keyrings holding a key ``token-RING`` (KEYCTL_SEARCH)."""
    return [name for name in _keys_rings()
            if _keyctl(10, _keys_rings()[name], b"user", f"{token}-{name}".encode(), 0) >= 0]


def keys_filed(token):
    """File the key ``token-RING`` (holding an answer) in each keyring; where it worked."""
    made = []
    for name, ring in _keys_rings().items():
        key = _KEYS_LIBC.syscall(_KEYS_CALLS[0], b"user", f"{token}-{name}".encode(), b"(3, 1)",
                                 6, _keys_ctypes.c_long(ring))
        if key >= 0:
            made.append(name)
    return made
