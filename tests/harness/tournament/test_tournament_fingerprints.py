"""Fingerprints and records: what makes a recorded game reusable, and what does not."""
from __future__ import annotations

import json
from pathlib import Path

from tournament_fakes import CoinArena

from harness.games.arenas import HouseArena
from harness.records.games import Entrant, GameTask
from harness.tournament.fingerprints import (
    arena_fingerprint,
    code_fingerprint,
    fingerprinted,
    house_files,
)
from reference.isolation.kit import make_kit

ADA = Entrant("ada", "/tmp/one/player.py", "c-ada")
BOB = Entrant("bob", "/tmp/two/player.py", "c-bob")


def test_code_fingerprints_follow_the_bytes_and_names_not_the_order() -> None:
    one = code_fingerprint([("player.py", b"A = 1\n"), ("helper.py", b"H = 1\n")])
    assert one == code_fingerprint([("helper.py", b"H = 1\n"), ("player.py", b"A = 1\n")])
    assert one != code_fingerprint([("player.py", b"A = 2\n"), ("helper.py", b"H = 1\n")])
    assert one != code_fingerprint([("player.py", b"H = 1\n"), ("helper.py", b"A = 1\n")])


def test_the_real_arenas_fingerprints_are_stable_and_see_their_settings() -> None:
    arena = HouseArena(make_kit(clock=5.0))
    assert arena_fingerprint(arena) == arena_fingerprint(HouseArena(make_kit(clock=5.0)))
    assert arena_fingerprint(arena) != arena_fingerprint(HouseArena(make_kit(clock=6.0)))
    assert arena_fingerprint(arena) != arena_fingerprint(HouseArena(make_kit(clock=5.0, size=6)))
    files = {p.name for p in house_files(arena)}
    assert {"kit.py", "players.py", "referee.py", "house_players.py"} <= files
    bots = fingerprinted([Entrant("g", "house:greedy"), Entrant("r", "house:random"), ADA],
                         arena)
    assert len({b.code for b in bots}) == 3 and bots[2] == ADA
    assert bots == fingerprinted([Entrant("g", "house:greedy"), Entrant("r", "house:random"),
                                  ADA], arena)


def test_a_record_is_reused_only_for_its_own_game(tmp_path: Path) -> None:
    from harness.tournament.store import RECORDS_DIR, GameStore

    arena = CoinArena()
    store = GameStore(tmp_path, arena)
    task = GameTask(0, 1, ADA, BOB, 7)
    result = arena.play(task)
    store.put(task, result)
    assert store.get(task) == result
    moved = GameTask(5, 3, Entrant("ada", "/elsewhere/player.py", "c-ada"), BOB, 7, "other")
    assert store.get(moved) == result  # where the file was staged does not matter
    for other in (GameTask(0, 1, BOB, ADA, 7), GameTask(0, 1, ADA, BOB, 8),
                  GameTask(0, 1, Entrant("ada", "x", "c-ada2"), BOB, 7)):
        assert store.get(other) is None
    assert GameStore(tmp_path, CoinArena(pause=0.5)).get(task) is None
    assert GameStore(tmp_path, arena, reuse=False).get(task) is None
    record = next((tmp_path / RECORDS_DIR).glob("*.json"))
    record.write_text(record.read_text()[:40])  # a torn or damaged record is played again
    assert store.get(task) is None
    record.write_text(json.dumps({"key": "x", "result": result.to_dict()}))
    assert store.get(task) is None
