"""Trusted knowledge of the ``stonehenge`` assignment: case generators, checkers and probes.

- :mod:`~assignments.stonehenge.rough`: the handout's ``rough_outcome`` estimate, for any game;
- :mod:`~assignments.stonehenge.game_tree`: a reference position expanded into an explicit game
  tree of plain data, which the probe ``probes/gg_tree_game.py`` replays in the student's
  process, so strategies are graded on our game and no rules code reaches the student;
- :mod:`~assignments.stonehenge.positions`: the reference position a strategy case names;
- :mod:`~assignments.stonehenge.board_text`, :mod:`~assignments.stonehenge.checkers`: comparators;
- :mod:`~assignments.stonehenge.transcripts`, :mod:`~assignments.stonehenge.generators`: cases.

The probes (``probes/``) run inside the student's process: standard library only, no expected
values.
"""
from __future__ import annotations
