"""Doctest transcripts: parsing the handout's ``>>>`` examples and writing generated ones."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Sequence

from harness.records.spec import Example, prompt

if TYPE_CHECKING:
    import doctest


@functools.lru_cache(maxsize=1)
def _parser() -> doctest.DocTestParser:
    """Made when the first transcript is parsed: ``doctest`` imports pdb and unittest (about
    8 ms), which importing the spec package (every command) need not pay."""
    import doctest
    return doctest.DocTestParser()


@functools.lru_cache(maxsize=4096)
def parse_transcript(text: str) -> tuple[Example, ...]:
    """Split a transcript into examples, in order (kept per text: a process that loaded the
    specs once, such as a warm process, hands the parsed cases to every grading it forks).

    Raises:
        ValueError: the transcript is malformed (e.g. bad indentation of ``...`` lines) or
            holds no example.
    """
    examples = tuple(Example(e.source, e.want, e.lineno + 1)
                     for e in _parser().get_examples(text, name="transcript"))
    if not examples:
        raise ValueError("the transcript holds no '>>>' example")
    return examples


def render_doctest(setup: Sequence[str], expression: str, expected: Any) -> str:
    """Write a transcript: ``setup`` statements, then ``expression`` with ``repr(expected)``.

    Used by generators, whose expected value comes from the reference.
    """
    lines = [prompt(statement) for statement in setup]
    lines.append(prompt(expression))
    lines.append(repr(expected))
    return "\n".join(lines) + "\n"
