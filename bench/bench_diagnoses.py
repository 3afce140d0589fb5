"""How often feedback names the right mistake: every known-wrong variant of Dominoes'
get_best_move, written into the solution file as a student would, is replayed against every
get_best_move case; for each failed case we check what the diagnosis says.

Prints, per mistake: failed cases, named alone and right, named right together with one other
mistake that gives the same answers there, misnamed (must be 0); then the shares. Aim: the right
mistake named for at least 90% of failed cases; honest solutions get no diagnosis.

    .venv/bin/python bench/bench_diagnoses.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "adversarial_search")]

from diagnosis_support import SOLUTION, diagnoses_of, mutated_source, student_edits  # noqa: E402

from reference.adversarial_search.diagnoses import MISTAKES  # noqa: E402


def main() -> int:
    started = time.monotonic()
    totals = [0, 0, 0, 0]
    print(f"{'failed':>6} {'alone':>6} {'paired':>6} {'wrong':>6}  mistake")
    for description, _ in MISTAKES:
        found = diagnoses_of(mutated_source(student_edits(description)))
        named = [d for _, _, d in found if d]
        alone = sum(1 for d in named if description in d and "each of these" not in d)
        paired = sum(1 for d in named if description in d and "each of these" in d)
        wrong = sum(1 for d in named if description not in d)
        for index, count in enumerate((len(found), alone, paired, wrong)):
            totals[index] += count
        print(f"{len(found):6d} {alone:6d} {paired:6d} {wrong:6d}  {description}")
    honest = diagnoses_of(SOLUTION.read_text(encoding="utf-8"))
    failed, alone, paired, wrong = totals
    print(f"\nright mistake named alone: {alone}/{failed} = {alone / failed:.1%}")
    print(f"right mistake named (alone or with one twin): {alone + paired}/{failed} = "
          f"{(alone + paired) / failed:.1%}")
    print(f"misnamed: {wrong}; honest reference: {len(honest)} failed cases, no diagnosis")
    print(f"({time.monotonic() - started:.1f} s)")
    return 0 if wrong == 0 and not honest else 1


if __name__ == "__main__":
    sys.exit(main())
