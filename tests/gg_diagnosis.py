"""Feedback diagnoses measured in process: a solution file with a known mistake written in, as a
student would, is run on an assignment's diagnosable cases, and each failed case's diagnosis is
collected. Trusted code only (our own solution files), so no sandbox is needed; the grader's
comparator and registry are the real ones."""
from __future__ import annotations

import functools
import sys
from pathlib import Path
from types import CodeType
from typing import Any, Optional

from harness.compare.diagnosis import diagnose
from harness.dotted import resolve_callable
from harness.records.observations import Observation
from harness.spec import find_assignment
from harness.spec.loader import load_all_cases
from harness.spec.registry import resolve_comparator

ROOT = Path(__file__).resolve().parents[1]


def edited(path: Path, edits: list[tuple[str, str]]) -> str:
    """The text of ``path`` with each ``(old, new)`` replacement made (each must occur)."""
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, f"{old!r} does not occur in {path.name}"
        text = text.replace(old, new)
    return text


@functools.lru_cache(maxsize=32)
def _compiled(source: str) -> CodeType:
    """``source`` compiled once: a mistake's file is run afresh for each of its cases (an
    Othello agent took 3 ms to compile, about 130 times a run)."""
    return compile(source, "student.py", "exec")


def module_namespace(source: str, support_dir: Optional[Path] = None) -> dict[str, Any]:
    """``source`` run as a module, in a namespace of its own; ``support_dir`` (the starter
    modules it imports) is put on ``sys.path`` first."""
    if support_dir is not None and str(support_dir) not in sys.path:
        sys.path.insert(0, str(support_dir))
    namespace: dict[str, Any] = {"__name__": "student"}
    exec(_compiled(source), namespace)  # our own solution file
    return namespace


def diagnosable_cases(assignment: str) -> list[Any]:
    """The assignment's cases whose case file names a ``diagnose:`` registry."""
    return [c for c in load_all_cases(find_assignment(assignment)) if c.diagnose]


def observe(case: Any, source: str, support_dir: Optional[Path] = None) -> list[Observation]:
    """The case's observations for ``source`` in a fresh module, as the sandbox would report
    them (an example that raises is reported as an error-free missing value)."""
    namespace = module_namespace(source, support_dir)
    observations = []
    for example in case.examples:
        code = example.source.strip()
        try:
            value = eval(compile(code, "<case>", "eval"), namespace)
        except SyntaxError:
            exec(compile(code, "<case>", "exec"), namespace)
            value = None
        observations.append(Observation(value=value, has_value=value is not None))
    return observations


def diagnoses_of(cases: list[Any], source: str,
                 support_dir: Optional[Path] = None) -> list[tuple[str, float, str]]:
    """(case id, fraction earned, diagnosis) for every case of ``cases`` that ``source`` fails.

    Diagnosed as the grader does (``with_diagnosis``): each registry mistake's replay of a case is
    kept in the run's replay cache (``GAMEGRADER_CACHE``, set by tests/gg_suite.py), so the tests
    of the other mistakes, which fail the same cases, do not search them again."""
    found = []
    for case in cases:
        observations = observe(case, source, support_dir)
        judgement = resolve_comparator(case.compare)(case, observations, False)
        if judgement.fraction < 1.0:
            variants = resolve_callable(case.diagnose)()
            found.append((case.id, judgement.fraction,
                          diagnose(case, observations, variants, cached=True)))
    return found


def tally(description: str, found: list[tuple[str, float, str]]) -> tuple[int, int, int, int]:
    """(failed cases, right mistake named alone, named with one twin, misnamed)."""
    named = [d for _, _, d in found if d]
    alone = sum(1 for d in named if description in d and "each of these" not in d)
    paired = sum(1 for d in named if description in d and "each of these" in d)
    wrong = sum(1 for d in named if description not in d)
    return len(found), alone, paired, wrong
