"""
Reference solution for the colour-only Othello starter (submit it as agent.py).

Node functions return the node's value for color (color maximises in min nodes too) and search
to the end of the game; a node whose mover has no move is valued by compute_utility. Moves are
visited in get_possible_moves order and replaced only on strict improvement, so select_move
returns the first best move.
"""
import ast
import sys

from othello_shared import get_possible_moves, get_score, play_move


def eprint(*args, **kwargs):
    print(*args, file=sys.stderr, **kwargs)


def compute_utility(board, color):
    dark, light = get_score(board)
    mine, theirs = (dark, light) if color == 1 else (light, dark)
    return mine - theirs


def minimax_min_node(board, color):
    moves = get_possible_moves(board, 3 - color)
    if not moves:
        return compute_utility(board, color)
    return min(minimax_max_node(play_move(board, 3 - color, i, j), color) for i, j in moves)


def minimax_max_node(board, color):
    moves = get_possible_moves(board, color)
    if not moves:
        return compute_utility(board, color)
    return max(minimax_min_node(play_move(board, color, i, j), color) for i, j in moves)


def select_move_minimax(board, color):
    best_move, best_value = None, None
    for i, j in get_possible_moves(board, color):
        value = minimax_min_node(play_move(board, color, i, j), color)
        if best_value is None or value > best_value:
            best_move, best_value = (i, j), value
    return best_move


def alphabeta_min_node(board, color, alpha, beta):
    moves = get_possible_moves(board, 3 - color)
    if not moves:
        return compute_utility(board, color)
    value = float("inf")
    for i, j in moves:
        value = min(value, alphabeta_max_node(play_move(board, 3 - color, i, j), color,
                                              alpha, beta))
        if value <= alpha:
            return value
        beta = min(beta, value)
    return value


def alphabeta_max_node(board, color, alpha, beta):
    moves = get_possible_moves(board, color)
    if not moves:
        return compute_utility(board, color)
    value = float("-inf")
    for i, j in moves:
        value = max(value, alphabeta_min_node(play_move(board, color, i, j), color,
                                              alpha, beta))
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return value


def select_move_alphabeta(board, color):
    best_move, alpha = None, float("-inf")
    for i, j in get_possible_moves(board, color):
        value = alphabeta_min_node(play_move(board, color, i, j), color, alpha, float("inf"))
        if best_move is None or value > alpha:
            best_move, alpha = (i, j), value
    return best_move


def run_ai():
    print("Agent colour-only", flush=True)
    color = int(input())
    while True:
        status = input().split()
        if not status or status[0] == "FINAL":
            return
        board = ast.literal_eval(input())
        i, j = select_move_alphabeta(board, color)
        print(i, j, flush=True)


if __name__ == "__main__":
    run_ai()
