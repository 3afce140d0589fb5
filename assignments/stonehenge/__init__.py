"""Trusted knowledge of the ``stonehenge`` assignment: case generators, checkers and probes.

- :mod:`~reference.stonehenge.rough`: the handout's ``rough_outcome`` estimate, for any game;
- :mod:`~reference.stonehenge.game_tree`: a reference position expanded into an explicit game
  tree of plain data, which the probe ``probes/gg_tree_game.py`` replays in the student's
  process, so strategies are graded on our game and no rules code reaches the student;
- :mod:`~reference.stonehenge.positions`: the reference position a strategy case names;
- :mod:`~reference.stonehenge.board_text`, :mod:`~reference.stonehenge.checkers`: comparators;
- :mod:`~reference.stonehenge.transcripts`, :mod:`~reference.stonehenge.generators`: cases.

The probes (``probes/``) run inside the student's process: standard library only, no expected
values.
"""
from __future__ import annotations
