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
            for match in scan_memory(pid, pattern):
                say("grader memory: expected answer found")
                return _memory_ast.literal_eval(match.group(1).decode().strip())
            outcomes.append(f"{who} opened")
        except OSError as exc:
            outcomes.append(f"{who} {type(exc).__name__}")
            if who == "grader":
                break
    say("ancestors' memory: " + (", ".join(outcomes) or "no ancestor visible"))
    return None


