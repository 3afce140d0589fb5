"""
Reference solution for the value_fn revision of the Othello starter (submit it as agent.py).

Every search function takes the evaluation ``value_fn(board, color)`` first and uses it
wherever a node is valued without searching (depth limit reached, or no move for the mover);
run_ai passes compute_utility. The global ``state_cache`` is keyed by (board, player to move,
limit, node type), as the revision's starter suggests; alpha-beta stores only values found
strictly inside its window, so caching never changes an answer. Ordering sorts successors by
``value_fn`` for color, highest first (stable). Search semantics: docs/contract/othello.md.
"""
import ast
import math

from src import eprint, find_lines, get_possible_moves, get_score, play_move

state_cache = {}


def compute_utility(board, color):
    dark, light = get_score(board)
    return (dark - light) * (1 if color == 1 else -1)


def _expand(value_fn, board, mover, color, ordering):
    moves = [((c, r), play_move(board, mover, c, r)) for c, r in get_possible_moves(board, mover)]
    if ordering:
        moves.sort(key=lambda item: value_fn(item[1], color), reverse=True)
    return moves


def _lookup(kind, board, color, limit, caching):
    return state_cache.get((board, color if kind == "max" else 3 - color, limit, kind)) \
        if caching else None


def _store(kind, board, color, limit, caching, answer):
    if caching:
        state_cache[(board, color if kind == "max" else 3 - color, limit, kind)] = answer
    return answer


def minimax_min_node(value_fn, board, color, limit, caching=0):
    found = _lookup("min", board, color, limit, caching)
    if found is not None:
        return found
    best_move, best = None, value_fn(board, color)
    for move, child in (_expand(value_fn, board, 3 - color, color, 0) if limit else []):
        _, value = minimax_max_node(value_fn, child, color, limit - 1, caching)
        if best_move is None or value < best:
            best_move, best = move, value
    return _store("min", board, color, limit, caching, (best_move, best))


def minimax_max_node(value_fn, board, color, limit, caching=0):
    found = _lookup("max", board, color, limit, caching)
    if found is not None:
        return found
    best_move, best = None, value_fn(board, color)
    for move, child in (_expand(value_fn, board, color, color, 0) if limit else []):
        _, value = minimax_min_node(value_fn, child, color, limit - 1, caching)
        if best_move is None or value > best:
            best_move, best = move, value
    return _store("max", board, color, limit, caching, (best_move, best))


def select_move_minimax(value_fn, board, color, limit, caching=0):
    return minimax_max_node(value_fn, board, color, limit, caching)[0]


def alphabeta_min_node(value_fn, board, color, alpha, beta, limit, caching=0, ordering=0):
    found = _lookup("min", board, color, limit, caching)
    if found is not None:
        return found
    successors = _expand(value_fn, board, 3 - color, color, ordering) if limit else []
    if not successors:
        return _store("min", board, color, limit, caching, (None, value_fn(board, color)))
    best_move, best, upper = None, math.inf, beta
    for move, child in successors:
        _, value = alphabeta_max_node(value_fn, child, color, alpha, beta, limit - 1, caching,
                                      ordering)
        if value < best:
            best_move, best = move, value
            beta = min(beta, value)
        if best <= alpha:
            return best_move, best
    if alpha < best < upper:
        _store("min", board, color, limit, caching, (best_move, best))
    return best_move, best


def alphabeta_max_node(value_fn, board, color, alpha, beta, limit, caching=0, ordering=0):
    found = _lookup("max", board, color, limit, caching)
    if found is not None:
        return found
    successors = _expand(value_fn, board, color, color, ordering) if limit else []
    if not successors:
        return _store("max", board, color, limit, caching, (None, value_fn(board, color)))
    best_move, best, lower = None, -math.inf, alpha
    for move, child in successors:
        _, value = alphabeta_min_node(value_fn, child, color, alpha, beta, limit - 1, caching,
                                      ordering)
        if value > best:
            best_move, best = move, value
            alpha = max(alpha, value)
        if best >= beta:
            return best_move, best
    if lower < best < beta:
        _store("max", board, color, limit, caching, (best_move, best))
    return best_move, best


def select_move_alphabeta(value_fn, board, color, limit=-1, caching=0, ordering=0):
    return alphabeta_max_node(value_fn, board, color, -math.inf, math.inf, limit, caching,
                              ordering)[0]


def run_ai():
    print("Agent value_fn", flush=True)
    color, limit, minimax, caching, ordering = map(int, input().split(","))
    eprint("Running", "MINIMAX" if minimax == 1 else "ALPHA-BETA")
    while True:
        status = input().split()
        if status[0] == "FINAL":
            return
        board = ast.literal_eval(input())
        if minimax == 1:
            move = select_move_minimax(compute_utility, board, color, limit, caching)
        else:
            move = select_move_alphabeta(compute_utility, board, color, limit, caching, ordering)
        print("{} {}".format(move[0], move[1]), flush=True)


if __name__ == "__main__":
    run_ai()
