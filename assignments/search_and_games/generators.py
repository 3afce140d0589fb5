"""Hidden-case generators for Homework 2 (Lights Out, grid navigation), answers from the reference.

Each generator is ``gen(rng, count, **params) -> Iterator[dict]`` as docs/architecture.md
describes, run by ``gamegrader generate search_and_games``; the seed is recorded in the spec.
The transcript's expected output is the reference's answer; where any optimal answer is
accepted, ``options`` also holds what the checker in ``checkers.py`` needs (the board or scene
and the optimal length), so no checker recomputes the reference at grading time.
The Dominoes section includes the adversarial_search assignment's case files (``include:``).
"""
from __future__ import annotations

import random
from typing import Any, Iterator, Sequence

from assignments.search_and_games.grid import (
    GridNavigationProblem,
    Point,
    Scene,
    format_scene,
    grid_to_lists,
    is_free,
    parse_scene,
    path_length,
)
from assignments.search_and_games.lights_out import (
    Board,
    LightsOutProblem,
    Move,
    create_board,
    is_solved,
    moves,
    press,
)
from assignments.search_and_games.lights_out_algebra import is_solvable, press_space
from assignments.search_and_games.scene_kinds import (
    diagonal_walls_scene,
    drawn_scene,
    drawn_scene_names,
    maze_scene,
    random_scene,
    walled_in_scene,
)
from harness import render_doctest
from reference.core.symmetry import first_image_with_points
from reference.search.astar import astar_search
from reference.search.bfs import breadth_first_graph_search

CaseDict = dict[str, Any]
"""One generated case: name, doctest and optionally options (docs/architecture.md)."""


# --- Lights Out ------------------------------------------------------------------------------

def _random_board(rng: random.Random, rows: int, cols: int) -> Board:
    """Each light on with probability 1/2 (solvable or not)."""
    return random_scene(rng, rows, cols, 0.5)


def _scramble(board: Board, coins: random.Random) -> Board:
    """The handout's scramble: each press, row-major, made when a coin flip says so."""
    for move in moves(board):
        if coins.random() < 0.5:
            board = press(board, move)
    return board


def _scrambled_board(rng: random.Random, rows: int, cols: int) -> Board:
    """A solvable board: random presses on an all-off board."""
    return _scramble(create_board(rows, cols), rng)


def _size(rng: random.Random, max_rows: int, max_cols: int) -> tuple[int, int]:
    return rng.randint(1, max_rows), rng.randint(1, max_cols)


def _puzzle_setup(board: Board) -> str:
    return f"p = LightsOutPuzzle({grid_to_lists(board)!r})"


def _edge_kind(board: Board, move: Move) -> str:
    rows, cols = len(board), len(board[0])
    on_row_edge = move[0] in (0, rows - 1)
    on_col_edge = move[1] in (0, cols - 1)
    return "corner" if on_row_edge and on_col_edge else "edge" if on_row_edge or on_col_edge \
        else "inside"


def get_board_cases(rng: random.Random, count: int, *, max_rows: int = 5,
                    max_cols: int = 5) -> Iterator[CaseDict]:
    """``LightsOutPuzzle(board).get_board()`` gives the board back, on random boards."""
    for number in range(1, count + 1):
        board = _random_board(rng, *_size(rng, max_rows, max_cols))
        yield {"name": f"#{number} {len(board)}x{len(board[0])} board",
               "doctest": render_doctest([_puzzle_setup(board)], "p.get_board()",
                                         grid_to_lists(board))}


def create_puzzle_cases(rng: random.Random, count: int, *, max_rows: int = 7,
                        max_cols: int = 7) -> Iterator[CaseDict]:
    """``create_puzzle(rows, cols).get_board()`` on random sizes (1 row or column included)."""
    sizes = [(1, 1), (1, rng.randint(2, max_cols)), (rng.randint(2, max_rows), 1)]
    for number in range(1, count + 1):
        rows, cols = sizes[number - 1] if number <= len(sizes) else _size(rng, max_rows, max_cols)
        yield {"name": f"#{number} {rows}x{cols}",
               "doctest": render_doctest([f"p = create_puzzle({rows}, {cols})"], "p.get_board()",
                                         grid_to_lists(create_board(rows, cols)))}


