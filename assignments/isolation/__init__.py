"""Trusted knowledge of the ``isolation`` assignment: players, referee, arena, grading runners.

Rules live in ``assignments.isolation.rules``; the clocked match loop in ``harness.games`` and
tournaments in ``harness.tournament``. This package adds the Isolation-specific parts: house
players, the student wire format (``choose_move(board, player, time_left)``), the tournament arena
and the grading generators and runners.

The package imports none of its modules, so the student package can hold some of them without
the others: the comparator (``checkers``, which reads the legal moves the generators wrote into
each case), and for the games the runner, the referee, the replay pages and the random and
greedy ``house_players``; never ``players`` (the alpha-beta players), ``evaluation`` or the
search they use.
"""
