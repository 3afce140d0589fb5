"""
Othello rule helpers, shared by the game manager, the players and your agent.

Do not change this file: the autograder supplies its own copy, whatever you upload.

Conventions used everywhere in this assignment:
  * a board is a tuple of row tuples, indexed board[row][col];
    0 is an empty square, 1 a dark disk, 2 a light disk;
  * a move is the pair (i, j) = (column, row);
  * player 1 (dark) moves first; the opponent of player p is 3 - p.
"""
from __future__ import annotations

# (column step, row step), clockwise starting with "up".
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def find_lines(board, i, j, player):
    """
    Return the lines of disks that player would flip by playing column i, row j.

    Each line is a list of (column, row) squares holding opponent disks, closed off by one
    of player's disks. There is one line per direction that captures something, so an empty
    list means the move captures nothing. Whether (i, j) itself is empty is not checked.
    """
    n = len(board)
    lines = []
    for di, dj in DIRECTIONS:
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


def get_possible_moves(board, player):
    """
    Return the list of legal moves (column, row) for player.

    The order is column-major: all moves of column 0 from the top row down, then column 1, ...
    so (0, 0), (0, 1), ..., (0, n-1), (1, 0), ...
    """
    n = len(board)
    moves = []
    for i in range(n):
        for j in range(n):
            if board[j][i] == 0 and find_lines(board, i, j, player):
                moves.append((i, j))
    return moves


def play_move(board, player, i, j):
    """
    Return the board after player puts a disk on column i, row j, and flips every captured
    line. The board passed in is not changed; the result is a new tuple of tuples.

    There is no legality check: on an illegal square the disk is simply placed.
    """
    rows = [list(row) for row in board]
    rows[j][i] = player
    for line in find_lines(board, i, j, player):
        for u, v in line:
            rows[v][u] = player
    return tuple(tuple(row) for row in rows)


def get_score(board):
    """
    Return (number of dark disks, number of light disks).
    """
    dark = 0
    light = 0
    for row in board:
        for square in row:
            if square == 1:
                dark += 1
            elif square == 2:
                light += 1
    return dark, light