def perform_move_cases(rng: random.Random, count: int, *, max_rows: int = 6, max_cols: int = 6,
                       max_moves: int = 4) -> Iterator[CaseDict]:
    """Moves on corners, edges and inside cells of random boards; the board after them.

    Case ``k`` stresses corners, edges, inside cells or a mix in turn (by ``k mod 4``), so
    every kind of cell is pressed whatever ``count`` is, once ``count >= 4``.
    """
    kinds = ["corner", "edge", "inside", "any"]
    made = 0
    while made < count:
        kind = kinds[made % len(kinds)]
        rows, cols = _size(rng, max_rows, max_cols)
        board = _random_board(rng, rows, cols)
        candidates = [m for m in moves(board) if kind in ("any", _edge_kind(board, m))]
        if not candidates:
            continue
        made += 1
        chosen = [rng.choice(candidates) for _ in range(rng.randint(1, max_moves))]
        after = board
        for move in chosen:
            after = press(after, move)
        setup = [_puzzle_setup(board)] + [f"p.perform_move({r}, {c})" for r, c in chosen]
        yield {"name": f"#{made} {rows}x{cols} board, {len(chosen)} moves ({kind})",
               "doctest": render_doctest(setup, "p.get_board()", grid_to_lists(after))}


def is_solved_cases(rng: random.Random, count: int, *, max_rows: int = 5,
                    max_cols: int = 5) -> Iterator[CaseDict]:
    """A solved and an unsolved board per case, in either order, so that a constant answer
    fails every case; unsolved boards have a single light on in every other case, so an
    ``is_solved`` that only looks at part of the board is caught."""
    for number in range(1, count + 1):
        solved = create_board(*_size(rng, max_rows, max_cols))
        rows, cols = _size(rng, max_rows, max_cols)
        unsolved = create_board(rows, cols)
        while is_solved(unsolved):
            lit = (rng.randrange(rows), rng.randrange(cols))
            unsolved = tuple(tuple((r, c) == lit for c in range(cols)) for r in range(rows)) \
                if number % 2 == 0 else _random_board(rng, rows, cols)
        first, other = (solved, unsolved) if rng.random() < 0.5 else (unsolved, solved)
        yield {"name": f"#{number} {len(first)}x{len(first[0])} and "
                       f"{len(other)}x{len(other[0])} boards",
               "doctest": _is_solved_transcript([_puzzle_setup(first)], first, other)}


def _is_solved_transcript(setup: Sequence[str], board: Board, other: Board) -> str:
    """``is_solved`` of ``p`` (made by ``setup``, ending as ``board``) and of a puzzle ``q`` on
    ``other``, asked in one example, so that the case is right only when both answers are."""
    return render_doctest([*setup, f"q = LightsOutPuzzle({grid_to_lists(other)!r})"],
                          "p.is_solved(), q.is_solved()", (is_solved(board), is_solved(other)))


def copy_cases(rng: random.Random, count: int, *, max_rows: int = 5,
               max_cols: int = 5) -> Iterator[CaseDict]:
    """A move on the original (odd cases) or on the copy (even cases) must not show in the
    other; both boards are shown afterwards."""
    for number in range(1, count + 1):
        rows, cols = _size(rng, max_rows, max_cols)
        board = _random_board(rng, rows, cols)
        move = (rng.randrange(rows), rng.randrange(cols))
        moved, still = ("p", "q") if number % 2 else ("q", "p")
        setup = [_puzzle_setup(board), "q = p.copy()", f"{moved}.perform_move{move}"]
        transcript = render_doctest(setup, f"{still}.get_board()", grid_to_lists(board)) + \
            render_doctest([], f"{moved}.get_board()", grid_to_lists(press(board, move)))
        which = "original" if moved == "p" else "copy"
        yield {"name": f"#{number} {rows}x{cols}, move on the {which}", "doctest": transcript}


