# A sample student submission for the demo (renamed by a browser download, as Gradescope users
# often do). It has one realistic bug: positions where the player to move is stuck are not
# counted as leaves, so some leaf counts are too low.

student_name = "Sample Student"


class DominoesGame(object):

    def __init__(self, board):
        self.board = board

    def get_board(self):
        return self.board

    def reset(self):
        self.board = [[False for _ in row] for row in self.board]

    def is_legal_move(self, row, col, vertical):
        r2, c2 = (row + 1, col) if vertical else (row, col + 1)
        inside = 0 <= row < len(self.board) and 0 <= col < len(self.board[0]) \
            and r2 < len(self.board) and c2 < len(self.board[0])
        return inside and not self.board[row][col] and not self.board[r2][c2]

    def legal_moves(self, vertical):
        return ((r, c) for r in range(len(self.board)) for c in range(len(self.board[0]))
                if self.is_legal_move(r, c, vertical))

    def perform_move(self, row, col, vertical):
        self.board[row][col] = True
        self.board[row + vertical][col + (not vertical)] = True

    def game_over(self, vertical):
        return next(self.legal_moves(vertical), None) is None

    def copy(self):
        return DominoesGame([list(row) for row in self.board])

    def successors(self, vertical):
        for move in self.legal_moves(vertical):
            child = self.copy()
            child.perform_move(move[0], move[1], vertical)
            yield move, child

    def score(self, me):
        return len(list(self.legal_moves(me))) - len(list(self.legal_moves(not me)))

    def get_best_move(self, vertical, limit):
        self.leaves = 0

        def search(game, turn, alpha, beta, depth, maximizing):
            if depth == 0:
                self.leaves += 1
                return game.score(vertical), None
            if game.game_over(turn):
                return game.score(vertical), None  # bug: this leaf is not counted
            best_move = None
            best = float("-inf") if maximizing else float("inf")
            for move, child in game.successors(turn):
                value, _ = search(child, not turn, alpha, beta, depth - 1, not maximizing)
                if maximizing and value > best:
                    best, best_move = value, move
                    alpha = max(alpha, best)
                elif not maximizing and value < best:
                    best, best_move = value, move
                    beta = min(beta, best)
                if (maximizing and best >= beta) or (not maximizing and best <= alpha):
                    break
            return best, best_move

        value, move = search(self, vertical, float("-inf"), float("inf"), limit, True)
        return move, value, self.leaves


def create_dominoes_game(rows, cols):
    return DominoesGame([[False] * cols for _ in range(rows)])
