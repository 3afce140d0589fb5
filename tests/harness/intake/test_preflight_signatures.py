"""Signature checks: incompatible changes fail the cases that use them; renames and lost
defaults only warn."""
from __future__ import annotations

import pytest

from harness.intake.preflight import check_signature
from harness.spec.assignments import parse_api_entry

ENTRY = parse_api_entry("Game.get_best_move(self, vertical, limit)")


def params(*spec):
    return {"callable": True, "parameters": [list(p) for p in spec]}


P = "POSITIONAL_OR_KEYWORD"


def test_matching_signature_is_fine():
    assert check_signature(ENTRY, params(("self", P, False), ("vertical", P, False),
                                         ("limit", P, False))) == ("", "")


def test_missing_and_not_callable():
    assert "missing" in check_signature(ENTRY, None)[0]
    assert "not a function" in check_signature(ENTRY, {"callable": False})[0]


@pytest.mark.parametrize("spec", [
    [("self", P, False), ("vertical", P, False)],
    [("self", P, False), ("vertical", P, False), ("limit", P, False), ("extra", P, False)],
    [("self", P, False), ("vertical", P, False), ("limit", P, False), ("k", "KEYWORD_ONLY", False)],
])
def test_incompatible_changes_are_problems(spec):
    problem, _ = check_signature(ENTRY, params(*spec))
    assert "changed signature" in problem and "Game.get_best_move(self, vertical, limit)" in problem


def test_renamed_parameters_and_extra_defaults_only_warn():
    problem, note = check_signature(ENTRY, params(("self", P, False), ("v", P, False),
                                                  ("depth", P, False), ("extra", P, True)))
    assert problem == "" and "parameter names differ" in note


def test_varargs_accept_anything():
    assert check_signature(ENTRY, params(("args", "VAR_POSITIONAL", False)))[0] == ""


MAX_NODE = parse_api_entry("minimax_max_node(board, color, limit, caching=0)")


def test_a_lost_default_is_a_note_that_names_it():
    # the course's own tests pass every argument, so such a file passes them: nothing is blocked
    problem, note = check_signature(MAX_NODE, params(("board", P, False), ("color", P, False),
                                                     ("limit", P, False), ("caching", P, False)))
    assert problem == ""
    assert note == (
        "minimax_max_node: caching has no default in yours, where the handout gives "
        "minimax_max_node(board, color, limit, caching=0); only a call that leaves it out fails "
        "(with a TypeError)")


def test_a_lost_default_and_renames_are_one_note():
    problem, note = check_signature(MAX_NODE, params(("b", P, False), ("color", P, False),
                                                     ("limit", P, False), ("caching", P, False)))
    assert problem == "" and "caching has no default" in note and "names differ" in note


@pytest.mark.parametrize("spec", [
    # more required parameters than the handout has
    [("board", P, False), ("color", P, False), ("limit", P, False), ("caching", P, False),
     ("depth", P, False)],
    # fewer positional parameters, no *args
    [("board", P, False), ("color", P, False), ("limit", P, False)],
    # a required keyword-only parameter
    [("board", P, False), ("color", P, False), ("limit", P, False), ("caching", P, True),
     ("depth", "KEYWORD_ONLY", False)],
])
def test_signatures_that_cannot_take_the_handouts_calls_still_block(spec):
    problem, note = check_signature(MAX_NODE, params(*spec))
    assert problem.startswith("minimax_max_node has a changed signature: the handout fixes "
                              "minimax_max_node(board, color, limit, caching); yours is ")
    assert note == ""
