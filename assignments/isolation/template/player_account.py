"""Isolation player (Project 3: game playing tournament).

Your name:

Rename this file to player_<your account>.py (for example player_jdoe.py) and submit it alone.
Imports: Python's standard library only. Importing the file must not start anything: the
referee imports it, then calls choose_move once per turn.

The game: an 8 x 8 board, x starts at (1, 1) and moves first, o starts at (8, 8). Each turn
the player to move goes like a chess queen (any distance along a row, a column or a diagonal)
over empty squares only: the path and the destination may not be filled or hold the other
player. The square it leaves becomes filled. A player who cannot move loses.

Board: a list of 8 rows, each a list of 8 strings:
    '-' empty square
    '*' filled square
    'x' the square of player x
    'o' the square of player o
Coordinates are 1-indexed (row, col) with (1, 1) at the top left, so the square (row, col) is
board[row - 1][col - 1].

The clock: you have a total time budget for the whole game (a chess clock), not a limit per
move. The referee charges your clock the CPU time your process uses from receiving the board to
sending your answer (time.process_time() in your code measures the same clock), so a busy
machine does not eat your time. A reply that takes far longer in real time than your clock
allows (a sleep, a wait for input) loses on time too. If your clock runs out, you lose. If you
return an illegal move or anything that is not a move, or your code raises an exception, you
lose too.

Each game runs in a fresh process: module globals survive from one move to the next within a
game, never from one game to the next. The tests on single positions run in fresh processes too,
but their calls are not the moves of one game (the first call can come at any point of a game).
"""

import time


def choose_move(board, player, time_left):
    """Return your move for this turn.

    board: the position, as described above (a fresh copy: changing it changes nothing).
    player: 'x' or 'o', the side you play; it is always your turn when you are called.
    time_left: seconds of CPU time left on your clock for the rest of this game (a float).

    Return the square you move to as a tuple (row, col) of two ints from 1 to 8, or
    (None, None) when you have no legal move.

    Hint (from the handout): divide the time you have left among the moves and subtrees you
    still want to search, and stop along any path when you are close to running out. Keep a
    legal move ready at all times, and answer (None, None) at once when you cannot move.
    """
    # TODO: a time-based alpha-beta search with a good evaluation function.
    return (None, None)
