"""The records of a tournament's games, kept under ``--out`` so a tournament resumes and re-runs
incrementally.

Each finished game is written as it ends, atomically (a temporary file renamed over the
record), to ``records/KEY.json``, where KEY digests everything that decides the game: the
arena's settings, both entrants' names and code fingerprints (``fingerprints``), who plays
first, and the game's seed. Before a batch of games is played, every game whose record exists is
taken from it instead, so:

- a killed run, started again on the same ``--out``, plays only the games it had not finished;
- a re-run after some entrants changed plays only their games (a removed entrant's games are
  simply not scheduled; an added one's are new keys);
- the same happens on a dask cluster: records are written by the calling process, as each game's
  result comes back, whatever executor played it.

An aborted game (the harness gave up on it) is not a result and is never reused: a re-run plays
it again. A record that cannot be read, or that is not the game its key names, is played again.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Optional, Sequence

from harness.records.games import Arena, Entrant, GameResult, GameTask
from harness.tournament.fingerprints import arena_fingerprint, code_fingerprint

RECORDS_DIR = "records"
FORMAT = 1
"""Version of the key and record layout; a change makes every old record a miss."""
MAX_RECORD_BYTES = 16 << 20
"""A record larger than this is not read (and its game is played again)."""


def _side(entrant: Entrant) -> list[str]:
    return [entrant.name, entrant.code or entrant.source]


class GameStore:
    """Finished games of one arena's tournaments, in ``folder/records``.

    Args:
        folder: the tournament's output folder.
        arena: the arena the games are played in (its settings are part of every key).
        reuse: False to play every game again (records are still written).
    """

    def __init__(self, folder: Path, arena: Arena, reuse: bool = True) -> None:
        self.folder = folder / RECORDS_DIR
        self.arena_key = arena_fingerprint(arena)
        self.reuse = reuse

    def key(self, task: GameTask) -> str:
        """The digest naming ``task``'s record."""
        text = json.dumps([FORMAT, self.arena_key, _side(task.first), _side(task.second),
                           task.seed])
        return code_fingerprint([("game", text.encode())])

    def get(self, task: GameTask) -> Optional[GameResult]:
        """The recorded result of ``task``, or None when it must be played."""
        if not self.reuse:
            return None
        path = self.folder / f"{self.key(task)}.json"
        try:
            if path.stat().st_size > MAX_RECORD_BYTES:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
            result = GameResult.from_dict(data["result"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if data.get("key") != self.key(task) or result.is_aborted or (
                result.first, result.second, result.seed) != (
                task.first.name, task.second.name, task.seed):
            return None
        return result

    def put(self, task: GameTask, result: GameResult) -> None:
        """Record ``result`` (an aborted one is not kept) atomically."""
        if result.is_aborted:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        record: dict[str, Any] = {"key": self.key(task), "label": task.label,
                                  "result": result.to_dict()}
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".partial-",
                                             suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(record, out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.folder / f"{record['key']}.json")
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def split(self, tasks: Sequence[GameTask]
              ) -> tuple[dict[int, GameResult], list[int]]:
        """The recorded results by position in ``tasks``, and the positions left to play."""
        known: dict[int, GameResult] = {}
        todo: list[int] = []
        for position, task in enumerate(tasks):
            result = self.get(task)
            if result is None:
                todo.append(position)
            else:
                known[position] = result
        return known, todo


__all__ = ["FORMAT", "GameStore", "RECORDS_DIR"]
