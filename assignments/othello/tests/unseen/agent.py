"""
An AI player for Othello, written as students of the 2020-2024 starter write it (issue 50's
corpus: a board-keyed global cache, successors sorted by utility, node results as tuples).
The tests edit it in one place each to make the agents of one class; unedited it earns 100.
"""

import sys

# You can use the functions in othello_shared to write your AI
from othello_shared import get_possible_moves, get_score, play_move

cached_states = {}


# you can use this for debugging, as it will print to sterr and not stdout
def eprint(*args, **kwargs):
    print(*args, file=sys.stderr, **kwargs)


# Method to compute utility value of terminal state
def compute_utility(board, color):
    dark, light = get_score(board)
    if color == 1:
        return dark - light
    return light - dark


# Better heuristic value of board
def compute_heuristic(board, color):  # not implemented, optional
    return 0


def other(color):
    if color == 1:
        return 2
    return 1


def successors(board, player, color, ordering):
    result = []
    for move in get_possible_moves(board, player):
        result.append((move, play_move(board, player, move[0], move[1])))
    if ordering:
        result.sort(key=lambda pair: compute_utility(pair[1], color), reverse=True)
    return result


############ MINIMAX ###############################
def minimax_min_node(board, color, limit, caching=0):
    if caching and board in cached_states:
        return cached_states[board]
    moves = get_possible_moves(board, other(color))
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    best_move, best_value = None, float("inf")
    for move, child in successors(board, other(color), color, 0):
        value = minimax_max_node(child, color, limit - 1, caching)[1]
        if value < best_value:
            best_move, best_value = move, value
    if caching:
        cached_states[board] = (best_move, best_value)
    return best_move, best_value


def minimax_max_node(board, color, limit, caching=0):  # returns highest possible utility
    if caching and board in cached_states:
        return cached_states[board]
    moves = get_possible_moves(board, color)
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    best_move, best_value = None, float("-inf")
    for move, child in successors(board, color, color, 0):
        value = minimax_min_node(child, color, limit - 1, caching)[1]
        if value > best_value:
            best_move, best_value = move, value
    if caching:
        cached_states[board] = (best_move, best_value)
    return best_move, best_value


def select_move_minimax(board, color, limit, caching=0):
    """
    Given a board and a player color, decide on a move.
    The return value is a tuple of integers (i,j), where
    i is the column and j is the row on the board.
    """
    return minimax_max_node(board, color, limit, caching)[0]


############ ALPHA-BETA PRUNING #####################
def alphabeta_min_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    if caching and board in cached_states:
        return cached_states[board]
    moves = get_possible_moves(board, other(color))
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    low = beta
    best_move, best_value = None, float("inf")
    for move, child in successors(board, other(color), color, ordering):
        value = alphabeta_max_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value < best_value:
            best_move, best_value = move, value
        if best_value <= alpha:
            return best_move, best_value
        beta = min(beta, best_value)
    if caching and alpha < best_value < low:
        cached_states[board] = (best_move, best_value)
    return best_move, best_value


def alphabeta_max_node(board, color, alpha, beta, limit, caching=0, ordering=0):
    if caching and board in cached_states:
        return cached_states[board]
    moves = get_possible_moves(board, color)
    if not moves or limit == 0:
        return None, compute_utility(board, color)
    high = alpha
    best_move, best_value = None, float("-inf")
    for move, child in successors(board, color, color, ordering):
        value = alphabeta_min_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value > best_value:
            best_move, best_value = move, value
        if best_value >= beta:
            return best_move, best_value
        alpha = max(alpha, best_value)
    if caching and high < best_value < beta:
        cached_states[board] = (best_move, best_value)
    return best_move, best_value


def select_move_alphabeta(board, color, limit, caching=0, ordering=0):
    """
    Given a board and a player color, decide on a move.
    The return value is a tuple of integers (i,j), where
    i is the column and j is the row on the board.
    """
    return alphabeta_max_node(board, color, float("-inf"), float("inf"), limit, caching,
                              ordering)[0]


####################################################
def run_ai():
    """
    This function establishes communication with the game manager.
    It first introduces itself and receives its color.
    Then it repeatedly receives the current score and current board state
    until the game is over.
    """
    print("Othello AI")  # First line is the name of this AI
    arguments = input().split(",")

    color = int(arguments[0])  # Player color: 1 for dark (goes first), 2 for light.
    limit = int(arguments[1])  # Depth limit
    minimax = int(arguments[2])  # Minimax or alpha beta
    caching = int(arguments[3])  # Caching
    ordering = int(arguments[4])  # Node-ordering (for alpha-beta only)

    while True:  # This is the main loop
        # Read in the current game status, for example:
        # "SCORE 2 2" or "FINAL 33 31" if the game is over.
        next_input = input()
        status = next_input.strip().split()[0]

        if status == "FINAL":  # Game is over.
            print()
        else:
            board = eval(input())  # Read in the input and turn it into a Python
            # object. The format is a list of rows. The
            # squares in each row are represented by
            # 0 : empty square
            # 1 : dark disk (player 1)
            # 2 : light disk (player 2)

            # Select the move and send it to the manager
            if minimax == 1:  # run this if the minimax flag is given
                movei, movej = select_move_minimax(board, color, limit, caching)
            else:  # else run alphabeta
                movei, movej = select_move_alphabeta(board, color, limit, caching, ordering)

            print("{} {}".format(movei, movej))


if __name__ == "__main__":
    run_ai()