def successors_cases(rng: random.Random, count: int, *, max_rows: int = 5,
                     max_cols: int = 5) -> Iterator[CaseDict]:
    """Every ``(move, board)`` successor of a random board, compared in any order."""
    for number in range(1, count + 1):
        rows, cols = _size(rng, max_rows, max_cols)
        board = _random_board(rng, rows, cols)
        expected = [(move, grid_to_lists(press(board, move))) for move in moves(board)]
        yield {"name": f"#{number} {rows}x{cols} board",
               "doctest": render_doctest(
                   [_puzzle_setup(board)],
                   "[(move, new_p.get_board()) for move, new_p in p.successors()]", expected)}


def successors_unchanged_cases(rng: random.Random, count: int, *, max_rows: int = 5,
                               max_cols: int = 5) -> Iterator[CaseDict]:
    """Generating every successor leaves the puzzle's own board as it was."""
    for number in range(1, count + 1):
        board = _random_board(rng, *_size(rng, max_rows, max_cols))
        setup = [_puzzle_setup(board), "successors = list(p.successors())"]
        yield {"name": f"#{number} {len(board)}x{len(board[0])} board stays unchanged",
               "doctest": render_doctest(setup, "p.get_board()", grid_to_lists(board))}


def successor_count_cases(rng: random.Random, count: int, *, max_rows: int = 8,
                          max_cols: int = 8) -> Iterator[CaseDict]:
    """``len(list(p.successors()))`` is rows * cols, on sizes the handout does not show."""
    for number in range(1, count + 1):
        rows, cols = _size(rng, max_rows, max_cols)
        yield {"name": f"#{number} count on a {rows}x{cols} board",
               "doctest": render_doctest([f"p = create_puzzle({rows}, {cols})"],
                                         "len(list(p.successors()))", rows * cols)}


def find_solution_cases(rng: random.Random, count: int, *, sizes: Sequence[Sequence[int]],
                        solvable: bool) -> Iterator[CaseDict]:
    """Boards of the given sizes (in turn) that are solvable, or not, with the BFS answer.

    Solvable boards are random presses on an all-off board (the first case is the all-off
    board itself, whose answer is ``[]``); unsolvable ones are random boards the reference BFS
    cannot solve, on sizes where such boards exist. ``options`` holds ``board`` (rows of
    ``.``/``X``, X for a light on) and ``length`` (the optimal number of moves, None when
    unsolvable) for ``checkers.find_solution``. Unsolvable cases first ask for the solution of
    a board the handout does not show (``options.sanity``, :data:`_SANITY_BOARD`), so that
    always answering None fails, and so does keeping the handout's answers.

    Raises:
        ValueError: ``solvable`` is False and a size has no unsolvable board.
    """
    usable = [(r, c) for r, c in sizes]
    if not solvable:
        for rows, cols in usable:
            if not press_space(create_board(rows, cols)).null_basis:
                raise ValueError(f"every {rows}x{cols} board is solvable")
    seen: set[Board] = set()
    made = 0
    while made < count:
        rows, cols = usable[made % len(usable)]
        if solvable:
            board = create_board(rows, cols) if made == 0 else _scrambled_board(rng, rows, cols)
        else:
            board = _random_board(rng, rows, cols)
        if board in seen or is_solvable(board) != solvable:
            continue  # the algebra screens boards quickly; the answer comes from the BFS
        case = _solution_case(board)
        if (case["options"]["length"] is not None) != solvable:
            continue
        seen.add(board)
        made += 1
        kind = "solvable" if solvable else "unsolvable"
        yield {**case, "name": f"{kind} #{made}: {rows}x{cols} board, {sum(map(sum, board))} on"}


_SANITY_BOARD = ("XX", "X.")
"""The board a case whose answer is None asks first: solved by one press, and not one the
handout shows (a file keeping the handout's answers fails it)."""


