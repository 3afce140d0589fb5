"""
A colour-only (Columbia) Othello agent as its students wrote it: the alpha-beta nodes take the
depth counter and limit the starter's own comment proposes, and the search stops at the limit.
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

def minimax_min_node(board, color):
    opponent = 2 if color == 1 else 1
    moves = get_possible_moves(board, opponent)
    if len(moves) == 0:
        return compute_utility(board, color)
    values = [minimax_max_node(play_move(board, opponent, m[0], m[1]), color) for m in moves]
    return min(values)


def minimax_max_node(board, color):
    moves = get_possible_moves(board, color)
    if len(moves) == 0:
        return compute_utility(board, color)
    values = [minimax_min_node(play_move(board, color, m[0], m[1]), color) for m in moves]
    return max(values)


def select_move_minimax(board, color):
    best, best_move = float("-inf"), None
    for move in get_possible_moves(board, color):
        value = minimax_min_node(play_move(board, color, move[0], move[1]), color)
        if value > best:
            best, best_move = value, move
    return best_move


############ ALPHA-BETA PRUNING #####################

#alphabeta_min_node(board, color, alpha, beta, level, limit)
def alphabeta_min_node(board, color, alpha, beta, level, limit):
    opponent = 2 if color == 1 else 1
    moves = get_possible_moves(board, opponent)
    if len(moves) == 0 or level == limit:
        return compute_utility(board, color)
    value = float("inf")
    for move in moves:
        child = play_move(board, opponent, move[0], move[1])
        value = min(value, alphabeta_max_node(child, color, alpha, beta, level + 1, limit))
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
        value = max(value, alphabeta_min_node(child, color, alpha, beta, level + 1, limit))
        if value >= beta:
            return value
        alpha = max(alpha, value)
    return value


def select_move_alphabeta(board, color):
    alpha, best_move = float("-inf"), None
    for move in get_possible_moves(board, color):
        child = play_move(board, color, move[0], move[1])
        value = alphabeta_min_node(child, color, alpha, float("inf"), 1, DEPTH)
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
