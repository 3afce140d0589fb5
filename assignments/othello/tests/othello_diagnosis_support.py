"""The Othello registry's mistakes written into the reference agent as a student would write
them (see assignments/othello/diagnoses.py), and the cases they are measured on."""
from __future__ import annotations

from typing import Any

from gg_diagnosis import ROOT, diagnosable_cases, edited

SOLUTION = ROOT / "assignments" / "othello" / "solution" / "agent.py"
STARTER = ROOT / "assignments" / "othello" / "template"

MINIMAX_MAX = """        best = -math.inf
        for i, j in moves:
            value = minimax_min_node(play_move(board, color, i, j), color, limit - 1,
                                     caching)[1]
            if value > best:"""
MINIMAX_MIN = """        best = math.inf
        for i, j in moves:
            value = minimax_max_node(play_move(board, opponent, i, j), color, limit - 1,
                                     caching)[1]
            if value < best:"""
ALPHABETA_MAX = """    best_move, best = None, -math.inf
    for move, child in children:
        value = alphabeta_min_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value > best:
            best_move, best = move, value
            alpha = max(alpha, best)
        if best >= beta:"""
ALPHABETA_MIN = """    best_move, best = None, math.inf
    for move, child in children:
        value = alphabeta_max_node(child, color, alpha, beta, limit - 1, caching, ordering)[1]
        if value < best:
            best_move, best = move, value
            beta = min(beta, best)
        if best <= alpha:"""


def _swapped(text: str, pairs: list[tuple[str, str]]) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return text


# The registry's description (its first words) -> the edits that commit that mistake.
STUDENT_MISTAKES: dict[str, list[tuple[str, str]]] = {
    "a search in which min nodes expand the moves of color": [
        ("opponent = 3 - color", "opponent = color"),
        ("_successors(board, 3 - color, color, ordering)",
         "_successors(board, color, color, ordering)")],
    "a search that stops one ply before the limit": [
        ("if limit != 0 else []", "if limit != 1 else []")],
    "a search with min and max swapped": [
        (MINIMAX_MAX, _swapped(MINIMAX_MAX, [
            ("-math.inf", "math.inf"), ("value > best", "value < best")])),
        (MINIMAX_MIN, _swapped(MINIMAX_MIN, [
            ("math.inf", "-math.inf"), ("value < best", "value > best")])),
        (ALPHABETA_MAX, _swapped(ALPHABETA_MAX, [
            ("-math.inf", "math.inf"), ("value > best", "value < best"),
            ("alpha = max(alpha, best)", "beta = min(beta, best)"),
            ("best >= beta", "best <= alpha")])),
        (ALPHABETA_MIN, _swapped(ALPHABETA_MIN, [
            ("math.inf", "-math.inf"), ("value < best", "value > best"),
            ("beta = min(beta, best)", "alpha = max(alpha, best)"),
            ("best <= alpha", "best >= beta")]))],
    "alpha-beta without any pruning": [
        ("if best >= beta:", "if False:"), ("if best <= alpha:", "if False:")],
    "alpha-beta testing a max node against alpha": [("if best >= beta:", "if best >= alpha:"),
                                                    ("if best <= alpha:", "if best <= beta:")],
    "a search valuing positions with compute_utility for the opponent": [
        ("best_move, best = None, compute_utility(board, color)",
         "best_move, best = None, compute_utility(board, 3 - color)"),
        ("answer = (None, compute_utility(board, color))",
         "answer = (None, compute_utility(board, 3 - color))")],
    "a search valuing each position with compute_utility for the player to move": [
        ("moves = get_possible_moves(board, opponent) if limit != 0 else []\n"
         "    best_move, best = None, compute_utility(board, color)",
         "moves = get_possible_moves(board, opponent) if limit != 0 else []\n"
         "    best_move, best = None, compute_utility(board, opponent)"),
        ("children = _successors(board, 3 - color, color, ordering) if limit != 0 else []\n"
         "    if not children:\n        answer = (None, compute_utility(board, color))",
         "children = _successors(board, 3 - color, color, ordering) if limit != 0 else []\n"
         "    if not children:\n        answer = (None, compute_utility(board, 3 - color))")],
    "alpha-beta that lets a later move with an equal value": [
        ("if value > best:\n            best_move, best = move, value",
         "if value >= best:\n            best_move, best = move, value"),
        ("if value < best:\n            best_move, best = move, value",
         "if value <= best:\n            best_move, best = move, value")],
    "alpha-beta ordering successors lowest": [
        ("compute_utility(child[1], color), reverse=True)", "compute_utility(child[1], color))")],
    "alpha-beta that does not order successors": [("    if ordering:\n", "    if False:\n")],
    "alpha-beta ordering successors by compute_utility after playing each move with the opp": [
        ("compute_utility(child[1], color), reverse=True)",
         "compute_utility(play_move(board, 3 - color, *child[0]), color), reverse=True)")],
}


def student_source(description: str) -> str:
    """The reference agent with the registry mistake described by ``description`` written in."""
    edits = next(e for start, e in STUDENT_MISTAKES.items() if description.startswith(start))
    return edited(SOLUTION, edits)


def search_cases() -> list[Any]:
    """Every Othello case that names the registry (minimax, alpha-beta, depth limit, ordering)."""
    return diagnosable_cases("othello")