def _solution_case(board: Board) -> CaseDict:
    """A find_solution case on ``board`` (no name yet), answered by the reference BFS; one whose
    answer is None first asks for the solution of :data:`_SANITY_BOARD`."""
    answer = breadth_first_graph_search(LightsOutProblem(board))
    options: dict[str, Any] = {"board": format_scene(board).split(),
                               "length": None if answer is None else len(answer)}
    transcript = render_doctest([_puzzle_setup(board)], "p.find_solution()", answer)
    if answer is None:
        sanity = parse_scene("\n".join(_SANITY_BOARD))
        easy = breadth_first_graph_search(LightsOutProblem(sanity))
        assert easy is not None
        transcript = render_doctest(
            [], f"LightsOutPuzzle({grid_to_lists(sanity)!r}).find_solution()", easy) + transcript
        options["sanity"] = {"example": 0, "board": list(_SANITY_BOARD), "length": len(easy)}
    return {"doctest": transcript, "options": options}


_ASKS = ("get_board", "is_solved", "find_solution")
"""What :func:`lights_out_images` can ask of a position."""


def lights_out_images(rng: random.Random, count: int, *, board: Sequence[str], ask: str,
                      mirror_of: str, images: Sequence[str], moves: Sequence[Sequence[int]] = (),
                      label: str = "") -> Iterator[CaseDict]:
    """The visible case ``mirror_of`` (a puzzle made from ``board``, rows of ``.``/``X``, then
    ``moves`` pressed, then ``ask`` called) asked again under the first symmetry of ``images``
    (names of :mod:`reference.core.symmetry`) that changes the board or a move, answered by the
    reference on the image. Pressing a light toggles it and its orthogonal neighbours, so every
    symmetry of the board keeps the rules: all eight on a square board, mirror, flip and
    rotate180 on any. ``is_solved`` is asked together with a board of the other answer (a size
    the handout does not show), so that a constant fails. The case is named ``label`` (default
    ``mirror_of``) and the image's name. ``count`` must be 1.
    """
    if count != 1 or ask not in _ASKS:
        raise ValueError(f"lights_out_images asks one visible case again (count 1) with one of "
                         f"{list(_ASKS)}")
    found = first_image_with_points(parse_scene("\n".join(board)), moves, images)
    if found is None:
        raise ValueError(f"{mirror_of!r} is unchanged by every one of {list(images)}")
    name, image, pressed = found
    after = image
    for move in pressed:
        after = press(after, move)
    title = f"{label or mirror_of} ({name} image)"
    if ask == "find_solution":
        yield {**_solution_case(after), "name": title, "mirror_of": mirror_of}
        return
    setup = [_puzzle_setup(image)] + [f"p.perform_move({r}, {c})" for r, c in pressed]
    if ask == "get_board":
        transcript = render_doctest(setup, "p.get_board()", grid_to_lists(after))
    else:
        rows, cols = len(after), len(after[0]) + 1
        other = create_board(rows, cols) if not is_solved(after) \
            else press(create_board(rows, cols), (0, 0))
        transcript = _is_solved_transcript(setup, after, other)
    yield {"name": title, "doctest": transcript, "mirror_of": mirror_of}


def scramble_cases(rng: random.Random, count: int, *, check: str,
                   sizes: Sequence[Sequence[int]], runs: int) -> Iterator[CaseDict]:
    """``runs`` seeded scrambles per case, of a solvable board of each size in turn.

    The transcript seeds ``random`` before each run and shows the list of boards; the checker
    ``checkers.scramble`` judges the property ``check`` ("solvable", "changes" or
    "seeds_differ") on it.
    There is no single expected value, so the transcript shows the reference's boards.
    """
    for number in range(1, count + 1):
        rows, cols = sizes[(number - 1) % len(sizes)]
        start = _scrambled_board(rng, rows, cols) if number > len(sizes) \
            else create_board(rows, cols)
        seeds = rng.sample(range(10 ** 6), runs)
        helper = ("def scrambled(seed):\n"
                  "    random.seed(seed)\n"
                  f"    p = LightsOutPuzzle({grid_to_lists(start)!r})\n"
                  "    p.scramble()\n"
                  "    return p.get_board()")
        reference = [grid_to_lists(_scramble(start, random.Random(seed))) for seed in seeds]
        yield {"name": f"{check} #{number}: {runs} runs on a {rows}x{cols} board",
               "doctest": render_doctest(["import random", helper],
                                         f"[scrambled(seed) for seed in {seeds!r}]", reference),
               "options": {"check": check, "start": format_scene(start).split()}}


