"""The Othello rules as they were before the rewrite for speed: the oracle of the fast rules.

Verbatim copies of the plain implementations of ``assignments/othello/rules.py`` (``old_trusted_*``)
and of the students' ``othello_shared.py`` (``old_shared_*``). Nothing in the project runs them:
``test_othello_rules_match_the_plain_rules.py`` checks the fast rules against them, and
``bench/bench_othello_rules.py`` times both side by side. Do not "improve" them.
"""
from __future__ import annotations

OLD_DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


# --- The trusted rules before the rewrite -----------------------------------------------------

def old_trusted_find_lines(board, col, row, player):
    size = len(board)
    other = 3 - player
    lines = []
    for dc, dr in OLD_DIRECTIONS:
        c, r = col + dc, row + dr
        run = []
        while 0 <= c < size and 0 <= r < size and board[r][c] == other:
            run.append((c, r))
            c, r = c + dc, r + dr
        if run and 0 <= c < size and 0 <= r < size and board[r][c] == player:
            lines.append(run)
    return lines


def old_trusted_get_possible_moves(board, player):
    size = len(board)
    return [(col, row) for col in range(size) for row in range(size)
            if board[row][col] == 0 and old_trusted_find_lines(board, col, row, player)]


def old_trusted_play_move(board, player, col, row):
    rows = [list(r) for r in board]
    rows[row][col] = player
    for line in old_trusted_find_lines(board, col, row, player):
        for c, r in line:
            rows[r][c] = player
    return tuple(tuple(r) for r in rows)


def old_trusted_is_terminal(board, player):
    size = len(board)
    return not any(board[row][col] == 0 and old_trusted_find_lines(board, col, row, player)
                   for col in range(size) for row in range(size))


# --- The students' othello_shared before the rewrite ---------------------------------------

def old_shared_find_lines(board, i, j, player):
    n = len(board)
    lines = []
    for di, dj in OLD_DIRECTIONS:
        u = i + di
        v = j + dj
        line = []
        closed = False
        while 0 <= u < n and 0 <= v < n:
            if board[v][u] == 0:
                break
            if board[v][u] == player:
                closed = True
                break
            line.append((u, v))
            u += di
            v += dj
        if closed and line:
            lines.append(line)
    return lines


def old_shared_get_possible_moves(board, player):
    n = len(board)
    moves = []
    for i in range(n):
        for j in range(n):
            if board[j][i] == 0 and old_shared_find_lines(board, i, j, player):
                moves.append((i, j))
    return moves


def old_shared_play_move(board, player, i, j):
    rows = [list(row) for row in board]
    rows[j][i] = player
    for line in old_shared_find_lines(board, i, j, player):
        for u, v in line:
            rows[v][u] = player
    return tuple(tuple(row) for row in rows)


def old_shared_get_score(board):
    dark = 0
    light = 0
    for row in board:
        for square in row:
            if square == 1:
                dark += 1
            elif square == 2:
                light += 1
    return dark, light
