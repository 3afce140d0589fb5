"""
Reference solution for the 2025 Othello starter (submit it as agent.py).

Written the way the 2025 starter invites: its global ``cache`` dict keyed by the board alone,
which the handout's words allow ("a dictionary that maps board states to their minimax value"):
within one search a board fixes the depth left, the player to move and the node kind. Alpha-beta
stores only values found strictly inside the window (exact values), so caching never changes an
answer. A leaf cut off by the depth limit is not stored: keyed by the board alone it would come
back as a later turn's root (with an even limit a turn's root is a leaf of the search two turns
before) with no move. Search semantics: docs/contract/othello.md.
"""
import ast
import sys

from othello_shared import find_lines, get_possible_moves, get_score, play_move

cache = {}

INF = float("inf")


def eprint(*args, **kwargs):
    print(*args, file=sys.stderr, **kwargs)


def compute_utility(board, color):
    dark, light = get_score(board)
    return dark - light if color == 1 else light - dark


def compute_heuristic(board, color):
    return compute_utility(board, color)


def children_of(board, mover, color, ordering):
    """(move, board after it) for each move of ``mover``; best-for-``color`` first on ordering."""
    result = []
    for column, row in get_possible_moves(board, mover):
        result.append(((column, row), play_move(board, mover, column, row)))
    if ordering:
        result.sort(key=lambda pair: compute_utility(pair[1], color), reverse=True)
    return result


def minimax_min_node(board, color, limit, caching=0):
    if caching and board in cache:
        return cache[board]
    answer = (None, compute_utility(board, color))
    if limit != 0:
        for move, child in children_of(board, 3 - color, color, 0):
            value = minimax_max_node(child, color, limit - 1, caching)[1]
            if answer[0] is None or value < answer[1]:
                answer = (move, value)
    if caching and limit != 0:
        cache[board] = answer
    return answer


def minimax_max_node(board, color, limit, caching=0):
    if caching and board in cache:
        return cache[board]
    answer = (None, compute_utility(board, color))
    if limit != 0:
        for move, child in children_of(board, color, color, 0):
            value = minimax_min_node(child, color, limit - 1, caching)[1]
            if answer[0] is None or value > answer[1]:
                answer = (move, value)
    if caching and limit != 0:
        cache[board] = answer
    return answer


def select_move_minimax(board, color, limit, caching=0):
    move, _ = minimax_max_node(board, color, limit, caching)
    return move


def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    if caching and board in cache:
        return cache[board]
    successors = children_of(board, 3 - color, color, ordering) if limit != 0 else []
    if not successors:
        return (None, compute_utility(board, color))
    best_move, best, window_top = None, INF, beta
    for move, child in successors:
        value = alphabeta_max_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value < best:
            best_move, best = move, value
        if best <= alpha:
            return best_move, best
        beta = min(beta, best)
    if caching and alpha < best < window_top:
        cache[board] = (best_move, best)
    return best_move, best


def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    if caching and board in cache:
        return cache[board]
    successors = children_of(board, color, color, ordering) if limit != 0 else []
    if not successors:
        return (None, compute_utility(board, color))
    best_move, best, window_bottom = None, -INF, alpha
    for move, child in successors:
        value = alphabeta_min_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value > best:
            best_move, best = move, value
        if best >= beta:
            return best_move, best
        alpha = max(alpha, best)
    if caching and window_bottom < best < beta:
        cache[board] = (best_move, best)
    return best_move, best


def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):
    move, _ = alphabeta_max_node(board, color, -INF, INF, limit, caching, ordering)
    return move


def run_ai():
    print("Agent 2025")
    arguments = input().split(",")
    color = int(arguments[0])
    limit, minimax, caching, ordering = -1, 0, 0, 0
    if len(arguments) == 5:
        limit, minimax, caching, ordering = [int(text) for text in arguments[1:]]
    while True:
        try:
            status = input().split()
        except EOFError:
            return
        if not status or status[0] == "FINAL":
            return
        board = ast.literal_eval(input())
        if minimax == 1:
            column, row = select_move_minimax(board, color, limit, caching)
        else:
            column, row = select_move_alphabeta(board, color, limit, caching, ordering)
        print("{} {}".format(column, row), flush=True)


if __name__ == "__main__":
    run_ai()
