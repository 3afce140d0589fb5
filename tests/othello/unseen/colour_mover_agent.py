"""
A colour-only (Columbia) Othello agent as its students wrote it, with the other reading of a
min node's colour: there ``color`` is the player to move (the opponent), and the value is the
AI's. The alpha-beta nodes take the depth counter and limit the starter's comment proposes.
"""

import sys

from othello_shared import get_possible_moves, get_score, play_move

DEPTH = 16  # deep enough for 4x4: the search reaches the end of the game


def eprint(*args, **kwargs):
    print(*args, file=sys.stderr, **kwargs)


def compute_utility(board, color):
    dark, light = get_score(board)
    if color == 1:
        return dark - light
    return light - dark


############ MINIMAX ###############################

def minimax_min_node(board, color):  # color is the player to move: the opponent
    ai = 2 if color == 1 else 1
    moves = get_possible_moves(board, color)
    if len(moves) == 0:
        return compute_utility(board, ai)
    values = [minimax_max_node(play_move(board, color, m[0], m[1]), ai) for m in moves]
    return min(values)


def minimax_max_node(board, color):
    moves = get_possible_moves(board, color)
    if len(moves) == 0:
        return compute_utility(board, color)
    opponent = 2 if color == 1 else 1
    values = [minimax_min_node(play_move(board, color, m[0], m[1]), opponent) for m in moves]
    return max(values)


def select_move_minimax(board, color):
    best, best_move = float("-inf"), None
    for move in get_possible_moves(board, color):
        value = minimax_min_node(play_move(board, color, move[0], move[1]), 3 - color)
        if value > best:
            best, best_move = value, move
    return best_move


############ ALPHA-BETA PRUNING #####################

#alphabeta_min_node(board, color, alpha, beta, level, limit)
def alphabeta_min_node(board, color, alpha, beta, level, limit):  # color moves here
    ai = 2 if color == 1 else 1
    moves = get_possible_moves(board, color)
    if len(moves) == 0 or level == limit:
        return compute_utility(board, ai)
    value = float("inf")
    for move in moves:
        child = play_move(board, color, move[0], move[1])
        value = min(value, alphabeta_max_node(child, ai, alpha, beta, level + 1, limit))
        if value <= alpha:
            return value
        beta = min(beta, value)
    return value


#alphabeta_max_node(board, color, alpha, beta, level, limit)
def alphabeta_max_node(board, color, alpha, beta, level, limit):
    moves = get_possible_moves(board, color)
    if len(moves) == 0 or level == limit:
        return compute_utility(board, color)
    value = float("-inf")
    for move in moves:
        child = play_move(board, color, move[0], move[1])
        value = max(value, alphabeta_min_node(child, 3 - color, alpha, beta, level + 1,
                                              limit))
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return value


def select_move_alphabeta(board, color):
    alpha, best_move = float("-inf"), None
    for move in get_possible_moves(board, color):
        child = play_move(board, color, move[0], move[1])
        value = alphabeta_min_node(child, 3 - color, alpha, float("inf"), 1, DEPTH)
        if best_move is None or value > alpha:
            alpha, best_move = value, move
    return best_move


####################################################
def run_ai():
    print("Minimax AI")  # First line is the name of this AI
    color = int(input())  # Then we read the color: 1 for dark (goes first), 2 for light.
    while True:
        next_input = input()
        status = next_input.strip().split()[0]
        if status == "FINAL":
            print()
        else:
            board = eval(input())
            movei, movej = select_move_alphabeta(board, color)
            print("{} {}".format(movei, movej))


if __name__ == "__main__":
    run_ai()
