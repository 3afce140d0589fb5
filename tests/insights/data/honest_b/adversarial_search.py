############################################################
# Homework 4: Games and Adversarial Search (adversarial_search.py)
############################################################

student_name = "Independent Honest Student"

import random

INFINITY = 10 ** 9


def create_dominoes_game(rows, cols):
    grid = []
    for _ in range(rows):
        grid.append([False for _ in range(cols)])
    return DominoesGame(grid)


def second_square(r, c, vertical):
    if vertical:
        return r + 1, c
    return r, c + 1


class DominoesGame(object):

    # Required
    def __init__(self, board):
        self.board = board
        self.height = len(board)
        self.width = 0 if len(board) == 0 else len(board[0])

    def get_board(self):
        return self.board

    def reset(self):
        for r in range(self.height):
            for c in range(self.width):
                self.board[r][c] = False

    def is_legal_move(self, row, col, vertical):
        other_row, other_col = second_square(row, col, vertical)
        inside = (row >= 0 and col >= 0 and other_row < self.height
                  and other_col < self.width)
        if not inside:
            return False
        if self.board[row][col] or self.board[other_row][other_col]:
            return False
        return True

    def legal_moves(self, vertical):
        r = 0
        while r < self.height:
            c = 0
            while c < self.width:
                if self.is_legal_move(r, c, vertical):
                    yield r, c
                c += 1
            r += 1

    def perform_move(self, row, col, vertical):
        other_row, other_col = second_square(row, col, vertical)
        self.board[row][col] = True
        self.board[other_row][other_col] = True

    def game_over(self, vertical):
        for _ in self.legal_moves(vertical):
            return False
        return True

    def copy(self):
        return DominoesGame([list(line) for line in self.board])

    def successors(self, vertical):
        for move in self.legal_moves(vertical):
            after = self.copy()
            after.perform_move(move[0], move[1], vertical)
            yield move, after

    def get_random_move(self, vertical):
        options = [m for m in self.legal_moves(vertical)]
        return random.choice(options)

    # Required
    def get_best_move(self, vertical, limit):
        counter = {"leaves": 0}
        me = vertical

        def score(position):
            mine = sum(1 for _ in position.legal_moves(me))
            theirs = sum(1 for _ in position.legal_moves(not me))
            return mine - theirs

        def search(position, turn, lower, upper, remaining, maximizing):
            if remaining == 0 or position.game_over(turn):
                counter["leaves"] += 1
                return None, score(position)
            chosen = None
            if maximizing:
                best = -INFINITY
                for move, after in position.successors(turn):
                    _, result = search(after, not turn, lower, upper, remaining - 1, False)
                    if result > best:
                        best, chosen = result, move
                        lower = max(lower, best)
                    if best >= upper:
                        break
            else:
                best = INFINITY
                for move, after in position.successors(turn):
                    _, result = search(after, not turn, lower, upper, remaining - 1, True)
                    if result < best:
                        best, chosen = result, move
                        upper = min(upper, best)
                    if best <= lower:
                        break
            return chosen, best

        move, value = search(self, vertical, -INFINITY, INFINITY, limit, True)
        return move, value, counter["leaves"]
