"""Reference solution for the Dominoes assignment, written as a student would hand it in.

Self-contained on purpose: it is graded through the same sandbox as any submission, where the
``reference`` package cannot be imported. The trusted oracle for expected values is
``reference.games.dominoes`` + ``reference.search.alphabeta``; the conformance tests check that
the two agree on every case.
"""

import copy
import random

student_name = "Reference Solution"


class DominoesGame(object):

    def __init__(self, board):
        self.board = board
        self.rows = len(board)
        self.cols = len(board[0]) if board else 0

    def get_board(self):
        return self.board

    def reset(self):
        self.board = [[False] * self.cols for _ in range(self.rows)]

    def is_legal_move(self, row, col, vertical):
        row2, col2 = (row + 1, col) if vertical else (row, col + 1)
        if not (0 <= row and 0 <= col and row2 < self.rows and col2 < self.cols):
            return False
        return not self.board[row][col] and not self.board[row2][col2]

    def legal_moves(self, vertical):
        for row in range(self.rows):
            for col in range(self.cols):
                if self.is_legal_move(row, col, vertical):
                    yield (row, col)

    def perform_move(self, row, col, vertical):
        self.board[row][col] = True
        if vertical:
            self.board[row + 1][col] = True
        else:
            self.board[row][col + 1] = True

    def game_over(self, vertical):
        return not any(True for _ in self.legal_moves(vertical))

    def copy(self):
        return DominoesGame(copy.deepcopy(self.board))

    def successors(self, vertical):
        for row, col in self.legal_moves(vertical):
            new_game = self.copy()
            new_game.perform_move(row, col, vertical)
            yield (row, col), new_game

    def get_random_move(self, vertical):
        return random.choice(list(self.legal_moves(vertical)))

    def evaluate(self, vertical):
        """Moves available to ``vertical``'s player minus those of the opponent."""
        return (len(list(self.legal_moves(vertical)))
                - len(list(self.legal_moves(not vertical))))

    # Required
    def get_best_move(self, vertical, limit):
        leaves = [0]

        def max_value(game, player, alpha, beta, depth):
            if depth == 0 or game.game_over(player):
                leaves[0] += 1
                return game.evaluate(vertical), None
            value, best = float("-inf"), None
            for move, child in game.successors(player):
                child_value, _ = min_value(child, not player, alpha, beta, depth - 1)
                if child_value > value:
                    value, best = child_value, move
                    alpha = max(alpha, value)
                if value >= beta:
                    return value, best
            return value, best

        def min_value(game, player, alpha, beta, depth):
            if depth == 0 or game.game_over(player):
                leaves[0] += 1
                return game.evaluate(vertical), None
            value, best = float("inf"), None
            for move, child in game.successors(player):
                child_value, _ = max_value(child, not player, alpha, beta, depth - 1)
                if child_value < value:
                    value, best = child_value, move
                    beta = min(beta, value)
                if value <= alpha:
                    return value, best
            return value, best

        value, move = max_value(self, vertical, float("-inf"), float("inf"), limit)
        return move, value, leaves[0]


def create_dominoes_game(rows, cols):
    return DominoesGame([[False] * cols for _ in range(rows)])
