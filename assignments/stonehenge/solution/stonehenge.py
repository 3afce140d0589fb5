"""
Stonehenge: StonehengeGame and StonehengeState (a complete solution written
against the starter API, submitted as a student would submit it).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from game import Game
from game_state import GameState

Cell = Tuple[int, int]
LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'


class StonehengeGame(Game):
    """
    A game of Stonehenge.

    current_state - the state the game is being played from.
    """
    current_state: 'StonehengeState'

    def __init__(self, p1_starts: bool) -> None:
        """
        Initialize this game, reading the side length with one input() call.
        """
        side = int(input("Enter the side length of the board: "))
        self.current_state = StonehengeState(p1_starts, Board(side))

    def get_instructions(self) -> str:
        """
        Return the rules of Stonehenge.
        """
        return ("Players take turns claiming cells, named by their letters. "
                "Holding at least half of the cells of a ley-line captures "
                "it for good. The first player to capture at least half of "
                "the ley-lines wins.")

    def is_over(self, state: 'StonehengeState') -> bool:
        """
        Return whether a player owns at least half of the ley-lines in state.
        """
        return state.winner() is not None

    def is_winner(self, player: str) -> bool:
        """
        Return whether player has won in self.current_state.
        """
        return self.current_state.winner() == player

    def str_to_move(self, string: str) -> Any:
        """
        Return the cell letter named by string.

        >>> StonehengeGame.str_to_move(None, ' b ')
        'B'
        """
        return string.strip().upper()


class Board:
    """
    The geometry of a board of one side length: its rows of cells and its
    ley-lines. Shared by every state of a game; never changed.

    side - the side length.
    rows - the cells of each row, top to bottom, as (row, column) pairs.
    lines - every ley-line as a list of cells; rows first, then the down-left
            (/) lines, then the down-right (\\) lines.
    """
    side: int
    rows: List[List[Cell]]
    lines: List[List[Cell]]

    def __init__(self, side: int) -> None:
        """
        Build the geometry for side length side (1 to 5).
        """
        if not 1 <= side <= 5:
            raise ValueError('side length must be 1 to 5')
        self.side = side
        lengths = [length for length in range(2, side + 2)] + [side]
        self.rows = [[(r, c) for c in range(length)]
                     for r, length in enumerate(lengths)]
        self.cells = [cell for row in self.rows for cell in row]
        self.label = {cell: LETTERS[i] for i, cell in enumerate(self.cells)}
        self.slash = self._chains(self._down_left)
        self.backslash = self._chains(self._down_right)
        self.lines = self.rows + self.slash + self.backslash

    def _down_left(self, cell: Cell) -> Optional[Cell]:
        """
        Return the next cell down-left of cell, or None.
        """
        row, col = cell
        nxt = (row + 1, col) if row < self.side - 1 else (row + 1, col - 1)
        return nxt if nxt in self.label else None

    def _down_right(self, cell: Cell) -> Optional[Cell]:
        """
        Return the next cell down-right of cell, or None.
        """
        row, col = cell
        nxt = (row + 1, col + 1) if row < self.side - 1 else (row + 1, col)
        return nxt if nxt in self.label else None

    def _chains(self, step: Any) -> List[List[Cell]]:
        """
        Return the lines made by following step from every cell that no
        other cell steps to, in cell order.
        """
        targets = {step(cell) for cell in self.cells}
        chains = []
        for cell in self.cells:
            if cell not in targets:
                chain = [cell]
                while step(chain[-1]) is not None:
                    chain.append(step(chain[-1]))
                chains.append(chain)
        return chains


class StonehengeState(GameState):
    """
    A Stonehenge position.

    board - the shared geometry.
    owners - who holds each cell: '1', '2' or '' (unclaimed).
    lines - who owns each ley-line (in board.lines order): '1', '2' or ''.
    """
    board: Board
    owners: Dict[Cell, str]
    lines: List[str]

    def __init__(self, is_p1_turn: bool, board: Board,
                 owners: Optional[Dict[Cell, str]] = None,
                 lines: Optional[List[str]] = None) -> None:
        """
        Initialize a state; an empty board when owners and lines are None.
        """
        super().__init__(is_p1_turn)
        self.board = board
        self.owners = owners if owners is not None else {
            cell: '' for cell in board.cells}
        self.lines = lines if lines is not None else ['' for _ in board.lines]

    def winner(self) -> Optional[str]:
        """
        Return 'p1' or 'p2' if that player owns at least half of the
        ley-lines, otherwise None.
        """
        for digit in '12':
            if 2 * self.lines.count(digit) >= len(self.lines):
                return 'p' + digit
        return None

    def get_possible_moves(self) -> list:
        """
        Return the letters of the unclaimed cells in alphabetical order, or []
        once the game is over.
        """
        if self.winner() is not None:
            return []
        return [self.board.label[cell] for cell in self.board.cells
                if not self.owners[cell]]

    def make_move(self, move: Any) -> 'StonehengeState':
        """
        Return the state after the player to move claims cell move.
        """
        digit = '1' if self.p1_turn else '2'
        owners = dict(self.owners)
        claimed = [cell for cell in self.board.cells
                   if self.board.label[cell] == move][0]
        owners[claimed] = digit
        lines = list(self.lines)
        for i, line in enumerate(self.board.lines):
            held = len([cell for cell in line if owners[cell] == digit])
            if not lines[i] and held * 2 >= len(line):
                lines[i] = digit
        return StonehengeState(not self.p1_turn, self.board, owners, lines)

    def _marker(self, line: List[Cell]) -> str:
        """
        Return the marker of line: its owner's digit, or '@'.
        """
        index = next(i for i, known in enumerate(self.board.lines)
                     if known is line)
        return self.lines[index] or '@'

    def _row(self, row: int) -> str:
        """
        Return the row marker and cells of row, joined by ' - '.
        """
        items = [self._marker(self.board.rows[row])]
        for cell in self.board.rows[row]:
            items.append(self.owners[cell] or self.board.label[cell])
        return ' - '.join(items)

    def __str__(self) -> str:
        """
        Return the board picture.
        """
        board = self.board
        n = board.side
        starts = {line[0]: line for line in board.slash}
        ends = {line[-1]: line for line in board.backslash}
        out = [' ' * (2 * n + 4) + self._marker(starts[(0, 0)]) + '   '
               + self._marker(starts[(0, 1)]),
               ' ' * (2 * n + 3) + '/   /']
        for row in range(n - 1):
            pad = ' ' * (2 * (n - 1 - row))
            last = board.rows[row + 1][-1]
            out.append(pad + self._row(row) + '   '
                       + self._marker(starts[last]))
            out.append(pad + '   ' + '/ \\ ' * (row + 2) + '/')
        out.append(self._row(n - 1))
        out.append('     ' + '\\ / ' * n + '\\')
        widest_last = board.rows[n - 1][-1]
        out.append('  ' + self._row(n) + '   '
                   + self._marker(ends[widest_last]))
        out.append('       ' + '\\   ' * (n - 1) + '\\')
        out.append('        ' + '   '.join(
            self._marker(ends[cell]) for cell in board.rows[n]))
        return '\n'.join(out)

    def __repr__(self) -> Any:
        """
        Return the board and the player to move.
        """
        return 'StonehengeState(p1_turn={})\n{}'.format(self.p1_turn, self)

    def rough_outcome(self) -> float:
        """
        Return WIN if some move wins at once, LOSE if the game is over or
        every move lets the opponent win at once, DRAW otherwise.
        """
        if self.winner() is not None:
            return self.LOSE
        children = [self.make_move(move) for move in self.get_possible_moves()]
        if any(child.winner() is not None for child in children):
            return self.WIN
        if all(any(child.make_move(reply).winner() is not None
                   for reply in child.get_possible_moves())
               for child in children):
            return self.LOSE
        return self.DRAW


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
