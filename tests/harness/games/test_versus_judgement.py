"""The generic house-bot judgement: min_wins, a rules loss as a plain wrong answer, pictures of
lost games in visible cases only, and the stop after a failed handshake (no processes)."""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from harness.games.match import HANDSHAKE, Clock, GameRecord
from harness.games.versus import HouseGame, Played, judge, play_versus_house
from harness.records.games import GameEnd, Reason
from harness.records.spec import Visibility


@dataclass(frozen=True)
class _Kit:
    sides: tuple[str, str] = ("x", "o")
    clock: Clock = Clock(game_seconds=10.0)


def _game(number: int, winner: str, reason: Reason = Reason.NO_MOVES, forfeiter: Any = None,
          detail: str = "") -> HouseGame:
    side = "x" if number % 2 == 0 else "o"
    record: GameRecord[Any] = GameRecord((), (("x", 9.0), ("o", 9.0)),
                                         GameEnd(winner, reason, detail, forfeiter))
    return HouseGame(number, side, number, record)


def _case(visibility: Visibility, **options: Any) -> Any:
    return SimpleNamespace(options=options, visibility=visibility, timeout=60.0, id="c")


# game 0 won (x), games 1, 2 and 3 lost by the rules
GAMES = (_game(0, "x"), _game(1, "x"), _game(2, "o"), _game(3, "x"))


@pytest.mark.parametrize("visibility", [Visibility.VISIBLE, Visibility.HIDDEN])
def test_lost_games_are_drawn_in_visible_cases_only_and_at_most_two(visibility: Visibility
                                                                    ) -> None:
    judgement = judge(_case(visibility, min_wins=2), _Kit(), "greedy", 4, Played(GAMES),
                      picture=lambda game: f"picture of game {game.number + 1}")
    assert judgement.fraction == 0.5  # one win of the two min_wins asks for
    assert "Needed 2 wins." in judgement.message
    assert judgement.failure is None  # lost by the rules: simply a wrong answer
    expected = "picture of game 2\n\npicture of game 3" if visibility.reveals_expected else ""
    assert judgement.picture == expected


def test_a_forfeit_is_the_cases_verdict() -> None:
    games = (_game(0, "o", Reason.TIMEOUT, "x"),)
    judgement = judge(_case(Visibility.VISIBLE, min_wins=1), _Kit(), "greedy", 1, Played(games))
    assert judgement.failure is Reason.TIMEOUT.verdict and judgement.failure is not None
    assert judgement.picture == ""  # no picture function, no picture


def test_a_failed_handshake_stops_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    import harness.games.versus as versus

    def no_name(kit: Any, sandbox: Any, bot: str, side: Any, seed: int) -> GameRecord[Any]:
        return GameRecord((), (("x", 9.0), ("o", 9.0)),
                          GameEnd("o" if side == "x" else "x", Reason.CRASH,
                                  f"{HANDSHAKE}it exited", side))

    monkeypatch.setattr(versus, "play_one", no_name)
    monkeypatch.setattr(versus, "keep_house_game", lambda *args: None)
    schedule = [("x", 1), ("o", 2), ("x", 3)]
    played = play_versus_house(_Kit(), None, "random", schedule, 60.0, "c",  # type: ignore[arg-type]
                               stop_after_timeout=True)
    assert len(played.games) == 1
    assert played.skipped == ("skipped: your program did not say its name in game 1, and it "
                              "starts the same way in every game")
    assert len(play_versus_house(_Kit(), None, "random", schedule, 60.0,  # type: ignore[arg-type]
                                 "c").games) == 3


