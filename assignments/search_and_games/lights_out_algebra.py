"""Lights Out by linear algebra over GF(2): solvability and a minimum press set, without search.

Presses commute and pressing twice undoes a press, so a solution is a set of presses x with
A x = b over GF(2), where b is the board and column j of A is what press j toggles. The minimum
number of presses is the least weight of x0 + z over the null space z of A. This is an oracle
independent of the BFS reference: the tests compare the two, and the checkers use it to judge
boards of any size a student produces (``scramble``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from assignments.search_and_games.grid_geometry import grid_mask, parse_scene
from assignments.search_and_games.lights_out import Board, Move, moves, press


@dataclass(frozen=True)
class PressSpace:
    """Every press set that solves one board.

    Attributes:
        particular: one solving press set as a bitmask (bit r * cols + c is press (r, c)), or
            None when the board is unsolvable.
        null_basis: bitmasks of press sets that change nothing; the solutions are
            ``particular`` XOR any combination of them.
        cols: the board's width, to decode bitmasks.
    """

    particular: int | None
    null_basis: tuple[int, ...]
    cols: int


def press_space(board: Board) -> PressSpace:
    """Gauss-Jordan elimination of A x = b over GF(2) for ``board`` (not mutated)."""
    cols = len(board[0])
    all_off = tuple(tuple(False for _ in row) for row in board)
    presses = [grid_mask(press(all_off, move)) for move in moves(board)]
    size = len(presses)
    target = grid_mask(board)
    # A is symmetric, so the equation of cell i has the coefficients of press i.
    equations = [(presses[i], (target >> i) & 1) for i in range(size)]
    pivots: list[tuple[int, int, int]] = []  # (pivot variable, coefficients, right-hand side)
    for var in range(size):
        found = next((k for k, (coef, _) in enumerate(equations) if (coef >> var) & 1), None)
        if found is None:
            continue
        coef, rhs = equations.pop(found)
        equations = [(c ^ coef, r ^ rhs) if (c >> var) & 1 else (c, r) for c, r in equations]
        pivots = [(v, c ^ coef, r ^ rhs) if (c >> var) & 1 else (v, c, r) for v, c, r in pivots]
        pivots.append((var, coef, rhs))
    consistent = all(rhs == 0 for _, rhs in equations)  # remaining rows have no coefficients
    particular = sum(rhs << var for var, _, rhs in pivots) if consistent else None
    pivot_vars = {var for var, _, _ in pivots}
    null_basis = tuple(
        (1 << free) | sum(1 << var for var, coef, _ in pivots if (coef >> free) & 1)
        for free in range(size) if free not in pivot_vars)
    return PressSpace(particular, null_basis, cols)


def is_solvable(board: Board) -> bool:
    """Whether some sequence of presses turns every light of ``board`` off."""
    return press_space(board).particular is not None


def minimum_presses(board: Board) -> list[Move] | None:
    """A solution with the fewest presses, row-major, or None when ``board`` is unsolvable.

    Tries all 2**k solutions, k being the null space's dimension (4 on a 4x4 board, 0 on most
    small boards), so it is meant for boards up to about 10x10.
    """
    space = press_space(board)
    if space.particular is None:
        return None
    best = space.particular
    for combination in range(1, 1 << len(space.null_basis)):
        candidate = space.particular
        for k, vector in enumerate(space.null_basis):
            if (combination >> k) & 1:
                candidate ^= vector
        if bin(candidate).count("1") < bin(best).count("1"):
            best = candidate
    return [divmod(bit, space.cols) for bit in range(best.bit_length()) if (best >> bit) & 1]


def board_facts(board: Board) -> dict[str, Any]:
    """The rules of one board size as data: ``toggles`` (for each press, row-major, the bitmask
    of the lights it toggles; bit ``r * cols + c`` is light (r, c)) and ``null_basis`` (press
    sets that change nothing: a board can be solved exactly when it toggles an even number of
    lights of each). With these a checker replays presses and tells solvable boards without
    the rules (:mod:`assignments.search_and_games.checkers`)."""
    all_off = tuple(tuple(False for _ in row) for row in board)
    return {"toggles": [grid_mask(press(all_off, move)) for move in moves(board)],
            "null_basis": list(press_space(board).null_basis)}


def precomputed(options: Mapping[str, Any]) -> dict[str, Any]:
    """What ``gamegrader generate`` stores for a ``find_solution`` or ``scramble`` case (its
    ``precompute``): :func:`board_facts` of the board in ``options`` (``board`` or ``start``,
    rows of ``.``/``X``), and of its ``sanity`` board under ``sanity``."""
    key = "board" if "board" in options else "start"
    data = board_facts(parse_scene("\n".join(options[key])))
    if "sanity" in options:
        data["sanity"] = precomputed(options["sanity"])
    return data


__all__ = ["PressSpace", "board_facts", "is_solvable", "minimum_presses", "precomputed",
           "press_space"]
