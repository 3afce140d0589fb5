"""A game's result names why it ended with the one ``Reason`` enum, and its record on disk is
the same JSON as when the reason was a string, so records written before still load and a
re-run's records compare byte for byte."""
from __future__ import annotations

import json

from harness.records.games import GameResult, Reason

# A record as the tournament wrote it with the reason as a string (games/0001.json).
WRITTEN = ('{"first": "ann", "second": "bob", "seed": 7, "winner": 1, "reason": "timeout", '
           '"detail": "no reply in 2.0 s", "moves": [[1, 2]], "seconds": [0.5], '
           '"clocks": [0.0, 1.5], "forfeiter": 0, "game": {"name": "isolation"}, '
           '"setup": [0.1, 0.0]}')


def test_a_loaded_record_names_its_reason_with_the_enum():
    result = GameResult.from_dict(json.loads(WRITTEN))
    assert result.reason is Reason.TIMEOUT
    assert result.forfeiter_name == "ann" and not result.is_aborted


def test_a_result_is_written_as_the_same_json_as_before():
    result = GameResult("ann", "bob", 7, 1, Reason.TIMEOUT, "no reply in 2.0 s", ((1, 2),),
                        (0.5,), (0.0, 1.5), 0, (("name", "isolation"),), (0.1, 0.0))
    assert json.dumps(result.to_dict()) == WRITTEN
    assert GameResult.from_dict(json.loads(WRITTEN)) == result


def test_every_reason_survives_its_record():
    for reason in Reason:
        result = GameResult("a", "b", 1, None, reason)
        again = GameResult.from_dict(json.loads(json.dumps(result.to_dict())))
        assert again.reason is reason and again.is_aborted == (reason is Reason.ABORTED)