# --- Grid navigation -------------------------------------------------------------------------

def _free_cells(scene: Scene) -> list[Point]:
    return [(r, c) for r, row in enumerate(scene) for c, cell in enumerate(row) if not cell]


def _reference_path(scene: Scene, start: Point, goal: Point) -> list[Point] | None:
    if not is_free(scene, start) or not is_free(scene, goal):
        return None
    problem = GridNavigationProblem(scene, start, goal)
    actions = astar_search(problem, problem.heuristic)
    return None if actions is None else [start] + actions


def _path_case(name: str, scene: Scene, start: Point, goal: Point) -> CaseDict:
    """A find_path case; when there is no path, a 1x2 scene's path is asked for first."""
    path = _reference_path(scene, start, goal)
    rows = format_scene(scene).split()
    setup = [f"scene = [[c == 'X' for c in row] for row in {' '.join(rows)!r}.split()]"]
    transcript = render_doctest(setup, f"find_path({start!r}, {goal!r}, scene)", path)
    options: dict[str, Any] = {"scene": rows, "start": list(start), "goal": list(goal),
                               "length": None if path is None else path_length(path)}
    if path is None:  # not the handout's 1x2 sanity scene: a file keeping it earns nothing here
        transcript = render_doctest(
            [], "find_path((1, 0), (0, 1), [[False, False], [False, False]])",
            [(1, 0), (0, 1)]) + transcript
        options["sanity"] = {"example": 0, "scene": ["..", ".."], "start": [1, 0],
                             "goal": [0, 1], "length": path_length([(1, 0), (0, 1)])}
    return {"name": name, "doctest": transcript, "options": options}


def _far_apart(rng: random.Random, cells: list[Point], tries: int = 20) -> tuple[Point, Point]:
    """Two cells, the farthest apart of ``tries`` random pairs (long paths test more)."""
    pairs = [(rng.choice(cells), rng.choice(cells)) for _ in range(tries)]
    return max(pairs, key=lambda p: abs(p[0][0] - p[1][0]) + abs(p[0][1] - p[1][1]))


def _connected_pair(rng: random.Random, scene: Scene) -> tuple[Point, Point] | None:
    """A far-apart pair of free cells with a path between them, or None after a few tries."""
    cells = _free_cells(scene)
    for _ in range(30):
        if len(cells) < 2:
            return None
        start, goal = _far_apart(rng, cells)
        if start != goal and _reference_path(scene, start, goal) is not None:
            return start, goal
    return None


def _reachable_scene(rng: random.Random, kind: str, rows: int, cols: int
                     ) -> tuple[Scene, Point, Point]:
    """A scene of ``kind`` with a far-apart, connected start and goal."""
    while True:
        if kind == "open":
            scene = random_scene(rng, rows, cols, 0.0)
        elif kind == "random":
            scene = random_scene(rng, rows, cols, rng.choice([0.15, 0.25, 0.35]))
        elif kind == "maze":
            scene = maze_scene(rng, rows, cols)
        elif kind == "squeeze":
            scene = diagonal_walls_scene(rows, cols, rng.randint(3, 5))
        else:
            raise ValueError(f"unknown scene kind {kind!r}")
        pair = _connected_pair(rng, scene)
        if pair is not None:
            return scene, pair[0], pair[1]


