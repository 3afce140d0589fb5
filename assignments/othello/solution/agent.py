"""
Reference solution of the Othello agent (student API; submit it as agent.py).

Semantics follow docs/contract/othello.md (search semantics): color is always the maximising player;
every recursive call passes limit - 1 and a node with limit 0 is valued by compute_utility;
a node whose mover has no move is terminal; moves are visited in get_possible_moves order
(or by ordering) and replaced only on strict improvement. The cache is keyed by
(node kind, board, color, limit); alpha-beta stores only exact values (strictly inside the
window), so caching never changes an answer.
"""
from __future__ import annotations

import ast
import math
import sys

from othello_shared import get_possible_moves, get_score, play_move

cache = {}


def eprint(*args, **kwargs):
    print(*args, file=sys.stderr, **kwargs)


def compute_utility(board, color):
    dark, light = get_score(board)
    return dark - light if color == 1 else light - dark


def compute_heuristic(board, color):
    """Not graded; the reference competition agent lives in assignments/othello/heuristic.py."""
    return compute_utility(board, color)


def _successors(board, player, color, ordering):
    children = [((i, j), play_move(board, player, i, j))
                for i, j in get_possible_moves(board, player)]
    if ordering:
        children.sort(key=lambda child: compute_utility(child[1], color), reverse=True)
    return children


############ MINIMAX ###############################

def minimax_min_node(board, color, limit, caching=0):
    key = ("min", board, color, limit)
    if caching and key in cache:
        return cache[key]
    opponent = 3 - color
    moves = get_possible_moves(board, opponent) if limit != 0 else []
    best_move, best = None, compute_utility(board, color)
    if moves:
        best = math.inf
        for i, j in moves:
            value = minimax_max_node(play_move(board, opponent, i, j), color, limit - 1,
                                     caching)[1]
            if value < best:
                best_move, best = (i, j), value
    if caching:
        cache[key] = (best_move, best)
    return best_move, best


def minimax_max_node(board, color, limit, caching=0):
    key = ("max", board, color, limit)
    if caching and key in cache:
        return cache[key]
    moves = get_possible_moves(board, color) if limit != 0 else []
    best_move, best = None, compute_utility(board, color)
    if moves:
        best = -math.inf
        for i, j in moves:
            value = minimax_min_node(play_move(board, color, i, j), color, limit - 1,
                                     caching)[1]
            if value > best:
                best_move, best = (i, j), value
    if caching:
        cache[key] = (best_move, best)
    return best_move, best


def select_move_minimax(board, color, limit, caching=0):
    return minimax_max_node(board, color, limit, caching)[0]


############ ALPHA-BETA PRUNING #####################

def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    key = ("min", board, color, limit)
    if caching and key in cache:
        return cache[key]
    children = _successors(board, 3 - color, color, ordering) if limit != 0 else []
    if not children:
        answer = (None, compute_utility(board, color))
        if caching:
            cache[key] = answer
        return answer
    high = beta
    best_move, best = None, math.inf
    for move, child in children:
        value = alphabeta_max_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value < best:
            best_move, best = move, value
            beta = min(beta, best)
        if best <= alpha:
            return best_move, best
    if caching and alpha < best < high:
        cache[key] = (best_move, best)
    return best_move, best


def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    key = ("max", board, color, limit)
    if caching and key in cache:
        return cache[key]
    children = _successors(board, color, color, ordering) if limit != 0 else []
    if not children:
        answer = (None, compute_utility(board, color))
        if caching:
            cache[key] = answer
        return answer
    low = alpha
    best_move, best = None, -math.inf
    for move, child in children:
        value = alphabeta_min_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value > best:
            best_move, best = move, value
            alpha = max(alpha, best)
        if best >= beta:
            return best_move, best
    if caching and low < best < beta:
        cache[key] = (best_move, best)
    return best_move, best


def select_move_alphabeta(board, color, limit=-1, caching=0, ordering=0):
    return alphabeta_max_node(board, color, -math.inf, math.inf, limit, caching, ordering)[0]


####################################################

def run_ai():
    print("Reference", flush=True)
    settings = input().split(",")
    color = int(settings[0])
    limit, minimax, caching, ordering = -1, 0, 0, 0
    if len(settings) == 5:
        limit, minimax, caching, ordering = (int(field) for field in settings[1:])
    while True:
        try:
            status = input().split()
        except EOFError:
            return
        if not status or status[0] == "FINAL":
            return
        board = ast.literal_eval(input())
        if minimax == 1:
            i, j = select_move_minimax(board, color, limit, caching)
        else:
            i, j = select_move_alphabeta(board, color, limit, caching, ordering)
        print(i, j, flush=True)


if __name__ == "__main__":
    run_ai()
