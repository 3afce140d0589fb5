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

# For speed, what each square sees is worked out once per board size n (n up to 32), instead of
# stepping square by square on every call. A ray is what square (i, j) sees in one direction:
# the squares from (i, j) to the edge of the board, nearest first, kept as (u, v, rest) where
# (u, v) is the nearest square and rest the squares after it. Rays of fewer than 2 squares are
# left out: they cannot capture. _SQUARES[n] lists (i, j, rays of (i, j)) for every square of
# an n x n board in column-major order; _RAYS[n][i][j] holds the same rays by square.
_SQUARES = {}
_RAYS = {}
_LARGEST_TABLE = 32

# A full-depth search of a 4 x 4 board reaches the same positions again and again, and the
# handout's minimax searches it several times over: on boards of up to 4 x 4, the legal moves,
# the result of a move and the score of a position are remembered (at most
# _REMEMBERED_POSITIONS of each) instead of being worked out again. An answer is remembered for
# one board object, kept alive with it (so its id stays its own), and given back only for that
# very object, and only for plain boards (tuples of tuples of ints, which nothing can change;
# int players and squares), so an answer is exactly what working it out again would give.
# A legal-move list is a new list on every call, so yours can be changed freely. play_move
# gives one object per position (_BOARDS), so a position reached along two paths is recognised.
# Bigger boards rarely repeat a position.
_REMEMBERED_SIDE = 4
_REMEMBERED_POSITIONS = 1 << 17
_MOVES_SEEN = {}  # (id(board), player): (board, moves)
_PLAYS_SEEN = {}  # (id(board), player, i, j): (board, board after)
_SCORES_SEEN = {}  # id(board): (board, score)
_BOARDS = {}  # board: the one object play_move returns for it


def _plain_board(board):
    """Whether board is a tuple of tuples of ints (no bools or floats): then any board equal to
    it has the same squares of the same types, and every helper answers both alike."""
    try:
        if _BOARDS.get(board) is board:  # made by play_move: plain
            return True
    except TypeError:  # rows that are lists
        return False
    return type(board) is tuple and all(
        type(row) is tuple and all(type(square) is int for square in row) for row in board)


def _room_for(memo, board):
    """Whether memo may keep an answer about board: it has room, and board is plain. (Looking an
    answer up is written out in each helper: it runs on every call, a function call would
    cost as much as it saves.)"""
    return len(memo) < _REMEMBERED_POSITIONS and _plain_board(board)


def _rays_from(n, i, j):
    """The rays of square (i, j) on an n x n board, in DIRECTIONS order (any square works,
    even one off the board)."""
    rays = []
    for di, dj in DIRECTIONS:
        ray = []
        u, v = i + di, j + dj
        while 0 <= u < n and 0 <= v < n:
            ray.append((u, v))
            u, v = u + di, v + dj
        if len(ray) >= 2:
            rays.append((ray[0][0], ray[0][1], tuple(ray[1:])))
    return tuple(rays)


def _squares(n):
    """Every (i, j, rays of (i, j)) of an n x n board, in column-major order."""
    if n > _LARGEST_TABLE:  # too big to keep: work each square's rays out as we go
        return ((i, j, _rays_from(n, i, j)) for i in range(n) for j in range(n))
    if n not in _SQUARES:
        _RAYS[n] = tuple(tuple(_rays_from(n, i, j) for j in range(n)) for i in range(n))
        _SQUARES[n] = tuple((i, j, _RAYS[n][i][j]) for i in range(n) for j in range(n))
    return _SQUARES[n]


def _rays_of(n, i, j):
    """The rays of square (i, j): from the table when it covers the square."""
    if type(i) is int and type(j) is int and 0 <= i < n and 0 <= j < n <= _LARGEST_TABLE:
        _squares(n)
        return _RAYS[n][i][j]
    return _rays_from(n, i, j)


def find_lines(board, i, j, player):
    """
    Return the lines of disks that player would flip by playing column i, row j.

    Each line is a list of (column, row) squares holding opponent disks, closed off by one
    of player's disks. There is one line per direction that captures something, so an empty
    list means the move captures nothing. Whether (i, j) itself is empty is not checked.
    """
    lines = []
    for u, v, rest in _rays_of(len(board), i, j):
        square = board[v][u]
        if square == 0 or square == player:
            continue
        line = [(u, v)]
        for u, v in rest:
            square = board[v][u]
            if square == 0:
                break
            if square == player:
                lines.append(line)
                break
            line.append((u, v))
    return lines


def get_possible_moves(board, player):
    """
    Return the list of legal moves (column, row) for player.

    The order is column-major: all moves of column 0 from the top row down, then column 1, ...
    so (0, 0), (0, 1), ..., (0, n-1), (1, 0), ...
    """
    if type(board) is tuple and len(board) <= _REMEMBERED_SIDE and type(player) is int:
        key = (id(board), player)
        seen = _MOVES_SEEN.get(key)
        if seen is not None and seen[0] is board:
            return list(seen[1])
        moves = _legal_moves(board, player)
        if _room_for(_MOVES_SEEN, board):
            _MOVES_SEEN[key] = (board, tuple(moves))
        return moves
    return _legal_moves(board, player)


def _legal_moves(board, player):
    """get_possible_moves itself, every time."""
    moves = []
    for i, j, rays in _squares(len(board)):
        if board[j][i] == 0 and _captures(board, rays, player):
            moves.append((i, j))
    return moves


def _captures(board, rays, player):
    """Whether a disk of player at the start of these rays would flip anything."""
    for u, v, rest in rays:
        square = board[v][u]
        if square == 0 or square == player:
            continue
        for u, v in rest:
            square = board[v][u]
            if square == 0:
                break
            if square == player:
                return True
    return False


def play_move(board, player, i, j):
    """
    Return the board after player puts a disk on column i, row j, and flips every captured
    line. The board passed in is not changed; the result is a tuple of tuples.

    There is no legality check: on an illegal square the disk is simply placed.
    """
    if type(board) is tuple and len(board) <= _REMEMBERED_SIDE and type(player) is int \
            and type(i) is int and type(j) is int:
        key = (id(board), player, i, j)
        seen = _PLAYS_SEEN.get(key)
        if seen is not None and seen[0] is board:
            return seen[1]
        after = _play(board, player, i, j)
        if _room_for(_PLAYS_SEEN, board):
            after = _BOARDS.setdefault(after, after)
            _PLAYS_SEEN[key] = (board, after)
        return after
    return _play(board, player, i, j)


def _play(board, player, i, j):
    """play_move itself, every time."""
    rows = list(board)
    rows[j] = list(rows[j])
    rows[j][i] = player
    copied = {j % len(rows)}  # the rows copied so far: only rows that change are copied
    for line in find_lines(board, i, j, player):
        for u, v in line:
            if v not in copied:
                rows[v] = list(rows[v])
                copied.add(v)
            rows[v][u] = player
    return tuple(map(tuple, rows))


def get_score(board):
    """
    Return (number of dark disks, number of light disks).
    """
    if type(board) is tuple and len(board) <= _REMEMBERED_SIDE:
        seen = _SCORES_SEEN.get(id(board))
        if seen is not None and seen[0] is board:
            return seen[1]
        score = _count(board)
        if _room_for(_SCORES_SEEN, board):
            _SCORES_SEEN[id(board)] = (board, score)
        return score
    return _count(board)


def _count(board):
    """get_score itself, every time."""
    dark = 0
    light = 0
    for row in board:
        for square in row:
            if square == 1:
                dark += 1
            elif square == 2:
                light += 1
    return dark, light