def find_path_cases(rng: random.Random, count: int, *, kind: str, min_size: int = 3,
                    max_size: int = 20, label: str = "") -> Iterator[CaseDict]:
    """Scenes of one ``kind``, start, goal and the A* reference's answer.

    Kinds: "open", "random", "maze", "squeeze" (anti-diagonal walls, crossed only by diagonal
    steps between obstacles), "drawn" (the hand-drawn scenes in turn), "same_point" (start is
    the goal), "start_blocked" / "goal_blocked" (on an obstacle), "walled_in" (the goal is
    inside a closed ring of obstacles). Sizes are drawn between ``min_size`` and ``max_size``.
    Case names start with ``label`` (default: the kind), which keeps names unique when a case
    file has several blocks of one kind. ``options`` holds the scene as ``.``/``X`` rows,
    start, goal and the optimal Euclidean ``length`` (None when no path exists) for
    ``checkers.find_path``; cases without a path first ask for the path on a 1x2 scene
    (``options.sanity``), so that always answering None fails.
    """
    for number in range(1, count + 1):
        rows, cols = rng.randint(min_size, max_size), rng.randint(min_size, max_size)
        title = f"#{number} {label or kind}"
        if kind == "drawn":
            names = drawn_scene_names()
            name = names[(number - 1) % len(names)]
            scene = drawn_scene(name)
            pair = _connected_pair(rng, scene)
            if pair is None:
                raise ValueError(f"the drawn scene {name!r} has no two connected cells")
            start, goal = pair
            title = f"#{number} {name}"
        elif kind == "same_point":
            scene = random_scene(rng, rows, cols, 0.3)
            start = goal = (rng.randrange(rows), rng.randrange(cols))
            scene = _with_cell(scene, start, False)
        elif kind in ("start_blocked", "goal_blocked"):
            scene, start, goal = _reachable_scene(rng, "random", rows, cols)
            scene = _with_cell(scene, start if kind == "start_blocked" else goal, True)
        elif kind == "walled_in":
            goal = (rng.randrange(rows), rng.randrange(cols))
            scene = walled_in_scene(rng, rows, cols, rng.choice([0.0, 0.1, 0.2]), goal)
            start = rng.choice([p for p in _free_cells(scene) if p != goal])
        else:
            scene, start, goal = _reachable_scene(rng, kind, rows, cols)
        yield _path_case(f"{title}, {len(scene)}x{len(scene[0])} scene", scene, start, goal)


def find_path_images(rng: random.Random, count: int, *, scene: Sequence[str],
                     start: Sequence[int], goal: Sequence[int], mirror_of: str,
                     images: Sequence[str]) -> Iterator[CaseDict]:
    """The visible case ``mirror_of`` (``scene`` as ``.``/``X`` rows, ``start``, ``goal``) asked
    again under the first symmetry of ``images`` (names of :mod:`reference.core.symmetry`) that
    changes it, answered by the A* reference on the image. Eight-connected moves with Euclidean
    costs keep every symmetry of the grid: all eight on a square scene, the first three
    (mirror, flip, rotate180) on any. ``count`` must be 1.
    """
    if count != 1:
        raise ValueError("find_path_images asks one visible case again: count must be 1")
    grid = parse_scene("\n".join(scene))
    found = first_image_with_points(grid, [start, goal], images)
    if found is None:
        raise ValueError(f"{mirror_of!r} is unchanged by every one of {list(images)}")
    name, image, (image_start, image_goal) = found
    case = _path_case(f"{mirror_of} ({name} image)", image, image_start, image_goal)
    yield {**case, "mirror_of": mirror_of}


def _with_cell(scene: Scene, point: Point, obstacle: bool) -> Scene:
    """``scene`` with the cell at ``point`` made an obstacle or free."""
    return tuple(tuple(obstacle if (r, c) == point else cell for c, cell in enumerate(row))
                 for r, row in enumerate(scene))


# --- Cases of another assignment ---------------------------------------------------------------

__all__ = [
    "copy_cases", "create_puzzle_cases", "find_path_cases", "find_solution_cases",
    "find_path_images", "get_board_cases", "is_solved_cases", "lights_out_images",
    "perform_move_cases",
    "scramble_cases", "successor_count_cases", "successors_cases", "successors_unchanged_cases",
]
