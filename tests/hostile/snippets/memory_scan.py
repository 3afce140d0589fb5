# --- snippet "memory_scan" (tests/hostile/snippets): search another process's memory
def scan_memory(pid, pattern):
    """Yield every match of ``pattern`` (a bytes regex) in the writable memory of ``pid`` (a
    number, or "self"). Raises OSError (at the first ``next``) if the memory cannot be read."""
    with open(f"/proc/{pid}/maps") as maps:
        regions = [line.split()[:2] for line in maps]
    with open(f"/proc/{pid}/mem", "rb", 0) as memory:
        for addresses, permissions in regions:
            start, end = (int(part, 16) for part in addresses.split("-"))
            if not permissions.startswith("rw") or end - start > 1 << 28:
                continue
            try:
                memory.seek(start)
                data = memory.read(end - start)
            except (OSError, OverflowError, ValueError):
                continue
            yield from pattern.finditer(data)
