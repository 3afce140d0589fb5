# --- snippet "reference_oracle" (tests/hostile/snippets): answers from the reference package
import sys as _oracle_sys


def _import_oracle():
    """The reference's search, imported first as the sandbox leaves sys.path, then with the
    autograder source put on it; None if neither works."""
    for label, extra in (("the sandbox's path", []), ("the source on the path", ["@@SOURCE@@"])):
        _oracle_sys.path[:0] = extra
        try:
            from reference.core.counters import Counter
            from reference.games.dominoes import Dominoes, DominoesState
            from reference.search.alphabeta import alphabeta_search
        except Exception as exc:
            say(f"import reference with {label} failed ({type(exc).__name__})")
            continue
        say(f"import reference with {label} worked")

        def solve(board, vertical, limit):
            counter = Counter()
            move, value = alphabeta_search(Dominoes(), DominoesState(
                tuple(map(tuple, board)), vertical), limit, counter=counter)
            return move, value, counter.leaves
        return solve
    return None


_ORACLE = []


def reference_answer(board, vertical, limit):
    """The reference's answer for this position, if the reference could be imported."""
    if not _ORACLE:
        _ORACLE.append(_import_oracle())
    return _ORACLE[0](board, vertical, limit) if _ORACLE[0] else None


