"""
Strategies: functions that take a game and return a move for its current
state (a complete solution submitted as a student would submit it).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional


def interactive_strategy(game: Any) -> Any:
    """
    Return the move a person types for game.current_state.
    """
    move = input("Enter a move: ")
    return game.str_to_move(move)


def rough_outcome_strategy(game: Any) -> Any:
    """
    Return the move of game.current_state whose resulting state has the
    lowest rough_outcome. Ties go to the move listed first.
    """
    state = game.current_state
    best_move = None
    best_score = None
    for move in state.get_possible_moves():
        score = -1 * state.make_move(move).rough_outcome()
        if best_score is None or score > best_score:
            best_score = score
            best_move = move
    return best_move


def _final_score(game: Any, state: Any) -> int:
    """
    Return the score of the finished state for its player to move: 1 for a
    win, -1 for a loss, 0 for a tie. game.current_state is restored.
    """
    saved = game.current_state
    game.current_state = state
    try:
        me = state.get_current_player_name()
        other = 'p2' if me == 'p1' else 'p1'
        if game.is_winner(me):
            return 1
        if game.is_winner(other):
            return -1
        return 0
    finally:
        game.current_state = saved


def _best_move(state: Any, child_scores: List[int]) -> Any:
    """
    Return the first move of state whose child score, negated, is highest.
    """
    moves = state.get_possible_moves()
    best = max(-score for score in child_scores)
    return moves[[-score for score in child_scores].index(best)]


def _recursive_score(game: Any, state: Any, memo: Dict[str, int]) -> int:
    """
    Return the minimax score of state for its player to move.
    """
    key = repr(state)
    if key not in memo:
        if game.is_over(state):
            memo[key] = _final_score(game, state)
        else:
            memo[key] = max(-_recursive_score(game, state.make_move(move), memo)
                            for move in state.get_possible_moves())
    return memo[key]


def recursive_minimax_strategy(game: Any) -> Any:
    """
    Return a move of game.current_state that guarantees the highest score,
    found recursively.
    """
    state = game.current_state
    memo: Dict[str, int] = {}
    scores = [_recursive_score(game, state.make_move(move), memo)
              for move in state.get_possible_moves()]
    return _best_move(state, scores)


class _Node:
    """
    A node of the iterative search tree.

    state - the game state.
    children - the nodes of the states after each move, once known.
    score - the highest guaranteed score for state's player, once known.
    """
    state: Any
    children: Optional[List['_Node']]
    score: Optional[int]

    def __init__(self, state: Any) -> None:
        """
        Initialize a node with unknown children and score.
        """
        self.state = state
        self.children = None
        self.score = None


def iterative_minimax_strategy(game: Any) -> Any:
    """
    Return a move of game.current_state that guarantees the highest score,
    found with an explicit stack (no recursion).
    """
    root = _Node(game.current_state)
    memo: Dict[str, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        key = repr(node.state)
        if key in memo:
            node.score = memo[key]
        elif game.is_over(node.state):
            node.score = memo[key] = _final_score(game, node.state)
        elif node.children is None:
            node.children = [_Node(node.state.make_move(move))
                             for move in node.state.get_possible_moves()]
            stack.append(node)
            stack.extend(node.children)
        else:
            node.score = memo[key] = max(-child.score
                                         for child in node.children)
    return _best_move(root.state, [child.score for child in root.children])


if __name__ == "__main__":
    from python_ta import check_all
    check_all(config="a2_pyta.txt")
