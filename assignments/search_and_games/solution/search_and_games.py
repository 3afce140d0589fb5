"""Reference solution of Homework 2: Search and Games, written against the student API.

This file can be submitted as a student would. The Dominoes section between the splice markers
is copied from assignments/adversarial_search/solution/adversarial_search.py by
``python -m assignments.search_and_games.splice --write``; edit it there, never here.
"""
from __future__ import annotations

import collections
import heapq
import math
import random

student_name = "Reference Solution"

############################################################
# Section 1: Lights Out
############################################################


class LightsOutPuzzle(object):
    """A Lights Out board: board[row][col] is True when that light is on."""

    def __init__(self, board):
        self.board = [list(row) for row in board]
        self.rows = len(self.board)
        self.cols = len(self.board[0]) if self.board else 0

    def get_board(self):
        return self.board

    def perform_move(self, row, col):
        for r, c in ((row, col), (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < self.rows and 0 <= c < self.cols:
                self.board[r][c] = not self.board[r][c]

    def scramble(self):
        for row in range(self.rows):
            for col in range(self.cols):
                if random.random() < 0.5:
                    self.perform_move(row, col)

    def is_solved(self):
        return not any(any(row) for row in self.board)

    def copy(self):
        return LightsOutPuzzle(self.board)

    def successors(self):
        for row in range(self.rows):
            for col in range(self.cols):
                puzzle = self.copy()
                puzzle.perform_move(row, col)
                yield (row, col), puzzle

    def key(self):
        """The board as a tuple of tuples, usable in a set."""
        return tuple(tuple(row) for row in self.board)

    def find_solution(self):
        """Breadth-first graph search; a shortest list of moves, or None if unsolvable."""
        if self.is_solved():
            return []
        parents = {self.key(): None}
        frontier = collections.deque([self])
        while frontier:
            puzzle = frontier.popleft()
            for move, child in puzzle.successors():
                child_key = child.key()
                if child_key in parents:
                    continue
                parents[child_key] = (puzzle.key(), move)
                if child.is_solved():
                    return _moves_to(parents, child_key)
                frontier.append(child)
        return None


def _moves_to(parents, key):
    moves = []
    while parents[key] is not None:
        key, move = parents[key]
        moves.append(move)
    moves.reverse()
    return moves


def create_puzzle(rows, cols):
    return LightsOutPuzzle([[False] * cols for row in range(rows)])


############################################################
# Section 2: Grid Navigation
############################################################


def _is_free(point, scene):
    row, col = point
    return 0 <= row < len(scene) and 0 <= col < len(scene[0]) and not scene[row][col]


def find_path(start, goal, scene):
    """A* with the straight-line heuristic over the 8 moves; the list of points, or None."""
    if not _is_free(start, scene) or not _is_free(goal, scene):
        return None
    costs = {start: 0.0}
    parents = {start: None}
    frontier = [(math.dist(start, goal), 0.0, start)]
    while frontier:
        _, cost, point = heapq.heappop(frontier)
        if cost > costs[point]:
            continue
        if point == goal:
            path = [point]
            while parents[path[-1]] is not None:
                path.append(parents[path[-1]])
            path.reverse()
            return path
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                child = (point[0] + dr, point[1] + dc)
                if child == point or not _is_free(child, scene):
                    continue
                child_cost = cost + math.hypot(dr, dc)
                if child not in costs or child_cost < costs[child]:
                    costs[child] = child_cost
                    parents[child] = point
                    estimate = child_cost + math.dist(child, goal)
                    heapq.heappush(frontier, (estimate, child_cost, child))
    return None


############################################################
# Section 3: Dominoes Game
############################################################

# >>> spliced from assignments/adversarial_search/solution/adversarial_search.py
import copy


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
# <<< end of spliced section
