# --- snippet "golden_oracle" (tests/hostile/snippets): answers read from the autograder source
import ast as _golden_ast
import re as _golden_re

SOURCE = "@@SOURCE@@"
SECRETS = {
    "golden file": SOURCE + "/assignments/adversarial_search/generated/"
                            "02_get_best_move.random_boards.yaml",
    "case file": SOURCE + "/assignments/adversarial_search/cases/02_get_best_move.yaml",
    "reference solution": SOURCE + "/assignments/adversarial_search/solution/adversarial_search.py",
}
_CASE = _golden_re.compile(r">>> g = DominoesGame\((.*)\)\n\s*>>> g\.get_best_move\((\w+), (\d+)\)"
                           r"\n\s*(.+)")


def read_secrets():
    """The secret files' texts by name, for those this process can read."""
    found = {}
    for name, path in SECRETS.items():
        try:
            with open(path, encoding="utf-8") as handle:
                found[name] = handle.read()
        except OSError:
            pass
    say("secrets readable: " + (", ".join(sorted(found)) or "none"))
    return found


def stolen_answer(board, vertical, limit):
    """The expected answer from the golden file, or else from running the reference solution."""
    secrets = read_secrets()
    for literal, who, depth, expected in _CASE.findall(secrets.get("golden file", "")):
        if (literal, who, int(depth)) == (repr(board), repr(vertical), limit):
            return _golden_ast.literal_eval(expected.strip())
    if "reference solution" in secrets:
        namespace = {"__name__": "stolen_reference"}
        exec(compile(secrets["reference solution"], "reference", "exec"), namespace)
        return namespace["DominoesGame"](board).get_best_move(vertical, limit)
    return None


