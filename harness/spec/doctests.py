"""Doctest transcripts: parsing the handout's ``>>>`` examples and writing generated ones."""
from __future__ import annotations

import doctest
from dataclasses import dataclass
from typing import Any, Sequence

_PARSER = doctest.DocTestParser()


@dataclass(frozen=True)
class Example:
    """One ``>>>`` example: its source and the output the transcript expects ("" for none).

    ``line`` counts from 1 within the transcript.
    """

    source: str
    want: str
    line: int


def parse_transcript(text: str) -> tuple[Example, ...]:
    """Split a transcript into examples, in order.

    Raises:
        ValueError: the transcript is malformed (e.g. bad indentation of ``...`` lines) or
            holds no example.
    """
    examples = tuple(Example(e.source, e.want, e.lineno + 1)
                     for e in _PARSER.get_examples(text, name="transcript"))
    if not examples:
        raise ValueError("the transcript holds no '>>>' example")
    return examples


def render_doctest(setup: Sequence[str], expression: str, expected: Any) -> str:
    """Write a transcript: ``setup`` statements, then ``expression`` with ``repr(expected)``.

    Used by generators, whose expected value comes from the reference.
    """
    lines = []
    for statement in setup:
        first, *rest = statement.splitlines()
        lines.append(f">>> {first}")
        lines.extend(f"... {line}" for line in rest)
    lines.append(f">>> {expression}")
    lines.append(repr(expected))
    return "\n".join(lines) + "\n"
