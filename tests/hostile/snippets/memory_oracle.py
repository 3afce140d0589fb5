# --- snippet "memory_oracle" (tests/hostile/snippets): answers read from the grader's memory
import ast as _memory_ast
import re as _memory_re


def memory_answer(board, vertical, limit):
    """Search the writable memory of every ancestor process (the grader among them) for this
    call's transcript as the spec holds it, and return the expected line that follows it."""
    pattern = _memory_re.compile(
        _memory_re.escape(f">>> g = DominoesGame({board!r})".encode()) + rb"\n\s*"
        + _memory_re.escape(f">>> g.get_best_move({vertical!r}, {limit!r})".encode())
        + rb"\n\s*([^\n]{1,60})")
    outcomes = []
    for pid, words in ancestor_command_lines():
        name = words[0].rsplit("/", 1)[-1] if words else "?"
        who = "grader" if "harness" in words else name if name == "unshare" else \
            "worker" if "zygote" in words else name
        try:
            with open(f"/proc/{pid}/maps") as maps:
                regions = [line.split()[:2] for line in maps]
            memory = open(f"/proc/{pid}/mem", "rb", 0)
        except OSError as exc:
            outcomes.append(f"{who} {type(exc).__name__}")
            if who == "grader":
                break
            continue
        with memory:
            outcomes.append(f"{who} opened")
            for addresses, permissions in regions:
                start, end = (int(part, 16) for part in addresses.split("-"))
                if not permissions.startswith("rw") or end - start > 1 << 28:
                    continue
                try:
                    memory.seek(start)
                    match = pattern.search(memory.read(end - start))
                except (OSError, OverflowError, ValueError):
                    continue
                if match:
                    say("grader memory: expected answer found")
                    return _memory_ast.literal_eval(match.group(1).decode().strip())
    say("ancestors' memory: " + (", ".join(outcomes) or "no ancestor visible"))
    return None


