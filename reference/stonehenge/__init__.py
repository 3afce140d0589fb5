"""Trusted knowledge of the ``stonehenge`` assignment: case generators, checkers and probes.

- :mod:`reference.stonehenge.rough` scores positions like the handout's ``rough_outcome``;
- :mod:`reference.stonehenge.game_tree` turns a position of any reference game into an explicit
  game tree of plain data, which the probe ``probes/gg_tree_game.py`` replays in the student's
  process, so strategies are graded on our game and no rules code reaches the student;
- :mod:`reference.stonehenge.generators` writes the generated cases;
- :mod:`reference.stonehenge.checkers` holds the comparators the case files name.
"""
