"""How often feedback names the right mistake, per assignment registry: every known-wrong
variant in the registry, written into the reference solution file as a student would, is run on
every case that names the registry; for each failed case we check what the diagnosis says.

Prints, per mistake: failed cases, named alone and right, named right together with one other
mistake that gives the same answers there, misnamed (must be 0); then the shares. Aim: the right
mistake named for at least 90% of failed cases; honest solutions get no diagnosis.

    .venv/bin/python bench/bench_diagnoses.py [adversarial_search|othello ...]

(no argument: every registry; Othello takes a few minutes on a loaded machine)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"),
                str(ROOT / "assignments" / "adversarial_search" / "tests"),
                str(ROOT / "assignments" / "othello" / "tests")]

from gg_diagnosis import diagnoses_of, tally  # noqa: E402


class Registry(NamedTuple):
    """What the bench needs of one assignment's registry."""

    descriptions: list[str]
    student_source: Callable[[str], str]
    honest_sources: list[str]
    cases: list[Any]
    support_dir: Optional[Path]


def dominoes() -> Registry:
    from diagnosis_support import SOLUTION, best_move_cases, mutated_source, student_edits

    from assignments.adversarial_search.diagnoses import MISTAKES
    return Registry([d for d, _ in MISTAKES], lambda d: mutated_source(student_edits(d)),
                    [SOLUTION.read_text(encoding="utf-8")], best_move_cases(), None)


def othello() -> Registry:
    from othello_diagnosis_support import SOLUTION, STARTER, search_cases, student_source

    from assignments.othello.diagnoses import MISTAKES
    return Registry([m.description for m in MISTAKES], student_source,
                    [SOLUTION.read_text(encoding="utf-8")], search_cases(), STARTER)


REGISTRIES: dict[str, Callable[[], Registry]] = {
    "adversarial_search": dominoes, "othello": othello}


def measure(name: str, registry: Registry) -> bool:
    """Print the registry's table; True when nothing is misnamed and honest code gets none."""
    started = time.monotonic()
    totals = [0, 0, 0, 0]
    print(f"== {name}: {len(registry.cases)} cases\n"
          f"{'failed':>6} {'alone':>6} {'paired':>6} {'wrong':>6}  mistake")
    for description in registry.descriptions:
        found = diagnoses_of(registry.cases, registry.student_source(description),
                             registry.support_dir)
        counts = tally(description, found)
        totals = [total + count for total, count in zip(totals, counts)]
        print(f"{counts[0]:6d} {counts[1]:6d} {counts[2]:6d} {counts[3]:6d}  {description}")
    honest = [found for source in registry.honest_sources
              for found in diagnoses_of(registry.cases, source, registry.support_dir)]
    failed, alone, paired, wrong = totals
    print(f"right mistake named alone: {alone}/{failed} = {alone / max(failed, 1):.1%}")
    print(f"right mistake named (alone or with one twin): {alone + paired}/{failed} = "
          f"{(alone + paired) / max(failed, 1):.1%}")
    print(f"misnamed: {wrong}; honest solutions: {len(honest)} failed cases, "
          f"{sum(1 for _, _, d in honest if d)} diagnoses")
    print(f"({time.monotonic() - started:.1f} s)\n")
    return wrong == 0 and not honest


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in REGISTRIES]
    if unknown:
        print(f"unknown registry {unknown[0]!r}; choose from {', '.join(REGISTRIES)}")
        return 2
    results = [measure(name, REGISTRIES[name]()) for name in names or list(REGISTRIES)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