def test_wins_up_to_the_even_score_earn_nothing_and_each_one_beyond_a_share() -> None:
    """Issue 51: a player as strong as the bot wins ``even`` games, and those earn nothing."""
    eight = tuple(_game(n, "x" if n % 2 == 0 else "o") for n in range(8))  # all won
    mixed = eight[:6] + GAMES[2:]  # six won, two lost

    def fraction(played: tuple[HouseGame, ...], even: int) -> float:
        case = _case(Visibility.HIDDEN, min_wins=7, even=even)
        return float(judge(case, _Kit(), "greedy", len(played), Played(played)).fraction)

    assert fraction(eight, 5) == 1.0
    assert fraction(mixed, 5) == pytest.approx(1 / 2)  # 6 wins: one of the two beyond 5
    assert fraction(mixed, 6) == 0.0
    assert fraction(mixed, 0) == pytest.approx(6 / 7)  # without it, min(1, wins / min_wins)
    message = judge(_case(Visibility.HIDDEN, min_wins=7, even=5), _Kit(), "greedy", 8,
                    Played(mixed)).message
    assert "the first 5 (what a player as strong as the greedy player wins) earn nothing" in message
    told = judge(_case(Visibility.HIDDEN, min_wins=7, even=5, even_means="what a shallow player "
                       "wins"), _Kit(), "depth3", 8, Played(mixed)).message
    assert "the first 5 (what a shallow player wins) earn nothing" in told
    with pytest.raises(ValueError, match="options.even"):
        fraction(mixed, 7)


def test_a_host_scaled_clock_is_divided_by_the_hosts_speed_factor() -> None:
    """Issue 51: games against a fixed-depth bot give the player the nominal machine's depth on
    any grader (its clock divided by the host's speed factor, as the staff ladder's is)."""
    from harness.games.versus import case_clock, load_kit

    slow, fast = (lambda: 0.5), (lambda: 2.0)
    assert case_clock({"clock": 2.0, "host_scaled": True}, slow) == 4.0
    assert case_clock({"clock": 2.0, "host_scaled": True}, fast) == 1.0
    assert case_clock({"clock": 2.0}, slow) == 2.0
    assert case_clock({}, slow) is None
    kit = load_kit({"kit": "assignments.isolation.kit:make_kit", "clock": 2.0,
                    "host_scaled": True}, slow)
    assert kit.clock.game_seconds == 4.0
    told = judge(_case(Visibility.HIDDEN, min_wins=1, clock=2.0, host_scaled=True), _Kit(),
                 "depth3", 4, Played(GAMES)).message
    assert "The case's clock is 2 s, divided by this grader's speed factor" in told


def test_a_drawn_lost_game_lists_its_moves_once_and_a_game_without_moves_none() -> None:
    """Issue 53: Isolation's feedback said "Moves of game 1, x first: (none)" and then, in the
    game's picture, "game 1, last moves: (none)". A pictured game lists its moves in its
    picture only; a game lost before any move was played says nothing about moves."""
    from assignments.isolation.runners import picture
    from harness.games.match import Ply

    moves = ((1, 2), (8, 7), (3, 3))
    record: GameRecord[Any] = GameRecord(
        tuple(Ply("xo"[i % 2], move, 0.1, 9.0) for i, move in enumerate(moves)),
        (("x", 9.0), ("o", 9.0)), GameEnd("o", Reason.NO_MOVES, "", None))
    played = HouseGame(0, "x", 0, record)
    unplayed = _game(1, "x")  # lost before any move
    for drawn in (picture, None):
        judgement = judge(_case(Visibility.VISIBLE, min_wins=1), _Kit(), "greedy", 2,
                          Played((played, unplayed)), picture=drawn)
        said = judgement.message + "\n" + judgement.picture
        assert said.count("(8, 7)") + said.count("(8,7)") == 1, said
        assert "(none)" not in said and "Moves of game 2" not in said, said
    unplayed_alone = judge(_case(Visibility.VISIBLE, min_wins=1), _Kit(), "greedy", 1,
                           Played((_game(0, "o"),)), picture=picture)
    said = unplayed_alone.message + "\n" + unplayed_alone.picture
    assert "moves" not in said.lower().replace("no legal move", ""), said
