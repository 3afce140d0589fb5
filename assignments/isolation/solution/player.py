"""Isolation player: time-managed iterative-deepening alpha-beta (reference solution).

Name: gamegrader reference solution

A self-contained student-API submission (standard library only), gradable like any student's
``player_<account>.py``. The referee calls ``choose_move(board, player, time_left)`` once per
turn; see ``assignments/isolation/template/player_account.py`` for the contract.

Evaluation: Isolation is lost by the first player without a move, so the value of a position is
mobility: my number of moves minus 1.5 times my opponent's. The weight above 1 makes the player
chase positions that shrink the opponent's options, which matters more than keeping its own
(a player needs only one move per turn). A decided position scores beyond any mobility value,
sooner wins and later losses first.

Time: the clock left, minus a reserve for the trip to the referee, is shared evenly among the
moves the player still expects to make (a quarter of the empty squares, at least 4), as the
handout suggests, and only a quarter of each share is planned for: planning 60% made a grading
of its games last 74 s on Gradescope's half CPU (39 s now), and a tenth still wins every graded
game. The referee charges the CPU time the process uses, so the player measures its search
with ``time.process_time``, the same clock:
on a loaded or throttled machine (Gradescope gives half a CPU) it then searches as deep as on an
idle one. Iterative deepening keeps the best move of the deepest finished search and starts no
new depth after half of the move's share has gone; a search that runs into the deadline is
dropped.
"""
from __future__ import annotations

import time

SIZE = 8
EMPTY = "-"
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
RESERVE = 0.2
SHARE = 0.25
OPPONENT_WEIGHT = 1.5
WIN = 1000.0


def _rays():
    """For each square index (row * SIZE + col, 0-based), its 8 rays of square indexes."""
    rays = []
    for row in range(SIZE):
        for col in range(SIZE):
            square_rays = []
            for dr, dc in DIRECTIONS:
                ray, r, c = [], row + dr, col + dc
                while 0 <= r < SIZE and 0 <= c < SIZE:
                    ray.append(r * SIZE + c)
                    r, c = r + dr, c + dc
                square_rays.append(ray)
            rays.append(square_rays)
    return rays


RAYS = _rays()


class OutOfTime(Exception):
    """The search passed its deadline."""


class Position:
    """The board as a list of blocked squares (filled or occupied) and the two players' squares.

    ``move`` and ``undo`` change it in place, which keeps the search fast.
    """

    def __init__(self, board, player):
        self.blocked = [cell != EMPTY for row in board for cell in row]
        self.where = {}
        for index, cell in enumerate(c for row in board for c in row):
            if cell in ("x", "o"):
                self.where[cell] = index
        self.me = player
        self.them = "o" if player == "x" else "x"

    def moves(self, who):
        """Squares ``who`` can reach, sorted ascending (row-major)."""
        found = []
        for ray in RAYS[self.where[who]]:
            for square in ray:
                if self.blocked[square]:
                    break
                found.append(square)
        found.sort()
        return found

    def mobility(self, who):
        count = 0
        for ray in RAYS[self.where[who]]:
            for square in ray:
                if self.blocked[square]:
                    break
                count += 1
        return count

    def move(self, who, square):
        """Move ``who`` to ``square``; returns the square it left (still blocked: now filled)."""
        left = self.where[who]
        self.blocked[square] = True
        self.where[who] = square
        return left

    def undo(self, who, square, left):
        self.blocked[square] = False
        self.where[who] = left

    def empty_squares(self):
        return self.blocked.count(False)


def evaluate(position, to_move):
    """Value for ``position.me``; ``to_move`` is the side whose turn it is."""
    mine = position.mobility(position.me)
    theirs = position.mobility(position.them)
    if (mine if to_move == position.me else theirs) == 0:
        decided = WIN + position.empty_squares()
        return -decided if to_move == position.me else decided
    return mine - OPPONENT_WEIGHT * theirs


def alphabeta(position, to_move, depth, alpha, beta, deadline):
    """Negamax alpha-beta: the value of the position for ``to_move``, searched ``depth`` plies."""
    if time.process_time() >= deadline:
        raise OutOfTime
    other = position.them if to_move == position.me else position.me
    moves = position.moves(to_move)
    sign = 1 if to_move == position.me else -1
    if depth == 0 or not moves:
        return sign * evaluate(position, to_move)
    best = -float("inf")
    for square in moves:
        left = position.move(to_move, square)
        value = -alphabeta(position, other, depth - 1, -beta, -alpha, deadline)
        position.undo(to_move, square, left)
        if value > best:
            best = value
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    return best


def search(position, moves, depth, deadline):
    """Best root move among ``moves`` (tried in that order) at ``depth``, and its value."""
    best_move, best_value, alpha = moves[0], -float("inf"), -float("inf")
    for square in moves:
        left = position.move(position.me, square)
        value = -alphabeta(position, position.them, depth - 1, -float("inf"), -alpha, deadline)
        position.undo(position.me, square, left)
        if value > best_value:
            best_move, best_value = square, value
            alpha = max(alpha, value)
    return best_move, best_value


def choose_move(board, player, time_left):
    """Return my move as (row, col), 1-indexed, or (None, None) when I cannot move."""
    started = time.process_time()
    position = Position(board, player)
    moves = position.moves(player)
    if not moves:
        return (None, None)
    best = moves[0]
    horizon = max(4, position.empty_squares() // 4)
    budget = SHARE * (time_left - RESERVE) / horizon
    deadline = started + budget
    depth = 1
    while budget > 0 and depth <= position.empty_squares():
        ordered = [best] + [m for m in moves if m != best]
        try:
            best, value = search(position, ordered, depth, deadline)
        except OutOfTime:
            break
        if abs(value) >= WIN or time.process_time() - started > budget / 2:
            break
        depth += 1
    return (best // SIZE + 1, best % SIZE + 1)
