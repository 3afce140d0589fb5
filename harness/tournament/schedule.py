"""Seeded, reproducible schedules: round robin with both colours, and single-elimination brackets.

Pure functions of the entrants and the tournament seed; they play nothing. Every game's seed is
derived from the tournament seed (:func:`derive_seed`), so the same seed always gives the same
games whatever order they finish in. A round robin's game is named by its pair and its number
within the pair (:func:`pair_task`), never by its place in the schedule, so adding or removing an
entrant leaves every other pair's games as they were (the records of them are reused).

Project decisions (the handout leaves them open; ``docs/games.md``):
- a pairing (round robin) or a match (elimination) is two games with sides swapped, so each
  entrant plays first once;
- an elimination match tied after its two games goes to one deciding game whose sides are drawn
  from the match seed; if that game is drawn by the rules, the higher seed advances (an
  aborted game is replayed, and never sends anyone on: see ``engine.run_elimination``);
- the draw order is the given seeding (for instance a previous round robin's ranking) or, without
  one, the entrants shuffled by the tournament seed; byes go to the top seeds, and the bracket is
  the standard one in which seeds 1 and 2 can meet only in the final.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional, Sequence

from harness.games.seeds import derive_seed
from harness.records.games import Entrant, GameTask


def check_entrants(entrants: Sequence[Entrant]) -> None:
    """Raise ValueError when two entrants share a name or there are fewer than two."""
    names = [e.name for e in entrants]
    if len(names) < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, got {len(names)}")
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"entrant names must be unique; repeated: {', '.join(duplicates)}")


def draw_order(entrants: Sequence[Entrant], seed: int) -> list[Entrant]:
    """``entrants`` shuffled by ``seed`` (a new list; the argument is not changed)."""
    order = list(entrants)
    random.Random(derive_seed(seed, "draw")).shuffle(order)
    return order


def round_robin(entrants: Sequence[Entrant], seed: int) -> list[GameTask]:
    """Every pairing twice, sides swapped, in rounds made by the circle method.

    Args:
        entrants: at least two, with unique names.
        seed: the tournament seed; it fixes the draw order and every game's seed.

    Returns:
        ``n * (n - 1)`` tasks indexed 0, 1, ... in schedule order. With an odd field one entrant
        sits out each round (a bye, which scores nothing in a round robin).

    Raises:
        ValueError: from :func:`check_entrants`.
    """
    check_entrants(entrants)
    slots: list[Optional[Entrant]] = list(draw_order(entrants, seed))
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    tasks: list[GameTask] = []
    for round_number in range(1, n):
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if a is None or b is None:
                continue
            for number in (0, 1):
                tasks.append(pair_task(a, b, number, seed, len(tasks), round_number))
        slots = [slots[0], slots[-1]] + slots[1:-1]
    return tasks


def pair_task(a: Entrant, b: Entrant, number: int, seed: int, index: int, round_number: int
              ) -> GameTask:
    """Game ``number`` (0, 1, 2 ...) between ``a`` and ``b``.

    The pair is ordered by name, so the game is the same whichever of the two is given first:
    the first by name plays first in even-numbered games, the other in odd ones, and the seed
    comes from the names and the number alone.
    """
    low, high = sorted((a, b), key=lambda e: e.name)
    first, second = (low, high) if number % 2 == 0 else (high, low)
    return GameTask(index, round_number, first, second,
                    derive_seed(seed, "pair", low.name, high.name, number),
                    f"round {round_number}, {low.name} v {high.name}, game {number + 1}")


def bracket_positions(size: int) -> list[int]:
    """1-based seed numbers in bracket order for ``size`` slots (a power of two).

    Neighbouring pairs meet in round 1, and seeds 1 and 2 can meet only in the final.

    >>> bracket_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    positions = [1]
    while len(positions) < size:
        total = 2 * len(positions) + 1
        positions = [s for p in positions for s in (p, total - p)]
    return positions


@dataclass(frozen=True)
class Match:
    """An elimination match between a higher and a lower seed (None: a bye for ``high``).

    Attributes:
        round: 1-based round number.
        slot: the match's place in its round, 0-based, top of the bracket first.
        high: the better-seeded entrant (the one earlier in the draw order).
        low: its opponent, or None when ``high`` has a bye.
    """

    round: int
    slot: int
    high: Entrant
    low: Optional[Entrant]


def bracket_rounds(count: int) -> int:
    """Rounds of a single-elimination bracket for ``count`` entrants: ceil(log2(count))."""
    return max(0, (count - 1).bit_length())


def first_round(seeded: Sequence[Entrant]) -> list[Match]:
    """Round-1 matches for entrants listed best seed first; byes go to the top seeds."""
    check_entrants(seeded)
    size = 1 << bracket_rounds(len(seeded))
    positions = bracket_positions(size)
    matches = []
    for slot in range(size // 2):
        high, low = positions[2 * slot], positions[2 * slot + 1]
        matches.append(Match(1, slot, seeded[high - 1],
                             seeded[low - 1] if low <= len(seeded) else None))
    return matches


def next_round(winners: Sequence[Optional[Entrant]], seed_of: dict[str, int], round_number: int
               ) -> list[Optional[Match]]:
    """Matches of ``round_number`` between neighbouring winners of the previous round.

    Args:
        winners: the previous round's winners in bracket order (an even number); None for a
            match that sent nobody on (its games could not be played).
        seed_of: each entrant's seed number, to tell the higher seed.
        round_number: the new round's number.

    Returns:
        One entry per slot: a match, a bye (``low`` None) when one neighbour is None, or None
        when both are.
    """
    matches: list[Optional[Match]] = []
    for slot in range(len(winners) // 2):
        a, b = winners[2 * slot], winners[2 * slot + 1]
        if a is None or b is None:
            alone = a or b
            matches.append(None if alone is None else Match(round_number, slot, alone, None))
            continue
        high, low = (a, b) if seed_of[a.name] < seed_of[b.name] else (b, a)
        matches.append(Match(round_number, slot, high, low))
    return matches


def match_tasks(match: Match, seed: int, start_index: int) -> list[GameTask]:
    """The two games of a played match, sides swapped, the higher seed first in game 1."""
    assert match.low is not None
    tasks = []
    for game, (first, second) in enumerate(((match.high, match.low), (match.low, match.high))):
        tasks.append(GameTask(start_index + game, match.round, first, second,
                              derive_seed(seed, "match", match.round, match.slot, game),
                              f"round {match.round}, match {match.slot + 1}, game {game + 1}"))
    return tasks


def decider_task(match: Match, seed: int, index: int) -> GameTask:
    """The deciding game of a tied match; who plays first is drawn from the match seed."""
    assert match.low is not None
    match_seed = derive_seed(seed, "decider", match.round, match.slot)
    pair = (match.high, match.low) if match_seed % 2 == 0 else (match.low, match.high)
    return GameTask(index, match.round, pair[0], pair[1], match_seed,
                    f"round {match.round}, match {match.slot + 1}, deciding game")


__all__ = ["Match", "bracket_positions", "bracket_rounds", "check_entrants", "decider_task",
           "draw_order", "first_round", "match_tasks", "next_round",
           "pair_task", "round_robin"]
